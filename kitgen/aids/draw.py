"""Drawing helpers shared by the table-aid renderers: colours, text fitting, art, page furniture."""

from __future__ import annotations

from reportlab.lib.colors import Color, HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth

from .. import fonts
from ..geometry import Rect
from ..packing import MARGIN

INK = HexColor("#2b2420")
MUTED = HexColor("#7a7064")
GUIDE = HexColor("#c9c2b6")
CUT = HexColor("#3b332c")
PANEL = HexColor("#fbf7ec")
PLACEHOLDER = HexColor("#e8e2d6")
PLACEHOLDER_LINE = HexColor("#b3a994")


def mix(color: str, other: str, t: float) -> Color:
    """``color`` moved a fraction ``t`` of the way towards ``other``."""
    a, b = HexColor(color), HexColor(other)
    return Color(a.red + (b.red - a.red) * t, a.green + (b.green - a.green) * t,
                 a.blue + (b.blue - a.blue) * t)


def is_dark(color: str) -> bool:
    c = HexColor(color)
    return 0.2126 * c.red + 0.7152 * c.green + 0.0722 * c.blue < 0.55


def text_color_on(background: str, wanted: str = "") -> Color:
    if wanted:
        return HexColor(wanted)
    return HexColor("#fbf7ec") if is_dark(background) else INK


def fit_size(text: str, font: str, largest: float, smallest: float, width: float) -> float | None:
    """The largest size (in steps of 1/4 pt) at which ``text`` fits ``width`` on one line."""
    size = largest
    while size >= smallest - 1e-9:
        if stringWidth(text, font, size) <= width:
            return size
        size -= 0.25
    return None


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
    size = fit_size(label, fonts.REGULAR, 6.0, 3.5, box.w - 4) or 3.5
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
    size = fit_size(note, fonts.ITALIC, 8.5, 6, paper.width - 2 * MARGIN - stringWidth(title, fonts.BOLD, 11) - 12)
    if size:
        canvas.setFont(fonts.ITALIC, size)
        canvas.drawRightString(paper.width - MARGIN, baseline, note)
    canvas.setStrokeColor(GUIDE)
    canvas.setLineWidth(0.5)
    canvas.line(MARGIN, baseline - 5, paper.width - MARGIN, baseline - 5)
    canvas.restoreState()

