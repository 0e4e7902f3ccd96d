"""kitgen simulate from the command line: files written, the PDF read back, clear errors."""

import json

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from kitgen.cli.group import cli
from kitgen.units import to_mm
from tests.pdfium_read import page_texts


def invoke(*args):
    return CliRunner().invoke(cli, ["simulate", *args], catch_exceptions=False)


def test_writes_balance_json_and_a_readable_report(tmp_path):
    # 30 games: the report is read back against its own figures (counts, intervals, the histogram's mean)
    result = invoke("altun-ha", "--games", "30", "--policy", "greedy,random", "--seed", "4",
                    "--workers", "1", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "Played 30 games" in result.output and "Findings:" in result.output
    folder = tmp_path / "altun-ha"
    data = json.loads((folder / "balance.json").read_text(encoding="utf-8"))["baseline"]
    assert data["games"] == 30 and data["players"] == 4 and data["policies"] == ["greedy", "random"]
    assert sum(e["count"] for e in data["ends"].values()) == 30
    for w in data["win_rate_by_seat"]:
        assert w["low"] <= w["rate"] <= w["high"]
    assert sum(int(k) * v for k, v in data["length"]["histogram"].items()) / 30 == pytest.approx(
        data["length"]["mean"], abs=1e-3)
    reader = PdfReader(folder / "balance.pdf")
    assert len(reader.pages) >= 3
    box = reader.pages[0].mediabox
    assert round(to_mm(float(box.width))) == 216 and round(to_mm(float(box.height))) == 279
    text = "\n".join(page_texts(folder / "balance.pdf"))
    document = pdfium.PdfDocument(str(folder / "balance.pdf"))
    try:
        for page in document:
            width, height = page.get_size()
            textpage = page.get_textpage()
            for k in range(textpage.count_chars()):  # nothing drawn off the page (each character's whole box)
                left, bottom, right, top = textpage.get_charbox(k, loose=True)
                assert 0 <= left and right <= width and 0 <= bottom and top <= height
    finally:
        document.close()
    for heading in ("Altun Ha balance report", "How the games ended", "Findings", "Key figures", "Game length",
                    "Round of the famine", "Win rate by seat", "Win rate by policy", "Points by source",
                    "Trade cards played per game", "How the Priest King was decided",
                    "Win rate of a Trade card's players", "Priest King rounds", "Final scores"):
        assert heading in text, heading
    assert "greedy" in text and "random" in text
    flat = " ".join(text.split())
    for line in data["findings"] + data["engine_report"]["findings"]:   # every finding is printed in the report
        assert " ".join(line.split()) in flat, line


def test_same_command_same_files(tmp_path):
    args = ["--games", "20", "--seed", "2", "--workers", "1"]   # byte-identical files: a few games show it
    invoke(*args, "--out", str(tmp_path / "a"))
    invoke(*args, "--out", str(tmp_path / "b"))
    for name in ("balance.json", "balance.pdf"):
        assert (tmp_path / "a" / "altun-ha" / name).read_bytes() == (tmp_path / "b" / "altun-ha" / name).read_bytes()


def test_set_and_compare_side_by_side(tmp_path):
    variant = tmp_path / "v.toml"
    variant.write_text("famine_penalty = 30\n", encoding="utf-8")
    result = invoke("--games", "40", "--policy", "random", "--workers", "1", "--set", "population_start=3",
                    "--compare", str(variant), "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "Variant 'v' against the baseline" in result.output
    data = json.loads((tmp_path / "altun-ha" / "balance.json").read_text(encoding="utf-8"))
    assert data["baseline"]["rules"]["population_start"] == 3
    assert data["variant"]["rules"]["population_start"] == 3
    assert data["variant"]["rules"]["famine_penalty"] == 30
    own = {run: data[run]["engine_report"]["figures"] for run in ("baseline", "variant")}
    assert own["variant"]["points_by_source"]["famine"]["mean"] < own["baseline"]["points_by_source"]["famine"]["mean"]
    text = "\n".join(page_texts(tmp_path / "altun-ha" / "balance.pdf"))
    assert "Variant 'v' against the baseline" in text and "famine_penalty=30" in text


@pytest.mark.parametrize("args, message", [
    (["--set", "populaton_start=3"], "--set: unknown key 'populaton_start'; accepted keys: hand_size,"),
    (["--set", "hand_size=many"], "--set: hand_size takes a whole number from 0 to 1000, not 'many'"),
    (["--set", "chain=maybe"], "--set: chain takes on or off, not 'maybe'"),
    (["--set", "points_decide=middle"], "--set: points_decide takes one of lowest_tie, highest_tie, not 'middle'"),
    (["--set", "hand_limit"], "--set: 'hand_limit' is not NAME=VALUE"),
    (["--set", "count.Dragon=2"], "no card named 'Dragon'"),
    (["--set", "amount.Plaza=2"], "amount.Plaza: Plaza has no effect amount to change"),
    (["--set", "famine_penalty=-1"], "famine_penalty takes a whole number from 0 to 1000, not '-1'"),
    (["--set", "round_cap=0"], "round_cap takes a whole number from 1 to 10000, not '0'"),
    # digits of other scripts, which int() reads, as kitgen solve refuses them
    (["--set", "population_start=\u0661\u0662"],
     "--set: population_start takes a whole number from 0 to 1000, not '\u0661\u0662' (written with the digits 0-9)"),
    (["--set", "count.Jade=\u0661"], "--set: count.Jade takes a whole number from 0 to 1000, not '\u0661' (written"),
    (["--set", "round_cap=\uff13\uff10"], "--set: round_cap takes a whole number from 1 to 10000, not '\uff13\uff10' (wr"),
    (["--set", "amount.Obsidian=\u00b3"], "--set: amount.Obsidian takes a whole number from 0 to 1000, not '\u00b3' (wr"),
    (["--set", "population_start=++5"], "--set: population_start takes a whole number from 0 to 1000, not '++5'"),
    (["--set", "population_start=1_0"], "--set: population_start takes a whole number from 0 to 1000, not '1_0'"),
    (["--policy", "clever"], "--policy: unknown policy 'clever'; accepted: random, greedy, cautious, closer"),
    (["--players", "1"], "--players: must be from 2 to 16 (the deck of 80 cards deals 5 to each player), not 1"),
    (["--players", "17"], "--players: must be from 2 to 16"),
    (["--players", "9", "--set", "hand_size=10"], "--players: must be from 2 to 8"),
    (["--games", "0"], "--games: must be at least 1"),
])
def test_bad_options_give_one_clear_line(tmp_path, args, message):
    result = CliRunner().invoke(cli, ["simulate", "--games", "5", *args, "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert len(result.output.splitlines()) == 1 and message in result.output
    assert not (tmp_path / "altun-ha").exists()


def test_unknown_key_lists_every_accepted_key():
    result = CliRunner().invoke(cli, ["simulate", "--set", "x=1"])
    for key in ("population_start", "famine_penalty", "amount.Obsidian", "chain", "empty_bid",
                "round_cap", "count.Jade", "count.Sun God"):
        assert key in result.output


def test_bad_variant_files(tmp_path):
    missing = CliRunner().invoke(cli, ["simulate", "--games", "5", "--compare", str(tmp_path / "none.toml")])
    assert missing.exit_code == 2 and f"--compare: {tmp_path / 'none.toml'}: file not found" in missing.output
    bad = tmp_path / "bad.toml"
    bad.write_text("[amount]\nPyrite = 'lots'\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["simulate", "--games", "5", "--compare", str(bad), "--out", str(tmp_path)])
    assert result.exit_code == 2 and "amount.Pyrite takes a whole number from 0 to 1000, not 'lots'" in result.output
    digits = tmp_path / "digits.toml"
    digits.write_text("population_start = '\u0661\u0662'\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["simulate", "--games", "5", "--compare", str(digits), "--out", str(tmp_path)])
    assert result.exit_code == 2 and result.output.splitlines() == [
        f"Error: --compare {digits}: population_start takes a whole number from 0 to 1000, not '\u0661\u0662' "
        "(written with the digits 0-9)"]


def test_progress_bar_on_request_and_quiet_by_default(tmp_path):
    shown = CliRunner().invoke(cli, ["simulate", "--games", "30", "--workers", "1", "--progress",
                                     "--out", str(tmp_path)])
    assert shown.exit_code == 0 and "Playing" in shown.output
    quiet = CliRunner().invoke(cli, ["simulate", "--games", "30", "--workers", "1", "--out", str(tmp_path)])
    assert quiet.exit_code == 0 and "Playing" not in quiet.output


def test_games_stopped_at_the_round_cap_are_flagged_first(tmp_path):
    # with "a bid of no cards never wins" nobody who cannot feed wins a bid: greedy games run on
    result = invoke("--games", "12", "--policy", "greedy", "--workers", "1", "--set", "empty_bid=never_wins",
                    "--set", "round_cap=40", "--out", str(tmp_path / "cut"))
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[0]
    assert first.startswith("WARNING: 12 of 12 games (100.0%) were stopped at the round cap of 40 rounds")
    text = " ".join(page_texts(tmp_path / "cut" / "altun-ha" / "balance.pdf")[0].split())
    assert text.index("WARNING: 12 of 12 games (100.0%) were stopped") < text.index("Findings")
    assert "empty_bid=never_wins, round_cap=40" in text
    # under the rulebook's rulings the same players end every game in a famine
    famines = invoke("--games", "12", "--policy", "greedy", "--workers", "1", "--out", str(tmp_path / "fed"))
    assert famines.output.startswith("Played 12 games") and "WARNING" not in famines.output
    assert "12 of 12 games (100.0%) ended in a famine" in famines.output
    assert "WARNING" not in page_texts(tmp_path / "fed" / "altun-ha" / "balance.pdf")[0]


def test_an_illegal_move_of_a_built_in_player_is_a_bug_not_an_error(tmp_path, monkeypatch):
    from kitgen.errors import KitgenError
    from solver.altunha.sim import policies
    from solver.altunha.sim.engine import Bid, IllegalMove

    assert not issubclass(IllegalMove, KitgenError)
    monkeypatch.setattr(policies.GreedyPolicy, "bid", lambda self, game, p: Bid((10_000,)))
    result = CliRunner().invoke(cli, ["simulate", "--games", "3", "--policy", "greedy", "--workers", "1",
                                      "--out", str(tmp_path)])
    assert result.exit_code == 1 and isinstance(result.exception, IllegalMove)
    assert "is not in the hand" in str(result.exception) and "Error:" not in result.output
    assert not (tmp_path / "altun-ha").exists()


def test_a_trade_card_without_a_known_effect_is_one_clear_error(altun_copy, tmp_path):
    csv = altun_copy / "cards.csv"
    csv.write_text(csv.read_text(encoding="utf-8").replace(",draw,3", ",fly,3"), encoding="utf-8")
    result = CliRunner().invoke(cli, ["simulate", str(altun_copy), "--games", "5", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    (line,) = result.output.strip().splitlines()
    assert line.startswith("Error: ") and "cards.csv, row 10, column 'effect'" in line
    assert "Trade card 'Stone' needs an effect, one of draw, " in line and "(not 'fly')" in line


def test_the_report_is_drawn_from_plain_data_without_the_simulator():
    import subprocess
    import sys

    code = ("import sys, kitgen.render.balance_report; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'solver'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
