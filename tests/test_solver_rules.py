"""The rules model: legality of plays, the preference key, rule numbers, light imports."""

import subprocess
import sys

import pytest

from solver.altunha.cards import GOD, MAIZE, load_deck
from solver.altunha.rules import Placement, Rules, check_play, deciding_rule, plan_key, possible_farm

RULES = Rules.from_game()
HAND = ("Plaza", "Base", "Stage", "Stairs", "Maize", "Stone", "Sun God")


def test_rule_numbers_come_from_game_toml():
    assert (RULES.god_value, RULES.famine_penalty, RULES.no_build_penalty) == (7, 13, 7)
    assert (RULES.max_farm_cards, RULES.max_build_cards, RULES.chain, RULES.max_stage) == (2, 2, True, 8)


def test_deck_kinds():
    deck = load_deck()
    assert deck["Façade"].kind == 5 and deck.lookup("FACADE").name == "Façade"
    assert deck["Maize"].kind == MAIZE and deck["Rain Gods"].kind == GOD
    assert sum(c.count for c in deck.cards) == 62 + 12 + 6


def test_legal_play_gets_its_points():
    check = check_play(HAND, 7, [2, 3], ["Sun God"], [Placement("Stage", 3, 1), Placement("Stairs", 4, 1)])
    assert check.legal and check.plan.points == 7 and check.plan.outcome == "built"


def test_no_build_scores_minus_seven():
    check = check_play(HAND, 7, [], ["Maize"], [])
    assert check.legal and check.plan.outcome == "unable_to_build" and check.points == -7


def test_new_temples_are_numbered_after_the_table():
    check = check_play(HAND, 3, [4, 4], ["Stage"], [Placement("Plaza", 1, 3), Placement("Base", 2, 3)])
    assert check.legal and check.points == 3


@pytest.mark.parametrize("farm, build, words", [
    (["Altar"], [], "hand holds none"),
    (["Stage", "Stage"], [], "hand holds only 1"),
    (["Stage"], [], "worth 3, less than Population 7"),
    (["Stone"], [], "Trade card"),
    (["Maize", "Stage"], [], "on its own"),
    (["Plaza", "Base", "Stage"], [], "at most 2"),
    ([], [], "famine is only for when no Farm is possible"),
    ([], [Placement("Plaza", 1, 1)], "famine"),
    (["Maize"], [Placement("Stage", 3, 2)], "topped by a 3"),
    (["Maize"], [Placement("Plaza", 1, 1)], "new temple, which is number 3"),
    (["Maize"], [Placement("Stairs", 4, 9)], "no temple 9"),
    (["Maize"], [Placement("Stage", 4, 2)], "has value 3"),
    (["Maize"], [Placement("Sun God", 9, 1)], "from 1 to 8"),
    (["Maize"], [Placement("Stone", 1, 3)], "cannot be built"),
    (["Maize"], [Placement("Plaza", 1, 3), Placement("Base", 2, 3), Placement("Stage", 3, 3)],
     "at most 2"),
])
def test_illegal_plays_say_why(farm, build, words):
    check = check_play(HAND, 7, [2, 3], farm, build)
    assert not check.legal and words in check.reason and check.plan is None


def test_chain_off_rejects_stacking():
    build = [Placement("Stage", 3, 1), Placement("Stairs", 4, 1)]
    assert check_play(HAND, 7, [2], ["Sun God"], build).legal
    check = check_play(HAND, 7, [2], ["Sun God"], build, RULES.with_options(chain=False))
    assert not check.legal and "chaining is off" in check.reason


def test_famine_is_legal_when_nothing_feeds():
    check = check_play(("Plaza", "Stone"), 5, [], [], [])
    assert check.legal and check.plan.outcome == "famine" and check.points == -13
    assert possible_farm(("Plaza", "Stone"), 5) is None
    assert possible_farm(("Plaza", "Base", "Stage"), 5) == ("Base", "Stage")


def test_preference_key_order():
    deck = load_deck()
    a = check_play(HAND, 3, [], ["Stage"], [Placement("Plaza", 1, 1)]).plan      # 1 point, farm 3
    b = check_play(HAND, 3, [], ["Maize"], [Placement("Plaza", 1, 1)]).plan      # 1 point, farm Maize
    c = check_play(HAND, 3, [], ["Plaza", "Base"], [Placement("Sun God", 1, 1)]).plan
    assert plan_key(a, deck) < plan_key(b, deck) < plan_key(c, deck)
    assert deciding_rule(plan_key(a, deck), plan_key(b, deck)) == "farm_value"
    assert deciding_rule(plan_key(a, deck), plan_key(c, deck)) == "farm_cards"


def test_rules_model_does_not_load_ortools():
    code = ("import sys; import solver.altunha.rules, solver.altunha.parse, solver.altunha.explain, "
            "kitgen.cli; print('ortools' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
