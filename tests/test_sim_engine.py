"""The Altun Ha engine against hand-worked rounds, and its invariants over many random games."""

import random
from collections import Counter
from functools import lru_cache

import pytest

from solver.altunha.sim.engine import Bid, Game, IllegalMove, TablePlacement, TradePlay, shuffle
from solver.altunha.sim.policies import player_factory
from solver.altunha.sim.state import AltunHaState
from solver.altunha.sim.variants import load_setup, with_settings_of
from solver.simulation import runner

RULES = load_setup()
Placement = TablePlacement


def with_settings(setup, settings):
    return with_settings_of(setup, settings)


def Spec(setup, players, policies, seed):
    return runner.Spec("altun-ha", setup, players, policies, seed)


def play_game(spec, index, check):
    """Game ``index`` of a run, as the simulator plays it, with ``check(game)`` after every phase."""
    game = Game(spec.rules, spec.players, random.Random(f"{spec.seed}/{index}"))
    state = AltunHaState(game, check)
    players = [player_factory(name)(None) for name in runner.seat_policies(spec, index, state.seats())]
    runner.play_out(state, players, spec.rules.round_cap)
    return game


def table_game(hands, deck_top=(), players=None, rules=RULES, scores=None, population=5, calendar=0):
    """A game whose hands hold the named cards and whose deck starts with ``deck_top`` (top first)."""
    players = players or len(hands)
    g = Game(rules, players, random.Random(1))
    free = sorted(range(g.table.size))

    def take(name):
        for c in free:
            if g.table.name[c] == name:
                free.remove(c)
                return c
        raise AssertionError(f"no {name} left")

    g.hands = [[take(n) for n in hand] for hand in hands]
    top = [take(n) for n in deck_top]
    rest = list(free)
    random.Random(2).shuffle(rest)
    g.deck = rest + top[::-1]          # the end of the list is the top of the deck
    g.discard = []
    g.scores = list(scores or [0] * players)
    g.population = population
    g.calendar = calendar
    g.round = 1
    return g


def names(g, cards):
    return sorted(g.table.name[c] for c in cards)


def card(g, p, name):
    return next(c for c in g.hands[p] if g.table.name[c] == name)


# --- Trade cards --------------------------------------------------------------

def test_stone_draws_three():
    g = table_game([["Stone"], ["Plaza"]], deck_top=["Altar", "Base", "Stage", "Steps"])
    g.play_trade(0, TradePlay(card(g, 0, "Stone")))
    assert names(g, g.hands[0]) == ["Altar", "Base", "Stage"]
    assert g.table.name[g.deck[-1]] == "Steps"
    assert names(g, g.discard) == ["Stone"]


def test_salt_draws_one_and_sees_the_target_hand():
    g = table_game([["Salt"], ["Plaza", "Altar"], ["Base"]], deck_top=["Stage"])
    g.play_trade(0, TradePlay(card(g, 0, "Salt"), target=1))
    assert names(g, g.hands[0]) == ["Stage"]
    assert names(g, g.seen_hands[0][1]) == ["Altar", "Plaza"]
    assert 2 not in g.seen_hands[0]


def test_cocoa_takes_one_card_from_the_target():
    g = table_game([["Cocoa"], ["Altar", "Plaza"]])
    before = list(g.hands[1])
    g.play_trade(0, TradePlay(card(g, 0, "Cocoa"), target=1))
    assert len(g.hands[0]) == 1 and len(g.hands[1]) == 1
    assert g.hands[0][0] in before


def test_ceramics_takes_one_of_five_and_puts_the_rest_back_in_order():
    top = ["Base", "Stage", "Altar", "Stairs", "Steps", "Plaza"]
    g = table_game([["Ceramics"], []], deck_top=top)
    seen = []

    def choose(looked):
        seen.extend(g.table.name[c] for c in looked)
        return looked[2]

    g.play_trade(0, TradePlay(card(g, 0, "Ceramics")), choose)
    assert seen == top[:5]
    assert names(g, g.hands[0]) == ["Altar"]
    assert [g.table.name[c] for c in g.deck[-5:][::-1]] == ["Base", "Stage", "Stairs", "Steps", "Plaza"]


def test_ceramics_refuses_a_card_not_looked_at():
    g = table_game([["Ceramics"], []], deck_top=["Base"] * 5)
    with pytest.raises(IllegalMove, match="Ceramics"):
        g.play_trade(0, TradePlay(card(g, 0, "Ceramics")), lambda looked: g.deck[0])


def test_honey_discards_two_and_a_single_card_hand_loses_it():
    g = table_game([["Honey"], ["Plaza", "Base", "Stage"]])
    g.play_trade(0, TradePlay(card(g, 0, "Honey"), target=1))
    assert len(g.hands[1]) == 1 and len(g.discard) == 3
    g2 = table_game([["Honey"], ["Altar"]])
    g2.play_trade(0, TradePlay(card(g2, 0, "Honey"), target=1))
    assert g2.hands[1] == [] and names(g2, g2.discard) == ["Altar", "Honey"]


