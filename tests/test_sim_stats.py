"""Confidence intervals, and the figures and findings the balance report computes from game records."""

import statistics

import pytest

from solver.altunha.sim.report import deck_figures
from solver.altunha.sim.variants import load_setup
from solver.engines import get_engine
from solver.simulation.runner import Spec
from solver.simulation.stats import end_words, how_games_ended, mean_ci, percentile, summarize, wilson

SETUP = load_setup()
SOURCES = SETUP.sources


def test_wilson_matches_published_values():
    # Newcombe (1998), table I: 0/10 -> [0, 0.2775]; 81/263 -> [0.2553, 0.3662]
    w = wilson(0, 10)
    assert w["low"] == 0 and w["high"] == pytest.approx(0.2775, abs=1e-4)
    w = wilson(81, 263)
    assert w["low"] == pytest.approx(0.2553, abs=1e-4) and w["high"] == pytest.approx(0.3662, abs=1e-4)
    assert wilson(0, 0)["rate"] is None


def test_mean_interval_and_percentiles():
    m = mean_ci([1, 2, 3, 4, 5])
    assert m["mean"] == 3 and m["sd"] == pytest.approx(1.5811, abs=1e-4)
    assert m["low"] == pytest.approx(3 - 1.96 * 1.5811 / 5 ** 0.5, abs=1e-3)
    assert percentile([1, 2, 3, 4, 5], 0.5) == 3 and percentile([10, 20], 0.1) == 11
    assert percentile(list(range(1, 101)), 0.9) == pytest.approx(90.1)


# --- figures from hand-made records ------------------------------------------------------

def game_record(wins, trades=(), end="famine", rounds=10, points=None, empty_rounds=0, kings=None,
                famine_empty_bid=False, policies=("greedy", "greedy")):
    """A two-player game's record with the given win shares by seat and Trade plays (name, seat)."""
    points = points or [[0] * len(SOURCES) for _ in wins]
    return {
        "rounds": rounds, "end": end, "lead_changes": 0, "clear_round": 1,
        "seats": [{"policy": policy, "score": 10 * w + sum(pts), "win": w}
                  for w, pts, policy in zip(wins, points, policies)],
        "figures": {
            "deck": deck_figures(SETUP), "dealt_calendar_seat": 1, "points": points,
            "trades": list(trades), "king_rounds": rounds if kings is None else kings, "empty_rounds": empty_rounds,
            "no_build": 0, "declined": 0, "build_rounds": rounds,
            "reasons": {"highest": rounds}, "max_no_king_streak": 0,
            "famine_seat": 0 if end == "famine" else None, "famine_margin": 0 if end == "famine" else None,
            "famine_winner": False, "famine_empty_bid": famine_empty_bid, "famine_decisive": False,
            "final_population": 9,
        },
    }


SPEC = Spec("altun-ha", SETUP, 2, ("greedy",), 0)


def summarize_own(records):
    """The summary with Altun Ha's own figures and findings beside the generic ones."""
    s = summarize(records, SPEC)
    return {**s, **s["engine_report"]["figures"], "findings": s["findings"] + s["engine_report"]["findings"]}


def test_trade_card_win_rate_counts_each_player_once_per_game_with_his_share():
    records = [
        game_record([0.5, 0.5], [("Stone", 0), ("Stone", 0)]),  # played again after a reshuffle; a shared win
        game_record([0.0, 1.0], [("Stone", 1), ("Obsidian", 0)]),
        game_record([0.0, 1.0], [("Stone", 0)]),
    ]
    stone = summarize_own(records)["trade_cards"]["Stone"]
    assert stone["plays"] == 4 and stone["players"] == 3
    assert stone["per_game"] == pytest.approx(4 / 3, abs=1e-4)
    assert stone["player_won"]["n"] == 3
    assert stone["player_won"]["rate"] == pytest.approx((0.5 + 1.0 + 0.0) / 3, abs=1e-4)
    obsidian = summarize_own(records)["trade_cards"]["Obsidian"]
    assert obsidian["player_won"]["rate"] == 0 and obsidian["player_won"]["n"] == 1


def test_a_point_cards_win_rate_is_also_given_without_its_points():
    gain = SOURCES.index("obsidian")
    won_by_obsidian = [0] * len(SOURCES)
    won_by_obsidian[gain] = 5
    # seat 0 wins 15 to 12 only thanks to Obsidian's 5 points: without them seat 1 wins
    record = game_record([1.0, 0.0], [("Obsidian", 0)], points=[won_by_obsidian, [0] * len(SOURCES)])
    record["seats"][0]["score"], record["seats"][1]["score"] = 15, 12
    obsidian = summarize_own([record] * 40)["trade_cards"]["Obsidian"]
    assert obsidian["player_won"]["rate"] == 1.0
    assert obsidian["player_won_without_its_points"]["rate"] == 0.0
    assert "player_won_without_its_points" not in summarize_own([record])["trade_cards"]["Stone"]
    # 40 winning players of Obsidian, but no finding: its own points explain the wins
    assert not any("Obsidian" in line for line in summarize_own([record] * 40)["findings"])


