"""Tokens, tiles and mats: every copy packed onto pages and cut out along its outline.

Each distinct face is drawn once as a PDF form and placed wherever a copy
goes.  Circles and hexagons get a light square guide around them (a first,
straight cut); the solid outline is the final cut.
"""

from __future__ import annotations

import math

from reportlab.lib.colors import HexColor

from kitgen.data.components import Face, Piece
from kitgen.errors import GameDataError, RenderError
from kitgen.layout.geometry import Rect
from kitgen.layout.packing import DoesNotFit, content_area, pack_shelves
from kitgen.render import fonts
from kitgen.render.aids.draw import heading, outline
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
        c.setStrokeColor(CUT)
        c.setLineWidth(0.6)
        c.drawPath(outline(c, p.shape, box.inset(0.3)), stroke=1, fill=0)

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


def render_pieces(canvas, pieces: list[Piece], ctx) -> None:
    copies: list[tuple[Piece, int]] = []      # (piece, face index) per copy, in declared order
    for piece in pieces:
        for i, face in enumerate(piece.faces):
            copies.extend([(piece, i)] * face.count)
    if not copies:
        return
    area = content_area(ctx.paper)
    try:
        placements = pack_shelves([(p.width, p.height) for p, _ in copies], area)
    except DoesNotFit as exc:
        piece = copies[exc.index][0]
        raise GameDataError(f"{piece.where}: {to_mm(piece.width):.0f} x {to_mm(piece.height):.0f} mm is "
                            f"larger than the printable area of the page "
                            f"({to_mm(area.w):.0f} x {to_mm(area.h):.0f} mm)") from None
    forms = {}
    for piece in pieces:
        painter = FacePainter(canvas, ctx.art, piece)
        for i, face in enumerate(piece.faces):
            if face.count:
                forms[(id(piece), i)] = painter.form(ctx.form_name("piece"), face)
    kinds = sorted({p.kind for p in pieces}, key=["token", "tile", "mat"].index)
    names = [{"token": "tokens", "tile": "tiles", "mat": "mats"}[k] for k in kinds]
    what = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    pages = max(pl.page for pl in placements) + 1
    for page in range(pages):
        heading(canvas, ctx.paper, ctx.title, f"{what[0].upper()}{what[1:]}: cut along the solid outlines"
                + (f" (page {page + 1} of {pages})" if pages > 1 else ""))
        here = [(pl, copies[pl.index]) for pl in placements if pl.page == page]
        canvas.saveState()
        canvas.setStrokeColor(GUIDE)
        canvas.setLineWidth(0.4)
        for pl, (piece, _) in here:
            if piece.shape in ("circle", "hexagon"):
                r = pl.rect
                canvas.rect(r.x, r.y, r.w, r.h, stroke=1, fill=0)
        canvas.restoreState()
        for pl, (piece, face) in here:
            canvas.saveState()
            if pl.rotated:
                canvas.translate(pl.rect.x1, pl.rect.y)
                canvas.rotate(90)
            else:
                canvas.translate(pl.rect.x, pl.rect.y)
            canvas.doForm(forms[(id(piece), face)])
            canvas.restoreState()
        ctx.end_page()
