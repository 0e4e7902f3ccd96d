"""Pure geometry of the contact sheet: a title band, then a grid of cards each with a label below,
in sections (one per deck, when the game has several), on as many pages as it takes.

The cards keep one size, whatever the deck's: a page holds as many rows as
fit in ``max_height`` points (the picture's largest side at its resolution),
and a larger deck goes on to the next page.  Points, origin at the page's
bottom-left.  Nothing here draws.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from kitgen.layout.geometry import Rect

MAX_COLS = 10
MARGIN = 24.0
GAP = 16.0
HEADER = 54.0
SECTION = 30.0            # the band naming a deck, above its cards


@dataclass(frozen=True)
class ContactLayout:
    width: float
    height: float
    cols: int
    rows: int
    header: Rect                  # where the title and the deck summary go
    cards: tuple[Rect, ...]       # trim box of each card, row by row from the top left
    labels: tuple[Rect, ...]      # the label under each card
    items: tuple[int, ...] = ()   # which item each card box shows (its index among all the items)
    sections: tuple[tuple[Rect, int], ...] = ()   # the band naming a section, and which section


def columns_for(count: int, card_w: float, card_h: float, label_h: float) -> int:
    """About as many columns as make the sheet a 16:10 landscape picture, at most 10."""
    cell_w, cell_h = card_w + GAP, card_h + label_h + GAP
    cols = round(math.sqrt(count * cell_h * 1.6 / cell_w))
    return max(1, min(MAX_COLS, count, cols))


def label_height(card_w: float) -> float:
    return max(24.0, card_w * 0.16)


def contact_layout(count: int, card_w: float, card_h: float) -> ContactLayout:
    """One page of ``count`` cards in one section without a band."""
    return contact_pages([count], card_w, card_h, math.inf, bands=False)[0]


def contact_pages(sections: list[int], card_w: float, card_h: float, max_height: float,
                  bands: bool = True) -> list[ContactLayout]:
    """The pages of items in ``sections`` (how many in each, in order), each section starting a row
    of its own under a band naming it (``bands``); a page is at most ``max_height`` points high, but
    holds one row at least."""
    label_h = label_height(card_w)
    cols = columns_for(sum(sections), card_w, card_h, label_h)
    row_h = card_h + label_h
    lines: list[tuple[str, int, list[int]]] = []      # ("band", section, []) or ("row", section, items)
    first = 0
    for s, count in enumerate(sections):
        if bands:
            lines.append(("band", s, []))
        for start in range(0, count, cols):
            lines.append(("row", s, list(range(first + start, first + min(count, start + cols)))))
        first += count
    width = 2 * MARGIN + cols * card_w + (cols - 1) * GAP
    pages: list[list] = [[]]
    used = 2 * MARGIN + HEADER
    for line in lines:
        h = _line_height(line, pages[-1][-1] if pages[-1] else None, row_h)
        if used + h > max_height and any(x[0] == "row" for x in pages[-1]):
            pages.append([])
            used = 2 * MARGIN + HEADER
            h = _line_height(line, None, row_h)
        pages[-1].append(line)
        used += h
    for i in range(len(pages) - 1):                    # a band left alone at a page's foot goes on with its rows
        while pages[i] and pages[i][-1][0] == "band":
            pages[i + 1].insert(0, pages[i].pop())
    return [_page(page, width, cols, card_w, card_h, label_h) for page in pages if page]


def _line_height(line, before, row_h: float) -> float:
    """The height a band or a row of cards takes, with the gap above it when a row is above it."""
    gap = GAP if before is not None and before[0] == "row" else 0.0
    return gap + (SECTION if line[0] == "band" else row_h)


def _page(lines, width: float, cols: int, card_w: float, card_h: float, label_h: float) -> ContactLayout:
    row_h = card_h + label_h
    height = 2 * MARGIN + HEADER + sum(_line_height(line, lines[i - 1] if i else None, row_h)
                                       for i, line in enumerate(lines))
    y = height - MARGIN - HEADER
    cards, labels, items, sections = [], [], [], []
    for i, line in enumerate(lines):
        kind, section, members = line
        y -= _line_height(line, lines[i - 1] if i else None, row_h) - (SECTION if kind == "band" else row_h)
        if kind == "band":
            sections.append((Rect(MARGIN, y - SECTION, width - 2 * MARGIN, SECTION), section))
            y -= SECTION
            continue
        for col, item in enumerate(members):
            x = MARGIN + col * (card_w + GAP)
            cards.append(Rect(x, y - card_h, card_w, card_h))
            labels.append(Rect(x, y - card_h - label_h, card_w, label_h))
            items.append(item)
        y -= row_h
    rows = sum(1 for kind, _, _ in lines if kind == "row")
    header = Rect(MARGIN, height - MARGIN - HEADER, width - 2 * MARGIN, HEADER)
    return ContactLayout(width, height, cols, rows, header, tuple(cards), tuple(labels), tuple(items),
                         tuple(sections))
