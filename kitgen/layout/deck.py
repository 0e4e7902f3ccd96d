"""Placing a deck on card sheets: every copy's front and back, by page and trim box.

One routine for both sheet layouts (:class:`~kitgen.layout.duplex.DuplexLayout`
and :class:`~kitgen.layout.gutterfold.GutterfoldLayout`): each gives the
boxes of the fronts on a page, the box of each front's back, and which PDF
pages a sheet's fronts and backs are on.  Nothing here draws.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

from kitgen.layout.geometry import Rect


class CardSheetLayout(Protocol):
    """What :func:`place_cards` needs of a layout."""

    fronts: tuple[Rect, ...]
    backs: tuple[Rect, ...]      # backs[i]: where the back of the card in fronts[i] goes

    @property
    def per_page(self) -> int: ...

    def page_numbers(self, sheet: int, sheets: int) -> tuple[int, int]: ...

    def page_count(self, sheets: int) -> int: ...


@dataclass(frozen=True)
class CardPlacement:
    """One printed card copy: which card, which copy, where its front and back go."""

    index: int           # position in the deck
    copy: int            # 1-based copy number of this card
    front_page: int      # 1-based page numbers in the PDF
    front: Rect
    back_page: int
    back: Rect


def place_cards(copies: list[int], layout: CardSheetLayout,
                groups: list[list[int]] | None = None) -> tuple[list[CardPlacement], int]:
    """Every copy of every card, and the number of PDF pages.

    ``copies`` gives the count of each distinct card in deck order; the cards
    fill the fronts of a sheet row by row before the next sheet starts.
    ``groups`` (the indices of the cards of each deck, in order) keeps decks
    apart: each deck starts on a sheet of its own, so no page holds two decks.
    """
    per_page = layout.per_page
    groups = groups if groups is not None else [list(range(len(copies)))]
    firsts = []                       # the first sheet of each group
    sheets = 0
    for group in groups:
        firsts.append(sheets)
        sheets += max(1, math.ceil(sum(copies[i] for i in group) / per_page)) if group else 0
    sheets = max(1, sheets)
    placements = []
    for group, first in zip(groups, firsts):
        n = 0
        for index in group:
            for copy in range(1, copies[index] + 1):
                sheet, slot = divmod(n, per_page)
                front_page, back_page = layout.page_numbers(first + sheet, sheets)
                placements.append(CardPlacement(index, copy, front_page, layout.fronts[slot], back_page,
                                                layout.backs[slot]))
                n += 1
    return placements, layout.page_count(sheets)


def deck_sheets(sizes: list[int], per_page: int) -> int:
    """Sheets of decks of ``sizes`` cards, each deck starting a sheet of its own."""
    return max(1, sum(max(1, math.ceil(size / max(1, per_page))) for size in sizes if size))
