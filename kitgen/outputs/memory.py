"""The memory a build, a validate or an export may take: a limit of the process's address space.

A game folder may come from a stranger, and the work it asks for (templates,
pictures, thousands of cards) runs in the process that reads it.  The
templates' sandbox bounds what they make (:mod:`kitgen.data.bounded_sandbox`);
this limit bounds everything else, so that nothing a game asks for can take
the machine's memory: while :func:`memory_limit` holds, the process (and the
processes it forks, which inherit the limit) may grow by at most
``KITGEN_MEMORY_MB`` megabytes (3,072 unless set; 0: no limit) beyond the
address space it has when the work starts.  Past it an allocation fails with
``MemoryError``, which leaves the block as a :class:`~kitgen.errors.LimitError`:
one line saying what ran out.  A Python process of kitgen holds some 200 MB of
address space; a build of 15,000 cards peaks some 300 MB above that.
"""

from __future__ import annotations

import contextlib
import os
from typing import Iterator

from kitgen.errors import LimitError
from kitgen.settings import number

try:
    import resource
except ImportError:          # not on this system: kitgen runs without the limit
    resource = None

def address_space() -> int | None:
    """The bytes of address space this process holds now (None where the system does not say)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as fh:
            pages = int(fh.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE")


@contextlib.contextmanager
def memory_limit(megabytes: float | None = None) -> Iterator[None]:
    """Hold the process to ``megabytes`` (default: ``KITGEN_MEMORY_MB``) of address space beyond what
    it has now, while the block runs; the limit before it is put back after.  A limit already lower
    (the web app's worker has its own) is kept.  Running out of memory in the block raises a
    :class:`LimitError` saying so."""
    megabytes = number("KITGEN_MEMORY_MB") if megabytes is None else megabytes
    now = address_space() if resource is not None and megabytes else None
    if now is None:
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    wanted = now + int(megabytes * 2 ** 20)
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft <= wanted:
        yield                                   # a tighter limit holds already
        return
    resource.setrlimit(resource.RLIMIT_AS, (wanted, hard))
    try:
        yield
    except (MemoryError, ImportError, OSError, RuntimeError) as exc:
        if not out_of_room(exc):
            raise
        raise LimitError(f"out of memory: the work needed more than the {megabytes:,g} MB kitgen allows itself "
                         "(KITGEN_MEMORY_MB); a game that asks for so much is more likely a mistake, or set "
                         "KITGEN_MEMORY_MB higher") from None
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


_NO_ROOM = ("failed to map segment", "cannot allocate memory", "can't start new thread")


def out_of_room(exc: BaseException) -> bool:
    """Whether ``exc`` means the process ran out of address space: a ``MemoryError``, or a library or a
    thread that could not be mapped for want of it."""
    return isinstance(exc, MemoryError) or (isinstance(exc, (ImportError, OSError, RuntimeError))
                                            and any(words in str(exc).lower() for words in _NO_ROOM))
