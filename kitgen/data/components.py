"""Table components declared in game.toml: tokens, tiles, mats, boards, score pads, reference cards.

Each ``[[components]]`` entry is checked here, once, into a typed object; the
renderers trust what they get.  A kind is one parser in :data:`PARSERS`, so a
new kind (a board tiled over several pages, say) is one more function here and
one more renderer in :mod:`kitgen.render.aids`.

Shaped pieces (``token``, ``tile``, ``mat``) share one schema::

    [[components]]
    kind = "token"            # token (default shape circle), tile (square), mat (rect)
    name = "Coin"
    shape = "circle"          # circle, square, rect or hexagon (flat-topped)
    size = "25mm"             # circle/square/hexagon: one length; rect: "90x60mm"
    count = 10
    text = "Coin"             # printed on the piece (default: the name; "" for none)
    subtitle = "worth 1"
    color = "#2a7f62"         # background; text_color for the lettering
    art = "coin.png"          # drawn on the piece; a placeholder when missing
    denominations = [ { text = "1", count = 20 }, { text = "5", count = 8, color = "#a0522d" } ]

Sizes are lengths such as ``34``, ``"34mm"``, ``"1.5in"``; a hexagon's size is
its width from corner to corner.

A ``board`` is a rectangle of any size (``size = "420x297mm"``); one larger
than the paper is printed in parts over several pages that overlap by
``overlap`` (default 10 mm) and are taped together.  Boards and mats carry
``[[components.areas]]``: labelled spaces for cards, tiles and tokens::

    [[components.areas]]
    label = "Leaf {n}"        # {n}: the space's number; or labels = ["a", "b", ...]
    shape = "card"            # rect, circle, or card (the game's card size; turned = true lays it sideways)
    x = "10mm"                # left edge of the group from the piece's left edge, or "center"
    y = "20mm"                # top edge of the group from the piece's top edge, or "center"
    size = "40x30mm"          # rect: WxH; circle: its diameter; card: omitted
    count = 5                 # spaces in the group, in rows of `columns` (default: one row)
    gap = "4mm"

Any printed text of a component, and any of its whole numbers, may be a template
that reads game.toml's ``[rules]`` and ``[rulings]`` (:mod:`kitgen.data.component_text`),
so a reference card's "Famine: -13" follows the rules.

See docs/components.md for every key.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

from kitgen.data.bounded_sandbox import TemplateClock
from kitgen.data.component_text import fill, is_template
from kitgen.data.limits import MAX_AREAS, MAX_PIECES
from kitgen.data.paths import relative
from kitgen.data.values import hex_color
from kitgen.errors import GameDataError, OptionError
from kitgen.layout.areas import AREA_SHAPES, LABEL_PLACES, ORDERS, AreaSpec, outside, place_areas
from kitgen.layout.packing import HEX_RATIO, fits, largest_content
from kitgen.layout.tiling import DEFAULT_OVERLAP_MM
from kitgen.units import card_size, mm, to_mm, to_points

SHAPES = ("circle", "square", "rect", "hexagon")
_PAIR = re.compile(r"^\s*([^xX×]+?)\s*[xX×]\s*([^xX×]+?)\s*$")
_UNIT = re.compile(r"(mm|cm|in|pt)\s*$")
_COMMON = {"kind", "name", "count"}
MAX_REFERENCE_LINES = 40     # at the smallest type, a tarot-sized card holds about this many


@dataclass(frozen=True, kw_only=True)
class Component:
    kind: str
    name: str
    count: int
    where: str          # "<game.toml>: component 'Name' (kind)", for messages at render time


@dataclass(frozen=True)
class Face:
    """One denomination of a piece: what is printed and how many."""

    text: str
    subtitle: str
    color: str
    text_color: str
    art: str
    count: int


@dataclass(frozen=True, kw_only=True)
class Piece(Component):
    """A token, tile or mat: a shape cut out along its outline."""

    shape: str
    width: float        # points; the bounding box of the shape
    height: float
    faces: tuple[Face, ...]
    areas: tuple[AreaSpec, ...] = ()    # labelled spaces (mats and boards)

    @property
    def total(self) -> int:
        return sum(f.count for f in self.faces)


@dataclass(frozen=True, kw_only=True)
class Board(Piece):
    """A rectangle of any size; larger than the paper, it is printed in overlapping parts."""

    overlap: float      # points shared by neighbouring parts


@dataclass(frozen=True, kw_only=True)
class ScorePad(Component):
    """A sheet with one row per round and one column per player (``count`` = sheets)."""

    title: str
    rounds: int
    players: int        # player columns: by default the game's most players
    track: str          # name of a pre-filled column, "" for none
    track_start: int
    track_step: int
    note: str = ""      # a line printed under the table (what its rounds cover, say), "" for none

    def track_values(self) -> list[int]:
        return [self.track_start + self.track_step * r for r in range(self.rounds)]


@dataclass(frozen=True, kw_only=True)
class Reference(Component):
    """A card-sized player aid listing lines of text (``count`` copies)."""

    title: str
    lines: tuple[str, ...]
    size: tuple[float, float] | None    # points; None: the game's card size
    color: str                          # title band; "" for the game's back colour
    corner: str = ""                    # a short mark in the band's top-left corner, "" for none


# --- small checked readers ----------------------------------------------------

class _Entry:
    """One [[components]] table, with helpers raising errors that name it."""

    def __init__(self, data: dict, kind: str, name: str, game, file: str, clock: TemplateClock | None = None):
        self.data, self.kind, self.name, self.game, self.file = data, kind, name, game, file
        self.clock = clock if clock is not None else TemplateClock()   # the templates' processor time
        self.label = f"component {name!r} ({kind})"
        self.where = f"{file}: {self.label}"

    def fail(self, message: str):
        raise GameDataError(f"{self.label}: {message}", file=self.file)

    def keys(self, allowed: set[str]) -> None:
        allowed = allowed | _COMMON
        for key in self.data:
            if key not in allowed:
                self.fail(f"unknown key '{key}' (accepted: {', '.join(sorted(allowed))})")

    def text(self, key: str, default: str, data: dict | None = None) -> str:
        value = (self.data if data is None else data).get(key, default)
        if not isinstance(value, str):
            self.fail(f"'{key}' must be text, not {type(value).__name__}")
        return self.filled(value, f"'{key}'")

    def filled(self, text: str, what: str) -> str:
        """A printed text with its template filled in from the game's rules (see component_text)."""
        return fill(text, self.game, f"{self.label}: {what}", self.file, self.clock).strip()

    def integer(self, key: str, default: int, minimum: int | None = None, data: dict | None = None) -> int:
        value = (self.data if data is None else data).get(key, default)
        if is_template(value):          # a number from the rules: "{{ rules.population_start + 1 }}"
            text = self.filled(value, f"'{key}'")
            if not text.lstrip("-").isdigit() or len(text) > 9:
                self.fail(f"'{key}' = {value!r} gives {text[:40]!r}, not a whole number")
            value = int(text)
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(f"'{key}' must be a whole number, not {value!r}")
        if minimum is not None and value < minimum:
            self.fail(f"'{key}' = {value} must be at least {minimum}")
        return value

    def color(self, key: str, default: str, data: dict | None = None) -> str:
        value = self.text(key, default, data)
        try:
            return hex_color(value, key) if value else ""
        except ValueError as exc:
            self.fail(str(exc))

    def length(self, spec: Any, key: str) -> float:
        try:
            value = to_points(spec)
        except ValueError as exc:
            self.fail(f"'{key}': {exc}")
        if value < mm(5):
            self.fail(f"'{key}' = {spec!r} is too small (at least 5 mm)")
        return value

    def art(self, key: str, default: str, data: dict | None = None) -> str:
        name = self.text(key, default, data)
        if name:
            relative(name, f"{self.where}, '{key}'")  # as written; the file itself is checked as the game loads
        return name


