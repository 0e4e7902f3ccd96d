"""The physical deck of one simulated game: every copy of every card gets an id.

Ids index plain tuples (kind, value, name, effect, amount) so the inner loop
does no lookups by name.  What a card does comes from the deck's data
(:mod:`solver.altunha.cards`), never from its name.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

from solver.altunha.sim.variants import Setup

BID, TRADE, GOD = 0, 1, 2
_KINDS = {"bid": BID, "trade": TRADE, "god": GOD}


@dataclass(frozen=True)
class Table:
    """Card ids 0..size-1 with their kind, value (a God card's is god_value), name and effect."""

    setup: Setup
    kind: tuple[int, ...]
    value: tuple[int, ...]
    name: tuple[str, ...]
    effect: tuple[str, ...]   # a Trade card's effect ("" for Bid and God cards)
    amount: tuple[int, ...]   # what the effect counts
    source: tuple[str, ...]   # the points source a Trade card's effect is counted under ("" for none)
    rule_kind: tuple          # the kind the rules model knows the card by: a Bid value, GOD, FEED or TRADE

    @property
    def size(self) -> int:
        return len(self.kind)

    @cached_property
    def trade_ids(self) -> frozenset[int]:
        """The ids of the Trade cards (a hand without any skips the Trade phase's question)."""
        return frozenset(c for c, k in enumerate(self.kind) if k == TRADE)

    @cached_property
    def by_effect(self) -> dict[str, frozenset[int]]:
        """The ids of the Trade cards of each effect."""
        out: dict[str, set[int]] = {}
        for c, effect in enumerate(self.effect):
            if effect:
                out.setdefault(effect, set()).add(c)
        return {effect: frozenset(ids) for effect, ids in out.items()}

    @cached_property
    def checks(self) -> dict:
        """The engine's memo of what the rules model finds wrong with a move (see Game._problem)."""
        return {}

    @cached_property
    def planner(self):
        """The enumerator's memo for this deck's rules (:class:`~solver.altunha.sim.enumerate.Planner`)."""
        from solver.altunha.sim.enumerate import planner_for

        return planner_for(self.setup.rules, self.size)

    @cached_property
    def token(self) -> tuple:
        """Each card's token for the enumerator: its Bid value, GOD or FEED (None: plays no part)."""
        from solver.altunha.cards import FEED as FEED_KIND
        from solver.altunha.cards import GOD as GOD_KIND
        from solver.altunha.sim.enumerate import FEED, GOD

        tokens = {GOD_KIND: GOD, FEED_KIND: FEED}
        return tuple(k if isinstance(k, int) else tokens.get(k) for k in self.rule_kind)

    @cached_property
    def weight(self) -> tuple[int, ...]:
        """What each card adds to a hand's code for the enumerator (:meth:`Planner.weight`)."""
        return tuple(self.planner.weight(k) for k in self.rule_kind)


_LAST: list = [None, None]   # the last setup asked for and its table


def table_for(setup: Setup) -> Table:
    """The deck table of a setup (made once per equal setup; the setup of a run is asked for once
    per game, and found by identity without hashing the deck)."""
    if _LAST[0] is not setup:
        _LAST[:] = setup, _table_for(setup)
    return _LAST[1]


@lru_cache(maxsize=32)
def _table_for(setup: Setup) -> Table:
    from solver.altunha.cards import POINT_EFFECTS, fold

    kind, value, name, effect, amount, source, rule_kind = [], [], [], [], [], [], []
    god_value = setup.rules.god_value
    for card in setup.deck.cards:
        k = _KINDS.get(card.type, TRADE)
        for _ in range(card.count):
            kind.append(k)
            value.append(god_value if k == GOD else card.value if k == BID else 0)
            name.append(card.name)
            effect.append(card.effect)
            amount.append(card.amount)
            source.append(fold(card.name) if card.effect in POINT_EFFECTS else "")
            rule_kind.append(card.kind)
    return Table(setup=setup, kind=tuple(kind), value=tuple(value), name=tuple(name), effect=tuple(effect),
                 amount=tuple(amount), source=tuple(source), rule_kind=tuple(rule_kind))
