"""Pure geometry of card sheets: the grid of cards on a page, crop marks, cut guides, the scale bar.

Everything is in PDF points with the origin at the page's bottom-left corner.
Nothing here draws; renderers take these rectangles and lines as they are.

Crop marks must print on a home printer, which leaves ``PRINTER_MARGIN``
blank on every side.  A mark is drawn only if at least ``GOOD_MARK`` (4 mm) of
it lies inside the printable area; where no arrangement of as many cards gives
every cut such a guide, marks of ``MIN_MARK`` (3 mm) are drawn.  A sheet is
chosen so that every cut has a guide:

* marks beyond the grid, above and below it for the cuts that run up the page
  and beside it for the cuts that run across, where the margin leaves room;
* short ticks in the gutters between cards, where a gutter is wide enough;
* without bleed, a white gutter itself: a card's colour ends at its cut line,
  so a column set apart from the next needs no mark to be cut straight.

Poker cards on letter paper leave 6.35 mm above and below three rows, too
little for a mark to print, so the columns are set a few millimetres apart
instead (:data:`AUTO_GUTTER`).  When cards turned a quarter turn fit more to
a page, the sheet turns them (:attr:`SheetLayout.turned`).

Without crop marks the cards keep the places (and gutters) they have with
marks, and every cut that no white paper shows (with bleed, every cut) gets a
hairline along it (:attr:`SheetLayout.cut_guides`), so each card's edge shows.

Texts and the scale bar go in the margins where no mark crosses them
(:mod:`kitgen.layout.margins`, :mod:`kitgen.layout.scale_bar`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Sequence

from kitgen.errors import LayoutError
from kitgen.layout.geometry import EPS, Line, Rect
from kitgen.layout.margins import MARK_CLEARANCE, PRINTER_MARGIN, margin_spots, printable_area
from kitgen.layout.scale_bar import SCALE_BAR_DEPTH, ScaleBar, best_scale_bar
from kitgen.units import MM, Size, to_mm

GOOD_MARK = 4 * MM            # a mark is drawn if this much of it lies inside the printable area...
MIN_MARK = 3 * MM             # ... or this much, where the page leaves no room for more
TICK_CLEARANCE = 0.5 * MM     # a tick in a gutter stops this short of the bleed on either side
AUTO_GUTTER = (2 * MM, 3 * MM)   # least and most space set between cards whose cuts have no printable mark


@dataclass(frozen=True)
class SheetLayout:
    page: Size
    card: Size                     # the card as the game declares it, upright
    bleed: float
    cols: int
    rows: int
    slots: tuple[Rect, ...]        # trim boxes as they lie on the page, row by row from the top left
    crop_marks: tuple[Line, ...]
    scale_bar: ScaleBar | None     # on this page (a duplex sheet may put it on the backs page instead)
    turned: bool = False           # the cards lie a quarter turn counter-clockwise
    gap: tuple[float, float] = (0.0, 0.0)   # between neighbouring trim lines: across, down
    margin: float = PRINTER_MARGIN
    cut_guides: tuple[Line, ...] = ()   # hairlines along the cuts, drawn on the fronts when marks are off

    @property
    def per_page(self) -> int:
        return len(self.slots)

    @property
    def rotation(self) -> int:
        """Degrees (counter-clockwise) a front is turned when drawn in its slot."""
        return 90 if self.turned else 0

    @property
    def grid(self) -> Rect:
        """The area covered by cards and their bleed."""
        return grid_of(self.slots, self.bleed)


def grid_of(slots: Sequence[Rect], bleed: float) -> Rect:
    x0 = min(s.x for s in slots) - bleed
    y0 = min(s.y for s in slots) - bleed
    x1 = max(s.x1 for s in slots) + bleed
    y1 = max(s.y1 for s in slots) + bleed
    return Rect(x0, y0, x1 - x0, y1 - y0)


def fit_count(space: float, item: float, gap: float) -> int:
    """How many items of size ``item`` separated by ``gap`` fit in ``space``."""
    if item > space + 1e-6:
        return 0
    return int(math.floor((space - item) / (item + gap) + 1e-9)) + 1


# --- choosing the arrangement ------------------------------------------------------------

@dataclass(frozen=True)
class _Axis:
    """One direction of a grid: ``count`` cards ``size`` long, ``gap`` apart, centred on the page."""

    count: int
    size: float
    gap: float
    bleed: float
    page: float

    @property
    def length(self) -> float:
        return self.count * self.size + (self.count - 1) * self.gap + 2 * self.bleed

    @property
    def outer(self) -> float:
        """Paper beyond the grid on each side."""
        return (self.page - self.length) / 2

    def fits(self, margin: float) -> bool:
        return self.outer >= margin - EPS

    def marks_print(self, margin: float, least: float) -> bool:
        """Marks beyond the grid along this direction keep ``least`` inside the printable area."""
        return self.outer - MARK_CLEARANCE - margin >= least - EPS

    def ticks_fit(self, least: float) -> bool:
        """A gutter between these cards is wide enough for a tick ``least`` long marking the cuts across it."""
        return self.count > 1 and self.gap - 2 * self.bleed - 2 * TICK_CLEARANCE >= least - EPS

    def gutters_show(self) -> bool:
        """Without bleed, white paper between every two cards shows where each is cut."""
        return self.bleed == 0 and (self.count == 1 or self.gap > EPS)


def _cuts_guided(across: _Axis, down: _Axis, margin: float, least: float) -> bool:
    """Every cut of the grid has a guide that prints, its marks ``least`` long (see the module's notes)."""
    # cuts running up the page separate the columns: marks above and below, ticks in the row
    # gutters, or white gutters between the columns
    up = down.marks_print(margin, least) or down.ticks_fit(least) or across.gutters_show()
    side = across.marks_print(margin, least) or across.ticks_fit(least) or down.gutters_show()
    return up and side


def _gutter_options(count: int, size: float, base: float, bleed: float, page: float, margin: float,
                    auto: bool) -> list[float]:
    """Gaps to try along one direction: the asked one, then (without bleed) a gutter that keeps room
    beyond the grid for the scale bar, or else for marks that print, or else only for the cards."""
    options = [base]
    if not auto or bleed > 0 or count < 2:
        return options
    low, high = AUTO_GUTTER
    for reserve in (margin + MARK_CLEARANCE + SCALE_BAR_DEPTH, margin + MARK_CLEARANCE + GOOD_MARK,
                    margin + MARK_CLEARANCE + MIN_MARK, margin):
        room = page - 2 * reserve - count * size
        gutter = min(high, room / (count - 1))
        if gutter >= low - EPS and all(abs(gutter - o) > EPS for o in options):
            options.append(gutter)
    return options


def _arrangement(page: Size, w: float, h: float, bleed: float, gap: float, auto: bool, margin: float,
                 need_guides: bool) -> tuple[_Axis, _Axis, float] | None:
    """The grid holding the most ``w`` x ``h`` cards whose cuts are all guided (or any grid, when
    ``need_guides`` is false), with the smallest gaps that do it, and the least length of its marks:
    ``GOOD_MARK`` if that many cards allow it, else ``MIN_MARK``."""
    room = printable_area(page, margin)
    most_cols = fit_count(room.w - 2 * bleed, w, gap)
    most_rows = fit_count(room.h - 2 * bleed, h, gap)
    shapes = sorted(((c, r) for c in range(1, most_cols + 1) for r in range(1, most_rows + 1)),
                    key=lambda cr: (-cr[0] * cr[1], -cr[0]))
    for cols, rows in shapes:
        options = []
        for gx in _gutter_options(cols, w, gap, bleed, page.width, margin, auto):
            for gy in _gutter_options(rows, h, gap, bleed, page.height, margin, auto):
                across = _Axis(cols, w, gx, bleed, page.width)
                down = _Axis(rows, h, gy, bleed, page.height)
                if across.fits(margin) and down.fits(margin):
                    options.append((gx + gy, across, down))
        options.sort(key=lambda o: o[0])
        for least in (GOOD_MARK, MIN_MARK):
            for _, across, down in options:
                if not need_guides or _cuts_guided(across, down, margin, least):
                    return across, down, least
    return None


def sheet_layout(page: Size, card: Size, bleed: float = 0.0, crop_marks: bool = True,
                 margin: float = PRINTER_MARGIN, paper_name: str = "paper", gap: float | None = None,
                 turn: bool = True) -> SheetLayout:
    """Lay out as many cards as fit on a page, centred, each cut guided by marks that print.

    ``gap`` is the space between neighbouring trim lines; by default twice the
    bleed, so each card keeps its own bleed and a cut that drifts shows the
    card's own colour, not its neighbour's.  Without bleed and without a
    ``gap`` the cards touch where their cuts are marked, so one cut separates
    two cards, and are set a little apart where they are not.  Without
    ``crop_marks`` the cards lie where they would with marks, and hairlines
    mark the cuts no white paper shows.  With ``turn`` the cards are laid
    sideways when that fits more of them.  A card that does not fit raises
    :class:`LayoutError` saying by how much.
    """
    if bleed < 0:
        raise LayoutError(f"bleed must be 0 mm or more, not {to_mm(bleed):g} mm")
    base = 2 * bleed if gap is None else gap
    if base < 2 * bleed - EPS:
        raise LayoutError(f"a gap of {to_mm(base):g} mm is less than twice the {to_mm(bleed):g} mm bleed; "
                          f"neighbouring cards need {to_mm(2 * bleed):g} mm for their bleed")
    best = None
    for turned in ((False, True) if turn else (False,)):
        w, h = (card.height, card.width) if turned else (card.width, card.height)
        found = (_arrangement(page, w, h, bleed, base, gap is None, margin, True)
                 or _arrangement(page, w, h, bleed, base, gap is None, margin, False))
        if found and (best is None or found[0].count * found[1].count > best[1].count * best[2].count):
            best = (turned, *found)
    if best is None:
        room = printable_area(page, margin)
        need = f"{to_mm(card.width + 2 * bleed):.1f} x {to_mm(card.height + 2 * bleed):.1f} mm"
        raise LayoutError(f"a card of {need} (with bleed) does not fit on {paper_name} "
                          f"inside the {to_mm(margin):g} mm printer margins "
                          f"({to_mm(room.w):.1f} x {to_mm(room.h):.1f} mm printable)")
    turned, across, down, least = best
    w, h = across.size, down.size
    left = across.outer + bleed
    top = page.height - down.outer - bleed
    slots = tuple(Rect(left + c * (w + across.gap), top - (r + 1) * h - r * down.gap, w, h)
                  for r in range(down.count) for c in range(across.count))
    marks = cut_marks(slots, bleed, page, margin, least) if crop_marks else ()
    guides = () if crop_marks else cut_guides(slots, bleed)
    grid = grid_of(slots, bleed)
    bar = best_scale_bar(margin_spots(grid, page, margin, marks), centre=grid.center)
    return SheetLayout(page, card, bleed, across.count, down.count, slots, marks, bar, turned,
                       (across.gap, down.gap), margin, guides)


# --- crop marks ---------------------------------------------------------------------------

def _cut_positions(values: Iterable[float]) -> list[float]:
    """The distinct values, in order; values closer than 1/1000 pt are one cut."""
    out: list[float] = []
    for v in sorted(values):
        if not out or v - out[-1] > 1e-3:
            out.append(v)
    return out


def printed_length(line: Line, room: Rect) -> float:
    """How much of a horizontal or vertical ``line`` lies inside ``room``."""
    if abs(line.x0 - line.x1) < EPS:
        if not room.x - EPS <= line.x0 <= room.x1 + EPS:
            return 0.0
        return max(0.0, min(max(line.y0, line.y1), room.y1) - max(min(line.y0, line.y1), room.y))
    if not room.y - EPS <= line.y0 <= room.y1 + EPS:
        return 0.0
    return max(0.0, min(max(line.x0, line.x1), room.x1) - max(min(line.x0, line.x1), room.x))


def cut_marks(slots: Sequence[Rect], bleed: float, page: Size, margin: float = PRINTER_MARGIN,
              least: float = GOOD_MARK) -> tuple[Line, ...]:
    """Crop marks of cards at ``slots``: along every cut beyond the grid out to the page edge, and as
    ticks in the gutters between cards, each kept only if ``least`` of it prints.

    Every line runs left to right or bottom to top.
    """
    grid = grid_of(slots, bleed)
    room = printable_area(page, margin)
    xs = _cut_positions(v for s in slots for v in (s.x, s.x1))
    ys = _cut_positions(v for s in slots for v in (s.y, s.y1))
    lines = []
    for x in xs:
        lines.append(Line(x, grid.y1 + MARK_CLEARANCE, x, page.height))
        lines.append(Line(x, 0.0, x, grid.y - MARK_CLEARANCE))
    for y in ys:
        lines.append(Line(0.0, y, grid.x - MARK_CLEARANCE, y))
        lines.append(Line(grid.x1 + MARK_CLEARANCE, y, page.width, y))
    lines += gutter_ticks(slots, bleed, least)
    return tuple(ln for ln in lines if printed_length(ln, room) >= least - EPS)


def guided_marks(slots: Sequence[Rect], bleed: float, page: Size, margin: float = PRINTER_MARGIN) -> tuple[Line, ...]:
    """The crop marks of ``slots`` laid out already: of ``GOOD_MARK`` where they guide every cut,
    else of ``MIN_MARK``."""
    marks = cut_marks(slots, bleed, page, margin, GOOD_MARK)
    return marks if cuts_guided(slots, bleed, marks) else cut_marks(slots, bleed, page, margin, MIN_MARK)


def cuts_guided(slots: Sequence[Rect], bleed: float, marks: Sequence[Line]) -> bool:
    """Every cut that no white paper shows (see :func:`cut_guides`) has a mark along it."""
    marked_x = {round(m.x0, 3) for m in marks if abs(m.x0 - m.x1) < EPS}
    marked_y = {round(m.y0, 3) for m in marks if abs(m.y0 - m.y1) < EPS}
    return all(round(g.x0, 3) in marked_x if abs(g.x0 - g.x1) < EPS else round(g.y0, 3) in marked_y
               for g in cut_guides(slots, bleed))


def cut_guides(slots: Sequence[Rect], bleed: float) -> tuple[Line, ...]:
    """Hairlines along every card edge that no white paper shows: with bleed, every edge; without,
    an edge another card touches.  Each line runs left to right or bottom to top, once."""
    found: dict[tuple, Line] = {}
    for s in slots:
        edges = ((Line(s.x, s.y, s.x, s.y1), True), (Line(s.x1, s.y, s.x1, s.y1), True),
                 (Line(s.x, s.y, s.x1, s.y), False), (Line(s.x, s.y1, s.x1, s.y1), False))
        for line, vertical in edges:
            if bleed > 0 or _edge_touched(s, line, slots, vertical):
                found.setdefault(tuple(round(v, 3) for v in (line.x0, line.y0, line.x1, line.y1)), line)
    return tuple(found[k] for k in sorted(found))


def _edge_touched(card: Rect, line: Line, slots: Sequence[Rect], vertical: bool) -> bool:
    """Whether another card meets ``card`` along its edge ``line``."""
    for other in slots:
        if other is card:
            continue
        if vertical and (abs(other.x1 - line.x0) < 1e-3 or abs(other.x - line.x0) < 1e-3) \
                and other.y < card.y1 - EPS and card.y < other.y1 - EPS:
            return True
        if not vertical and (abs(other.y1 - line.y0) < 1e-3 or abs(other.y - line.y0) < 1e-3) \
                and other.x < card.x1 - EPS and card.x < other.x1 - EPS:
            return True
    return False


def _gutters(starts: list[float], ends: list[float], bleed: float, least: float) -> list[tuple[float, float]]:
    """White gutters (from, to) between consecutive cards along one direction, bleed left out."""
    out = []
    for end in ends:
        later = [s for s in starts if s > end - EPS]
        if later:
            lo, hi = end + bleed + TICK_CLEARANCE, min(later) - bleed - TICK_CLEARANCE
            if hi - lo >= least - EPS:
                out.append((lo, hi))
    return sorted(set(out))


def gutter_ticks(slots: Sequence[Rect], bleed: float, least: float = GOOD_MARK) -> list[Line]:
    """Short marks in the gutters between cards, one per cut crossing a gutter wide enough for ``least``."""
    xs = _cut_positions(v for s in slots for v in (s.x, s.x1))
    ys = _cut_positions(v for s in slots for v in (s.y, s.y1))
    ticks = []
    for lo, hi in _gutters([s.x for s in slots], [s.x1 for s in slots], bleed, least):   # gutters between columns
        ticks += [Line(lo, y, hi, y) for y in ys]
    for lo, hi in _gutters([s.y for s in slots], [s.y1 for s in slots], bleed, least):   # gutters between rows
        ticks += [Line(x, lo, x, hi) for x in xs]
    return ticks
