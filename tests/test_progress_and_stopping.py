"""Long work shows a progress bar on a terminal (none elsewhere), Ctrl-C stops it cleanly with exit 130 and
one line, and a worker process that dies is one Error line."""

from __future__ import annotations

import os
import pty
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kitgen.outputs import raster
from tests.conftest import REPO, run, small_game

KITGEN = [sys.executable, "-c", "from kitgen.cli import main; main()"]
ROWS = [(f"Card {i}", "action", 4, i % 9, "Draw a card, then play one.") for i in range(50)]


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    """A game of 200 cards (23 pages of cards): long enough to be stopped part way."""
    return small_game(tmp_path_factory.mktemp("progress") / "game", ROWS)


def _kit(folder: Path) -> dict[str, bytes] | None:
    return {p.name: p.read_bytes() for p in folder.iterdir()} if folder.is_dir() else None


def _on_a_terminal(args: list[str], env: dict) -> tuple[int, str]:
    """Run kitgen with stderr on a pseudo-terminal; (exit status, what the terminal showed)."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(KITGEN + args, stdout=subprocess.DEVNULL, stderr=follower, cwd=REPO, env=env)
    os.close(follower)
    shown = b""
    while True:
        ready, _, _ = select.select([leader], [], [], 30)
        if not ready:
            break
        try:
            chunk = os.read(leader, 4096)
        except OSError:             # the terminal closed with the process
            break
        if not chunk:
            break
        shown += chunk
    os.close(leader)
    return process.wait(), shown.decode("utf-8", "replace")


def test_a_build_shows_a_progress_bar_on_a_terminal_and_none_elsewhere(game, tmp_path):
    env = {**os.environ, "KITGEN_PROGRESS_DELAY": "0"}
    status, shown = _on_a_terminal(["build", str(game), "--out", str(tmp_path / "a")], env)
    assert status == 0
    assert "Building" in shown and "0/49" in shown and "49/49" in shown   # 23 sheets front and back + 3 parts
    piped = subprocess.run(KITGEN + ["build", str(game), "--out", str(tmp_path / "b")], capture_output=True,
                           text=True, cwd=REPO, env=env)
    assert piped.returncode == 0 and piped.stderr == ""
    assert _kit(tmp_path / "a" / "export-test") == _kit(tmp_path / "b" / "export-test")


def test_a_quick_build_shows_no_bar_even_on_a_terminal(game, tmp_path):
    status, shown = _on_a_terminal(["build", str(game), "--out", str(tmp_path)], dict(os.environ))
    assert status == 0 and "Building" not in shown


@pytest.mark.parametrize("command", [["build"], ["export", "--format", "png", "--dpi", "100", "--jobs", "2"]],
                         ids=["build", "png-export"])
def test_ctrl_c_at_any_point_exits_130_with_one_line_and_leaves_the_previous_output(game, tmp_path, command):
    out = tmp_path / "out"
    args = KITGEN + [command[0], str(game), "--out", str(out), *command[1:]]
    start = time.monotonic()
    subprocess.run(args, check=True, capture_output=True, cwd=REPO)
    length = time.monotonic() - start
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    rng = random.Random(130)
    stopped = 0
    for _ in range(4):
        process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO,
                                   start_new_session=True)
        time.sleep(rng.uniform(0.3, 0.8) * length)
        os.killpg(process.pid, signal.SIGINT)          # as a terminal does: the process and its workers
        _, stderr = process.communicate(timeout=30)
        after = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
        assert after == before                         # a rebuild of the same game: the same bytes either way
        assert sorted(p.name for p in out.rglob("*") if p.name.startswith(".")) == []
        if process.returncode == 130:
            stopped += 1
            assert stderr.splitlines() == ["Error: interrupted (Ctrl-C); nothing was left half-written"]
        else:
            assert process.returncode == 0, stderr
    assert stopped >= 1                                # the instants fell inside the work


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
                             capture_output=True, text=True, cwd=REPO, timeout=60)
    assert process.returncode == 130
    assert process.stderr.splitlines() == ["Error: interrupted (Ctrl-C); nothing was left half-written"]
    assert not (tmp_path / "out" / "balance.json").exists()
