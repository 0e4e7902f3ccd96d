"""Drawing art files fitted to a box, or a placeholder naming a missing file."""

from __future__ import annotations

from functools import lru_cache

from reportlab.lib.colors import HexColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfmetrics import stringWidth

from kitgen.layout.card_face import fit_image
from kitgen.layout.geometry import Rect
from kitgen.render import fonts
from kitgen.render.colors import INK, PLACEHOLDER


@lru_cache(maxsize=256)
def image_size(path: str) -> tuple[int, int]:
    return ImageReader(path).getSize()


def draw_image_or_placeholder(canvas, path, box: Rect, label: str, cover: bool = False) -> None:
    """Draw an art file fitted to ``box``, or a placeholder naming the missing file."""
    if path is not None:
        w, h = image_size(str(path))
        r = fit_image(box, w, h, cover=cover)
        canvas.drawImage(str(path), r.x, r.y, r.w, r.h, mask="auto")
        return
    canvas.saveState()
    canvas.setFillColor(PLACEHOLDER)
    canvas.setStrokeColor(HexColor("#b9b0a0"))
    canvas.setLineWidth(0.6)
    canvas.rect(box.x, box.y, box.w, box.h, fill=1, stroke=1)
    canvas.line(box.x, box.y, box.x1, box.y1)
    canvas.line(box.x, box.y1, box.x1, box.y)
    size = max(5.0, min(8.0, box.h / 6))
    text = f"art missing: {label}"
    while stringWidth(text, fonts.REGULAR, size) > box.w - 6 and size > 4:
        size -= 0.5
    canvas.setFillColor(INK)
    canvas.setFont(fonts.REGULAR, size)
    canvas.drawCentredString(box.x + box.w / 2, box.y + box.h / 2 - size / 3, text)
    canvas.restoreState()
