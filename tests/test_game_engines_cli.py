"""`kitgen solve` and `kitgen simulate` for Temple of Inscriptions and Ancestral: every option, exit codes,
one `Error:` line naming what is wrong, the balance report read back, and a variant file per contested
ruling (docs/variants/<game>/)."""

from __future__ import annotations

import json
import pytest

from kitgen.data.game import load_game
from solver.engines import get_engine
from solver.simulation.variants import read_variant
from tests.conftest import REPO, run
from tests.pdfium_read import page_texts

TEMPLE, ANCESTRAL = "temple-of-inscriptions", "ancestral"
# Temple: players 1 and 3 hold two Foundation Stones each, player 2 one, player 1 a pair of jewels too
HANDS = "Foundation Stone x2, Jade Jewel x2; Foundation Stone; Foundation Stone x2; Rubble Core"
# Ancestral: three kinds of wind (5 leaves together), a defense and a breeze in hand
WINDS = "Strong Wind,Hot Wind,Dry Wind,Quincha Defense,South Breeze"
ALL_WINDS = "Strong Wind + Hot Wind + Dry Wind (5 leaves)"


def solve(*args):
    result = run("solve", *args)
    return result.exit_code, result.output


def answer(*args):
    code, out = solve(*args, "--json")
    assert code == 0, out
    return json.loads(out)


# --- variant files ------------------------------------------------------------------------------

@pytest.mark.parametrize("game", [TEMPLE, ANCESTRAL])
def test_one_variant_file_per_contested_ruling_switches_it_to_its_other_option(game):
    engine = get_engine(game)
    data = load_game(game)
    base = engine.rule_values(engine.rules(data, {}, "--set"))
    contested = [name for name, ruling in data.rulings.items() if isinstance(ruling, dict)]
    files = sorted((REPO / "docs" / "variants" / game).glob("*.toml"))
    assert sorted(path.stem for path in files) == sorted(contested)
    for path in files:
        _, settings = read_variant(path)
        assert list(settings) == [path.stem], path
        rules = engine.rules(data, settings, "--compare")
        values = engine.rule_values(rules)
        assert engine.changed_rules(rules) == [path.stem]
        assert {k for k in values if values[k] != base[k]} == {path.stem}


# --- kitgen solve temple-of-inscriptions ----------------------------------------------------------

def test_temple_answers_whether_the_level_can_be_completed_and_by_whom():
    got = answer(TEMPLE, "--hands", HANDS)
    completion = got["completion"]
    assert completion["possible"] and completion["most_cards"] == 5
    sets = completion["sets"]
    assert sum(s["cards"] + s["pairs"] for s in sets) == 5 and all(s["cards"] + s["pairs"] <= 3 for s in sets)
    assert [s["cards"] <= held for s, held in zip(sets, (2, 1, 2, 0))] == [True] * 4
    assert got["player"] == 1 and got["best"][0] in ("pass (do not summon)",
                                                     "summon the builders for level 1 (pay 1 point)")
    code, text = solve(TEMPLE, "--hands", HANDS)
    assert code == 0 and "Can level 1 be completed this round? Yes" in text


def test_temple_checks_a_play_under_the_rulings_switched():
    # level 1 pays 1 point a card set; the summoner's point comes back with the level (the default rulings)
    args = (TEMPLE, "--hands", HANDS, "--summoner", "1", "--play", "2 Foundation Stone; 1; 2")
    got = answer(*args)
    assert got["legal"] and got["completed"] and got["gains"] == [2, 1, 2, 0]
    assert answer(*args, "--rule", "scoring=per_player")["gains"] == [1, 1, 1, 0]
    assert answer(*args, "--rule", "summon_refund=off")["gains"] == [1, 1, 2, 0]
    illegal = answer(TEMPLE, "--hands", HANDS, "--summoner", "1", "--play", "3 Foundation Stone")
    assert not illegal["legal"] and illegal["reason"] == "Player 1 holds 2 Foundation Stone, not 3"


def test_temple_lists_every_best_first_decision_and_advises_by_playouts():
    best = answer(TEMPLE, "--hands", HANDS, "--summoner", "1", "--all")
    assert best["player"] == 1 and best["best"]
    assert all(line.startswith("set ") for line in best["best"])
    advice = answer(TEMPLE, "--hands", HANDS, "--advise", "--playouts", "6", "--seed", "3")
    assert sorted(row["text"] for row in advice) == ["pass (do not summon)",
                                                     "summon the builders for level 1 (pay 1 point)"]
    assert all(row["n"] == 6 and row["low"] <= row["rate"] <= row["high"] for row in advice)
    assert advice == answer(TEMPLE, "--hands", HANDS, "--advise", "--playouts", "6", "--seed", "3")


# --- kitgen solve ancestral -------------------------------------------------------------------------

