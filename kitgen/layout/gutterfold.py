"""Pure geometry of gutterfold sheets: fronts on one side of a fold line, their backs mirrored on the other.

A gutterfold page is folded along its fold line (and glued) before the cards
are cut, so each back lands exactly behind its front whatever a duplex
printer would have done.  With a vertical fold the backs are mirrored left to
right and drawn upright; with a horizontal fold they are mirrored top to
bottom and drawn turned by 180 degrees, so they read the right way up once
folded.  Points, origin at the page's bottom-left; nothing here draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from kitgen.errors import LayoutError
from kitgen.layout.geometry import Line, Rect
from kitgen.layout.margins import MARK_CLEARANCE, PRINTER_MARGIN, margin_spots
from kitgen.layout.scale_bar import best_scale_bar
from kitgen.layout.sheet import SheetLayout, cut_guides, fit_count, grid_of, guided_marks
from kitgen.units import MM, Size, to_mm

FOLD_CLEARANCE = 2.5 * MM     # unprinted paper between a card's bleed and the fold line
FOLD_DASH = (3.0, 2.0)        # dash pattern of the fold line, points on and off
FOLD_LABEL = (5.0 * MM, 2.4 * MM)   # room (along, across) for the word "fold" on the fold line


@dataclass(frozen=True)
class GutterfoldLayout:
    """Fronts on one side of a fold line and their backs, mirrored, on the other."""

    kind: ClassVar[str] = "gutterfold"

    page: Size
    card: Size
    bleed: float
    vertical: bool                 # True: the fold runs up the page, backs to its right
    fold: Line                     # the whole fold line, page edge to page edge
    fronts: tuple[Rect, ...]       # trim boxes, row by row from the top left
    backs: tuple[Rect, ...]        # backs[i] is fronts[i] mirrored across the fold
    fold_marks: tuple[Line, ...]   # the fold line's parts outside the cards (drawn dashed)
    sheet: SheetLayout             # the same page as an ordinary sheet (fronts and backs as slots)
    fold_label: Rect | None = None  # where the word "fold" goes, on the fold line beyond its first mark

    front_rotation: ClassVar[int] = 0

    @property
    def per_page(self) -> int:
        return len(self.fronts)

    @property
    def back_rotation(self) -> int:
        """Degrees a back is turned when drawn: 0 for a vertical fold, 180 for a horizontal one."""
        return 0 if self.vertical else 180

    @property
    def fold_position(self) -> float:
        return self.fold.x0 if self.vertical else self.fold.y0

    def page_numbers(self, sheet: int, sheets: int) -> tuple[int, int]:
        """1-based PDF pages of the fronts and of the backs of sheet ``sheet`` (0-based): the same page."""
        return sheet + 1, sheet + 1

    def page_count(self, sheets: int) -> int:
        return sheets


def mirror(rect: Rect, fold: float, vertical: bool) -> Rect:
    """``rect`` reflected across the fold line at ``fold`` (an x when vertical, else a y)."""
    if vertical:
        return Rect(2 * fold - rect.x1, rect.y, rect.w, rect.h)
    return Rect(rect.x, 2 * fold - rect.y1, rect.w, rect.h)


def _half(page: Size, card: Size, bleed: float, vertical: bool, margin: float, gap: float):
    """Columns (or rows) of fronts on one side of the fold and how many cards along the fold."""
    gutter = bleed + FOLD_CLEARANCE               # from the fold to the nearest trim line
    across, along = (card.width, card.height) if vertical else (card.height, card.width)
    side = (page.width if vertical else page.height) / 2 - margin - gutter - bleed
    length = (page.height if vertical else page.width) - 2 * margin - 2 * bleed
    return fit_count(side, across, gap), fit_count(length, along, gap)


def _build(page: Size, card: Size, bleed: float, vertical: bool, crop_marks: bool,
           margin: float, gap: float) -> GutterfoldLayout:
    gutter = bleed + FOLD_CLEARANCE
    deep, long = _half(page, card, bleed, vertical, margin, gap)
    if vertical:
        fold = page.width / 2
        grid_h = long * card.height + (long - 1) * gap
        top = (page.height + grid_h) / 2
        fronts = [Rect(fold - gutter - (c + 1) * card.width - c * gap, top - (r + 1) * card.height - r * gap,
                       card.width, card.height)
                  for r in range(long) for c in reversed(range(deep))]
        fold_line = Line(fold, 0.0, fold, page.height)
    else:
        fold = page.height / 2
        grid_w = long * card.width + (long - 1) * gap
        left = (page.width - grid_w) / 2
        fronts = [Rect(left + c * (card.width + gap), fold + gutter + r * (card.height + gap),
                       card.width, card.height)
                  for r in reversed(range(deep)) for c in range(long)]
        fold_line = Line(0.0, fold, page.width, fold)
    backs = [mirror(f, fold, vertical) for f in fronts]
    slots = tuple(fronts + backs)
    marks = guided_marks(slots, bleed, page, margin) if crop_marks else ()
    guides = () if crop_marks else cut_guides(fronts, bleed)
    grid = grid_of(slots, bleed)
    if vertical:
        fold_marks = [Line(fold, grid.y1 + MARK_CLEARANCE, fold, page.height - margin),
                      Line(fold, margin, fold, grid.y - MARK_CLEARANCE)]
    else:
        fold_marks = [Line(margin, fold, grid.x - MARK_CLEARANCE, fold),
                      Line(grid.x1 + MARK_CLEARANCE, fold, page.width - margin, fold)]
    fold_marks = [ln for ln in fold_marks if (ln.x1 - ln.x0) + (ln.y1 - ln.y0) > 0.5]
    label = None
    along, across = FOLD_LABEL
    if fold_marks and (fold_marks[0].x1 - fold_marks[0].x0) + (fold_marks[0].y1 - fold_marks[0].y0) >= 2 * along:
        first = fold_marks[0]        # the word sits at its outer end, the dashes stop short of it
        if vertical:
            label = Rect(fold - across / 2, first.y1 - along, across, along)
            fold_marks[0] = Line(first.x0, first.y0, first.x1, label.y - 1.0 * MM)
        else:
            label = Rect(first.x0, fold - across / 2, along, across)
            fold_marks[0] = Line(label.x1 + 1.0 * MM, first.y0, first.x1, first.y1)
    spots = margin_spots(grid, page, margin, list(marks) + fold_marks)
    bar = best_scale_bar(spots, [label] if label else (), centre=grid.center)
    sheet = SheetLayout(page, card, bleed, 2 * deep if vertical else long, long if vertical else 2 * deep,
                        slots, marks, bar, False, (gap, gap), margin, guides)
    return GutterfoldLayout(page, card, bleed, vertical, fold_line, tuple(fronts), tuple(backs),
                            tuple(fold_marks), sheet, label)


def gutterfold_layout(paper: Size, card: Size, bleed: float = 0.0, crop_marks: bool = True,
                      margin: float = PRINTER_MARGIN, paper_name: str = "paper",
                      gap: float | None = None) -> GutterfoldLayout:
    """The arrangement holding the most cards: portrait or landscape paper, fold up or across.

    Ties go to portrait paper and then to a vertical fold.  A card that does not
    fit twice raises :class:`LayoutError` saying what a pair needs.
    """
    if bleed < 0:
        raise LayoutError(f"bleed must be 0 mm or more, not {to_mm(bleed):g} mm")
    gap = 2 * bleed if gap is None else gap
    if gap < 2 * bleed - 1e-6:
        raise LayoutError(f"a gap of {to_mm(gap):g} mm is less than twice the {to_mm(bleed):g} mm bleed; "
                          f"neighbouring cards need {to_mm(2 * bleed):g} mm for their bleed")
    portrait = Size(min(paper.width, paper.height), max(paper.width, paper.height))
    best, best_key = None, None
    for rank, (page, vertical) in enumerate(((portrait, True), (portrait, False),
                                             (portrait.landscape, True), (portrait.landscape, False))):
        deep, long = _half(page, card, bleed, vertical, margin, gap)
        key = (deep * long, -rank)
        if deep * long > 0 and (best_key is None or key > best_key):
            best, best_key = (page, vertical), key
    if best is None:
        need = f"{to_mm(2 * card.width + 4 * bleed + 2 * FOLD_CLEARANCE):.1f} x {to_mm(card.height + 2 * bleed):.1f} mm"
        raise LayoutError(f"a card of {to_mm(card.width):g} x {to_mm(card.height):g} mm does not fit twice, "
                          f"front and back, on {paper_name} for gutterfold (a pair needs at least {need} "
                          f"inside the {to_mm(margin):g} mm printer margins)")
    return _build(best[0], card, bleed, best[1], crop_marks, margin, gap)
