"""jinja2's immutable sandbox with bounds on what one render may cost.

A template from a game folder is untrusted code.  The sandbox already keeps
it from reaching Python's internals; this class also keeps it from taking all
the time or memory there is.  One render is bounded in:

- time: the processor time of the rendering thread, counted only while
  templates render (:class:`TemplateClock`: one clock for a rulebook, one for
  each card's templates), at most ``KITGEN_TEMPLATE_SECONDS`` (5 s); a
  watchdog thread interrupts the rendering thread once it is spent, so a slow
  or busy machine never stops a sound template, and text fitting, drawing and
  waiting for a processor never count;
- output: :data:`MAX_OUTPUT` characters of text;
- one value: :data:`MAX_STRING` characters or items, checked *before* the
  operations that make large values from small ones (``*``, ``+``, ``~``,
  ``%`` and ``format`` with large widths, ``center``, ``join``, ``replace``,
  ``lipsum``...), so no step can allocate gigabytes before it is stopped;
- all values: :data:`MAX_MADE` characters or items made by one render, every
  value that a call, a filter, an operator or a slice makes added up, so that
  many values each within :data:`MAX_STRING` cannot add up to gigabytes
  (``range(20000)|map('center', 999999)|list`` stops after 20 of them);
- nesting: :data:`MAX_DEPTH` calls (macros, ``caller()``, recursive loops)
  and :data:`MAX_INCLUDES` includes or imports inside one another; and
  before it runs, its text: brackets, blocks, filters and operators at most
  :data:`MAX_NESTING` inside one another (refused as a syntax error, since
  parsing and compiling recurse once per level);
- loops: :data:`MAX_ITERATIONS` iterations of ``{% for %}`` in all.

A render inside another (a layout's ``vars.x`` read by a box's template)
counts towards the one it is part of.  Crossing a bound raises
:class:`TemplateLimit` (:class:`TemplateCost` for the values made in all, as
costly to meet a second time as the first; the watchdog raises
:class:`TemplateTimeout`) inside the template's own code, so the caller can
name the template file and line from the traceback (:func:`template_lines`).
"""

from __future__ import annotations

import ctypes
import os
import random
import re
import string
import sys
import threading
import time
import types
from functools import update_wrapper
from typing import Any

from jinja2 import TemplateSyntaxError, nodes, pass_context
from jinja2.compiler import CodeGenerator
from jinja2.sandbox import ImmutableSandboxedEnvironment

MAX_OUTPUT = 500_000         # characters of rendered text: a long rulebook is some 100,000
MAX_STRING = 1_000_000       # characters (or items of a list) in one value
MAX_MADE = 20_000_000        # characters or items of all the values one render makes, added up
MAX_DEPTH = 50               # calls inside one another
MAX_INCLUDES = 20            # includes, imports and extends inside one another
MAX_ITERATIONS = 1_000_000   # {% for %} iterations in one render
MAX_INT_BITS = 100_000       # a number of some 30,000 digits


class TemplateLimit(Exception):
    """A template crossed one of the bounds; the message says which."""


class TemplateCost(TemplateLimit):
    """A template made more than :data:`MAX_MADE` in all: as costly to meet again as it was the first time."""


class TemplateTimeout(BaseException):
    """Raised in the rendering thread by the watchdog (a BaseException: nothing on the way swallows it)."""


def template_seconds() -> float:
    """The processor time the templates of one card or one rulebook may take (``KITGEN_TEMPLATE_SECONDS``)."""
    from kitgen.settings import number

    return number("KITGEN_TEMPLATE_SECONDS")


class _Render(threading.local):
    """What the render under way in this thread has cost so far (a render inside another adds to it)."""

    open = 0                     # renders under way, one inside another
    made = 0
    iterations = 0
    depth = 0


_RENDER = _Render()


class _Bounded:
    """``with bounded_render():`` a render, counted from nothing unless it is part of another (a layout's
    vars read by a box's template).  A class rather than a generator: it is entered for every template a
    card renders."""

    def __enter__(self) -> None:
        state = _RENDER
        if not state.open:
            state.made = state.iterations = state.depth = 0
        state.open += 1

    def __exit__(self, *exc) -> None:
        _RENDER.open -= 1


