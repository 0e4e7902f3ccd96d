"""The Altun Ha deck as the solver and the simulator see it: cards and their roles, from data.

The deck is read from the game data (``kitgen/games/altun-ha``): each row of
``cards.csv`` becomes a :class:`CardInfo`.  What a card does comes from its
columns, never from its name: ``type`` (bid, god or trade), ``value``, and for
Trade cards ``effect`` (one of :data:`EFFECTS`) and ``amount``.  For Farm and
Build only three things about a card matter, so the turn solver works with
*kinds*:

* a Bid card of value ``v`` has kind ``v`` (an ``int``);
* every God card has kind :data:`GOD` (they are identical in play);
* a Trade card whose effect is ``feed`` (Maize) has kind :data:`FEED`;
* every other Trade card has kind :data:`TRADE` and plays no part.

Card names are matched case-insensitively and without accents
(``facade`` finds ``Façade``) by :meth:`Deck.lookup`.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache

from kitgen.errors import GameDataError

GOD = "god"
FEED = "feed"
TRADE = "trade"

Kind = int | str  # a Bid value 1..8, or GOD, FEED, TRADE

# Trade card effects (the cards.csv `effect` column): effect -> (phase, what `amount` counts).
# The simulator implements each one (solver.altunha.sim.effects); the Farm uses `feed`.
EFFECTS: dict[str, tuple[str, str]] = {
    "draw": ("trade", "cards drawn"),
    "draw_and_see_hand": ("trade", "cards drawn; then the player sees one opponent's hand"),
    "take_cards": ("trade", "cards taken at random from one opponent's hand"),
    "look_and_take": ("trade", "cards looked at on top of the deck; one is taken"),
    "discard_random": ("trade", "cards one opponent discards at random"),
    "target_loses": ("trade", "points one opponent loses"),
    "others_lose": ("trade", "points every opponent loses"),
    "steal_points": ("trade", "points taken from one opponent"),
    "gain": ("trade", "points gained"),
    "look": ("trade", "cards looked at on top of the deck"),
    "win_bid": ("bid", ""),     # revealed with the bid: wins it
    "feed": ("farm", ""),       # discarded alone: feeds any Population
}
TARGETED = frozenset({"draw_and_see_hand", "take_cards", "discard_random", "target_loses", "steal_points"})
POINT_EFFECTS = frozenset({"target_loses", "others_lose", "steal_points", "gain"})


@dataclass(frozen=True)
class CardInfo:
    """One named card of the deck."""

    name: str
    type: str           # "bid" | "trade" | "god", as in cards.csv
    count: int          # copies in the deck
    value: int | None   # printed value: the Bid value, or the God card's bid/farm value
    order: int          # position in cards.csv (used to sort hands deterministically)
    effect: str = ""    # a Trade card's effect (EFFECTS), "" for Bid and God cards
    amount: int = 0     # what the effect counts (cards or points)

    @property
    def kind(self) -> Kind:
        if self.type == "bid":
            return self.value
        if self.type == "god":
            return GOD
        return FEED if self.effect == "feed" else TRADE

    @property
    def has_amount(self) -> bool:
        """Whether the card's effect counts something (cards or points) in ``amount``."""
        return bool(self.effect and EFFECTS[self.effect][1])

    @property
    def phase(self) -> str:
        """When a Trade card is played: "trade", "bid" or "farm" ("" for Bid and God cards)."""
        return EFFECTS[self.effect][0] if self.effect else ""


