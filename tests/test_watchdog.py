"""The templates' clock: it counts the rendering thread's processor time inside its blocks only, one thread
keeps every clock, a clock stops only its own block, and a forked process watches too.

Each test spins for a span of *processor time* measured by the thread itself, so what it checks does not
hang on how fast or how busy the machine is.
"""

from __future__ import annotations

import multiprocessing
import threading
import time

import pytest

from kitgen.data.bounded_sandbox import _DOG, LimitedSandbox, TemplateClock, TemplateTimeout
from kitgen.errors import OptionError
from kitgen.outputs import workers
from tests.conftest import HANG_GUARD


def _spin(seconds: float) -> None:
    """A loop that calls nothing, as a template stuck in a loop would be, for ``seconds`` of this thread's
    processor time (bounded, should the clock fail)."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def test_a_loop_is_stopped_once_its_processor_time_is_up():
    clock = TemplateClock(0.05)
    start = time.thread_time()
    with pytest.raises(TemplateTimeout):
        with clock:
            _spin(10)
    assert 0.05 <= time.thread_time() - start < 10


def test_only_the_time_inside_the_blocks_counts():
    clock = TemplateClock(0.075)
    for _ in range(2):
        with clock:
            _spin(0.025)
        _spin(0.0625)                              # text fitting, drawing: not the templates' time (counted, the
                                                   # two spins alone would pass the 0.075 s limit)
    assert 0.05 <= clock.used < 0.075
    with pytest.raises(TemplateTimeout):           # the third block has what is left: 0.025 s or less
        with clock:
            _spin(10)
    assert clock.used < 0.075 + 1


def test_waiting_is_not_processor_time():
    """A thread that waits (for a processor, on a busy machine; here for a sleep) spends none of its time."""
    clock = TemplateClock(0.1)
    with clock:
        time.sleep(0.5)
    assert clock.used < 0.1


def test_blocks_inside_one_another_count_once():
    clock = TemplateClock(0.125)
    with clock:
        with clock:                                # a layout's vars read inside a box's template
            _spin(0.04)
        _spin(0.04)
    assert 0.08 <= clock.used < 0.1                 # the inner block's time counted twice would be 0.12


def test_a_left_block_never_fires():
    clock = TemplateClock(0.025)
    with clock:
        pass
    _spin(0.1)                                     # would raise here if the block still counted
    assert clock.used < 0.025                      # and the time spent outside it was not counted


def test_a_block_that_swallowed_the_timeout_raises_it_as_it_ends():
    clock = TemplateClock(0.05)
    with pytest.raises(TemplateTimeout):
        with clock:
            try:
                _spin(10)
            except TemplateTimeout:
                pass
    with pytest.raises(TemplateTimeout):           # and a clock whose time is spent takes no more blocks
        with clock:
            pass


def test_a_timeout_lost_where_it_landed_still_stops_the_template(monkeypatch):
    """An interruption can be swallowed where the thread happened to be (a garbage collector's callback, a
    __del__): here none is set at all, and the template's own loop still stops, at its next turn."""
    interrupted = []
    monkeypatch.setattr(_DOG, "_interrupt", lambda thread: interrupted.append(thread) or True)
    env = LimitedSandbox()
    template = env.from_string("{% for i in range(2000) %}{% for j in range(999) %}{% if (i ** 99) % 7 > 9 %}"
                               "{% endif %}{% endfor %}{% endfor %}")   # seconds of work: stopped by the loop bound
    clock = TemplateClock(0.05)                                         # (not a timeout) unless a turn asks
    with pytest.raises(TemplateTimeout):
        env.render_bounded(template, {}, clock)
    assert interrupted == [threading.get_ident()]       # the dog's one interruption, lost on purpose here
    assert clock not in _DOG.fired


def test_the_thread_is_interrupted_once_and_never_after_its_block(monkeypatch):
    """One interruption a block: a second could land anywhere, even in the code that handles the first.
    A block left without the dog being told (its interruption landed on the way out) is forgotten."""
    interrupted = []
    real = _DOG._interrupt
    monkeypatch.setattr(_DOG, "_interrupt", lambda thread: interrupted.append(thread) or real(thread))
    clock = TemplateClock(0.05)
    clock.__enter__()
    try:
        _spin(30)
    except TemplateTimeout:
        clock.depth = 0                                # left, and the dog never told
    deadline = time.monotonic() + HANG_GUARD
    while clock in _DOG.fired and time.monotonic() < deadline:
        _spin(0.025)                                   # an interruption now would fail the test
    assert clock not in _DOG.fired
    _spin(0.075)
    assert interrupted == [threading.get_ident()]


def test_a_short_clock_inside_a_long_one_stops_only_its_own_block():
    with TemplateClock(30):
        with pytest.raises(TemplateTimeout):
            with TemplateClock(0.025):
                _spin(10)
        _spin(0.075)                               # the outer clock goes on, unfired


def test_a_long_clock_inside_a_short_one_does_not_extend_it():
    with pytest.raises(TemplateTimeout):
        with TemplateClock(0.05):
            with TemplateClock(30):
                pass
            _spin(10)


def test_a_clock_started_while_the_dog_sleeps_wakes_it():
    with TemplateClock(1):
        pass
    deadline = time.monotonic() + 60                 # a hang guard: the dog sleeps after a second without clocks
    while not _DOG.asleep and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _DOG.asleep
    with pytest.raises(TemplateTimeout):
        with TemplateClock(0.05):
            _spin(10)


def test_the_limit_is_a_setting(monkeypatch):
    monkeypatch.setenv("KITGEN_TEMPLATE_SECONDS", "0.05")
    assert TemplateClock().seconds == 0.05
    monkeypatch.setenv("KITGEN_TEMPLATE_SECONDS", "soon")
    with pytest.raises(OptionError, match="KITGEN_TEMPLATE_SECONDS: 'soon' is not a number of seconds"):
        with TemplateClock():
            pass


def test_ten_thousand_blocks_start_no_thread_each(monkeypatch):
    with TemplateClock(1):
        pass
    started = []
    start = threading.Thread.start
    monkeypatch.setattr(threading.Thread, "start", lambda self: (started.append(self), start(self)))
    for _ in range(10_000):
        with TemplateClock(5):
            pass
    assert started == []


def _stopped_in_child(queue) -> None:
    try:
        with TemplateClock(0.05):
            _spin(10)
        queue.put("ran on")
    except TemplateTimeout:
        queue.put("stopped")


def test_a_forked_process_has_a_watchdog_of_its_own():
    with TemplateClock(1):                          # the dog thread runs in this process
        pass
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_stopped_in_child, args=(queue,))
    child.start()
    assert queue.get(timeout=60) == "stopped"
    child.join(60)
    assert child.exitcode == 0


def test_the_watchdog_thread_does_not_keep_the_rulebook_from_being_made_beside():
    with TemplateClock(1):
        pass
    dog = [t for t in threading.enumerate() if t.name == "kitgen-watchdog"]
    assert dog and dog[0].is_alive()
    others = [t for t in threading.enumerate() if t is not threading.current_thread() and t not in dog]
    assert workers._alone() == (not others)
