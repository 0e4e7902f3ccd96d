"""Reading card layouts: ``[layouts.NAME]`` tables of game.toml, of a game's layouts.toml, and
kitgen's own (:data:`BUILTIN_FILE`, the face and back every game prints unless it says otherwise).

A layout is a list of named boxes::

    [layouts.market]
    extends = "kitgen"               # optional: start from another layout, change boxes by name
    size = "poker"                   # the card size it is made for (default: the game's)
    safe = "3mm"                     # the safe zone: text and borders stay this far inside the trim

    [layouts.market.vars]            # named lengths and numbers, usable in any place
    edge = "4mm"

    [layouts.market.boxes.cost]
    kind = "text"                    # text, image, icons, rect, circle or line
    x = "edge"                       # from the trim's top-left corner: mm, pt, in, % of the trim, ...
    y = "edge"
    w = "10mm"
    h = "10mm"
    content = "{{ cost }}"           # a template over the card's row; empty: the box is not drawn
    fill = "{{ background_color }}"  # any setting may come from a column

Every problem is one :class:`~kitgen.errors.GameDataError` naming the file, the
layout, the box and the key.  What a layout means on a card (places, fitting,
drawing) is worked out in :mod:`kitgen.layout.card_boxes` and :mod:`kitgen.render.card`.
"""

from __future__ import annotations

import os
import re
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from kitgen.data.card_context import TEMPLATE_NAMES, column_names
from kitgen.data.files import copy_toml, read_toml
from kitgen.data.gc_pause import gc_paused
from kitgen.data.layout_model import KINDS, Box, Layout, Setting
from kitgen.data.parts import BUILTIN_FILE as PARTS_FILE
from kitgen.data.parts import DEFAULT_MARGIN, DEFAULT_SPACING, part_entries, place_parts, read_parts
from kitgen.data.sandbox import compile_template, shared_environment
from kitgen.data.values import layout_color, true_or_false
from kitgen.errors import GameDataError, LimitError
from kitgen.layout import lengths

BUILTIN_FILE = Path(__file__).with_name("builtin_layouts.toml")
BUILTIN_LABEL = "kitgen's built-in layouts"
BUILTIN_PARTS = "kitgen's built-in parts"
DEFAULT_FACE, DEFAULT_BACK = "kitgen", "kitgen-back"
LAYOUT_KEYS = ("extends", "size", "safe", "vars", "parts", "margin", "spacing", "boxes")
PLACE = ("x", "y", "w", "h")
PLACE_DEFAULTS = {"x": "0mm", "y": "0mm", "w": "100%", "h": "100%"}
LENGTH_KEYS = {"x", "y", "w", "h", "size", "min_size", "floor", "radius", "stroke_width", "gap"}
COLOR_KEYS = {"color", "fill", "stroke"}
BOOL_KEYS = {"bold", "italic", "bleed", "underline"}
ENUMS = {"align": ("left", "center", "right"), "valign": ("top", "middle", "bottom"),
         "fit": ("contain", "cover"), "direction": ("across", "down")}
INTS = {"lines": range(1, 21), "rotate": (0, 180)}
NUMBERS = {"leading"}
TEXTS = {"content", "when", "font"}
SHAPE_KEYS = {"fill", "stroke", "stroke_width", "radius"}
COMMON = {*PLACE, "when", "bleed", "rotate", *SHAPE_KEYS}
KEYS = {
    "text": COMMON | {"content", "font", "bold", "italic", "underline", "size", "min_size", "floor", "color",
                      "align", "valign", "lines", "leading", "padding"},
    "image": COMMON | {"content", "fit", "padding"},
    "icons": COMMON | {"content", "gap", "align", "valign", "padding", "direction", "color"},
    "rect": COMMON, "circle": COMMON, "line": COMMON - {"fill", "radius"},
}
STRUCTURE = {"kind", "same_size", "fallback"}
ACCEPTED = {kind: keys | STRUCTURE if kind == "text" else keys | {"kind"} for kind, keys in KEYS.items()}
KEYS_OF_PARTS = {kind: keys | (STRUCTURE - {"kind"} if kind == "text" else set()) for kind, keys in KEYS.items()}
NOT_TEMPLATED = {"bleed"}
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
RESERVED = {"width", "height", "safe", "min", "max"}
_PLACING, _OWN = "(parts placed)", "(boxes written)"    # what a layout and those it extends write, in order
MAX_EXTENDS = 64               # layouts in one chain of 'extends'