def test_point_cards():
    g = table_game([["Feathers"], ["Textiles"], ["Pyrite"], ["Obsidian"]], scores=[10, 10, 10, 10])
    g.play_trade(0, TradePlay(card(g, 0, "Feathers"), target=2))
    assert g.scores == [10, 10, 5, 10]
    g.play_trade(1, TradePlay(card(g, 1, "Textiles")))
    assert g.scores == [9, 10, 4, 9]
    g.play_trade(2, TradePlay(card(g, 2, "Pyrite"), target=1))
    assert g.scores == [9, 7, 7, 9]
    g.play_trade(3, TradePlay(card(g, 3, "Obsidian")))
    assert g.scores == [9, 7, 7, 14]
    assert g.points[2]["pyrite"] == 3 and g.points[1]["pyrite"] == -3


def test_scores_may_go_negative():
    g = table_game([["Feathers"], []], scores=[0, 2])
    g.play_trade(0, TradePlay(card(g, 0, "Feathers"), target=1))
    assert g.scores[1] == -3


def test_codex_only_looks():
    g = table_game([["Codex"], []], deck_top=["Altar"] + ["Plaza"] * 9 + ["Base"])
    deck_before = list(g.deck)
    g.play_trade(0, TradePlay(card(g, 0, "Codex")))
    assert [g.table.name[c] for c in g.seen_deck[0]] == ["Altar"] + ["Plaza"] * 9
    assert g.deck == deck_before and g.hands[0] == []


@pytest.mark.parametrize("bad, message", [
    (lambda g: TradePlay(card(g, 0, "Jade")), "revealed with the bid"),
    (lambda g: TradePlay(card(g, 0, "Maize")), "Farm phase"),
    (lambda g: TradePlay(card(g, 0, "Plaza")), "not a Trade card"),
    (lambda g: TradePlay(card(g, 0, "Pyrite")), "needs one opponent"),
    (lambda g: TradePlay(card(g, 0, "Pyrite"), target=0), "needs one opponent"),
    (lambda g: TradePlay(card(g, 1, "Altar")), "not in the hand"),
])
def test_illegal_trades_are_refused(bad, message):
    g = table_game([["Jade", "Maize", "Plaza", "Pyrite"], ["Altar"]])
    with pytest.raises(IllegalMove, match=message):
        g.play_trade(0, bad(g))


def test_one_trade_card_per_round():
    g = table_game([["Obsidian", "Stone"], []])
    g.play_trade(0, TradePlay(card(g, 0, "Obsidian")))
    with pytest.raises(IllegalMove, match="already played"):
        g.play_trade(0, TradePlay(card(g, 0, "Stone")))


# --- bids -----------------------------------------------------------------------

def bid(g, p, *cards, jade=False):
    ids = []
    for name in cards:
        ids.append(next(c for c in g.hands[p] if g.table.name[c] == name and c not in ids))
    return Bid(tuple(ids), card(g, p, "Jade") if jade else None)


def test_highest_unique_bid_wins_and_all_bids_are_discarded():
    g = table_game([["Altar"], ["Stage", "Base"], ["Plaza"]])
    winner = g.bid_phase({0: bid(g, 0, "Altar"), 1: bid(g, 1, "Stage", "Base"), 2: bid(g, 2, "Plaza")})
    assert winner == 0 and g.bid_result == "highest"
    assert all(h == [] for h in g.hands) and len(g.discard) == 4


def test_tied_top_bids_drop_out_and_the_next_lower_wins():
    g = table_game([["Steps"], ["Steps"], ["Stage"], ["Base"]])
    winner = g.bid_phase({p: bid(g, p, g.table.name[g.hands[p][0]]) for p in range(4)})
    assert (winner, g.bid_result) == (2, "next_lower")


def test_all_bids_tied_goes_to_fewer_points_then_to_nobody():
    g = table_game([["Steps"], ["Steps"]], scores=[5, 3])
    assert g.bid_phase({0: bid(g, 0, "Steps"), 1: bid(g, 1, "Steps")}) == 1
    assert g.bid_result == "fewer_points"
    g = table_game([["Steps"], ["Steps"]], scores=[4, 4])
    assert g.bid_phase({0: bid(g, 0, "Steps"), 1: bid(g, 1, "Steps")}) is None
    assert g.bid_result == "double_tie"


def test_ties_on_several_levels():
    # 6, 6, 4, 4: every total is tied; the ladder ends at the tie of 4s, which goes by points
    g = table_game([["Steps"], ["Steps"], ["Stairs"], ["Stairs"]], scores=[2, 1, 3, 0])
    assert g.bid_phase({p: bid(g, p, g.table.name[g.hands[p][0]]) for p in range(4)}) == 3
    # the other reading of the ruling: the tied top bidders (6) go by points
    rules = with_settings(RULES, {"points_decide": "highest_tie"})
    g = table_game([["Steps"], ["Steps"], ["Stairs"], ["Stairs"]], rules=rules, scores=[2, 1, 3, 0])
    assert g.bid_phase({p: bid(g, p, g.table.name[g.hands[p][0]]) for p in range(4)}) == 1


