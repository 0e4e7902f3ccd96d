"""Drawing the face of a board or of a mat with areas: backdrop, frame, title and labelled spaces.

Drawn in the piece's own coordinates (origin bottom left); the caller wraps
it in a PDF form and places or tiles it.  Where the spaces go comes from
:mod:`kitgen.layout.areas`, and every text's size and place from
:mod:`kitgen.render.aids.surface_fit`; this module only draws.
"""

from __future__ import annotations

from reportlab.lib.colors import HexColor

from kitgen.data.components import Face, Piece
from kitgen.layout.areas import place_areas
from kitgen.layout.geometry import Rect
from kitgen.render import fonts
from kitgen.render.aids.draw import outline
from kitgen.render.aids.surface_fit import EDGE, OuterText, outer_texts, space_label, title_lines
from kitgen.render.colors import mix, text_color_on
from kitgen.render.images import draw_art
from kitgen.units import mm


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
    outer = outer_texts(piece)
    ink = text_color_on(face.color, face.text_color)    # printed on the piece, not in a space
    labels = {(t.spec, t.number): t for t in outer if t.number is not None}
    for text in outer:
        if text.number is None:
            _outer_text(c, text, ink)
    for space in place_areas(piece.areas, piece.width, piece.height):
        _space(c, art, piece, face, piece.areas[space.spec], space)
        if (space.spec, space.number) in labels:
            _outer_text(c, labels[space.spec, space.number], ink)
    c.restoreState()


def _outer_text(c, text: OuterText, ink) -> None:
    c.setFillColor(ink)
    c.setFont(fonts.BOLD, text.size)
    c.drawCentredString(text.x, text.baseline, text.text)


def _title(c, piece: Piece, face: Face) -> None:
    ink = text_color_on(face.color, face.text_color)
    for line in title_lines(piece, face):
        c.setFillColor(ink)
        c.setFont(line.font, line.size)
        c.drawCentredString(piece.width / 2, line.baseline, line.text)


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
    ink = text_color_on(fill_hex)
    size, inner_w = space_label(piece, spec, r, label)
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
    c.restoreState()


def _hex(color) -> str:
    return "#%02x%02x%02x" % (round(color.red * 255), round(color.green * 255), round(color.blue * 255))
