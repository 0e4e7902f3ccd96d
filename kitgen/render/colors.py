"""The colours every renderer shares: ink, card panel, placeholder grey, and mixing."""

from __future__ import annotations

from reportlab.lib.colors import Color, HexColor

PANEL = HexColor("#fbf7ec")
INK = HexColor("#2b2420")
PLACEHOLDER = HexColor("#e4ded2")


def mix(color: str, other: str, t: float) -> Color:
    """``color`` moved a fraction ``t`` of the way towards ``other``."""
    a, b = HexColor(color), HexColor(other)
    return Color(a.red + (b.red - a.red) * t, a.green + (b.green - a.green) * t, a.blue + (b.blue - a.blue) * t)
