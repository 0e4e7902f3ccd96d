"""File names of exported cards: they sort in deck order and say the card and its count."""

from __future__ import annotations

from kitgen.data.values import slugify

BACK_NAME = "back"


def card_stems(cards) -> list[str]:
    """``01-plaza-x13`` for each distinct card, numbered in deck order with equal-width numbers."""
    width = max(2, len(str(len(cards))))
    return [f"{i:0{width}d}-{slugify(card.name, 'card', ascii_only=True)}-x{card.count}"
            for i, card in enumerate(cards, start=1)]
