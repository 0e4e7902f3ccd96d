"""The plane geometry every layout module shares: rectangles and line segments, in points.

Coordinates are PDF points with the origin at the bottom-left corner (of the
page, or of the piece being laid out).  Nothing here draws.
"""

from __future__ import annotations

from dataclasses import dataclass

EPS = 1e-6     # points: what comparisons of computed positions tolerate


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle: lower-left corner ``x``, ``y``, width ``w``, height ``h``."""

    x: float
    y: float
    w: float
    h: float

    @property
    def x1(self) -> float:
        """The right edge."""
        return self.x + self.w

    @property
    def y1(self) -> float:
        """The top edge."""
        return self.y + self.h

    @property
    def center(self) -> tuple[float, float]:
        return self.x + self.w / 2, self.y + self.h / 2

    def box(self) -> list[float]:
        """[x0, y0, x1, y1] rounded to 1/1000 pt, as written in the manifest."""
        return [round(v, 3) for v in (self.x, self.y, self.x1, self.y1)]

    def inset(self, d: float) -> "Rect":
        return Rect(self.x + d, self.y + d, self.w - 2 * d, self.h - 2 * d)

    def outset(self, d: float) -> "Rect":
        return self.inset(-d)

    def shifted(self, dx: float, dy: float) -> "Rect":
        return Rect(self.x + dx, self.y + dy, self.w, self.h)

    def overlaps(self, other: "Rect", tol: float = EPS) -> bool:
        """True when the interiors meet (touching edges do not count)."""
        return (self.x < other.x1 - tol and other.x < self.x1 - tol
                and self.y < other.y1 - tol and other.y < self.y1 - tol)

    def contains(self, other: "Rect", tol: float = EPS) -> bool:
        return (other.x >= self.x - tol and other.y >= self.y - tol
                and other.x1 <= self.x1 + tol and other.y1 <= self.y1 + tol)

    def contains_point(self, x: float, y: float, tol: float = EPS) -> bool:
        return self.x - tol <= x <= self.x1 + tol and self.y - tol <= y <= self.y1 + tol


@dataclass(frozen=True)
class Line:
    """A straight segment from (``x0``, ``y0``) to (``x1``, ``y1``)."""

    x0: float
    y0: float
    x1: float
    y1: float
