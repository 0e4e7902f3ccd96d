"""Runs: the same seed gives the same balance.json for any number of workers (and on Dask);
a rule variant changes what it should."""

import gc
import json
from collections import Counter

import pytest

from kitgen.outputs.balance import write_balance
from solver.altunha.sim.variants import load_setup, with_settings_of
from solver.simulation import runner
from solver.simulation.runner import run_games
from solver.simulation.simulate import SimulationResult, simulate
from solver.simulation.stats import summarize

RULES = load_setup()
POLICIES = ("greedy", "random", "closer", "cautious")


def Spec(setup, players, policies, seed):
    return runner.Spec("altun-ha", setup, players, policies, seed)


def test_same_seed_same_balance_json_with_one_and_two_workers():
    # 48 games: the two workers still share them in several chunks each (see runner._pool_chunks).
    # balance.json's bytes are the result's balance_json(), which write_balance writes as they are
    # (test_sim_cli's same-command test writes the files and compares them byte for byte): read here
    # without drawing the two runs' PDF reports, which this test never reads
    one = simulate("altun-ha", games=48, policy=",".join(POLICIES), seed=5, workers=1)
    two = simulate("altun-ha", games=48, policy=",".join(POLICIES), seed=5, workers=2)
    a, b = one.balance_json(), two.balance_json()
    assert a == b
    assert json.loads(a)["baseline"]["games"] == 48
    assert one.summary == two.summary
    other = simulate("altun-ha", games=48, policy=",".join(POLICIES), seed=6, workers=1)
    assert other.summary != one.summary


def test_records_come_back_in_game_order():
    spec = Spec(RULES, 3, ("random",), 9)
    whole = run_games(spec, 60, workers=2)
    first = run_games(spec, 30, workers=1)
    assert whole[:30] == first


def run(settings, games=150, policies=POLICIES, players=4):
    """The summary of a run, with Altun Ha's own figures beside the generic ones (read, never changed:
    tests asking for the same run share one)."""
    key = (tuple(sorted(settings.items())), games, tuple(policies), players)
    if key not in _RUNS:
        spec = Spec(with_settings_of(RULES, settings), players, policies, 21)
        summary = summarize(run_games(spec, games, workers=1), spec)
        _RUNS[key] = {**summary, **summary["engine_report"]["figures"],
                      "findings": summary["findings"] + summary["engine_report"]["findings"]}
    return _RUNS[key]


_RUNS: dict = {}


def test_no_jade_in_the_deck_means_jade_is_never_played():
    base, variant = run({}), run({"count.Jade": 0})
    assert base["trade_cards"]["Jade"]["plays"] > 0
    assert variant["trade_cards"]["Jade"]["plays"] == 0
    assert variant["rules"]["count.Jade"] == 0 and variant["changed_rules"] == ["count.Jade"]


def test_bigger_obsidian_shows_in_points_by_source():
    base, variant = run({}), run({"amount.Obsidian": 40})
    plays = variant["trade_cards"]["Obsidian"]["plays"]
    per_player = variant["points_by_source"]["obsidian"]["mean"]
    assert per_player == pytest.approx(40 * plays / (150 * 4), abs=1e-3)
    assert base["points_by_source"]["obsidian"]["mean"] < per_player / 4


def test_no_build_cards_means_the_priest_king_never_builds():
    s = run({"max_build_cards": 0})
    assert s["priest_king"]["could_not_build"]["rate"] == 1.0
    assert s["priest_king"]["declined_to_build"]["rate"] == 0
    assert s["points_by_source"]["build"]["mean"] == 0


def test_higher_starting_population_shortens_famine_games():
    base = run({}, policies=("random",))
    variant = run({"population_start": 8}, policies=("random",))
    assert variant["length"]["mean"] < base["length"]["mean"]
    assert variant["famine_round"]["mean"] < base["famine_round"]["mean"]


