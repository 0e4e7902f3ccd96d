"""Drawing art files fitted to a box, or a placeholder naming a missing file.

Cards, backs and every table aid draw their pictures through :func:`draw_art`,
so a missing file looks the same wherever it was wanted.
"""

from __future__ import annotations

from functools import lru_cache

from reportlab.lib.utils import ImageReader

from kitgen.layout.card_face import fit_image
from kitgen.layout.geometry import Rect
from kitgen.render import fonts
from kitgen.render.colors import INK, PLACEHOLDER, PLACEHOLDER_EDGE
from kitgen.render.text_fit import fit_line


@lru_cache(maxsize=256)
def image_size(path: str) -> tuple[int, int]:
    return ImageReader(path).getSize()


def draw_art(canvas, path, box: Rect, label: str, cover: bool = False) -> None:
    """The art file at ``path`` centred in ``box``, aspect kept (``cover``: filling it, overflowing);
    a placeholder naming ``label`` when ``path`` is None (the file is missing)."""
    if path is not None:
        w, h = image_size(str(path))
        r = fit_image(box, w, h, cover=cover)
        canvas.drawImage(str(path), r.x, r.y, r.w, r.h, mask="auto")
        return
    canvas.saveState()
    canvas.setFillColor(PLACEHOLDER)
    canvas.setStrokeColor(PLACEHOLDER_EDGE)
    canvas.setLineWidth(0.6)
    canvas.rect(box.x, box.y, box.w, box.h, fill=1, stroke=1)
    canvas.line(box.x, box.y, box.x1, box.y1)
    canvas.line(box.x, box.y1, box.x1, box.y)
    text = f"art missing: {label}"
    size = fit_line(text, fonts.REGULAR, max(5.0, min(8.0, box.h / 6)), 3.5, box.w - 6) or 3.5
    canvas.setFillColor(INK)
    canvas.setFont(fonts.REGULAR, size)
    cx, cy = box.center
    canvas.drawCentredString(cx, cy - size / 3, text)
    canvas.restoreState()
