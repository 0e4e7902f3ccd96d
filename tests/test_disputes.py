"""Fifteen kinds of dispute at the table, each put to `kitgen solve` as a sceptical player would: every answer
shows its numbers, and names the rule or the playtest ruling (number and title, as the rulebook prints them)
that decides it.  The disputes about the page (a stale answer, an empty hand, Population in steps of one, a
reload, a phone) are asked of the page itself in test_web_browser.py: test_the_answer_on_screen_is_never_stale,
test_an_empty_hand_says_there_is_nothing_to_farm_with (and dispute 12 below, for the command),
test_a_position_lives_in_the_address_and_survives_a_reload (Population typed, a temple changed in place),
test_undo_steps_back_through_the_changes and
test_on_a_phone_the_hand_stays_in_view_and_the_deck_comes_before_the_answer."""

import json

from tests.conftest import run


def solve(*args) -> str:
    result = run("solve", *args)
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())


def solve_json(*args) -> dict:
    return json.loads(run("solve", *args, "--json").output)


def test_dispute_01_a_forced_famine_shows_the_best_farm_falling_short():
    text = solve("-p", "16", "--hand", "Altar,God,Stone")
    assert "Best play: -13 points (famine)" in text
    assert "No Farm feeds the people: the best two cards, Altar (8) + Sun God (God, 7), make 8 + 7 = 15 < " \
           "Population 16, 1 short." in text
    assert "Famine: the game ends, and the Priest King loses 13 points." in text


def test_dispute_02_a_three_with_no_temple_topped_by_two_says_what_it_needs():
    text = solve("-p", "6", "--hand", "Stage,Steps", "--temples", "1,4")
    assert "Farm: Steps (6): 6 >= Population 6" in text
    assert "Unable to build: Stage (3) needs a temple topped by a 2; the temple tops are 1, 4, and no value-1 card " \
           "or God is left to start a temple. A Priest King unable to build loses 7: -7" in text


def test_dispute_03_the_ruling_that_decides_the_verdict_is_named_and_tried_the_other_way():
    args = ("-p", "9", "--hand", "Maize,God,Base,Steps", "--temples", "1,5")
    text = solve(*args)
    assert "2. Sun God as a 7 on temple 2, topped by a 6 laid just before: +7 (Playtest ruling 8: Building one card " \
           "on the other)" in text
    assert "Total: 6 + 7 = +13" in text
    assert "This answer rests on chain=true (Playtest ruling 8: Building one card on the other): with chain=false " \
           "the best play scores +8 points." in text
    assert solve_json(*args, "--rule", "chain=off")["points"] == 8


def test_dispute_04_why_not_the_other_farm_with_both_sums():
    text = solve("-p", "7", "--hand", "Stage,Stairs,God", "--temples", "2,3")
    assert "Farm: Sun God (God, 7): 7 >= Population 7" in text
    assert "Why not farm Stage + Stairs? Stage (3) + Stairs (4): 3 + 4 = 7 >= Population 7, but it leaves Sun God: " \
           "Sun God as a 4 on temple 2, topped by a 3: +4. +4 against +7: 3 points less." in text
    # and against the player's own play, both sums side by side
    mine = solve("-p", "7", "--hand", "Stage,Stairs,God", "--temples", "2,3", "--play", "farm Stage, Stairs; build God=4@2")
    assert "Your play: farm Stage + Stairs; build Sun God as a 4 on temple 2" in mine
    assert "Farm: Stage (3) + Stairs (4): 3 + 4 = 7 >= Population 7" in mine
    assert "Best play: farm Sun God; build Stage on temple 1, Stairs on temple 2" in mine
    assert "Total: 3 + 4 = +7" in mine and "+4 against +7: 3 points less." in mine


def test_dispute_05_bids_ties_jade_no_cards_and_the_points():
    jade = solve("--question", "bid", "--bids", "Altar,Platform;Plaza,Jade;;", "--scores", "0,0,0,0")
    assert "Player 2 revealed Jade: Player 2 wins the bid, whatever the totals." in jade
    empty = ("--question", "bid", "--bids", "Steps;Steps;;", "--scores", "4,2,1,3")
    counts = solve(*empty)
    assert "Players 3 and 4 bid no cards: a total of 0, which counts like any other (Playtest ruling 6: A bid of no " \
           "cards)." in counts
    assert "The next lower total, 0, is tied too (Players 3 and 4): they drop out as well." in counts
    assert "No lower bid is left: the points decide among the players tied at the lowest total, 0 (Playtest ruling " \
           "5: When every total is tied)." in counts
    assert "Player 3 has 1 point, Player 4 has 3 points: Player 3 has fewer points and wins the bid." in counts
    literal = solve(*empty, "--rule", "empty_bid=no_bid_card")
    assert "a bid of no cards is no bid card, so it is never the next lower bid (Playtest ruling 6: A bid of no " \
           "cards)." in literal
    assert "Player 1 has 4 points, Player 2 has 2 points: Player 2 has fewer points and wins the bid." in literal
    assert "This answer rests on empty_bid=no_bid_card (Playtest ruling 6: A bid of no cards)." in literal
    nobody = solve("--question", "bid", "--bids", ";;", "--scores", "2,2,5", "--rule", "empty_bid=never_wins")
    assert "Nobody bid a card, and a bid of no cards never wins (Playtest ruling 6: A bid of no cards): nobody becomes " \
           "Priest King" in nobody


