"""File names of exported cards: they sort in deck order and say the card and its count."""

from __future__ import annotations

import re
import unicodedata

BACK_NAME = "back"


def slug(text: str) -> str:
    """Lower-case ASCII words joined by hyphens (accents dropped: Façade -> facade)."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-") or "card"


def card_stems(cards) -> list[str]:
    """``01-plaza-x13`` for each distinct card, numbered in deck order with equal-width numbers."""
    width = max(2, len(str(len(cards))))
    return [f"{i:0{width}d}-{slug(card.name)}-x{card.count}" for i, card in enumerate(cards, start=1)]
