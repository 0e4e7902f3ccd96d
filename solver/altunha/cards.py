"""The Altun Ha deck as the solver sees it.

The deck is read from the built-in game data (``kitgen/games/altun-ha``):
each row of ``cards.csv`` becomes a :class:`CardInfo`.  For Farm and Build
only three things about a card matter, so the solver works with *kinds*:

* a Bid card of value ``v`` has kind ``v`` (an ``int``, 1..8);
* every God card has kind :data:`GOD` (they are identical in play);
* the Maize trade card has kind :data:`MAIZE`;
* every other Trade card has kind :data:`TRADE` and plays no part.

Card names are matched case-insensitively and without accents
(``facade`` finds ``Façade``) by :meth:`Deck.lookup`.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

GOD = "god"
MAIZE = "maize"
TRADE = "trade"
MAIZE_NAME = "Maize"  # the Trade card that pays any amount in the Farm phase

Kind = int | str  # a Bid value 1..8, or GOD, MAIZE, TRADE


@dataclass(frozen=True)
class CardInfo:
    """One named card of the deck."""

    name: str
    type: str           # "bid" | "trade" | "god", as in cards.csv
    count: int          # copies in the deck
    value: int | None   # printed value: the Bid value, or the God card's bid/farm value
    order: int          # position in cards.csv (used to sort hands deterministically)

    @property
    def kind(self) -> Kind:
        if self.type == "bid":
            return self.value
        if self.type == "god":
            return GOD
        return MAIZE if self.name == MAIZE_NAME else TRADE


def fold(text: str) -> str:
    """A name folded for matching: lower case, accents dropped, spaces collapsed."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())


@dataclass(frozen=True)
class Deck:
    """The named cards of the deck, in cards.csv order, with the rule numbers of game.toml."""

    cards: tuple[CardInfo, ...]
    numbers: tuple[tuple[str, object], ...]  # game.toml [rules], as (key, value) pairs

    def __post_init__(self):
        object.__setattr__(self, "_by_fold", {fold(c.name): c for c in self.cards})
        object.__setattr__(self, "_by_name", {c.name: c for c in self.cards})

    def lookup(self, name: str) -> CardInfo | None:
        """The card called ``name`` (any case, accents optional), or None."""
        return self._by_fold.get(fold(name))

    def __getitem__(self, name: str) -> CardInfo:
        """The card with this exact name (KeyError when there is none)."""
        return self._by_name[name]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.cards)

    @property
    def gods(self) -> tuple[CardInfo, ...]:
        return tuple(c for c in self.cards if c.type == "god")

    def bid_card(self, value: int) -> CardInfo | None:
        """The Bid card of this value (the built-in deck has exactly one per value 1..8)."""
        for card in self.cards:
            if card.type == "bid" and card.value == value:
                return card
        return None

    @property
    def max_value(self) -> int:
        """The highest Bid value: the top stage a temple can reach (8, the Altar)."""
        return max(c.value for c in self.cards if c.type == "bid")

    def kind_of(self, name: str) -> Kind:
        return self[name].kind

    def sort_key(self, name: str) -> int:
        return self[name].order

    def rule(self, key: str, default=None):
        return dict(self.numbers).get(key, default)


@lru_cache(maxsize=None)
def load_deck(game: str = "altun-ha") -> Deck:
    """The deck of a game (default: the built-in Altun Ha), read once and cached."""
    from kitgen.data.game import load_game

    data = load_game(game)
    cards = []
    for order, card in enumerate(data.cards):
        value = card.numeric_value
        cards.append(CardInfo(name=card.name, type=card.type, count=card.count, value=value,
                              order=order))
    return Deck(cards=tuple(cards), numbers=tuple(sorted(data.rules.items())))
