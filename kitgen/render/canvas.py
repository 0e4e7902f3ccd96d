"""Deterministic PDF canvases in memory: the one way every renderer starts and ends a PDF.

A canvas may draw for a printing press (``inks``, see :class:`Inks`): then
every colour set on it, and every art file drawn on it, goes through the inks
on its way into the PDF (kitgen's drawing code stays the same), and what it
draws that a press file cannot hold (transparency) is noted, so the caller
can treat it.
"""

from __future__ import annotations

import io
import zlib
from functools import lru_cache
from typing import Protocol

from reportlab import rl_config
from reportlab.lib.colors import Color
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas, ExtGState

from kitgen.render.colors import TextColor, text_color

# Binary streams in every PDF kitgen writes (smaller files, and no slow ASCII85 pass over images), set as
# this module is imported, before any document is made: reportlab reads the switch as each stream is made,
# so setting it only when the first canvas is made left the documents made before it (a rulebook drawn in a
# forked process at a build's start) in ASCII85 in a fresh process and binary in a process that had drawn before
rl_config.useA85 = 0

_SHARED_STREAM = (8192, 524288)     # streams as long as font subsets: worth remembering, few to keep
_compress = lru_cache(maxsize=16)(zlib.compress)


class _RememberingFlate(pdfdoc.PDFStreamFilterZCompress):
    """reportlab's Flate filter, remembering the long streams it compressed lately (the font subsets every
    PDF of a game, and most games' rulebooks, embed alike): the same bytes give the same compressed bytes,
    so what comes out is unchanged."""

    def encode(self, text):
        if isinstance(text, str):
            text = text.encode("utf8")
        return _compress(text) if _SHARED_STREAM[0] <= len(text) <= _SHARED_STREAM[1] else zlib.compress(text)


pdfdoc.PDFZCompress = _RememberingFlate()      # set with the switch above, before any document is made


class Inks(Protocol):
    """What a canvas that draws for a press draws with (kitgen's is
    :class:`kitgen.outputs.print_inks.PrintInks`)."""

    def area(self, color):
        """The press colour of a filled area (a shape, a background)."""

    def line(self, color):
        """The press colour of text and of stroked lines."""

    def art(self, path, width: float, height: float) -> tuple:
        """The name and the press encoding (an ``EncodedImage``) of an art file drawn ``width`` x ``height``."""

    def art_edge(self, path, width: float, height: float, column: int | None, row: int | None) -> tuple:
        """Likewise, of the first (0) or last (-1) column and/or row of its pixels (None: all of them)."""


class _WatchedGState(ExtGState):
    """reportlab's graphics states, noting on the canvas every one that makes drawing transparent."""

    canvas = None

    def set(self, canv, a, v):
        if (a in ("ca", "CA") and v < 1) or (a == "BM" and v != "Normal"):
            self.canvas.note_transparency("a translucent colour" if a in ("ca", "CA") else f"blend mode {v}")
        super().set(canv, a, v)

    def pushCopy(self):
        copy = super().pushCopy()
        copy.canvas = self.canvas
        return copy


class KitCanvas(Canvas):
    """reportlab's canvas, drawing a game's icons (in paragraphs' <img> tags) the way kitgen embeds art,
    and, with ``inks``, in a press's colours."""

    inks: Inks | None = None

    def use_inks(self, inks: Inks) -> None:
        """Draw from now on in ``inks``: areas as ``inks.area`` says; text and strokes as ``inks.line`` (text
        is what is drawn inside a text object, or in a :class:`kitgen.render.colors.TextColor`)."""
        self.inks = inks
        self._enforceColorSpace = inks.area
        self.transparency: list[str] = []        # what made the drawing transparent, in order met
        self._watch_states()

    def _watch_states(self) -> None:
        watched = _WatchedGState()
        watched.canvas = self
        watched._d, watched._c = self._extgstate._d, self._extgstate._c
        self._extgstate = watched

    def init_graphics_state(self):
        super().init_graphics_state()          # a new page or form starts with fresh graphics states
        if self.inks is not None:
            self._watch_states()

    def note_transparency(self, what: str) -> None:
        if self.inks is not None:
            self.transparency.append(what)

    def setFillColor(self, aColor, alpha=None):
        if self.inks is not None and isinstance(aColor, TextColor):
            aColor = self.inks.line(aColor)          # text's colour, set before the text is drawn
        super().setFillColor(aColor, alpha)

    def beginText(self, x=0, y=0, direction=None):
        text = super().beginText(x, y, direction=direction)
        if self.inks is not None:
            text._enforceColorSpace = self.inks.line       # colours set inside text: the text's own
        return text

    def setStrokeColor(self, aColor, alpha=None):
        super().setStrokeColor(self.inks.line(aColor) if self.inks is not None else aColor, alpha)

    def setFillGray(self, gray, alpha=None):
        if self.inks is None:
            return super().setFillGray(gray, alpha)
        self.setFillColor(Color(gray, gray, gray), alpha)      # a press takes no DeviceGray from kitgen

    def setStrokeGray(self, gray, alpha=None):
        if self.inks is None:
            return super().setStrokeGray(gray, alpha)
        self.setStrokeColor(Color(gray, gray, gray), alpha)

    def drawImage(self, image, x, y, width=None, height=None, *args, **kwargs):
        draw = getattr(image, "draw", None)
        if draw is not None:
            return draw(self, x, y, width, height)
        return super().drawImage(image, x, y, width, height, *args, **kwargs)


def set_text_fill(canvas, color) -> None:
    """Set ``color`` as the fill of the text drawn next (on a press canvas, in the inks of text)."""
    canvas.setFillColor(text_color(color))


def new_canvas(pagesize, title: str, subject: str = "", canvas_class=None, inks: Inks | None = None):
    """A reportlab canvas writing to memory, set up for byte-identical rebuilds.

    ``invariant`` fixes the creation date and document id; viewers are asked
    to print at actual size, never "fit to page".  ``canvas_class`` is a
    subclass of reportlab's Canvas to use instead of it; ``inks``, the colours
    of a press to draw in.
    """
    from kitgen.render import fonts

    fonts.register()
    buffer = io.BytesIO()
    # the initial font is a registered TrueType face, so no unembedded Helvetica is ever referenced
    canvas = (canvas_class or KitCanvas)(buffer, pagesize=tuple(pagesize), invariant=1, pageCompression=1,
                    initialFontName=fonts.REGULAR)
    if inks is not None:
        canvas.use_inks(inks)
    canvas.setTitle(title)
    canvas.setAuthor("kitgen")
    canvas.setCreator("kitgen")
    canvas.setProducer("kitgen")
    if subject:
        canvas.setSubject(subject)
    canvas.setViewerPreference("PrintScaling", "None")
    canvas._kitgen_buffer = buffer
    return canvas


def canvas_bytes(canvas) -> bytes:
    canvas.save()
    return canvas._kitgen_buffer.getvalue()