_BOUNDED = _Bounded()


def bounded_render() -> _Bounded:
    return _BOUNDED


def _count(size: int) -> None:
    """Add a value of ``size`` characters or items to what the render under way has made."""
    state = _RENDER
    state.made += size
    if state.made > MAX_MADE:
        state.made = 0             # so the words that say where are not refused in turn
        raise TemplateCost(f"the values it made add up to more than {MAX_MADE:,} characters or items "
                           f"(each value is within {MAX_STRING:,}, but not all of them together)")


def _too_long(size: int, what: str = "a value") -> TemplateLimit:
    return TemplateLimit(f"{what} of {size:,} characters or items is more than the {MAX_STRING:,} "
                         "a template may make")


def _check_size(size: int, what: str = "a value") -> None:
    if size > MAX_STRING:
        raise _too_long(size, what)


def _check_result(value: Any) -> Any:
    """``value``, refused when it is too long, and counted in what the render made."""
    if isinstance(value, (str, bytes, list, tuple, dict, set, frozenset)):
        size = len(value)
        if size > MAX_STRING:
            raise _too_long(size)
        _count(size)
    return value


def _check_width(value: Any, what: str) -> None:
    if isinstance(value, int) and not isinstance(value, bool) and value > MAX_STRING:
        raise TemplateLimit(f"{what} of {value:,} is more than the {MAX_STRING:,} characters a template may make")


_PERCENT = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?")


def _check_percent(fmt: str, args: Any) -> None:
    """Refuse '%'-formatting whose widths or precisions would make a huge string."""
    starred = False
    for match in _PERCENT.finditer(fmt):
        for group in match.groups():
            if group == "*":
                starred = True
            elif group:
                _check_width(int(group), "a width in '%' formatting")
    if starred:
        for value in (args if isinstance(args, tuple) else (args,)):
            _check_width(value, "a width in '%' formatting")


def _check_format(fmt: str, args: tuple, kwargs: dict) -> None:
    """Refuse ``str.format`` specs whose widths or precisions would make a huge string."""
    try:
        fields = list(string.Formatter().parse(fmt))
    except ValueError:
        return                          # format() itself says what is wrong
    for _, _, spec, _ in fields:
        if not spec:
            continue
        if "{" in spec:                 # a width taken from the arguments
            for value in (*args, *kwargs.values()):
                _check_width(value, "a width in format()")
        for digits in re.findall(r"\d+", spec):
            _check_width(int(digits), "a width in format()")


def _check_repeat(seq: Any, times: Any) -> None:
    if isinstance(times, int) and hasattr(seq, "__len__") and not isinstance(seq, (int, float)):
        _check_size(len(seq) * max(times, 0))


def _text_len(value: Any) -> int:
    return len(value) if isinstance(value, str) else len(str(value))


def _check_join(items: Any, sep: str = "") -> None:
    if isinstance(items, (list, tuple)):
        total = len(sep) * max(len(items) - 1, 0)
        for item in items:
            total += _text_len(item)
            _check_size(total)


def _check_replace(text: Any, old: Any, new: Any, count: Any = -1) -> None:
    if isinstance(text, str) and isinstance(old, str) and isinstance(new, str):
        hits = text.count(old) if old else len(text) + 1
        if isinstance(count, int) and count >= 0:
            hits = min(hits, count)
        _check_size(len(text) + hits * max(len(new) - len(old), 0))


# str methods that make long strings from short ones, checked before they run
def _str_method_check(name: str, text: str, args: tuple, kwargs: dict) -> None:
    if name in ("center", "ljust", "rjust", "zfill"):
        _check_width(args[0] if args else kwargs.get("width"), f"a width in {name}()")
    elif name == "expandtabs":
        size = args[0] if args else kwargs.get("tabsize", 8)
        if isinstance(size, int):
            _check_size(len(text) + text.count("\t") * max(size, 0))
    elif name == "join":
        _check_join(args[0] if args else None, text)
    elif name == "replace":
        _check_replace(text, *args[:3], **kwargs)


