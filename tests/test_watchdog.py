"""The templates' watchdog: one thread keeps every watch, a watch stops only its own block, and a
forked process watches too."""

from __future__ import annotations

import multiprocessing
import threading
import time

import pytest

from kitgen.data.bounded_sandbox import TemplateTimeout, Watchdog
from kitgen.outputs import workers


def _spin(seconds: float) -> None:
    """A loop that calls nothing, as a template stuck in a loop would be (bounded, should the dog fail)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def test_a_loop_is_stopped_once_its_time_is_up():
    start = time.monotonic()
    with pytest.raises(TemplateTimeout):
        with Watchdog(0.2):
            _spin(10)
    assert 0.2 <= time.monotonic() - start < 5


def test_a_left_watch_never_fires():
    with Watchdog(0.1):
        pass
    start = time.monotonic()
    _spin(0.4)                                     # would raise here if the watch still counted
    assert time.monotonic() - start >= 0.4


def test_a_short_watch_inside_a_long_one_stops_only_its_own_block():
    with Watchdog(30):
        with pytest.raises(TemplateTimeout):
            with Watchdog(0.1):
                _spin(10)
        _spin(0.3)                                 # the outer watch goes on, unfired


def test_a_long_watch_inside_a_short_one_does_not_extend_it():
    with pytest.raises(TemplateTimeout):
        with Watchdog(0.2):
            with Watchdog(30):
                pass
            _spin(10)


def test_ten_thousand_watches_start_no_thread_each(monkeypatch):
    with Watchdog(1):
        pass
    started = []
    start = threading.Thread.start
    monkeypatch.setattr(threading.Thread, "start", lambda self: (started.append(self), start(self)))
    for _ in range(10_000):
        with Watchdog(5):
            pass
    assert started == []


def _stopped_in_child(queue) -> None:
    try:
        with Watchdog(0.2):
            _spin(10)
        queue.put("ran on")
    except TemplateTimeout:
        queue.put("stopped")


def test_a_forked_process_has_a_watchdog_of_its_own():
    with Watchdog(1):                               # the dog thread runs in this process
        pass
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_stopped_in_child, args=(queue,))
    child.start()
    assert queue.get(timeout=20) == "stopped"
    child.join(20)
    assert child.exitcode == 0


def test_the_watchdog_thread_does_not_keep_the_rulebook_from_being_made_beside():
    with Watchdog(1):
        pass
    dog = [t for t in threading.enumerate() if t.name == "kitgen-watchdog"]
    assert dog and dog[0].is_alive()
    others = [t for t in threading.enumerate() if t is not threading.current_thread() and t not in dog]
    assert workers._alone() == (not others)
