"""Drawing the boxes of an arranged card (:mod:`kitgen.render.card_fit`) on a reportlab canvas.

One function per kind of box; every one draws in the card's own frame (PDF
points, origin at the trim's bottom-left), inside the PDF form the painter
opened for the face or back.
"""

from __future__ import annotations

import re

from reportlab.lib.colors import Color

from kitgen.layout.card_face import fit_image
from kitgen.layout.geometry import Rect
from kitgen.render.canvas import set_text_fill
from kitgen.render.card_fit import Drawn
from kitgen.render.card_text import CAP_HEIGHT, LINE_LEADING
from kitgen.render.images import draw_art, draw_art_to_bleed, draw_image, image_size

ICON_GAP = 0.15            # of the icons' height, between two icons of a row


def draw_boxes(canvas, drawn: list[Drawn], painter) -> None:
    h = painter.height
    for d in drawn:
        rect = d.place.pdf(h)
        canvas.saveState()
        if d.style.get("rotate") == 180:
            cx, cy = rect.center
            canvas.translate(cx, cy)
            canvas.rotate(180)
            canvas.translate(-cx, -cy)
        if d.box.kind in ("text", "image", "icons"):
            _shape(canvas, d, rect, "rect")
        DRAW[d.box.kind](canvas, d, rect, painter)
        canvas.restoreState()


def _set_fill(canvas, rgba, text: bool = False) -> None:
    if text:
        set_text_fill(canvas, Color(*rgba[:3]))
    else:
        canvas.setFillColor(Color(*rgba[:3]))
    if rgba[3] < 1:
        canvas.setFillAlpha(rgba[3])


def _set_stroke(canvas, rgba) -> None:
    canvas.setStrokeColor(Color(*rgba[:3]))
    if rgba[3] < 1:
        canvas.setStrokeAlpha(rgba[3])


def _shape(canvas, d: Drawn, rect: Rect, kind: str) -> None:
    fill, stroke = d.style.get("fill"), d.style.get("stroke")
    fill = fill if fill is not None and fill[3] > 0 else None
    stroke = stroke if stroke is not None and stroke[3] > 0 else None
    if fill is None and stroke is None:
        return
    if fill is not None:
        _set_fill(canvas, fill)
    if stroke is not None:
        _set_stroke(canvas, stroke)
        canvas.setLineWidth(d.style.get("stroke_width", 0.5))
    f, s = int(fill is not None), int(stroke is not None)
    if kind == "circle":
        cx, cy = rect.center
        canvas.circle(cx, cy, min(rect.w, rect.h) / 2, fill=f, stroke=s)
    elif kind == "line":
        if stroke is not None:
            canvas.line(rect.x, rect.y1, rect.x1, rect.y)
    elif d.style.get("radius"):
        canvas.roundRect(rect.x, rect.y, rect.w, rect.h, d.style["radius"], fill=f, stroke=s)
    else:
        canvas.rect(rect.x, rect.y, rect.w, rect.h, fill=f, stroke=s)


def _text(canvas, d: Drawn, rect: Rect, painter) -> None:
    inner = d.inner.pdf(painter.height)
    fit, valign = d.text, d.style.get("valign") or "middle"
    color = d.style.get("color")
    if color is not None:
        _set_fill(canvas, color, text=True)
    if fit.para is not None:
        y = {"middle": inner.y + (inner.h - fit.height) / 2, "top": inner.y1 - fit.height, "bottom": inner.y}[valign]
        fit.para.drawOn(canvas, inner.x, y)
        return
    size, lines, setter = fit.size, fit.lines, fit.setter
    leading = size * (d.style.get("leading") or LINE_LEADING)
    n = len(lines)
    if valign == "top":
        first = inner.y1 - size * CAP_HEIGHT
    elif valign == "bottom":
        first = inner.y + size * 0.22 + leading * (n - 1)
    else:
        first = inner.y + (inner.h - size * CAP_HEIGHT) / 2 + leading * (n - 1) / 2
    align = d.style.get("align") or "center"
    for i, line in enumerate(lines):
        w = setter.width(line, size)
        x = {"left": inner.x, "right": inner.x1 - w, "center": inner.x + inner.w / 2 - w / 2}[align]
        setter.draw(canvas, line, x, first - i * leading, size)
        if d.style.get("underline"):
            if color is not None:
                _set_stroke(canvas, color)
            canvas.setLineWidth(size * 0.08)
            canvas.line(x, first - i * leading - size * 0.14, x + w, first - i * leading - size * 0.14)