# --- kinds ----------------------------------------------------------------------

_PIECE_KEYS = {"shape", "size", "text", "subtitle", "color", "text_color", "art", "denominations"}
_FACE_KEYS = {"text", "subtitle", "color", "text_color", "art", "count"}
_PIECE_DEFAULTS = {"token": ("circle", "25mm", "#555555"),
                   "tile": ("square", "30mm", "#8d7b68"),
                   "mat": ("rect", None, "#e9e1cf")}


def _piece(e: _Entry, game, count: int) -> Piece:
    e.keys(_PIECE_KEYS | ({"areas"} if e.kind == "mat" else set()))
    shape_default, size_default, color_default = _PIECE_DEFAULTS[e.kind]
    shape = e.text("shape", shape_default).lower()
    if shape not in SHAPES:
        e.fail(f"unknown shape {shape!r} (accepted: {', '.join(SHAPES)})")
    size = e.data.get("size", size_default)
    if size is None:
        e.fail("missing 'size' (e.g. size = \"180x120mm\")")
    if shape == "rect":
        pair = _pair(e, size, "size")
        if pair is None:
            e.fail(f"'size' = {size!r} must give width and height, e.g. \"90x60mm\"")
        width, height = pair
    else:
        if isinstance(size, str) and _PAIR.match(size):
            e.fail(f"'size' = {size!r}: a {shape} takes one length (its width), e.g. \"30mm\"")
        width = e.length(size, "size")
        height = width * HEX_RATIO if shape == "hexagon" else width
    limit = largest_content()
    if not fits((width, height), limit):
        e.fail(f"size {to_mm(width):.0f} x {to_mm(height):.0f} mm is larger than the printable area "
               f"of a page ({to_mm(limit[0]):.0f} x {to_mm(limit[1]):.0f} mm on letter and A4)")

    base = dict(text=e.text("text", e.name), subtitle=e.text("subtitle", ""),
                color=e.color("color", color_default), text_color=e.color("text_color", ""),
                art=e.art("art", ""))
    denominations = e.data.get("denominations")
    if denominations is None:
        faces = (Face(count=count, **base),)
    else:
        if "count" in e.data:
            e.fail("give 'count' in each of the 'denominations', not for the whole component")
        if not isinstance(denominations, list) or not denominations:
            e.fail("'denominations' must be a list of tables such as { text = \"5\", count = 10 }")
        faces = []
        for i, d in enumerate(denominations, start=1):
            if not isinstance(d, dict):
                e.fail(f"denomination {i} must be a table such as {{ text = \"5\", count = 10 }}")
            for key in d:
                if key not in _FACE_KEYS:
                    e.fail(f"denomination {i}: unknown key '{key}' (accepted: {', '.join(sorted(_FACE_KEYS))})")
            faces.append(Face(text=e.text("text", base["text"], d), subtitle=e.text("subtitle", base["subtitle"], d),
                              color=e.color("color", base["color"], d),
                              text_color=e.color("text_color", base["text_color"], d),
                              art=e.art("art", base["art"], d), count=e.integer("count", 1, 0, d)))
        faces = tuple(faces)
        count = sum(f.count for f in faces)
    areas = ()
    if "areas" in e.data:
        if shape != "rect":
            e.fail("areas need a rectangular mat (shape = \"rect\")")
        areas = _areas(e, game, width, height)
    return Piece(kind=e.kind, name=e.name, count=count, where=e.where, shape=shape,
                 width=width, height=height, faces=faces, areas=areas)