def test_a_bid_of_no_cards_is_a_total_of_zero():
    # nobody bids: every total is 0, so the player with fewer points becomes Priest King
    g = table_game([["Altar"], ["Plaza"], ["Base"]], scores=[3, -1, 2])
    assert g.bid_phase({}) == 1 and g.bid_result == "fewer_points" and g.empty_rounds == 1
    assert g.king_bid_empty
    # two tied bids drop out and the player who bid nothing wins
    g = table_game([["Steps"], ["Steps"], ["Base"]])
    assert g.bid_phase({0: bid(g, 0, "Steps"), 1: bid(g, 1, "Steps")}) == 2
    assert g.bid_result == "next_lower" and g.empty_rounds == 0


def test_the_switch_that_makes_a_bid_of_no_cards_lose():
    rules = with_settings(RULES, {"empty_bid": "never_wins"})
    g = table_game([["Altar"], ["Plaza"]], rules=rules, scores=[3, -1])
    assert g.bid_phase({}) is None and g.bid_result == "no_bids"
    g = table_game([["Steps"], ["Steps"], ["Base"]], rules=rules, scores=[4, 2, 0])
    assert g.bid_phase({0: bid(g, 0, "Steps"), 1: bid(g, 1, "Steps")}) == 1
    assert g.bid_result == "fewer_points"


def test_the_literal_reading_of_a_bid_of_no_cards():
    rules = with_settings(RULES, {"empty_bid": "no_bid_card"})
    g = table_game([["Altar"], ["Plaza"]], rules=rules, scores=[3, -1])
    assert g.bid_phase({}) == 1 and g.bid_result == "fewer_points"
    g = table_game([["Steps"], ["Steps"], ["Base"]], rules=rules, scores=[4, 2, 0])
    assert g.bid_phase({0: bid(g, 0, "Steps"), 1: bid(g, 1, "Steps")}) == 1
    assert g.bid_result == "fewer_points"


def test_without_tie_drop_the_tied_top_goes_to_fewer_points():
    rules = with_settings(RULES, {"tie_drop": "off"})
    g = table_game([["Steps"], ["Steps"], ["Stage"]], rules=rules, scores=[5, 3, 0])
    assert g.bid_phase({p: bid(g, p, g.table.name[g.hands[p][0]]) for p in range(3)}) == 1


def test_jade_wins_the_bid_whatever_the_others_bid():
    g = table_game([["Jade", "Plaza"], ["Altar", "Platform"]])
    assert g.bid_phase({0: bid(g, 0, jade=True), 1: bid(g, 1, "Altar", "Platform")}) == 0
    assert g.bid_result == "jade" and g.trade_plays == [("Jade", 0)]
    assert "Jade" in names(g, g.discard) and names(g, g.hands[0]) == ["Plaza"]


def test_jade_is_not_the_trade_card_unless_switched():
    g = table_game([["Jade", "Obsidian"], ["Altar"]])
    g.play_trade(0, TradePlay(card(g, 0, "Obsidian")))
    assert g.bid_phase({0: bid(g, 0, jade=True)}) == 0
    rules = with_settings(RULES, {"special_is_trade": "on"})
    g = table_game([["Jade", "Obsidian"], ["Altar"]], rules=rules)
    g.play_trade(0, TradePlay(card(g, 0, "Obsidian")))
    with pytest.raises(IllegalMove, match="cannot reveal Jade"):
        g.bid_phase({0: bid(g, 0, jade=True)})


def test_bad_bids_are_refused_before_any_card_moves():
    g = table_game([["Altar", "Platform", "Steps"], ["Plaza", "Obsidian"]])
    with pytest.raises(IllegalMove, match="at most 2 cards"):
        g.bid_phase({0: bid(g, 0, "Altar", "Platform", "Steps")})
    with pytest.raises(IllegalMove, match="cannot be bid"):
        g.bid_phase({0: bid(g, 0, "Altar"), 1: bid(g, 1, "Obsidian")})
    assert len(g.hands[0]) == 3 and g.discard == []


# --- Farm and Build ----------------------------------------------------------------

def crowned(hands, pk=0, **kw):
    g = table_game(hands, **kw)
    g.priest_king = pk
    return g


def test_farm_needs_population_and_famine_ends_the_game():
    g = crowned([["Base", "Stage"], []], population=6)
    with pytest.raises(IllegalMove, match="less than Population"):
        g.farm_phase((card(g, 0, "Base"),))
    assert g.farm_phase(()) is False
    assert g.over and g.end == "famine" and g.scores[0] == -13


