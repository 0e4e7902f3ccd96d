"""Deterministic PDF canvases in memory: the one way every renderer starts and ends a PDF."""

from __future__ import annotations

import io

from reportlab.pdfgen.canvas import Canvas


class KitCanvas(Canvas):
    """reportlab's canvas, drawing a game's icons (in paragraphs' <img> tags) the way kitgen embeds art."""

    def drawImage(self, image, x, y, width=None, height=None, *args, **kwargs):
        draw = getattr(image, "draw", None)
        if draw is not None:
            return draw(self, x, y, width, height)
        return super().drawImage(image, x, y, width, height, *args, **kwargs)


def new_canvas(pagesize, title: str, subject: str = "", canvas_class=None):
    """A reportlab canvas writing to memory, set up for byte-identical rebuilds.

    ``invariant`` fixes the creation date and document id; viewers are asked
    to print at actual size, never "fit to page".  ``canvas_class`` is a
    subclass of reportlab's Canvas to use instead of it.
    """
    from reportlab import rl_config

    from kitgen.render import fonts

    rl_config.useA85 = 0   # binary streams: smaller files, and no slow ASCII85 pass over images

    fonts.register()
    buffer = io.BytesIO()
    # the initial font is a registered TrueType face, so no unembedded Helvetica is ever referenced
    canvas = (canvas_class or KitCanvas)(buffer, pagesize=tuple(pagesize), invariant=1, pageCompression=1,
                    initialFontName=fonts.REGULAR)
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
