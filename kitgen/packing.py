"""Where table aids go on the page: pure geometry, in PDF points (origin bottom left).

Nothing here draws.  The functions take sizes and a page and return rectangles
and line segments; the renderers only stroke and fill what they are given.

* :func:`printable_area` and :func:`content_area`: the part of a sheet a home
  printer reaches (a margin of at least 5 mm on every side) and what is left
  under a page heading.
* :func:`pack_shelves`: mixed shapes (tokens, tiles, mats), each given by its
  bounding box, packed in rows with a cutting gap between them, over as many
  pages as needed.
* :func:`card_grid` and :func:`crop_marks`: card-sized pieces butted together in
  a centred grid, with crop marks in the margin around it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from .units import PAPER_SIZES_MM, Size, mm

MARGIN = mm(5.0)           # nothing is printed closer than this to a sheet's edge
HEADING = mm(10.0)         # band at the top of a page for its heading
GAP = mm(3.0)              # space between packed shapes, for the scissors
MARK_LENGTH = mm(4.0)      # crop marks
MARK_OFFSET = mm(1.5)      # distance between a crop mark and the card block
EPS = 1e-6


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def top(self) -> float:
        return self.y + self.height

    @property
    def center(self) -> tuple[float, float]:
        return self.x + self.width / 2, self.y + self.height / 2

    def contains(self, other: "Rect", tol: float = EPS) -> bool:
        return (other.x >= self.x - tol and other.y >= self.y - tol
                and other.right <= self.right + tol and other.top <= self.top + tol)

    def contains_point(self, x: float, y: float, tol: float = EPS) -> bool:
        return self.x - tol <= x <= self.right + tol and self.y - tol <= y <= self.top + tol

    def overlaps(self, other: "Rect", tol: float = EPS) -> bool:
        """True when the interiors meet (touching edges do not count)."""
        return (self.x < other.right - tol and other.x < self.right - tol
                and self.y < other.top - tol and other.y < self.top - tol)

    def inset(self, d: float) -> "Rect":
        return Rect(self.x + d, self.y + d, self.width - 2 * d, self.height - 2 * d)


@dataclass(frozen=True)
class Placement:
    index: int          # position of the shape in the list given to the packer
    page: int           # 0-based
    rect: Rect          # the shape's bounding box on that page (already turned if rotated)
    rotated: bool       # turned a quarter turn to fit


@dataclass(frozen=True)
class Segment:
    x1: float
    y1: float
    x2: float
    y2: float


class DoesNotFit(ValueError):
    """A shape is larger than the area it must be packed into."""

    def __init__(self, index: int, size: tuple[float, float], area: Rect):
        self.index, self.size, self.area = index, size, area
        super().__init__(f"shape {index} ({size[0]:.1f} x {size[1]:.1f} pt) does not fit in "
                         f"{area.width:.1f} x {area.height:.1f} pt")


def printable_area(paper: Size, margin: float = MARGIN) -> Rect:
    return Rect(margin, margin, paper.width - 2 * margin, paper.height - 2 * margin)


def content_area(paper: Size, margin: float = MARGIN, heading: float = HEADING) -> Rect:
    """The printable area less the heading band at its top."""
    area = printable_area(paper, margin)
    return Rect(area.x, area.y, area.width, area.height - heading)


def largest_content(papers: Sequence[Size] | None = None) -> tuple[float, float]:
    """(width, height) of the content area every supported paper offers."""
    if papers is None:
        papers = [Size(mm(w), mm(h)) for w, h in PAPER_SIZES_MM.values()]
    areas = [content_area(p) for p in papers]
    return min(a.width for a in areas), min(a.height for a in areas)


def fits(size: tuple[float, float], area: tuple[float, float]) -> bool:
    """Does a ``(w, h)`` box fit in ``area`` as it is or turned a quarter turn?"""
    (w, h), (aw, ah) = size, area
    return (w <= aw + EPS and h <= ah + EPS) or (h <= aw + EPS and w <= ah + EPS)


@dataclass
class _Shelf:
    page: int
    y: float                            # bottom of the shelf
    height: float
    x: float                            # next free x
    columns: list[list[float]]          # [x, width, next free top] of each stack in the shelf
    members: list[int]                  # indexes of the boxes placed on it


def pack_shelves(sizes: Sequence[tuple[float, float]], area: Rect, gap: float = GAP) -> list[Placement]:
    """Pack boxes ``(width, height)`` into copies of ``area``, first fit by decreasing height.

    Boxes go in rows (shelves) as tall as their first box; under a box that is
    shorter than its row, narrower boxes stack in the same column.  Boxes keep
    at least ``gap`` between them and each row is centred across the area.  A
    box too large as given is turned a quarter turn; a box that fits neither
    way raises :class:`DoesNotFit`.  Returns one placement per box, in the order
    given.
    """
    oriented: list[tuple[float, float, bool]] = []
    for i, (w, h) in enumerate(sizes):
        if w <= area.width + EPS and h <= area.height + EPS:
            oriented.append((w, h, False))
        elif h <= area.width + EPS and w <= area.height + EPS:
            oriented.append((h, w, True))
        else:
            raise DoesNotFit(i, (w, h), area)
    order = sorted(range(len(sizes)), key=lambda i: (-round(oriented[i][1], 6), i))

    shelves: list[_Shelf] = []
    placed: dict[int, Placement] = {}
    page_floor: list[float] = []  # per page: y of the lowest shelf's bottom
    for i in order:
        w, h, rotated = oriented[i]
        spot = _free_spot(shelves, w, h, area, gap)
        if spot is None:
            page = len(page_floor) - 1
            top = page_floor[page] - gap if page >= 0 else None
            if top is None or top - h < area.y - EPS:
                page_floor.append(area.top + gap)
                page, top = len(page_floor) - 1, area.top
            shelf = _Shelf(page=page, y=top - h, height=h, x=area.x, columns=[], members=[])
            page_floor[page] = shelf.y
            shelves.append(shelf)
            spot = _free_spot([shelf], w, h, area, gap)
        shelf, column = spot
        x, _, col_top = column
        placed[i] = Placement(i, shelf.page, Rect(x, col_top - h, w, h), rotated)
        column[2] = col_top - h - gap
        shelf.members.append(i)

    for shelf in shelves:  # centre each row
        used = shelf.x - gap - area.x
        shift = (area.width - used) / 2
        for i in shelf.members:
            p = placed[i]
            placed[i] = Placement(p.index, p.page, Rect(p.rect.x + shift, p.rect.y, p.rect.width,
                                                         p.rect.height), p.rotated)
    return [placed[i] for i in range(len(sizes))]


def _free_spot(shelves: list[_Shelf], w: float, h: float, area: Rect, gap: float):
    """(shelf, column) with room for a ``w`` x ``h`` box, opening a column if need be; or None."""
    for shelf in shelves:
        for column in shelf.columns:
            if w <= column[1] + EPS and column[2] - h >= shelf.y - EPS:
                return shelf, column
        if h <= shelf.height + EPS and shelf.x + w <= area.right + EPS:
            column = [shelf.x, w, shelf.y + shelf.height]
            shelf.columns.append(column)
            shelf.x += w + gap
            return shelf, column
    return None


@dataclass(frozen=True)
class Grid:
    columns: int
    rows: int
    cells: tuple[Rect, ...]   # one page's cells, row by row from the top left

    @property
    def per_page(self) -> int:
        return len(self.cells)

    @property
    def block(self) -> Rect:
        xs = [c.x for c in self.cells] + [c.right for c in self.cells]
        ys = [c.y for c in self.cells] + [c.top for c in self.cells]
        return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def card_grid(card: Size, area: Rect, gap: float = 0.0,
              mark_space: float = MARK_OFFSET + MARK_LENGTH) -> Grid:
    """As many cards as fit, butted together (or ``gap`` apart), centred in ``area``.

    ``mark_space`` is kept free on every side of the block for crop marks.
    Raises :class:`DoesNotFit` when not even one card fits.
    """
    inner_w, inner_h = area.width - 2 * mark_space, area.height - 2 * mark_space
    cols = math.floor((inner_w + gap + EPS) / (card.width + gap))
    rows = math.floor((inner_h + gap + EPS) / (card.height + gap))
    if cols < 1 or rows < 1:
        raise DoesNotFit(0, (card.width, card.height), area.inset(mark_space))
    block_w = cols * card.width + (cols - 1) * gap
    block_h = rows * card.height + (rows - 1) * gap
    x0 = area.x + (area.width - block_w) / 2
    top = area.top - (area.height - block_h) / 2
    cells = tuple(Rect(x0 + c * (card.width + gap), top - (r + 1) * card.height - r * gap,
                       card.width, card.height)
                  for r in range(rows) for c in range(cols))
    return Grid(cols, rows, cells)


def crop_marks(cells: Sequence[Rect], length: float = MARK_LENGTH,
               offset: float = MARK_OFFSET) -> list[Segment]:
    """Short lines continuing every cut line outside the block of ``cells``.

    They sit ``offset`` away from the block so none of them is printed on a card.
    """
    if not cells:
        return []
    left = min(c.x for c in cells)
    right = max(c.right for c in cells)
    bottom = min(c.y for c in cells)
    top = max(c.top for c in cells)
    xs = sorted({round(v, 4) for c in cells for v in (c.x, c.right)})
    ys = sorted({round(v, 4) for c in cells for v in (c.y, c.top)})
    marks = []
    for x in xs:
        marks.append(Segment(x, top + offset, x, top + offset + length))
        marks.append(Segment(x, bottom - offset - length, x, bottom - offset))
    for y in ys:
        marks.append(Segment(left - offset - length, y, left - offset, y))
        marks.append(Segment(right + offset, y, right + offset + length, y))
    return marks


def paginate(count: int, per_page: int) -> list[range]:
    """Indexes ``0..count-1`` split into pages of ``per_page``."""
    return [range(start, min(start + per_page, count)) for start in range(0, count, per_page)]


def hexagon_points(box: Rect) -> list[tuple[float, float]]:
    """Corners of the flat-topped hexagon filling ``box`` (corner to corner across its width)."""
    cx, cy = box.center
    r = box.width / 2
    h = box.height / 2
    return [(cx + r, cy), (cx + r / 2, cy + h), (cx - r / 2, cy + h),
            (cx - r, cy), (cx - r / 2, cy - h), (cx + r / 2, cy - h)]


HEX_RATIO = math.sqrt(3) / 2   # height of a flat-topped hexagon over its corner-to-corner width
