"""Pure geometry of duplex sheets: where each back goes so that it prints behind its front.

A page of fronts is followed by its page of backs (or, with ``none``, all the
fronts come first and the backs are printed as a second run).  Points, origin
at the page's bottom-left; nothing here draws.

Whatever the flip, a card comes out the same: turned over about its own long
edge (for an upright card, the way a book's page turns), its back reads the
right way up, as in gutterfold sheets and print-shop files.  A sheet flipped
on its short edge turns its backs page upside down against the fronts, so its
backs are drawn turned 180 degrees (:func:`back_turn`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from kitgen.errors import LayoutError
from kitgen.layout.geometry import Rect
from kitgen.layout.margins import margin_spots
from kitgen.layout.scale_bar import BOTH, ScaleBar, best_scale_bar
from kitgen.layout.sheet import SheetLayout, grid_of
from kitgen.units import Size

DUPLEX_MODES = ("long", "short", "none")


def back_slot(front: Rect, page: Size, duplex: str, offset: tuple[float, float] = (0.0, 0.0)) -> Rect:
    """Where a card's back goes on the backs page so that it prints behind ``front``.

    ``long``: flip on the long edge of a portrait page mirrors left and right.
    ``short``: flip on the short edge mirrors top and bottom.  ``none`` (backs
    printed as a separate run and the stack turned over by hand on its long
    edge) mirrors like ``long``.  ``offset`` (points) corrects a printer's
    known misalignment.
    """
    if duplex == "short":
        rect = Rect(front.x, page.height - front.y1, front.w, front.h)
    elif duplex in ("long", "none"):
        rect = Rect(page.width - front.x1, front.y, front.w, front.h)
    else:
        raise LayoutError(f"unknown duplex mode {duplex!r}; use {', '.join(DUPLEX_MODES)}")
    return rect.shifted(*offset)


def back_turn(front_rotation: int, duplex: str = "long") -> int:
    """Degrees (counter-clockwise) a back is turned when its front is turned ``front_rotation``.

    Turning the sheet over mirrors it, and a mirror reverses the sense of a
    turn, so a front turned a quarter turn one way has its back turned the
    other way: the card then pairs its front and back exactly as an upright
    card does.  A flip on the short edge brings the backs page round upside
    down against a flip on the long edge, so its backs turn half a turn more:
    the card pairs its front and back the same way in every duplex mode.
    """
    turn = (360 - front_rotation) % 360
    return (turn + 180) % 360 if duplex == "short" else turn


@dataclass(frozen=True)
class DuplexLayout:
    """A sheet of fronts and, on another page, their backs."""

    kind: ClassVar[str] = "duplex"

    sheet: SheetLayout
    duplex: str                    # long, short or none
    backs: tuple[Rect, ...]        # backs[i] prints behind the front in sheet.slots[i]
    back_scale_bar: ScaleBar | None = None   # on the backs page, where the fronts page has no room

    @property
    def page(self) -> Size:
        return self.sheet.page

    @property
    def card(self) -> Size:
        return self.sheet.card

    @property
    def bleed(self) -> float:
        return self.sheet.bleed

    @property
    def fronts(self) -> tuple[Rect, ...]:
        return self.sheet.slots

    @property
    def per_page(self) -> int:
        return self.sheet.per_page

    @property
    def front_rotation(self) -> int:
        return self.sheet.rotation

    @property
    def back_rotation(self) -> int:
        return back_turn(self.sheet.rotation, self.duplex)

    def page_numbers(self, sheet: int, sheets: int) -> tuple[int, int]:
        """1-based PDF pages of the fronts and of the backs of sheet ``sheet`` (0-based) of ``sheets``."""
        if self.duplex == "none":
            return sheet + 1, sheets + sheet + 1
        return 2 * sheet + 1, 2 * sheet + 2

    def page_count(self, sheets: int) -> int:
        return 2 * sheets


def duplex_layout(sheet: SheetLayout, duplex: str, offset: tuple[float, float] = (0.0, 0.0)) -> DuplexLayout:
    """``sheet`` printed double-sided (``duplex``: long, short or none), backs shifted by ``offset`` points.

    The scale bar goes on the page of fronts where both bars fit there, else
    on the page of backs (no marks cross its margins), else the 50 mm bar
    alone on the fronts, else on the backs (:mod:`kitgen.layout.scale_bar`).
    """
    backs = tuple(back_slot(front, sheet.page, duplex, offset) for front in sheet.slots)
    bar = sheet.scale_bar
    if bar is not None and not bar.metric_only:
        return DuplexLayout(sheet, duplex, backs)
    grid = grid_of(backs, sheet.bleed)
    spots = margin_spots(grid, sheet.page, sheet.margin)
    on_backs = best_scale_bar(spots, centre=grid.center, shapes=(BOTH,))
    if on_backs is None and bar is None:
        on_backs = best_scale_bar(spots, centre=grid.center)
    if on_backs is not None:
        return DuplexLayout(replace(sheet, scale_bar=None), duplex, backs, on_backs)
    return DuplexLayout(sheet, duplex, backs)