_AREA_KEYS = {"name", "label", "labels", "shape", "x", "y", "size", "turned", "count", "columns", "gap",
              "taper", "order", "label_at", "color", "art", "caption"}


def _pair(e: _Entry, size: Any, key: str) -> tuple[float, float] | None:
    """``"90x60mm"`` as (width, height) in points; None when ``size`` is not a pair."""
    pair = _PAIR.match(size) if isinstance(size, str) else None
    if not pair:
        return None
    first, second = pair.group(1), pair.group(2)
    unit = _UNIT.search(second)
    if unit and not _UNIT.search(first):  # "90x60mm": the unit after the height applies to both
        first += unit.group(1)
    return e.length(first, key), e.length(second, key)


def _optional_length(e: _Entry, data: dict, key: str, default: float, where: str = "") -> float:
    """The length (in points) given as ``data[key]``, or ``default`` when the key is absent."""
    if key not in data:
        return default
    try:
        return to_points(data[key])
    except ValueError as exc:
        e.fail(f"{where}'{key}': {exc}")


def _offset(e: _Entry, data: dict, key: str, what: str) -> float | None:
    value = data.get(key, "center")
    if isinstance(value, str) and value.strip().lower() in ("center", "centre"):
        return None
    try:
        return to_points(value)
    except ValueError as exc:
        e.fail(f"{what}: '{key}': {exc} (or \"center\")")


