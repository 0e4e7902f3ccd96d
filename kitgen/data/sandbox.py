"""The one jinja2 sandbox every template of a game runs in: the rulebook's and the layouts'.

Game folders are shared between designers, so their templates are untrusted
code: they run in jinja2's immutable sandbox with bounds on what one render
may cost (:mod:`kitgen.data.bounded_sandbox`), where an undefined name is an
error (never a silent blank), and see only plain data.  Layout templates also
get the colour filters ``{{ color | darken(0.35) }}``, ``{{ color | lighten(0.8) }}``,
``{{ color | mix("#ffffff", 0.5) }}``, ``{{ color | readable }}`` (the colour, darkened just enough
to read on kitgen's light panel, or on the colour given) and ``{{ color | ink }}`` (white, or dark ink
where white would not read on the colour), and ``{{ value | reads_turned }}``: whether a value reads
as another upside down (6 and 9).

Templates read through a loader (the rulebook's) may keep their compiled code
between runs (:func:`compiled_code_cache`), as Python keeps byte-code: a
rebuild then skips jinja2's compiler, some 40 ms of every build of a built-in game.
"""

from __future__ import annotations

import hashlib
import re
import threading
from functools import lru_cache
from pathlib import Path
from types import CodeType
from typing import Any

import jinja2
from jinja2 import nodes
from jinja2.bccache import Bucket, FileSystemBytecodeCache

from kitgen.data.bounded_sandbox import LimitedSandbox, TemplateLimit
from kitgen.data.values import PANEL_COLOR, ink_on, mix_colors, readable_color
from kitgen.layout.card_face import reads_differently_turned