def _guarded(name: str, func):
    """:func:`_guard_filter` of ``name`` and ``func``, made once per process for each pair: every sandbox
    guards jinja2's same few dozen filters, and a game's reading makes one (the wrappers hold nothing
    of their sandbox)."""
    try:
        return _GUARDED[name, func]
    except KeyError:
        pass
    except TypeError:                          # a filter that cannot be a key: guarded anew
        return _guard_filter(name, func)
    guarded = _guard_filter(name, func)
    with _GUARDED_LOCK:
        if len(_GUARDED) < 1024:               # jinja2's filters and kitgen's own: never more than a few dozen
            _GUARDED[name, func] = guarded
    return guarded


_GUARDED: dict[tuple[str, Any], Any] = {}
_GUARDED_LOCK = threading.Lock()


def _guard_filter(name: str, func):
    """The filter ``func`` with its arguments checked before and its result after."""
    def checked(*args, **kwargs):
        values = [a for a in args if not _is_jinja_object(a)]
        if name in ("center", "indent", "truncate", "wordwrap", "batch", "slice", "tojson"):
            for value in (*values[1:], *kwargs.values()):
                _check_width(value, f"an argument of the '{name}' filter")
        if name == "indent" and values and isinstance(values[0], str):
            width = values[1] if len(values) > 1 else kwargs.get("width", 4)
            if isinstance(width, str):
                _check_size(len(width) * (values[0].count("\n") + 1) + len(values[0]))
        elif name == "format" and values and isinstance(values[0], str):
            _check_percent(values[0], tuple(values[1:]) or kwargs)
        elif name == "join" and values:
            items = values[0]
            _check_join(list(items) if isinstance(items, (list, tuple)) else items,
                        values[1] if len(values) > 1 and isinstance(values[1], str) else "")
        elif name == "replace" and len(values) >= 3:
            _check_replace(str(values[0]), *values[1:4])
        return _check_result(func(*args, **kwargs))

    return update_wrapper(checked, func)


def _is_jinja_object(value: Any) -> bool:
    """The environment, context or eval context that jinja passes to some filters first."""
    module = type(value).__module__ or ""
    return module.startswith("jinja2.") and not isinstance(value, str)


def _lipsum(func):
    """jinja2's ``lipsum()``, bounded, and the same text in every build for the same arguments."""
    def checked(n=5, html=True, min=20, max=100):
        _check_width(n * max if isinstance(n, int) and isinstance(max, int) else 0, "lipsum()'s words")
        if isinstance(n, int) and n > 1000:
            raise TemplateLimit(f"lipsum({n:,}) asks for more than 1,000 paragraphs")
        rng = random.Random(repr((n, html, min, max)))
        steady = types.FunctionType(func.__code__, {**func.__globals__, "choice": rng.choice,
                                                    "randrange": rng.randrange}, func.__name__, func.__defaults__)
        return steady(n, html, min, max)

    return update_wrapper(checked, func)


@pass_context
def _random_item(context, seq):
    """jinja2's ``random`` filter, picking the same item in every build: the choice is seeded by the
    sequence and by the plain values the template was given (a card's name, row...), so it still
    varies from card to card."""
    items = list(seq)
    if not items:
        return context.environment.undefined("No random item, sequence was empty.")
    given = sorted((k, repr(v)) for k, v in context.parent.items() if type(v) in (str, int, float, bool))
    return random.Random(repr((items, given))).choice(items)


class _Counted:
    """A loop's iterable that counts the iterations of one render (its length stays known)."""

    def __init__(self, env: "LimitedSandbox", iterable: Any):
        self.env, self.iterable = env, iterable

    def __len__(self) -> int:
        return len(self.iterable)

    def __iter__(self):
        state = _RENDER
        for item in self.iterable:
            state.iterations += 1
            if state.iterations > MAX_ITERATIONS:
                raise TemplateLimit(f"loops ran more than {MAX_ITERATIONS:,} times")
            if _DOG.fired and _DOG.stopped():
                raise TemplateTimeout()
            yield item


MAX_NESTING = 64             # brackets, blocks, filters and operators inside one another

_OPEN = {"lparen": "rparen", "lbracket": "rbracket", "lbrace": "rbrace"}


