"""Collecting what is wrong with a game: raised at the first problem, or kept to list them all.

Reading a game goes on past a bad row when it can, so ``kitgen validate`` can
name every problem in one run; ``kitgen build`` stops at the first one.  Both
read through the same code, which reports each problem to a :class:`Problems`::

    problems = Problems(collect=True)
    for row in rows:
        with problems.check():          # a KitgenError raised here is kept, and the loop goes on
            check(row)
    problems.raise_all()                # one error, or a ProblemList of them all
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from kitgen.errors import KitgenError, ProblemList


class Problems:
    """Where problems go: raised at once (``collect=False``, the default) or kept in :attr:`found`."""

    def __init__(self, collect: bool = False):
        self.collect = collect
        self.found: list[KitgenError] = []
        self._ids: set[int] = set()         # of the errors in found (they stay alive there)
        self._messages: set[str] = set()    # the same problem found twice (by two checks) is one

    def add(self, error: KitgenError) -> None:
        """Raise ``error``, or keep it (once: a problem met again, e.g. on every card of a type, is one)."""
        if not self.collect:
            raise error
        self.keep(error)

    def keep(self, error: KitgenError) -> None:
        """Keep ``error`` (one that stopped the reading) unless it is, or lists, problems kept already."""
        for problem in getattr(error, "problems", [error]):
            if id(problem) not in self._ids and str(problem) not in self._messages:
                self._ids.add(id(problem))
                self._messages.add(str(problem))
                self.found.append(problem)

    @contextmanager
    def check(self) -> Iterator[None]:
        """Report a :class:`KitgenError` raised inside the block, then carry on after it."""
        try:
            yield
        except KitgenError as exc:
            self.add(exc)

    def __len__(self) -> int:
        return len(self.found)

    def raise_all(self) -> None:
        """Raise what was found: the problem itself when there is one, a :class:`ProblemList` for more."""
        if len(self.found) == 1:
            raise self.found[0]
        if self.found:
            raise ProblemList(self.found)
