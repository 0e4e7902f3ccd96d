"""Pure geometry of card sheets: the grid of cards on a page, crop marks, the scale bar.

Everything is in PDF points with the origin at the page's bottom-left corner.
Nothing here draws; renderers take these rectangles and lines as they are.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from kitgen.errors import LayoutError
from kitgen.layout.geometry import Line, Rect
from kitgen.units import MM, Size, to_mm

PRINTER_MARGIN = 5 * MM       # nothing is printed closer to the paper's edge
MARK_CLEARANCE = 1.5 * MM     # crop marks stop this short of the card area


def printable_area(page: Size, margin: float = PRINTER_MARGIN) -> Rect:
    """The part of a page a home printer reaches: all of it but ``margin`` on every side."""
    return Rect(margin, margin, page.width - 2 * margin, page.height - 2 * margin)


@dataclass(frozen=True)
class ScaleBar:
    """Where the scale bar goes: its start point and direction (horizontal or vertical)."""

    x: float
    y: float
    vertical: bool
    length: float   # the longest bar drawn, in points


@dataclass(frozen=True)
class SheetLayout:
    page: Size
    card: Size
    bleed: float
    cols: int
    rows: int
    slots: tuple[Rect, ...]        # trim boxes, row by row from the top left
    crop_marks: tuple[Line, ...]
    scale_bar: ScaleBar | None

    @property
    def per_page(self) -> int:
        return len(self.slots)

    @property
    def grid(self) -> Rect:
        """The area covered by cards and their bleed."""
        x0 = min(s.x for s in self.slots) - self.bleed
        y0 = min(s.y for s in self.slots) - self.bleed
        x1 = max(s.x1 for s in self.slots) + self.bleed
        y1 = max(s.y1 for s in self.slots) + self.bleed
        return Rect(x0, y0, x1 - x0, y1 - y0)


def fit_count(space: float, item: float, gap: float) -> int:
    """How many items of size ``item`` separated by ``gap`` fit in ``space``."""
    if item > space + 1e-6:
        return 0
    return int(math.floor((space - item) / (item + gap) + 1e-9)) + 1


def sheet_layout(page: Size, card: Size, bleed: float = 0.0, crop_marks: bool = True,
                 margin: float = PRINTER_MARGIN, paper_name: str = "paper",
                 area: Rect | None = None) -> SheetLayout:
    """Lay out as many cards as fit on a page, centred, with crop marks to the page edge.

    Without bleed the cards touch, so one cut separates two cards.  With bleed
    each card keeps its own bleed area, and neighbouring trim lines are
    ``2 * bleed`` apart.  ``area`` (a part of the page, such as the room under
    a heading) stands for the page when given: the cards keep ``margin`` from
    its edges, centred in it, and the crop marks stop at its edges.  A card
    that does not fit raises :class:`LayoutError` saying by how much.
    """
    if bleed < 0:
        raise LayoutError(f"bleed must be 0 mm or more, not {to_mm(bleed):g} mm")
    bounds = area if area is not None else Rect(0.0, 0.0, page.width, page.height)
    room = bounds.inset(margin)
    pitch_gap = 2 * bleed
    cols = fit_count(room.w - 2 * bleed, card.width, pitch_gap)
    rows = fit_count(room.h - 2 * bleed, card.height, pitch_gap)
    if cols == 0 or rows == 0:
        need = f"{to_mm(card.width + 2 * bleed):.1f} x {to_mm(card.height + 2 * bleed):.1f} mm"
        where = "" if area is None else f" in the {to_mm(bounds.w):.1f} x {to_mm(bounds.h):.1f} mm area"
        raise LayoutError(f"a card of {need} (with bleed) does not fit on {paper_name}{where} "
                          f"inside the {to_mm(margin):g} mm printer margins "
                          f"({to_mm(room.w):.1f} x {to_mm(room.h):.1f} mm printable)")
    grid_w = cols * card.width + (cols - 1) * pitch_gap
    grid_h = rows * card.height + (rows - 1) * pitch_gap
    cx, cy = bounds.center
    left, top = cx - grid_w / 2, cy + grid_h / 2
    slots = tuple(Rect(left + c * (card.width + pitch_gap), top - (r + 1) * card.height - r * pitch_gap,
                       card.width, card.height)
                  for r in range(rows) for c in range(cols))
    layout = SheetLayout(page, card, bleed, cols, rows, slots, (), None)
    marks = crop_marks_for(layout, bounds) if crop_marks else ()
    return SheetLayout(page, card, bleed, cols, rows, slots, marks, place_scale_bar(layout, room))


def _cut_positions(starts: list[float], size: float) -> list[float]:
    return sorted({round(v, 4) for s in starts for v in (s, s + size)})


def crop_marks_for(layout: SheetLayout, bounds: Rect | None = None) -> tuple[Line, ...]:
    """Lines along every cut, from just outside the card area out to ``bounds`` (the page edge).

    Every line runs left to right or bottom to top; a line with no room to run is left out.
    """
    grid, page = layout.grid, layout.page
    if bounds is None:
        bounds = Rect(0.0, 0.0, page.width, page.height)
    xs = _cut_positions([s.x for s in layout.slots], layout.card.width)
    ys = _cut_positions([s.y for s in layout.slots], layout.card.height)
    lines = []
    for x in xs:
        lines.append(Line(x, grid.y1 + MARK_CLEARANCE, x, bounds.y1))
        lines.append(Line(x, bounds.y, x, grid.y - MARK_CLEARANCE))
    for y in ys:
        lines.append(Line(bounds.x, y, grid.x - MARK_CLEARANCE, y))
        lines.append(Line(grid.x1 + MARK_CLEARANCE, y, bounds.x1, y))
    return tuple(ln for ln in lines if (ln.x1 - ln.x0) + (ln.y1 - ln.y0) > 0.5)


SCALE_BAR_LENGTH = 2 * 72.0        # the 2 in bar; the 50 mm bar is a little shorter
SCALE_BAR_DEPTH = 4.2 * MM         # room the bars and their labels need across


def place_scale_bar(layout: SheetLayout, room: Rect) -> ScaleBar | None:
    """Place the scale bar in the roomiest margin of ``room`` (the printable area), beside the grid."""
    grid = layout.grid
    left_room = grid.x - MARK_CLEARANCE - room.x
    bottom_room = grid.y - MARK_CLEARANCE - room.y
    if left_room >= bottom_room and left_room >= SCALE_BAR_DEPTH:
        x = room.x + (left_room - SCALE_BAR_DEPTH) / 2
        y = grid.y + (grid.h - SCALE_BAR_LENGTH) / 2 if layout.rows == 1 else _between_marks(
            sorted(s.y for s in layout.slots), layout.card.height, grid.y, grid.y1)
        return ScaleBar(x, y, True, SCALE_BAR_LENGTH)
    if bottom_room >= SCALE_BAR_DEPTH:
        y = room.y + (bottom_room - SCALE_BAR_DEPTH) / 2
        x = _between_marks(sorted(s.x for s in layout.slots), layout.card.width, grid.x, grid.x1)
        return ScaleBar(x, y, False, SCALE_BAR_LENGTH)
    return None


def _between_marks(starts: list[float], size: float, lo: float, hi: float) -> float:
    """Start of the bar: inside the first card span if it is long enough to cross no crop mark."""
    if size >= SCALE_BAR_LENGTH + 4 * MM:
        return starts[0] + (size - SCALE_BAR_LENGTH) / 2
    return lo + max(0.0, (hi - lo - SCALE_BAR_LENGTH) / 2)
