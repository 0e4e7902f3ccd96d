"""Exhaustive pure-Python reference for the Altun Ha turn solver.

It enumerates every legal Farm discard and every legal Build from what is
left, by kinds of card (identical cards are not told apart), and ranks them
with :func:`solver.altunha.rules.plan_key`.  It shares no code with the
CP-SAT model or the simulator's enumerator, and no legality with the rules
model: it takes from there only names, the canonical order and the key.
Building nothing costs the no-build penalty when no Build was possible, or
when the ``penalty_if_declined`` ruling says so.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations_with_replacement, takewhile

from solver.altunha.cards import FEED, GOD, load_deck
from solver.altunha.rules import (
    BUILT,
    CardPlacement,
    DEFAULT_PREFERENCE,
    DECLINED,
    FAMINE,
    OPTIMAL_FIELDS,
    UNABLE,
    Rules,
    canonical_build,
    farm_cost,
    plan_from_kinds,
    plan_key,
)


def _farms(counts: Counter, population: int, rules: Rules):
    """Every legal Farm discard as a tuple of kinds."""
    if counts[FEED]:
        yield (FEED,)
    kinds = sorted((k for k in counts if k == GOD or isinstance(k, int)), key=lambda k: farm_cost(k, rules.max_stage))
    for size in range(1, rules.max_farm_cards + 1):
        for combo in combinations_with_replacement(kinds, size):
            need = Counter(combo)
            if any(need[k] > counts[k] for k in need):
                continue
            value = sum(rules.god_value if k == GOD else k for k in combo)
            if value >= population:
                yield combo
            if counts[FEED] and not rules.feed_alone and size < rules.max_farm_cards:
                yield combo + (FEED,)     # Maize pays; the cards with it are lost


def _builds(counts: Counter, tops: list[int], touched: frozenset, rules: Rules, left: int):
    """Every Build sequence ((kind, value, temple), ...) from these cards, including none (a list)."""
    found = [()]
    if left == 0:
        return found
    kinds = [k for k in counts if counts[k] and (k == GOD or isinstance(k, int))]
    for kind in kinds:
        values = range(1, rules.max_stage + 1) if kind == GOD else (kind,)
        for value in values:
            if value == 1:
                targets = [len(tops) + 1]
            else:
                targets = [i + 1 for i, top in enumerate(tops) if top == value - 1
                           and (rules.chain or i + 1 not in touched)]
            for temple in targets:
                new_tops = list(tops)
                if temple > len(tops):
                    new_tops.append(value)
                else:
                    new_tops[temple - 1] = value
                rest = dict(counts)         # a plain copy: Counter's own copy costs several times more
                rest[kind] -= 1
                first = ((kind, value, temple),)
                found += [first + more for more in _builds(rest, new_tops, touched | {temple}, rules, left - 1)]
    return found


def all_plans(hand, population, temples, rules: Rules | None = None, preference: str = DEFAULT_PREFERENCE,
              feed_allowed: bool = True):
    """Every distinct legal plan, best first (under ``preference`` among plans of equal points)."""
    return list(_ranked(hand, population, temples, rules, preference, feed_allowed))


def _ranked(hand, population, temples, rules, preference, feed_allowed=True) -> "_Ranked":
    return _all_plans(tuple(hand), population, tuple(temples), rules or Rules.from_game(), preference, feed_allowed)


class _Ranked:
    """Every distinct legal plan, best first, named and keyed one group of equal (famine, points) at a time:
    a question of the best plan, the optimal plans or the best with another Farm reads the first groups
    only.  The groups come in the order of those two leading fields of :func:`plan_key`, and each group
    is sorted by the whole key, so the order is that of one sort by the whole key over every plan (a
    stable sort: plans of equal keys stay in the order they were found)."""

    def __init__(self, hand, groups, preference):
        self.hand, self.preference, self.deck = hand, preference, load_deck()
        self.groups = [specs for _, specs in sorted(groups.items())]
        self.done: list[list] = []

    def group(self, i: int) -> list:
        while len(self.done) <= i:
            plans = [plan_from_kinds(self.hand, *spec, self.deck) for spec in self.groups[len(self.done)]]
            plans.sort(key=lambda p: plan_key(p, self.deck, self.preference))
            self.done.append(plans)
        return self.done[i]

    def __iter__(self):
        for i in range(len(self.groups)):
            yield from self.group(i)

    def first(self):
        return self.group(0)[0]


@lru_cache(maxsize=8)       # a property test asks for the plans of one position several times
def _all_plans(hand, population, temples, rules: Rules, preference: str, feed_allowed: bool) -> _Ranked:
    deck = load_deck()
    counts = Counter(deck.kind_of(n) for n in hand)
    if not feed_allowed:
        counts[FEED] = 0
    plans = {}
    farms = list(_farms(counts, population, rules))
    if not farms:
        return _Ranked(hand, {(1, rules.famine_penalty): [((), (), FAMINE, -rules.famine_penalty)]}, preference)
    # a representative card of each kind, so that a Build's canonical order is found before its
    # cards are named: two orders of one Build, or two God cards swapped, are the same play
    sample = {deck.kind_of(n): n for n in hand}
    canonical = {}              # a two-card Build in its canonical order, found once whatever Farm leaves it
    left_by = {}                # the Builds of the cards a Farm leaves: a Farm with Maize and one without leave
    for farm in farms:          # the same Bid and God cards, and Builds use only those
        rest = counts - Counter(farm)
        cards = frozenset((k, n) for k, n in rest.items() if k == GOD or isinstance(k, int))
        if cards not in left_by:
            left_by[cards] = list(_builds(rest, list(temples), frozenset(), rules, rules.max_build_cards))
        builds = left_by[cards]
        farm_key = tuple(sorted(map(str, farm)))
        for build in builds:
            if len(build) == 2:
                if build not in canonical:
                    placed = canonical_build([CardPlacement(sample[k], v, t) for k, v, t in build], temples, deck)
                    canonical[build] = tuple((deck.kind_of(p.card), p.value, p.temple) for p in placed)
                build = canonical[build]
            kinds = (farm_key, tuple((str(k), v, t) for k, v, t in build))
            if kinds in plans:
                continue
            if build:
                outcome, points = BUILT, sum(v for _, v, _ in build)
            elif len(builds) > 1:   # something could have been built
                outcome, points = DECLINED, -rules.no_build_penalty if rules.penalty_if_declined else 0
            else:
                outcome, points = UNABLE, -rules.no_build_penalty
            plans[kinds] = (farm, build, outcome, points)
    groups = {}                 # by the key's leading fields (famine, -points), each in the order found
    for spec in plans.values():
        groups.setdefault((int(spec[2] == FAMINE), -spec[3]), []).append(spec)
    return _Ranked(hand, groups, preference)


def best_plan(hand, population, temples, rules: Rules | None = None, preference: str = DEFAULT_PREFERENCE):
    return _ranked(hand, population, temples, rules, preference).first()


def optimal_plans(hand, population, temples, rules: Rules | None = None, preference: str = DEFAULT_PREFERENCE):
    """Every plan with the most points (the rules' fields of the key: famine, points)."""
    deck = load_deck()
    plans = _ranked(hand, population, temples, rules, preference)
    best = plan_key(plans.first(), deck)[:OPTIMAL_FIELDS]
    # the rules' fields lead the key under any preference: the optimal plans come first
    return list(takewhile(lambda p: plan_key(p, deck)[:OPTIMAL_FIELDS] == best, plans))


def best_with_other_farm(hand, population, temples, rules: Rules | None = None,
                         preference: str = DEFAULT_PREFERENCE):
    """The best plan whose Farm discards other kinds of card than the best plan's, or None."""
    deck = load_deck()
    plans = _ranked(hand, population, temples, rules, preference)
    best = plans.first()
    if best.outcome == FAMINE:
        return None

    def kinds(plan):
        return Counter(deck.kind_of(n) for n in plan.farm)

    return next((p for p in plans if kinds(p) != kinds(best)), None)
