"""The solver and simulator against hostile input: an endless line in a batch file, a device or FIFO as a
variant file, digits of other scripts, games that do not declare Altun Ha's rules, worker processes that
die or fail, and Ctrl-C."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from kitgen.cli import cli
from solver.simulation import runner
from tests.conftest import HANG_GUARD, REPO, copy_builtin, run, run_guarded

KITGEN = [sys.executable, "-c", "from kitgen.cli import main; main()"]


def test_an_endless_batch_line_is_refused_before_it_is_read_whole():
    result = CliRunner().invoke(cli, ["solve", "--batch", "-"], input=b"\0" * (3 * 1024 * 1024))
    assert result.exit_code == 2
    assert result.output.splitlines() == ["Error: --batch: line 1 is longer than 1,048,576 bytes; "
                                          "give one JSON question per line"]


def _fifo(tmp_path):
    os.mkfifo(tmp_path / "variant.toml")
    return tmp_path / "variant.toml", "is a named pipe (FIFO), not a file"


def _large(tmp_path):
    path = tmp_path / "variant.toml"
    path.write_bytes(b"# " + b"x" * (1024 * 1024 - 2) + b"\n")         # one byte over 1 MB
    return path, "the file is 1,048,577 bytes; kitgen reads files of at most 1 MB"


def _no_more_than_1_gb():
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def test_dev_zero_as_the_variant_file_is_refused_without_reading_it(tmp_path):
    # in a process of its own with 1 GB of memory: read whole, /dev/zero would fill all there is
    process = subprocess.run(KITGEN + ["simulate", "-n", "5", "-j", "1", "--compare", "/dev/zero", "--out",
                                       str(tmp_path)], capture_output=True, text=True, cwd=REPO, timeout=HANG_GUARD,
                             preexec_fn=_no_more_than_1_gb)
    assert process.returncode == 2
    assert process.stderr.splitlines() == ["Error: --compare: /dev/zero: is a device, not a file"]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("make", [
    _fifo,
    lambda tmp_path: (tmp_path, "is a folder, expected a file"),
    _large,
    lambda tmp_path: (tmp_path / "none.toml", "file not found"),
], ids=["fifo", "folder", "over-1-MB", "missing"])
def test_compare_reads_only_a_regular_file_of_at_most_1_mb(tmp_path, make):
    path, problem = make(tmp_path)
    out = tmp_path / "out"
    result = run_guarded("simulate", "-n", "5", "-j", "1", "--compare", path, "--out", out)   # a FIFO read hangs
    assert result.exit_code == 2
    assert result.output.splitlines() == [f"Error: --compare: {path}: {problem}"]
    assert not out.exists()


def test_a_variant_file_of_exactly_1_mb_is_read(tmp_path):
    line = b"famine_penalty = 30\n"
    path = tmp_path / "padded.toml"
    path.write_bytes(b"# " + b"x" * (1024 * 1024 - 3 - len(line)) + b"\n" + line)
    assert path.stat().st_size == 1024 * 1024
    result = run("simulate", "-n", "5", "-j", "1", "--compare", path, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "out" / "altun-ha" / "balance.json").read_text(encoding="utf-8"))
    assert data["variant"]["name"] == "padded" and data["variant"]["rules"]["famine_penalty"] == 30


DECLARATION = 'engine = "altun-ha"'


@pytest.fixture(scope="module")
def altun_ha_copy(tmp_path_factory) -> Path:
    """A game folder holding Altun Ha as it is, declaration included."""
    return copy_builtin("altun-ha", tmp_path_factory.mktemp("copy") / "altun-ha-copy")


def _declaring(folder: Path, to: Path, declaration: str | None) -> Path:
    """A copy of ``folder`` whose [rules] declares ``declaration`` (None: nothing)."""
    shutil.copytree(folder, to)
    toml = to / "game.toml"
    text = toml.read_text(encoding="utf-8")
    assert text.count(DECLARATION) == 1
    toml.write_text(text.replace(DECLARATION, declaration or ""), encoding="utf-8")
    return to


NO_ENGINE = ('the game names no rules engine, which the solver and simulator need (add engine = "KEY" to its '
             "[rules] table; known engines: altun-ha, ancestral, temple-of-inscriptions)")


@pytest.mark.parametrize("declaration, message", [
    (None, NO_ENGINE),
    ('engine = "altun-ha-2"', "[rules] engine = 'altun-ha-2' names no rules engine; known engines: altun-ha, "
                              "ancestral, temple-of-inscriptions"),
], ids=["none", "another"])
def test_a_game_folder_with_rules_but_no_declaration_is_not_simulated(altun_ha_copy, tmp_path, declaration,
                                                                       message):
    game = _declaring(altun_ha_copy, tmp_path / "game", declaration)
    result = run("simulate", game, "-n", "5", "-j", "1", "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert result.output.splitlines() == [f"Error: {game / 'game.toml'}: {message}"]
    assert not (tmp_path / "out").exists()


def test_the_declaration_is_what_lets_a_game_folder_be_simulated_and_solved(altun_ha_copy, tmp_path):
    from kitgen.web.solving import has_engine

    result = run("simulate", altun_ha_copy, "-n", "5", "-j", "1", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "altun-ha" / "balance.json").is_file()     # the slug comes from the title
    assert has_engine(str(altun_ha_copy))                       # kitgen serve's solver and simulator pages
    assert not has_engine(str(_declaring(altun_ha_copy, tmp_path / "undeclared", None)))


def _die(*args):
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_simulator_worker_that_dies_is_one_error_line(tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "_play_worker_chunk", _die)      # the forked workers inherit it
    result = run_guarded("simulate", "-n", "40", "-j", "2", "--out", tmp_path)
    assert result.exit_code == 1
    assert result.output.splitlines() == ["Error: a process playing games stopped unexpectedly (out of memory, "
                                          "or killed?); try fewer --workers"]
    assert list(tmp_path.iterdir()) == []


def test_a_simulator_worker_that_fails_is_one_error_line(tmp_path, monkeypatch):
    play = runner._play_worker_chunk

    def fail_from_game_20(spec, bounds):
        if bounds[0] == 20:
            raise ValueError("a bug\nover two lines")
        return play(spec, bounds)

    monkeypatch.setattr(runner, "_play_worker_chunk", fail_from_game_20)
    result = run_guarded("simulate", "-n", "40", "-j", "2", "--out", tmp_path)
    assert result.exit_code == 1
    assert result.output.splitlines() == ["Error: playing games 20-24 failed: ValueError: a bug over two lines"]
    assert list(tmp_path.iterdir()) == []


@pytest.fixture
def processes():
    """Process groups started by a test, killed at its end whatever happened."""
    started: list[subprocess.Popen] = []
    yield started
    for process in started:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()


def _start_simulating(out: Path, processes: list) -> tuple[subprocess.Popen, list[int]]:
    """A long run of kitgen simulate, once it has started its two workers: (process, worker ids)."""
    process = subprocess.Popen(KITGEN + ["simulate", "-n", "200000", "-j", "2", "--no-progress", "--out", str(out)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO,
                               start_new_session=True)
    processes.append(process)
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children")
    deadline = time.monotonic() + HANG_GUARD
    while time.monotonic() < deadline:
        workers = [int(pid) for pid in children.read_text().split()] if children.exists() else []
        if len(workers) == 2:
            return process, workers
        time.sleep(0.05)
    raise AssertionError("the workers did not start")


def _gone(pid: int, seconds: float = HANG_GUARD) -> bool:
    """Whether process ``pid`` has ended (gone, or a zombie nobody reaped) within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.05)
    return False


