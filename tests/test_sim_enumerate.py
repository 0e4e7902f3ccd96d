"""The simulator's fast Farm/Build enumerator agrees with the CP-SAT turn solver, under the same rules."""

import random

import pytest

from solver.altunha.cards import load_deck
from solver.altunha.rules import FEWER_CARDS, Rules, can_feed, hand_counts, plan_key
from solver.altunha.sim.enumerate import FEED, GOD, best_bid, best_turn
from solver.altunha.solve import solve_turn

RULES = Rules.from_game()

DECK = [c.name for c in load_deck().cards for _ in range(c.count)]


def summary(hand):
    return hand_counts(hand, load_deck())


FIELDS = ("famine", "points", "farm_cards", "farm_value", "build_cards", "build_gods", "farm_spread")


def my_key(turn):
    """The solver's PlanKey fields of the fewer_cards preference, computed from the enumerator's answer: a God
    farmed costs one more than the highest Bid card, Maize one more again."""
    top = load_deck().max_value
    cost = {GOD: top + 1, FEED: top + 2}
    costs = [cost.get(t, t) for t in turn.farm]
    return (int(turn.outcome == "famine"), -turn.points, len(turn.farm), sum(costs), len(turn.build),
            sum(1 for t, _ in turn.build if t == GOD), sum(c * c for c in costs))


def solver_key(plan):
    key = plan_key(plan, preference=FEWER_CARDS)
    return tuple(getattr(key, field) for field in FIELDS)


def random_position(rng):
    hand = rng.sample(DECK, rng.randint(3, 12))
    temples = [rng.randint(1, 8) for _ in range(rng.randint(0, 6))]
    return hand, rng.randint(3, 16), temples


@pytest.mark.parametrize("chain", [True, False])
def test_agrees_with_cpsat_on_random_positions(chain):
    rng = random.Random(42 if chain else 43)
    rules = RULES.with_options(chain=chain)
    for _ in range(250):
        hand, population, temples = random_position(rng)
        plan = solve_turn(hand, population, temples, rules, preference=FEWER_CARDS)
        values, gods, maize = summary(hand)
        turn = best_turn(values, gods, maize, population, temples, rules)
        assert turn.outcome == plan.outcome, (hand, population, temples)
        assert turn.points == plan.points, (hand, population, temples)
        assert my_key(turn) == solver_key(plan), (hand, population, temples)


def test_chain_of_one_then_two_on_a_new_temple():
    turn = best_turn([1, 2, 5], 0, False, 5, [], RULES)
    assert turn.farm == (5,)
    assert turn.build == ((1, 1), (2, 2))
    assert turn.points == 3
    assert best_turn([1, 2, 5], 0, False, 5, [], RULES.with_options(chain=False)).points == 1


def test_god_builds_as_eight_on_a_seven():
    turn = best_turn([6, 7], 1, False, 6, [7], RULES)
    # the 6 feeds (Population 6); the God goes on the 7 as an 8; the 7 cannot go anywhere
    assert turn.farm == (6,)
    assert turn.build == ((GOD, 8),)
    assert turn.points == 8


def test_maize_is_spent_only_when_nothing_plainer_feeds():
    # a 6 feeds Population 6 and the 3 builds either way: keep Maize
    assert best_turn([6, 3], 0, True, 6, [2], RULES).farm == (6,)
    # but Maize is spent when farming with Bid cards would cost the Build its points
    assert best_turn([3, 4], 0, True, 7, [2], RULES).farm == (FEED,)
    assert best_turn([3], 0, True, 12, [2], RULES).farm == (FEED,)


def test_famine_and_unable_to_build():
    assert best_turn([2, 3], 0, False, 9, [], RULES).outcome == "famine"
    assert best_turn([2, 3], 0, False, 9, [], RULES).points == -13
    unable = best_turn([5, 4], 0, False, 4, [], RULES)
    assert (unable.outcome, unable.points) == ("unable_to_build", -7)
    assert not can_feed([2, 3], 0, False, 9, RULES)
    assert can_feed([2, 3], 0, True, 30, RULES)
    assert can_feed([8], 1, False, 15, RULES)


def test_greedy_bid_is_the_highest_that_still_feeds_and_builds():
    # Population 7, a temple topped by 3: bidding Altar + Platform (15) leaves 4 and 7 -> farm 7,
    # build the 4 on the 3; the Altar alone would leave more but bids less
    assert best_bid([8, 7, 7, 4], 0, False, 7, [3], RULES, 1) == (7, 8)
    # nothing can be bid without leaving a hand that cannot feed: bid nothing
    assert best_bid([6, 1], 0, False, 6, [], RULES, 1) == ()
    # the feed card pays: every Bid card may go, but one must stay to build
    assert best_bid([8, 1], 0, True, 12, [], RULES, 1) == (8,)


def test_rule_sets_alike_in_what_the_enumerator_reads_share_one_planner():
    """A variant changing other rules (rulings on bids and the end, the starting Population, hand sizes) or
    the deck's make-up plays on the baseline's Planner; one changing what the enumerator reads gets its own.
    The shared Planner holds neutral values in the other fields: its answers are still the enumerator's
    under each rule set itself (a field it read but left out of ENUMERATED would answer differently)."""
    from solver.altunha.cards import FEED as CARD_FEED
    from solver.altunha.cards import GOD as CARD_GOD
    from solver.altunha.sim.enumerate import ENUMERATED, planner_for

    others = RULES.with_options(population_start=9, hand_size=7, tie_drop=not RULES.tie_drop, end_tie="turn_order",
                                empty_bid="never_wins", special_is_trade=not RULES.special_is_trade)
    planner = planner_for(RULES, len(DECK))
    assert planner_for(others, len(DECK) - 3) is planner and planner.r != RULES
    assert planner_for(RULES, 300) is not planner          # a deck that large packs a count in more bits
    for name in ENUMERATED:
        value = getattr(RULES, name)
        changed = RULES.with_options(**{name: (not value) if isinstance(value, bool) else value + 1})
        assert planner_for(changed, len(DECK)) is not planner, name
    rng = random.Random(44)
    for rules in (RULES, others, RULES.with_options(penalty_if_declined=not RULES.penalty_if_declined,
                                                    no_build_penalty=5, famine_penalty=3)):
        shared = planner_for(rules, len(DECK))
        for _ in range(60):
            hand, population, temples = random_position(rng)
            values, gods, maize = summary(hand)
            code = sum(shared.weight(v) for v in values) + gods * shared.weight(CARD_GOD) + \
                maize * shared.weight(CARD_FEED)
            table = shared.table(tuple(temples))
            where = (hand, population, temples)
            assert shared.turn(code, population, table) == best_turn(values, gods, maize, population, temples,
                                                                     rules), where
            for min_points, keep_feed in ((1, False), (3, True)):
                assert shared.bid(code, population, table, min_points, keep_feed) == \
                    best_bid(values, gods, maize, population, temples, rules, min_points, keep_feed), where
