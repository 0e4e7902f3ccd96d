"""Pure geometry of the contact sheet: a title band, then a grid of cards each with a label below.

Points, origin at the page's bottom-left.  Nothing here draws.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from kitgen.layout.geometry import Rect

MAX_COLS = 10
MARGIN = 24.0
GAP = 16.0
HEADER = 54.0


@dataclass(frozen=True)
class ContactLayout:
    width: float
    height: float
    cols: int
    rows: int
    header: Rect                  # where the title and the deck summary go
    cards: tuple[Rect, ...]       # trim box of each card, row by row from the top left
    labels: tuple[Rect, ...]      # the label under each card


def columns_for(count: int, card_w: float, card_h: float, label_h: float) -> int:
    """About as many columns as make the sheet a 16:10 landscape picture, at most 10."""
    cell_w, cell_h = card_w + GAP, card_h + label_h + GAP
    cols = round(math.sqrt(count * cell_h * 1.6 / cell_w))
    return max(1, min(MAX_COLS, count, cols))


def contact_layout(count: int, card_w: float, card_h: float) -> ContactLayout:
    label_h = max(24.0, card_w * 0.16)
    cols = columns_for(count, card_w, card_h, label_h)
    rows = math.ceil(count / cols)
    width = 2 * MARGIN + cols * card_w + (cols - 1) * GAP
    height = 2 * MARGIN + HEADER + rows * (card_h + label_h) + (rows - 1) * GAP
    top = height - MARGIN - HEADER
    cards, labels = [], []
    for i in range(count):
        row, col = divmod(i, cols)
        x = MARGIN + col * (card_w + GAP)
        y1 = top - row * (card_h + label_h + GAP)
        cards.append(Rect(x, y1 - card_h, card_w, card_h))
        labels.append(Rect(x, y1 - card_h - label_h, card_w, label_h))
    header = Rect(MARGIN, height - MARGIN - HEADER, width - 2 * MARGIN, HEADER)
    return ContactLayout(width, height, cols, rows, header, tuple(cards), tuple(labels))
