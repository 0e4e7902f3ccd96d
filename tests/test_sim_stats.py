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
                famine_empty_bid=False):
    """A two-player game's record with the given win shares by seat and Trade plays (name, seat)."""
    points = points or [[0] * len(SOURCES) for _ in wins]
    return {
        "rounds": rounds, "end": end, "lead_changes": 0, "clear_round": 1,
        "seats": [{"policy": "greedy", "score": 10 * w + sum(pts), "win": w} for w, pts in zip(wins, points)],
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
    assert "In 1 of 1 famines (100.0%) the starving Priest King had won the bid with a bid of no cards." \
        in s["findings"]


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
