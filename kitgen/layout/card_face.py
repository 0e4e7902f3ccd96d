"""Pure helpers of card faces: fitting a picture to a box, and values that read as others when turned.

Where each box of a face goes is the face's layout (:mod:`kitgen.layout.card_boxes`).
"""

from __future__ import annotations

from kitgen.layout.geometry import Rect

# how digits read when the card is turned half a turn; the others read as no digit at all
TURNED_DIGITS = {"0": "0", "1": "1", "6": "9", "8": "8", "9": "6"}


def reads_differently_turned(value: str) -> bool:
    """Whether ``value``, turned 180 degrees, reads as another number: 6 and 9, 16 and 91, 68 and 89.

    A value reads as another when every character is a digit that still reads
    as a digit upside down and the turned reading differs from the value
    without starting with a 0 (10 turned is 01, which no card shows).  Such a
    value is underlined in the corners, as playing cards mark their 6 and 9.
    """
    text = str(value).strip()
    if not text or any(ch not in TURNED_DIGITS for ch in text):
        return False
    turned = "".join(TURNED_DIGITS[ch] for ch in reversed(text))
    return turned != text and not (len(turned) > 1 and turned.startswith("0"))


def fit_image(box: Rect, image_w: int, image_h: int, cover: bool = False) -> Rect:
    """The image's rectangle inside ``box``, centred, keeping its aspect (cover: fill and overflow)."""
    scale = (max if cover else min)(box.w / image_w, box.h / image_h)
    w, h = image_w * scale, image_h * scale
    return Rect(box.x + (box.w - w) / 2, box.y + (box.h - h) / 2, w, h)
