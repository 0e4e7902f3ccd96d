"""The rules-engine protocol: the registry, Altun Ha behind it, and the walk-through's toy engine
(docs/examples/high-card) played by every generic tool: the simulator and its report, kitgen solve,
the lookahead player and the web pages."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from kitgen.cli.group import cli
from kitgen.data.game import load_game
from solver import engines
from tests.engine_checks import play_checked_games
from tests.pdfium_read import page_texts

REPO = Path(__file__).resolve().parent.parent
TOY = REPO / "docs" / "examples" / "high-card"


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    """A copy of the toy game, its engine registered as the walk-through says (one line in ENGINES)."""
    folder = tmp_path_factory.mktemp("toy") / "high-card"
    shutil.copytree(TOY, folder, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(TOY))
        mp.setitem(engines.ENGINES, "high-card", "high_card:ENGINE")
        yield folder


# --- the registry ----------------------------------------------------------------------------

def test_an_unknown_engine_is_one_line_naming_the_key_and_the_known_engines(tmp_path):
    folder = tmp_path / "odd"
    shutil.copytree(TOY, folder, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    for command in (["simulate", folder, "--games", "3"], ["solve", folder, "--hand", "One"]):
        result = invoke(*command)
        assert result.exit_code == 2 and "Traceback" not in result.output
        (line,) = result.output.strip().splitlines()
        assert line == (f"Error: {folder / 'game.toml'}: [rules] engine = 'high-card' names no rules engine; "
                        f"known engines: {', '.join(sorted(engines.ENGINES))}")


def test_a_game_without_an_engine_says_how_to_name_one(tmp_path):
    from tests.conftest import small_game

    folder = small_game(tmp_path / "plain")
    result = invoke("simulate", folder, "--games", "3")
    assert result.exit_code == 2
    assert "the game names no rules engine" in result.output and 'engine = "KEY"' in result.output


def test_importing_the_registry_loads_no_engine():
    import subprocess
    import sys

    code = "import sys, solver.engines; print(sorted(m for m in sys.modules if m.startswith('solver.')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO)
    assert out.stdout.strip() == "['solver.engines']"


# --- every engine through the protocol --------------------------------------------------------

def test_altun_ha_keeps_the_protocol_in_random_games():
    engine = engines.get_engine("altun-ha")
    rules = engine.rules(load_game("altun-ha"), {}, "--set")
    ends = play_checked_games(engine, rules, players=4, games=12, seed=3)
    assert sum(ends.values()) == 12 and set(ends) <= {"famine", "empty_deck", "cap"}
    short = engine.rules(load_game("altun-ha"), {"round_cap": "3", "hand_limit": "2", "chain": "off"}, "--set")
    assert play_checked_games(engine, short, players=3, games=6, seed=4, deep_every=2)


def test_the_toy_engine_keeps_the_protocol_in_random_games(toy):
    engine = engines.get_engine("high-card")
    for ties in ("first", "nobody"):
        rules = engine.rules(load_game(str(toy)), {"ties": ties}, "--set")
        for players in (2, 3, 4):
            assert play_checked_games(engine, rules, players, games=15, seed=players, deep_every=1) == \
                {"hands_empty": 15}


# --- the simulator and its report, for the toy engine ------------------------------------------

@pytest.fixture(scope="module")
def toy_report(toy, tmp_path_factory):
    out = tmp_path_factory.mktemp("toy-report")
    result = invoke("simulate", toy, "--games", "80", "--players", "3", "--policy", "greedy,random", "--seed", "2",
                    "--workers", "1", "--set", "ties=nobody", "--out", out)
    assert result.exit_code == 0, result.output
    folder = out / "high-card"
    return json.loads((folder / "balance.json").read_text(encoding="utf-8"))["baseline"], folder / "balance.pdf"


def test_the_report_has_the_generic_figures_and_the_engines_own(toy_report):
    s, _ = toy_report
    assert s["engine"] == "high-card" and s["games"] == 80 and s["players"] == 3
    assert s["rules"] == {"hand_size": 4, "ties": "nobody"} and s["changed_rules"] == ["ties"]
    assert s["ends"]["hands_empty"]["count"] == 80 and s["ends"]["cap"]["count"] == 0
    assert s["length"]["min"] == s["length"]["max"] == 4            # one trick a card
    own = s["engine_report"]
    assert own["title"] == "High Card" and own["figures"]["tricks"] == 80 * 4
    assert own["findings"] == [f"{own['figures']['tied_tricks']:,} of 320 tricks "
                               f"({100 * own['figures']['tied_share']:.1f}%) had two equal highest cards."]


def test_a_policy_mix_meets_every_seat_when_the_rules_do_not_deal_the_seats(toy_report):
    s, _ = toy_report
    # greedy,random cycled over 3 players and turned by one player from game to game: in 80 games each
    # policy sits in each seat about as often (greedy: 120 seats, random: 120)
    assert s["seating"] == "rotated"
    assert {name: w["n"] for name, w in s["win_rate_by_policy"].items()} == {"greedy": 120, "random": 120}
    assert any(line.startswith("Win rates by policy, each policy's seats rotated game by game: greedy ")
               for line in s["findings"])


def test_the_pdf_draws_the_engines_tables_charts_and_findings(toy_report):
    s, pdf = toy_report
    text = " ".join(" ".join(page.split()) for page in page_texts(pdf))
    assert "High Card balance report" in text
    for words in ("Tricks whose highest card was played twice", "Tricks with two equal highest cards",
                  "When every hand was played out", *s["findings"], *s["engine_report"]["findings"]):
        assert " ".join(words.split()) in text, words


# --- kitgen solve, for the toy engine ----------------------------------------------------------

def test_solve_reads_the_engines_fields_as_options(toy):
    fields = invoke("solve", toy, "--fields")
    assert fields.exit_code == 0 and "--hand CARDS" in fields.output and "--players N" in fields.output
    answer = invoke("solve", toy, "--hand", "Two,Seven", "--table", "Five,Eight", "--players", "3")
    assert answer.exit_code == 0, answer.output
    assert answer.output.splitlines()[-1] == "Best: play Two: nothing you hold takes the trick: throw the lowest card."
    data = json.loads(invoke("solve", toy, "--hand", "Two,Seven", "--table", "Five", "--played", "Eight,Eight",
                             "--players", "2", "--json").output)
    assert data["best"] == ["play Seven"] and data["cards"][1] == {"card": "Seven", "value": 7, "takes_now": True,
                                                                   "sure": True}


def test_solve_checks_a_play_and_refuses_mistakes_in_one_line(toy):
    check = json.loads(invoke("solve", toy, "--hand", "Two,Seven", "--table", "Five", "--players", "2",
                              "--play", "play Two", "--json").output)
    assert check["legal"] and not check["optimal"] and check["best"] == ["play Seven"]
    for args, message in ((["--table", "Five"], "Error: --hand: missing: give the your hand, e.g. --hand Two,Seven"),
                          (["--hand", "Nine"], "Error: --hand: no card named 'Nine'"),
                          (["--hand", "Two", "--colour", "red"], "Error: --colour: no such option; the position of "
                                                                  "High Card takes --hand, --table, --played, --players"),
                          (["--hand", "Two", "--players", "x"], "Error: --players: 'x' is not a whole number"),
                          (["--hand", "Two", "--play", "play Seven"], "Error: --play: 'play Seven': give a card of")):
        result = invoke("solve", toy, *args)
        assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1, result.output
        assert result.output.startswith(message), result.output


def test_batch_answers_positions_of_any_engine(toy, tmp_path):
    lines = [json.dumps({"hand": ["Two", "Seven"], "table": ["Five"], "players": 2}), "{}", "nope"]
    path = tmp_path / "q.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = invoke("solve", toy, "--batch", path)
    answers = [json.loads(line) for line in result.output.splitlines()]
    assert answers[0]["best"] == ["play Seven"] and "lines" not in answers[0]
    assert answers[1]["error"].startswith("line 2: --hand: give 1 to 4 cards")
    assert answers[2]["error"].startswith("line 3: not JSON")


# --- the lookahead player and the advice -------------------------------------------------------

def test_the_advice_ranks_every_legal_action_from_playouts(toy):
    args = ["solve", toy, "--hand", "One,Eight", "--table", "Eight", "--played", "Two,Two,Three,Three,Four,Four",
            "--players", "2", "--advise", "--playouts", "30", "--json"]
    rows = json.loads(invoke(*args).output)
    assert [r["text"] for r in rows] == ["play One", "play Eight"]
    # the Eight led takes this trick whatever I play; keeping my Eight takes the last one for sure (the
    # other Eight is on the table): a tie, half a win in every playout.  Playing it now loses the last
    # trick too, unless the other player's last card is the other One (a tie again)
    assert (rows[0]["rate"], rows[0]["n"]) == (0.5, 30) and rows[0]["low"] > rows[1]["high"]
    assert json.loads(invoke(*args).output) == rows                     # the same seed, the same playouts
    text = invoke(*args[:-1]).output.splitlines()
    assert text[1].strip().startswith("50.0% [") and text[1].endswith("play One")


def test_the_lookahead_player_is_reproducible_and_plays_through_the_protocol(toy):
    from solver.lookahead import LookaheadPlayer
    from solver.simulation.runner import Spec, play_game

    engine = engines.get_engine("high-card")
    rules = engine.rules(load_game(str(toy)), {}, "--set")
    spec = Spec("high-card", rules, 3, ("lookahead:24", "greedy", "greedy"), 5)
    first = [play_game(spec, i)[0].scores() for i in range(6)]
    assert first == [play_game(spec, i)[0].scores() for i in range(6)]
    looker = LookaheadPlayer(engine, rules, random.Random(1), playouts=16)
    state = engine.new_game(rules, 2, random.Random(9))
    while not state.is_terminal():
        action = looker.choose(state, state.current_player())
        assert action in state.legal_actions()
        state.apply_action(action)


# --- the web pages, for the toy engine -----------------------------------------------------------

@pytest.fixture(scope="module")
def client(toy):
    """A client of an app serving the toy that is never started: the solver and simulator pages and the API
    answer from the game as read (no worker process, no build: these tests read neither; the toy's pages after
    a real build are test_web_browser's generic solver page test)."""
    from kitgen.web.app import create_app
    from tests.test_web_api import BASE

    app = create_app([str(toy)], watch_files=False)
    yield TestClient(app, base_url=BASE)
    app.state.server.runs.close()
    shutil.rmtree(app.state.server.folder, ignore_errors=True)


def test_the_solver_and_simulator_pages_are_offered_for_the_toy_engine(client):
    (game,) = client.get("/api/games").json()
    assert game["solver"] == "/game/high-card/solver" and game["simulator"] == "/game/high-card/simulate"
    page = client.get("/game/high-card/solver").text
    assert 'data-engine="' in page and "/static/solver.js" in page and "view.js" not in page
    assert client.get("/game/high-card/view.js").status_code == 404      # no view of its own: the generic one
    simulator = client.get("/game/high-card/simulate").text
    assert 'data-policy="greedy"' in simulator and 'data-policy="lookahead"' in simulator
    switches = client.get("/game/high-card/switches").json()
    assert [(s["name"], s["default"]) for s in switches] == [("ties", "first")]


def test_the_api_answers_as_kitgen_solve_does(client, toy):
    q = {"hand": ["Two", "Seven"], "table": ["Five"], "players": 2}
    cli_args = ["solve", toy, "--hand", "Two,Seven", "--table", "Five", "--players", "2"]
    assert client.post("/api/solve", json=q).json() == json.loads(invoke(*cli_args, "--json").output)
    ruled = client.post("/api/solve", json={**q, "rules": {"ties": "nobody"}}).json()
    assert ruled == json.loads(invoke(*cli_args, "--rule", "ties=nobody", "--json").output)
    explained = client.post("/api/explain", json=q).json()
    assert explained["lines"] == invoke(*cli_args).output.splitlines()
    advice = client.post("/api/advise", json={**q, "playouts": 12}).json()
    assert [r["text"] for r in advice] == [r["text"] for r in json.loads(
        invoke(*cli_args, "--advise", "--playouts", "12", "--json").output)]
    assert client.post("/api/advise", json={**q, "playouts": 10 ** 6}).status_code == 400
    assert client.post("/api/all", json=q).status_code == 400           # one best play: no --all


class _Race:
    """A two-player race of ten rounds, one decision a round by player 0: "now" scores a point at once,
    "late" scores nothing, yet whoever played "late" wins at the end (player 1 only passes)."""

    def __init__(self):
        self.players, self.round, self.end, self.points, self.late = 2, 1, None, [0, 0], False
        self.turn = 0

    def clone(self):
        new = _Race()
        new.round, new.end, new.points, new.late, new.turn = self.round, self.end, list(self.points), self.late, self.turn
        return new

    def resample(self, player, rng):
        return self.clone()

    def current_player(self):
        return -1 if self.end else self.turn

    def is_terminal(self):
        return self.end is not None

    def legal_actions(self):
        return ["now", "late"] if self.turn == 0 else ["pass"]

    def apply_action(self, action):
        if action == "now":
            self.points[0] += 1
        self.late = self.late or action == "late"
        self.turn = 1 - self.turn
        if self.turn == 0:
            self.round += 1
            if self.round > 10:
                self.end = "race"

    def scores(self):
        return [float(p) for p in self.points]

    def returns(self):
        return [1.0, 0.0] if self.late else [0.0, 1.0]


class _RaceEngine:
    def __init__(self, rounds=None):
        self.playout_rounds = rounds
        self.policies = {"greedy": lambda rng: type("P", (), {"choose": lambda self, s, p: s.legal_actions()[0]})()}

    def round_cap(self, rules):
        return 100


def test_playouts_stop_after_the_engines_rounds_and_the_leaders_by_score_share_the_win():
    from solver.lookahead import LookaheadPlayer, default_playouts, parse_budget

    whole = LookaheadPlayer(_RaceEngine(), None, random.Random(1), playouts=8)
    short = LookaheadPlayer(_RaceEngine(rounds=1), None, random.Random(1), playouts=8)
    state = _Race()
    assert whole.playout(state, 0, "late") == 1.0 and whole.playout(state, 0, "now") == 0.0
    assert short.playout(state, 0, "now") == 1.0      # a point ahead when the round ends
    assert short.playout(state, 0, "late") == 0.5     # level when the round ends: the leaders share
    assert whole.choose(state, 0) == "late" and short.choose(state, 0) == "now"
    # an engine's own default budget, unless lookahead:N names one
    engine = _RaceEngine()
    assert default_playouts(engine) == 120
    engine.playouts = 600
    assert parse_budget("lookahead", default=default_playouts(engine)) == 600
    assert parse_budget("lookahead:7", default=600) == 7
