"""Room around a grid of cards: the printable area and the stretches of margin no line crosses.

Texts (the sheet label, "fold") and the scale bar go in these stretches.
Points, origin at the page's bottom-left; nothing here draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from kitgen.layout.geometry import EPS, Line, Rect
from kitgen.units import MM, Size

PRINTER_MARGIN = 5 * MM       # nothing is printed closer to the paper's edge
MARK_CLEARANCE = 1.5 * MM     # crop marks beyond the grid stop this short of the cards and their bleed
SPOT_PAD = 1 * MM             # texts and the scale bar keep this far from any mark


def printable_area(page: Size, margin: float = PRINTER_MARGIN) -> Rect:
    """The part of a page a home printer reaches: all of it but ``margin`` on every side."""
    return Rect(margin, margin, page.width - 2 * margin, page.height - 2 * margin)


@dataclass(frozen=True)
class Spot:
    """Free room in a margin: no card, no mark.  Text in a vertical spot runs up the page."""

    rect: Rect
    vertical: bool
    side: str           # left, right, top or bottom of the grid

    @property
    def length(self) -> float:
        return self.rect.h if self.vertical else self.rect.w

    @property
    def depth(self) -> float:
        return self.rect.w if self.vertical else self.rect.h


def _blocked(strip: Rect, vertical: bool, lines: Iterable[Line], pad: float) -> list[tuple[float, float]]:
    """Stretches along ``strip`` that a line (padded by ``pad``) crosses or touches."""
    out = []
    for ln in lines:
        box = Rect(min(ln.x0, ln.x1) - pad, min(ln.y0, ln.y1) - pad,
                   abs(ln.x1 - ln.x0) + 2 * pad, abs(ln.y1 - ln.y0) + 2 * pad)
        if box.overlaps(strip, tol=0.0):
            out.append((box.y, box.y1) if vertical else (box.x, box.x1))
    return out


def margin_spots(grid: Rect, page: Size, margin: float, lines: Sequence[Line] = (),
                 pad: float = SPOT_PAD) -> list[Spot]:
    """The printable margins around ``grid`` cut into stretches that no line (a mark, a fold) crosses."""
    room = printable_area(page, margin)
    strips = {
        "left": (Rect(room.x, room.y, grid.x - MARK_CLEARANCE - room.x, room.h), True),
        "right": (Rect(grid.x1 + MARK_CLEARANCE, room.y, room.x1 - grid.x1 - MARK_CLEARANCE, room.h), True),
        "bottom": (Rect(room.x, room.y, room.w, grid.y - MARK_CLEARANCE - room.y), False),
        "top": (Rect(room.x, grid.y1 + MARK_CLEARANCE, room.w, room.y1 - grid.y1 - MARK_CLEARANCE), False),
    }
    spots = []
    for side, (strip, vertical) in strips.items():
        if strip.w <= 0 or strip.h <= 0:
            continue
        lo, hi = (strip.y, strip.y1) if vertical else (strip.x, strip.x1)
        cuts = sorted(_blocked(strip, vertical, lines, pad))
        start = lo
        for a, b in cuts + [(hi, hi)]:
            end = min(a, hi)
            if end - start > EPS:
                rect = (Rect(strip.x, start, strip.w, end - start) if vertical
                        else Rect(start, strip.y, end - start, strip.h))
                spots.append(Spot(rect, vertical, side))
            start = max(start, b)
    return spots


def place_along(spots: Sequence[Spot], length: float, depth: float, sides: Sequence[str],
                taken: Sequence[Rect] = (), centre: tuple[float, float] | None = None) -> tuple[Spot, Rect] | None:
    """Room ``length`` long and ``depth`` deep in the first of ``sides`` that has it, clear of ``taken``.

    Within a side the spot nearest ``centre`` (the middle of the grid) wins;
    the box is centred in its spot, or pushed to one end to clear ``taken``.
    """
    for side in sides:
        here = [s for s in spots if s.side == side and s.length >= length - EPS and s.depth >= depth - EPS]
        if centre is not None:
            cx, cy = centre
            here.sort(key=lambda s: abs((s.rect.center[1] - cy) if s.vertical else (s.rect.center[0] - cx)))
        for spot in here:
            r = spot.rect
            for frac in (0.5, 0.0, 1.0):
                if spot.vertical:
                    box = Rect(r.x + (r.w - depth) / 2, r.y + (r.h - length) * frac, depth, length)
                else:
                    box = Rect(r.x + (r.w - length) * frac, r.y + (r.h - depth) / 2, length, depth)
                if not any(box.overlaps(t) for t in taken):
                    return spot, box
    return None
