"""Parts: named pieces of a card (a title bar, a corner badge, an art window...) that a layout places
in a line, each with a few settings, instead of writing their boxes::

    [layouts.kingdom]
    parts = [
      { part = "title-bar" },                                  # the card's name across the top
      { part = "corner-badge", corner = "bottom-left", content = "{{ cost }}", fill = "#e9c46a" },
      { part = "art-window" },                                 # below the title bar
      { part = "text-panel" },                                 # the room the others leave
      { part = "type-line" },                                  # above the bottom edge
    ]

A part is itself a small layout with parameters, ``[parts.NAME]`` in the same TOML (kitgen's own in
:data:`BUILTIN_FILE`; a game's own in its layouts.toml or game.toml)::

    [parts.corner-badge]
    name = "badge"                   # what its boxes are called in a layout, unless it names them
    main = "value"                   # the box that takes that name and the keys a layout gives it
    params = { content = "", corner = "top-left", w = "10mm", turned = false }
    choices.corner.top-left = { x = "$margin", y = "$margin" }      # a parameter that picks others
    boxes.disc = { kind = "circle", x = "$x", y = "$y", w = "$w", h = "$w" }
    boxes.value = { content = "$content", x = "$x", y = "$y", w = "$w", h = "$w" }
    boxes.turned = { like = "value", if = "$turned", rotate = 180, x = "width - value.right" }

Placing a part writes its boxes into the layout (:func:`place_parts`), as if they had been written
out: ``$param`` is the parameter's value (a layout's own, else the part's default, else what a choice
picks); ``$margin`` and ``$spacing`` are the layout's ``margin`` and ``spacing``; a box's place may name
another box of the part (``value.right``), which is renamed with it.  A part with ``stack = true``
takes its place in the column of stacked parts down the card: those before the one whose height is
``"rest"`` follow one another from the top (``$y``), those after it stand on one another from the
bottom, and that one takes the room between.  Two keys are only a part's: ``if`` (the box is placed
only when the parameter is true) and ``like`` (the box starts as a copy of another of the part's
boxes, as the layout's keys left it).  What the boxes then mean is read as any layout's
(:mod:`kitgen.data.layouts`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kitgen.data.values import true_or_false
from kitgen.errors import GameDataError, LimitError
from kitgen.layout import lengths

BUILTIN_FILE = Path(__file__).with_name("builtin_parts.toml")
PART_KEYS = ("name", "main", "stack", "params", "choices", "boxes")
PLACING = ("part", "name")              # keys of a placed part that are not its parameters or box keys
THE_LAYOUTS = ("margin", "spacing")     # parameters every part has: the layout's own
STACKED = "y"                           # and every stacked part: where the column puts it
REST = "rest"                           # the height of the stacked part that takes the room left
DEFAULT_MARGIN, DEFAULT_SPACING = "safe + 1.5mm", "1.5mm"
MAX_TEXT = 20_000                       # characters of one setting once its parameters are written in
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_PARAM = re.compile(r"\$(\$|[A-Za-z_][A-Za-z0-9_]*)")
_WHOLE = re.compile(r"^\$([A-Za-z_][A-Za-z0-9_]*)$")
RESERVED = {"width", "height", "safe", "min", "max"}


@dataclass(frozen=True)
class Part:
    """A part as ``[parts.NAME]`` writes it; its boxes are still written with ``$param``."""

    name: str
    file: str                                  # where it is written, for messages
    box_name: str                              # what its main box is called in a layout by default
    main: str                                  # that box, among ``boxes``
    stack: bool                                # takes its place in the column of parts down the card
    params: dict[str, Any]                     # parameter -> its default, as written
    choices: dict[str, dict[str, dict]]        # parameter -> its value -> the defaults it sets
    boxes: dict[str, dict]                     # box -> its keys, as written


def read_parts(sources: dict[str, tuple[Any, str]]) -> dict[str, Part]:
    """Every part of ``sources`` (name -> (its table, its file)) checked into a :class:`Part`."""
    return {name: _part(name, spec, file) for name, (spec, file) in sources.items()}


def _part(name: str, spec: Any, file: str) -> Part:
    where = f"part '{name}'"
    if not isinstance(spec, dict):
        raise GameDataError(f"'parts.{name}' must be a table with boxes", file=file)
    unknown = sorted(set(spec) - set(PART_KEYS))
    if unknown:
        raise GameDataError(f"{where}: unknown key '{unknown[0]}' (accepted: {', '.join(PART_KEYS)})", file=file)
    boxes = spec.get("boxes")
    if not isinstance(boxes, dict) or not boxes or not all(isinstance(b, dict) for b in boxes.values()):
        raise GameDataError(f"{where}: 'boxes' must hold its boxes as tables, e.g. boxes.text = "
                            "{ content = \"$content\" }", file=file)
    for box in boxes:
        if not _IDENT.match(box) or box in RESERVED:
            raise GameDataError(f"{where}, box '{box}': a box name is letters, digits and _", file=file)
    main = spec.get("main", next(iter(boxes)) if len(boxes) == 1 else None)
    if main not in boxes:
        raise GameDataError(f"{where}: 'main' must name the box that takes the part's name in a layout "
                            f"(one of: {', '.join(boxes)})", file=file)
    box_name = spec.get("name", name.replace("-", "_"))
    if not isinstance(box_name, str) or not _IDENT.match(box_name) or box_name in RESERVED:
        raise GameDataError(f"{where}: 'name' must be a box name (letters, digits and _)", file=file)
    stack = spec.get("stack", False)
    if not isinstance(stack, bool):
        raise GameDataError(f"{where}: 'stack' must be true or false", file=file)
    params = spec.get("params", {})
    if not isinstance(params, dict):
        raise GameDataError(f"{where}: 'params' must be a table of parameters and their defaults", file=file)
    for param in params:
        if not _IDENT.match(param) or param in PLACING or param in THE_LAYOUTS or param in boxes or (
                stack and param == STACKED):
            raise GameDataError(f"{where}: '{param}' cannot be a parameter's name (a parameter is letters, "
                                "digits and _, and not part, name, margin, spacing, a box's name, or in a stacked "
                                "part y)", file=file)
    choices = spec.get("choices", {})
    if not isinstance(choices, dict):
        raise GameDataError(f"{where}: 'choices' must be a table such as choices.corner.top-left = "
                            "{ x = \"$margin\" }", file=file)
    for param, values in choices.items():
        if param not in params:
            raise GameDataError(f"{where}: choices.{param}: '{param}' is not one of its params", file=file)
        if not isinstance(values, dict) or not values or not all(isinstance(v, dict) for v in values.values()):
            raise GameDataError(f"{where}: choices.{param} must hold a table of defaults for each value", file=file)
        for value, sets in values.items():
            bad = sorted(set(sets) - set(params)) or sorted(set(sets) & set(choices))
            if bad:
                raise GameDataError(f"{where}: choices.{param}.{value} sets '{bad[0]}', which is not a parameter "
                                    "that a choice may set", file=file)
    for box, keys in boxes.items():
        like = keys.get("like")
        if like is not None and (like not in boxes or like == box or "like" in boxes[like]):
            raise GameDataError(f"{where}, box '{box}': 'like' must name another of its boxes that is not "
                                "itself like one", file=file)
    return Part(name, file, box_name, main, stack, dict(params), {k: dict(v) for k, v in choices.items()},
                {k: dict(v) for k, v in boxes.items()})


@dataclass
class _Placed:
    """One part as a layout places it."""

    part: Part
    name: str                     # its main box's name in the layout
    given: dict[str, Any]         # parameters the layout gives
    main_keys: dict[str, Any]     # keys of its main box the layout gives
    box_keys: dict[str, dict]     # keys of its other boxes the layout gives, by box
    where: str
    entry: "Entry"
    rest: bool = False

    def box(self, name: str) -> str:
        return self.name if name == self.part.main else f"{self.name}_{name}"


@dataclass(frozen=True)
class Entry:
    """One table of a layout's ``parts`` list, and where it is written."""

    table: dict
    layout: str
    index: int                    # its place in that layout's list, from 1
    file: str

    @property
    def where(self) -> str:
        return f"layout '{self.layout}', parts[{self.index}]"


