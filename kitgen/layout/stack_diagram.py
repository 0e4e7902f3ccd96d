"""Pure layout maths for rulebook diagrams: where each card of a stack of numbered cards goes.

A stack (a temple, a pyramid, a tower: cards laid one on the other by value) is drawn
staggered: the first card sits at the bottom and every later card is placed a little
higher and to the right, so the value in the bottom band of each card stays visible.  Everything here is in points and
free of drawing code; :mod:`kitgen.render.rulebook.diagrams` only strokes what these
functions return.
"""

from __future__ import annotations

from dataclasses import dataclass

from kitgen.layout.geometry import Rect

CARD_W = 58.0      # points: a small card, about 20 mm wide
CARD_H = 78.0
STEP_X = 7.0       # shift of each card over the one below it
STEP_Y = 17.0
GAP = 22.0         # between two stacks
LABEL_H = 16.0     # room under a stack for its name
BAND_H = 15.0      # the value band along a card's bottom edge, the part a card on top leaves showing
BAND_INSET = 1.5   # the band's inset from the card's edges
BAND_PAD = 3.0     # text keeps this far from the band's ends
VALUE_GAP = 3.0    # between the value and the card's name


@dataclass(frozen=True)
class PlacedCard:
    stack: int      # index of the stack, left to right
    level: int      # 0 for the bottom card
    x: float        # lower-left corner, relative to the panel's lower-left
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class StackBox:
    index: int
    x: float        # left edge of the stack's column
    width: float
    label_y: float  # baseline of the label under the stack


@dataclass(frozen=True)
class PanelLayout:
    width: float
    height: float
    cards: tuple[PlacedCard, ...]
    stacks: tuple[StackBox, ...]


def band_box(x: float, y: float, width: float) -> Rect:
    """The value band of a card whose lower-left corner is at (``x``, ``y``)."""
    return Rect(x + BAND_INSET, y + BAND_INSET, width - 2 * BAND_INSET, BAND_H)


def name_room(band: Rect, value_width: float) -> Rect:
    """Where a card's name may go in its band: right of its value, clear of the band's ends."""
    left = band.x + BAND_PAD + value_width + VALUE_GAP
    return Rect(left, band.y + 1.0, band.x1 - BAND_PAD - left, band.h - 2.0)


def stack_width(levels: int) -> float:
    return CARD_W + STEP_X * max(levels - 1, 0)


def panel_layout(heights: list[int], min_levels: int = 1) -> PanelLayout:
    """Positions of every card in a row of stacks with ``heights[i]`` cards each.

    ``min_levels`` reserves height for the tallest stack of a companion panel
    so that a "before" and an "after" panel line up.
    """
    tallest = max([min_levels, *heights, 1])
    height = LABEL_H + CARD_H + STEP_Y * (tallest - 1)
    cards: list[PlacedCard] = []
    stacks: list[StackBox] = []
    x = 0.0
    for t, levels in enumerate(heights):
        width = stack_width(max(levels, 1))
        for level in range(levels):
            cards.append(PlacedCard(t, level, x + STEP_X * level, LABEL_H + STEP_Y * level,
                                    CARD_W, CARD_H))
        stacks.append(StackBox(t, x, width, 4.0))
        x += width + GAP
    width = max(x - GAP, CARD_W)
    return PanelLayout(width, height, tuple(cards), tuple(stacks))


def side_by_side(widths: list[float], arrow: float, available: float) -> list[float]:
    """Left edges of panels set in one row with an ``arrow`` gap between them, centred."""
    total = sum(widths) + arrow * (len(widths) - 1)
    x = max((available - total) / 2, 0.0)
    lefts = []
    for w in widths:
        lefts.append(x)
        x += w + arrow
    return lefts