def test_ancestral_answers_the_best_action_by_the_measure():
    # player 2's hut holds 3 leaves and player 3 holds a Hunuc-Huar: every wind on player 4 puts them out
    # with 5 leaves in, where player 2 would take only the 2 that fill the hut
    position = ("--hand", WINDS, "--leaves", "0,3", "--hunuc", "3")
    assert answer(ANCESTRAL, *position)["best"] == [f"Attack player 4 with {ALL_WINDS}"]
    # when anyone may play Hunuc-Huar, player 3 cancels every attack: the defense is laid instead
    assert answer(ANCESTRAL, *position, "--rule", "hunuc_huar_by=anyone")["best"] == ["Protect with Quincha Defense"]
    both = answer(ANCESTRAL, "--hand", WINDS, "--leaves", "0,3", "--all")["best"]
    assert both == [f"Attack player 3 with {ALL_WINDS}", f"Attack player 4 with {ALL_WINDS}"]
    code, text = solve(ANCESTRAL, *position)
    assert code == 0 and f"Best: Attack player 4 with {ALL_WINDS}: 5 leaves enter" in text


def test_ancestral_checks_a_play_and_advises_by_playouts():
    got = answer(ANCESTRAL, "--hand", WINDS, "--leaves", "0,3", "--play", "attack 2 with Strong Wind")
    assert got["legal"] and not got["optimal"] and got["effect"]["enter"] == 1
    got = answer(ANCESTRAL, "--players", "2", "--hand", "Strong Wind,Hot Wind", "--advise", "--playouts", "4")
    # two players: one target, three attacks (either wind, or both), three discards and the pass
    assert len(got) == 7 and {row["n"] for row in got} == {4}
    # its playouts run to the end of the round under way (playout_rounds), and the advice says so
    code, text = solve(ANCESTRAL, "--players", "2", "--hand", "Strong Wind,Hot Wind", "--advise", "--playouts", "4")
    assert code == 0 and "the round under way played out by greedy players" in text.splitlines()[0]
    code, text = solve(TEMPLE, "--hands", HANDS, "--advise", "--playouts", "2")
    assert code == 0 and "the game played out by greedy players" in text.splitlines()[0]


def test_ancestral_lists_its_fields_as_options():
    code, text = solve(ANCESTRAL, "--fields")
    assert code == 0
    assert [line.split()[0] for line in text.splitlines()] == ["--players", "--hand", "--leaves", "--defenses",
                                                               "--hunuc"]


# --- both: --batch and mistakes --------------------------------------------------------------------

@pytest.mark.parametrize("game, good, key", [
    (TEMPLE, {"hands": HANDS}, "completion"),
    (ANCESTRAL, {"hand": WINDS.split(","), "leaves": [0, 3]}, "actions"),
])
def test_batch_answers_a_line_each_and_names_a_bad_line(game, good, key, tmp_path):
    batch = tmp_path / "questions.jsonl"
    batch.write_text(json.dumps(good) + "\n{\"players\": 99}\nnot json\n", encoding="utf-8")
    code, out = solve(game, "--batch", batch)
    assert code == 0
    first, second, third = (json.loads(line) for line in out.splitlines())
    assert key in first and first == answer(game, *_options(good))
    assert second["error"].startswith("line 2: ") and third["error"].startswith("line 3: not JSON")


def _options(fields: dict) -> list[str]:
    return [part for name, value in fields.items()
            for part in (f"--{name}", ",".join(map(str, value)) if isinstance(value, list) else value)]


@pytest.mark.parametrize("args, line", [
    ((TEMPLE, "--hands", "Foundation Stone; Gold Bar"),
     "Error: hands (player 2): no card named 'Gold Bar' (cards: Jade Jewel, Foundation Stone, Rubble Core, "
     "Lower Terrace, Retaining Wall, Stucco Facing, Upper Terrace, Hidden Stairway, Temple Platform, Temple Roof, "
     "or a level's number)"),
    ((TEMPLE, "--level", "3"), "Error: --hands: missing: give the Hands, e.g. --hands \"Lower Terrace x2, "
                               "Jade Jewel; 3, Temple Roof\""),
    ((TEMPLE, "--hands", HANDS, "--rule", "scoring=never"),
     "Error: --rule: scoring takes one of per_card, per_player, not 'never'"),
    ((ANCESTRAL, "--hand", WINDS, "--leaves", "0,3,0,0,1"), "Error: leaves: player 5 is not in a round of 4 players"),
    ((ANCESTRAL, "--hand", "Gale"), "Error: hand: unknown card 'Gale'; the cards are Reference, Strong Wind, "
                                    "Hot Wind, Dry Wind, Quincha Defense, Tree Curtain, Water Shield, South Breeze, "
                                    "Hunuc-Huar Protection"),
    ((ANCESTRAL, "--players", "3", "--hand", WINDS, "--play", "attack 4 with Strong Wind"),
     "Error: --play: '4' is not a player: name one from 1 to 3, e.g. 'player 2'"),
    ((ANCESTRAL, "--colour", "red"), "Error: --colour: no such option; the position of Ancestral takes --players, "
                                     "--hand, --leaves, --defenses, --hunuc (see kitgen solve GAME --fields)"),
], ids=["temple-card", "temple-missing", "temple-rule", "ancestral-leaves", "ancestral-card", "ancestral-play",
        "ancestral-option"])
