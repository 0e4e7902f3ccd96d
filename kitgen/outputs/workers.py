"""Work spread over worker processes: rasterising pages, playing simulated games, the rulebook beside
the card sheets (:class:`Beside`).

:func:`run_tasks` starts the workers, hands each task to a worker as one
frees up (two at a time, so a worker never waits for the main process
between tasks), and passes each result to a callback as it arrives.  What
can go wrong ends in one line, never in a pool's traceback or a hang:

* a worker that dies (out of memory, killed) closes its pipe before it has
  answered: :class:`~kitgen.errors.WorkerFailed` at once;
* a task that raises in a worker: :class:`~kitgen.errors.WorkerFailed`
  with the exception's one-line text;
* Ctrl-C: the workers ignore it (:func:`start_worker`), the main process
  gets KeyboardInterrupt (or finds the stop marked by
  :mod:`kitgen.outputs.interrupts` after a result) and stops every worker
  before it goes on;
* a main process that is killed takes its workers with it (Linux).

Workers are forked where the system can (they start at once, with the main
process's modules and data), spawned elsewhere.  This module imports nothing
from the rest of kitgen but its errors, its Ctrl-C flag and, in a worker, its locks.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
from multiprocessing.connection import wait
from typing import Any, Callable, Sequence

from kitgen.errors import LimitError, WorkerFailed
from kitgen.outputs.interrupts import check_stop

AHEAD = 2           # tasks a worker holds at once: the next one waits in its pipe while it works


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:              # not on Linux
        return max(1, os.cpu_count() or 1)


def pool_context():
    """Fork where the system has it: workers start at once and need no importable main script."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def start_worker() -> None:
    """In a worker: leave Ctrl-C to the main process, which stops the workers (no traceback per worker);
    on Linux, also die with the main process if it is killed (kill -9 leaves no workers behind)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):          # blocked by the main process while it started us
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    from kitgen.outputs.kit_lock import forget_locks

    forget_locks()
    parent = multiprocessing.parent_process()
    die_with(parent.pid if parent is not None else None)


def die_with(parent: int | None) -> None:
    """On Linux, be killed when this process's parent ends (it can no longer stop this one); end now if
    ``parent`` (its pid, when known) already has: killed before this took effect, no one to work for."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None).prctl(1, signal.SIGKILL)          # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            return
        if parent is not None and os.getppid() != parent:
            os._exit(1)


def one_line(exc: BaseException) -> str:
    """An exception as one line of text: its type and its message with line breaks folded."""
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def run_tasks(work: Callable[[Any, Any], Any], shared: Any, tasks: Sequence, processes: int,
              on_result: Callable[[int, Any], None], died: str,
              failed: Callable[[Any, str], str]) -> None:
    """Call ``work(shared, task)`` for every task in ``processes`` worker processes, and
    ``on_result(index, result)`` in this process as each result arrives (in any order).

    ``shared`` reaches each worker once, as it starts (forked: not even copied).  A worker
    that dies raises :class:`WorkerFailed` with the message ``died``; a task that raises,
    with ``failed(task, "<Type>: <message>")``.  However this ends (also by Ctrl-C or an
    exception from ``on_result``), every worker is stopped before it returns.
    """
    context = pool_context()
    workers: dict = {}                     # our end of each worker's pipe -> [process, tasks it holds]
    queue = iter(enumerate(tasks))
    finished = False
    try:
        for _ in range(max(1, min(processes, len(tasks)))):
            ours, theirs = context.Pipe()
            process = context.Process(target=_serve, args=(theirs, work, shared), daemon=True)
            _start(process)
            theirs.close()           # so that the worker's end closes when it dies
            workers[ours] = [process, 0]
        for pipe in workers:
            _hand_out(pipe, workers, queue)
        while any(held for _, held in workers.values()):
            for pipe in wait([p for p, (_, held) in workers.items() if held]):
                try:
                    index, ok, value = pipe.recv()
                except (EOFError, OSError):   # its pipe closed (or was reset) before it answered: it died
                    raise WorkerFailed(died) from None
                if not ok:
                    raise WorkerFailed(failed(tasks[index], value))
                workers[pipe][1] -= 1
                _hand_out(pipe, workers, queue)      # first, so that the worker goes on at once
                on_result(index, value)
                check_stop()          # a Ctrl-C swallowed on its way (in a finaliser, say) stops here
        finished = True
    finally:
        for pipe, (process, _) in workers.items():
            if finished:
                _send(pipe, None)                    # no more tasks: the worker returns
            elif process.is_alive():
                process.terminate()
        for pipe, (process, _) in workers.items():
            process.join(None if finished else 5)
            if process.is_alive():
                process.kill()
                process.join()
            pipe.close()