def test_farm_is_compulsory_when_possible():
    g = crowned([["Steps"], []], population=6)
    with pytest.raises(IllegalMove, match="must farm"):
        g.farm_phase(())


def test_maize_feeds_any_population_alone():
    g = crowned([["Maize", "Plaza"], []], population=40)
    assert g.farm_phase((card(g, 0, "Maize"),)) is True
    assert names(g, g.discard) == ["Maize"] and g.trade_plays == [("Maize", 0)]
    g = crowned([["Maize", "Plaza"], []], population=4)
    with pytest.raises(IllegalMove, match="alone"):
        g.farm_phase((card(g, 0, "Maize"), card(g, 0, "Plaza")))


def test_maize_may_take_other_cards_with_it_when_switched():
    rules = with_settings(RULES, {"feed_alone": "off"})
    g = crowned([["Maize", "Plaza", "Base"], []], population=40, rules=rules)
    assert g.farm_phase((card(g, 0, "Maize"), card(g, 0, "Plaza"))) is True
    assert names(g, g.discard) == ["Maize", "Plaza"]
    # the Priest King's choices include it, as the rulings allow; two cards with Maize are three
    state = AltunHaState(crowned([["Maize", "Plaza", "Base"], []], population=40, rules=rules), start=False)
    state.kind, state.player = "farm_build", 0
    farms = {tuple(sorted(names(state.game, a.farm))) for a in state.legal_actions()}
    assert {("Maize",), ("Maize", "Plaza"), ("Base", "Maize")} <= farms
    assert not any(len(f) > 2 for f in farms)
    state = AltunHaState(crowned([["Maize", "Plaza", "Base"], []], population=40), start=False)
    state.kind, state.player = "farm_build", 0
    assert {tuple(sorted(names(state.game, a.farm))) for a in state.legal_actions()} == {("Maize",)}


def test_a_tie_at_the_end_is_shared_or_goes_by_turn_order():
    g = crowned([["Base"], [], []], population=9, scores=[20, 8, 8], calendar=2)
    g.farm_phase(())                                  # famine: 20 - 13 = 7; players 2 and 3 tie at 8
    state = AltunHaState(g, start=False)
    assert g.end == "famine" and g.scores == [7, 8, 8] and state.returns() == [0, 0.5, 0.5]
    rules = with_settings(RULES, {"end_tie": "turn_order"})
    for holder, winner in ((2, 2), (1, 1), (0, 1)):   # the Calendar holder first, then clockwise
        g = crowned([["Base"], [], []], population=9, scores=[20, 8, 8], calendar=holder, rules=rules)
        g.farm_phase(())
        expected = [0.0, 0.0, 0.0]
        expected[winner] = 1.0
        assert AltunHaState(g, start=False).returns() == expected


def test_god_farms_as_seven():
    g = crowned([["Sun God"], []], population=7)
    assert g.farm_phase((card(g, 0, "Sun God"),))
    g = crowned([["Sun God"], []], population=8)
    with pytest.raises(IllegalMove, match="worth 7"):
        g.farm_phase((card(g, 0, "Sun God"),))


def test_build_new_temple_stack_and_chain():
    g = crowned([["Plaza", "Base", "Stage"], []])
    pts = g.build_phase((Placement(card(g, 0, "Plaza"), 1, None), Placement(card(g, 0, "Base"), 2, 0)))
    assert pts == 3 and g.scores[0] == 3 and g.tops() == [2]
    assert names(g, g.hands[0]) == ["Stage"]


def test_build_refusals_leave_the_table_unchanged():
    rules = with_settings(RULES, {"chain": "off"})
    g = crowned([["Plaza", "Base", "Stage"], []], rules=rules)
    with pytest.raises(IllegalMove, match="chaining is off"):
        g.build_phase((Placement(card(g, 0, "Plaza"), 1, None), Placement(card(g, 0, "Base"), 2, 0)))
    assert g.temples == [] and len(g.hands[0]) == 3 and g.scores == [0, 0]
    with pytest.raises(IllegalMove, match="only a value-1 card does"):
        g.build_phase((Placement(card(g, 0, "Base"), 2, None),))
    g.temples = [[(card(g, 0, "Plaza"), 1)]]
    g.hands[0].remove(g.temples[0][0][0])
    with pytest.raises(IllegalMove, match="not by a 1"):
        g.build_phase((Placement(card(g, 0, "Stage"), 3, 0),))


def test_god_builds_as_any_value():
    g = crowned([["Moon Goddess", "Stairs"], []])
    g.temples = [[(999, 7)]]
    assert g.build_phase((Placement(card(g, 0, "Moon Goddess"), 8, 0),)) == 8
    with pytest.raises(IllegalMove, match="from 1 to 8"):
        g2 = crowned([["Moon Goddess"], []])
        g2.build_phase((Placement(card(g2, 0, "Moon Goddess"), 9, None),))


