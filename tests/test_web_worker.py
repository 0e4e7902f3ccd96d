"""The web app's worker process: a crash, a hang, a memory bomb or a bug in one call is reported
in one line, and the next call gets a fresh process."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from kitgen.errors import KitgenError
from kitgen.web.worker import Worker, WorkerError
from tests.conftest import HANG_GUARD

FAULTS = "tests.web_worker_faults"


@pytest.fixture(scope="module")
def worker():
    w = Worker(memory=1024 ** 3)
    yield w
    w.close()


def test_a_call_returns_its_value_and_reports_progress(worker):
    seen = []
    assert worker.call(f"{FAULTS}:count_up", 3, progress=seen.append) == "counted"
    assert seen == [1, 2, 3]


def test_a_user_error_keeps_its_message(worker):
    with pytest.raises(KitgenError) as caught:
        worker.call("kitgen.web.preview:build_kit_files", "no-such-game", "unused")
    assert str(caught.value).startswith("no game folder or built-in game named 'no-such-game'")


@pytest.mark.parametrize("target, args, message", [
    ("abort", (), "the worker process stopped unexpectedly (exit code -6)"),
    ("exit_quietly", (), "the worker process stopped unexpectedly (exit code 3)"),
    ("allocate", (2,), "out of memory (a worker may use 1 GiB)"),
    ("fail", (), "RuntimeError: a bug in the build"),
])
def test_a_failing_call_is_one_line_and_the_next_call_works(worker, target, args, message):
    with pytest.raises(WorkerError) as caught:
        worker.call(f"{FAULTS}:{target}", *args)
    assert str(caught.value) == message
    assert worker.call(f"{FAULTS}:sleep", 0) == "woke"


def test_a_call_past_its_time_limit_is_stopped(worker):
    with pytest.raises(WorkerError) as caught:        # left to itself, the call would answer "woke"
        worker.call(f"{FAULTS}:sleep", HANG_GUARD, timeout=0.5)
    assert str(caught.value) == "stopped after 0.5 s (the time limit of one build)"
    assert worker.call(f"{FAULTS}:sleep", 0) == "woke"


def test_a_fresh_worker_starts_clean_in_the_callers_surroundings(worker, tmp_path, monkeypatch):
    """A worker is forked from a process that never runs a call: what one worker's calls did is not in the next
    one, and each takes the caller's working folder and environment as they are when it starts."""
    assert worker.call(f"{FAULTS}:remember", "first") == ["first"]
    assert worker.call(f"{FAULTS}:remember", "second") == ["first", "second"]      # the same process
    with pytest.raises(WorkerError):
        worker.call(f"{FAULTS}:exit_quietly")
    assert worker.call(f"{FAULTS}:remember", "third") == ["third"]                # a fresh one
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("KITGEN_WORKER_PROBE", "set after the first worker began")
    fresh = Worker(memory=1024 ** 3)
    try:
        assert fresh.call(f"{FAULTS}:surroundings", "KITGEN_WORKER_PROBE") == (
            str(tmp_path), "set after the first worker began")
    finally:
        fresh.close()


def test_a_worker_dies_with_its_fork_server_and_the_next_call_gets_a_fresh_one(worker):
    from kitgen.web import forks

    pid = worker.call("os:getpid")
    fork_server = forks._server._process
    os.kill(fork_server.pid, signal.SIGKILL)
    fork_server.wait(HANG_GUARD)
    status = Path(f"/proc/{pid}/status")
    deadline = time.monotonic() + HANG_GUARD   # the worker is killed with it (a zombie left to init, or gone)
    while True:
        try:
            if "\nState:\tZ" in status.read_text():
                break
        except FileNotFoundError:
            break
        assert time.monotonic() < deadline, "the worker outlived its fork server"
        time.sleep(0.05)
    assert worker.call("os:getpid") not in (pid, None)
    assert forks._server._process.pid != fork_server.pid