def fold(text: str) -> str:
    """A name folded for matching: lower case, accents dropped, spaces collapsed."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())


@dataclass(frozen=True)
class Deck:
    """The named cards of the deck, in cards.csv order."""

    cards: tuple[CardInfo, ...]

    def __post_init__(self):
        object.__setattr__(self, "_by_fold", {fold(c.name): c for c in self.cards})
        object.__setattr__(self, "_by_name", {c.name: c for c in self.cards})
        # each card's kind and its place in deck order, asked for every card of every plan (rules.plan_key)
        object.__setattr__(self, "kind_by_name", {c.name: c.kind for c in self.cards})
        object.__setattr__(self, "order_by_name", {c.name: c.order for c in self.cards})
        object.__setattr__(self, "_names_by_kind", {})

    def names_by_kind(self, hand) -> dict[Kind, tuple[str, ...]]:
        """The names of a hand grouped by kind, each group in deck order.  A hand is asked about once
        for each of its plans (the solver's and the reference's); the last few hands are kept."""
        hand = tuple(hand)
        known = self._names_by_kind.get(hand)
        if known is None:
            pools: dict[Kind, list[str]] = {}
            for name in sorted(hand, key=self.order_by_name.__getitem__):
                pools.setdefault(self.kind_by_name[name], []).append(name)
            known = {kind: tuple(names) for kind, names in pools.items()}
            if len(self._names_by_kind) >= 64:
                self._names_by_kind.clear()
            self._names_by_kind[hand] = known
        return known

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

    @property
    def trade_cards(self) -> tuple[CardInfo, ...]:
        return tuple(c for c in self.cards if c.type == "trade")

    @property
    def size(self) -> int:
        return sum(c.count for c in self.cards)

    def with_effect(self, effect: str) -> tuple[CardInfo, ...]:
        return tuple(c for c in self.cards if c.effect == effect)

    def bid_card(self, value: int) -> CardInfo | None:
        """The Bid card of this value (the built-in deck has exactly one per value 1..8)."""
        for card in self.cards:
            if card.type == "bid" and card.value == value:
                return card
        return None

    @cached_property
    def max_value(self) -> int:
        """The highest Bid value: the top stage a temple can reach (8, the Altar)."""
        return max(c.value for c in self.cards if c.type == "bid")

    def kind_of(self, name: str) -> Kind:
        return self.kind_by_name[name]

    def sort_key(self, name: str) -> int:
        return self.order_by_name[name]

    def changed(self, counts: dict[str, int] | None = None, amounts: dict[str, int] | None = None) -> "Deck":
        """The deck with some counts or effect amounts changed (keys are exact card names)."""
        counts, amounts = counts or {}, amounts or {}
        return Deck(tuple(replace(c, count=counts.get(c.name, c.count), amount=amounts.get(c.name, c.amount))
                          for c in self.cards))


@lru_cache(maxsize=None)
def game_data(game: str = "altun-ha"):
    """The loaded kitgen Game (built-in slug or folder), read once."""
    from kitgen.data.game import load_game

    return load_game(game)


def deck_from_game(data, where: str = "") -> Deck:
    """The deck of a loaded game; a Trade card without a known effect is refused (row and column)."""
    where = where or f"{data.slug}/cards.csv"
    cards = []
    for order, card in enumerate(data.cards):
        effect = card.fields.get("effect", "").strip() if card.type == "trade" else ""
        amount_text = card.fields.get("amount", "").strip()
        if card.type == "trade":
            if effect not in EFFECTS:
                raise GameDataError(f"Trade card {card.name!r} needs an effect, one of {', '.join(EFFECTS)}"
                                    f"{f' (not {effect!r})' if effect else ''}",
                                    file=where, row=card.row, column="effect")
            if EFFECTS[effect][1] and not (amount_text.isascii() and amount_text.isdigit()) \
                    or not EFFECTS[effect][1] and amount_text:
                need = f"counts {EFFECTS[effect][1]}: give a whole number" if EFFECTS[effect][1] else \
                    "counts nothing: leave the amount empty"
                raise GameDataError(f"effect {effect} {need}", file=where, row=card.row, column="amount")
        value = card.numeric_value
        if card.type in ("bid", "god") and value is None:
            raise GameDataError(f"{card.type} card {card.name!r} needs a whole-number value",
                                file=where, row=card.row, column="value")
        cards.append(CardInfo(name=card.name, type=card.type, count=card.count, value=value, order=order,
                              effect=effect, amount=int(amount_text) if effect and EFFECTS[effect][1] else 0))
    if not any(c.type == "bid" for c in cards):
        raise GameDataError("the deck needs Bid cards (type bid)", file=where)
    return Deck(cards=tuple(cards))


@lru_cache(maxsize=None)
def load_deck(game: str = "altun-ha") -> Deck:
    """The deck of a game (default: the built-in Altun Ha), read once and cached."""
    return deck_from_game(game_data(game))