def test_building_nothing_costs_seven_only_when_nothing_could_be_laid():
    unable = crowned([["Stairs"], []])
    assert unable.build_phase(()) == -7 and unable.scores[0] == -7 and unable.no_build == 1
    able = crowned([["Plaza", "Stairs"], []])
    assert able.build_phase(()) == 0 and able.scores[0] == 0 and able.declined == 1 and able.no_build == 0
    rules = with_settings(RULES, {"penalty_if_declined": "on"})
    strict = crowned([["Plaza", "Stairs"], []], rules=rules)
    assert strict.build_phase(()) == -7 and strict.declined == 1


def test_scores_stop_at_zero_when_switched():
    rules = with_settings(RULES, {"negative_scores": "off"})
    g = table_game([["Pyrite"], []], rules=rules, scores=[0, 2])
    g.play_trade(0, TradePlay(card(g, 0, "Pyrite"), target=1))
    assert g.scores == [2, 0] and g.points[0]["pyrite"] == 2 and g.points[1]["pyrite"] == -2


# --- refused moves change nothing -------------------------------------------------------

def state(g):
    """Everything a move could change, as plain values."""
    return ([list(h) for h in g.hands], list(g.deck), list(g.discard), list(g.scores),
            [dict(x) for x in g.points], set(g.traded), list(g.trade_plays), [list(t) for t in g.temples],
            [dict(x) for x in g.seen_hands], list(g.seen_deck), g.population, g.priest_king, g.over, g.end,
            g.rng.getstate())


def _empty_deck(g):
    g.discard, g.deck = g.deck, []  # Ceramics must reshuffle the discard pile to look


def _obsidian_played(g):
    g.play_trade(0, TradePlay(card(g, 0, "Obsidian")))