def _too_deep(line: int | None, name, filename) -> TemplateSyntaxError:
    return TemplateSyntaxError(f"nested more than {MAX_NESTING} deep (brackets, blocks, filters and operators "
                               "inside one another); write it more simply", line or 1, name, filename)


def _check_brackets(tokens, name, filename) -> None:
    """Refuse brackets nested more than MAX_NESTING deep before the parser recurses into them (the
    lexer does not recurse)."""
    depth = 0
    for token in tokens:
        if token.type in _OPEN:
            depth += 1
            if depth > MAX_NESTING:
                raise _too_deep(token.lineno, name, filename)
        elif token.type in ("rparen", "rbracket", "rbrace"):
            depth -= 1


def _check_nesting(tree: nodes.Template, name, filename) -> None:
    """Refuse a tree whose nodes nest more than MAX_NESTING deep (``a|f|f|f...``, ``1+1+1...``, blocks
    inside blocks): compiling it would recurse as deep, in jinja2's compiler and in Python's."""
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        children = list(node.iter_child_nodes())
        if not children:
            continue
        if not isinstance(node, (nodes.Template, nodes.Output)):
            depth += 1
            if depth > MAX_NESTING:
                raise _too_deep(node.lineno, name, filename)
        stack.extend((child, depth) for child in children)


class _Generator(CodeGenerator):
    """Compiles ``a ~ b`` into a call that checks the joined length first, and a slice ``a[1:]`` (which
    jinja2 writes as Python's own) into a call that counts the value it makes."""

    def visit_Concat(self, node: nodes.Concat, frame) -> None:
        self.write("environment.checked_concat((")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("))")

    def visit_Getitem(self, node: nodes.Getitem, frame) -> None:
        if not isinstance(node.arg, nodes.Slice):
            super().visit_Getitem(node, frame)
            return
        self.write("environment.checked_slice(")
        self.visit(node.node, frame)
        self.write(", slice(")
        for i, part in enumerate((node.arg.start, node.arg.stop, node.arg.step)):
            self.write(", " if i else "")
            if part is None:
                self.write("None")
            else:
                self.visit(part, frame)
        self.write("))")


def template_lines(tb) -> list[tuple[str, int]]:
    """(file name, line of the template) of each frame of template code in the traceback ``tb``, outermost
    first.  jinja2 rewrites the traceback of the exceptions it handles into template lines; the lines of
    those it does not (the watchdog's, a BaseException) are found here from its own map of the code."""
    found = []
    while tb is not None:
        frame = tb.tb_frame
        template = frame.f_globals.get("__jinja_template__")
        line = _line_of(tb) if template is not None or "__jinja_exception__" in frame.f_globals else None
        if line is None:
            pass
        elif template is not None:
            found.append((frame.f_code.co_filename, template.get_corresponding_lineno(line)))
        else:                                                    # a frame jinja2 rewrote
            found.append((frame.f_code.co_filename, line))
        tb = tb.tb_next
    return found


def _line_of(tb) -> int | None:
    """The line of code a traceback entry stopped at.  The watchdog's exception can land on an instruction
    that has no line of its own (``tb_lineno`` None): the line of the last instruction before it that has
    one stands for it."""
    if tb.tb_lineno is not None:
        return tb.tb_lineno
    line = None
    for start, _end, lineno in tb.tb_frame.f_code.co_lines():
        if start > tb.tb_lasti:
            break
        if lineno is not None:
            line = lineno
    return line