def _image(canvas, d: Drawn, rect: Rect, painter) -> None:
    inner = d.inner.pdf(painter.height)
    path = painter.art.find(d.content.strip(), d.where)
    if d.style.get("fit") != "cover" or path is None:
        draw_art(canvas, path, inner, d.content.strip())
        return
    clip = canvas.beginPath()
    clip.rect(rect.x, rect.y, rect.w, rect.h)
    canvas.clipPath(clip, stroke=0, fill=0)
    if d.style.get("bleed") and painter.bleed:
        # fitted to the trim, never scaled up to fill the bleed: its edge pixels reach into it
        draw_art_to_bleed(canvas, path, inner, painter.bleed, d.content.strip())
        return
    w, h = image_size(path)
    r = fit_image(inner, w, h, cover=True)
    draw_image(canvas, path, r.x, r.y, r.w, r.h)


def icon_box_names(content: str) -> list[str]:
    """The icons an icons box shows: names separated by spaces or commas, each bare or as :name:."""
    return [a or b for a, b in re.findall(r":([A-Za-z][A-Za-z0-9_-]*):|([^\s,:]+)", content)]


def _icons(canvas, d: Drawn, rect: Rect, painter) -> None:
    inner = d.inner.pdf(painter.height)
    names = icon_box_names(d.content)
    icons = [painter.icon(n, d.where) for n in names]
    colour = d.style.get("color")
    _set_fill(canvas, colour if colour is not None else (0.0, 0.0, 0.0, 1.0))   # an SVG's currentColor
    if d.style.get("direction") == "down":
        _icons_down(canvas, d, inner, icons)
        return
    h = inner.h
    gap = d.style.get("gap")
    gap = h * ICON_GAP if gap is None else gap
    widths = [h * icon.aspect for icon in icons]
    total = sum(widths) + gap * (len(icons) - 1)
    k = min(1.0, inner.w / total) if total > 0 else 1.0
    h, total = h * k, total * k
    align, valign = d.style.get("align") or "center", d.style.get("valign") or "middle"
    x = {"left": inner.x, "right": inner.x1 - total, "center": inner.x + (inner.w - total) / 2}[align]
    y = {"top": inner.y1 - h, "bottom": inner.y, "middle": inner.y + (inner.h - h) / 2}[valign]
    for icon, w in zip(icons, widths):
        icon.draw(canvas, x, y, w * k, h)
        x += (w + gap) * k


def _icons_down(canvas, d: Drawn, inner: Rect, icons) -> None:
    """A column of icons (``direction = "down"``), the first at the top: each as wide as the box,
    all made smaller together when the column is taller than the box."""
    w = inner.w
    gap = d.style.get("gap")
    gap = w * ICON_GAP if gap is None else gap
    heights = [w / icon.aspect if icon.aspect else w for icon in icons]
    total = sum(heights) + gap * (len(icons) - 1)
    k = min(1.0, inner.h / total) if total > 0 else 1.0
    w, total = w * k, total * k
    align, valign = d.style.get("align") or "center", d.style.get("valign") or "middle"
    x = {"left": inner.x, "right": inner.x1 - w, "center": inner.x + (inner.w - w) / 2}[align]
    y = {"top": inner.y1, "bottom": inner.y + total, "middle": inner.y + (inner.h + total) / 2}[valign]
    for icon, h in zip(icons, heights):
        y -= h * k
        icon.draw(canvas, x, y, w, h * k)
        y -= gap * k


DRAW = {
    "text": _text,
    "image": _image,
    "icons": _icons,
    "rect": lambda canvas, d, rect, painter: _shape(canvas, d, rect, "rect"),
    "circle": lambda canvas, d, rect, painter: _shape(canvas, d, rect, "circle"),
    "line": lambda canvas, d, rect, painter: _shape(canvas, d, rect, "line"),
}
