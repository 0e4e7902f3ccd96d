"""kill -9 at any instant of a build leaves the kit folder whole: the old kit or the new one, never a mix.

Two ways of killing:

- *at every step*: a forked child swaps a new kit in and is killed with SIGKILL
  just before its k-th file-system step (each write, rename, exchange, link,
  mkdir, unlink, fsync, tree removal), for every k from the first step to past
  the last; with the atomic exchange and with the two-rename fallback;
- *at random instants*: real ``kitgen build`` processes killed just after a
  step drawn (from a fixed seed) over the whole length of a build, as its
  progress bar tells them, so the instants fall inside the work however fast
  the machine is.

After each kill the kit folder must hold exactly the old kit's bytes or the
new kit's, and the next build must leave nothing else beside it.
"""

from __future__ import annotations

import os
import random
import signal
import types
from pathlib import Path

import pytest

from kitgen.outputs import files
from kitgen.outputs.files import clean_leftovers, replace_folder
from tests.conftest import run, small_game
from tests.terminal import Terminal

OLD = {"cards.pdf": b"old cards" * 100, "rules.pdf": b"old rules", "aids.pdf": b"old aids", "manifest.json": b"{1}"}
NEW = {"cards.pdf": b"new cards" * 100, "rules.pdf": b"new rules", "aids.pdf": b"new aids", "manifest.json": b"{2}"}
EXPORTS = {"print-shop.pdf": b"an export"}          # written beside the kit by another command, kept
STEPS_OF_OS = ("rename", "link", "symlink", "mkdir", "unlink", "fsync")
STEPS_OF_FILES = ("_write", "_exchange", "_fsync_dir")


def _kit_state(folder: Path) -> dict[str, bytes] | None:
    if not folder.is_dir():
        return None
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


def _count_steps(kill_at: int | None) -> int:
    """In this (child) process: count file-system steps of the swap, and SIGKILL before step ``kill_at``."""
    steps = [0]

    def step(func):
        def wrapped(*args, **kwargs):
            steps[0] += 1
            if steps[0] == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)
            return func(*args, **kwargs)
        return wrapped

    proxy = types.SimpleNamespace(**{name: getattr(os, name) for name in dir(os) if not name.startswith("__")})
    for name in STEPS_OF_OS:
        setattr(proxy, name, step(getattr(os, name)))
    files.os = proxy
    for name in STEPS_OF_FILES:
        setattr(files, name, step(getattr(files, name)))
    files.shutil = types.SimpleNamespace(rmtree=step(files.shutil.rmtree), copy2=files.shutil.copy2)
    return steps


def _swap_in_child(target: Path, kill_at: int | None, exchange: bool) -> int:
    """Fork; the child swaps NEW in (killed before step ``kill_at``); the number of steps it took."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:                                   # the child: never returns
        try:
            os.close(read)
            files.exchange_available = exchange
            steps = _count_steps(kill_at)
            replace_folder(target, NEW, keep_others=True)
            os.write(write, str(steps[0]).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        output = pipe.read()
    _, status = os.waitpid(pid, 0)
    if kill_at is not None and not output:
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    return int(output) if output else 0


@pytest.mark.parametrize("exchange", [True, False], ids=["exchange", "two-renames"])
def test_a_kill_before_any_step_of_the_swap_leaves_a_whole_kit(tmp_path, exchange):
    target = tmp_path / "out" / "game"
    replace_folder(target, {**OLD, **EXPORTS})
    total = _swap_in_child(target, None, exchange)
    assert total >= 10 and _kit_state(target) == {**NEW, **EXPORTS}
    outcomes = set()
    for kill_at in range(1, total + 2):
        replace_folder(target, {**OLD, **EXPORTS})
        _swap_in_child(target, kill_at, exchange)
        if not exchange:
            clean_leftovers(target)               # what the next write does first
        state = _kit_state(target)
        assert state in ({**OLD, **EXPORTS}, {**NEW, **EXPORTS}), f"kill before step {kill_at}: {state}"
        outcomes.add("new" if state["cards.pdf"] == NEW["cards.pdf"] else "old")
        replace_folder(target, NEW, keep_others=True)    # the next build cleans what the kill left
        assert sorted(p.name for p in target.parent.iterdir()) == ["game"]
    assert outcomes == {"old", "new"}


def test_builds_killed_at_random_instants_leave_the_old_kit_or_the_new(tmp_path):
    # 45 cards: 5 sheets front and back, then the rulebook and the aids (13 steps); the kills fall at steps the
    # bar shows, so they land inside the work of a short build as of a long one
    game = small_game(tmp_path / "game", [(f"Card {i}", "action", 3, i % 9, "Draw a card.") for i in range(15)])

    out = tmp_path / "out"
    kit = out / "export-test"
    big = (game / "cards.csv").read_text(encoding="utf-8")
    (game / "cards.csv").write_text("name,type,count\nOnly,action,1\n", encoding="utf-8")
    assert run("build", game, "--out", out).exit_code == 0
    old = _kit_state(kit)                                    # a one-card kit
    (game / "cards.csv").write_text(big, encoding="utf-8")
    assert run("build", game, "--out", tmp_path / "new").exit_code == 0
    new = _kit_state(tmp_path / "new" / "export-test")      # the same game gives the same bytes in any process
    assert new != old
    rng = random.Random(14)
    seen = []
    for _ in range(8):
        replace_folder(kit, old)
        with Terminal(["build", game, "--out", out]) as build:
            assert build.reach(0)                           # the bar shows how many steps the build takes:
            steps = build.total                             # its pages, then its parts
            build.reach(rng.randrange(1, steps))            # killed just after a step drawn over the whole build
            build.process.kill()                           # the main process alone, as kill -9 PID does
            build.process.wait()
        state = _kit_state(kit)
        assert state in (old, new)
        seen.append("old" if state == old else "new")
    assert "old" in seen
    result = run("build", game, "--out", out)               # the next build, in this process
    assert result.exit_code == 0, result.output
    assert _kit_state(kit) == new
    assert sorted(p.name for p in out.iterdir()) == ["export-test"]
    assert sorted(p.name for p in kit.iterdir()) == sorted(new)
