"""Pausing Python's cycle collector while a reader builds many small objects that hold no cycles.

Reading 100,000 rows of a card sheet, or 20,000 layout boxes from TOML, makes
hundreds of thousands of lists, tuples and strings; each few hundred of them
start a collection, which walks every object made so far.  None of them can
form a cycle, so those walks find nothing: pausing the collector while they
are made does the same work in under half the time.  Only plain data readers
use this (never code that runs a user's template), so what piles up meanwhile
is bounded by the sizes :mod:`kitgen.data.limits` allows.
"""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager
from typing import Iterator

_LOCK = threading.Lock()
_paused = 0                 # blocks inside gc_paused now, in every thread
_was_on = True              # whether the collector was on when the first of them began


@contextmanager
def gc_paused() -> Iterator[None]:
    """The cycle collector off inside the block, back as it was once the last block of any thread is left
    (also when a block raises).  The collector is one switch for the whole process: the blocks of several
    threads (the web server reads games on several) are counted, so none turns it back on while another
    is inside, and none leaves it off."""
    global _paused, _was_on
    with _LOCK:
        if not _paused:
            _was_on = gc.isenabled()
            gc.disable()
        _paused += 1
    try:
        yield
    finally:
        with _LOCK:
            _paused -= 1
            if not _paused and _was_on:
                gc.enable()