def read_layouts(data: dict, root: Path | None, toml_label: str, columns) -> dict[str, Layout]:
    """Every layout a game can use: kitgen's own, then game.toml's ``[layouts]``, then layouts.toml's;
    the parts they place (:mod:`kitgen.data.parts`) likewise: kitgen's, then game.toml's ``[parts]``,
    then layouts.toml's."""
    sources: dict[str, tuple[dict, str]] = {}
    for name, spec in _builtin(BUILTIN_FILE)["layouts"].items():
        sources[name] = (spec, BUILTIN_LABEL)
    part_sources: dict[str, tuple[dict, str]] = {}
    for name, spec in _builtin(PARTS_FILE)["parts"].items():
        part_sources[name] = (spec, BUILTIN_PARTS)
    _add(sources, data.get("layouts", {}), toml_label, "layouts")
    _add(part_sources, data.get("parts", {}), toml_label, "parts")
    if root is not None and os.path.lexists(root / "layouts.toml"):
        label = str(root / "layouts.toml")
        extra = read_toml(root, "layouts.toml", label)
        unknown = sorted(set(extra) - {"layouts", "parts"})
        if unknown:
            raise GameDataError(f"unknown key '{unknown[0]}': layouts.toml holds [layouts.NAME] and [parts.NAME] "
                                "tables", file=label)
        _add(sources, extra.get("layouts", {}), label, "layouts")
        _add(part_sources, extra.get("parts", {}), label, "parts")
    names = column_names(columns) if columns is not None else set()
    reader = _Reader(sources, names, read_parts(part_sources))
    kept = _builtin_layouts()
    with gc_paused():          # boxes, settings and trees of lengths: nothing a cycle could hold
        return {name: _kept(kept.get(name) if sources[name][1] == BUILTIN_LABEL else None, names)
                or reader.layout(name) for name in sources}


def _builtin(path: Path) -> dict:
    """kitgen's own layouts or parts, read once; each game gets its own copy."""
    return copy_toml(_read_builtin(path))


@lru_cache(maxsize=2)
def _read_builtin(path: Path) -> dict:
    return tomllib.loads(path.read_text(encoding="utf-8"))


