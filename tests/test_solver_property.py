"""CP-SAT answers agree with the exhaustive reference on random positions."""

import random

from hypothesis import given
from hypothesis import strategies as st

from solver.altunha.cards import load_deck
from solver.altunha.rules import PREFERENCES, Rules, check_play, plan_key
from solver.altunha.solve import explain_turn, solve_turn
from tests import solver_reference as ref

DECK = load_deck()
POOL = [c.name for c in DECK.cards for _ in range(c.count)]
RULES = Rules.from_game()


# the strategies a position is drawn from, made once: the same draws as strategies made for each
SEEDS, TEMPLES, TEMPLE, POPULATIONS = st.integers(0, 2**32 - 1), st.integers(0, 6), st.integers(1, 8), st.integers(1, 18)
HAND_SIZES = {n: st.integers(0, n) for n in (3, 12)}        # the two bounds the tests draw hands to
PREFERRED = st.sampled_from(sorted(PREFERENCES))


@st.composite
def positions(draw, max_hand=12):
    seed = draw(SEEDS)
    rng = random.Random(seed)
    hand = rng.sample(POOL, draw(HAND_SIZES[max_hand]))
    temples = [draw(TEMPLE) for _ in range(draw(TEMPLES))]
    population = draw(POPULATIONS)
    chain = draw(st.booleans())
    rules = RULES.with_options(chain=chain, feed_alone=draw(st.booleans()))
    preference = draw(PREFERRED)
    return hand, population, temples, rules, preference


@given(positions())
def test_cpsat_agrees_with_exhaustive_reference(position):
    hand, population, temples, rules, preference = position
    plan = solve_turn(hand, population, temples, rules, preference=preference)
    best = ref.best_plan(tuple(sorted(hand, key=DECK.sort_key)), population, temples, rules, preference)
    assert (plan.outcome, plan.points) == (best.outcome, best.points)
    # the same plan under the preference and every tie-break
    assert plan_key(plan, DECK, preference) == plan_key(best, DECK, preference)
    check = check_play(hand, population, temples, plan.farm, plan.build, rules, DECK)
    assert check.legal, check.reason
    assert check.plan.points == plan.points and check.plan.outcome == plan.outcome


def _assert_other_farm_is_the_best_with_another_farm(position):
    hand, population, temples, rules, preference = position
    hand = tuple(sorted(hand, key=DECK.sort_key))
    answer = explain_turn(hand, population, temples, rules, preference=preference)
    expected = ref.best_with_other_farm(hand, population, temples, rules, preference)
    other = answer.other_farm
    if expected is None:
        assert other is None
        return
    assert other is not None
    check = check_play(hand, population, temples, other.farm, other.build, rules, DECK)
    assert check.legal, check.reason
    assert (check.plan.outcome, check.plan.points) == (other.outcome, other.points)
    assert plan_key(other, DECK, preference) == plan_key(expected, DECK, preference)
    # and every play with the most points is counted once
    assert answer.optimal_count == len(ref.optimal_plans(hand, population, temples, rules, preference))


@given(positions())
def test_the_other_farm_is_the_best_play_with_another_farm(position):
    _assert_other_farm_is_the_best_with_another_farm(position)


@given(positions(max_hand=3))
def test_the_other_farm_of_small_hands(position):
    # small hands often have a single Farm, or none
    _assert_other_farm_is_the_best_with_another_farm(position)
