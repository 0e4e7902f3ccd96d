"""The face of a board or of a mat with areas: backdrop, title and labelled spaces.

Drawn in the piece's own coordinates (origin bottom left); the caller wraps
it in a PDF form and places or tiles it.  Positions come from
:mod:`kitgen.areas`.
"""

from __future__ import annotations

from reportlab.lib.colors import HexColor

from .. import fonts
from ..areas import captions, place_areas
from ..components import Face, Piece
from ..errors import RenderError
from ..geometry import Rect
from ..units import mm, to_mm
from .draw import draw_art, fit_line, mix, outline, text_color_on

EDGE = mm(4)            # the decorative frame inside the cut line
LABEL_MIN = 5.0


def title_height(piece: Piece) -> float:
    """Points taken at the top of the piece by its title (and subtitle)."""
    return title_sizes(piece)[0] * 1.25 + (title_sizes(piece)[1] * 1.3 if piece.faces[0].subtitle else 0)


def title_sizes(piece: Piece) -> tuple[float, float]:
    big = max(12.0, min(30.0, piece.height * 0.045))
    return big, max(7.0, big * 0.45)


def paint_surface(canvas, art, piece: Piece, face: Face) -> None:
    c = canvas
    box = Rect(0, 0, piece.width, piece.height)
    c.saveState()
    c.setFillColor(HexColor(face.color))
    c.rect(0, 0, box.w, box.h, stroke=0, fill=1)
    if face.art:
        path = art.find(face.art, piece.where)
        draw_art(c, path, box.inset(EDGE / 2), face.art)
    c.setStrokeColor(mix(face.color, "#000000", 0.35))
    c.setLineWidth(1.2)
    c.rect(EDGE, EDGE, box.w - 2 * EDGE, box.h - 2 * EDGE, stroke=1, fill=0)
    c.setStrokeColor(mix(face.color, "#000000", 0.2))
    c.setLineWidth(0.5)
    c.rect(EDGE + mm(1.2), EDGE + mm(1.2), box.w - 2 * EDGE - mm(2.4), box.h - 2 * EDGE - mm(2.4),
           stroke=1, fill=0)
    _title(c, piece, face)
    for cap in captions(piece.areas, piece.width, piece.height):
        size = 9.5 if piece.kind == "mat" else 12.0
        fonts.check_glyphs(cap.text, piece.where, fonts.BOLD)
        c.setFont(fonts.BOLD, size)
        c.setFillColor(text_color_on(face.color, face.text_color))
        c.drawCentredString(cap.x, cap.y + size * 0.5, cap.text)
    for space in place_areas(piece.areas, piece.width, piece.height):
        _space(c, art, piece, face, piece.areas[space.spec], space)
    c.restoreState()


def _title(c, piece: Piece, face: Face) -> None:
    if not face.text:
        return
    big, small = title_sizes(piece)
    ink = text_color_on(face.color, face.text_color)
    width = piece.width - 2 * EDGE - mm(6)
    y = piece.height - EDGE - mm(2) - big * 0.95
    for text, font, largest in ((face.text, fonts.BOLD, big), (face.subtitle, fonts.ITALIC, small)):
        if not text:
            continue
        fonts.check_glyphs(text, piece.where, font)
        size = fit_line(text, font, largest, LABEL_MIN, width)
        if size is None:
            raise RenderError(f"{piece.where}: the title {text!r} does not fit across the "
                              f"{to_mm(piece.width):.0f} mm {piece.kind}; shorten it")
        c.setFillColor(ink)
        c.setFont(font, size)
        c.drawCentredString(piece.width / 2, y, text)
        y -= big * 0.35 + small * 1.1


def _space(c, art, piece: Piece, face: Face, spec, space) -> None:
    r = space.rect
    fill = spec.color or None
    fill_color = HexColor(fill) if fill else mix(face.color, "#ffffff", 0.55)
    fill_hex = fill or _hex(fill_color)
    c.saveState()
    c.setFillColor(fill_color)
    c.setStrokeColor(mix(fill_hex, "#000000", 0.45))
    c.setLineWidth(1.0)
    if spec.shape == "card":
        c.setDash(4, 2.5)
    c.drawPath(outline(c, spec.shape, r), stroke=1, fill=1)
    c.setDash()
    label = space.label
    if spec.label_at in ("above", "below"):
        ink = text_color_on(face.color, face.text_color)     # printed on the piece, not in the space
    else:
        ink = text_color_on(fill_hex)
    inner_w = r.w - mm(3) if spec.shape != "circle" else r.w * 0.7
    largest = max(6.0, min(13.0, r.h * 0.22))
    if spec.label_at == "left":
        largest = max(6.0, min(22.0, r.h * 0.45))
        inner_w = r.w * 0.32
    if spec.label_at in ("above", "below"):
        largest = 8.5
        inner_w = max(r.w, mm(20))
    size = 0.0
    if label and spec.label_at != "none":
        fonts.check_glyphs(label, piece.where, fonts.BOLD)
        size = fit_line(label, fonts.BOLD, largest, LABEL_MIN, inner_w)
        if size is None:
            raise RenderError(f"{piece.where}: area label {label!r} does not fit its "
                              f"{to_mm(r.w):.0f} mm space even at {LABEL_MIN:g} pt; shorten it")
    if spec.art:
        room = Rect(r.x + r.w * 0.15, r.y + r.h * 0.12, r.w * 0.7, r.h * 0.76)
        if size and spec.label_at == "top":
            room = Rect(room.x, room.y, room.w, r.y1 - size * 1.6 - room.y)
        elif size and spec.label_at == "bottom":
            room = Rect(room.x, r.y + size * 1.6, room.w, room.y1 - r.y - size * 1.6)
        elif size and spec.label_at == "left":
            room = Rect(r.x + inner_w + mm(2), room.y, r.x1 - inner_w - mm(4) - r.x, room.h)
        if room.w > mm(3) and room.h > mm(3):
            draw_art(c, art.find(spec.art, piece.where), room, spec.art)
    if size:
        c.setFillColor(ink)
        c.setFont(fonts.BOLD, size)
        cx, cy = r.center
        place = spec.label_at
        if place == "top":
            top = r.y1 - (r.h * 0.15 if spec.shape == "circle" else mm(1.5))
            c.drawCentredString(cx, top - size * 0.85, label)
        elif place == "bottom":
            bottom = r.y + (r.h * 0.15 if spec.shape == "circle" else mm(1.5))
            c.drawCentredString(cx, bottom + size * 0.25, label)
        elif place == "center":
            c.drawCentredString(cx, cy - size * 0.35, label)
        elif place == "left":
            c.drawString(r.x + mm(2), cy - size * 0.35, label)
        elif place == "above":
            c.drawCentredString(cx, r.y1 + size * 0.45, label)
        elif place == "below":
            c.drawCentredString(cx, r.y - size * 1.1, label)
    c.restoreState()


def _hex(color) -> str:
    return "#%02x%02x%02x" % (round(color.red * 255), round(color.green * 255), round(color.blue * 255))
