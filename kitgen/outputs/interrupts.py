"""Ctrl-C while kitgen writes: it marks a stop, and nothing is committed once a stop is marked.

While files are staged and swapped in (:mod:`kitgen.outputs.files`), Ctrl-C
only marks a stop; the writer checks it before each step that commits, and
raises KeyboardInterrupt once its block is over.  The CLI marks a stop on
Ctrl-C at any moment too (:mod:`kitgen.cli.group`), so a library that
swallowed the KeyboardInterrupt on its way still commits nothing after it.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from typing import Iterator

_stop = threading.Event()


def request_stop() -> None:
    """Ctrl-C was pressed: nothing may be committed from now on (even if a library swallowed the
    KeyboardInterrupt on its way)."""
    _stop.set()


def stop_requested() -> bool:
    return _stop.is_set()


def clear_stop() -> None:
    _stop.clear()


def check_stop() -> None:
    if _stop.is_set():
        raise KeyboardInterrupt


@contextlib.contextmanager
def deferred_interrupts() -> Iterator[None]:
    """While the block writes (stages, swaps, cleans up), Ctrl-C only marks a stop; the block checks
    it before it commits, and it is raised as KeyboardInterrupt once the block is over."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: request_stop())
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    check_stop()
