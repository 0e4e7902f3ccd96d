"""Confidence intervals and chart geometry of the balance report."""

import pytest

from kitgen.layout.chart_axes import label_every, nice_ticks, slots
from solver.altunha.sim.engine import SOURCES
from solver.altunha.sim.runner import Spec
from solver.altunha.sim.stats import how_games_ended, mean_ci, percentile, summarize, wilson
from solver.altunha.sim.variants import load_rules


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


def test_nice_ticks_cover_the_range_with_round_steps():
    ticks = nice_ticks(0, 0.37, 5)
    assert ticks[0] == 0 and ticks[-1] >= 0.37
    steps = {round(b - a, 9) for a, b in zip(ticks, ticks[1:])}
    assert len(steps) == 1 and steps.pop() in (0.1, 0.05)
    negative = nice_ticks(-13, 8)
    assert negative[0] <= -13 and negative[-1] >= 8 and 0 in negative


def test_bar_slots_fill_the_length_without_overlap():
    bars = slots(4, 10, 200, 0.25)
    assert bars[0].start == pytest.approx(10 + 50 * 0.125)
    assert all(b.size == pytest.approx(37.5) for b in bars)
    assert all(a.start + a.size < b.start for a, b in zip(bars, bars[1:]))
    assert bars[-1].start + bars[-1].size <= 210
    k = label_every(40, 200, 10)
    shown = -(-40 // k)
    assert shown * 10 <= 200 and -(-40 // (k - 1)) * 13 > 200  # the labels fit, one more would not
    assert label_every(4, 200, 10) == 1


# --- figures from hand-made records ------------------------------------------------------

def game_record(wins, trades=(), end="famine", rounds=10):
    """A two-player game's record with the given win shares by seat and Trade plays (name, seat)."""
    return {
        "rounds": rounds, "end": end, "dealt_calendar_seat": 1,
        "seats": [{"policy": "greedy", "score": 10 * w, "win": w, "points": [0] * len(SOURCES)} for w in wins],
        "trades": list(trades), "king_rounds": rounds, "no_build": 0, "build_rounds": rounds,
        "reasons": {"highest": rounds}, "max_no_king_streak": 0, "lead_changes": 0, "clear_round": 1,
        "famine_seat": 0 if end == "famine" else None, "famine_margin": 0 if end == "famine" else None,
        "famine_winner": False, "famine_decisive": False, "final_population": 9,
    }


SPEC = Spec(load_rules(), 2, ("greedy",), 0)


def test_trade_card_win_rate_counts_each_player_once_per_game_with_his_share():
    records = [
        game_record([0.5, 0.5], [("Stone", 0), ("Stone", 0)]),  # played again after a reshuffle; a shared win
        game_record([0.0, 1.0], [("Stone", 1), ("Obsidian", 0)]),
        game_record([0.0, 1.0], [("Stone", 0)]),
    ]
    stone = summarize(records, SPEC)["trade_cards"]["Stone"]
    assert stone["plays"] == 4 and stone["players"] == 3
    assert stone["per_game"] == pytest.approx(4 / 3, abs=1e-4)
    assert stone["player_won"]["n"] == 3
    assert stone["player_won"]["rate"] == pytest.approx((0.5 + 1.0 + 0.0) / 3, abs=1e-4)
    obsidian = summarize(records, SPEC)["trade_cards"]["Obsidian"]
    assert obsidian["player_won"]["rate"] == 0 and obsidian["player_won"]["n"] == 1


def test_a_warning_when_most_games_are_cut_off():
    famine = game_record([1.0, 0.0])
    stalemate = game_record([0.5, 0.5], end="stalemate", rounds=14)
    timeout = game_record([0.0, 1.0], end="timeout", rounds=40)
    assert summarize([famine, famine, stalemate, timeout], SPEC)["warning"] is None  # half is not most
    warning = summarize([famine, stalemate, stalemate, timeout], SPEC)["warning"]
    assert warning.startswith("WARNING: 3 of 4 games (75.0%) did not end by the rules")
    assert "stalemate 2, stalled 0, round limit 1" in warning and "stop bidding" in warning


def test_how_games_ended_in_words():
    assert how_games_ended({"stalemate": 10000}) == "all 10000 games ended at the stalemate cut-off"
    assert how_games_ended({"timeout": 2, "famine": 5}) == "games ended in a famine: 5, at the round limit: 2"
