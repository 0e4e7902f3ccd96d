"""Long work shows a progress bar on a terminal (none elsewhere), Ctrl-C stops it cleanly with exit 130 and
one line, and a worker process that dies is one Error line."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from kitgen.cli import cli
from kitgen.outputs import raster
from tests.conftest import HANG_GUARD, REPO, run, small_game
from tests.terminal import Terminal

# 15 faces of 3 cards: 5 sheets front and back, then the rulebook and the aids.  The tests stop the work at
# steps the bar shows, so a short game is stopped part way as surely as a long one, on the same code paths
ROWS = [(f"Card {i}", "action", 3, i % 9, "Draw a card, then play one.") for i in range(15)]
CTRL_C = "Error: interrupted (Ctrl-C); nothing was left half-written"


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    """A game of 45 cards (5 sheets of cards, 10 pages) and its rulebook and aids."""
    return small_game(tmp_path_factory.mktemp("progress") / "game", ROWS)


@pytest.fixture(scope="module")
def built(game, tmp_path_factory) -> tuple[Terminal, Path]:
    """The game built once on a terminal (its bar shown from the start), and the --out folder it wrote."""
    out = tmp_path_factory.mktemp("built")
    with Terminal(["build", game, "--out", out]) as terminal:
        terminal.status, terminal.lines = terminal.finish()
    return terminal, out


def _kit(folder: Path) -> dict[str, bytes] | None:
    return {p.name: p.read_bytes() for p in folder.iterdir()} if folder.is_dir() else None


def _files(folder: Path) -> dict[Path, bytes]:
    return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_a_build_shows_a_progress_bar_on_a_terminal_and_none_elsewhere(game, built, tmp_path, monkeypatch):
    terminal, out = built                                                      # the bar shows at once
    assert terminal.status == 0 and terminal.lines == []
    shown = terminal.text()
    assert "Building" in shown and "0/13" in shown and "13/13" in shown   # 5 sheets front and back + 3 parts
    monkeypatch.setenv("KITGEN_PROGRESS_DELAY", "0")       # elsewhere (stderr not a terminal), made here
    piped = CliRunner().invoke(cli, ["build", str(game), "--out", str(tmp_path / "b")], catch_exceptions=False)
    assert piped.exit_code == 0 and piped.stderr == "" and "Built Export Test" in piped.stdout
    assert _kit(out / "export-test") == _kit(tmp_path / "b" / "export-test")


def test_a_build_that_ends_before_the_delay_shows_no_bar_even_on_a_terminal(game, tmp_path):
    # the delay set far beyond the build's length, whatever the machine's speed: the bar waits for it
    with Terminal(["build", game, "--out", tmp_path], KITGEN_PROGRESS_DELAY="3600") as terminal:
        status, lines = terminal.finish()
    assert status == 0 and lines == []
    assert terminal.text().strip() == ""


@pytest.mark.parametrize("command", [["build"], ["export", "--format", "png", "--dpi", "100", "--jobs", "2"]],
                         ids=["build", "png-export"])
def test_ctrl_c_at_any_point_exits_130_with_one_line_and_leaves_the_previous_output(game, built, tmp_path, command):
    out = tmp_path / "out"
    args = [command[0], game, "--out", out, *command[1:]]
    if command == ["build"]:                           # the build on a terminal made once for this module
        first, kit = built
        assert (first.status, first.lines) == (0, [])
        shutil.copytree(kit, out)
    else:                                              # the same export made here: the same bytes
        assert run(*args).exit_code == 0
    before = _files(out)
    rng = random.Random(119)        # steps among the first pages, the last ones and the parts after them
    points: list[int] = []
    stopped = 0
    for i in range(4):
        with Terminal(args) as terminal:
            if not points:                             # the steps the bar counts: pages drawn or rasterised,
                assert terminal.reach(0), terminal.text()        # and the build's other parts
                points = sorted(rng.sample(range(1, terminal.total + 1), 4))
            assert terminal.reach(points[i]), terminal.text()
            os.killpg(terminal.process.pid, signal.SIGINT)     # as a terminal does: the process and its workers
            status, lines = terminal.finish()
        assert _files(out) == before                   # a rebuild of the same game: the same bytes either way
        assert sorted(p.name for p in out.rglob("*") if p.name.startswith(".")) == []
        if status == 130:
            stopped += 1
            assert lines == [CTRL_C]
        else:                                          # the Ctrl-C came as the run was ending
            assert (status, lines) == (0, []), terminal.text()
    assert stopped >= 1                                # the steps drawn fall inside the work


def _die(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_worker_that_dies_is_one_error_line(game, tmp_path, monkeypatch):
    monkeypatch.setattr(raster, "_render_batch", _die)      # the forked workers inherit it
    result = run("export", game, "--format", "png", "--dpi", "50", "--jobs", "2", "--out", tmp_path)
    assert result.exit_code == 1
    assert result.output.splitlines() == ["Error: a process rasterising pages stopped unexpectedly (out of memory, "
                                          "or killed?); try fewer --jobs or a lower --dpi"]
    assert not (tmp_path / "export-test" / "png").exists()


def _fail(*args, **kwargs):
    raise ValueError("bad page")


def test_a_worker_that_fails_is_one_error_line(game, tmp_path, monkeypatch):
    monkeypatch.setattr(raster, "_render_batch", _fail)
    result = run("export", game, "--format", "png", "--dpi", "50", "--jobs", "2", "--out", tmp_path)
    assert result.exit_code == 1
    assert result.output.splitlines() == ["Error: rasterising a page failed: ValueError: bad page"]


FINALISER_STOPPED = '''
import os, signal, weakref
from pathlib import Path

import click

from kitgen.cli.group import KitgenGroup
from kitgen.outputs.files import write_files


@click.group(cls=KitgenGroup)
def cli():
    pass


class Thing:
    pass


def ctrl_c_now(ref):
    os.kill(os.getpid(), signal.SIGINT)
    for _ in range(1000):       # the handler runs here, inside the callback
        pass


@cli.command()
@click.argument("out")
def work(out):
    thing = Thing()
    ref = weakref.ref(thing, ctrl_c_now)
    del thing                   # as a finished worker process is forgotten
    write_files(Path(out), {"balance.json": b"{}"})


cli(prog_name="kitgen")
'''


def test_ctrl_c_that_lands_in_a_finaliser_is_one_line_and_still_stops(tmp_path):
    # a KeyboardInterrupt raised inside a weakref callback cannot propagate; Python prints it as
    # "Exception ignored" with a traceback unless the CLI quiets it, and the work goes on: the stop it
    # marked must keep anything from being written
    process = subprocess.run([sys.executable, "-c", FINALISER_STOPPED, "work", str(tmp_path / "out")],
                             capture_output=True, text=True, cwd=REPO, timeout=HANG_GUARD)
    assert process.returncode == 130
    assert process.stderr.splitlines() == ["Error: interrupted (Ctrl-C); nothing was left half-written"]
    assert not (tmp_path / "out" / "balance.json").exists()