def test_dispute_06_a_tie_at_the_end_is_a_named_ruling():
    text = solve("--question", "end", "--scores", "20,8,8", "--king", "1", "--calendar", "3")
    assert "Player 1 loses 13: 20 - 13 = 7." in text
    assert "Players 2 and 3 tie for the most points, 8: they share the victory (Playtest ruling 11: A tie for the " \
           "most points at the end)." in text
    assert "This answer rests on end_tie=shared (Playtest ruling 11: A tie for the most points at the end)." in text
    assert "end_tie=turn_order: Player 3 wins" in text


def test_dispute_07_when_a_trade_card_may_be_played():
    text = solve("--question", "trade", "--hand", "Jade,Stone")
    assert "Jade: Bid phase (phase 5), revealed with your bid" in text
    assert "you may also play one in the Trade phase of the same round (Playtest ruling 3: Jade, Maize and the one " \
           "Trade card)." in text
    assert "Stone: Trade phase (phase 4), in turn from the Calendar holder clockwise, once each" in text
    assert "Effect: draw 3 cards, at once; then the card goes onto the discard pile." in text
    assert "special_is_trade=true: Revealing Jade or feeding the city with Maize counts as the player's one Trade " \
           "card of the round." in text


def test_dispute_08_rulings_a_question_does_not_use_are_never_stamped_as_applied():
    text = solve("-p", "7", "--hand", "Stage,Stairs,God", "--temples", "2,3", "--rule", "special_is_trade=true",
                 "--rule", "negative_scores=false", "--rule", "calendar_clockwise=true", "--rule", "tie_drop=false")
    assert "rules changed" not in text
    assert "Not used by this question: rulings 1, 2, 3, 4, 5, 6, 7, 10, 11 (so calendar_clockwise=true, " \
           "special_is_trade=true, tie_drop=false, negative_scores=false change nothing here)." in text
    answer = solve_json("-p", "7", "--hand", "Stage", "--rule", "special_is_trade=true")
    unused = {r["name"]: r for r in answer["rulings"]["not_used"]}
    assert unused["special_is_trade"]["changed"] and unused["special_is_trade"]["label"] == \
        "Playtest ruling 3: Jade, Maize and the one Trade card"


def test_dispute_09_maize_is_kept_on_equal_points_and_the_preference_is_named():
    args = ("-p", "9", "--hand", "Maize,God,Base,Platform", "--temples", "4,7")
    text = solve(*args)
    assert "Farm: Base (2) + Platform (7): 2 + 7 = 9 >= Population 9" in text
    assert "Farm Maize (Maize pays any amount: it feeds Population 9) also scores +8 points" in text
    assert "Both are optimal by the rules; the preference keep_maize_gods (it keeps Maize) puts the best play above " \
           "first: a preference, not a rule." in text
    spent = solve_json(*args, "--prefer", "fewer_cards")
    assert spent["farm"] == ["Maize"] and spent["points"] == 8 and spent["preference"]["name"] == "fewer_cards"


def test_dispute_10_a_god_used_twice_names_the_card():
    text = solve("--hand", "God,3", "-p", "3", "--play", "farm God; build God=3@1")
    assert "Illegal play: the play uses 2 Sun God but the hand holds only 1." in text
    assert "holds none" not in text
    named = solve("--hand", "Sun God,3", "-p", "3", "--play", "farm Sun God; build Sun God=3@1")
    assert "Illegal play: the play uses 2 Sun God but the hand holds only 1." in named


def test_dispute_12_an_empty_hand_says_there_is_nothing_to_farm_with():
    text = solve("-p", "5", "--hand", "")
    assert "Hand: (empty: nothing to farm with)" in text
    assert "Nothing to farm with: the hand is empty." in text
    assert solve_json("-p", "5", "--hand", "")["reasons"]["farm"]["empty"] is True


def test_dispute_13_population_is_given_as_typed():
    # the command takes any Population at once; the page types it too (test_web_browser)
    answer = solve_json("-p", "16", "--hand", "Altar,God")
    assert answer["outcome"] == "famine" and answer["reasons"]["farm"]["total"] == 15
    assert "8 + 7 = 15 < Population 16, 1 short" in answer["reasons"]["text"]
