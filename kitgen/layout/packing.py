"""Where table aids go on the page: pure geometry, in PDF points (origin bottom left).

Nothing here draws.  The functions take sizes and a page and return
rectangles (:class:`kitgen.layout.geometry.Rect`); the renderers only stroke and fill
what they are given.

* :func:`content_area`: what is left of the printable area
  (:func:`kitgen.layout.sheet.printable_area`, a margin of at least 5 mm on every
  side) under a page heading.
* :func:`pack_groups`: pieces of every kind (tokens, tiles, mats, reference
  cards), each given by its bounding box, copies of one size edge to edge so
  one cut serves two, into the room a page leaves free (beside a board part)
  and onto as many new pages as needed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from kitgen.errors import LayoutError
from kitgen.layout.geometry import EPS, Rect
from kitgen.layout.margins import PRINTER_MARGIN, printable_area
from kitgen.units import PAPER_SIZES_MM, Size, mm

MARGIN = PRINTER_MARGIN    # nothing is printed closer than this to a sheet's edge
HEADING = mm(10.0)         # band at the top of a page for its heading
GAP = mm(3.0)              # space between blocks of different pieces, for the scissors


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


@dataclass(frozen=True)
class PieceGroup:
    """Copies of one piece: all the same size, so they are laid edge to edge."""

    width: float
    height: float
    count: int
    turnable: bool = True       # may be laid a quarter turn round (not a hexagon, whose outline would change)


@dataclass(frozen=True)
class Room:
    """Free room on a page that pieces may take: beside or under a board part."""

    page: int
    rect: Rect


@dataclass(frozen=True)
class GroupPlacement:
    """Where one copy of a group goes."""

    group: int          # index of the group in the list given to the packer
    item: int           # 0-based copy of that group
    page: int           # a page given with the rooms, or a new one (numbered on from ``first_new``)
    rect: Rect          # the piece's box on that page (already turned if ``rotated``)
    rotated: bool       # turned a quarter turn to fit


def _capacity(rect: Rect, w: float, h: float) -> tuple[int, int]:
    if w > rect.w + EPS or h > rect.h + EPS:
        return 0, 0
    return int((rect.w + EPS) // w), int((rect.h + EPS) // h)


def _orientations(g: PieceGroup) -> list[tuple[float, float, bool]]:
    options = [(g.width, g.height, False)]
    if g.turnable and abs(g.width - g.height) > EPS:
        options.append((g.height, g.width, True))
    return options


def pack_groups(groups: Sequence[PieceGroup], rooms: Sequence[Room], new_page: Rect, first_new: int,
                gap: float = GAP) -> list[GroupPlacement]:
    """Pack every copy of every group into ``rooms``, then onto new pages whose free area is ``new_page``.

    The copies of a group are laid edge to edge in blocks (rows and columns
    touching), so one cut separates two pieces; blocks of different groups keep
    ``gap`` between them.  Larger pieces are placed first, each block in the
    room that holds the most of the copies still to place (the first such
    room, by page and from the top, on a tie), turned a quarter turn when that
    holds more; a new page is opened only when no room holds a copy.  The room left beside and
    under a block stays free for the next block (a guillotine cut of the
    room).  New pages are numbered ``first_new``, ``first_new + 1``...; what
    each holds is centred across it.  A piece that fits ``new_page`` in no
    allowed orientation raises :class:`DoesNotFit`.  Returns the placements
    group by group, copy by copy.
    """
    for i, g in enumerate(groups):
        if g.count and not any(_capacity(new_page, w, h)[0] for w, h, _ in _orientations(g)):
            raise DoesNotFit(i, (g.width, g.height), new_page)
    free: list[Room] = list(rooms)
    opened = 0
    out: list[GroupPlacement] = []
    for gi in sorted(range(len(groups)), key=lambda i: (-groups[i].width * groups[i].height, i)):
        g = groups[gi]
        done = 0
        while done < g.count:
            free.sort(key=lambda r: (r.page, -round(r.rect.y1, 3), round(r.rect.x, 3)))
            pick = None
            for k, room in enumerate(free):
                for w, h, turned in _orientations(g):
                    cols, rows = _capacity(room.rect, w, h)
                    n = min(cols * rows, g.count - done)
                    if n and (pick is None or n > pick[1][0]):
                        pick = (k, (n, cols, w, h, turned))
            if pick is None:
                free.append(Room(first_new + opened, new_page))
                opened += 1
                continue
            k, (n, cols, w, h, turned) = pick
            room = free.pop(k)
            r = room.rect
            cols = min(cols, n)
            rows = math.ceil(n / cols)
            for j in range(n):
                row, col = divmod(j, cols)
                out.append(GroupPlacement(gi, done + j, room.page,
                                          Rect(r.x + col * w, r.y1 - (row + 1) * h, w, h), turned))
            done += n
            bw, bh = cols * w, rows * h
            last = n - (rows - 1) * cols
            left = [Rect(r.x + bw + gap, r.y1 - bh, r.x1 - r.x - bw - gap, bh),      # beside the block
                    Rect(r.x, r.y, r.w, r.h - bh - gap)]                               # under it
            if last < cols:                                                            # beside a short last row
                left.append(Rect(r.x + last * w + gap, r.y1 - bh, (cols - last) * w - gap, h - gap))
            free += [Room(room.page, p) for p in left if p.w > EPS and p.h > EPS]
    for page in range(first_new, first_new + opened):     # centre what a new page holds across it
        here = [p for p in out if p.page == page]
        shift = (new_page.x1 - max(p.rect.x1 for p in here)) / 2 if here else 0.0
        out = [GroupPlacement(p.group, p.item, p.page, p.rect.shifted(shift, 0.0), p.rotated)
               if p.page == page else p for p in out]
    return sorted(out, key=lambda p: (p.group, p.item))


def hexagon_points(box: Rect) -> list[tuple[float, float]]:
    """Corners of the flat-topped hexagon filling ``box`` (corner to corner across its width)."""
    cx, cy = box.center
    r = box.w / 2
    h = box.h / 2
    return [(cx + r, cy), (cx + r / 2, cy + h), (cx - r / 2, cy + h),
            (cx - r, cy), (cx - r / 2, cy - h), (cx + r / 2, cy - h)]


HEX_RATIO = math.sqrt(3) / 2   # height of a flat-topped hexagon over its corner-to-corner width
