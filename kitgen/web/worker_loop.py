"""The worker process's side of :mod:`kitgen.web.worker`: its memory limit and its loop of calls.

A worker is forked by :mod:`kitgen.web.forks`, which runs :func:`serve_calls` in it; the
server's side (:class:`kitgen.web.worker.Worker`) sends it calls and reads their answers.
"""

from __future__ import annotations

import importlib
import sys
import traceback
from typing import Callable

from kitgen.errors import KitgenError


def _function(target: str) -> Callable:
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def _limit_memory(limit: int | None) -> None:
    """Hold the worker to ``limit`` bytes of address space beyond what it has as it starts."""
    from kitgen.outputs.memory import address_space

    if not limit:
        return
    try:
        import resource
    except ImportError:  # not on this system: run without the limit
        return
    limit += address_space() or 0
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def serve_calls(conn, memory: int | None, preload: tuple[str, ...]) -> None:
    """The worker's loop: one call at a time, answered with ("ok", value) or an error."""
    _limit_memory(memory)
    for module in preload:
        importlib.import_module(module)
    while True:
        try:
            target, args, kwargs, wants_progress = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        try:
            if wants_progress:
                kwargs = dict(kwargs, progress=lambda value: conn.send(("progress", value)))
            conn.send(("ok", _function(target)(*args, **kwargs)))
        except KitgenError as exc:
            conn.send(("user", "\n".join(exc.lines())))
        except MemoryError:
            conn.send(("bug", f"out of memory (a worker may use {memory / 1024 ** 3:g} GiB)"))
        except BaseException as exc:  # a bug: the server shows one line, the traceback goes to stderr
            traceback.print_exc(file=sys.stderr)
            conn.send(("bug", f"{type(exc).__name__}: {exc}"))
