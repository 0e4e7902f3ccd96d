"""The rules of one Altun Ha turn (Farm, then Build), as plain Python.

This module is the rules model shared by the turn solver and the simulator.
It knows nothing of OR-Tools: it says which plays are legal
(:func:`check_play`), what they are worth, and in which order plans are
preferred (:func:`plan_key`).

Rulings
-------
* **Farm**: the Priest King discards either Maize on its own (it pays any
  amount) or 1..``max_farm_cards`` Bid cards whose values add up to at least
  the Population; a God card counts as a Bid card of value ``god_value`` (7).
  If neither is possible: famine, the game ends, he scores ``-famine_penalty``.
* **Build**: from the cards left, up to ``max_build_cards`` Bid or God cards,
  one after the other.  A value-1 card starts a new temple; a value-v card
  goes on a temple whose top is v-1 (also one started or raised earlier in the
  same Build, unless ``chain`` is off).  A God card is wild (any value 1..8).
  He scores the values placed, or ``-no_build_penalty`` when he places none.
* **Optimal** (see :class:`PlanKey`): avoid famine, then most points, then
  fewest Farm cards, then the lowest Farm value (God = 9, Maize = 10); the
  remaining ties are broken by the later fields of the key.

Hands are sequences of exact card names (see :mod:`solver.altunha.parse` for
reading what people type).  Temples are given by their top values, in table
order, and numbered from 1; a temple started in the Build takes the next
number.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, fields, replace
from itertools import combinations
from typing import NamedTuple, Sequence

from solver.altunha.cards import GOD, MAIZE, Deck, Kind, load_deck

BUILT, UNABLE, FAMINE = "built", "unable_to_build", "famine"
OUTCOMES = (BUILT, UNABLE, FAMINE)
GOD_FARM_COST = 9     # a God card's weight when choosing what to spend on Farm
MAIZE_FARM_COST = 10  # Maize's weight: kept when something plainer will do


# --- options -----------------------------------------------------------------

@dataclass(frozen=True)
class Rules:
    """The rule numbers and switches of a turn.  ``Rules.from_game()`` reads game.toml."""

    chain: bool = True            # two Build cards may stack on each other in one Build
    god_value: int = 7            # a God card's value when farming
    famine_penalty: int = 13      # points lost on famine
    no_build_penalty: int = 7     # points lost when nothing is built
    max_farm_cards: int = 2       # Bid/God cards that may be discarded to Farm
    max_build_cards: int = 2      # cards that may be placed in one Build (0..2)
    max_stage: int = 8            # highest temple value (a God builds as 1..max_stage)

    @classmethod
    def from_game(cls, deck: Deck | None = None) -> "Rules":
        deck = deck or load_deck()
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in deck.numbers if k in known}
        return cls(max_stage=deck.max_value, **values)

    def with_options(self, **changes) -> "Rules":
        return replace(self, **changes)


# Rule options a user may switch (name -> type); `kitgen solve --rule name=value`.
SWITCHES: dict[str, type] = {
    "chain": bool, "god_value": int, "famine_penalty": int, "no_build_penalty": int,
    "max_farm_cards": int, "max_build_cards": int,
}


# --- plans -------------------------------------------------------------------

@dataclass(frozen=True)
class Placement:
    """One Build card: ``card`` placed as ``value`` on temple number ``temple`` (from 1)."""

    card: str
    value: int
    temple: int

    def to_json(self) -> dict:
        return {"card": self.card, "value": self.value, "temple": self.temple}


@dataclass(frozen=True)
class TurnPlan:
    """A Farm and Build play and what it scores this turn."""

    outcome: str                      # BUILT | UNABLE | FAMINE
    points: int                       # score change: values placed, -7 or -13
    farm: tuple[str, ...]             # card names discarded to Farm (empty on famine)
    build: tuple[Placement, ...]      # placements in the order played

    def to_json(self) -> dict:
        return {"outcome": self.outcome, "points": self.points, "farm": list(self.farm),
                "build": [p.to_json() for p in self.build]}


class PlanKey(NamedTuple):
    """The lexicographic preference order of plans: smaller is better.

    The first four fields are the rulings; two plans equal on them are both
    optimal.  The rest break ties deterministically.
    """

    famine: int          # 1 on famine
    points: int          # minus the points
    farm_cards: int      # cards spent on Farm
    farm_value: int      # their values, God = 9, Maize = 10
    build_cards: int     # fewer Build cards for the same points keeps cards in hand
    build_gods: int      # keep wild cards
    farm_spread: int     # sum of squared Farm values: spend even pairs (4+4 before 3+5)
    placement: tuple     # ((temple, is_god), ...): earliest temples first, Bid before God


OPTIMAL_FIELDS = 4  # PlanKey fields that define optimality
RULE_TEXT = {
    "famine": "it avoids famine",
    "points": "it scores more points",
    "farm_cards": "it spends fewer cards on Farm",
    "farm_value": "it spends less value on Farm (a God counts 9, Maize 10)",
    "build_cards": "tie-break: it scores the same with fewer Build cards",
    "build_gods": "tie-break: it builds with fewer God cards",
    "farm_spread": "tie-break: its Farm cards are closer in value",
    "placement": "tie-break: it builds on earlier temples, Bid cards before God cards",
}


def farm_cost(kind: Kind) -> int:
    if kind == GOD:
        return GOD_FARM_COST
    if kind == MAIZE:
        return MAIZE_FARM_COST
    return int(kind)


def plan_key(plan: TurnPlan, deck: Deck | None = None) -> PlanKey:
    """The preference key of a plan (smaller is better)."""
    deck = deck or load_deck()
    costs = [farm_cost(deck.kind_of(name)) for name in plan.farm]
    gods = [int(deck.kind_of(p.card) == GOD) for p in plan.build]
    return PlanKey(
        famine=int(plan.outcome == FAMINE), points=-plan.points, farm_cards=len(plan.farm),
        farm_value=sum(costs), build_cards=len(plan.build), build_gods=sum(gods),
        farm_spread=sum(c * c for c in costs),
        placement=tuple((p.temple, g) for p, g in zip(plan.build, gods)))


def deciding_rule(best: PlanKey, other: PlanKey) -> str:
    """The name of the first field where ``best`` beats ``other`` ("" if they are equal)."""
    for name, a, b in zip(PlanKey._fields, best, other):
        if a != b:
            return name
    return ""


def canonical_build(build: Sequence[Placement], temples: Sequence[int],
                    deck: Deck | None = None) -> tuple[Placement, ...]:
    """The same Build in its preferred order.

    Two placements that do not stack on each other can be played in either
    order; both orders are the same play, and the one with the smaller
    ``placement`` key is kept (two new temples are renumbered accordingly).
    """
    build = tuple(build)
    if len(build) != 2 or build[0].temple == build[1].temple:
        return build
    deck = deck or load_deck()
    first, second = build
    new = len(temples) + 1
    if first.value == 1 and second.value == 1:  # two new temples: swap their numbers
        swapped = (replace(second, temple=new), replace(first, temple=new + 1))
    else:
        swapped = (second, first)

    def key(b):
        return tuple((p.temple, deck.kind_of(p.card) == GOD) for p in b)

    return min(build, swapped, key=key)


# --- legality ----------------------------------------------------------------

@dataclass(frozen=True)
class PlayCheck:
    """Whether a play is legal; if so, the plan with its outcome and points."""

    legal: bool
    reason: str                    # why it is illegal ("" when legal)
    plan: TurnPlan | None = None   # the play with its true outcome and points, when legal

    @property
    def points(self) -> int | None:
        return self.plan.points if self.plan else None


def farm_value(names: Sequence[str], rules: Rules, deck: Deck) -> int:
    """What Bid/God cards are worth when farming (God = god_value)."""
    return sum(rules.god_value if deck.kind_of(n) == GOD else int(deck.kind_of(n)) for n in names)


def is_building_card(kind: Kind) -> bool:
    return kind == GOD or isinstance(kind, int)


def can_farm(hand: Sequence[str], population: int, rules: Rules | None = None,
             deck: Deck | None = None) -> bool:
    """Whether any legal Farm discard exists (Maize, or the best max_farm_cards Bid/God cards)."""
    rules, deck = rules or Rules.from_game(), deck or load_deck()
    kinds = [deck.kind_of(n) for n in hand]
    if MAIZE in kinds:
        return True
    values = sorted((rules.god_value if k == GOD else k for k in kinds if is_building_card(k)),
                    reverse=True)
    return bool(values) and sum(values[:rules.max_farm_cards]) >= population


def possible_farm(hand: Sequence[str], population: int, rules: Rules | None = None,
                  deck: Deck | None = None) -> tuple[str, ...] | None:
    """The cheapest legal Farm discard for this hand (fewest cards, then lowest cost), or None."""
    rules, deck = rules or Rules.from_game(), deck or load_deck()
    options = [(n,) for n in set(hand) if deck.kind_of(n) == MAIZE]
    cards = [n for n in sorted(hand, key=deck.sort_key) if is_building_card(deck.kind_of(n))]
    for size in range(1, rules.max_farm_cards + 1):
        options += [c for c in combinations(cards, size) if farm_value(c, rules, deck) >= population]
    if not options:
        return None
    return min(options, key=lambda c: (len(c), sum(farm_cost(deck.kind_of(n)) for n in c)))


def check_play(hand: Sequence[str], population: int, temples: Sequence[int],
               farm: Sequence[str], build: Sequence[Placement],
               rules: Rules | None = None, deck: Deck | None = None) -> PlayCheck:
    """Is this Farm discard and Build legal for the hand, Population and temples?

    ``farm`` empty means the player declares famine (legal only when no Farm
    is possible).  Returns a :class:`PlayCheck` whose ``plan`` carries the
    outcome and points the play really earns.
    """
    rules, deck = rules or Rules.from_game(), deck or load_deck()
    farm, build = tuple(farm), tuple(build)

    def illegal(reason: str) -> PlayCheck:
        return PlayCheck(False, reason)

    held, used = Counter(hand), Counter(farm) + Counter(p.card for p in build)
    for name, n in used.items():
        if n > held[name]:
            have = f"only {held[name]}" if held[name] else "none"
            return illegal(f"the play uses {n} {name} but the hand holds {have}")

    # Farm
    if not farm:
        if build:
            return illegal("without a Farm discard the game ends in famine: nothing can be built")
        feed = possible_farm(hand, population, rules, deck)
        if feed:
            return illegal(f"famine is only for when no Farm is possible, but {' + '.join(feed)} "
                           f"feeds Population {population}")
        return PlayCheck(True, "", TurnPlan(FAMINE, -rules.famine_penalty, (), ()))
    kinds = [deck.kind_of(n) for n in farm]
    if MAIZE in kinds:
        if len(farm) > 1:
            return illegal("Maize pays for the Farm on its own: discard it alone")
    else:
        for name, kind in zip(farm, kinds):
            if not is_building_card(kind):
                return illegal(f"{name} is a Trade card: Farm takes Bid or God cards, or Maize alone")
        if len(farm) > rules.max_farm_cards:
            return illegal(f"Farm takes at most {rules.max_farm_cards} cards, not {len(farm)}")
        total = farm_value(farm, rules, deck)
        if total < population:
            return illegal(f"Farm {' + '.join(farm)} is worth {total}, less than Population {population}")

    # Build
    if len(build) > rules.max_build_cards:
        return illegal(f"Build places at most {rules.max_build_cards} cards, not {len(build)}")
    tops, touched = list(temples), set()
    for p in build:
        kind = deck.kind_of(p.card)
        if not is_building_card(kind):
            return illegal(f"{p.card} is a Trade card and cannot be built")
        if kind == GOD:
            if not 1 <= p.value <= rules.max_stage:
                return illegal(f"{p.card} builds as a value from 1 to {rules.max_stage}, not {p.value}")
        elif p.value != kind:
            return illegal(f"{p.card} has value {kind}, not {p.value}")
        if p.value == 1:
            if p.temple != len(tops) + 1:
                return illegal(f"a value-1 card starts a new temple, which is number {len(tops) + 1}, "
                               f"not {p.temple}")
            tops.append(1)
        else:
            if p.temple == len(tops) + 1:
                return illegal(f"{p.card} cannot start a new temple: only a value-1 card does")
            if not 1 <= p.temple <= len(tops):
                return illegal(f"there is no temple {p.temple} for {p.card} "
                               f"({len(tops)} temple{'s' if len(tops) != 1 else ''} on the table)")
            top = tops[p.temple - 1]
            if top != p.value - 1:
                return illegal(f"temple {p.temple} is topped by a {top}; a {p.value} goes on a "
                               f"temple topped by a {p.value - 1}")
            if p.temple in touched and not rules.chain:
                return illegal(f"chaining is off: temple {p.temple} was already built on in this Build")
            tops[p.temple - 1] = p.value
        touched.add(p.temple)
    if build:
        plan = TurnPlan(BUILT, sum(p.value for p in build), farm, build)
    else:
        plan = TurnPlan(UNABLE, -rules.no_build_penalty, farm, ())
    return PlayCheck(True, "", plan)


def temples_after(temples: Sequence[int], build: Sequence[Placement]) -> list[int]:
    """The temple tops after a (legal) Build."""
    tops = list(temples)
    for p in build:
        if p.temple == len(tops) + 1:
            tops.append(p.value)
        else:
            tops[p.temple - 1] = p.value
    return tops


def plan_from_kinds(hand: Sequence[str], farm: Sequence[Kind], build: Sequence[tuple[Kind, int, int]],
                    outcome: str, points: int, deck: Deck | None = None) -> TurnPlan:
    """Name the cards of a plan given by kinds.

    ``farm`` lists kinds (Bid values, GOD, MAIZE); ``build`` lists
    ``(kind, value, temple)``.  Cards of a kind are taken from the hand in deck
    order, Farm first, so identical plans always come out with the same names.
    """
    deck = deck or load_deck()
    pools: dict[Kind, list[str]] = {}
    for name in sorted(hand, key=deck.sort_key):
        pools.setdefault(deck.kind_of(name), []).append(name)
    taken = {kind: iter(names) for kind, names in pools.items()}
    farm_names = tuple(next(taken[k]) for k in sorted(farm, key=_kind_order))
    placements = tuple(Placement(next(taken[k]), value, temple) for k, value, temple in build)
    return TurnPlan(outcome, points, farm_names, placements)


def _kind_order(kind: Kind) -> int:
    return farm_cost(kind)
