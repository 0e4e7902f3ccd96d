"""The turn solver's public API.

>>> plan = solve_turn(["Stage", "Stairs", "Sun God"], population=7, temples=[2, 3])
>>> plan.points
7

Hands may use anything :func:`solver.altunha.parse.parse_hand` reads (names in
any case, accents optional, ``"3"`` for the Bid card of value 3, ``"God"`` for
any God card).  Bad input raises :class:`kitgen.errors.KitgenError`.  ``game``
names the game whose deck is played (a built-in slug or a game folder that
uses Altun Ha's rules); it defaults to Altun Ha.

The rules decide which plays are optimal: those with the most points.  Among
plays of equal points, ``preference`` (one of
:data:`solver.altunha.rules.PREFERENCES`, not a rule) chooses the one shown
first.  ``traded`` says the player has played a Trade card this round, which
under the ``special_is_trade`` ruling keeps him from feeding with Maize.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from solver.altunha.cards import Deck, load_deck
from solver.altunha.parse import check_population, parse_hand, parse_temples
from solver.altunha.rules import (
    DEFAULT_PREFERENCE,
    OPTIMAL_FIELDS,
    PlanKey,
    PlayCheck,
    Rules,
    TurnPlan,
    check_play,
    check_preference,
    check_rules,
    deciding_rule,
    plan_key,
)


@dataclass(frozen=True)
class Question:
    """A validated question: a hand of exact card names, Population and temple tops, the rules, the
    preference among plays of equal points, and whether the player has played a Trade card this round."""

    hand: tuple[str, ...]
    population: int
    temples: tuple[int, ...]
    rules: Rules
    preference: str = DEFAULT_PREFERENCE
    traded: bool = False

    @property
    def feed_allowed(self) -> bool:
        """Whether the card that feeds alone may be used: not after a Trade card under special_is_trade."""
        return not (self.traded and self.rules.special_is_trade)


@dataclass(frozen=True)
class Answer:
    """The best plan and the best with another Farm (if any), and what put the best first."""

    question: Question
    plan: TurnPlan
    key: PlanKey
    other_farm: TurnPlan | None     # the best play whose Farm discards other cards
    decided_by: str                 # the PlanKey field that puts the best before it; "" without one
    optimal_count: int              # plays with the most points (all optimal by the rules)


def question(hand, population: int, temples: Sequence[int] = (), rules: Rules | None = None,
             deck: Deck | None = None, preference: str = DEFAULT_PREFERENCE, traded: bool = False) -> Question:
    deck = deck or load_deck()
    rules = Rules.from_game() if rules is None else check_rules(rules, "rules")
    return Question(parse_hand(hand, deck), check_population(population),
                    parse_temples(temples, deck.max_value, deck=deck),
                    rules, check_preference(preference), bool(traded))


def model(q: Question, deck: Deck):
    """A fresh CP-SAT model of the question (each search adds its own constraints to one)."""
    from solver.altunha.cpsat_model import assemble

    return assemble(q.hand, q.population, q.temples, q.rules, deck, q.preference, q.feed_allowed)


def best_of(q: Question, deck: Deck) -> TurnPlan:
    return solved(q, deck)[1]


def solved(q: Question, deck: Deck):
    """A model of the question and its best plan.  Solving leaves the model as it was, so the next
    search (which adds its own constraints) can take this model instead of assembling another."""
    from solver.altunha.cpsat_model import solve_model

    tm = model(q, deck)
    return tm, solve_model(tm)[0]


def solve_turn(hand, population: int, temples: Sequence[int] = (), rules: Rules | None = None,
               game: str = "altun-ha", deck: Deck | None = None, preference: str = DEFAULT_PREFERENCE,
               traded: bool = False) -> TurnPlan:
    """The optimal Farm and Build play (the preference, then fixed tie-breaks, choose among equals)."""
    deck = deck if deck is not None else load_deck(game)
    return best_of(question(hand, population, temples, rules, deck, preference, traded), deck)


def explain_question(q: Question, deck: Deck) -> Answer:
    from solver.altunha.cpsat_model import best_with_other_farm, copy_model, enumerate_optimal, farm_kinds

    tm, plan = solved(q, deck)
    key = plan_key(plan, deck, q.preference)
    spare = copy_model(tm)      # the enumeration below changes tm; a third search may need the model as it was
    optimal = enumerate_optimal(tm, key)
    # A play with another Farm and as many points is the best such play: no third solve is needed.
    others = [p for p in optimal if farm_kinds(deck, p.farm) != farm_kinds(deck, plan.farm)]
    if others:
        other = min(others, key=lambda p: plan_key(p, deck, q.preference))
    else:
        other = best_with_other_farm(spare, plan.farm)
    decided = deciding_rule(key, plan_key(other, deck, q.preference)) if other else ""
    return Answer(q, plan, key, other, decided, len(optimal))


def explain_turn(hand, population: int, temples: Sequence[int] = (), rules: Rules | None = None,
                 game: str = "altun-ha", deck: Deck | None = None, preference: str = DEFAULT_PREFERENCE,
                 traded: bool = False) -> Answer:
    """The optimal play, the best play with another Farm, and what put the first before the second."""
    deck = deck if deck is not None else load_deck(game)
    return explain_question(question(hand, population, temples, rules, deck, preference, traded), deck)


def optimal_plans(q: Question, deck: Deck) -> list[TurnPlan]:
    """Every play with the most points (all optimal by the rules), in the preference's order."""
    from solver.altunha.cpsat_model import enumerate_optimal

    tm, best = solved(q, deck)
    plans = enumerate_optimal(tm, plan_key(best, deck, q.preference))
    return sorted(plans, key=lambda p: plan_key(p, deck, q.preference))


