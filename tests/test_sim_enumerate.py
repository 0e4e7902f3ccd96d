"""The simulator's fast Farm/Build enumerator agrees with the CP-SAT turn solver."""

import random

import pytest

from solver.altunha.cards import GOD as SOLVER_GOD
from solver.altunha.cards import MAIZE as SOLVER_MAIZE
from solver.altunha.cards import load_deck
from solver.altunha.rules import Rules as SolverRules
from solver.altunha.rules import plan_key
from solver.altunha.sim.enumerate import GOD, MAIZE, Config, best_turn, can_feed
from solver.altunha.solve import solve_turn

DECK = [c.name for c in load_deck().cards for _ in range(c.count)]


def summary(hand):
    deck = load_deck()
    values, gods, maize = [], 0, False
    for name in hand:
        kind = deck.kind_of(name)
        if kind == SOLVER_GOD:
            gods += 1
        elif kind == SOLVER_MAIZE:
            maize = True
        elif isinstance(kind, int):
            values.append(kind)
    return values, gods, maize


def my_key(turn):
    """The first seven fields of the solver's PlanKey, computed from the enumerator's answer."""
    cost = {GOD: 9, MAIZE: 10}
    costs = [cost.get(t, t) for t in turn.farm]
    return (int(turn.outcome == "famine"), -turn.points, len(turn.farm), sum(costs), len(turn.build),
            sum(1 for t, _ in turn.build if t == GOD), sum(c * c for c in costs))


def random_position(rng):
    hand = rng.sample(DECK, rng.randint(3, 12))
    temples = [rng.randint(1, 8) for _ in range(rng.randint(0, 6))]
    return hand, rng.randint(3, 16), temples


@pytest.mark.parametrize("chain", [True, False])
def test_agrees_with_cpsat_on_random_positions(chain):
    rng = random.Random(42 if chain else 43)
    cfg = Config(chain=chain)
    rules = SolverRules(chain=chain)
    for _ in range(250):
        hand, population, temples = random_position(rng)
        plan = solve_turn(hand, population, temples, rules)
        values, gods, maize = summary(hand)
        turn = best_turn(values, gods, maize, population, temples, cfg)
        assert turn.outcome == {"built": "built", "unable_to_build": "unable_to_build",
                                "famine": "famine"}[plan.outcome], (hand, population, temples)
        assert turn.points == plan.points, (hand, population, temples)
        assert my_key(turn) == tuple(plan_key(plan))[:7], (hand, population, temples)


def test_chain_of_one_then_two_on_a_new_temple():
    turn = best_turn([1, 2, 5], 0, False, 5, [], Config())
    assert turn.farm == (5,)
    assert turn.build == ((1, 1), (2, 2))
    assert turn.points == 3
    assert best_turn([1, 2, 5], 0, False, 5, [], Config(chain=False)).points == 1


def test_god_builds_as_eight_on_a_seven():
    turn = best_turn([6, 7], 1, False, 6, [7], Config())
    # the 6 feeds (Population 6); the God goes on the 7 as an 8; the 7 cannot go anywhere
    assert turn.farm == (6,)
    assert turn.build == ((GOD, 8),)
    assert turn.points == 8


def test_maize_is_spent_only_when_nothing_plainer_feeds():
    # a 6 feeds Population 6 and the 3 builds either way: keep Maize
    assert best_turn([6, 3], 0, True, 6, [2], Config()).farm == (6,)
    # but Maize is spent when farming with Bid cards would cost the Build its points
    assert best_turn([3, 4], 0, True, 7, [2], Config()).farm == (MAIZE,)
    assert best_turn([3], 0, True, 12, [2], Config()).farm == (MAIZE,)


def test_famine_and_unable_to_build():
    assert best_turn([2, 3], 0, False, 9, [], Config()).outcome == "famine"
    assert best_turn([2, 3], 0, False, 9, [], Config()).points == -13
    unable = best_turn([5, 4], 0, False, 4, [], Config())
    assert (unable.outcome, unable.points) == ("unable_to_build", -7)
    assert not can_feed([2, 3], 0, False, 9)
    assert can_feed([2, 3], 0, True, 30)
    assert can_feed([8], 1, False, 15)
