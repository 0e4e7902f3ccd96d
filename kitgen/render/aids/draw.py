"""Drawing helpers shared by the table-aid renderers: colours, text fitting, art, page furniture."""

from __future__ import annotations

from reportlab.lib.colors import Color, HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth

from kitgen.layout.geometry import Rect
from kitgen.layout.packing import MARGIN, hexagon_points
from kitgen.render import fonts
from kitgen.render.colors import INK, PANEL
from kitgen.render.text_fit import fit_line
from kitgen.units import mm

MUTED = HexColor("#7a7064")
GUIDE = HexColor("#c9c2b6")
CUT = HexColor("#3b332c")
PLACEHOLDER = HexColor("#e8e2d6")
PLACEHOLDER_LINE = HexColor("#b3a994")
CARD_RADIUS = mm(3)    # corners of a card-shaped outline


def is_dark(color: str) -> bool:
    c = HexColor(color)
    return 0.2126 * c.red + 0.7152 * c.green + 0.0722 * c.blue < 0.55


def text_color_on(background: str, wanted: str = "") -> Color:
    if wanted:
        return HexColor(wanted)
    return PANEL if is_dark(background) else INK


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


def draw_art(canvas, path, box: Rect, label: str) -> None:
    """An art file fitted inside ``box`` (aspect kept, centred), or a placeholder naming it."""
    if path is not None:
        canvas.drawImage(str(path), box.x, box.y, box.w, box.h, mask="auto",
                         preserveAspectRatio=True, anchor="c")
        return
    canvas.saveState()
    canvas.setFillColor(PLACEHOLDER)
    canvas.setStrokeColor(PLACEHOLDER_LINE)
    canvas.setLineWidth(0.5)
    canvas.rect(box.x, box.y, box.w, box.h, fill=1, stroke=1)
    canvas.line(box.x, box.y, box.x1, box.y1)
    canvas.line(box.x, box.y1, box.x1, box.y)
    size = fit_line(label, fonts.REGULAR, 6.0, 3.5, box.w - 4) or 3.5
    canvas.setFillColor(INK)
    canvas.setFont(fonts.REGULAR, size)
    cx, cy = box.center
    canvas.drawCentredString(cx, cy - size * 0.35, label)
    canvas.restoreState()


def heading(canvas, paper, title: str, note: str) -> None:
    """The page heading: the game's title and what the page holds, above the content area."""
    top = paper.height - MARGIN
    baseline = top - 11
    canvas.saveState()
    canvas.setFillColor(INK)
    canvas.setFont(fonts.BOLD, 11)
    canvas.drawString(MARGIN, baseline, title)
    canvas.setFillColor(MUTED)
    size = fit_line(note, fonts.ITALIC, 8.5, 6, paper.width - 2 * MARGIN - stringWidth(title, fonts.BOLD, 11) - 12)
    if size:
        canvas.setFont(fonts.ITALIC, size)
        canvas.drawRightString(paper.width - MARGIN, baseline, note)
    canvas.setStrokeColor(GUIDE)
    canvas.setLineWidth(0.5)
    canvas.line(MARGIN, baseline - 5, paper.width - MARGIN, baseline - 5)
    canvas.restoreState()