class _Asked:
    """Stands for a sheet's columns while kitgen's own layouts are read for every game at once: every
    name is taken for a column, and the names asked for are kept."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    def __contains__(self, name: str) -> bool:
        self.names.add(name)
        return True


@lru_cache(maxsize=1)
def _builtin_layouts() -> dict[str, tuple[Layout, frozenset[str]]]:
    """kitgen's own layouts, each read and checked once per process, with the columns its templates
    read: they hang on nothing but kitgen's own files and on whether those columns are there (the
    only check of a layout that looks at the game)."""
    sources = {name: (spec, BUILTIN_LABEL) for name, spec in _builtin(BUILTIN_FILE)["layouts"].items()}
    parts = read_parts({name: (spec, BUILTIN_PARTS) for name, spec in _builtin(PARTS_FILE)["parts"].items()})
    kept = {}
    for name in sources:
        asked = _Asked()
        kept[name] = (_Reader(sources, asked, parts).layout(name), frozenset(asked.names))
    return kept


def _kept(entry: tuple[Layout, frozenset[str]] | None, columns) -> Layout | None:
    """A built-in layout read before, when the game's sheet has every column its templates read; else
    None, and the layout is read for this game (and the missing column refused as it would be)."""
    if entry is None or not all(name in columns for name in entry[1]):
        return None
    return entry[0]


def _add(sources: dict, table: Any, label: str, key: str) -> None:
    """The tables of ``[layouts]`` (or ``[parts]``, as ``key`` says) of one file added to ``sources``."""
    what = key[:-1]
    if not isinstance(table, dict):
        raise GameDataError(f"'{key}' must hold tables such as [{key}.my-{'card' if key == 'layouts' else 'badge'}]",
                            file=label)
    for name, spec in table.items():
        if name in sources:
            other = sources[name][1]
            hint = (f"; give yours another name (it may {'extend it' if key == 'layouts' else 'copy it'})"
                    if other in (BUILTIN_LABEL, BUILTIN_PARTS) else "")
            raise GameDataError(f"{what} '{name}' is already defined in {other}{hint}", file=label)
        if not isinstance(spec, dict):
            raise GameDataError(f"'{key}.{name}' must be a table of boxes", file=label)
        sources[name] = (spec, label)


class _Reader:
    def __init__(self, sources: dict[str, tuple[dict, str]], columns: set[str], parts: dict):
        self.sources, self.columns, self.parts = sources, columns, parts
        self.env = shared_environment()
        self.done: dict[str, Layout] = {}
        self.merged: dict[str, tuple[dict, dict[str, str]]] = {}
        self.depth: dict[str, int] = {}           # layouts each one extends, one inside another
        self.constants: dict[tuple, Setting] = {}  # (key, type, value) -> its Setting: most boxes repeat "0mm"

    # --- extends -------------------------------------------------------------------

    def _merged(self, name: str, chain: tuple[str, ...] = ()) -> tuple[dict, dict[str, str]]:
        """The layout's table with what it extends filled in, and the file of each box."""
        if name in self.merged:
            return self.merged[name]
        spec, file = self.sources[name]
        unknown = sorted(set(spec) - set(LAYOUT_KEYS))
        if unknown:
            raise GameDataError(f"layout '{name}': unknown key '{unknown[0]}' (accepted: "
                                f"{', '.join(LAYOUT_KEYS)})", file=file)
        boxes = spec.get("boxes", {})
        if not isinstance(boxes, dict):
            raise GameDataError(f"layout '{name}': 'boxes' must hold tables such as "
                                f"[layouts.{name}.boxes.title]", file=file)
        parent = spec.get("extends")
        if parent is None:
            base = {"boxes": {}, "vars": {}}
        else:
            if not isinstance(parent, str):
                raise GameDataError(f"layout '{name}': 'extends' must name a layout", file=file)
            if parent == name or parent in chain:
                loop = " -> ".join((*chain, name, parent))
                raise GameDataError(f"layout '{name}' extends itself ({loop})", file=file)
            if parent not in self.sources:
                raise GameDataError(f"layout '{name}' extends '{parent}', which does not exist "
                                    f"(layouts: {', '.join(sorted(self.sources))})", file=file)
            if len(chain) >= MAX_EXTENDS:            # checked on the way down: the recursion stays shallow
                self._too_deep((*chain, name, parent))
            base, _ = self._merged(parent, (*chain, name))
            if self.depth[parent] >= MAX_EXTENDS:     # and on the way up, past layouts read before
                self._too_deep((*chain, name, parent))
        self.depth[name] = 0 if parent is None else self.depth[parent] + 1
        merged = {k: v for k, v in base.items() if k not in ("boxes", "vars")}
        merged.update({k: v for k, v in spec.items() if k not in ("boxes", "vars", "extends", "parts")})
        vars_ = dict(base.get("vars", {}))
        extra = spec.get("vars", {})
        if not isinstance(extra, dict):
            raise GameDataError(f"layout '{name}': 'vars' must be a table of named lengths", file=file)
        vars_.update(extra)
        for box_name, box in boxes.items():
            if not isinstance(box, dict):
                raise GameDataError(f"layout '{name}', box '{box_name}': must be a table of settings", file=file)
        # what it writes comes after what it extends: every part in one column, at this layout's
        # margin and spacing, then the boxes written out, each changing a box of the same name
        placing = [*base.get(_PLACING, ()), *part_entries(spec.get("parts"), name, file)]
        own = [*base.get(_OWN, ()), *((box_name, box, file) for box_name, box in boxes.items())]
        all_boxes: dict[str, dict] = {}
        origin: dict[str, str] = {}
        if placing:
            placed = place_parts(placing, self.parts, merged.get("margin", DEFAULT_MARGIN),
                                 merged.get("spacing", DEFAULT_SPACING), KEYS_OF_PARTS, name, file)
            for box_name, (box, box_file) in placed.items():
                all_boxes[box_name], origin[box_name] = box, box_file
        for box_name, box, box_file in own:
            all_boxes[box_name] = {**all_boxes.get(box_name, {}), **box}
            origin[box_name] = box_file
        merged[_PLACING], merged[_OWN] = placing, own
        merged["boxes"], merged["vars"] = all_boxes, vars_
        self.merged[name] = (merged, origin)
        return self.merged[name]

    def _too_deep(self, chain: tuple[str, ...]) -> None:
        first = chain[0]
        raise LimitError(f"layout '{first}' extends layouts more than {MAX_EXTENDS} deep ('{first}' -> '{chain[1]}' "
                         f"-> ...); kitgen follows 'extends' at most {MAX_EXTENDS} times", file=self.sources[first][1])

    # --- a layout ------------------------------------------------------------------

    def layout(self, name: str) -> Layout:
        if name in self.done:
            return self.done[name]
        spec, origin = self._merged(name)
        file = self.sources[name][1]
        where = f"layout '{name}'"
        size = None
        if "size" in spec:
            from kitgen.errors import OptionError
            from kitgen.units import card_size

            try:
                size = tuple(card_size(str(spec["size"]), "size"))
            except OptionError as exc:
                raise GameDataError(f"{where}, key 'size': {exc.message}", file=file) from None
        vars_: dict[str, Setting] = {}
        for key, raw in spec["vars"].items():
            if not _IDENT.match(key) or key in RESERVED:
                raise GameDataError(f"{where}, vars: '{key}' is not a name to use in lengths (letters, "
                                    "digits and _, not width, height, safe, min or max)", file=file)
            vars_[key] = self._setting(raw, "var", file, f"{where}, vars.{key}")
        boxes = []
        for box_name, box in spec["boxes"].items():
            boxes.append(self._box(name, box_name, box, origin.get(box_name, file), set(vars_)))
        kinds = {b.name: b.kind for b in boxes}       # one table for the whole layout: linear in its boxes
        var_names = set(vars_)
        clash = sorted(kinds.keys() & var_names)
        if clash:
            raise GameDataError(f"{where}: '{clash[0]}' names both a box and a value in vars", file=file)
        for key, setting in vars_.items():
            self._check_refs(setting, kinds, var_names, where, f"vars.{key}", file)
        for b in boxes:
            for settings in (b.settings, *b.fallback, *b.fallback_vars):
                for setting in settings.values():
                    self._check_refs(setting, kinds, var_names, where, b, file)
        safe = self._setting(spec.get("safe", "3mm"), "safe", file, f"{where}, key 'safe'")
        for key in ("margin", "spacing"):          # read by its parts as they are placed; checked here too
            if key in spec:
                self._setting(spec[key], "safe", file, f"{where}, key '{key}'")
        free = all(not (s.names - {"back", "game"}) for b in boxes
                   for s in [*b.settings.values(), *(v for f in b.fallback for v in f.values()),
                             *(v for f in b.fallback_vars for v in f.values())]) and all(
            not (s.names - {"back", "game"}) for s in vars_.values())
        layout = Layout(name=name, file=file, boxes=tuple(boxes), vars=vars_, size=size, safe=safe, card_free=free)
        self.done[name] = layout
        return layout

    def _box(self, layout: str, name: str, spec: dict, file: str, var_names: set[str]) -> Box:
        where = f"layout '{layout}', box '{name}'"
        if not _IDENT.match(name) or name in RESERVED:
            raise GameDataError(f"{where}: a box name is letters, digits and _ (it may be used in lengths, "
                                "as in title.bottom)", file=file)
        kind = spec.get("kind", "text")
        if kind not in KINDS:
            raise GameDataError(f"{where}: unknown kind {kind!r} (use one of: {', '.join(KINDS)})", file=file)
        accepted = ACCEPTED[kind]
        for key in spec:
            if key not in accepted:
                raise GameDataError(f"{where}: unknown key '{key}' for a {kind} box (accepted: "
                                    f"{', '.join(sorted(accepted))})", file=file)
        settings = {}
        for key in PLACE:
            raw = spec.get(key, PLACE_DEFAULTS[key])
            settings[key] = self._read_before(raw, key) or self._setting(raw, key, file, f"{where}, key '{key}'")
        for key, raw in spec.items():
            if key in STRUCTURE or key in PLACE:
                continue
            settings[key] = self._read_before(raw, key) or self._setting(raw, key, file, f"{where}, key '{key}'")
        same = spec.get("same_size", False)
        if not isinstance(same, bool):
            raise GameDataError(f"{where}: 'same_size' must be true or false", file=file)
        steps, step_vars = [], []
        raw_steps = spec.get("fallback", [])
        if not isinstance(raw_steps, list) or not all(isinstance(s, dict) for s in raw_steps):
            raise GameDataError(f"{where}: 'fallback' must be a list of tables of changes, e.g. "
                                "[{ lines = 2 }]", file=file)
        for i, step in enumerate(raw_steps, 1):
            changes, values = {}, {}
            for key, raw in step.items():
                at = f"{where}, fallback {i}, key '{key}'"
                if key == "vars":
                    if not isinstance(raw, dict) or not set(raw) <= var_names:
                        raise GameDataError(f"{at}: sets only values named in the layout's vars "
                                            f"({', '.join(sorted(var_names)) or 'none'})", file=file)
                    values = {k: self._setting(v, "var", file, f"{at}.{k}") for k, v in raw.items()}
                elif key not in KEYS[kind] or key == "content":
                    raise GameDataError(f"{at}: a fallback changes the place and style of a box, not its "
                                        f"{key}", file=file)
                else:
                    changes[key] = self._setting(raw, key, file, at)
            steps.append(changes)
            step_vars.append(values)
        return Box(name=name, kind=kind, settings=settings, fallback=tuple(steps), fallback_vars=tuple(step_vars),
                   same_size=same, file=file)

    def _read_before(self, raw: Any, key: str) -> Setting | None:
        """The setting of a constant read before for the same key (most boxes repeat "0mm"), or None;
        asked before :meth:`_setting` so that the place named in its messages is made only when needed."""
        return self.constants.get((key, type(raw), raw)) if isinstance(raw, (str, int, float)) else None

    def _setting(self, raw: Any, key: str, file: str, where: str) -> Setting:
        if isinstance(raw, str) and ("{{" in raw or "{%" in raw) and key not in NOT_TEMPLATED:
            try:
                template, names, members = compile_template(self.env, raw)
            except jinja2.TemplateError as exc:  # syntax errors, unknown filters and tests
                raise GameDataError(f"{where}: template error: {exc.message or exc}",
                                    file=at_line(file, raw, getattr(exc, "lineno", None))) from None
            except RecursionError:             # the parser recurses once per level of brackets
                raise GameDataError(f"{where}: template error: nested too deeply", file=file) from None
            names = {n for n in names if n not in self.env.globals}
            unknown = sorted(n for n in names if n not in TEMPLATE_NAMES and n not in self.columns)
            if unknown:
                shown = ", ".join(sorted(self.columns)) or "(none)"
                raise GameDataError(f"{where}: no column or value named '{unknown[0]}' (the sheet's columns, as "
                                    f"templates name them: {shown})", file=at_line(file, raw, 1))
            pairs = tuple(sorted((n, m) for n, ms in members.items() for m in ms))
            return Setting(key, raw, template=template, names=frozenset(names), members=pairs)
        memo = (key, type(raw), raw) if isinstance(raw, (str, int, float)) else None
        if memo in self.constants:
            return self.constants[memo]
        try:
            setting = Setting(key, raw, value=parse_value(key, raw))
        except ValueError as exc:
            raise GameDataError(f"{where}: {exc}", file=file) from None
        if memo is not None:
            self.constants[memo] = setting
        return setting

    def _check_refs(self, setting: Setting, kinds: dict[str, str], var_names: set[str], where: str,
                    holder: str | Box, file: str) -> None:
        """Refuse a constant length naming what the layout lacks; ``holder``: a box, or the vars.NAME
        holding it (the place named in the message is made only for lengths that name something)."""
        value = setting.value
        if setting.template is not None or type(value) is lengths.Num or not isinstance(value, _EXPRS):
            return
        at = f"{where}, {holder}" if isinstance(holder, str) else f"{where}, box '{holder.name}'"
        for expr in (value if isinstance(value, tuple) else (value,)):
            check_names(expr, kinds, var_names, at, file)


