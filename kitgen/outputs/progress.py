"""Progress of long work, told to whoever shows it (the CLI's progress bar), as (steps done, steps in all).

The library never draws anything itself: a build or an export takes an
optional ``progress(done, total)`` callable and reports through a
:class:`Steps` counter.
"""

from __future__ import annotations

from typing import Callable

Report = Callable[[int, int], None]


class Steps:
    """Counts the steps of one job and tells ``report`` after each (nothing when ``report`` is None)."""

    def __init__(self, report: Report | None, total: int):
        self.report, self.total, self.done = report, max(1, total), 0

    def advance(self, n: int = 1) -> None:
        self.done = min(self.total, self.done + n)
        if self.report is not None:
            self.report(self.done, self.total)
