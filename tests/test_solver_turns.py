"""Hand-worked Altun Ha turns: the solver's best play, every optimal play, determinism."""

import random

import pytest

from solver.altunha.rules import CardPlacement as Placement
from solver.altunha.rules import Rules, check_play
from solver.altunha.solve import all_optimal_plans, explain_turn, solve_turn

RULES = Rules.from_game()


def test_rulebook_example_scores_seven():
    # Farm with the God (7 = Population 7), then Stage (3) on the 2 and Stairs (4) on top.
    plan = solve_turn(["Stage", "Stairs", "Sun God"], 7, [2, 3])
    assert plan.outcome == "built" and plan.points == 7
    assert plan.farm == ("Sun God",)
    assert sorted(p.card for p in plan.build) == ["Stage", "Stairs"]


def test_maize_pays_any_population():
    plan = solve_turn(["Maize", "Plaza"], 16, [])
    assert plan.farm == ("Maize",)
    assert plan.build == (Placement("Plaza", 1, 1),) and plan.points == 1


def test_maize_is_kept_when_a_bid_card_will_do():
    # Altar (8) or Maize both feed 8; neither choice changes the Build, so Maize is kept.
    plan = solve_turn(["Maize", "Altar", "Plaza"], 8, [])
    assert plan.farm == ("Altar",) and plan.points == 1


def test_maize_spent_when_it_frees_cards_to_build():
    # Maize feeds, then Altar on the 7 and Platform on the 6: 15 points.
    plan = solve_turn(["Maize", "Altar", "Platform"], 8, [7, 6])
    assert plan.farm == ("Maize",)
    assert plan.points == 15
    assert set(plan.build) == {Placement("Altar", 8, 1), Placement("Platform", 7, 2)}


def test_two_plazas_start_two_temples():
    plan = solve_turn(["Plaza", "Plaza", "Altar"], 8, [])
    assert plan.farm == ("Altar",)
    assert plan.build == (Placement("Plaza", 1, 1), Placement("Plaza", 1, 2))
    assert plan.points == 2
    assert len(all_optimal_plans(["Plaza", "Plaza", "Altar"], 8, [])) == 1


def test_chain_one_then_two_on_a_new_temple():
    plan = solve_turn(["Plaza", "Base", "Altar"], 8, [])
    assert plan.build == (Placement("Plaza", 1, 1), Placement("Base", 2, 1))
    assert plan.points == 3


def test_chain_off_forbids_stacking_in_one_build():
    plan = solve_turn(["Plaza", "Base", "Altar"], 8, [], RULES.with_options(chain=False))
    assert plan.build == (Placement("Plaza", 1, 1),) and plan.points == 1
    # v then v+1 on one existing temple is a chain too
    on = solve_turn(["Stage", "Stairs", "Altar"], 8, [2])
    off = solve_turn(["Stage", "Stairs", "Altar"], 8, [2], RULES.with_options(chain=False))
    assert on.points == 7 and off.points == 3


def test_god_builds_as_one_on_a_new_temple():
    plan = solve_turn(["Sun God", "Altar"], 8, [8])
    assert plan.farm == ("Altar",)
    assert plan.build == (Placement("Sun God", 1, 2),) and plan.points == 1


def test_god_builds_as_eight_on_a_seven():
    plan = solve_turn(["Sun God", "Altar"], 8, [7])
    assert plan.farm == ("Altar",)
    assert plan.build == (Placement("Sun God", 8, 1),) and plan.points == 8


def test_temples_topped_at_eight_take_nothing():
    plan = solve_turn(["Base", "Stage", "Steps", "Altar"], 6, [8, 8])
    assert plan.outcome == "unable_to_build" and plan.points == -7
    assert plan.farm == ("Steps",) and plan.build == ()


def test_farm_needing_exactly_the_population():
    plan = solve_turn(["Stairs", "Stage", "Plaza"], 7, [])
    assert plan.farm == ("Stage", "Stairs") and plan.points == 1
    assert solve_turn(["Stairs", "Stage", "Plaza"], 8, []).outcome == "famine"


@pytest.mark.parametrize("hand, outcome, points", [
    (["Stone", "Salt", "Jade"], "famine", -13),
    (["Maize", "Stone"], "unable_to_build", -7),
    ([], "famine", -13),
])
def test_hands_of_trade_cards(hand, outcome, points):
    plan = solve_turn(hand, 3, [1])
    assert (plan.outcome, plan.points) == (outcome, points)


def test_fewest_farm_cards_then_lowest_value():
    # Altar alone beats Stage + Stairs; nothing can be built either way.
    assert solve_turn(["Altar", "Stage", "Stairs"], 7, []).farm == ("Altar",)
    # Platform (7) is spent before a God (counted 9); the God then builds as a 2 on the Plaza.
    plan = solve_turn(["Platform", "Sun God", "Plaza"], 7, [])
    assert plan.farm == ("Platform",)
    assert plan.build == (Placement("Plaza", 1, 1), Placement("Sun God", 2, 1)) and plan.points == 3


def test_max_build_cards_switch():
    plan = solve_turn(["Plaza", "Base", "Altar"], 8, [], RULES.with_options(max_build_cards=1))
    assert plan.points == 1 and len(plan.build) == 1


