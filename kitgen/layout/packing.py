"""Where table aids go on the page: pure geometry, in PDF points (origin bottom left).

Nothing here draws.  The functions take sizes and a page and return
rectangles (:class:`kitgen.geometry.Rect`); the renderers only stroke and fill
what they are given.

* :func:`content_area`: what is left of the printable area
  (:func:`kitgen.layout.printable_area`, a margin of at least 5 mm on every
  side) under a page heading.
* :func:`pack_shelves`: mixed shapes (tokens, tiles, mats), each given by its
  bounding box, packed in rows with a cutting gap between them, over as many
  pages as needed.

Card-sized pieces (reference cards) go in a card-sheet grid with crop marks:
:func:`kitgen.layout.sheet_layout` given the content area.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from kitgen.errors import LayoutError
from kitgen.layout.geometry import EPS, Rect
from kitgen.layout.sheet import PRINTER_MARGIN, printable_area
from kitgen.units import PAPER_SIZES_MM, Size, mm

MARGIN = PRINTER_MARGIN    # nothing is printed closer than this to a sheet's edge
HEADING = mm(10.0)         # band at the top of a page for its heading
GAP = mm(3.0)              # space between packed shapes, for the scissors


@dataclass(frozen=True)
class PiecePlacement:
    """Where one packed piece (token, tile, mat) goes."""

    index: int          # position of the shape in the list given to the packer
    page: int           # 0-based
    rect: Rect          # the shape's bounding box on that page (already turned if rotated)
    rotated: bool       # turned a quarter turn to fit


class DoesNotFit(LayoutError):
    """A shape is larger than the area it must be packed into."""

    def __init__(self, index: int, size: tuple[float, float], area: Rect):
        self.index, self.size, self.area = index, size, area
        super().__init__(f"shape {index} ({size[0]:.1f} x {size[1]:.1f} pt) does not fit in "
                         f"{area.w:.1f} x {area.h:.1f} pt")


def content_area(paper: Size, margin: float = MARGIN, heading: float = HEADING) -> Rect:
    """The printable area less the heading band at its top."""
    area = printable_area(paper, margin)
    return Rect(area.x, area.y, area.w, area.h - heading)


def largest_content(papers: Sequence[Size] | None = None) -> tuple[float, float]:
    """(width, height) of the content area every supported paper offers."""
    if papers is None:
        papers = [Size(mm(w), mm(h)) for w, h in PAPER_SIZES_MM.values()]
    areas = [content_area(p) for p in papers]
    return min(a.w for a in areas), min(a.h for a in areas)


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


def pack_shelves(sizes: Sequence[tuple[float, float]], area: Rect, gap: float = GAP) -> list[PiecePlacement]:
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
        if w <= area.w + EPS and h <= area.h + EPS:
            oriented.append((w, h, False))
        elif h <= area.w + EPS and w <= area.h + EPS:
            oriented.append((h, w, True))
        else:
            raise DoesNotFit(i, (w, h), area)
    order = sorted(range(len(sizes)), key=lambda i: (-round(oriented[i][1], 6), i))

    shelves: list[_Shelf] = []
    placed: dict[int, PiecePlacement] = {}
    page_floor: list[float] = []  # per page: y of the lowest shelf's bottom
    for i in order:
        w, h, rotated = oriented[i]
        spot = _free_spot(shelves, w, h, area, gap)
        if spot is None:
            page = len(page_floor) - 1
            top = page_floor[page] - gap if page >= 0 else None
            if top is None or top - h < area.y - EPS:
                page_floor.append(area.y1 + gap)
                page, top = len(page_floor) - 1, area.y1
            shelf = _Shelf(page=page, y=top - h, height=h, x=area.x, columns=[], members=[])
            page_floor[page] = shelf.y
            shelves.append(shelf)
            spot = _free_spot([shelf], w, h, area, gap)
        shelf, column = spot
        x, _, col_top = column
        placed[i] = PiecePlacement(i, shelf.page, Rect(x, col_top - h, w, h), rotated)
        column[2] = col_top - h - gap
        shelf.members.append(i)

    for shelf in shelves:  # centre each row
        used = shelf.x - gap - area.x
        shift = (area.w - used) / 2
        for i in shelf.members:
            p = placed[i]
            placed[i] = PiecePlacement(p.index, p.page, p.rect.shifted(shift, 0.0), p.rotated)
    return [placed[i] for i in range(len(sizes))]


def _free_spot(shelves: list[_Shelf], w: float, h: float, area: Rect, gap: float):
    """(shelf, column) with room for a ``w`` x ``h`` box, opening a column if need be; or None."""
    for shelf in shelves:
        for column in shelf.columns:
            if w <= column[1] + EPS and column[2] - h >= shelf.y - EPS:
                return shelf, column
        if h <= shelf.height + EPS and shelf.x + w <= area.x1 + EPS:
            column = [shelf.x, w, shelf.y + shelf.height]
            shelf.columns.append(column)
            shelf.x += w + gap
            return shelf, column
    return None


def paginate(count: int, per_page: int) -> list[range]:
    """Indexes ``0..count-1`` split into pages of ``per_page``."""
    return [range(start, min(start + per_page, count)) for start in range(0, count, per_page)]


def hexagon_points(box: Rect) -> list[tuple[float, float]]:
    """Corners of the flat-topped hexagon filling ``box`` (corner to corner across its width)."""
    cx, cy = box.center
    r = box.w / 2
    h = box.h / 2
    return [(cx + r, cy), (cx + r / 2, cy + h), (cx - r / 2, cy + h),
            (cx - r, cy), (cx - r / 2, cy - h), (cx + r / 2, cy - h)]


HEX_RATIO = math.sqrt(3) / 2   # height of a flat-topped hexagon over its corner-to-corner width
