"""A progress bar for long work: click's, on stderr, shown only on a terminal and only once the work has
taken ``KITGEN_PROGRESS_DELAY`` seconds, 2 unless set (a quick build prints nothing more than before)."""

from __future__ import annotations

import sys
import time

import click

from kitgen.settings import number


class DelayedBar:
    """``bar(done, total)`` as a library's progress callable; use it as a context manager so the bar's
    line is finished (or never started) however the work ends."""

    def __init__(self, label: str, file=None):
        self.label, self.file = label, file or sys.stderr
        self.start = time.monotonic()
        self.delay = number("KITGEN_PROGRESS_DELAY")      # seconds before a bar appears
        self.bar = None
        self.shown = self.file.isatty()

    def __call__(self, done: int, total: int) -> None:
        if not self.shown:
            return
        if self.bar is None:
            if time.monotonic() - self.start < self.delay:
                return
            self.bar = click.progressbar(length=total, label=self.label, file=self.file, show_pos=True)
            self.bar.__enter__()
        self.bar.update(done - self.bar.pos)

    def __enter__(self) -> "DelayedBar":
        return self

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