def part_entries(raw: Any, layout: str, file: str) -> list[Entry]:
    """A layout's ``parts`` list (None: it has none), checked to be a list of tables."""
    if raw is None:
        return []
    if not isinstance(raw, list) or not all(isinstance(e, dict) for e in raw):
        raise GameDataError(f"layout '{layout}': 'parts' must be a list of tables such as "
                            "{ part = \"title-bar\" }", file=file)
    return [Entry(table, layout, i, file) for i, table in enumerate(raw, 1)]


def place_parts(entries: list[Entry], parts: dict[str, Part], margin: Any, spacing: Any,
                keys_of: dict[str, set[str]], layout: str, file: str) -> dict[str, tuple[dict, str]]:
    """The boxes of the parts that ``entries`` place, in order: placed name -> (its keys, every
    parameter written in; the file of the entry), for the layout ``layout`` whose margin and spacing
    are given.  ``keys_of`` gives the keys of each kind of box (what a placed part may set on its main
    box); an entry ``{ box = "NAME", ... }`` is a box of the layout's own, in its place."""
    common = {"margin": _length(margin, "margin", layout, file),
              "spacing": _length(spacing, "spacing", layout, file)}
    placed: list[_Placed | tuple[str, dict, Entry]] = []
    taken: set[str] = set()
    for entry in entries:
        table = entry.table
        if "box" in table and "part" not in table:
            name = table["box"]
            if not isinstance(name, str) or not _IDENT.match(name) or name in RESERVED:
                raise GameDataError(f"{entry.where}: 'box' must be a box name (letters, digits and _)",
                                    file=entry.file)
            placed.append((name, {k: v for k, v in table.items() if k != "box"}, entry))
            continue
        placed.append(_placing(entry, parts, taken, keys_of))
    stacked = [p for p in placed if isinstance(p, _Placed) and p.part.stack]
    for p in placed:
        if isinstance(p, _Placed):
            p.rest = _main_height(p, common) == REST
            if p.rest and not p.part.stack:
                raise GameDataError(f"{p.where}: h = \"{REST}\" takes the room the stacked parts leave; this part "
                                    "is not stacked: give it a length", file=p.entry.file)
    rests = [p for p in stacked if p.rest]
    if len(rests) > 1:
        raise GameDataError(f"{rests[1].where}: only one stacked part may take the rest of the room (h = "
                            f"\"{REST}\"); '{rests[0].name}' takes it already", file=rests[1].entry.file)
    places, rest = _stack(stacked, rests[0] if rests else None, common)
    out: dict[str, tuple[dict, str]] = {}
    for p in placed:
        if isinstance(p, tuple):
            boxes, entry = {p[0]: p[1]}, p[2]
        else:
            boxes, entry = _boxes(p, {**common, **places.get(p.name, {})}, rest if p.rest else None), p.entry
        for name, keys in boxes.items():
            if name in out:
                raise GameDataError(f"{entry.where}: a box of it is named '{name}' as one placed before it is; "
                                    "name the part with name = \"...\"", file=entry.file)
            out[name] = (keys, entry.file)
    return out


