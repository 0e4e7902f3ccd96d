"""The rules model: legality of plays, the preference key, rule numbers, bids, light imports."""

import subprocess
import sys

import pytest

from kitgen.data.game import load_game
from solver.altunha.cards import FEED, GOD, TRADE, deck_from_game, load_deck
from solver.altunha.rules import (
    FEWER_CARDS,
    OPTIMAL_FIELDS,
    CardPlacement,
    Rules,
    check_play,
    deciding_rule,
    farm_cost,
    hand_excess,
    plan_key,
    possible_farm,
    resolve_bids,
)
from tests.conftest import copy_builtin

Placement = CardPlacement

RULES = Rules.from_game()
HAND = ("Plaza", "Base", "Stage", "Stairs", "Maize", "Stone", "Sun God")


def test_rule_numbers_come_from_game_toml():
    assert (RULES.god_value, RULES.famine_penalty, RULES.no_build_penalty) == (7, 13, 7)
    assert (RULES.max_farm_cards, RULES.max_build_cards, RULES.chain, RULES.max_stage) == (2, 2, True, 8)


def test_deck_kinds_come_from_the_card_data():
    deck = load_deck()
    assert deck["Façade"].kind == 5 and deck.lookup("FACADE").name == "Façade"
    assert deck["Maize"].kind == FEED and deck["Rain Gods"].kind == GOD and deck["Jade"].kind == TRADE
    assert deck["Jade"].effect == "win_bid" and deck["Obsidian"].amount == 5
    assert sum(c.count for c in deck.cards) == 62 + 12 + 6


def test_a_renamed_card_keeps_its_role(tmp_path):
    # roles come from cards.csv's effect column, not from names written in the code
    folder = copy_builtin("altun-ha", tmp_path / "game")
    csv = folder / "cards.csv"
    csv.write_text(csv.read_text(encoding="utf-8").replace("Maize,trade", "Corn,trade"), encoding="utf-8")
    deck = deck_from_game(load_game(folder))
    assert deck["Corn"].kind == FEED and deck.lookup("Maize") is None


def test_legal_play_gets_its_points():
    check = check_play(HAND, 7, [2, 3], ["Sun God"], [Placement("Stage", 3, 1), Placement("Stairs", 4, 1)])
    assert check.legal and check.plan.points == 7 and check.plan.outcome == "built"


def test_building_nothing_costs_seven_only_when_no_card_can_be_laid():
    # Plaza (or the God) could start a temple: choosing not to build scores 0 under the rulebook's
    # ruling (the seed charges the 7 points only to a Priest King unable to build)
    check = check_play(HAND, 7, [], ["Maize"], [])
    assert check.legal and check.plan.outcome == "declined_to_build" and check.points == 0
    # with the other reading of the ruling the same play loses 7
    strict = check_play(HAND, 7, [], ["Maize"], [], RULES.with_options(penalty_if_declined=True))
    assert strict.plan.outcome == "declined_to_build" and strict.points == -7
    # a hand with nothing that can be laid loses 7 either way
    unable = check_play(("Stage", "Maize", "Stone"), 7, [8], ["Maize"], [])
    assert unable.plan.outcome == "unable_to_build" and unable.points == -7


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
    (["Maize"], [Placement("Stage", 3, 2)], "topped by a 2, not by a 3"),
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
    # all three score 1: equal by the rules, so only the preference orders them
    assert plan_key(a, deck)[:OPTIMAL_FIELDS] == plan_key(b, deck)[:OPTIMAL_FIELDS] == plan_key(c, deck)[:OPTIMAL_FIELDS]
    # keep Maize and Gods (the default): spending Maize comes last, even to save a card
    assert plan_key(a, deck) < plan_key(c, deck) < plan_key(b, deck)
    assert deciding_rule(plan_key(a, deck), plan_key(b, deck)) == "farm_feed"
    assert deciding_rule(plan_key(c, deck), plan_key(b, deck)) == "farm_feed"
    assert deciding_rule(plan_key(a, deck), plan_key(c, deck)) == "farm_cards"
    # fewer cards first: Maize (1 card) before Plaza + Base, and after Stage, weighed one above a God
    fewer = [plan_key(p, deck, FEWER_CARDS) for p in (a, b, c)]
    assert fewer[0] < fewer[1] < fewer[2]
    assert deciding_rule(fewer[0], fewer[1]) == "farm_value" and deciding_rule(fewer[1], fewer[2]) == "farm_cards"