def test_a_round_cap_is_counted_apart_from_the_endings():
    s = run({"round_cap": 2}, policies=("greedy",))
    assert s["length"]["max"] <= 2
    assert s["ends"]["cap"]["count"] + s["ends"]["famine"]["count"] == 150
    assert s["ends"]["cap"]["count"] > 100
    assert s["warning"].startswith(f"WARNING: {s['ends']['cap']['count']} of 150 games")


def test_the_seeds_rules_end_greedy_games_in_famine():
    s = run({}, games=200, policies=("greedy",))
    assert s["ends"]["famine"]["count"] == 200 and s["warning"] is None
    assert s["findings"][0].startswith("All 200 games ended in a famine, after a median of")
    assert "200 of 200 games (100.0%) ended in a famine" in s["findings"][2]


def test_findings_follow_how_the_games_stopped():
    # the same seeds under two rule sets: the rulebook's, where every total counts and greedy games
    # end in famines, and "a bid of no cards never wins", where nobody who cannot feed wins a bid
    famine = run({"round_cap": 40}, games=40, policies=("greedy",))
    stalled = run({"round_cap": 40, "empty_bid": "never_wins"}, games=40, policies=("greedy",))
    assert famine["ends"]["famine"]["count"] == 40 and stalled["ends"]["cap"]["count"] > 30
    assert not any("round cap" in line for line in famine["findings"]) and famine["warning"] is None
    cap_line = next(line for line in stalled["findings"] if "a safeguard of the simulator" in line)
    capped = stalled["at_cap"]
    assert cap_line.startswith(f"{stalled['ends']['cap']['count']} of 40 games")
    assert f"every player bid no cards in {100 * capped['every_bid_empty']['rate']:.1f}% of rounds" in cap_line
    assert capped["every_bid_empty"]["rate"] > 0.3 and stalled["warning"] is not None
    assert famine["bids"]["every_bid_empty"]["rate"] < capped["every_bid_empty"]["rate"]
    assert famine["bid_results"].get("no_bids") is None and stalled["bid_results"]["no_bids"]["count"] > 0


def test_the_leader_exploit_is_found():
    s = run({}, games=200, policies=("closer", "random"), players=2)
    exploit = s["famines"]["by_eventual_winner"]
    assert exploit["games"] > 0
    assert any("still won" in line for line in s["findings"])


def test_compare_runs_both_rule_sets_on_the_same_seeds(tmp_path):
    variant = tmp_path / "pop.toml"
    variant.write_text('name = "crowded"\n[rules]\npopulation_start = 6\n', encoding="utf-8")
    result = simulate("altun-ha", games=80, policy="random", seed=3, workers=1, compare_file=variant)
    write_balance(result, tmp_path)
    data = json.loads((tmp_path / "altun-ha" / "balance.json").read_text(encoding="utf-8"))
    assert data["variant"]["name"] == "crowded"
    assert data["variant"]["rules"]["population_start"] == 6
    assert data["baseline"]["rules"]["population_start"] == 2
    row = next(r for r in data["comparison"] if r["figure"] == "Game length (rounds)")
    assert row["variant"] < row["baseline"]
    assert row["difference"] == pytest.approx(row["variant"] - row["baseline"], abs=1e-3)
    assert result.games_played == 160


def test_dask_cluster_gives_the_same_records():
    from dask import distributed
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                       dashboard_address=None)
    try:
        spec = Spec(RULES, 4, POLICIES, 13)
        # 30 games: two chunks (runner.CHUNK), gathered back in game order
        remote = run_games(spec, 30, cluster=cluster.scheduler_address)
        local = run_games(spec, 30, workers=1)
        assert remote == local
        assert SimulationResult(summarize(remote, spec)).balance_json() == \
            SimulationResult(summarize(local, spec)).balance_json()
    finally:
        cluster.close()