_EXPRS = (lengths.Num, lengths.Name, lengths.Neg, lengths.Bin, lengths.Call, tuple)


def check_names(expr, kinds: dict[str, str], var_names: set[str], where: str, file: str) -> None:
    """Refuse a length naming a box or value the layout lacks (``kinds``: box name -> its kind)."""
    for name, attr in lengths.names(expr):
        if attr is None and name in ("width", "height", "safe") or (attr is None and name in var_names):
            continue
        if name in kinds and attr is not None:
            if attr == "size" and kinds.get(name) != "text":
                raise GameDataError(f"{where}: {name}.size: only a text box has a type size", file=file)
            continue
        if name in kinds:
            raise GameDataError(f"{where}: '{name}' is a box; name one of its edges or sizes, e.g. "
                                f"{name}.bottom", file=file)
        raise GameDataError(f"{where}: unknown name '{name}' in a length (use width, height, safe, a box's "
                            f"x/y/w/h/right/bottom/size, or a value of vars: "
                            f"{', '.join(sorted(var_names)) or 'none'})", file=file)


def parse_value(key: str, raw: Any) -> Any:
    """The meaning of one setting, or ValueError saying what is wrong with it."""
    if key in LENGTH_KEYS or key in ("var", "safe"):
        if key == "var" and isinstance(raw, str) and raw.strip() == "":
            raise ValueError("an empty value")
        try:
            return lengths.parse(raw)
        except lengths.LengthError as exc:
            raise ValueError(str(exc)) from None
    if key == "padding":
        items = raw if isinstance(raw, list) else [raw]
        if len(items) not in (1, 2, 4):
            raise ValueError("padding is one length, [vertical, horizontal] or [top, right, bottom, left]")
        try:
            return tuple(lengths.parse(v) for v in items)
        except lengths.LengthError as exc:
            raise ValueError(str(exc)) from None
    if key in COLOR_KEYS:
        if not isinstance(raw, str):
            raise ValueError(f"{raw!r} is not a colour like \"#2f5da8\"")
        return layout_color(raw)
    if key in BOOL_KEYS:
        return true_or_false(raw)
    if key in ENUMS:
        if raw not in ENUMS[key]:
            raise ValueError(f"{raw!r} is not one of: {', '.join(ENUMS[key])}")
        return raw
    if key in INTS:
        try:
            number = int(str(raw).strip()) if not isinstance(raw, bool) else None
        except ValueError:
            number = None
        if number not in INTS[key]:
            allowed = "0 or 180" if key == "rotate" else f"a whole number from 1 to {INTS[key][-1]}"
            raise ValueError(f"{raw!r} is not {allowed}")
        return number
    if key in NUMBERS:
        try:
            number = float(raw) if not isinstance(raw, bool) else -1
        except (TypeError, ValueError):
            number = -1
        if not 0 < number <= 5:
            raise ValueError(f"{raw!r} is not a factor of the type size such as 1.2")
        return number
    if key in TEXTS:
        if not isinstance(raw, str):
            raise ValueError(f"{raw!r} must be text")
        return raw
    raise ValueError(f"unknown key '{key}'")


def at_line(file: str, source: str, line: int | None) -> str:
    """``file`` with the line where ``source`` is written (found by its text), when it can be found."""
    if file == BUILTIN_LABEL or not line:
        return file
    try:
        text = Path(file).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return file
    first = source.splitlines()[0] if source else ""
    at = text.find(first) if first else -1
    if at < 0:
        return file
    return f"{file}, line {text.count(chr(10), 0, at) + line}"
