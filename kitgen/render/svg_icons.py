"""SVG icons drawn as vectors: svglib turns a checked drawing into reportlab shapes.

An SVG whose shapes are filled or stroked with ``currentColor`` takes the
colour of the text around it: the drawing is made once per colour (svglib
resolves ``currentColor`` from the ``color`` of the root, which is set to the
text's colour before it is read).  Every file went through
:func:`kitgen.data.svg_files.read_svg` before it gets here, and does again:
what svglib reads is the element checked there, never the file.
"""

from __future__ import annotations

import copy
import logging
from functools import lru_cache
from pathlib import Path

from reportlab.graphics import renderPDF

logging.getLogger("svglib.svglib").setLevel(logging.ERROR)     # unsupported features are skipped quietly


@lru_cache(maxsize=256)
def _root(path: str, mtime_ns: int, size: int):
    from kitgen.data.svg_files import read_svg

    return read_svg(Path(path).read_bytes(), path)


@lru_cache(maxsize=1024)
def _drawing(path: str, mtime_ns: int, size: int, colour: str):
    from svglib.svglib import SvgRenderer

    root = copy.deepcopy(_root(path, mtime_ns, size))
    root.set("color", colour)
    drawing = SvgRenderer(path).render(root)
    if drawing is None or not drawing.width or not drawing.height:
        from kitgen.errors import RenderError

        raise RenderError(f"{path}: the SVG has no size (give it a width and height or a viewBox)")
    return drawing


def drawing(path, colour: str = "#000000"):
    """The reportlab Drawing of the SVG at ``path``, ``currentColor`` being ``colour``."""
    path = Path(path)
    stat = path.stat()
    return _drawing(str(path), stat.st_mtime_ns, stat.st_size, colour)


def svg_size(path) -> tuple[float, float]:
    d = drawing(path)
    return d.width, d.height


def draw_svg(canvas, path, x: float, y: float, w: float, h: float, colour: str = "#000000") -> None:
    """The SVG stretched to the box (``x``, ``y`` its bottom-left corner), as an image is drawn."""
    d = drawing(path, colour)
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(w / d.width, h / d.height)
    renderPDF.draw(d, canvas, 0, 0)
    canvas.restoreState()


def hex_of(color) -> str:
    """A reportlab colour as #rrggbb (black for None)."""
    if color is None:
        return "#000000"
    rgb = color.rgb() if hasattr(color, "rgb") else tuple(color)[:3]
    if len(rgb) != 3:
        return "#000000"
    r, g, b = (max(0, min(255, round(float(c) * 255))) for c in rgb)
    return f"#{r:02x}{g:02x}{b:02x}"