class LimitedSandbox(ImmutableSandboxedEnvironment):
    """The immutable sandbox, with the bounds of this module on every render."""

    intercepted_binops = frozenset({"*", "+", "%", "**"})
    code_generator_class = _Generator

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.root_files: set[str] = set()      # file names of the templates loaded, to count include frames
        self.filters["random"] = _random_item
        for name, func in list(self.filters.items()):
            self.filters[name] = _guarded(name, func)
        self.globals["lipsum"] = _lipsum(self.globals["lipsum"])

    # --- building values -----------------------------------------------------

    def call_binop(self, context, operator: str, left: Any, right: Any) -> Any:
        if _DOG.fired and _DOG.stopped():
            raise TemplateTimeout()
        if operator == "*":
            _check_repeat(left, right)
            _check_repeat(right, left)
            if isinstance(left, int) and isinstance(right, int):
                self._check_bits(abs(left).bit_length() + abs(right).bit_length())
        elif operator == "+":
            if hasattr(left, "__len__") and hasattr(right, "__len__") and type(left) is type(right):
                _check_size(len(left) + len(right))
        elif operator == "%":
            if isinstance(left, str):
                _check_percent(left, right)
        elif operator == "**":
            if isinstance(left, int) and isinstance(right, int) and right > 0 and abs(left) > 1:
                self._check_bits(abs(left).bit_length() * right)
        return _check_result(self.binop_table[operator](left, right))

    @staticmethod
    def _check_bits(bits: int) -> None:
        if bits > MAX_INT_BITS:
            raise TemplateLimit(f"a number of about {bits * 0.30103:,.0f} digits is larger than a template may make")

    def checked_concat(self, parts) -> str:
        texts = [p if isinstance(p, str) else str(p) for p in parts]
        size = sum(len(t) for t in texts)
        _check_size(size, "a joined text")
        _count(size)
        return "".join(texts)

    def concat(self, chunks) -> str:
        """Joins a block's output ({% set %} blocks, macros, caller()), counting as it goes."""
        parts, total = [], 0
        for chunk in chunks:
            total += len(chunk)
            if total > MAX_OUTPUT:
                raise TemplateLimit(f"a block of more than {MAX_OUTPUT:,} characters")
            parts.append(chunk)
        _count(total)
        return "".join(parts)

    def checked_slice(self, obj: Any, part: slice) -> Any:
        """``obj[part]``, a new value counted as the others are."""
        return _check_result(obj[part])

    def wrap_str_format(self, value: Any):
        wrapped = super().wrap_str_format(value)
        if wrapped is None:
            return None
        fmt, is_map = value.__self__, value.__name__ == "format_map"

        def checked(*args, **kwargs):
            if is_map:
                _check_format(fmt, (), dict(args[0]) if args and isinstance(args[0], dict) else {})
            else:
                _check_format(fmt, args, kwargs)
            return _check_result(wrapped(*args, **kwargs))

        return update_wrapper(checked, value)

    # --- calls and nesting -----------------------------------------------------

    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 (jinja's own signature)
        if isinstance(__obj, types.BuiltinMethodType) and isinstance(getattr(__obj, "__self__", None), str):
            _str_method_check(__obj.__name__, __obj.__self__, args, kwargs)
        if _DOG.fired and _DOG.stopped():
            raise TemplateTimeout()
        state = _RENDER
        state.depth += 1
        try:
            if state.depth > MAX_DEPTH:
                raise TemplateLimit(f"calls nested more than {MAX_DEPTH} deep (a macro calling itself?)")
            return _check_result(super().call(__context, __obj, *args, **kwargs))
        finally:
            state.depth -= 1

    def get_template(self, name, parent=None, globals=None):
        if self.root_files:
            depth, frame = 0, sys._getframe(1)
            while frame is not None:
                depth += frame.f_code.co_name == "root" and frame.f_code.co_filename in self.root_files
                frame = frame.f_back
            if depth >= MAX_INCLUDES:
                raise TemplateLimit(f"includes nested more than {MAX_INCLUDES} deep (a template including itself?)")
        template = super().get_template(name, parent, globals)
        if template.filename:
            self.root_files.add(template.filename)
        return template

    def _parse(self, source, name, filename):
        _check_brackets(self._tokenize(source, name, filename), name, filename)
        try:
            tree = super()._parse(source, name, filename)
        except RecursionError:          # the parser recurses once per level of blocks and operators
            raise _too_deep(None, name, filename) from None
        _check_nesting(tree, name, filename)
        for loop in tree.find_all(nodes.For):
            loop.iter = nodes.Call(nodes.EnvironmentAttribute("count_loop"), [loop.iter], [], None, None,
                                   lineno=loop.iter.lineno)
        return tree

    def _compile(self, source: str, filename: str):
        try:
            return super()._compile(source, filename)
        except (SyntaxError, RecursionError, MemoryError):     # Python's own bounds: some 20 loops deep
            raise TemplateSyntaxError("loops and blocks nested too deeply to run (Python takes some 20 loops "
                                      "one inside another); write it more simply", 1, None, filename) from None

    def count_loop(self, iterable):
        return _Counted(self, iterable)

    # --- one render --------------------------------------------------------------

    def render_bounded(self, template, context: dict, clock: "TemplateClock") -> str:
        """The template rendered with ``context``, within every bound of this module, its time counted
        on ``clock``."""
        if template.filename:
            self.root_files.add(template.filename)
        parts, total = [], 0
        with bounded_render(), clock:
            for chunk in template.generate(context):
                total += len(chunk)
                if total > MAX_OUTPUT:
                    raise TemplateLimit(f"the template wrote more than {MAX_OUTPUT:,} characters")
                parts.append(chunk)
        return "".join(parts)


class TemplateClock:
    """The processor time templates may take for one piece of work (a rulebook, one card's templates):
    ``with clock:`` around each render counts the rendering thread's own processor time spent inside,
    and :class:`TemplateTimeout` is raised in that thread once ``seconds`` are spent in all.

    Only the time inside the blocks counts, measured in the thread's processor time
    (``time.thread_time()``), so the work between two renders (fitting text, drawing) and the time the
    thread waits for a processor on a busy machine never do.  Blocks inside one another count once.  The
    exception is set asynchronously (between two bytecodes of the rendering thread), so a loop that
    calls nothing is stopped too; it is set once, never again (a second one could land anywhere, even in
    the code that handles the first), and a template's own steps (a loop's turn, a call, an operator) ask
    whether their block's time ran out, so a render stops even where the first was lost.  It is never
    raised once the outermost block is left (a pending one is taken back), and a block left after its
    time ran out raises it as it ends.  One thread of the
    process (:class:`_Dog`) keeps every clock; entering and leaving a block takes no lock, so it costs
    about a microsecond.
    """

    def __init__(self, seconds: float | None = None):
        self._seconds = seconds      # None: KITGEN_TEMPLATE_SECONDS, read when first needed
        self.used = 0.0              # processor seconds spent inside the blocks left so far
        self.depth = 0
        self.start = 0.0

    @property
    def seconds(self) -> float:
        if self._seconds is None:
            self._seconds = template_seconds()
        return self._seconds

    def __enter__(self) -> "TemplateClock":
        if self.depth == 0:
            left = self.seconds - self.used
            if left <= 0:
                raise TemplateTimeout()
            self.start = time.thread_time()
            _DOG.watch(self, threading.get_ident(), self.start, left)
        self.depth += 1
        return self

    def __exit__(self, kind, value, tb) -> None:
        self.depth -= 1
        if self.depth:
            return
        fired = _DOG.unwatch(self)
        self.used += time.thread_time() - self.start
        if fired and kind is None:
            raise TemplateTimeout()


def _cpu_clock(thread: int) -> int | None:
    """The clock of ``thread``'s processor time, for another thread to read (None where there is none)."""
    try:
        return time.pthread_getcpuclockid(thread)
    except (AttributeError, OSError):
        return None


class _Dog:
    """The thread that keeps the clocks.  A clock's thread reaches its deadline no sooner than the wall
    time it still has to spend, so the dog sleeps that long (at most NAP, so that a clock started
    meanwhile is seen), reads the thread's processor time and either interrupts it or sleeps again.
    With no clock running for a while it sleeps until one starts.  Where a thread's processor time
    cannot be read by another thread, wall-clock time counts instead.

    A clock's thread and the dog take a watch out of :attr:`watches` with ``dict.pop``, which the
    interpreter does at once: whichever takes it first decides whether it fires, so the thread needs the
    lock only when the dog was first (to take back an exception set while it was leaving).  The dog is
    started at the first watch; a forked child starts its own (the fork happens with the dog's lock
    free, see ``os.register_at_fork``)."""

    SLACK = 0.01          # the shortest sleep: a thread that waits for a processor is not polled
    NAP = 0.25            # the longest sleep while clocks run: a clock started meanwhile waits no longer
    IDLE = 4              # naps without a clock before the dog sleeps until one starts

    def __init__(self):
        self.mutex = threading.Lock()      # taken by clocks' threads with this plain lock's own `with`, which an
        self.lock = threading.Condition(self.mutex)     # exception set meanwhile cannot leave held
        self.watches: dict[TemplateClock, tuple[int, int | None, float]] = {}   # thread, its clock, deadline
        self.fired: dict[TemplateClock, int] = {}     # interrupted, not left yet: the thread
        self.asleep = False               # sleeping until told (set under the lock, read without it)
        self.thread: threading.Thread | None = None

    def watch(self, watch: TemplateClock, thread: int, spent: float, left: float) -> None:
        """Interrupt ``thread``, whose processor time is ``spent`` now, once it has spent ``left`` more."""
        clock = _cpu_clock(thread)
        for old, its_thread in list(self.fired.items()):    # left without being taken back (its interruption
            if its_thread == thread:                        # landed on the way out): this thread starts anew
                self.fired.pop(old, None)
        self.watches[watch] = (thread, clock, spent + left if clock is not None else time.monotonic() + left)
        if self.thread is None or self.asleep:       # read after the watch is in: see _run
            with self.mutex:
                if self.thread is None:
                    self._start()
                self.lock.notify()

    def _start(self) -> None:
        dog = threading.Thread(target=self._run, name="kitgen-watchdog", daemon=True)
        dog.fork_safe = True
        try:
            dog.start()
        except RuntimeError:       # no room for the thread's stack: the process is out of memory
            self.watches.clear()
            raise MemoryError("no memory left to start the templates' watchdog thread") from None
        self.thread = dog

    def unwatch(self, watch: TemplateClock) -> bool:
        """Forget ``watch``; whether the dog interrupted its thread (an exception still pending is
        taken back: the caller raises it itself)."""
        if self.watches.pop(watch, None) is not None:
            return False
        with self.mutex:               # the dog took it first, and has set the exception by now
            self.fired.pop(watch, None)
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(threading.get_ident()), None)
        return True

    def stopped(self) -> bool:
        """Whether this thread is inside a block whose time ran out: the template's own steps (a loop's
        turn, a call, an operator) ask it, so a render stops even when the interruption was lost where
        it landed (in a garbage collector's callback or a ``__del__``, which swallow exceptions)."""
        if not self.fired:
            return False
        me = threading.get_ident()
        return any(thread == me and watch.depth > 0 for watch, thread in list(self.fired.items()))

    def _interrupt(self, thread: int) -> bool:
        """Raise :class:`TemplateTimeout` in ``thread`` at its next bytecode; False if it is gone."""
        return bool(ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread),
                                                               ctypes.py_object(TemplateTimeout)))

    def _run(self) -> None:
        idle = 0
        with self.lock:
            while True:
                now = time.monotonic()
                soonest = now + self.NAP
                for watch, (thread, clock, deadline) in list(self.watches.items()):
                    try:
                        spent = time.clock_gettime(clock) if clock is not None else now
                    except OSError:                # its thread is gone
                        self.watches.pop(watch, None)
                        continue
                    if spent < deadline:
                        soonest = min(soonest, now + max(deadline - spent, self.SLACK))
                    elif self.watches.pop(watch, None) is not None:      # taken before its thread left it
                        self.fired[watch] = thread
                        self._interrupt(thread)    # once: a thread is never interrupted again, wherever it is
                for watch in [watch for watch in list(self.fired) if watch.depth == 0]:
                    self.fired.pop(watch, None)    # left: nothing more to ask
                idle = 0 if self.watches or self.fired else idle + 1    # awake until a fired block is left
                if idle >= self.IDLE:
                    self.asleep = True     # first, then look again: a watch added meanwhile is seen here,
                    if not self.watches:   # or its thread sees asleep and wakes the dog
                        self.lock.wait()
                    self.asleep, idle = False, 0
                    continue
                self.lock.wait(soonest - now)

    def after_fork(self) -> None:
        self.__init__()


_DOG = _Dog()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=lambda: _DOG.mutex.acquire(), after_in_parent=lambda: _DOG.mutex.release(),
                        after_in_child=lambda: _DOG.after_fork())
