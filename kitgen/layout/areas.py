"""Where the labelled spaces of a board or mat go: pure geometry, in points.

An :class:`AreaSpec` is one ``[[components.areas]]`` table, already checked by
:mod:`kitgen.data.components`: a group of ``count`` equal spaces laid in a grid of
``columns`` per row, ``gap`` apart, whose top-left corner sits ``x``, ``y``
from the top-left corner of the piece (or centred across / down it).
:func:`place_areas` turns the specs into :class:`Space` rectangles in the
piece's own coordinates (origin bottom left, as in PDF).  Where the texts
printed outside the spaces go (a group's caption, labels above or below a
space) is worked out here too, so the renderer and the edge check agree.
Nothing here draws or measures text.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from kitgen.layout.geometry import EPS, Rect

AREA_SHAPES = ("rect", "circle", "card")
LABEL_PLACES = ("top", "center", "bottom", "left", "above", "below", "none")
ORDERS = ("rows", "bottom-up")
OUTER_PLACES = ("above", "below")   # label places printed on the piece, outside the space

# baselines of the texts outside the spaces, in font sizes from the group or space
CAPTION_RAISE = 0.5     # a caption's baseline above the group's top
ABOVE_RAISE = 0.45      # an "above" label's baseline above its space's top
BELOW_DROP = 1.1        # a "below" label's baseline under its space's bottom


@dataclass(frozen=True)
class AreaSpec:
    label: str                  # "{n}" is replaced by the space's number (1, 2, ...)
    labels: tuple[str, ...]     # one label per space; overrides ``label`` when given
    shape: str                  # rect, circle or card (a rectangle with rounded corners)
    x: float | None             # points from the piece's left edge; None: centred across
    y: float | None             # points from the piece's top edge; None: centred down
    width: float                # of one space (a circle's diameter)
    height: float
    count: int = 1
    columns: int = 0            # spaces per row; 0: all in one row
    gap: float = 0.0
    taper: float = 0.0          # each later space narrower by this much, centred on the group
    order: str = "rows"         # numbering: reading order, or rows counted from the bottom
    label_at: str = "top"
    color: str = ""             # fill of the spaces; "" for a light tint of the piece
    art: str = ""               # picture drawn inside every space
    caption: str = ""           # a heading printed above the whole group

    @property
    def per_row(self) -> int:
        return self.columns or self.count

    @property
    def rows(self) -> int:
        return math.ceil(self.count / self.per_row)

    @property
    def block(self) -> tuple[float, float]:
        """(width, height) of the whole group."""
        cols = min(self.per_row, self.count)
        return (cols * self.width + (cols - 1) * self.gap,
                self.rows * self.height + (self.rows - 1) * self.gap)

    def label_of(self, number: int) -> str:
        if self.labels:
            return self.labels[number - 1]
        return self.label.replace("{n}", str(number))


@dataclass(frozen=True)
class Space:
    spec: int           # index of the AreaSpec it comes from
    number: int         # 1-based within its group
    label: str
    rect: Rect          # in the piece's coordinates, origin bottom left


@dataclass(frozen=True)
class Caption:
    spec: int
    text: str
    x: float            # centre of the group
    y: float            # top of the group (the caption sits above it)


def group_origin(spec: AreaSpec, width: float, height: float) -> tuple[float, float]:
    """(left, top) of a group inside a ``width`` x ``height`` piece, origin bottom left."""
    bw, bh = spec.block
    left = (width - bw) / 2 if spec.x is None else spec.x
    top = (height + bh) / 2 if spec.y is None else height - spec.y
    return left, top


def place_group(spec: AreaSpec, index: int, width: float, height: float) -> list[Space]:
    left, top = group_origin(spec, width, height)
    per_row, rows = spec.per_row, spec.rows
    bw = spec.block[0]
    spaces = []
    for k in range(spec.count):
        row, col = divmod(k, per_row)
        number = k + 1
        if spec.order == "bottom-up":
            # numbering runs along each row, rows counted from the bottom
            number = (rows - 1 - row) * per_row + col + 1
        shrink = spec.taper * (number - 1)
        w = max(spec.width - shrink, 0.0)
        x = left + col * (spec.width + spec.gap) + (spec.width - w) / 2
        if per_row == 1:
            x = left + (bw - w) / 2
        y = top - (row + 1) * spec.height - row * spec.gap
        spaces.append(Space(index, number, spec.label_of(number), Rect(x, y, w, spec.height)))
    return sorted(spaces, key=lambda s: s.number)


def place_areas(specs: Sequence[AreaSpec], width: float, height: float) -> list[Space]:
    """Every space of every group, group by group, each group in numbering order."""
    out: list[Space] = []
    for i, spec in enumerate(specs):
        out.extend(place_group(spec, i, width, height))
    return out


def captions(specs: Sequence[AreaSpec], width: float, height: float) -> list[Caption]:
    out = []
    for i, spec in enumerate(specs):
        if spec.caption:
            left, top = group_origin(spec, width, height)
            out.append(Caption(i, spec.caption, left + spec.block[0] / 2, top))
    return out


def outside(spaces: Sequence[Space], width: float, height: float) -> list[Space]:
    """The spaces that reach past the edges of a ``width`` x ``height`` piece."""
    piece = Rect(0, 0, width, height)
    return [s for s in spaces if not piece.contains(s.rect, tol=EPS * 100)]


def caption_baseline(cap: Caption, size: float) -> float:
    return cap.y + size * CAPTION_RAISE


def outer_label_anchor(space: Space, place: str, size: float) -> tuple[float, float]:
    """(centre x, baseline) of a label printed ``above`` or ``below`` its space."""
    r = space.rect
    cx = r.x + r.w / 2
    if place == "above":
        return cx, r.y1 + size * ABOVE_RAISE
    return cx, r.y - size * BELOW_DROP


def centred_room(cx: float, width: float, margin: float = 0.0) -> float:
    """The widest line centred on ``cx`` that stays ``margin`` inside a piece ``width`` wide."""
    return max(0.0, 2 * (min(cx, width - cx) - margin))


def text_box(cx: float, baseline: float, text_width: float, ascent: float, descent: float) -> Rect:
    """The box of one centred line of text; ``descent`` is negative below the baseline, as fonts give it."""
    return Rect(cx - text_width / 2, baseline + descent, text_width, ascent - descent)


def edges_crossed(box: Rect, width: float, height: float) -> list[str]:
    """The edges of a ``width`` x ``height`` piece that ``box`` reaches past: top, bottom, left, right."""
    tol = EPS * 100
    sides = (("top", box.y1 > height + tol), ("bottom", box.y < -tol),
             ("left", box.x < -tol), ("right", box.x1 > width + tol))
    return [name for name, crossed in sides if crossed]