def _placing(entry: Entry, parts: dict[str, Part], taken: set[str], keys_of: dict[str, set[str]]) -> _Placed:
    table, file = entry.table, entry.file
    name = table.get("part")
    if not isinstance(name, str) or name not in parts:
        shown = ", ".join(sorted(parts))
        raise GameDataError(f"{entry.where}: " + (f"no part named {name!r} (parts: {shown})"
                            if isinstance(name, str) else f"'part' must name a part ({shown}), or 'box' a box "
                            "of the layout's own"), file=file)
    part = parts[name]
    where = f"{entry.where} ('{name}')"
    box_name = table.get("name")
    if box_name is None:
        box_name, n = part.box_name, 1
        while box_name in taken:
            n += 1
            box_name = f"{part.box_name}_{n}"
    elif not isinstance(box_name, str) or not _IDENT.match(box_name) or box_name in RESERVED:
        raise GameDataError(f"{where}: 'name' must be a box name (letters, digits and _)", file=file)
    elif box_name in taken:
        raise GameDataError(f"{where}: another part is named '{box_name}' already", file=file)
    taken.add(box_name)
    main_kind = part.boxes[part.main].get("kind", "text")
    main_keys = keys_of.get(main_kind, set())
    given, mains, others = {}, {}, {}
    for key, value in table.items():
        if key in PLACING:
            continue
        if key in part.params or key in THE_LAYOUTS or (part.stack and key == STACKED):
            given[key] = value
        elif key in part.boxes and key != part.main and isinstance(value, dict):
            others[key] = value
        elif key in main_keys:
            mains[key] = value
        else:
            params = ", ".join(part.params) or "none"
            boxes = [b for b in part.boxes if b != part.main]
            tables = f"; a table of keys for its box {', '.join(boxes)}" if boxes else ""
            raise GameDataError(f"{where}: unknown key '{key}' (its parameters: {params}; any key of its "
                                f"{main_kind} box '{part.main}'{tables})", file=file)
    return _Placed(part, box_name, given, mains, others, where, entry)


