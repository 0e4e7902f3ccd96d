"""A card box's text set at the largest type size it fits, from the size its box asks for down to
its smallest, by quarter points.

:class:`TextSetting` holds all a fit depends on (the text, its font, the room,
the sizes to try), so two boxes set the same way share one fit; :func:`attempts`
sets the text at one size (a few lines, or a reportlab paragraph) and
:func:`~kitgen.render.text_fit.largest_fit` finds the largest size that fits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reportlab.lib.colors import Color
from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth

from kitgen.render.colors import text_color
from kitgen.render.rich_text import IconParagraph, LineSetter, para_markup, parse

LINE_LEADING, PARA_LEADING = 1.08, 1.22
CAP_HEIGHT = 0.72                 # of the type size: what centres a line of capitals in its box
ALIGN = {"left": TA_LEFT, "center": TA_CENTER, "right": TA_RIGHT}


@dataclass
class TextFit:
    size: float
    lines: list | None = None        # a few lines (LineSetter lines), or
    setter: LineSetter | None = None
    para: Any = None                 # a reportlab paragraph
    height: float = 0.0              # the paragraph's height


@dataclass(frozen=True)
class TextSetting:
    """Everything the fit of a box's text depends on: the text, its font, the room and the sizes to
    try; for a paragraph (``lines`` 0) also its height, leading, colour and alignment."""

    text: str
    family: str
    bold: bool
    italic: bool
    width: float
    top: float
    low: float
    lines: int | None
    height: float = 0.0
    leading: float = PARA_LEADING
    color: Any = None
    align: int = TA_CENTER


def attempts(how: TextSetting, pieces, icons: dict, font_set):
    """A function from a type size to the text set at it (a TextFit), or None where it does not fit."""
    face = lambda b, i: font_set.face(how.family, b, i)     # noqa: E731
    width = how.width
    if how.lines:
        setter = LineSetter(pieces, face, icons, (how.bold, how.italic))

        def attempt(size: float):
            got = setter.lines(size, width)
            if len(got) <= how.lines and all(setter.width(line, size) <= width for line in got):
                return TextFit(size, lines=got, setter=setter)
            return None
        return attempt
    base = face(how.bold, how.italic)
    color = text_color(_color(how.color) if how.color else Color(0, 0, 0))

    def style(size: float) -> ParagraphStyle:
        return ParagraphStyle("card", fontName=base, fontSize=size, leading=size * how.leading,
                              alignment=how.align, textColor=color)
    parsed, per_point = None, 0.0
    if how.top > 0:                     # the text is parsed once, and resized at each size tried
        parsed = IconParagraph(para_markup(parse(how.text), how.top, icons), style(how.top), icons)
        per_point = _words_width(parsed.frags) / how.top

    def attempt(size: float):
        if parsed is not None:
            if not icons and not _may_fit(per_point * size, width, how.height, size * how.leading):
                return None
            para = parsed.resized(style(size))
        else:
            para = IconParagraph(para_markup(parse(how.text), size, icons), style(size), icons)
        _, h = para.wrap(width, how.height)
        if h <= how.height and max(para.getActualLineWidths0() or [0]) <= width + 0.01:
            return TextFit(size, para=para, height=h)
        return None
    return attempt


def _words_width(frags) -> float:
    """The width of a paragraph's words without the spaces between them (a line is at least as wide
    as its words)."""
    return sum(stringWidth(word, f.fontName, f.fontSize) for f in frags for word in f.text.split())


def _may_fit(words: float, width: float, height: float, leading: float) -> bool:
    """False when words ``words`` points wide cannot fit lines of ``width`` in ``height`` (each line
    at most ``width`` + 0.01 wide, as the fit allows, and ``leading`` tall): the paragraph need not be
    wrapped to know.  A margin keeps rounding from ever refusing a text that fits."""
    lines = int(height / leading + 1e-9) if leading > 0 else 0
    return words <= lines * (width + 0.01) * (1 + 1e-9) + 1e-6


def needed_width(setter: LineSetter, size: float, lines: int) -> float:
    """The narrowest width at which the text takes ``lines`` lines at ``size``."""
    widest = setter.width([w for line in setter.lines(size, 1e9) for w in line], size)
    lo, hi = 0.0, widest
    for _ in range(40):
        mid = (lo + hi) / 2
        got = setter.lines(size, mid)
        if len(got) <= lines and all(setter.width(line, size) <= mid for line in got):
            hi = mid
        else:
            lo = mid
    return hi


def _color(rgba) -> Color:
    r, g, b, a = rgba
    return Color(r, g, b, alpha=a)
