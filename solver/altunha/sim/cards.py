"""The physical deck of one simulated game: every copy of every card gets an id.

Ids index plain lists (kind, value, name) so the inner loop does no lookups by name.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from solver.altunha.sim.enumerate import Config
from solver.altunha.sim.variants import Rules

BID, TRADE, GOD = 0, 1, 2
_KINDS = {"bid": BID, "trade": TRADE, "god": GOD}
TARGETED = ("Salt", "Cocoa", "Honey", "Feathers", "Pyrite")
IN_TRADE_PHASE = ("Stone", "Salt", "Cocoa", "Ceramics", "Honey", "Feathers", "Textiles",
                  "Pyrite", "Obsidian", "Codex")


@dataclass(frozen=True)
class Table:
    """Card ids 0..size-1 with their kind, value and name; the rule numbers as attributes."""

    rules: Rules
    kind: tuple[int, ...]
    value: tuple[int, ...]
    name: tuple[str, ...]
    config: Config

    @property
    def size(self) -> int:
        return len(self.kind)

    def ids_named(self, name: str) -> list[int]:
        return [i for i, n in enumerate(self.name) if n == name]


class RuleNumbers:
    """The rule values as plain attributes (fast to read in the inner loop)."""

    def __init__(self, rules: Rules):
        self.__dict__.update(dict(rules.values))


@lru_cache(maxsize=32)
def table_for(rules: Rules) -> Table:
    kind, value, name = [], [], []
    god_value = dict(rules.values)["god_value"]
    for card_name, card_type, count, card_value in rules.deck:
        k = _KINDS.get(card_type, TRADE)
        for _ in range(count):
            kind.append(k)
            value.append(god_value if k == GOD else card_value if k == BID else 0)
            name.append(card_name)
    r = dict(rules.values)
    bid_values = [v for _, t, _, v in rules.deck if t == "bid"]
    cfg = Config(max_value=max(bid_values) if bid_values else 1, god_value=r["god_value"],
                 max_farm=r["max_farm_cards"], max_build=r["max_build_cards"],
                 famine_penalty=r["famine_penalty"], no_build_penalty=r["no_build_penalty"],
                 chain=r["chain"])
    return Table(rules=rules, kind=tuple(kind), value=tuple(value), name=tuple(name), config=cfg)


@lru_cache(maxsize=32)
def numbers_for(rules: Rules) -> RuleNumbers:
    return RuleNumbers(rules)
