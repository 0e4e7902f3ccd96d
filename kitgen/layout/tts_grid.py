"""Pure geometry of Tabletop Simulator deck sheets: how many faces per image, in what grid, how big.

A custom deck image is a grid of at most 10 x 7 faces and at most 4096
pixels on its longer side.  The bottom-right slot of a full 10 x 7 grid is
where the simulator looks for the hidden face, so a sheet holds at most 69
faces.  Each sheet's grid is chosen to give its faces the most pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

MAX_COLS, MAX_ROWS = 10, 7
MIN_COLS, MIN_ROWS = 2, 2          # the simulator's import dialog accepts no narrower grid
MAX_PER_SHEET = MAX_COLS * MAX_ROWS - 1
MAX_SIDE = 4096


@dataclass(frozen=True)
class SheetGrid:
    first: int        # index of the sheet's first face in the list of faces
    count: int        # faces on this sheet
    cols: int
    rows: int
    cell_w: int       # pixels of one face
    cell_h: int

    @property
    def width(self) -> int:
        return self.cols * self.cell_w

    @property
    def height(self) -> int:
        return self.rows * self.cell_h

    def cell(self, slot: int) -> tuple[int, int]:
        """Top-left pixel of slot ``slot`` (row by row from the top left)."""
        row, col = divmod(slot, self.cols)
        return col * self.cell_w, row * self.cell_h


def cell_size(card_w: float, card_h: float, dpi: float, cols: int, rows: int) -> tuple[int, int]:
    """Pixels of one face: ``dpi`` if the sheet allows, else shrunk (aspect kept) to fit 4096 px."""
    scale = min(dpi / 72.0, MAX_SIDE / (cols * card_w), MAX_SIDE / (rows * card_h))
    return max(1, math.floor(card_w * scale)), max(1, math.floor(card_h * scale))


def best_grid(count: int, card_w: float, card_h: float, dpi: float) -> tuple[int, int]:
    """The grid for ``count`` faces giving the largest faces, then the fewest empty slots."""
    options = []
    for cols in range(MIN_COLS, MAX_COLS + 1):
        rows = max(MIN_ROWS, math.ceil(count / cols))
        if rows > MAX_ROWS:
            continue
        w, h = cell_size(card_w, card_h, dpi, cols, rows)
        options.append((-(w * h), cols * rows - count, cols, rows))
    _, _, cols, rows = min(options)
    return cols, rows


def plan_sheets(count: int, card_w: float, card_h: float, dpi: float) -> list[SheetGrid]:
    """Split ``count`` faces over as few sheets as possible, filled about evenly, in order."""
    if count < 1:
        raise ValueError("a deck sheet needs at least one face")
    sheets = math.ceil(count / MAX_PER_SHEET)
    base, extra = divmod(count, sheets)
    out, first = [], 0
    for i in range(sheets):
        n = base + (1 if i < extra else 0)
        cols, rows = best_grid(n, card_w, card_h, dpi)
        w, h = cell_size(card_w, card_h, dpi, cols, rows)
        out.append(SheetGrid(first, n, cols, rows, w, h))
        first += n
    return out
