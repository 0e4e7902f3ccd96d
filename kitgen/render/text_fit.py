"""Fitting text to a box: the largest size at which a line, a few wrapped lines or a paragraph fit."""

from __future__ import annotations

from xml.sax.saxutils import escape

from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph

from kitgen.layout.geometry import Rect
from kitgen.render import fonts
from kitgen.render.colors import INK


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


def fit_paragraph(text: str, box: Rect, size: float, min_size: float, font: str = fonts.REGULAR):
    """A centred paragraph shrunk until it fits ``box``, or None if it cannot."""
    markup = escape(text).replace("\n", "<br/>")
    while size >= min_size - 1e-9:
        style = ParagraphStyle("card", fontName=font, fontSize=size, leading=size * 1.22,
                               alignment=TA_CENTER, textColor=INK)
        para = Paragraph(markup, style)
        _, h = para.wrap(box.w, box.h)
        if h <= box.h and max(para.getActualLineWidths0() or [0]) <= box.w + 0.01:
            return para, h
        size -= 0.25
    return None
