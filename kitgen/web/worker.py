"""A child process that does the risky work of the web app: builds, rasters, simulations.

A game folder is untrusted input.  Building it runs reportlab, jinja2 (in its
sandbox), Pillow and PDFium over the folder's files; a bug or a hostile file
there could loop, eat memory or crash the interpreter.  :class:`Worker` runs
such calls in a separate process (forked by :mod:`kitgen.web.forks` from a fresh
process that has imported kitgen, so it never inherits the server's threads or
its main script), with a memory limit and a time limit: when the call
fails in any of these ways the server reports it and starts a fresh process for
the next call, and keeps serving.

Calls name their function as ``"module:function"`` and pass plain values, so
nothing but data crosses the pipe.  A function that takes a ``progress``
keyword may report progress while it runs.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Callable

from kitgen.errors import KitgenError
from kitgen.web import forks

DEFAULT_TIMEOUT = 120.0             # seconds one call may take


class WorkerError(Exception):
    """A call that failed for a reason other than the user's data (a crash, a limit, a bug)."""


class Worker:
    """One child process, restarted when it dies; ``call`` runs one function in it at a time."""

    def __init__(self, memory: int | None = None, preload: tuple[str, ...] = ()):
        """``memory``: the bytes of memory the worker may take (default: ``KITGEN_MEMORY_MB``; 0: no limit)."""
        from kitgen.settings import number

        if memory is None:
            memory = int(number("KITGEN_MEMORY_MB") * 2 ** 20)
        self.memory, self.preload = memory, tuple(preload)
        self._lock = threading.Lock()
        self._status = self._conn = None
        self._over, self._code = False, None

    def start(self) -> None:
        """Start the process now (it imports ``preload`` while the caller goes on)."""
        with self._lock:
            self._ensure()

    def _ensure(self) -> None:
        if self._status is not None and not self._ended(0):
            return
        self._stop()
        from multiprocessing.connection import Connection

        try:
            calls, self._status = forks.start_worker(self.memory or None, self.preload)
        except OSError as exc:
            raise WorkerError(f"a worker process could not be started ({exc.strerror or exc})") from None
        self._conn = Connection(calls.detach())
        self._over, self._code = False, None
        try:
            self._conn.send(forks.surroundings())     # its working folder and environment: ours, now
        except OSError:
            pass                                      # it has ended already: the call finds out

    def _ended(self, wait: float) -> bool:
        """Whether the worker has ended, waiting up to ``wait`` seconds for it; its exit code is then
        ``self._code`` (None: not known, the fork server ended first)."""
        if not self._over and self._status is not None:
            self._status.settimeout(wait)
            try:
                said = self._status.recv(64)
            except (TimeoutError, BlockingIOError):
                return False
            except OSError:
                said = b""
            self._over, self._code = True, int(said) if said.strip() else None
        return self._over

    def _stop(self) -> None:
        if self._conn is not None:
            self._conn.close()
        if self._status is not None:
            if not self._ended(0):
                try:
                    self._status.send(b"kill")
                except OSError:
                    pass
                self._ended(5)
            self._status.close()
        self._status = self._conn = None

    def call(self, target: str, *args, timeout: float = DEFAULT_TIMEOUT,
             progress: Callable[[Any], None] | None = None, **kwargs) -> Any:
        """``target(*args, **kwargs)`` in the worker.

        A :class:`KitgenError` there is raised here with the same message; a
        crash, a timeout, running out of memory or any other exception raises
        :class:`WorkerError` with one line saying which.
        """
        with self._lock:
            self._ensure()
            try:
                self._conn.send((target, args, kwargs, progress is not None))
            except (OSError, EOFError):
                self._stop()
                raise WorkerError("the worker process could not be reached") from None
            deadline = time.monotonic() + timeout
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    self._stop()
                    raise WorkerError(f"stopped after {timeout:g} s (the time limit of one build)")
                try:
                    ready = self._conn.poll(min(remaining, 0.25))
                    message = self._conn.recv() if ready else None
                except (EOFError, OSError):
                    message = None
                    ready = True
                if message is None:
                    if ready or self._ended(0):
                        code = self._code if self._ended(5) else None
                        self._stop()
                        raise WorkerError(f"the worker process stopped unexpectedly (exit code {code})")
                    continue
                kind, value = message
                if kind == "progress":
                    if progress is not None:
                        progress(value)
                    continue
                if kind == "ok":
                    return value
                if kind == "user":
                    raise KitgenError(value)
                raise WorkerError(value)

    def close(self) -> None:
        with self._lock:
            self._stop()