def _areas(e: _Entry, game, width: float, height: float) -> tuple[AreaSpec, ...]:
    entries = e.data.get("areas", [])
    if not isinstance(entries, list):
        e.fail("'areas' must be a list of [[components.areas]] tables")
    specs = []
    for i, a in enumerate(entries, start=1):
        if not isinstance(a, dict):
            e.fail(f"area {i} must be a table")
        name = a.get("name", a.get("label", f"#{i}"))
        what = f"area {i} ({name})" if isinstance(name, str) and name else f"area {i}"
        for key in a:
            if key not in _AREA_KEYS:
                e.fail(f"{what}: unknown key '{key}' (accepted: {', '.join(sorted(_AREA_KEYS))})")
        shape = e.text("shape", "rect", a).lower()
        if shape not in AREA_SHAPES:
            e.fail(f"{what}: unknown shape {shape!r} (accepted: {', '.join(AREA_SHAPES)})")
        size = a.get("size")
        if shape == "card":
            if size is None:
                w, h = card_size(game.card_size)
            else:
                pair = _pair(e, size, f"{what}: 'size'")
                if pair is None:
                    e.fail(f"{what}: 'size' = {size!r} must give width and height, e.g. \"63x88mm\"")
                w, h = pair
            turned = a.get("turned", False)
            if not isinstance(turned, bool):
                e.fail(f"{what}: 'turned' must be true or false")
            if turned:
                w, h = h, w
        elif size is None:
            e.fail(f"{what}: missing 'size' (e.g. size = \"40x30mm\", or \"30mm\" for a circle)")
        elif shape == "circle":
            if _pair(e, size, f"{what}: 'size'") is not None:
                e.fail(f"{what}: 'size' = {size!r}: a circle takes one length (its diameter), e.g. \"30mm\"")
            w = h = e.length(size, f"{what}: 'size'")
        else:
            pair = _pair(e, size, f"{what}: 'size'")
            if pair is None:
                e.fail(f"{what}: 'size' = {size!r} must give width and height, e.g. \"40x30mm\"")
            w, h = pair
        if shape != "card" and "turned" in a:
            e.fail(f"{what}: 'turned' applies to card spaces only")
        count = e.integer("count", 1, 1, a)
        if count > MAX_AREAS:
            e.fail(f"{what}: 'count' = {count:,} spaces is more than a board or mat holds (at most {MAX_AREAS:,})")
        columns = e.integer("columns", 0, 0, a)
        labels = a.get("labels", [])
        if not isinstance(labels, list) or not all(isinstance(x, str) for x in labels):
            e.fail(f"{what}: 'labels' must be a list of texts, one per space")
        labels = [e.filled(x, f"{what}: 'labels' text {k}") for k, x in enumerate(labels, 1)]
        if labels and len(labels) != count:
            e.fail(f"{what}: 'labels' gives {len(labels)} texts for {count} spaces (count = {count})")
        gap = _optional_length(e, a, "gap", 0.0, f"{what}: ")
        taper = _optional_length(e, a, "taper", 0.0, f"{what}: ")
        if "taper" in a and w - taper * (count - 1) < mm(5):
            e.fail(f"{what}: 'taper' leaves the last space narrower than 5 mm")
        order = e.text("order", "rows", a).lower()
        if order not in ORDERS:
            e.fail(f"{what}: unknown order {order!r} (accepted: {', '.join(ORDERS)})")
        label_at = e.text("label_at", "top", a).lower()
        if label_at not in LABEL_PLACES:
            e.fail(f"{what}: unknown label_at {label_at!r} (accepted: {', '.join(LABEL_PLACES)})")
        label = e.text("label", name if isinstance(name, str) and not name.startswith("#") else "", a)
        spec = AreaSpec(label=label, labels=tuple(labels), shape=shape,
                        x=_offset(e, a, "x", what), y=_offset(e, a, "y", what), width=w, height=h,
                        count=count, columns=columns, gap=gap, taper=taper, order=order,
                        label_at=label_at, color=e.color("color", "", a), art=e.art("art", "", a),
                        caption=e.text("caption", "", a))
        bad = outside(place_areas([spec], width, height), width, height)
        if bad:
            r = bad[0].rect
            e.fail(f"{what}: space {bad[0].number} ({to_mm(r.x):.0f}-{to_mm(r.x1):.0f} mm across, "
                   f"{to_mm(height - r.y1):.0f}-{to_mm(height - r.y):.0f} mm down) reaches past the "
                   f"{to_mm(width):.0f} x {to_mm(height):.0f} mm {e.kind}; move it or make it smaller")
        specs.append(spec)
    return tuple(specs)


