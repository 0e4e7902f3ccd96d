"""Fitting text to a width: the largest size at which a line or a few wrapped lines fit (card boxes fit
their rich text in :mod:`kitgen.render.card_fit`)."""

from __future__ import annotations

from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth


def fit_line(text: str, font: str, size: float, min_size: float, width: float,
             step: float = 0.25) -> float | None:
    """The largest size from ``size`` down to ``min_size`` (by ``step``) at which one line fits ``width``."""
    while size >= min_size - 1e-9:
        if stringWidth(text, font, size) <= width:
            return size
        size -= step
    return None


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
    while size >= min_size - 1e-9:
        lines = simpleSplit(text, font, size, width)
        if len(lines) <= max_lines and not (
                every_line_fits and any(stringWidth(line, font, size) > width for line in lines)):
            return size, lines
        size -= 0.25
    return None