def test_farm_weights_come_from_the_deck():
    # a God weighs one more than the highest Bid card, Maize one more again: for any deck
    assert [farm_cost(k, 8) for k in (1, 8, GOD, FEED)] == [1, 8, 9, 10]
    assert [farm_cost(k, 12) for k in (12, GOD, FEED)] == [12, 13, 14]


def test_rules_model_does_not_load_ortools():
    code = ("import sys; import solver.altunha.rules, solver.altunha.parse, solver.altunha.explain, "
            "kitgen.cli; print('ortools' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# --- bids and the hand limit -----------------------------------------------------------------

def resolve(totals, scores=None, sizes=None, jades=(), rules=RULES):
    sizes = sizes if sizes is not None else [1 if t else 0 for t in totals]
    return resolve_bids(totals, sizes, scores or [0] * len(totals), list(jades), rules)


def test_the_highest_bid_wins_and_ties_go_down_the_ladder():
    assert resolve([9, 5, 7]) == (0, "highest")
    assert resolve([9, 9, 7, 0]) == (2, "next_lower")
    assert resolve([9, 9, 7, 7, 5]) == (4, "next_lower")       # 7 is tied too: on down to 5


def test_a_bid_of_no_cards_is_a_total_of_zero():
    # the seed: a tie goes to the next lower bid, and nothing says a bid of no cards is not one
    assert resolve([6, 6, 0]) == (2, "next_lower")
    # everybody bid nothing: a tie at 0 with no lower bid, so fewer points decide
    assert resolve([0, 0, 0], scores=[4, -2, 3]) == (1, "fewer_points")
    assert resolve([0, 0], scores=[1, 1]) == (None, "double_tie")
    never = RULES.with_options(empty_bid="never_wins")
    assert resolve([6, 6, 0], scores=[2, 1, 0], rules=never) == (1, "fewer_points")
    assert resolve([0, 0, 0], rules=never) == (None, "no_bids")


def test_a_bid_of_no_cards_read_literally_is_no_bid_card():
    # "If there is no next lowest bid card the player with fewer Scoring Points wins."
    literal = RULES.with_options(empty_bid="no_bid_card")
    assert resolve([6, 6, 0], scores=[2, 1, 0], rules=literal) == (1, "fewer_points")
    assert resolve([6, 6, 3, 0], scores=[2, 1, 5, 0], rules=literal) == (2, "next_lower")
    assert resolve([6, 6, 3, 3, 0], scores=[2, 1, 5, 4, 0], rules=literal) == (3, "fewer_points")
    assert resolve([6, 6, 3, 3, 0], scores=[2, 1, 5, 4, 0],
                   rules=literal.with_options(points_decide="highest_tie")) == (1, "fewer_points")
    # nobody bid a card: everyone is tied at 0 and the fewest points win (never_wins: nobody)
    assert resolve([0, 0, 0], scores=[4, -2, 3], rules=literal) == (1, "fewer_points")
    assert resolve([0, 0], scores=[1, 1], rules=literal) == (None, "double_tie")
    assert resolve([5, 0, 0], rules=literal) == (0, "highest")


def test_points_decide_at_the_lowest_tie_unless_switched():
    totals, scores = [5, 5, 0, 0], [9, 8, 7, 6]
    assert resolve(totals, scores) == (3, "fewer_points")
    assert resolve(totals, scores, rules=RULES.with_options(points_decide="highest_tie")) == (1, "fewer_points")
    assert resolve(totals, scores, rules=RULES.with_options(tie_drop=False)) == (1, "fewer_points")
    assert resolve([9, 9, 7], [3, 2, 0], rules=RULES.with_options(tie_drop=False)) == (1, "fewer_points")


def test_jade_wins_outright_and_several_jades_go_by_their_bids():
    assert resolve([9, 0, 3], jades=[1]) == (1, "jade")
    assert resolve([9, 0, 3], jades=[1, 2]) == (2, "jade")


def test_hand_limit():
    assert [hand_excess(n, RULES) for n in (3, 5, 6, 9)] == [0, 0, 1, 4]
