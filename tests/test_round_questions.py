"""The round's questions (`kitgen solve --question bid|end|trade`) against exhaustive references written
from the seed's sentences, under every ruling that bears on them."""

import json
from dataclasses import replace
from itertools import product

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kitgen.data.game import load_game
from kitgen.errors import OptionError
from solver.engines import get_engine
from tests import round_reference as ref
from tests.conftest import run

ENGINE = get_engine("altun-ha")
GAME = load_game("altun-ha")
BASE = ENGINE.question_rules(GAME, {}, "--rule")
VALUES = {"Plaza": 1, "Base": 2, "Stage": 3, "Stairs": 4, "Façade": 5, "Steps": 6, "Platform": 7, "Altar": 8,
          "Sun God": 7, "Moon Goddess": 7}
BID_RULINGS = {"tie_drop": ("true", "false"), "points_decide": ("lowest_tie", "highest_tie"),
               "empty_bid": ("counts", "never_wins", "no_bid_card")}


def ask(fields: dict, rules=BASE) -> dict:
    return ENGINE.solve(ENGINE.read_position(fields, rules), rules)


# the strategies a question is drawn from, made once: the same draws as strategies made for each
PLAYERS, BID, SCORE = st.integers(2, 6), st.lists(st.sampled_from(list(VALUES)[:8]), max_size=2), st.integers(-2, 3)
JADES = {n: st.sets(st.integers(0, n - 1), max_size=3) for n in range(2, 7)}


@st.composite
def bids(draw):
    players = draw(PLAYERS)
    cards = [draw(BID) for _ in range(players)]
    gods = iter(["Sun God", "Moon Goddess"])
    for bid in cards:                          # now and then a God card, each at most once
        if bid and draw(st.booleans()) and draw(st.booleans()):
            god = next(gods, None)
            if god:
                bid[0] = god
    jades = draw(JADES[players])
    scores = [draw(SCORE) for _ in range(players)]           # few values: ties on points happen
    return cards, sorted(jades), scores


# each example checks 12 or 8 rule sets: half the profile's examples (250 in CI) check thousands of answers
HALF = max(50, settings.default.max_examples // 2)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=HALF)
@given(bids())
def test_the_bid_under_every_combination_of_its_rulings_is_the_references(question):
    cards, jades, scores = question
    # a deck with room for any bids, three Jades among them, so that several players can reveal one (the
    # rulebook says what happens then)
    rules = replace(BASE, deck=BASE.deck.changed(counts={**{n: 12 for n in list(VALUES)[:8]}, "Jade": 3}))
    bids = [bid + (["Jade"] if p in jades else []) for p, bid in enumerate(cards)]
    answer = ask({"question": "bid", "bids": bids, "scores": scores}, rules)
    assert len(answer["by_rulings"]) == 12
    values = [[VALUES[n] for n in bid] for bid in cards]
    for row in answer["by_rulings"]:
        expected = ref.bid_winner(values, set(jades), scores, row["tie_drop"] == "true", row["points_decide"],
                                  row["empty_bid"])
        assert row["winner"] == (None if expected is None else expected + 1), (row, bids, scores)
    # the answer under the game's rulings, and its words, name the winner the reference names
    expected = ref.bid_winner(values, set(jades), scores, True, "lowest_tie", "counts")
    assert answer["winner"] == (None if expected is None else expected + 1)
    assert answer["verdict"] == (f"Player {expected + 1} wins the bid and becomes Priest King." if expected is not None
                                 else "Nobody wins the bid: nobody becomes Priest King this round.")


END_SCORE = st.integers(-5, 20)
KINGS, CALENDARS = {n: st.integers(0, n) for n in range(2, 7)}, {n: st.integers(1, n) for n in range(2, 7)}


@st.composite
def endings(draw):
    players = draw(PLAYERS)
    scores = [draw(END_SCORE) for _ in range(players)]
    king = draw(KINGS[players])          # 0: the deck and the discard pile ran out
    calendar = draw(CALENDARS[players])
    return scores, king, calendar


# the rules under each combination of the end's rulings, read once for every example
END_RULES = {(end_tie, negative, deck_ends): ENGINE.question_rules(
    GAME, {"end_tie": end_tie, "negative_scores": negative, "empty_deck_ends": deck_ends}, "--rule")
    for end_tie, negative, deck_ends in product(("shared", "turn_order"), ("true", "false"), ("true", "false"))}


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=HALF)
@given(endings())
def test_the_end_of_the_game_under_every_ruling_is_the_references(question):
    scores, king, calendar = question
    for end_tie, negative, deck_ends in product(("shared", "turn_order"), ("true", "false"), ("true", "false")):
        if king == 0 and deck_ends == "false":
            continue
        rules = END_RULES[end_tie, negative, deck_ends]
        answer = ask({"question": "end", "scores": scores, "king": king, "calendar": calendar}, rules)
        expected = ref.game_winners(scores, king - 1 if king else None, calendar - 1, rules.rules.famine_penalty,
                                    negative == "true", end_tie)
        assert answer["winners"] == [p + 1 for p in expected], (scores, king, calendar, end_tie, negative)
        assert answer["shared"] == (len(expected) > 1)