@pytest.fixture(scope="module")
def earlier_run(tmp_path_factory) -> Path:
    """The --out folder of an earlier run of kitgen simulate, made once for the module."""
    out = tmp_path_factory.mktemp("earlier") / "out"
    assert run("simulate", "-n", "5", "-j", "1", "--out", out).exit_code == 0
    return out


@pytest.fixture
def previous_report(earlier_run, tmp_path) -> tuple[Path, dict]:
    """An --out folder of the test's own holding the balance report of an earlier run, and its bytes."""
    out = shutil.copytree(earlier_run, tmp_path / "out")
    return out, {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}


def test_a_simulator_worker_killed_from_outside_is_one_error_line_and_the_other_stops(previous_report,
                                                                                     processes):
    out, before = previous_report
    process, workers = _start_simulating(out, processes)
    os.kill(workers[0], signal.SIGKILL)
    _, stderr = process.communicate(timeout=HANG_GUARD)
    assert process.returncode == 1
    assert stderr.splitlines() == ["Error: a process playing games stopped unexpectedly (out of memory, "
                                   "or killed?); try fewer --workers"]
    assert _gone(workers[1])
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_ctrl_c_stops_a_simulation_with_one_line_and_leaves_the_previous_report(previous_report, processes):
    out, before = previous_report
    process, workers = _start_simulating(out, processes)
    os.killpg(process.pid, signal.SIGINT)          # as a terminal does: the process and its workers
    _, stderr = process.communicate(timeout=HANG_GUARD)
    assert process.returncode == 130
    assert stderr.splitlines() == ["Error: interrupted (Ctrl-C); nothing was left half-written"]
    assert all(_gone(pid) for pid in workers)
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    assert [p.name for p in out.rglob(".*")] == []     # no staged or set-aside files


def test_the_workers_die_with_a_simulation_killed_with_sigkill(tmp_path, processes):
    process, workers = _start_simulating(tmp_path, processes)
    process.kill()                                 # the main process alone
    process.communicate(timeout=HANG_GUARD)
    assert all(_gone(pid) for pid in workers)