def test_all_optimal_plans_lists_each_distinct_play_once():
    plans = all_optimal_plans(["Plaza", "Base", "Platform", "Altar"], 7, [1])
    assert {p.points for p in plans} == {3}
    builds = {p.build for p in plans}
    assert builds == {(Placement("Base", 2, 1), Placement("Plaza", 1, 2)),
                      (Placement("Plaza", 1, 2), Placement("Base", 2, 2))}
    assert all(p.farm == ("Platform",) for p in plans)


def test_answer_is_the_same_whatever_the_hand_order():
    hand = ["Plaza", "Base", "Stage", "Sun God", "Hero Twins", "Platform", "Steps", "Base"]
    first = solve_turn(hand, 9, [1, 2, 5])
    rng = random.Random(3)
    for _ in range(5):
        shuffled = hand[:]
        rng.shuffle(shuffled)
        assert solve_turn(shuffled, 9, [1, 2, 5]) == first


def test_explanation_names_the_deciding_rule():
    answer = explain_turn(["Plaza", "Sun God", "Stairs"], 3, [7])
    assert answer.plan.points == 9            # God as 8 on the 7, Plaza starts a temple
    assert answer.runner_up.points == 8
    assert answer.decided_by == "points"
    famine = explain_turn(["Plaza", "Stone"], 3, [])
    assert famine.runner_up is None and famine.decided_by == ""


def test_digits_and_god_in_hands():
    plan = solve_turn("3,4,god", 7, [2, 3])
    assert plan.points == 7 and plan.farm == ("Sun God",)


def test_rulebook_example_both_sevens_are_optimal():
    # The rulebook's worked example: Stage on A and Stairs on B, or both on A; 7 points each.
    plans = all_optimal_plans(["Stage", "Stairs", "Sun God"], 7, [2, 3])
    assert {p.build for p in plans} == {
        (Placement("Stage", 3, 1), Placement("Stairs", 4, 2)),
        (Placement("Stage", 3, 1), Placement("Stairs", 4, 1)),
    }
    assert all(p.farm == ("Sun God",) and p.points == 7 for p in plans)


@pytest.mark.parametrize("hand, population", [
    (["Maize", "Stone"], 7),          # Maize feeds, nothing to build: the only play
    (["Altar"], 8),                   # the Altar feeds, then nothing is left to build
])
def test_famine_is_no_runner_up_when_a_farm_exists(hand, population):
    answer = explain_turn(hand, population, [])
    assert answer.plan.outcome == "unable_to_build" and answer.plan.points == -7
    assert answer.runner_up is None and answer.decided_by == ""


def test_runner_up_is_a_legal_play_when_it_exists():
    answer = explain_turn(["Maize", "Plaza"], 7, [])
    assert answer.plan.farm == ("Maize",) and answer.plan.points == 1
    runner = answer.runner_up
    # The seed charges the 7 points only to a Priest King unable to build: leaving the Plaza in hand
    # is a choice, worth 0 (before the rulings were read this way the runner-up scored -7).
    assert runner.outcome == "declined_to_build" and runner.farm == ("Maize",) and runner.points == 0
    check = check_play(answer.question.hand, 7, [], runner.farm, runner.build, RULES)
    assert check.legal and check.plan.points == runner.points == 0
    strict = explain_turn(["Maize", "Plaza"], 7, [], RULES.with_options(penalty_if_declined=True))
    assert strict.plan == answer.plan                       # the best play is the same either way
    assert (strict.runner_up.outcome, strict.runner_up.points) == ("declined_to_build", -7)


def test_the_declined_build_switch_never_changes_the_best_play():
    strict = RULES.with_options(penalty_if_declined=True)
    for hand, population, temples in [(["Stage", "Stairs", "Sun God"], 7, [2, 3]), (["Maize", "Altar"], 8, [7]),
                                      (["Base", "Stage", "Steps", "Altar"], 6, [8, 8]), (["Plaza"], 1, [])]:
        assert solve_turn(hand, population, temples) == solve_turn(hand, population, temples, strict)


def test_cpsat_agrees_with_the_reference_when_declining_is_penalised():
    # the property tests cover the rulebook's rulings; this covers the other reading of the
    # no-build ruling, where the runner-up of a hand that could build changes from 0 to -7
    from solver.altunha.cards import load_deck
    from solver.altunha.rules import plan_key
    from tests import solver_reference as ref

    deck = load_deck()
    pool = [c.name for c in deck.cards for _ in range(c.count)]
    rng = random.Random(7)
    strict = RULES.with_options(penalty_if_declined=True)
    declined = 0
    for _ in range(120):
        hand = sorted(rng.sample(pool, rng.randint(1, 7)), key=deck.sort_key)
        temples = [rng.randint(1, 8) for _ in range(rng.randint(0, 4))]
        population = rng.randint(1, 14)
        answer = explain_turn(hand, population, temples, strict)
        plans = ref.all_plans(tuple(hand), population, temples, strict)
        assert plan_key(answer.plan) == plan_key(plans[0]), (hand, population, temples)
        worse = [p for p in plans if plan_key(p) > plan_key(plans[0])]
        if worse:
            assert plan_key(answer.runner_up) == plan_key(worse[0]), (hand, population, temples)
            declined += answer.runner_up.outcome == "declined_to_build"
    assert declined >= 3   # runner-ups that lay nothing, at -7, were met and checked
