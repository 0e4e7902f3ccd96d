"""The turn solver's public API.

>>> plan = solve_turn(["Stage", "Stairs", "Sun God"], population=7, temples=[2, 3])
>>> plan.points
7

Hands may use anything :func:`solver.altunha.parse.parse_hand` reads (names in
any case, accents optional, ``"3"`` for the Bid card of value 3, ``"God"`` for
any God card).  Bad input raises :class:`kitgen.errors.KitgenError`.  ``game``
names the game whose deck is played (a built-in slug or a game folder that
uses Altun Ha's rules); it defaults to Altun Ha.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from solver.altunha.cards import Deck, load_deck
from solver.altunha.parse import check_population, parse_hand, parse_temples
from solver.altunha.rules import (
    OPTIMAL_FIELDS,
    PlanKey,
    PlayCheck,
    Rules,
    TurnPlan,
    check_play,
    check_rules,
    deciding_rule,
    plan_key,
)


@dataclass(frozen=True)
class Question:
    """A validated question: a hand of exact card names, Population and temple tops."""

    hand: tuple[str, ...]
    population: int
    temples: tuple[int, ...]
    rules: Rules


@dataclass(frozen=True)
class Answer:
    """The best plan, the runner-up (if any) and the rule that put the best first."""

    question: Question
    plan: TurnPlan
    key: PlanKey
    runner_up: TurnPlan | None
    decided_by: str          # a PlanKey field name; "" when there is no other plan


def question(hand, population: int, temples: Sequence[int] = (), rules: Rules | None = None,
             deck: Deck | None = None) -> Question:
    deck = deck or load_deck()
    rules = Rules.from_game() if rules is None else check_rules(rules, "rules")
    return Question(parse_hand(hand, deck), check_population(population),
                    parse_temples(temples, deck.max_value, deck=deck),
                    rules)


def _model(q: Question, deck: Deck):
    from solver.altunha.cpsat_model import assemble

    return assemble(q.hand, q.population, q.temples, q.rules, deck)


def solve_turn(hand, population: int, temples: Sequence[int] = (), rules: Rules | None = None,
               game: str = "altun-ha", deck: Deck | None = None) -> TurnPlan:
    """The optimal Farm and Build play (ties broken deterministically)."""
    from solver.altunha.cpsat_model import solve_model

    deck = deck if deck is not None else load_deck(game)
    q = question(hand, population, temples, rules, deck)
    return solve_model(_model(q, deck))[0]


def explain_turn(hand, population: int, temples: Sequence[int] = (), rules: Rules | None = None,
                 game: str = "altun-ha", deck: Deck | None = None) -> Answer:
    """The optimal play, the next best play and which rule decided between them."""
    from solver.altunha.cpsat_model import next_best, solve_model

    deck = deck if deck is not None else load_deck(game)
    q = question(hand, population, temples, rules, deck)
    tm = _model(q, deck)
    plan, objective = solve_model(tm)
    runner = next_best(tm, objective)
    key = plan_key(plan, deck)
    decided = deciding_rule(key, plan_key(runner, deck)) if runner else ""
    return Answer(q, plan, key, runner, decided)


def all_optimal_plans(hand, population: int, temples: Sequence[int] = (),
                      rules: Rules | None = None, game: str = "altun-ha", deck: Deck | None = None) -> list[TurnPlan]:
    """Every optimal play (equal on the rulings), preferred first; identical cards count once."""
    from solver.altunha.cpsat_model import enumerate_optimal, solve_model

    deck = deck if deck is not None else load_deck(game)
    q = question(hand, population, temples, rules, deck)
    best = solve_model(_model(q, deck))[0]
    plans = enumerate_optimal(_model(q, deck), plan_key(best, deck))
    return sorted(plans, key=lambda p: plan_key(p, deck))


@dataclass(frozen=True)
class PlayReport:
    """A proposed play judged against the optimum."""

    check: PlayCheck
    best: TurnPlan
    gap: int | None            # best points minus the play's points (None when illegal)
    optimal: bool              # equal to the best on the rulings

    def to_json(self) -> dict:
        """The verdict as ``kitgen solve --play ... --json`` prints it."""
        return {"legal": self.check.legal, "reason": self.check.reason,
                "play": self.check.plan.to_json() if self.check.plan else None,
                "points": self.check.points, "best": self.best.to_json(),
                "gap": self.gap, "optimal": self.optimal}


def judge_play(hand, population: int, temples: Sequence[int], farm: Sequence[str],
               build, rules: Rules | None = None, game: str = "altun-ha", deck: Deck | None = None) -> PlayReport:
    """Check a play (farm card names, build placements) and compare it with the best play."""
    deck = deck if deck is not None else load_deck(game)
    q = question(hand, population, temples, rules, deck)
    result = check_play(q.hand, q.population, q.temples, farm, build, q.rules, deck)
    best = solve_turn(q.hand, q.population, q.temples, q.rules, game, deck)
    if not result.legal:
        return PlayReport(result, best, None, False)
    gap = best.points - result.plan.points
    same = plan_key(result.plan, deck)[:OPTIMAL_FIELDS] == plan_key(best, deck)[:OPTIMAL_FIELDS]
    return PlayReport(result, best, gap, same)