def _length(raw: Any, key: str, layout: str, file: str) -> Any:
    try:
        lengths.parse(raw)
    except lengths.LengthError as exc:
        raise GameDataError(f"layout '{layout}', key '{key}': {exc}", file=file) from None
    return raw


def _stack(stacked: list[_Placed], rest: _Placed | None, common: dict) -> tuple[dict[str, dict], str | None]:
    """Where each stacked part goes (its ``y``, by part) and the height of the one that takes the rest,
    written as lengths naming the main boxes of their neighbours."""
    margin, gap = _wrap(common["margin"]), _wrap(common["spacing"])
    split = stacked.index(rest) if rest is not None else len(stacked) - 1
    out: dict[str, dict] = {}
    for i, p in enumerate(stacked):
        if i <= split:
            out[p.name] = {STACKED: margin if i == 0 else f"{stacked[i - 1].name}.bottom + {gap}"}
        else:
            below = f"height - {margin}" if i == len(stacked) - 1 else f"{stacked[i + 1].name}.y - {gap}"
            out[p.name] = {STACKED: f"{below} - {p.name}.h"}
    if rest is None:
        return out, None
    below = f"height - {margin}" if split == len(stacked) - 1 else f"{stacked[split + 1].name}.y - {gap}"
    return out, f"{below} - {rest.name}.y"


def _main_height(p: _Placed, common: dict) -> Any:
    if "h" in p.main_keys:
        return p.main_keys["h"]
    return _Filler(p, common).fill(p.part.boxes[p.part.main].get("h"), "h")


def _boxes(p: _Placed, common: dict, rest: str | None) -> dict[str, dict]:
    """The boxes of one placed part, every parameter written in, named for the layout."""
    filler = _Filler(p, common)
    part = p.part
    written: dict[str, dict] = {}
    for box, keys in part.boxes.items():
        if "if" in keys and not _true(filler.fill(keys["if"], "if"), f"{p.where}, box '{box}', key 'if'", p.entry):
            continue
        written[box] = {k: filler.fill(v, k) for k, v in keys.items() if k != "if"}
    if part.main not in written:
        raise GameDataError(f"{p.where}: its main box '{part.main}' is left out by its 'if'", file=p.entry.file)
    written[part.main].update(p.main_keys)
    if rest is not None:
        written[part.main]["h"] = rest
    out = {}
    for box, keys in written.items():
        like = keys.pop("like", None)
        if like is not None:
            if like not in written:
                raise GameDataError(f"{p.where}, box '{box}': it is like '{like}', which its 'if' leaves out",
                                    file=p.entry.file)
            keys = {**{k: v for k, v in written[like].items() if k != "like"}, **keys}
        keys.update(p.box_keys.get(box, {}))
        out[p.box(box)] = keys
    return out


