"""Pure geometry of the report's charts: axis ticks and bar positions, in points.

No drawing here; :mod:`report` draws what these functions return.
"""

from __future__ import annotations

import math
from typing import NamedTuple


def nice_ticks(lo: float, hi: float, most: int = 6) -> list[float]:
    """Round tick values covering [lo, hi] (always including 0 when the range crosses it)."""
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    if hi - lo <= 0:
        hi = lo + 1.0
    raw = (hi - lo) / max(1, most - 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    start = math.floor(lo / step + 1e-9) * step
    ticks, t = [], start
    while t < hi + step * 0.999:
        ticks.append(round(t, 10))
        t += step
    return ticks


class Axis(NamedTuple):
    lo: float
    hi: float
    start: float   # points at lo
    length: float  # points from lo to hi

    def at(self, value: float) -> float:
        return self.start + (value - self.lo) / (self.hi - self.lo) * self.length


def axis_for(ticks: list[float], start: float, length: float) -> Axis:
    return Axis(ticks[0], ticks[-1], start, length)


class Slot(NamedTuple):
    start: float
    size: float

    @property
    def centre(self) -> float:
        return self.start + self.size / 2


def slots(count: int, start: float, length: float, gap: float = 0.25) -> list[Slot]:
    """``count`` equal bars along ``length``, each leaving ``gap`` of its pitch empty."""
    if count <= 0:
        return []
    pitch = length / count
    size = pitch * (1 - gap)
    return [Slot(start + i * pitch + (pitch - size) / 2, size) for i in range(count)]


def label_every(count: int, room: float, label_width: float) -> int:
    """Show every k-th label so labels ``label_width`` wide fit in ``room`` points."""
    if count <= 0 or label_width <= 0:
        return 1
    fits = max(1, int(room // (label_width * 1.3)))
    return max(1, math.ceil(count / fits))
