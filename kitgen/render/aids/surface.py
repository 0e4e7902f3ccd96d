"""The face of a board or of a mat with areas: backdrop, title and labelled spaces.

Drawn in the piece's own coordinates (origin bottom left); the caller wraps
it in a PDF form and places or tiles it.  Positions come from
:mod:`kitgen.areas`.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfmetrics import getAscentDescent, stringWidth

from kitgen.data.components import Face, Piece
from kitgen.errors import GameDataError, RenderError
from kitgen.layout.areas import (
    OUTER_PLACES,
    caption_baseline,
    captions,
    centred_room,
    edges_crossed,
    outer_label_anchor,
    place_areas,
    text_box,
)
from kitgen.layout.geometry import Rect
from kitgen.render import fonts
from kitgen.render.aids.draw import outline
from kitgen.render.colors import mix, text_color_on
from kitgen.render.images import draw_art
from kitgen.render.text_fit import fit_line
from kitgen.units import mm, to_mm

EDGE = mm(4)            # the decorative frame inside the cut line
LABEL_MIN = 5.0
TEXT_MARGIN = mm(1)     # texts outside the spaces keep this far from the piece's edge
OUTER_LABEL_SIZE = 8.5  # labels above or below a space
OUTER_LABEL_WIDTH = mm(20)


@dataclass(frozen=True)
class OuterText:
    """A text printed on the piece outside the spaces: a group's caption or an above/below label."""

    spec: int                   # index of the area it belongs to
    number: int | None          # the space it labels; None for the group's caption
    text: str
    size: float
    x: float                    # centre
    baseline: float


def caption_size(piece: Piece) -> float:
    return 9.5 if piece.kind == "mat" else 12.0


def outer_texts(piece: Piece) -> list[OuterText]:
    """Captions and above/below labels fitted to the piece, or a GameDataError naming the area.

    A text is shrunk (down to 5 pt) to fit the width the piece leaves around its
    centre; one that still does not fit, or that reaches past an edge of the
    piece (a caption over a group at the top edge), is refused.
    """
    out = []
    for cap in captions(piece.areas, piece.width, piece.height):
        size = _fit(piece, cap.spec, "caption", cap.text, caption_size(piece),
                    centred_room(cap.x, piece.width, TEXT_MARGIN))
        out.append(_placed(piece, OuterText(cap.spec, None, cap.text, size, cap.x,
                                            caption_baseline(cap, size)), "caption"))
    for space in place_areas(piece.areas, piece.width, piece.height):
        spec = piece.areas[space.spec]
        if spec.label_at not in OUTER_PLACES or not space.label:
            continue
        cx = space.rect.center[0]
        room = min(max(space.rect.w, OUTER_LABEL_WIDTH), centred_room(cx, piece.width, TEXT_MARGIN))
        what = f"label {spec.label_at} space {space.number}"
        size = _fit(piece, space.spec, what, space.label, OUTER_LABEL_SIZE, room)
        x, baseline = outer_label_anchor(space, spec.label_at, size)
        out.append(_placed(piece, OuterText(space.spec, space.number, space.label, size, x, baseline), what))
    return out


def _fit(piece: Piece, spec: int, what: str, text: str, largest: float, room: float) -> float:
    fonts.check_glyphs(text, piece.where, fonts.BOLD)
    size = fit_line(text, fonts.BOLD, largest, LABEL_MIN, room)
    if size is None:
        raise GameDataError(f"{piece.where}: area {spec + 1}: {what} {text!r} is wider than the "
                            f"{to_mm(room):.0f} mm the {_piece_size(piece)} leaves for it even at "
                            f"{LABEL_MIN:g} pt; shorten it or move the group")
    return size


def _placed(piece: Piece, t: OuterText, what: str) -> OuterText:
    ascent, descent = getAscentDescent(fonts.BOLD, t.size)
    box = text_box(t.x, t.baseline, stringWidth(t.text, fonts.BOLD, t.size), ascent, descent)
    crossed = edges_crossed(box, piece.width, piece.height)
    if crossed:
        raise GameDataError(f"{piece.where}: area {t.spec + 1}: {what} {t.text!r} reaches past the "
                            f"{' and '.join(crossed)} edge of the {_piece_size(piece)}; move the group "
                            f"further in or leave the text out")
    return t


def _piece_size(piece: Piece) -> str:
    return f"{to_mm(piece.width):.0f} x {to_mm(piece.height):.0f} mm {piece.kind}"


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
    ink = text_color_on(fill_hex)
    inner_w = r.w - mm(3) if spec.shape != "circle" else r.w * 0.7
    largest = max(6.0, min(13.0, r.h * 0.22))
    if spec.label_at == "left":
        largest = max(6.0, min(22.0, r.h * 0.45))
        inner_w = r.w * 0.32
    size = 0.0
    if label and spec.label_at not in ("none",) + OUTER_PLACES:    # outer labels: see outer_texts
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
    c.restoreState()


def _hex(color) -> str:
    return "#%02x%02x%02x" % (round(color.red * 255), round(color.green * 255), round(color.blue * 255))
