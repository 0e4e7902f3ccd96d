"""How many pages a kit will take, counted before anything is drawn.

A game that asks for a million tokens should be refused in a second, not after
an hour of drawing, so :func:`check_kit_pages` counts the pages of cards.pdf
exactly (from the card sheet's layout) and those of aids.pdf from above (as
if each kind of piece had pages of its own, laid in a grid with gaps: the
packer, which lays copies edge to edge and shares pages, never needs more),
and refuses a kit of more than :data:`~kitgen.data.limits.MAX_PAGES` pages.
"""

from __future__ import annotations

import math

from kitgen.data.limits import check_pages
from kitgen.errors import LayoutError
from kitgen.layout.deck import deck_sheets
from kitgen.layout.packing import GAP, content_area
from kitgen.layout.sheet import fit_count
from kitgen.layout.tiling import part_count
from kitgen.units import Size


def card_pages(decks: int | list[int], layout) -> int:
    """Pages of cards.pdf: fronts and backs of every sheet (each deck, of ``decks`` cards, on its own)."""
    if isinstance(decks, int):
        return layout.page_count(math.ceil(decks / max(1, layout.per_page)))
    return layout.page_count(deck_sheets(decks, layout.per_page))


def aid_pages(components, paper: Size, card: Size) -> int:
    """Pages of aids.pdf, at most: per kind of piece, a grid of as many as fit on a page (boards: their parts)."""
    area = content_area(paper)
    pages = 0
    for comp in components:
        kind = comp.kind
        if kind == "score-pad":
            pages += comp.count
        elif kind == "board":
            try:
                parts = part_count(comp.width, comp.height, area, comp.overlap)
            except LayoutError:     # the board's own checks say what is wrong with it
                parts = 1
            pages += comp.count * max(1, parts)
        else:
            w, h = (comp.width, comp.height) if hasattr(comp, "width") else (comp.size or (card.width, card.height))
            per_page = max(fit_count(area.w, w, GAP) * fit_count(area.h, h, GAP),
                           fit_count(area.w, h, GAP) * fit_count(area.h, w, GAP), 1)
            pages += math.ceil(getattr(comp, "total", comp.count) / per_page)
    return pages


def check_kit_pages(game, layout, paper: Size, card: Size, where: str) -> dict[str, int]:
    """The pages of cards.pdf and aids.pdf; a kit of more than MAX_PAGES is refused naming ``where``."""
    pages = {"cards.pdf": card_pages([deck.size for deck in game.decks], layout),
             "aids.pdf": aid_pages(game.components, paper, card)}
    check_pages(pages, where)
    return pages