def _board(e: _Entry, game, count: int) -> Board:
    e.keys({"size", "text", "subtitle", "color", "text_color", "art", "overlap", "areas"})
    size = e.data.get("size")
    if size is None:
        e.fail("missing 'size' (e.g. size = \"420x297mm\")")
    pair = _pair(e, size, "size")
    if pair is None:
        e.fail(f"'size' = {size!r} must give width and height, e.g. \"420x297mm\"")
    width, height = pair
    if max(width, height) > mm(2000):
        e.fail(f"size {size!r} is larger than 2 m; give the board's size in mm, e.g. \"420x297mm\"")
    overlap = _optional_length(e, e.data, "overlap", mm(DEFAULT_OVERLAP_MM))
    if "overlap" in e.data and not mm(3) <= overlap <= mm(40):
        e.fail(f"'overlap' = {e.data['overlap']!r} must be between 3 and 40 mm")
    face = Face(text=e.text("text", e.name), subtitle=e.text("subtitle", ""),
                color=e.color("color", "#e9e1cf"), text_color=e.color("text_color", ""),
                art=e.art("art", ""), count=count)
    return Board(kind=e.kind, name=e.name, count=count, where=e.where, shape="rect", width=width,
                 height=height, faces=(face,), areas=_areas(e, game, width, height), overlap=overlap)


MAX_PAD_PLAYERS = 16      # player columns a score pad fits across letter or A4, each about 10 mm wide


def _score_pad(e: _Entry, game, count: int) -> ScorePad:
    e.keys({"title", "rounds", "players", "track", "track_start", "track_step", "note"})
    rounds = e.integer("rounds", 12, 1)
    if rounds > 40:
        e.fail(f"'rounds' = {rounds} does not fit on one sheet (at most 40)")
    players = e.integer("players", min(game.players_usual, MAX_PAD_PLAYERS), 1)  # a column per usual player
    if players > MAX_PAD_PLAYERS:
        e.fail(f"'players' = {players} columns do not fit across a sheet (at most {MAX_PAD_PLAYERS})")
    return ScorePad(kind=e.kind, name=e.name, count=count, where=e.where,
                    title=e.text("title", e.name), rounds=rounds, players=players,
                    track=e.text("track", ""), track_start=e.integer("track_start", 0),
                    track_step=e.integer("track_step", 1), note=e.text("note", ""))


