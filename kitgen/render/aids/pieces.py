"""Tokens, tiles, mats and reference cards: every copy drawn where the packer puts it, cut along its outline.

Each distinct face is drawn once as a PDF form and placed wherever a copy
goes; copies of one size lie edge to edge (:func:`kitgen.layout.packing.pack_groups`),
so their outlines coincide and one cut serves two.  Circles and hexagons get
a light square guide around them (a first, straight cut); the solid outline is
the final cut.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from reportlab.lib.colors import HexColor

from kitgen.data.components import Face, Piece
from kitgen.errors import RenderError
from kitgen.layout.geometry import Rect
from kitgen.layout.packing import GroupPlacement, PieceGroup
from kitgen.render import fonts
from kitgen.render.aids.draw import outline
from kitgen.render.aids.surface import paint_surface
from kitgen.render.colors import CUT, GUIDE, mix, text_color_on
from kitgen.render.images import draw_art
from kitgen.render.text_fit import fit_line
from kitgen.units import mm, to_mm

BORDER = mm(1.6)       # plain band inside the cut line, so a slightly off cut loses nothing
MIN_TEXT = 5.0


def _text_width(shape: str, box: Rect, y: float, pad: float) -> float:
    """Room for a line of text at height ``y`` inside the shape."""
    cx, cy = box.center
    if shape == "circle":
        r = box.w / 2 - pad
        dy = abs(y - cy)
        return 2 * math.sqrt(max(r * r - dy * dy, 0.0))
    if shape == "hexagon":
        half_h = box.h / 2 - pad
        frac = min(abs(y - cy) / half_h, 1.0) if half_h > 0 else 1.0
        return box.w - 2 * pad - (box.w / 2) * frac
    return box.w - 2 * pad


class FacePainter:
    def __init__(self, canvas, art, piece: Piece):
        self.canvas, self.art, self.piece = canvas, art, piece

    def form(self, name: str, face: Face) -> str:
        self.canvas.beginForm(name, lowerx=0, lowery=0, upperx=self.piece.width, uppery=self.piece.height)
        self.draw(face)
        self.canvas.endForm()
        return name

    def draw(self, face: Face) -> None:
        c, p = self.canvas, self.piece
        box = Rect(0, 0, p.width, p.height)
        c.saveState()
        c.clipPath(outline(c, p.shape, box), stroke=0, fill=0)
        c.setFillColor(HexColor(face.color))
        c.rect(0, 0, p.width, p.height, stroke=0, fill=1)
        inner = box.inset(BORDER)
        if p.shape == "hexagon":
            inner = Rect(box.x + BORDER / 0.866, box.y + BORDER, box.w - 2 * BORDER / 0.866,
                         box.h - 2 * BORDER)
        c.setStrokeColor(mix(face.color, "#ffffff", 0.55))
        c.setLineWidth(0.8)
        if p.areas:          # a mat with labelled spaces: title at the top, spaces where declared
            paint_surface(c, self.art, p, face)
        else:
            c.drawPath(outline(c, p.shape, inner), stroke=1, fill=0)
            self._content(face, inner)
        c.restoreState()

    @staticmethod
    def _largest(inner: Rect, font: str, k: float) -> float:
        return min(inner.h * k, 36 if font == fonts.BOLD else 9)

    def _content(self, face: Face, inner: Rect) -> None:
        c, p = self.canvas, self.piece
        ink = text_color_on(face.color, face.text_color)
        pad = mm(1.2)
        has_art = bool(face.art)
        # text alone on a piece (a denomination, say) is large; beside art it is a caption
        k_text = 0.16 if has_art else (0.22 if face.subtitle else 0.34)
        lines = [(face.text, fonts.BOLD, k_text), (face.subtitle, fonts.ITALIC, 0.085)]
        lines = [(t, f, k) for t, f, k in lines if t]
        cx = inner.center[0]
        # text block at the bottom, art above it
        text_h = sum(self._largest(inner, f, k) * 1.2 for t, f, k in lines)
        if has_art:
            bottom = inner.y + inner.h * (0.13 if p.shape != "rect" else 0.06)
            art_bottom = bottom + text_h + pad / 2
            art_top = inner.y1 - inner.h * (0.05 if p.shape != "rect" else 0.06)
            side = art_top - art_bottom
            side = min(side, _text_width(p.shape, inner, art_bottom, pad) * 0.98, inner.w * 0.7)
            if side > mm(4):
                art_box = Rect(cx - side / 2, art_bottom + (art_top - art_bottom - side) / 2, side, side)
                draw_art(c, self.art.find(face.art, p.where), art_box, face.art)
            y = bottom + text_h
        else:
            y = inner.center[1] + text_h / 2
        c.setFillColor(ink)
        for text, font, k in lines:
            largest = self._largest(inner, font, k)
            y -= largest * 0.95
            fonts.check_glyphs(text, p.where, font)
            width = min(_text_width(p.shape, inner, y, pad), _text_width(p.shape, inner, y + largest * 0.7, pad))
            size = fit_line(text, font, largest, MIN_TEXT, width)
            if size is None:
                raise RenderError(f"{p.where}: text {text!r} does not fit on a {to_mm(p.width):.0f} mm "
                                  f"{p.shape} even at {MIN_TEXT:g} pt; shorten it or make the piece larger")
            c.setFont(font, size)
            c.drawCentredString(cx, y, text)
            y -= largest * 0.25


KIND_NAMES = {"token": "tokens", "tile": "tiles", "mat": "mats", "reference": "reference cards"}
KIND_ORDER = list(KIND_NAMES)


@dataclass(frozen=True)
class PieceCopy:
    """One copy of a piece to cut out: the form that draws it and the outline it is cut along."""

    form: str
    shape: str          # circle, hexagon, card or rect
    kind: str           # token, tile, mat or reference
    where: str          # the component, for messages


def piece_copies(pieces: list, ctx) -> list[tuple[PieceGroup, list[PieceCopy]]]:
    """Every copy of every piece, drawn once per face as a form, grouped by size and shape."""
    from kitgen.render.aids.reference import reference_form

    groups: dict[tuple, tuple[PieceGroup, list[PieceCopy]]] = {}
    for piece in pieces:
        if piece.kind == "reference":
            form, size = reference_form(ctx.canvas, piece, ctx)
            faces = [(form, piece.count)]
            shape, (w, h) = "rect", size
        else:
            painter = FacePainter(ctx.canvas, ctx.art, piece)
            faces = [(painter.form(ctx.form_name("piece"), face), face.count)
                     for face in piece.faces if face.count]
            shape, (w, h) = piece.shape, (piece.width, piece.height)
        key = (round(w, 3), round(h, 3), shape)
        if key not in groups:
            groups[key] = (PieceGroup(w, h, 0, turnable=shape != "hexagon"), [])
        group, copies = groups[key]
        for form, count in faces:
            copies.extend([PieceCopy(form, shape, piece.kind, piece.where)] * count)
        groups[key] = (PieceGroup(w, h, len(copies), group.turnable), copies)
    return list(groups.values())


def kinds_note(kinds) -> str:
    """ "Tokens and reference cards" for the kinds of pieces a page holds."""
    names = [KIND_NAMES[k] for k in KIND_ORDER if k in kinds]
    text = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return text[:1].upper() + text[1:]


def draw_pieces(canvas, placed: list[tuple[GroupPlacement, PieceCopy]]) -> None:
    """Pieces where the packer put them: a light square guide around round and six-sided ones
    (a first, straight cut), the piece, then its solid cut outline."""
    canvas.saveState()
    canvas.setStrokeColor(GUIDE)
    canvas.setLineWidth(0.4)
    for pl, copy in placed:
        if copy.shape in ("circle", "hexagon"):
            r = pl.rect
            canvas.rect(r.x, r.y, r.w, r.h, stroke=1, fill=0)
    canvas.restoreState()
    for pl, copy in placed:
        canvas.saveState()
        if pl.rotated:
            canvas.translate(pl.rect.x1, pl.rect.y)
            canvas.rotate(90)
        else:
            canvas.translate(pl.rect.x, pl.rect.y)
        canvas.doForm(copy.form)
        canvas.restoreState()
    canvas.saveState()
    canvas.setStrokeColor(CUT)
    canvas.setLineWidth(0.6)
    for pl, copy in placed:        # neighbours edge to edge share one line: one cut serves both
        canvas.drawPath(outline(canvas, copy.shape, pl.rect), stroke=1, fill=0)
    canvas.restoreState()
