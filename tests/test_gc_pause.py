"""The cycle collector paused while plain data is read: one switch for the whole process, so the blocks of
several threads (the web server reads games on several) are counted."""

from __future__ import annotations

import gc
import sys
import threading

from kitgen.data.gc_pause import gc_paused
from tests.conftest import HANG_GUARD


def test_the_collector_stays_off_until_the_last_block_of_any_thread_is_left():
    assert gc.isenabled()
    inside, leave = threading.Event(), threading.Event()

    def other():
        with gc_paused():
            inside.set()
            leave.wait(HANG_GUARD)

    thread = threading.Thread(target=other)
    with gc_paused():
        thread.start()
        assert inside.wait(HANG_GUARD)
    assert not gc.isenabled()              # left here first: the other thread is still reading
    leave.set()
    thread.join(HANG_GUARD)
    assert gc.isenabled()


def test_blocks_of_many_threads_at_once_leave_the_collector_as_they_found_it():
    switching = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)            # threads change places between any two steps
    try:
        def reader():
            for _ in range(2000):
                with gc_paused():
                    pass

        threads = [threading.Thread(target=reader) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(HANG_GUARD)
    finally:
        sys.setswitchinterval(switching)
    assert gc.isenabled()
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()          # off before: off after
    finally:
        gc.enable()
