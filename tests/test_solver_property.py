"""CP-SAT answers agree with the exhaustive reference on random positions."""

import random

from hypothesis import given
from hypothesis import strategies as st

from solver.altunha.cards import load_deck
from solver.altunha.rules import Rules, check_play, plan_key
from solver.altunha.solve import explain_turn, solve_turn
from tests import solver_reference as ref

DECK = load_deck()
POOL = [c.name for c in DECK.cards for _ in range(c.count)]
RULES = Rules.from_game()
NO_CHAIN = RULES.with_options(chain=False)


@st.composite
def positions(draw, max_hand=12):
    seed = draw(st.integers(0, 2**32 - 1))
    rng = random.Random(seed)
    hand = rng.sample(POOL, draw(st.integers(0, max_hand)))
    temples = [draw(st.integers(1, 8)) for _ in range(draw(st.integers(0, 6)))]
    population = draw(st.integers(1, 18))
    chain = draw(st.booleans())
    return hand, population, temples, chain


@given(positions())
def test_cpsat_agrees_with_exhaustive_reference(position):
    hand, population, temples, chain = position
    rules = RULES if chain else NO_CHAIN
    plan = solve_turn(hand, population, temples, rules)
    best = ref.best_plan(tuple(sorted(hand, key=DECK.sort_key)), population, temples, rules)
    assert (plan.outcome, plan.points) == (best.outcome, best.points)
    # the same plan under every tie-break
    assert plan_key(plan, DECK) == plan_key(best, DECK)
    check = check_play(hand, population, temples, plan.farm, plan.build, rules, DECK)
    assert check.legal, check.reason
    assert check.plan.points == plan.points and check.plan.outcome == plan.outcome


def _assert_runner_up_is_next_legal_play(position):
    hand, population, temples, chain = position
    rules = RULES if chain else NO_CHAIN
    answer = explain_turn(hand, population, temples, rules)
    plans = ref.all_plans(tuple(sorted(hand, key=DECK.sort_key)), population, temples, rules)
    best = plan_key(plans[0], DECK)
    worse = [plan_key(p, DECK) for p in plans if plan_key(p, DECK) > best]
    runner = answer.runner_up
    if not worse:
        assert runner is None
        return
    assert runner is not None
    check = check_play(hand, population, temples, runner.farm, runner.build, rules, DECK)
    assert check.legal, check.reason
    assert (check.plan.outcome, check.plan.points) == (runner.outcome, runner.points)
    assert plan_key(runner, DECK) == worse[0]


@given(positions())
def test_runner_up_is_the_next_legal_play(position):
    _assert_runner_up_is_next_legal_play(position)


@given(positions(max_hand=3))
def test_runner_up_of_small_hands_is_the_next_legal_play(position):
    # small hands often have a single non-famine play, where famine used to come second
    _assert_runner_up_is_next_legal_play(position)
