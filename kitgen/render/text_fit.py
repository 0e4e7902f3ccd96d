"""Fitting text: the one search for the largest type size at which a text fits (:func:`largest_fit`,
used by card boxes, sheet labels, reference cards and every aid), and what it is used for here: the
largest size at which a line or a few wrapped lines fit a width (card boxes fit their rich text in
:mod:`kitgen.render.card_text`)."""

from __future__ import annotations

from typing import Callable, TypeVar

from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth

STEP = 0.25                       # points between the type sizes tried
T = TypeVar("T")


def largest_fit(attempt: Callable[[float], T | None], top: float, low: float, step: float = STEP) -> T | None:
    """What ``attempt(size)`` gives at the largest size from ``top`` down to ``low``, by ``step``, at which
    it gives anything but None; None if it gives nothing at any.  ``top`` is tried first, even below
    ``low`` (most texts fit there), then the steps between are halved: a text that fits at a size fits
    at every smaller one, and ``attempt`` must not change anything."""
    first = attempt(top)
    if first is not None or top < low - 1e-9:
        return first
    steps = int((top - low) / step + 1e-9)             # sizes top - step ... top - steps * step
    best, lo, hi = None, 1, steps
    while lo <= hi:
        mid = (lo + hi) // 2
        got = attempt(top - mid * step)
        if got is not None:
            best, hi = got, mid - 1
        else:
            lo = mid + 1
    return best


def fit_line(text: str, font: str, size: float, min_size: float, width: float,
             step: float = STEP) -> float | None:
    """The largest size from ``size`` down to ``min_size`` (by ``step``) at which one line fits ``width``."""
    if size < min_size - 1e-9:
        return None
    return largest_fit(lambda s: s if stringWidth(text, font, s) <= width else None, size, min_size, step)


ELLIPSIS = "\u2026"


def shorten_line(text: str, font: str, size: float, width: float, mark: str = ELLIPSIS,
                 keep_end: bool = True) -> str:
    """``text``, or as much of its start (and, with ``keep_end``, of its end) as fits ``width``
    around ``mark`` (an ellipsis)."""
    if stringWidth(text, font, size) <= width:
        return text
    keep = len(text)
    while keep > 0:
        keep -= 1
        if keep_end:
            head = text[:(keep + 1) // 2]
            tail = text[len(text) - keep // 2:] if keep // 2 else ""
        else:
            head, tail = text[:keep].rstrip(), ""
        short = head + mark + tail
        if stringWidth(short, font, size) <= width:
            return short
    return mark


def fit_or_shorten(text: str, font: str, size: float, min_size: float, width: float) -> tuple[str, float]:
    """The text at the largest size down to ``min_size`` at which it fits ``width``; at ``min_size``
    cut short with an ellipsis when it fits at no size."""
    fitted = fit_line(text, font, size, min_size, width)
    if fitted is not None:
        return text, fitted
    return shorten_line(text, font, min_size, width, keep_end=False), min_size


def wrap_lines(text: str, font: str, size: float, min_size: float, width: float,
               max_lines: int, every_line_fits: bool = False) -> tuple[float, list[str]] | None:
    """The largest size from ``size`` down to ``min_size`` at which ``text``, wrapped at
    ``width`` by reportlab's simpleSplit, takes at most ``max_lines`` lines; and those lines.
    ``every_line_fits``: also a word too long for ``width`` must have shrunk to fit it."""
    def attempt(at: float) -> tuple[float, list[str]] | None:
        lines = simpleSplit(text, font, at, width)
        if len(lines) <= max_lines and not (
                every_line_fits and any(stringWidth(line, font, at) > width for line in lines)):
            return at, lines
        return None
    return largest_fit(attempt, size, min_size) if size >= min_size - 1e-9 else None
