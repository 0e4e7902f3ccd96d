"""The web app's worker process: a crash, a hang, a memory bomb or a bug in one call is reported
in one line, and the next call gets a fresh process."""

from __future__ import annotations

import os
import signal
import threading
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


def _fork_server_pid() -> int:
    from kitgen.web import forks

    return forks._server._process.pid


def test_a_worker_ending_as_it_is_killed_leaves_the_fork_server_and_the_other_workers(worker):
    """A worker that ends on its own (its calls closed) while the server's kill for it is on its way: the
    fork server finds both in one wake-up (it is busy importing for a third worker meanwhile), and
    neither it nor the other workers' calls suffer."""
    pid, fork_server = worker.call("os:getpid"), _fork_server_pid()
    ending = Worker(memory=1024 ** 3)
    ending_pid = ending.call("os:getpid")
    answers = []
    busy = threading.Thread(target=lambda: answers.append(worker.call(f"{FAULTS}:sleep", 1.5)))
    busy.start()
    slow = Worker(memory=1024 ** 3, preload=("tests.web_worker_slow_import",))
    slow.start()                                  # the fork server imports it: busy for a second
    try:
        ending._conn.close()                      # its worker reads the end of its calls and exits...
        status = Path(f"/proc/{ending_pid}/status")
        deadline = time.monotonic() + 0.8
        while time.monotonic() < deadline and "\nState:\tZ" not in status.read_text():
            time.sleep(0.02)                      # ...and waits, unreaped, for the busy fork server
        ending._status.send(b"kill")              # the kill arrives beside its end
        assert ending._ended(HANG_GUARD) and ending._code == 0
        ending.close()
        busy.join(HANG_GUARD)
        assert answers == ["woke"]
        assert worker.call("os:getpid") == pid and _fork_server_pid() == fork_server
        assert slow.call("os:getpid") not in (pid, None)
    finally:
        slow.close()


def test_a_fork_the_system_refuses_fails_that_worker_alone(worker):
    pid, fork_server = worker.call("os:getpid"), _fork_server_pid()
    refused = Worker(memory=1024 ** 3, preload=("tests.web_worker_fork_refused",))
    try:
        with pytest.raises(WorkerError) as caught:
            refused.call("os:getpid")
        assert "stopped unexpectedly" in str(caught.value) or "could not be reached" in str(caught.value)
        assert refused.call("os:getpid") not in (pid, None)       # the next fork is allowed again
    finally:
        refused.close()
    assert worker.call("os:getpid") == pid and _fork_server_pid() == fork_server


def test_an_environment_too_large_for_one_message_still_reaches_a_worker(worker, monkeypatch):
    """The working folder and environment go to a worker on its own call socket, not in the fork server's
    requests (one of which holds at most a socket buffer, about 200 kB)."""
    pid, fork_server = worker.call("os:getpid"), _fork_server_pid()
    monkeypatch.setenv("KITGEN_WORKER_PROBE", "x" * 600_000)
    large = Worker(memory=1024 ** 3)
    try:
        cwd, value = large.call(f"{FAULTS}:surroundings", "KITGEN_WORKER_PROBE")
        assert value == "x" * 600_000 and cwd == os.getcwd()
    finally:
        large.close()
    assert worker.call("os:getpid") == pid and _fork_server_pid() == fork_server