def test_a_warning_and_a_measured_finding_when_most_games_reach_the_cap():
    famine = game_record([1.0, 0.0], famine_empty_bid=True)
    capped = game_record([0.5, 0.5], end="cap", rounds=200, empty_rounds=150, kings=40)
    assert summarize([famine, famine, capped], SPEC)["warning"] is None  # a third is not most
    s = summarize_own([famine, capped, capped])
    assert s["warning"].startswith("WARNING: 2 of 3 games (66.7%) were stopped at the round cap of 200 rounds")
    # 300 of the 400 rounds of the capped games had every bid empty; 320 had no Priest King
    line = next(f for f in s["findings"] if "a safeguard of the simulator" in f)
    assert "every player bid no cards in 75.0% of rounds" in line and "Priest King in 80.0%" in line
    assert s["ends"]["cap"]["rate"] == pytest.approx(2 / 3, abs=1e-4)
    assert ("The only famine of greedy players followed a bid of no cards: these players bid cards only when the "
            "hand left feeds the city, so this follows from their bidding rule, not from the rules of the game.") \
        in s["findings"]
    assert not any("who may bid into a famine" in line for line in s["findings"])


def test_length_figures_use_the_standard_library():
    records = [game_record([1.0, 0.0], rounds=r) for r in (3, 9, 12, 12, 14, 20)]
    length = summarize(records, SPEC)["length"]
    assert length["median"] == statistics.median([3, 9, 12, 12, 14, 20]) == 12
    assert length["histogram"] == {"3": 1, "9": 1, "12": 2, "14": 1, "20": 1}
    assert (length["min"], length["max"]) == (3, 20)


def test_how_games_ended_in_words():
    words = end_words(get_engine("altun-ha"))
    assert how_games_ended({"famine": 10000}, words) == "all 10000 games ended in a famine"
    assert how_games_ended({"cap": 2, "famine": 5}, words) == "games ended in a famine: 5, stopped at the round cap: 2"
    assert how_games_ended({"cap": 3}, words) == "all 3 games were stopped at the round cap"


# --- findings a designer can trust: the policies of the run accounted for -------------------------

def test_a_trade_card_is_judged_against_the_same_policies_playing_other_trade_cards():
    def games(card, count, greedy_won_in_ten):
        """Greedy in seat 1 plays ``card``, random in seat 2 plays Honey; greedy wins so many in ten."""
        return [game_record([w, 1 - w], [(card, 0), ("Honey", 1)], policies=("greedy", "random"))
                for w in (1.0 if k % 10 < greedy_won_in_ten else 0.0 for k in range(count))]
    # greedy players win 60% of their games whatever card they play: Stone is no advantage, though against
    # a flat fair share of 50% its 100 players' 60% [50.2, 69.1] would look like one
    s = summarize_own(games("Stone", 100, 6) + games("Salt", 100, 6))
    stone = s["trade_cards"]["Stone"]["against_other_cards"]
    assert (stone["rate"], stone["expected"], stone["difference"]) == (0.6, 0.6, 0.0) and stone["players"] == 100
    assert stone["low"] < 0 < stone["high"]
    assert not any(f.startswith(("Players of Stone", "Players of Salt")) for f in s["findings"])
    honey = s["trade_cards"]["Honey"]["against_other_cards"]   # only random players: nobody to compare with
    assert honey["players"] == 0 and honey["expected"] is None
    # Obsidian's greedy players win 90%, the same policy's players of Salt 60%: Obsidian helps
    s = summarize_own(games("Obsidian", 50, 9) + games("Salt", 100, 6))
    obsidian = s["trade_cards"]["Obsidian"]["against_other_cards"]
    assert (obsidian["rate"], obsidian["expected"]) == (0.9, 0.6) and obsidian["difference"] == pytest.approx(0.3)
    assert obsidian["low"] > 0 and obsidian["players"] == 50 and obsidian["others"] == 100
    line = next(f for f in s["findings"] if f.startswith("Players of Obsidian"))
    assert line.startswith("Players of Obsidian won 90.0% of their games, against 60.0% for the same policies "
                           "playing other Trade cards: a difference of +30.0 points [")