def plain_data(value: Any) -> Any:
    """A copy of TOML data built only from dicts, lists, strings, numbers and booleans: what a template
    may see of a game (never an object whose attributes lead elsewhere)."""
    if isinstance(value, dict):
        return {str(k): plain_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain_data(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)


def environment(**options) -> LimitedSandbox:
    """A bounded sandbox: strict about undefined names, no autoescaping, the colour filters; with a
    ``loader``, the compiled code of the templates it reads is kept between runs where it can be."""
    env = LimitedSandbox(undefined=jinja2.StrictUndefined, autoescape=False,
                         bytecode_cache=compiled_code_cache(_stable(options)) if "loader" in options else None,
                         **options)
    env.filters["mix"] = lambda color, other, t=0.5: mix_colors(str(color), str(other), t)
    env.filters["darken"] = lambda color, t=0.2: mix_colors(str(color), "#000000", t)
    env.filters["lighten"] = lambda color, t=0.2: mix_colors(str(color), "#ffffff", t)
    env.filters["reads_turned"] = reads_differently_turned
    env.filters["readable"] = lambda color, background=PANEL_COLOR: readable_color(str(color), str(background))
    env.filters["ink"] = lambda color: ink_on(str(color))
    return env


@lru_cache(maxsize=1)
def shared_environment() -> LimitedSandbox:
    """The process's one plain sandbox (no loader) for the short templates of a game's data: its layouts,
    ``[columns]`` and components.  :func:`compile_template` keeps their code by source for the process
    whatever sandbox compiled it, so one sandbox serves every game (making one cost as much as reading
    a small game's sheet)."""
    return environment()


class _KeyedCache(FileSystemBytecodeCache):
    """jinja2's cache of compiled templates, keyed also by what shapes the compiled code besides the
    template's name, file and source (which jinja2 keys it by): this sandbox's code and its options.

    The process also keeps the code of each template name and exact source it has met (in
    :attr:`codes`), whatever file it was read from: a copy of a game folder (a designer's, or each of
    a test's) reads the same templates from other files, which jinja2's key tells apart, so each
    copy's first build compiled them again.  Code kept for another file is handed out with its file
    name made this file's, as a compile of this file would give it (jinja2's tracebacks and the lines
    an error names read it)."""

    def __init__(self, fingerprint: str):
        super().__init__(CACHE_FOLDER, pattern="kitgen-%s.cache")
        self.fingerprint = fingerprint
        self.codes: dict[tuple[str, str], CodeType] = {}      # (name, source's checksum) -> code
        self._lock = threading.Lock()                           # the server's threads compile too

    def get_cache_key(self, name: str, filename: str | None = None) -> str:
        return super().get_cache_key(f"{self.fingerprint}|{name}", filename)

    def get_bucket(self, environment, name: str, filename: str | None, source: str) -> Bucket:
        checksum = self.get_source_checksum(source)
        bucket = _NamedBucket(environment, self.get_cache_key(name, filename), checksum, name)
        kept = self.codes.get((name, checksum))
        if kept is not None:
            bucket.code = _in_file(kept, filename or "<template>")
            return bucket
        self.load_bytecode(bucket)
        if bucket.code is not None:
            self._keep(name, checksum, bucket.code)
        return bucket

    def set_bucket(self, bucket: Bucket) -> None:
        if isinstance(bucket, _NamedBucket) and bucket.code is not None:
            self._keep(bucket.name, bucket.checksum, bucket.code)
        super().set_bucket(bucket)

    def _keep(self, name: str, checksum: str, code: CodeType) -> None:
        """Keep ``code`` for the process; past :data:`CODES_KEPT` sources (a server whose designer edits
        templates for a day meets a new source at every save) the oldest is forgotten first."""
        with self._lock:
            self.codes[(name, checksum)] = code
            while len(self.codes) > CODES_KEPT:
                del self.codes[next(iter(self.codes))]


class _NamedBucket(Bucket):
    """A bucket that knows the name of its template (the key of the process's own kept code)."""

    def __init__(self, environment, key: str, checksum: str, name: str):
        super().__init__(environment, key, checksum)
        self.name = name


def _in_file(code: CodeType, filename: str) -> CodeType:
    """``code`` and the code objects inside it (its functions) as compiled from ``filename``."""
    if code.co_filename == filename:
        return code
    consts = tuple(_in_file(c, filename) if isinstance(c, CodeType) else c for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)


CODES_KEPT = 256                    # template sources whose compiled code a process keeps
CACHE_FOLDER: str | None = None     # None: the user's private folder under the system's temporary one


@lru_cache(maxsize=8)
def compiled_code_cache(options: str) -> FileSystemBytecodeCache | None:
    """A cache of compiled templates in the user's own private temporary folder (jinja2 makes it mode
    700 and refuses one another user owns or others may write to), or None where there is no such
    folder.  What is cached is the sandbox compiler's own output for a template's exact source, so
    it runs exactly as a fresh compile would."""
    here = Path(__file__).resolve().parent
    code = b"".join((here / name).read_bytes() for name in ("sandbox.py", "bounded_sandbox.py"))
    fingerprint = hashlib.sha256(code + f"|{jinja2.__version__}|{options}".encode()).hexdigest()[:32]
    try:
        return _KeyedCache(fingerprint)
    except (OSError, RuntimeError):      # no safe folder: every template is compiled, as without a cache
        return None


def _stable(options: dict) -> str:
    """The options as text that is the same in every process (functions by their names)."""
    def text(value):
        if callable(value):
            return f"{getattr(value, '__module__', '')}.{getattr(value, '__qualname__', type(value).__name__)}"
        return repr(value)
    return ",".join(f"{key}={text(value)}" for key, value in sorted(options.items()) if key != "loader")


def referenced(env, source: str) -> tuple[set[str], dict[str, set[str]]]:
    """The names a template reads from its context, and for each the attributes or keys read of it
    with a constant (``back.title``, ``fields["Back Name"]``); ``row`` too where it picks at random,
    so that each card gets its own pick.  Raises jinja2's syntax errors."""
    tree = env.parse(source)
    from jinja2 import meta

    names = meta.find_undeclared_variables(tree)
    if any(node.name == "random" for node in tree.find_all(nodes.Filter)):
        names.add("row")                # a random pick is seeded by what the template reads: the card's row too
    members: dict[str, set[str]] = {}
    for node in tree.find_all((nodes.Getattr, nodes.Getitem)):
        if isinstance(node.node, nodes.Name) and node.node.name in names:
            key = node.attr if isinstance(node, nodes.Getattr) else (
                node.arg.value if isinstance(node.arg, nodes.Const) else None)
            if isinstance(key, str):
                members.setdefault(node.node.name, set()).add(key)
    return set(names), members


def error_text(exc: Exception) -> str:
    """What went wrong in a template, in one line (the caller says where)."""
    if isinstance(exc, jinja2.TemplateSyntaxError):
        return f"template syntax error: {exc.message}"
    if isinstance(exc, jinja2.UndefinedError):
        return f"undefined in template: {exc.message}"
    if isinstance(exc, jinja2.exceptions.SecurityError):
        return f"not allowed in a template: {exc}"
    if isinstance(exc, jinja2.TemplateError):
        return f"template error: {exc}"
    if isinstance(exc, TemplateLimit):
        return f"template too costly: {exc}"
    return f"template error: {type(exc).__name__}: {exc}"


_SIMPLE = re.compile(r"^\{\{\s*([A-Za-z_]\w*)(?:\.([A-Za-z_]\w*))?\s*"
                     r"((?:\|\s*(?:upper|lower|darken|lighten|readable|ink)\s*(?:\(\s*[0-9.]+\s*\))?\s*)*)\}\}$")
_FILTER = re.compile(r"\|\s*(upper|lower|darken|lighten|readable|ink)\s*(?:\(\s*([0-9.]+)\s*\))?")


class Lookup:
    """A template that only prints one value, with simple filters (``{{ back.title | upper }}``): the
    same text as jinja2 gives, without compiling it, as most layout settings are such templates."""

    def __init__(self, env, name: str, attr: str | None, filters: list[tuple[str, str | None]]):
        self.env, self.name, self.attr = env, name, attr
        self.filters = [(env.filters[f], float(arg) if arg else None) for f, arg in filters]

    def render(self, context: dict) -> str:
        value = context[self.name]
        if self.attr is not None:
            value = value[self.attr] if isinstance(value, dict) else self.env.getattr(value, self.attr)
        for apply, arg in self.filters:
            value = apply(value) if arg is None else apply(value, arg)
        return str(value)


_COMPILED: dict[str, tuple] = {}


def compile_template(env, source: str) -> tuple:
    """(template with a ``render(context)`` method, names read, {name: members read}) of a short template,
    kept for the process (a game is read again by validate and build)."""
    if source not in _COMPILED:
        simple = _SIMPLE.match(source)
        if simple:
            name, attr, filters = simple.groups()
            template = Lookup(env, name, attr, _FILTER.findall(filters or ""))
            _COMPILED[source] = (template, {name}, {name: {attr}} if attr else {})
        else:
            names, members = referenced(env, source)
            _COMPILED[source] = (env.from_string(source), names, members)
    return _COMPILED[source]


TEMPLATE_ERRORS = (TemplateLimit, jinja2.TemplateError, TypeError, ValueError, ArithmeticError, LookupError, AttributeError)
