"""Where the scale bar goes: a 50 mm and a 2 in bar, or the 50 mm bar alone where room is short.

The bar lies in a margin no mark crosses (:mod:`kitgen.layout.margins`).  It
comes in three shapes, tried in turn: both bars, each labelled after its end
(:data:`BOTH`); the 50 mm bar alone, labelled after its end, for a narrow
margin (:data:`SLIM`); the 50 mm bar alone with its label above it, for a
short one (:data:`SHORT`).  A sheet of cards prefers the page of fronts, then
the page of backs (:func:`kitgen.layout.duplex.duplex_layout`).  Points,
origin at the page's bottom-left; nothing here draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from kitgen.layout.geometry import Rect
from kitgen.layout.margins import Spot, place_along
from kitgen.units import MM

SCALE_BAR_LENGTH = 2 * 72.0        # the 2 in bar; the 50 mm bar is a little shorter
METRIC_BAR_LENGTH = 50 * MM
LABEL_GAP = 1.2 * MM               # between a bar's end and its label
LABEL_ROOM = 18.0                  # "50 mm" at 5 pt is 17.7 pt long
SCALE_BAR_DEPTH = 4.2 * MM         # room the two bars and their labels need across
SCALE_BAR_SPAN = SCALE_BAR_LENGTH + LABEL_GAP + 16.0      # along: the bars and the labels after them

BOTH, SLIM, SHORT = "both", "slim", "short"
# shape -> (room along, room across)
SHAPES = {
    BOTH: (SCALE_BAR_SPAN, SCALE_BAR_DEPTH),
    SLIM: (METRIC_BAR_LENGTH + LABEL_GAP + LABEL_ROOM, 1.9 * MM),
    SHORT: (METRIC_BAR_LENGTH + 0.5 * MM, 3.2 * MM),
}
SIDES = ("left", "bottom", "right", "top")


@dataclass(frozen=True)
class ScaleBar:
    """Where the scale bar goes: its start point, direction (horizontal or vertical) and shape."""

    x: float
    y: float
    vertical: bool
    length: float               # the longest bar drawn, in points
    shape: str = BOTH

    @property
    def metric_only(self) -> bool:
        return self.shape != BOTH

    @property
    def depth(self) -> float:
        return SHAPES[self.shape][1]

    @property
    def span(self) -> float:
        return SHAPES[self.shape][0]

    @property
    def box(self) -> Rect:
        """All the bar covers, its labels included."""
        if self.vertical:
            return Rect(self.x, self.y, self.depth, self.span)
        return Rect(self.x, self.y, self.span, self.depth)


def place_scale_bar(spots: Sequence[Spot], taken: Sequence[Rect] = (), sides: Sequence[str] = SIDES,
                    centre: tuple[float, float] | None = None, shape: str = BOTH) -> ScaleBar | None:
    """The scale bar of ``shape`` in the first margin with room for it, crossing no mark."""
    span, depth = SHAPES[shape]
    found = place_along(spots, span, depth, sides, taken, centre)
    if found is None:
        return None
    spot, box = found
    return ScaleBar(box.x, box.y, spot.vertical, SCALE_BAR_LENGTH if shape == BOTH else METRIC_BAR_LENGTH, shape)


def best_scale_bar(spots: Sequence[Spot], taken: Sequence[Rect] = (), centre: tuple[float, float] | None = None,
                   shapes: Sequence[str] = (BOTH, SLIM, SHORT)) -> ScaleBar | None:
    """The first of ``shapes`` that fits, or None."""
    for shape in shapes:
        bar = place_scale_bar(spots, taken, centre=centre, shape=shape)
        if bar is not None:
            return bar
    return None
