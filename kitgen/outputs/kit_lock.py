"""The lock that keeps two kitgen runs from writing the same kit at once.

A build or export holds an exclusive ``flock`` on ``.<name>.kitgen-lock``
beside the folder it writes (:func:`kit_lock`), from the moment it knows the
folder until it is done; worker processes close their inherited copy
(:func:`forget_locks`).  A second run waits up to ``KITGEN_LOCK_WAIT`` seconds (3 unless set),
then fails with one line naming the holder.  The kernel drops the lock when
its process ends, kill -9 included.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from typing import Iterator

from kitgen.outputs.files import MARK, OutputError, ensure_dir
from kitgen.settings import number

try:
    import fcntl
except ImportError:          # Windows: no flock; kitgen runs unlocked there
    fcntl = None

@contextlib.contextmanager
def kit_lock(target: Path, what: str, option: str = "--out", wait: float | None = None) -> Iterator[None]:
    """Hold the lock of the folder ``target`` while the block runs (``what``: the command, shown to a
    second run that finds the lock taken).  Waits up to ``wait`` seconds (default: ``KITGEN_LOCK_WAIT``)."""
    if fcntl is None:
        yield
        return
    target = Path(target)
    created = [p for p in (target.parent, *target.parent.parents) if not os.path.lexists(p)]
    ensure_dir(target.parent, option)
    path = target.parent / f".{target.name}{MARK}lock"
    fd = _acquire(path, target, option, number("KITGEN_LOCK_WAIT") if wait is None else wait)
    _held.add(fd)
    try:
        os.ftruncate(fd, 0)
        os.write(fd, f"pid {os.getpid()}, {what}, since {time.strftime('%H:%M:%S')}".encode())
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)        # waiters holding the old file see it is gone and open the new one
        _held.discard(fd)
        os.close(fd)
        for folder in created:     # a run that wrote nothing leaves no empty --out behind
            try:
                os.rmdir(folder)
            except OSError:
                break


_held: set[int] = set()     # descriptors of the locks this process holds


def forget_locks() -> None:
    """In a forked worker process: close the inherited descriptors of the parent's locks, so a worker
    that outlives its parent does not keep the kit locked."""
    for fd in list(_held):
        with contextlib.suppress(OSError):
            os.close(fd)
    _held.clear()


def _acquire(path: Path, target: Path, option: str, wait: float) -> int:
    deadline = time.monotonic() + wait
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise OutputError(f"{option}: cannot create the lock file {path} ({exc.strerror})") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            if time.monotonic() >= deadline:
                raise OutputError(f"{option}: {target} is being written by another kitgen ({holder}); "
                                  f"wait for it to finish, or choose another {option}") from None
            time.sleep(0.05)
            continue
        try:
            same = os.fstat(fd).st_ino == os.stat(path).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)               # the holder removed this file as it let go: take the new one


def _holder(fd: int) -> str:
    try:
        text = os.pread(fd, 300, 0).decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    return text or "a run that has just started"