def test_a_mistake_is_one_error_line_naming_it(args, line):
    code, out = solve(*args)
    assert code == 2
    assert out.splitlines() == [line]


# --- kitgen simulate ---------------------------------------------------------------------------------

SIMULATIONS = {
    TEMPLE: ["--players", "3", "--policy", "greedy,lookahead:1,rival", "--set", "levels=2", "--compare",
             REPO / "docs" / "variants" / TEMPLE / "scoring.toml"],
    ANCESTRAL: ["--players", "3", "--policy", "greedy,defensive", "--set", "offerings_to_win=2", "--compare",
                REPO / "docs" / "variants" / ANCESTRAL / "round_starter.toml"],
}


GAMES = 12


@pytest.fixture(scope="module", params=[TEMPLE, ANCESTRAL])
def report(request, tmp_path_factory):
    game = request.param
    out = tmp_path_factory.mktemp("sim")
    # 12 games: the test checks the report against the engine and the run (not a rate); a game of Temple
    # with a lookahead player is the costly part
    result = run("simulate", game, "--games", str(GAMES), "--seed", "5", "--workers", "1", *SIMULATIONS[game], "--out", out)
    assert result.exit_code == 0, result.output
    folder = out / game
    return game, json.loads((folder / "balance.json").read_text(encoding="utf-8")), folder / "balance.pdf"


def test_the_balance_report_holds_the_engines_figures_and_the_variant(report):
    game, data, _ = report
    engine = get_engine(game)
    base, variant = data["baseline"], data["variant"]
    assert base["engine"] == game and base["games"] == GAMES and base["players"] == 3
    assert list(base["ends"]) == [*engine.ends, "cap"] and sum(e["count"] for e in base["ends"].values()) == GAMES
    assert base["engine_report"]["title"] == engine.title and base["engine_report"]["findings"]
    changed = {TEMPLE: "levels", ANCESTRAL: "offerings_to_win"}[game]
    assert base["changed_rules"] == [changed]
    other = {TEMPLE: "scoring", ANCESTRAL: "round_starter"}[game]
    assert variant["changed_rules"] == [changed, other]
    assert variant["rules"][other] != base["rules"][other]
    assert {row["figure"] for row in data["comparison"]} >= {"Game length (rounds)", "Seat 1 win rate"}
    policies = set(SIMULATIONS[game][3].split(","))
    assert set(base["win_rate_by_policy"]) == policies
    assert sum(w["n"] for w in base["win_rate_by_policy"].values()) == GAMES * 3


def test_the_balance_pdf_draws_the_engines_own_tables(report):
    game, data, pdf = report
    text = " ".join(" ".join(page.split()) for page in page_texts(pdf))
    assert f"{get_engine(game).title} balance report" in text
    for table in data["baseline"]["engine_report"]["tables"]:
        assert table["title"] in text


@pytest.mark.parametrize("args, line", [
    ((TEMPLE, "--players", "6"), "Error: --players: must be from 2 to 5, not 6"),
    ((ANCESTRAL, "--players", "5"), "Error: --players: must be from 2 to 4, not 5"),
    ((TEMPLE, "--set", "scoring=none"), "Error: --set: scoring takes one of per_card, per_player, not 'none'"),
    ((ANCESTRAL, "--policy", "greedy,wizard"),
     "Error: --policy: unknown policy 'wizard'; accepted: random, greedy, defensive, lookahead"),
])
def test_a_bad_simulation_option_is_one_error_line(args, line, tmp_path):
    result = run("simulate", *args, "--games", "2", "--out", tmp_path)
    assert result.exit_code == 2
    assert result.output.splitlines() == [line]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("game", [TEMPLE, ANCESTRAL])
def test_a_run_sent_to_other_processes_plays_the_same_games(game):
    # worker processes and Dask workers receive the run pickled: the rules must come back equal, and the
    # games they play the same
    import pickle

    from solver.simulation.runner import Spec, run_games

    engine = get_engine(game)
    spec = Spec(game, engine.rules(load_game(game), {"round_cap": "60"}, "--set"), 3, ("greedy", "random"), 9)
    copy = pickle.loads(pickle.dumps(spec))
    assert copy == spec and hash(copy.rules) == hash(spec.rules)
    assert run_games(copy, 6, workers=1) == run_games(spec, 6, workers=1)
    records = run_games(spec, 6, workers=1)
    assert json.loads(json.dumps(records)) == records
