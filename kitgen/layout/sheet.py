"""Pure geometry of card sheets: the grid of cards on a page, crop marks, the scale bar.

Everything is in PDF points with the origin at the page's bottom-left corner.
Nothing here draws; renderers take these rectangles and lines as they are.

Crop marks must print on a home printer, which leaves ``PRINTER_MARGIN``
blank on every side: a mark is kept only if at least ``MIN_MARK`` of it lies
inside the printable area.  A sheet is chosen so that every cut has a guide:

* marks beyond the grid, above and below it for the cuts that run up the page
  and beside it for the cuts that run across, where the margin leaves room;
* short ticks in the gutters between cards, where a gutter is wide enough;
* without bleed, a white gutter itself: a card's colour ends at its cut line,
  so a column set apart from the next needs no mark to be cut straight.

Poker cards on letter paper leave 6.35 mm above and below three rows, too
little for a mark to print, so the columns are set a few millimetres apart
instead (:data:`AUTO_GUTTER`).  When cards turned a quarter turn fit more to
a page, the sheet turns them (:attr:`SheetLayout.turned`).

Texts and the scale bar go in the margins where no mark crosses them
(:func:`margin_spots`, :func:`place_along`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Sequence

from kitgen.errors import LayoutError
from kitgen.layout.geometry import EPS, Line, Rect
from kitgen.units import MM, Size, to_mm

PRINTER_MARGIN = 5 * MM       # nothing is printed closer to the paper's edge
MARK_CLEARANCE = 1.5 * MM     # crop marks beyond the grid stop this short of the cards and their bleed
MIN_MARK = 3 * MM             # a mark is drawn only if this much of it lies inside the printable area
TICK_CLEARANCE = 0.5 * MM     # a tick in a gutter stops this short of the bleed on either side
AUTO_GUTTER = (2 * MM, 3 * MM)   # least and most space set between cards whose cuts have no printable mark
SPOT_PAD = 1 * MM             # texts and the scale bar keep this far from any mark


def printable_area(page: Size, margin: float = PRINTER_MARGIN) -> Rect:
    """The part of a page a home printer reaches: all of it but ``margin`` on every side."""
    return Rect(margin, margin, page.width - 2 * margin, page.height - 2 * margin)


SCALE_BAR_LENGTH = 2 * 72.0        # the 2 in bar; the 50 mm bar is a little shorter
SCALE_BAR_DEPTH = 4.2 * MM         # room the bars and their labels need across
SCALE_BAR_SPAN = SCALE_BAR_LENGTH + 1.2 * MM + 16.0   # along: the bars and the labels after them


@dataclass(frozen=True)
class ScaleBar:
    """Where the scale bar goes: its start point and direction (horizontal or vertical)."""

    x: float
    y: float
    vertical: bool
    length: float   # the longest bar drawn, in points

    @property
    def box(self) -> Rect:
        """All the bar covers, its labels included."""
        if self.vertical:
            return Rect(self.x, self.y, SCALE_BAR_DEPTH, SCALE_BAR_SPAN)
        return Rect(self.x, self.y, SCALE_BAR_SPAN, SCALE_BAR_DEPTH)


@dataclass(frozen=True)
class Spot:
    """Free room in a margin: no card, no mark.  Text in a vertical spot runs up the page."""

    rect: Rect
    vertical: bool
    side: str           # left, right, top or bottom of the grid

    @property
    def length(self) -> float:
        return self.rect.h if self.vertical else self.rect.w

    @property
    def depth(self) -> float:
        return self.rect.w if self.vertical else self.rect.h


@dataclass(frozen=True)
class SheetLayout:
    page: Size
    card: Size                     # the card as the game declares it, upright
    bleed: float
    cols: int
    rows: int
    slots: tuple[Rect, ...]        # trim boxes as they lie on the page, row by row from the top left
    crop_marks: tuple[Line, ...]
    scale_bar: ScaleBar | None
    turned: bool = False           # the cards lie a quarter turn counter-clockwise
    gap: tuple[float, float] = (0.0, 0.0)   # between neighbouring trim lines: across, down
    margin: float = PRINTER_MARGIN

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

    def marks_print(self, margin: float) -> bool:
        """Marks beyond the grid along this direction keep ``MIN_MARK`` inside the printable area."""
        return self.outer - MARK_CLEARANCE - margin >= MIN_MARK - EPS

    def ticks_fit(self) -> bool:
        """A gutter between these cards is wide enough for a tick marking the cuts across it."""
        return self.count > 1 and self.gap - 2 * self.bleed - 2 * TICK_CLEARANCE >= MIN_MARK - EPS

    def gutters_show(self) -> bool:
        """Without bleed, white paper between every two cards shows where each is cut."""
        return self.bleed == 0 and (self.count == 1 or self.gap > EPS)


def _cuts_guided(across: _Axis, down: _Axis, margin: float) -> bool:
    """Every cut of the grid has a guide that prints (see the module's notes)."""
    # cuts running up the page separate the columns: marks above and below, ticks in the row
    # gutters, or white gutters between the columns
    up = down.marks_print(margin) or down.ticks_fit() or across.gutters_show()
    side = across.marks_print(margin) or across.ticks_fit() or down.gutters_show()
    return up and side


def _gutter_options(count: int, size: float, base: float, bleed: float, page: float, margin: float,
                    auto: bool) -> list[float]:
    """Gaps to try along one direction: the asked one, then (without bleed) a gutter that keeps room
    beyond the grid for the scale bar, or else for marks that print, or else only for the cards."""
    options = [base]
    if not auto or bleed > 0 or count < 2:
        return options
    low, high = AUTO_GUTTER
    for reserve in (margin + MARK_CLEARANCE + SCALE_BAR_DEPTH, margin + MARK_CLEARANCE + MIN_MARK, margin):
        room = page - 2 * reserve - count * size
        gutter = min(high, room / (count - 1))
        if gutter >= low - EPS and all(abs(gutter - o) > EPS for o in options):
            options.append(gutter)
    return options


def _arrangement(page: Size, w: float, h: float, bleed: float, gap: float, auto: bool, margin: float,
                 need_guides: bool) -> tuple[_Axis, _Axis] | None:
    """The grid holding the most ``w`` x ``h`` cards whose cuts are all guided (or any grid, when
    no marks are wanted), with the smallest gaps that do it."""
    room = printable_area(page, margin)
    most_cols = fit_count(room.w - 2 * bleed, w, gap)
    most_rows = fit_count(room.h - 2 * bleed, h, gap)
    shapes = sorted(((c, r) for c in range(1, most_cols + 1) for r in range(1, most_rows + 1)),
                    key=lambda cr: (-cr[0] * cr[1], -cr[0]))
    for cols, rows in shapes:
        options = []
        for gx in _gutter_options(cols, w, gap, bleed, page.width, margin, auto):
            for gy in _gutter_options(rows, h, gap, bleed, page.height, margin, auto):
                options.append((gx + gy, gx, gy))
        for _, gx, gy in sorted(options):
            across = _Axis(cols, w, gx, bleed, page.width)
            down = _Axis(rows, h, gy, bleed, page.height)
            if not (across.fits(margin) and down.fits(margin)):
                continue
            if not need_guides or _cuts_guided(across, down, margin):
                return across, down
    return None


def sheet_layout(page: Size, card: Size, bleed: float = 0.0, crop_marks: bool = True,
                 margin: float = PRINTER_MARGIN, paper_name: str = "paper", gap: float | None = None,
                 turn: bool = True) -> SheetLayout:
    """Lay out as many cards as fit on a page, centred, each cut guided by marks that print.

    ``gap`` is the space between neighbouring trim lines; by default twice the
    bleed, so each card keeps its own bleed and a cut that drifts shows the
    card's own colour, not its neighbour's.  Without bleed and without a
    ``gap`` the cards touch where their cuts are marked, so one cut separates
    two cards, and are set a little apart where they are not.  With ``turn``
    the cards are laid sideways when that fits more of them.  A card that
    does not fit raises :class:`LayoutError` saying by how much.
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
        found = _arrangement(page, w, h, bleed, base, gap is None, margin, crop_marks)
        if found and (best is None or found[0].count * found[1].count > best[1].count * best[2].count):
            best = (turned, *found)
    if best is None:
        room = printable_area(page, margin)
        need = f"{to_mm(card.width + 2 * bleed):.1f} x {to_mm(card.height + 2 * bleed):.1f} mm"
        raise LayoutError(f"a card of {need} (with bleed) does not fit on {paper_name} "
                          f"inside the {to_mm(margin):g} mm printer margins "
                          f"({to_mm(room.w):.1f} x {to_mm(room.h):.1f} mm printable)")
    turned, across, down = best
    w, h = across.size, down.size
    left = across.outer + bleed
    top = page.height - down.outer - bleed
    slots = tuple(Rect(left + c * (w + across.gap), top - (r + 1) * h - r * down.gap, w, h)
                  for r in range(down.count) for c in range(across.count))
    marks = cut_marks(slots, bleed, page, margin) if crop_marks else ()
    grid = grid_of(slots, bleed)
    bar = place_scale_bar(margin_spots(grid, page, margin, marks), centre=grid.center)
    return SheetLayout(page, card, bleed, across.count, down.count, slots, marks, bar, turned,
                       (across.gap, down.gap), margin)


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


def cut_marks(slots: Sequence[Rect], bleed: float, page: Size, margin: float = PRINTER_MARGIN) -> tuple[Line, ...]:
    """Crop marks of cards at ``slots``: along every cut beyond the grid out to the page edge, and as
    ticks in the gutters between cards, each kept only if ``MIN_MARK`` of it prints.

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
    lines += gutter_ticks(slots, bleed)
    return tuple(ln for ln in lines if printed_length(ln, room) >= MIN_MARK - EPS)


def _gutters(starts: list[float], ends: list[float], bleed: float) -> list[tuple[float, float]]:
    """White gutters (from, to) between consecutive cards along one direction, bleed left out."""
    out = []
    for end in ends:
        later = [s for s in starts if s > end - EPS]
        if later:
            lo, hi = end + bleed + TICK_CLEARANCE, min(later) - bleed - TICK_CLEARANCE
            if hi - lo >= MIN_MARK - EPS:
                out.append((lo, hi))
    return sorted(set(out))


def gutter_ticks(slots: Sequence[Rect], bleed: float) -> list[Line]:
    """Short marks in the gutters between cards, one per cut crossing a gutter wide enough."""
    xs = _cut_positions(v for s in slots for v in (s.x, s.x1))
    ys = _cut_positions(v for s in slots for v in (s.y, s.y1))
    ticks = []
    for lo, hi in _gutters([s.x for s in slots], [s.x1 for s in slots], bleed):   # gutters between columns
        ticks += [Line(lo, y, hi, y) for y in ys]
    for lo, hi in _gutters([s.y for s in slots], [s.y1 for s in slots], bleed):   # gutters between rows
        ticks += [Line(x, lo, x, hi) for x in xs]
    return ticks


# --- room in the margins for texts and the scale bar ---------------------------------------

def _blocked(strip: Rect, vertical: bool, lines: Iterable[Line], pad: float) -> list[tuple[float, float]]:
    """Stretches along ``strip`` that a line (padded by ``pad``) crosses or touches."""
    out = []
    for ln in lines:
        box = Rect(min(ln.x0, ln.x1) - pad, min(ln.y0, ln.y1) - pad,
                   abs(ln.x1 - ln.x0) + 2 * pad, abs(ln.y1 - ln.y0) + 2 * pad)
        if box.overlaps(strip, tol=0.0):
            out.append((box.y, box.y1) if vertical else (box.x, box.x1))
    return out


def margin_spots(grid: Rect, page: Size, margin: float, lines: Sequence[Line] = (),
                 pad: float = SPOT_PAD) -> list[Spot]:
    """The printable margins around ``grid`` cut into stretches that no line (a mark, a fold) crosses."""
    room = printable_area(page, margin)
    strips = {
        "left": (Rect(room.x, room.y, grid.x - MARK_CLEARANCE - room.x, room.h), True),
        "right": (Rect(grid.x1 + MARK_CLEARANCE, room.y, room.x1 - grid.x1 - MARK_CLEARANCE, room.h), True),
        "bottom": (Rect(room.x, room.y, room.w, grid.y - MARK_CLEARANCE - room.y), False),
        "top": (Rect(room.x, grid.y1 + MARK_CLEARANCE, room.w, room.y1 - grid.y1 - MARK_CLEARANCE), False),
    }
    spots = []
    for side, (strip, vertical) in strips.items():
        if strip.w <= 0 or strip.h <= 0:
            continue
        lo, hi = (strip.y, strip.y1) if vertical else (strip.x, strip.x1)
        cuts = sorted(_blocked(strip, vertical, lines, pad))
        start = lo
        for a, b in cuts + [(hi, hi)]:
            end = min(a, hi)
            if end - start > EPS:
                rect = (Rect(strip.x, start, strip.w, end - start) if vertical
                        else Rect(start, strip.y, end - start, strip.h))
                spots.append(Spot(rect, vertical, side))
            start = max(start, b)
    return spots


def place_along(spots: Sequence[Spot], length: float, depth: float, sides: Sequence[str],
                taken: Sequence[Rect] = (), centre: tuple[float, float] | None = None) -> tuple[Spot, Rect] | None:
    """Room ``length`` long and ``depth`` deep in the first of ``sides`` that has it, clear of ``taken``.

    Within a side the spot nearest ``centre`` (the middle of the grid) wins;
    the box is centred in its spot, or pushed to one end to clear ``taken``.
    """
    for side in sides:
        here = [s for s in spots if s.side == side and s.length >= length - EPS and s.depth >= depth - EPS]
        if centre is not None:
            cx, cy = centre
            here.sort(key=lambda s: abs((s.rect.center[1] - cy) if s.vertical else (s.rect.center[0] - cx)))
        for spot in here:
            r = spot.rect
            for frac in (0.5, 0.0, 1.0):
                if spot.vertical:
                    box = Rect(r.x + (r.w - depth) / 2, r.y + (r.h - length) * frac, depth, length)
                else:
                    box = Rect(r.x + (r.w - length) * frac, r.y + (r.h - depth) / 2, length, depth)
                if not any(box.overlaps(t) for t in taken):
                    return spot, box
    return None


def place_scale_bar(spots: Sequence[Spot], taken: Sequence[Rect] = (),
                    sides: Sequence[str] = ("left", "bottom", "right", "top"),
                    centre: tuple[float, float] | None = None) -> ScaleBar | None:
    """The scale bar in the first margin with room for it, crossing no mark."""
    found = place_along(spots, SCALE_BAR_SPAN, SCALE_BAR_DEPTH, sides, taken, centre)
    if found is None:
        return None
    spot, box = found
    return ScaleBar(box.x, box.y, spot.vertical, SCALE_BAR_LENGTH)