# name: (what happens first, legally; the refused move; words of the refusal)
REFUSED = {
    "Ceramics pick not looked at": (None, lambda g: g.play_trade(0, TradePlay(card(g, 0, "Ceramics")),
                                                                 lambda looked: g.deck[0]), "Ceramics"),
    "Ceramics pick after a reshuffle": (_empty_deck, lambda g: g.play_trade(
        0, TradePlay(card(g, 0, "Ceramics")), lambda looked: card(g, 1, "Altar")), "Ceramics"),
    "second Trade card": (_obsidian_played, lambda g: g.play_trade(0, TradePlay(card(g, 0, "Stone"))),
                          "already played"),
    "Trade card without a target": (None, lambda g: g.play_trade(0, TradePlay(card(g, 0, "Pyrite"))), "opponent"),
    "target that is no player": (None, lambda g: g.play_trade(0, TradePlay(card(g, 0, "Pyrite"), "2")),
                                 "opponent"),
    "Jade in the Trade phase": (None, lambda g: g.play_trade(0, TradePlay(card(g, 0, "Jade"))), "revealed"),
    "Trade card not held": (None, lambda g: g.play_trade(0, TradePlay(card(g, 1, "Cocoa"))), "not in the hand"),
    "bid of three cards": (None, lambda g: g.bid_phase({1: bid(g, 1, "Plaza"),
                                                        0: bid(g, 0, "Steps", "Base", "Stage")}), "at most 2"),
    "bid of a Trade card": (None, lambda g: g.bid_phase({0: bid(g, 0, "Steps"), 1: bid(g, 1, "Cocoa")}),
                            "cannot be bid"),
    "bid of a card not held": (None, lambda g: g.bid_phase({0: bid(g, 0, "Steps"), 1: Bid((card(g, 0, "Base"),))}),
                               "not in the hand"),
    "Jade revealed without it": (None, lambda g: g.bid_phase({0: bid(g, 0, "Steps"),
                                                              1: Bid((), card(g, 0, "Jade"))}), "without holding"),
    "farm worth too little": (None, lambda g: g.farm_phase((card(g, 0, "Base"),)), "less than Population"),
    "famine when able to feed": (None, lambda g: g.farm_phase(()), "must farm"),
    "Maize with other cards": (None, lambda g: g.farm_phase((card(g, 0, "Maize"), card(g, 0, "Steps"))), "alone"),
    "farm with a Trade card": (None, lambda g: g.farm_phase((card(g, 0, "Steps"), card(g, 0, "Stone"))),
                               "is a Trade card"),
    "build on a missing temple": (None, lambda g: g.build_phase((Placement(card(g, 0, "Plaza"), 1, None),
                                                                 Placement(card(g, 0, "Base"), 2, 3))), "no temple"),
    "build a card not held": (None, lambda g: g.build_phase((Placement(card(g, 1, "Plaza"), 1, None),)),
                              "not in the hand"),
    "discard too few": (None, lambda g: g.cycle_phase({0: tuple(g.hands[0][:3]), 1: ()}), "exactly"),
    "second player discards too few": (None, lambda g: g.cycle_phase({0: tuple(g.hands[0][:5]), 1: ()}),
                                       "player 2"),
    "discard a card not held": (None, lambda g: g.cycle_phase({0: tuple(g.hands[0][:4]) + (card(g, 1, "Cocoa"),),
                                                               1: tuple(g.hands[1][:2])}), "not in the hand"),
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_a_refused_move_leaves_the_game_unchanged(name):
    g = table_game([["Ceramics", "Obsidian", "Stone", "Pyrite", "Jade", "Maize", "Steps", "Base", "Stage", "Plaza"],
                    ["Plaza", "Cocoa", "Altar", "Plaza", "Base", "Stairs", "Stage"]],
                   deck_top=["Plaza", "Base", "Stage", "Stairs", "Platform"], population=6)
    g.priest_king = 0
    first, move, message = REFUSED[name]
    if first is not None:
        first(g)
    before = state(g)
    with pytest.raises(IllegalMove, match=message):
        move(g)
    assert state(g) == before


# --- Calendar, draw, cycle ----------------------------------------------------------------

def test_calendar_passes_counter_clockwise_and_trading_goes_clockwise():
    g = table_game([[], [], [], []], calendar=2)
    g.calendar_phase()
    assert g.calendar == 1 and g.turn_order() == [1, 2, 3, 0]
    g = table_game([[], [], [], []], calendar=2, rules=with_settings(RULES, {"calendar_clockwise": "on"}))
    g.calendar_phase()
    assert g.calendar == 3 and g.turn_order() == [3, 0, 1, 2]


def test_draw_reshuffles_the_discard_and_an_empty_supply_means_no_draw():
    g = table_game([[], []])
    g.discard, g.deck = g.deck[:3], []
    assert g.draw(0, 2) == 2 and len(g.deck) == 1 and g.discard == []
    g.deck = []
    assert g.draw(1, 2) == 0 and not g.over and g.hands[1] == []


@pytest.mark.parametrize("size", [0, 1, 2, 3, 17, 74, 300])
def test_shuffle_orders_cards_as_the_generator_shuffle_does(size):
    # the engine's shuffle takes the same draws as random.Random.shuffle, so games depend only on the seed
    for seed in ("1/0", "2024/17", 7):
        ours, theirs = list(range(size)), list(range(size))
        mine, stdlib = random.Random(seed), random.Random(seed)
        shuffle(mine, ours)
        stdlib.shuffle(theirs)
        assert ours == theirs and mine.getstate() == stdlib.getstate()


def test_cycle_discards_down_to_the_hand_limit():
    g = table_game([["Plaza"] * 7, ["Base"] * 3])
    with pytest.raises(IllegalMove, match="exactly 2"):
        g.cycle_phase({0: tuple(g.hands[0][:1])})
    g.cycle_phase({0: tuple(g.hands[0][:2])})
    assert len(g.hands[0]) == 5 and len(g.discard) == 2


def test_population_grows_and_setup_deals_five_each():
    g = Game(RULES, 3, random.Random(5))
    assert [len(h) for h in g.hands] == [5, 5, 5] and g.population == 2
    g.calendar_phase()
    g.population_phase()
    assert g.population == 3


# --- invariants over many games ------------------------------------------------------------

TRADE_SOURCES = {"obsidian", "pyrite", "feathers", "textiles"}
ALLOWED = {"Calendar": set(), "Population": set(), "Draw": set(), "Trade": TRADE_SOURCES, "Bid": set(),
           "Farm": {"famine"}, "Build": {"build", "no_build"}, "Cycle": set()}


@lru_cache(maxsize=None)
def _ids(size: int) -> list[int]:
    return list(range(size))


class Checker:
    def __init__(self):
        self.points = None
        self.phases = Counter()
        self.round_start = 0      # the Trade cards played before this round

    def __call__(self, g):
        # called after every phase of hundreds of games: each check is written to cost little
        every = g.deck + g.discard
        for h in g.hands:
            every += h
        for t in g.temples:
            every += [c for c, _ in t]
        every.sort()
        assert every == _ids(g.table.size), "a card is missing or in two places"
        if g.phase == "Calendar":
            self.round_start = len(g.trade_plays)
        if len(g.trade_plays) > self.round_start:
            played = Counter(p for _, p in g.trade_plays[self.round_start:])
            # one Trade card a round; without special_is_trade Jade and Maize come on top of it
            assert max(played.values()) <= (1 if g.R.special_is_trade else 3), "too many Trade cards"
        if g.end == "empty_deck":
            assert g.deck == [] and g.discard == [], "the game ended with cards left to draw"
        if g.phase == "Cycle":
            assert all(len(h) <= g.R.hand_limit for h in g.hands)
        for p in range(g.n):
            assert g.scores[p] == sum(g.points[p].values())
        now = [dict(x) for x in g.points]
        if self.points is not None:
            for p in range(g.n):
                if now[p] == self.points[p]:
                    continue
                for source, value in now[p].items():
                    if value != self.points[p][source]:
                        assert source in ALLOWED[g.phase], (g.phase, source)
        for t in g.temples:
            values = [v for _, v in t]
            assert values == list(range(1, len(values) + 1)), "a temple is not 1, 2, 3, ..."
        self.points = now
        self.phases[g.phase] += 1


@pytest.mark.parametrize("policies", [("random",), ("greedy", "random", "closer", "cautious")])
def test_invariants_after_every_phase(policies):
    checker = Checker()
    spec = Spec(RULES, 4, policies, 11)
    ends = Counter()
    # invariants checked after every phase, not a rate: 120 and 60 games pass each phase hundreds of times
    for i in range(120 if policies == ("random",) else 60):
        checker.points = None
        g = play_game(spec, i, checker)
        ends[g.end] += 1
        assert g.over
    assert checker.phases["Build"] > 100 and checker.phases["Cycle"] > 100
    assert ends["famine"] > 0


@pytest.mark.parametrize("ends", [False, True])
def test_invariants_hold_when_the_supply_runs_out(ends):
    # big hands and draws empty the deck and the discard pile; Trade cards are played each round
    rules = with_settings(RULES, {"hand_limit": 14, "draw": 4, "special_is_trade": "on",
                                  "empty_deck_ends": "on" if ends else "off"})
    checker = Checker()
    spec = Spec(rules, 4, ("random", "greedy"), 5)
    how = Counter()
    for i in range(40):
        checker.points = None
        how[play_game(spec, i, checker).end] += 1
    assert how["empty_deck"] > (10 if ends else -1) and (how["empty_deck"] == 0 or ends)


def test_invariants_hold_under_odd_rules():
    rules = with_settings(RULES, {"hand_limit": 2, "draw": 4, "chain": "off", "count.Maize": 3})
    checker = Checker()
    spec = Spec(rules, 3, ("random", "greedy"), 3)
    for i in range(60):
        checker.points = None
        play_game(spec, i, checker)
    assert checker.phases["Cycle"] > 0


# --- the one Trade card, effect before discard, an empty supply ends at once ------------------

def switched(**settings):
    return with_settings(RULES, {k: ("on" if v else "off") for k, v in settings.items()})


@pytest.mark.parametrize("alone", [True, False])
@pytest.mark.parametrize("special", [False, True])
def test_a_jade_revealer_feeds_with_maize_only_when_jade_is_not_the_trade_card(special, alone):
    # the ruling: "Revealing Jade or feeding the city with Maize counts as the player's one Trade card of the round",
    # whether Maize feeds alone or with other cards (feed_alone)
    rules = switched(special_is_trade=special, feed_alone=alone)
    g = table_game([["Jade", "Maize", "Plaza"], ["Altar"]], rules=rules, population=9)
    assert g.bid_phase({0: bid(g, 0, jade=True), 1: bid(g, 1, "Altar")}) == 0
    assert 0 in g.traded
    assert g.can_farm(0) is not special
    farm = ("Maize",) if alone else ("Maize", "Plaza")
    if special:
        with pytest.raises(IllegalMove, match="already played a Trade card this round, so cannot use Maize"):
            g.farm_phase(tuple(card(g, 0, name) for name in farm))
        assert g.farm_phase(()) is False and g.end == "famine"
    else:
        assert g.farm_phase(tuple(card(g, 0, name) for name in farm)) is True and not g.over


@pytest.mark.parametrize("alone", [True, False])
@pytest.mark.parametrize("special", [False, True])
def test_the_priest_king_after_jade_is_offered_maize_only_when_jade_is_not_the_trade_card(special, alone):
    rules = switched(special_is_trade=special, feed_alone=alone)
    g = table_game([["Jade", "Maize", "Plaza"], ["Altar"]], rules=rules, population=9)
    state = AltunHaState(g, start=False)
    state.kind, state.player, state._bids = "bid", 0, []
    state.apply_action(bid(g, 0, jade=True))
    state.apply_action(bid(g, 1, "Altar"))
    assert (state.kind, state.player) == ("farm_build", 0)
    farms = {tuple(g.table.name[c] for c in a.farm) for a in state.legal_actions()}
    assert farms == ({()} if special else {("Maize",)} if alone else {("Maize",), ("Maize", "Plaza")})


@pytest.mark.parametrize("special", [False, True])
def test_greedy_reveals_jade_only_for_a_farm_it_may_still_pay(special):
    # Maize feeds Population 20; the temples take Steps (6) and Stairs (4): a Build worth 10
    g = table_game([["Jade", "Maize", "Steps", "Stairs"], ["Altar"]], rules=switched(special_is_trade=special),
                   population=20)
    g.temples = [[(0, v) for v in range(1, 6)], [(0, v) for v in range(1, 4)]]   # tops 5 and 3 (only values count)
    chosen = player_factory("greedy")(None).policy.bid(g, 0)
    assert (chosen.jade is not None) is (not special)


@pytest.mark.parametrize("ends", [False, True])
@pytest.mark.parametrize("trade", ["Stone", "Salt"])
def test_a_drawing_trade_card_on_an_empty_supply_does_not_draw_itself_back(ends, trade):
    # effect first, then the card goes onto the discard pile: with no card left, the player draws nothing
    g = table_game([[trade, "Plaza"], ["Base"]], rules=switched(empty_deck_ends=ends))
    g.deck, g.discard = [], []
    g.play_trade(0, TradePlay(card(g, 0, trade), target=1 if trade == "Salt" else None))
    assert names(g, g.hands[0]) == ["Plaza"] and names(g, g.discard) == [trade]
    assert (g.over, g.end) == ((True, "empty_deck") if ends else (False, None))


@pytest.mark.parametrize("ends", [False, True])
def test_stone_on_a_short_supply_draws_what_is_left_and_is_discarded_after(ends):
    g = table_game([["Stone"], ["Base"]], rules=switched(empty_deck_ends=ends))
    g.deck, g.discard = [], [card(g, 1, "Base")]
    g.hands[1] = []
    g.play_trade(0, TradePlay(card(g, 0, "Stone")))
    assert names(g, g.hands[0]) == ["Base"] and names(g, g.discard) == ["Stone"] and g.deck == []
    assert (g.over, g.end) == ((True, "empty_deck") if ends else (False, None))


@pytest.mark.parametrize("ends", [False, True])
def test_ceramics_after_a_reshuffle_never_looks_at_itself(ends):
    g = table_game([["Ceramics"], ["Altar"]], rules=switched(empty_deck_ends=ends))
    g.deck, g.discard = [], [card(g, 1, "Altar")]
    g.hands[1] = []
    looked_at = []
    g.play_trade(0, TradePlay(card(g, 0, "Ceramics")), lambda looked: looked_at.extend(looked) or looked[0])
    assert names(g, looked_at) == ["Altar"] and names(g, g.hands[0]) == ["Altar"]
    assert names(g, g.discard) == ["Ceramics"] and not g.over


@pytest.mark.parametrize("ends", [False, True])
def test_ceramics_on_an_empty_supply_takes_nothing_and_ends_the_game_only_under_the_ruling(ends):
    g = table_game([["Ceramics"], []], rules=switched(empty_deck_ends=ends))
    g.deck, g.discard = [], []
    g.play_trade(0, TradePlay(card(g, 0, "Ceramics")), lambda looked: pytest.fail("nothing to look at"))
    assert g.hands[0] == [] and names(g, g.discard) == ["Ceramics"]
    assert (g.over, g.end) == ((True, "empty_deck") if ends else (False, None))


@pytest.mark.parametrize("ends", [False, True])
def test_an_empty_supply_in_the_trade_phase_ends_the_game_at_once_not_at_the_next_draw(ends):
    """Under empty_deck_ends the game ends when the Stone finds no card: nobody trades or bids after it.
    Without the ruling the round goes on, and the next Draw, with cards discarded since, ends nothing."""
    g = table_game([["Stone", "Steps"], ["Obsidian", "Stairs"]], rules=switched(empty_deck_ends=ends), calendar=1)
    g.calendar = 1       # the first Calendar phase passes it on to player 0, who trades first
    g.deck, g.discard = [], []
    state = AltunHaState(g, start=False)
    state._order, state._next = [0, 1], 0
    state._next_trader()
    assert (state.kind, state.player) == ("trade", 0)
    state.apply_action(TradePlay(card(g, 0, "Stone")))
    if ends:
        assert state.is_terminal() and state.end == "empty_deck" and g.round == 1
        assert names(g, g.hands[1]) == ["Obsidian", "Stairs"] and g.scores == [0, 0]
        return
    assert (state.kind, state.player) == ("trade", 1)
    state.apply_action(TradePlay(card(g, 1, "Obsidian")))
    state.apply_action(bid(g, 0, "Steps"))
    state.apply_action(bid(g, 1, "Stairs"))
    assert not state.is_terminal() and len(g.discard) >= 2


@pytest.mark.parametrize("ends", [False, True])
def test_an_empty_supply_in_the_draw_phase_ends_the_game_before_the_trade_phase_only_under_the_ruling(ends):
    g = table_game([["Steps"], ["Stairs", "Stone"]], rules=switched(empty_deck_ends=ends), calendar=1)
    g.deck, g.discard = [card(g, 0, "Steps")], []     # one card left for two players drawing 2 each
    g.hands[0] = []
    state = AltunHaState(g, start=False)
    state._new_round()                                 # Calendar to player 0, Population, Draw
    assert names(g, g.hands[0]) == ["Steps"] and names(g, g.hands[1]) == ["Stairs", "Stone"]
    if ends:
        assert state.is_terminal() and g.end == "empty_deck" and g.round == 2 and g.phase == "Draw"
    else:
        assert not state.is_terminal() and (state.kind, state.player) == ("trade", 1)
