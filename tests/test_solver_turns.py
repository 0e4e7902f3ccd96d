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


def test_maize_is_kept_on_equal_points_unless_fewer_cards_are_preferred():
    # Platform + Base (7 + 2 = 9) and Maize both feed Population 9 and leave the God to lay as an 8 on
    # the 7: +8 either way, equal by the rules. The default preference keeps Maize; fewer_cards spends it
    # to keep a card more.
    hand, temples = ["Maize", "Sun God", "Base", "Platform"], [4, 7]
    kept = solve_turn(hand, 9, temples)
    assert kept.points == 8 and kept.farm == ("Base", "Platform")
    spent = solve_turn(hand, 9, temples, preference="fewer_cards")
    assert spent.points == 8 and spent.farm == ("Maize",)
    plans = all_optimal_plans(hand, 9, temples)
    assert {p.farm for p in plans} >= {("Base", "Platform"), ("Maize",)} and {p.points for p in plans} == {8}
    assert plans[0] == kept


def test_max_build_cards_switch():
    plan = solve_turn(["Plaza", "Base", "Altar"], 8, [], RULES.with_options(max_build_cards=1))
    assert plan.points == 1 and len(plan.build) == 1


def test_all_optimal_plans_lists_every_play_with_the_most_points():
    plans = all_optimal_plans(["Plaza", "Base", "Platform", "Altar"], 7, [1])
    assert {p.points for p in plans} == {3}
    builds = {(Placement("Base", 2, 1), Placement("Plaza", 1, 2)), (Placement("Plaza", 1, 2), Placement("Base", 2, 2))}
    assert {p.build for p in plans} == builds
    # the rules do not care which cards feed: Platform, Altar, or both (8 + 7 = 15 >= 7) all leave the same Build
    assert {p.farm for p in plans} == {("Platform",), ("Altar",), ("Platform", "Altar")}
    assert len(plans) == 6
    # the preference puts the cheapest Farm first; a play that needs no chaining before one that does
    assert plans[0].farm == ("Platform",) and plans[0].build == (Placement("Base", 2, 1), Placement("Plaza", 1, 2))


def test_answer_is_the_same_whatever_the_hand_order():
    hand = ["Plaza", "Base", "Stage", "Sun God", "Hero Twins", "Platform", "Steps", "Base"]
    first = solve_turn(hand, 9, [1, 2, 5])
    rng = random.Random(3)
    for _ in range(5):
        shuffled = hand[:]
        rng.shuffle(shuffled)
        assert solve_turn(shuffled, 9, [1, 2, 5]) == first


def test_explanation_sets_the_best_beside_the_best_with_another_farm():
    answer = explain_turn(["Plaza", "Sun God", "Stairs"], 3, [7])
    assert answer.plan.points == 9            # God as 8 on the 7, Plaza starts a temple; Stairs feeds
    assert answer.plan.farm == ("Stairs",)
    assert answer.other_farm.farm == ("Plaza", "Stairs") and answer.other_farm.points == 8
    assert answer.decided_by == "points"
    famine = explain_turn(["Plaza", "Stone"], 3, [])
    assert famine.other_farm is None and famine.decided_by == ""


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
def test_no_other_farm_when_one_card_alone_feeds(hand, population):
    answer = explain_turn(hand, population, [])
    assert answer.plan.outcome == "unable_to_build" and answer.plan.points == -7
    assert answer.other_farm is None and answer.decided_by == ""


def test_declining_costs_nothing_unless_switched():
    # The seed charges the 7 points only to a Priest King unable to build: leaving the Plaza in hand
    # is a choice, worth 0.
    check = check_play(("Maize", "Plaza"), 7, [], ["Maize"], [], RULES)
    assert check.legal and (check.plan.outcome, check.plan.points) == ("declined_to_build", 0)
    strict = check_play(("Maize", "Plaza"), 7, [], ["Maize"], [], RULES.with_options(penalty_if_declined=True))
    assert (strict.plan.outcome, strict.plan.points) == ("declined_to_build", -7)


def test_the_declined_build_switch_never_changes_the_best_play():
    strict = RULES.with_options(penalty_if_declined=True)
    for hand, population, temples in [(["Stage", "Stairs", "Sun God"], 7, [2, 3]), (["Maize", "Altar"], 8, [7]),
                                      (["Base", "Stage", "Steps", "Altar"], 6, [8, 8]), (["Plaza"], 1, [])]:
        assert solve_turn(hand, population, temples) == solve_turn(hand, population, temples, strict)


def test_cpsat_agrees_with_the_reference_when_declining_is_penalised():
    # the property tests cover the rulebook's rulings; this covers the other reading of the
    # no-build ruling, where a play that lays nothing though it could costs -7
    from solver.altunha.cards import load_deck
    from solver.altunha.rules import plan_key
    from tests import solver_reference as ref

    deck = load_deck()
    pool = [c.name for c in deck.cards for _ in range(c.count)]
    rng = random.Random(7)
    strict = RULES.with_options(penalty_if_declined=True)
    others = 0
    for _ in range(120):
        hand = sorted(rng.sample(pool, rng.randint(1, 7)), key=deck.sort_key)
        temples = [rng.randint(1, 8) for _ in range(rng.randint(0, 4))]
        population = rng.randint(1, 14)
        answer = explain_turn(hand, population, temples, strict)
        best = ref.best_plan(tuple(hand), population, temples, strict)
        assert plan_key(answer.plan) == plan_key(best), (hand, population, temples)
        other = ref.best_with_other_farm(tuple(hand), population, temples, strict)
        if other is not None:
            assert plan_key(answer.other_farm) == plan_key(other), (hand, population, temples)
            others += 1
    assert others >= 30