def test_the_same_policies_are_weighted_as_among_the_cards_players():
    # Stone: 30 greedy players (winning 50%) and 30 random (winning 50%); other cards: greedy win 80%,
    # random 20%.  Weighted as Stone's players are, the comparison is 50%: no finding.
    records = []
    for k in range(30):
        win = 1.0 if k % 2 else 0.0
        records.append(game_record([win, 1 - win], [("Stone", 0), ("Salt", 1)], policies=("greedy", "random")))
        records.append(game_record([win, 1 - win], [("Stone", 0), ("Salt", 1)], policies=("random", "greedy")))
    for k in range(40):
        win = 1.0 if k % 5 else 0.0
        records.append(game_record([win, 1 - win], [("Pyrite", 0), ("Cocoa", 1)], policies=("greedy", "random")))
    stone = summarize_own(records)["trade_cards"]["Stone"]["against_other_cards"]
    assert stone["rate"] == pytest.approx(0.5) and stone["players"] == 60
    # greedy's other cards: Salt 15/30 won and Pyrite 32/40; random's: Salt 15/30 and Cocoa 8/40
    assert stone["expected"] == pytest.approx(0.5 * (47 / 70) + 0.5 * (23 / 70))
    assert not any(f.startswith("Players of Stone") for f in summarize_own(records)["findings"])


def test_a_card_that_shows_cards_is_left_out_unless_a_player_reads_them():
    blind = [game_record([1.0, 0.0], [("Codex", 0), ("Stone", 1)]) for _ in range(40)]
    s = summarize_own(blind)
    assert s["trade_cards"]["Codex"]["left_out"] and not s["trade_cards"]["Stone"]["left_out"]
    assert ("Codex is left out of the Trade card findings: none of these players reads the cards it shows, so a "
            "win rate would judge Codex by nothing it does.") in s["findings"]
    assert "Codex" not in next(c for c in s["engine_report"]["charts"]
                               if c["title"] == "Win rate of a Trade card's players")["labels"]
    looking = [game_record([1.0, 0.0], [("Codex", 0), ("Stone", 1)], policies=("lookahead", "greedy"))
               for _ in range(40)]
    s = summarize_own(looking)
    assert not s["trade_cards"]["Codex"]["left_out"] and s["trade_cards"]["Codex"]["read_by"] == ["lookahead"]
    assert not any("left out" in f for f in s["findings"])


def test_salt_is_left_out_unless_a_player_reads_the_hand_it_shows():
    # Salt draws a card and shows a hand: to players who never read the hand, its win rate is its draw's
    def games(first):
        return [game_record([1.0, 0.0], [("Salt", 0), ("Stone", 1)], policies=(first, "greedy")) for _ in range(40)] \
            + [game_record([1.0, 0.0], [("Codex", 0), ("Honey", 1)], policies=(first, "greedy")) for _ in range(40)]
    s = summarize_own(games("greedy"))
    assert s["trade_cards"]["Salt"]["left_out"] and s["trade_cards"]["Salt"]["read_by"] == []
    assert ("Salt and Codex are left out of the Trade card findings: none of these players reads the cards they "
            "show, so a win rate would judge Salt by its draw alone and Codex by nothing it does.") in s["findings"]
    assert not any(f.startswith("Players of Salt") for f in s["findings"])
    labels = next(c for c in s["engine_report"]["charts"] if c["title"] == "Win rate of a Trade card's players")
    assert "Salt" not in labels["labels"] and "Stone" in labels["labels"]
    s = summarize_own(games("lookahead"))         # a player who reads the hand: Salt is judged as any card
    assert not s["trade_cards"]["Salt"]["left_out"] and s["trade_cards"]["Salt"]["read_by"] == ["lookahead"]
    assert not any("left out" in f for f in s["findings"])


def test_famines_after_no_cards_are_counted_among_the_players_who_may_bid_into_one():
    def famine(policy, empty):
        record = game_record([0.0, 1.0], policies=(policy, "greedy"), famine_empty_bid=empty)
        record["figures"]["famine_seat"] = 0
        return record
    records = [famine("closer", True)] * 3 + [famine("closer", False)] + [famine("greedy", True)] * 5
    s = summarize_own(records)
    assert s["famines"]["won_with_no_cards"]["games"] == 3 and s["famines"]["won_with_no_cards"]["n"] == 4
    assert s["famines"]["bid_only_if_fed"] == {"games": 5, "no_cards": 5, "policies": ["greedy"]}
    assert ("Of the 4 famines of closer players, who may bid into a famine, 3 (75.0%) followed a bid of no cards "
            "by the starving Priest King.") in s["findings"]
    assert any(f.startswith("All 5 famines of greedy players followed a bid of no cards: these players bid cards "
                            "only when the hand left feeds the city") for f in s["findings"])
