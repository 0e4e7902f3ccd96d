"""A board larger than the paper, cut into page-sized parts: pure geometry, in points.

The board is drawn whole and each page shows one part of it.  Parts are laid
out in a grid of rows (from the top) and columns (from the left); neighbouring
parts share a strip ``overlap`` wide, so every point of the board is printed
at least once and every seam is printed twice.  Assembly: trim the page of a
part along its left and top edges where it has a neighbour, lay it over that
neighbour so the half-targets on the seam line up, and tape.

The board may be turned a quarter turn (counter-clockwise) on the page when
that takes fewer pages.  Coordinates called *oriented* are those of the board
as it lies on the page, origin at its bottom left.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from kitgen.errors import LayoutError
from kitgen.layout.geometry import EPS, Rect

DEFAULT_OVERLAP_MM = 10.0
MARK_RADIUS = 9.0         # points: alignment targets on the seams


@dataclass(frozen=True)
class BoardPart:
    row: int            # 0 = top row of the board
    column: int         # 0 = left column
    part: Rect          # the piece of the board on this page, oriented coordinates
    window: Rect        # where that piece is printed on the page (same size)
    cut_left: bool      # trim the page along the part's left edge (a neighbour lies there)
    cut_top: bool

    @property
    def label(self) -> str:
        """"A1" for the top-left part: a letter per row, a number per column."""
        return f"{column_letters(self.row)}{self.column + 1}"

    def to_page(self, x: float, y: float) -> tuple[float, float]:
        """Page coordinates of an oriented board point."""
        return self.window.x + x - self.part.x, self.window.y + y - self.part.y


@dataclass(frozen=True)
class Mark:
    x: float            # oriented board coordinates of a target's centre, on a seam
    y: float
    vertical: bool      # the seam runs up and down (between columns)


@dataclass(frozen=True)
class Tiling:
    board_width: float          # the board as declared
    board_height: float
    rotated: bool               # turned a quarter turn counter-clockwise on the page
    columns: int
    rows: int
    overlap: float
    parts: tuple[BoardPart, ...]    # row by row from the top left
    marks: tuple[Mark, ...]

    @property
    def width(self) -> float:
        """The board's width as it lies on the page."""
        return self.board_height if self.rotated else self.board_width

    @property
    def height(self) -> float:
        return self.board_width if self.rotated else self.board_height

    def oriented(self, x: float, y: float) -> tuple[float, float]:
        """A point of the board as declared, in oriented coordinates."""
        return (self.board_height - y, x) if self.rotated else (x, y)


def column_letters(n: int) -> str:
    """The name of the column at 0-based ``n`` as spreadsheets write it: 0 -> 'A', 27 -> 'AB'
    (board parts are named the same way: row letters, column numbers)."""
    text = ""
    n += 1
    while n:
        n, rem = divmod(n - 1, 26)
        text = chr(65 + rem) + text
    return text


def spans(length: float, window: float, overlap: float) -> list[tuple[float, float]]:
    """(start, end) of each part along one side: full windows stepping ``window - overlap``.

    The last part is shorter when the length does not come out even; every
    pair of neighbours shares exactly ``overlap``.
    """
    if length <= window + EPS:
        return [(0.0, length)]
    if overlap < 0 or window - overlap <= EPS:
        raise LayoutError(f"overlap {overlap:.1f} pt leaves nothing of a {window:.1f} pt window")
    step = window - overlap
    count = math.ceil((length - overlap - EPS) / step)
    out = []
    for i in range(count):
        start = i * step
        out.append((start, min(start + window, length)))
    return out


def _count(width: float, height: float, area: Rect, overlap: float) -> int:
    return len(spans(width, area.w, overlap)) * len(spans(height, area.h, overlap))


def part_count(width: float, height: float, area: Rect, overlap: float) -> int:
    """How many pages :func:`tile_board` prints the board on (it takes the better way round)."""
    return min(_count(width, height, area, overlap), _count(height, width, area, overlap))


def tile_board(width: float, height: float, area: Rect, overlap: float) -> Tiling:
    """Parts of a ``width`` x ``height`` board printed in ``area`` of each page.

    The board is turned a quarter turn when that needs fewer pages.  Raises
    LayoutError when the overlap is not smaller than half the area.
    """
    if overlap * 2 >= min(area.w, area.h) - EPS:
        raise LayoutError(f"overlap {overlap:.1f} pt is too large for a {area.w:.1f} x "
                         f"{area.h:.1f} pt page area")
    rotated = _count(height, width, area, overlap) < _count(width, height, area, overlap)
    ow, oh = (height, width) if rotated else (width, height)
    xs = spans(ow, area.w, overlap)
    ys_top = spans(oh, area.h, overlap)          # measured down from the top edge
    parts = []
    for r, (t0, t1) in enumerate(ys_top):
        for c, (x0, x1) in enumerate(xs):
            part = Rect(x0, oh - t1, x1 - x0, t1 - t0)
            window = Rect(area.x, area.y1 - part.h, part.w, part.h)
            parts.append(BoardPart(r, c, part, window, cut_left=c > 0, cut_top=r > 0))
    marks = []
    for c in range(1, len(xs)):                      # seams between columns: the later page's left edge
        x = xs[c][0]
        for t0, t1 in ys_top:
            marks.extend(Mark(x, oh - (t0 + (t1 - t0) * f), True) for f in (0.25, 0.75))
    for r in range(1, len(ys_top)):                  # seams between rows: the lower page's top edge
        y = oh - ys_top[r][0]
        for x0, x1 in xs:
            marks.extend(Mark(x0 + (x1 - x0) * f, y, False) for f in (0.25, 0.75))
    return Tiling(width, height, rotated, len(xs), len(ys_top), overlap, tuple(parts), tuple(marks))


ROOM_CLEARANCE = 6.0 * 72 / 25.4   # pieces printed beside a board part keep this far from its edges


def part_rooms(part: BoardPart, area: Rect, clearance: float = ROOM_CLEARANCE) -> list[Rect]:
    """The room a board part leaves free in ``area`` (where it is printed, at its top left):
    beside it, the area's full height, and under it, the part's width."""
    w = part.window
    rooms = [Rect(w.x1 + clearance, area.y, area.x1 - w.x1 - clearance, area.h),
             Rect(area.x, area.y, w.w, w.y - clearance - area.y)]
    return [r for r in rooms if r.w > EPS and r.h > EPS]