def _true(value: Any, where: str, entry: Entry) -> bool:
    try:
        return true_or_false(value)
    except ValueError as exc:
        raise GameDataError(f"{where}: {exc} (it is asked once, as the part is placed; 'when' asks each card)",
                            file=entry.file) from None


class _Filler:
    """A placed part's parameters, worked out as they are asked for, and written into its settings."""

    def __init__(self, p: _Placed, common: dict):
        self.p, self.part, self.common = p, p.part, common
        self.values: dict[str, Any] = {}
        self.busy: list[str] = []
        names = "|".join(re.escape(b) for b in sorted(self.part.boxes, key=len, reverse=True))
        self.boxes = re.compile(rf"(?<![\w.$])({names})\.({'|'.join(lengths.ATTRS)})\b")

    def value(self, name: str) -> Any:
        """The value of the parameter ``name``: given by the layout, else by the stack or the layout's
        margin and spacing, else by a choice, else the part's default."""
        if name in self.values:
            return self.values[name]
        if name in self.busy:
            loop = " -> ".join([*self.busy[self.busy.index(name):], name])
            raise GameDataError(f"{self.p.where}: its parameters refer to one another in a circle ({loop})",
                                file=self.p.entry.file)
        if name in self.p.given:
            self.values[name] = self.p.given[name]        # as the layout wrote it: never read for $
            return self.values[name]
        if name in self.common:
            self.values[name] = self.common[name]
            return self.values[name]
        self.busy.append(name)
        try:
            default = self._default(name)
            value = self.fill(default, name)
        finally:
            self.busy.pop()
        self.values[name] = value
        return value

    def _default(self, name: str) -> Any:
        for param, table in self.part.choices.items():
            if param == name:
                continue
            chosen = self.value(param)
            if not isinstance(chosen, str) or chosen not in table:
                raise GameDataError(f"{self.p.where}: {param} = {chosen!r} is not one of: {', '.join(table)}",
                                    file=self.p.entry.file)
            if name in table[chosen]:
                return table[chosen][name]
        if name in self.part.params:
            return self.part.params[name]
        raise GameDataError(f"{self.p.where}: '${name}' names no parameter of part '{self.part.name}' "
                            f"(its parameters: {', '.join([*self.part.params, *THE_LAYOUTS])}; $$ is a $)",
                            file=self.p.entry.file)

    def fill(self, raw: Any, key: str) -> Any:
        """``raw``, as the part writes it, with its boxes renamed and its parameters written in."""
        if isinstance(raw, list):
            return [self.fill(v, key) for v in raw]
        if isinstance(raw, dict):
            return {k: self.fill(v, k) for k, v in raw.items()}
        if not isinstance(raw, str):
            return raw
        whole = _WHOLE.match(raw)
        if whole:
            return self.value(whole.group(1))
        text = self.boxes.sub(lambda m: f"{self.p.box(m.group(1))}.{m.group(2)}", raw)
        text = _PARAM.sub(self._one, text)
        if len(text) > MAX_TEXT:
            raise LimitError(f"{self.p.where}, key '{key}': its parameters make it longer than {MAX_TEXT:,} "
                             "characters", file=self.p.entry.file)
        return text

    def _one(self, match: re.Match) -> str:
        name = match.group(1)
        if name == "$":
            return "$"
        value = self.value(name)
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, (list, dict)):
            raise GameDataError(f"{self.p.where}: ${name} is a list or a table, written inside a longer text",
                                file=self.p.entry.file)
        return _wrap(value)


def _wrap(value: Any) -> str:
    """A value written inside a longer length: in brackets when it is a sum or a difference, so that
    ``width - 2 * $margin`` reads as meant for margin = "safe + 1.5mm"."""
    text = str(value)
    try:
        tree = lengths.parse(text)
    except (lengths.LengthError, RecursionError):
        return text
    return f"({text})" if isinstance(tree, (lengths.Bin, lengths.Neg)) else text