BESIDE = True       # tests turn it off to compare with the work done in this process


class Beside:
    """``func(*args)`` worked out in a forked process while this one goes on (the second core builds
    the rulebook while the first draws the card sheets); :meth:`result` gives its value.

    Only a process with no other live thread forks (a thread could hold a lock the fork would copy
    held), and only where the system forks.  Whenever the forked process cannot give the value (an
    exception, a crash, no fork), :meth:`result` works it out here instead, so a mistake in the game
    raises its own exception, as without this class; a :class:`~kitgen.errors.LimitError` (a template
    out of time or room, as costly to meet twice) is raised here with the forked process's message.  :meth:`stop` ends the process early (Ctrl-C).
    """

    def __init__(self, func: Callable[..., Any], *args: Any):
        self.func, self.args, self.process, self.pipe = func, args, None, None
        if not BESIDE or "fork" not in multiprocessing.get_all_start_methods() or not _alone():
            return
        context = multiprocessing.get_context("fork")
        ours, theirs = context.Pipe(duplex=False)
        self.process = context.Process(target=_work_beside, args=(theirs, func, args), daemon=True)
        _start(self.process)
        theirs.close()
        self.pipe = ours

    def result(self) -> Any:
        if self.process is not None:
            try:
                ok, value = self.pipe.recv()
            except (EOFError, OSError):      # it died before it answered
                ok, value = False, None
            finally:
                self.stop()
            if ok:
                return value
            if isinstance(value, LimitError):
                raise value
        check_stop()
        return self.func(*self.args)

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.is_alive():
            self.process.terminate()
        self.process.join()
        self.pipe.close()
        self.process = None


def _alone() -> bool:
    """No thread but this one is alive, apart from threads that make forking safe themselves
    (the templates' watchdog holds its lock free across a fork)."""
    me = threading.current_thread()
    return all(t is me or getattr(t, "fork_safe", False) for t in threading.enumerate())


def _work_beside(pipe, func: Callable[..., Any], args: tuple) -> None:
    start_worker()
    try:
        pipe.send((True, func(*args)))
    except LimitError as exc:       # as costly to meet again (a template out of time): told as it is
        _send(pipe, (False, LimitError(str(exc))))
    except BaseException:           # the main process works it out again and meets the same problem
        _send(pipe, (False, None))
    finally:
        pipe.close()


def _start(process) -> None:
    """Start ``process`` with Ctrl-C held back until it ignores it (the main process gets it meanwhile)."""
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None:
        process.start()
        return
    mask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        process.start()
    finally:
        mask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _hand_out(pipe, workers: dict, queue) -> None:
    """Send ``pipe``'s worker tasks until it holds AHEAD.  A worker that has gone cannot take one: its
    pipe is still read, and tells why (the error it sent before it stopped, or nothing: it died)."""
    while workers[pipe][1] < AHEAD:
        item = next(queue, None)
        if item is None:
            return
        workers[pipe][1] += 1
        try:
            pipe.send(item)
        except OSError:
            return


def _send(pipe, message) -> None:
    try:
        pipe.send(message)
    except OSError:             # the worker is gone already
        pass


def _serve(pipe, work: Callable[[Any, Any], Any], shared: Any) -> None:
    """A worker: answer each (index, task) with (index, True, result), or (index, False, text) and stop.
    Whatever else happens, it returns without a traceback: the main process sees its pipe close."""
    start_worker()
    try:
        while True:
            message = pipe.recv()
            if message is None:
                return
            index, task = message
            try:
                pipe.send((index, True, work(shared, task)))     # a result that cannot be sent fails too
            except Exception as exc:
                _send(pipe, (index, False, one_line(exc)))
                return
    except Exception:                 # the main process stopped listening
        return
    finally:
        pipe.close()
