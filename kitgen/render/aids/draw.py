"""Page furniture shared by the table-aid renderers: outlines of shapes and the page heading."""

from __future__ import annotations

from reportlab.pdfbase.pdfmetrics import stringWidth

from kitgen.layout.geometry import Rect
from kitgen.layout.packing import MARGIN, hexagon_points
from kitgen.layout.scale_bar import SCALE_BAR_LENGTH, SCALE_BAR_SPAN, ScaleBar
from kitgen.render import fonts
from kitgen.render.colors import GUIDE, INK, MUTED
from kitgen.render.scale_bar import draw_scale_bar
from kitgen.render.text_fit import fit_or_shorten
from kitgen.units import mm

CARD_RADIUS = mm(3)    # corners of a card-shaped outline


def outline(canvas, shape: str, box: Rect):
    """A path of ``shape`` filling ``box``: circle, hexagon (flat-topped), card (rounded corners) or a rectangle."""
    path = canvas.beginPath()
    if shape == "circle":
        cx, cy = box.center
        path.circle(cx, cy, min(box.w, box.h) / 2)
    elif shape == "hexagon":
        points = hexagon_points(box)
        path.moveTo(*points[0])
        for p in points[1:]:
            path.lineTo(*p)
        path.close()
    elif shape == "card":
        path.roundRect(box.x, box.y, box.w, box.h, min(CARD_RADIUS, box.w / 4, box.h / 4))
    else:
        path.rect(box.x, box.y, box.w, box.h)
    return path


def heading(canvas, paper, title: str, note: str, scale_bar: bool = False) -> None:
    """The page heading: the game's title and what the page holds, above the content area.

    A page that must print at actual size (a board part, pieces to cut out)
    carries the scale bar after the title.
    """
    top = paper.height - MARGIN
    baseline = top - 11
    canvas.saveState()
    canvas.setFillColor(INK)
    canvas.setFont(fonts.BOLD, 11)
    canvas.drawString(MARGIN, baseline, title)
    used = stringWidth(title, fonts.BOLD, 11) + 12
    if scale_bar:
        draw_scale_bar(canvas, ScaleBar(MARGIN + used, top - 15, False, SCALE_BAR_LENGTH))
        used += SCALE_BAR_SPAN + 12
    canvas.setFillColor(MUTED)
    note, size = fit_or_shorten(note, fonts.ITALIC, 8.5, 6, paper.width - 2 * MARGIN - used)
    canvas.setFont(fonts.ITALIC, size)
    canvas.drawRightString(paper.width - MARGIN, baseline, note)
    canvas.setStrokeColor(GUIDE)
    canvas.setLineWidth(0.5)
    canvas.line(MARGIN, baseline - 5, paper.width - MARGIN, baseline - 5)
    canvas.restoreState()
