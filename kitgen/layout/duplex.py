"""Pure geometry of duplex sheets: where each back goes so that it prints behind its front.

A page of fronts is followed by its page of backs (or, with ``none``, all the
fronts come first and the backs are printed as a second run).  Points, origin
at the page's bottom-left; nothing here draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from kitgen.errors import LayoutError
from kitgen.layout.geometry import Rect
from kitgen.layout.sheet import SheetLayout
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


def back_turn(front_rotation: int) -> int:
    """Degrees (counter-clockwise) a back is turned when its front is turned ``front_rotation``.

    Turning the sheet over mirrors it, and a mirror reverses the sense of a
    turn, so a front turned a quarter turn one way has its back turned the
    other way: the card then pairs its front and back exactly as an upright
    card does, in every duplex mode.
    """
    return (360 - front_rotation) % 360


@dataclass(frozen=True)
class DuplexLayout:
    """A sheet of fronts and, on another page, their backs."""

    kind: ClassVar[str] = "duplex"

    sheet: SheetLayout
    duplex: str                    # long, short or none
    backs: tuple[Rect, ...]        # backs[i] prints behind the front in sheet.slots[i]

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
        return back_turn(self.sheet.rotation)

    def page_numbers(self, sheet: int, sheets: int) -> tuple[int, int]:
        """1-based PDF pages of the fronts and of the backs of sheet ``sheet`` (0-based) of ``sheets``."""
        if self.duplex == "none":
            return sheet + 1, sheets + sheet + 1
        return 2 * sheet + 1, 2 * sheet + 2

    def page_count(self, sheets: int) -> int:
        return 2 * sheets


def duplex_layout(sheet: SheetLayout, duplex: str, offset: tuple[float, float] = (0.0, 0.0)) -> DuplexLayout:
    """``sheet`` printed double-sided (``duplex``: long, short or none), backs shifted by ``offset`` points."""
    return DuplexLayout(sheet, duplex, tuple(back_slot(front, sheet.page, duplex, offset) for front in sheet.slots))
