"""Pure geometry of a card face: where the name, corners, art, text and type line go.

Boxes are in points relative to the card's trim box (origin at its bottom-left).
Sizes scale with the card so a mini card and a tarot card keep the proportions
of the poker design.
"""

from __future__ import annotations

from dataclasses import dataclass

from kitgen.layout.geometry import Rect
from kitgen.units import MM

POKER_W, POKER_H = 180.0, 252.0


@dataclass(frozen=True)
class FaceLayout:
    scale: float
    panel: Rect            # the light inner panel
    corner_top: Rect       # value badge, upright
    corner_bottom: Rect    # value badge, turned 180 degrees
    name: Rect             # one line of the card's name, centred between the corners
    name_wide: Rect        # the same line reaching into the free top-right corner, for long names
    name_tall: Rect        # two lines of a name too long for one, as tall as the corner badge
    art: Rect
    text: Rect | None      # effect text (or the large value), None when the card has neither
    type_line: Rect
    name_size: float       # preferred point sizes before shrinking to fit
    value_size: float
    text_size: float
    text_comfort: float    # text shrinks this far before the art gives up room
    type_size: float


TEXT_MIN = 6.0                      # no card text prints smaller than this (points)
ART_SHARES = (0.58, 0.5, 0.42, 0.34)  # of the space between the corners, tried in turn for long texts


def face_layout(width: float, height: float, has_value: bool, has_text: bool,
                art_share: float = ART_SHARES[0]) -> FaceLayout:
    """Boxes of a face.  A card with a value but no text shows its value large below the art.

    ``art_share`` is the part of the panel's free height that goes to the art
    when there is text below it; a long text takes room from the art.
    """
    s = min(width / POKER_W, height / POKER_H)
    frame = 3.2 * MM * s
    panel = Rect(frame, frame, width - 2 * frame, height - 2 * frame)
    pad = 2.2 * MM * s
    badge = 27 * s
    corner_top = Rect(panel.x + pad * 0.6, panel.y1 - pad * 0.6 - badge, badge, badge)
    corner_bottom = Rect(panel.x1 - pad * 0.6 - badge, panel.y + pad * 0.6, badge, badge)
    name_h = 20 * s
    side = badge + pad if has_value else pad
    name = Rect(panel.x + side, corner_top.y + (badge - name_h) / 2, panel.w - 2 * side, name_h)
    name_wide = Rect(name.x, name.y, panel.x1 - pad - name.x, name_h)
    name_tall = Rect(name.x, corner_top.y, name_wide.w, badge)
    type_h = 11 * s
    type_line = Rect(panel.x + side, corner_bottom.y + (badge - type_h) / 2, panel.w - 2 * side, type_h)
    art_top = corner_top.y - pad * 0.6
    inner_x, inner_w = panel.x + pad, panel.w - 2 * pad
    if has_text or has_value:
        art_h = min(inner_w * 0.75, (art_top - corner_bottom.y1) * art_share)
        art = Rect(inner_x, art_top - art_h, inner_w, art_h)
        text_top = art.y - pad * 0.7
        text_bottom = corner_bottom.y1 + pad * 0.4
        text = Rect(inner_x, text_bottom, inner_w, text_top - text_bottom)
    else:
        art_bottom = corner_bottom.y1 + pad * 0.6
        art = Rect(inner_x, art_bottom, inner_w, art_top - art_bottom)
        text = None
    return FaceLayout(scale=s, panel=panel, corner_top=corner_top, corner_bottom=corner_bottom,
                      name=name, name_wide=name_wide, name_tall=name_tall, art=art, text=text, type_line=type_line,
                      name_size=15 * s, value_size=17 * s, text_size=10.5 * s,
                      text_comfort=max(TEXT_MIN, 8.0 * s), type_size=7 * s)


# how digits read when the card is turned half a turn; the others read as no digit at all
TURNED_DIGITS = {"0": "0", "1": "1", "6": "9", "8": "8", "9": "6"}


def reads_differently_turned(value: str) -> bool:
    """Whether ``value``, turned 180 degrees, reads as another number: 6 and 9, 16 and 91, 68 and 89.

    A value reads as another when every character is a digit that still reads
    as a digit upside down and the turned reading differs from the value
    without starting with a 0 (10 turned is 01, which no card shows).  Such a
    value is underlined in the corners, as playing cards mark their 6 and 9.
    """
    text = value.strip()
    if not text or any(ch not in TURNED_DIGITS for ch in text):
        return False
    turned = "".join(TURNED_DIGITS[ch] for ch in reversed(text))
    return turned != text and not (len(turned) > 1 and turned.startswith("0"))


def fit_image(box: Rect, image_w: int, image_h: int, cover: bool = False) -> Rect:
    """The image's rectangle inside ``box``, centred, keeping its aspect (cover: fill and overflow)."""
    scale = (max if cover else min)(box.w / image_w, box.h / image_h)
    w, h = image_w * scale, image_h * scale
    return Rect(box.x + (box.w - w) / 2, box.y + (box.h - h) / 2, w, h)