def test_a_game_failing_on_a_dask_worker_is_one_worker_failed_line(monkeypatch):
    from dask import distributed

    from kitgen.errors import WorkerFailed

    def broken(spec, start, stop):
        raise ValueError("a bug in the engine")

    monkeypatch.setattr(runner, "play_chunk", broken)
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                       dashboard_address=None)
    try:
        with pytest.raises(WorkerFailed, match=r"playing games 0-\d+ on the Dask cluster at \S+ failed: "
                                               r"ValueError: a bug in the engine") as caught:
            run_games(Spec(RULES, 4, POLICIES, 13), 60, cluster=cluster.scheduler_address)
        assert caught.value.exit_code == 1 and len(caught.value.lines()) == 1
    finally:
        cluster.close()


def test_one_worker_keeps_finished_games_out_of_the_collectors_scans():
    # the run is watched from a thawed collector (the test session may have frozen what it imported),
    # and the session's frozen objects are frozen again afterwards
    gc.unfreeze()
    try:
        assert gc.get_freeze_count() == 0
        frozen = []
        records = run_games(Spec(RULES, 4, ("greedy",), 8), 60, workers=1,
                            progress=lambda n: frozen.append(gc.get_freeze_count()))
        assert len(frozen) > 1 and all(c > 0 for c in frozen) and frozen == sorted(frozen)
        assert gc.get_freeze_count() == 0  # thawed again once the run is over
    finally:
        gc.freeze()
    assert records == run_games(Spec(RULES, 4, ("greedy",), 8), 60, workers=2)


def test_one_variant_file_per_other_option_of_each_ruling():
    """docs/variants/NAME.toml (used by the README's study) picks the other option of ruling NAME;
    a ruling of more than two options has NAME-OPTION.toml for each of its other options."""
    from pathlib import Path

    from kitgen.data.game import load_game
    from kitgen.data.rulings import parse_rulings, value_text
    from solver.simulation.variants import read_variant

    folder = Path(__file__).resolve().parent.parent / "docs" / "variants"
    rulings = parse_rulings(load_game("altun-ha").rulings, "altun-ha")
    expected = {}
    for ruling in rulings:
        others = [v for v in ruling.values if v != value_text(ruling.default)]
        for value in others:
            expected[ruling.name if len(others) == 1 else f"{ruling.name}-{value}"] = (ruling.name, value)
    files = sorted(folder.glob("*.toml"))
    assert sorted(f.stem for f in files) == sorted(expected)
    for path in files:
        ruling, value = expected[path.stem]
        name, settings = read_variant(path)
        assert list(settings) == [ruling], path
        changed = with_settings_of(RULES, settings)
        assert value_text(getattr(changed.rules, ruling)) == value
        assert changed.changed == (ruling,)


def test_every_policy_of_a_mix_sits_in_every_seat_equally_often():
    # Altun Ha deals the Calendar, and so seat 1, at random; the mix still turns by one seat a game
    spec = Spec(RULES, 4, POLICIES, 8)
    records = run_games(spec, 12, workers=1)
    seated = Counter((seat, s["policy"]) for r in records for seat, s in enumerate(r["seats"]))
    assert seated == {(seat, policy): 3 for seat in range(4) for policy in POLICIES}


def test_the_default_mix_leaves_the_random_baseline_out():
    result = simulate("altun-ha", games=6, seed=1, workers=1)
    assert result.summary["policies"] == ["greedy", "cautious", "closer"]
    assert set(result.summary["win_rate_by_policy"]) == {"greedy", "cautious", "closer"}


def test_players_who_bid_only_when_fed_starve_only_after_a_bid_of_no_cards():
    # the report sets these famines apart as following from the players' own bidding rule: check it holds
    # (an invariant of every famine, not a rate: 75 games a rule set give over 50 famines to check each)
    for settings in ({}, {"special_is_trade": "on"}, {"tie_drop": "off"}, {"empty_bid": "no_bid_card"}):
        s = run(settings, games=75, policies=("greedy", "cautious", "greedy", "cautious"))
        ruled = s["famines"]["bid_only_if_fed"]
        assert ruled["games"] == s["famines"]["games"] > 50 and ruled["no_cards"] == ruled["games"], settings