def all_optimal_plans(hand, population: int, temples: Sequence[int] = (), rules: Rules | None = None,
                      game: str = "altun-ha", deck: Deck | None = None, preference: str = DEFAULT_PREFERENCE,
                      traded: bool = False) -> list[TurnPlan]:
    """Every play with the most points, in the preference's order; identical cards count once."""
    deck = deck if deck is not None else load_deck(game)
    return optimal_plans(question(hand, population, temples, rules, deck, preference, traded), deck)


@dataclass(frozen=True)
class PlayReport:
    """A proposed play judged against the optimum."""

    check: PlayCheck
    best: TurnPlan
    gap: int | None            # best points minus the play's points (None when illegal)
    optimal: bool              # as many points as the best: optimal by the rules
    nearest: TurnPlan | None = None   # the best play with the play's own Farm (when that Farm is legal)

    def to_json(self) -> dict:
        """The verdict as ``kitgen solve --play ... --json`` prints it."""
        return {"legal": self.check.legal, "reason": self.check.reason,
                "play": self.check.plan.to_json() if self.check.plan else None,
                "points": self.check.points, "best": self.best.to_json(),
                "gap": self.gap, "optimal": self.optimal,
                "nearest": self.nearest.to_json() if self.nearest else None}


def judge_question(q: Question, farm: Sequence[str], build, deck: Deck) -> PlayReport:
    from solver.altunha.cpsat_model import best_with_farm

    result = check_play(q.hand, q.population, q.temples, farm, build, q.rules, deck, q.feed_allowed)
    tm, best = solved(q, deck)
    nearest = best_with_farm(tm, farm) if farm and not _farm_broken(result, q, farm, deck) else None
    if not result.legal:
        return PlayReport(result, best, None, False, nearest)
    gap = best.points - result.plan.points
    same = plan_key(result.plan, deck)[:OPTIMAL_FIELDS] == plan_key(best, deck)[:OPTIMAL_FIELDS]
    return PlayReport(result, best, gap, same, nearest)


def _farm_broken(result: PlayCheck, q: Question, farm: Sequence[str], deck: Deck) -> bool:
    """Whether the Farm part of a play is itself illegal (then no play keeps it)."""
    if result.legal:
        return False
    return not check_play(q.hand, q.population, q.temples, farm, (), q.rules, deck, q.feed_allowed).legal


def judge_play(hand, population: int, temples: Sequence[int], farm: Sequence[str], build,
               rules: Rules | None = None, game: str = "altun-ha", deck: Deck | None = None,
               preference: str = DEFAULT_PREFERENCE, traded: bool = False) -> PlayReport:
    """Check a play (farm card names, build placements) and compare it with the best play."""
    deck = deck if deck is not None else load_deck(game)
    q = question(hand, population, temples, rules, deck, preference, traded)
    return judge_question(q, farm, build, deck)