def _reference(e: _Entry, game, count: int) -> Reference:
    e.keys({"title", "lines", "size", "color", "corner"})
    lines = e.data.get("lines")
    if not isinstance(lines, list) or not lines or not all(isinstance(x, str) and x.strip() for x in lines):
        e.fail("'lines' must be a list of non-empty texts, e.g. lines = [\"1 Draw: ...\", \"2 Play: ...\"]")
    if len(lines) > MAX_REFERENCE_LINES:
        e.fail(f"'lines' has {len(lines)} lines; a reference card holds at most {MAX_REFERENCE_LINES}")
    lines = [e.filled(x, f"'lines' line {i}") for i, x in enumerate(lines, 1)]
    if not all(lines):
        e.fail(f"'lines' line {lines.index('') + 1} gives no text once filled in from the rules")
    size = None
    if "size" in e.data:
        spec = e.data["size"]
        try:
            s = card_size(spec if isinstance(spec, str) else str(spec), "size")
        except OptionError as exc:
            e.fail(f"'size' = {spec!r}: {exc.message}")
        if not fits((s.width, s.height), largest_content()):
            e.fail(f"size {spec!r} is larger than the printable area of a page")
        size = (s.width, s.height)
    return Reference(kind=e.kind, name=e.name, count=count, where=e.where,
                     title=e.text("title", e.name), lines=tuple(lines),
                     size=size, color=e.color("color", ""), corner=_corner(e))


MAX_CORNER = 3        # characters of a reference card's corner mark


def _corner(e: _Entry) -> str:
    mark = e.text("corner", "")
    if len(mark) > MAX_CORNER:
        e.fail(f"'corner' = {mark!r}: a corner mark is at most {MAX_CORNER} characters, like \"?\" or \"R\"")
    return mark


PARSERS: dict[str, Callable[[_Entry, Any, int], Component]] = {
    "token": _piece,
    "tile": _piece,
    "mat": _piece,
    "board": _board,
    "score-pad": _score_pad,
    "reference": _reference,
}
KINDS = tuple(PARSERS)


def parse_components(entries: Any, game, where: str) -> list[Component]:
    """Check every ``[[components]]`` table of ``where`` (game.toml) into typed components."""
    if not isinstance(entries, list):
        raise GameDataError("'components' must be a list of [[components]] tables", file=where)
    parsed: list[Component] = []
    names: set[str] = set()
    clock = TemplateClock()     # the processor time all the components' templates may take
    for i, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            raise GameDataError(f"component {i} must be a table", file=where)
        kind = entry.get("kind")
        name = entry.get("name", kind if isinstance(kind, str) else f"#{i}")
        if not isinstance(name, str) or not name.strip():
            raise GameDataError(f"component {i}: 'name' must be non-empty text", file=where)
        name = name.strip()
        if kind not in PARSERS:
            raise GameDataError(f"component {name!r}: unknown kind {kind!r} "
                                f"(accepted: {', '.join(KINDS)})", file=where)
        e = _Entry(entry, kind, name, game, where, clock)
        if name.casefold() in names:
            e.fail("another component has the same name")
        names.add(name.casefold())
        count = e.integer("count", 1, 1)
        if count > MAX_PIECES:
            e.fail(f"'count' = {count:,} is more than kitgen prints of one component (at most {MAX_PIECES:,})")
        component = PARSERS[kind](e, game, count)
        if getattr(component, "total", 0) > MAX_PIECES:
            e.fail(f"the denominations add up to {component.total:,} pieces, more than kitgen prints of one "
                   f"component (at most {MAX_PIECES:,})")
        parsed.append(component)
    return parsed