def test_every_bid_of_a_small_table_exhaustively():
    """Three players, every bid of 0 to 2 cards from values 1, 2 and a God (7), every Jade and points 0 or 1."""
    options = [[], [1], [2], [7], [1, 2], [2, 7]]
    names = {1: "Plaza", 2: "Base", 7: None}
    checked = 0
    for values in product(options, repeat=3):
        gods = iter(["Sun God", "Moon Goddess", "Hero Twins", "Maize God", "Death Gods", "Rain Gods"])
        cards = [[names[v] or next(gods) for v in bid] for bid in values]
        for jade in (None, 0, 2):
            for scores in ((0, 0, 0), (1, 0, 1)):
                bids = [bid + (["Jade"] if p == jade else []) for p, bid in enumerate(cards)]
                answer = ask({"question": "bid", "bids": bids, "scores": list(scores)})
                for row in answer["by_rulings"]:
                    expected = ref.bid_winner([list(v) for v in values], {jade} - {None}, list(scores),
                                              row["tie_drop"] == "true", row["points_decide"], row["empty_bid"])
                    assert row["winner"] == (None if expected is None else expected + 1), (row, bids, scores)
                    checked += 1
    assert checked == 6 ** 3 * 3 * 2 * 12


def test_the_bid_answer_shows_its_numbers_and_names_its_rulings():
    result = run("solve", "--question", "bid", "--bids", "Stairs,Facade;Platform,Plaza;God;", "--scores", "3,5,2,8")
    text = result.output
    assert result.exit_code == 0, text
    assert "Player 1: Stairs (4) + Façade (5) = 9; Player 2: Platform (7) + Plaza (1) = 8" in text
    assert "Player 4: no cards = 0" in text
    assert "Player 1's 9 is the highest total: Player 1 wins the bid." in text
    tied = run("solve", "--question", "bid", "--bids", "Steps;Steps;Stage;", "--scores", "4,2,0,9").output
    assert "Players 1 and 2 tie for the highest total, 6." in tied
    assert "They drop out and the next lower total wins (Playtest ruling 4: A tie for the highest bid)." in tied
    assert "The next lower total, 3, is Player 3's alone: Player 3 wins the bid." in tied
    assert "This answer rests on tie_drop=true (Playtest ruling 4: A tie for the highest bid)." in tied
    assert "tie_drop=false: Player 2 wins the bid (fewer points)" in tied
    assert "Not used by this question: rulings 1, 2, 3, 7, 8, 9, 10, 11." in tied


def test_the_end_answer_shows_its_numbers_and_names_its_rulings():
    text = run("solve", "--question", "end", "--scores", "12,5,12,9", "--king", "2", "--calendar", "3").output
    assert "Player 2 loses 13: 5 - 13 = -8 (scores can go below zero, Playtest ruling 10: Scores below zero)." in text
    assert "Players 1 and 3 tie for the most points, 12: they share the victory (Playtest ruling 11: A tie for the " \
           "most points at the end)." in text
    assert "end_tie=turn_order: Player 3 wins" in text
    floor = run("solve", "--question", "end", "--scores", "12,5,12,9", "--king", "2", "--rule",
                "negative_scores=off", "--json")
    assert json.loads(floor.output)["scores"] == [12, 0, 12, 9]


@pytest.mark.parametrize("args, message", [
    (["--question", "bid"], "--bids: missing: give each player's bid"),
    (["--question", "bid", "--bids", "Stage;Stone"], "--bids: player 2: Stone cannot be bid; only Bid and God cards "
                                                     "can (and Jade, revealed with the bid)"),
    (["--question", "bid", "--bids", "Stage;Base", "--scores", "1,2,3"], "--scores: give one score a player: 2 players"),
    (["--question", "bid", "--bids", "Stage,Base,Plaza;Base"], "--bids: player 1: a bid has at most 2 cards, not 3"),
    (["--question", "bid", "--bids", "Jade;Base", "--traders", "1", "--rule", "special_is_trade=on"],
     "--bids: player 1 cannot reveal Jade: he has played a Trade card this round"),
    (["--question", "end", "--scores", "3,4"], "--king: missing: give the Priest King who cannot feed the people"),
    (["--question", "end", "--scores", "3,4", "--king", "0"], "--king: 0 (the deck and the discard pile ran out) ends "
                                                              "the game only under empty_deck_ends=true"),
    (["--question", "end", "--scores", "3,4", "--king", "1", "--hand", "Stage"], "--hand: is not part of the end "
                                                                                 "question"),
    (["--question", "trade", "--hand", "Stage"], "--hand: 'Stage' is not a Trade card"),
    (["--question", "bid", "--bids", "Stage;Base", "--play", "farm Stage"], "--play: is for the Farm and Build "
                                                                            "question, not the bid question"),
    (["--question", "coin"], "--question: takes one of turn, bid, end, trade, not 'coin'"),
])
def test_bad_round_questions_are_one_line(args, message):
    result = run("solve", *args)
    assert result.exit_code == 2 and len(result.output.splitlines()) == 1
    assert message in result.output, result.output


def test_trade_cards_say_when_they_are_played_under_the_rulings():
    text = run("solve", "--question", "trade", "--hand", "Jade,Maize,Pyrite").output
    assert "Jade: Bid phase (phase 5), revealed with your bid, not in the Trade phase" in text
    assert "Revealing it is not your one Trade card: you may also play one in the Trade phase of the same round " \
           "(Playtest ruling 3: Jade, Maize and the one Trade card)." in text
    assert "Maize: Farm phase (phase 6), by the Priest King, not in the Trade phase, discarded on its own " \
           "(Playtest ruling 7: Maize and other cards in the Farm)" in text
    assert "Effect: take 3 points from one opponent" in text and "(Playtest ruling 10: Scores below zero)" in text
    strict = run("solve", "--question", "trade", "--hand", "Jade", "--rule", "special_is_trade=on").output
    assert "Revealing it counts as your one Trade card of the round: not after playing one in the Trade phase" in strict
    with pytest.raises(OptionError):
        ENGINE.read_position({"question": "trade", "hand": ["Sun God"]}, BASE)
