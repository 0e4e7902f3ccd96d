"""The texts of a board or of a mat with areas, measured: sizes and positions, checked to fit.

Titles, captions and labels are shrunk to fit their room with the fonts'
metrics, and a text that reaches past the piece's edge, or does not fit even
at the smallest size, is refused here, before anything is drawn (``kitgen
validate`` runs these checks without drawing).  Positions of spaces and
captions come from :mod:`kitgen.layout.areas`; :mod:`kitgen.render.aids.surface`
draws what these functions return.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.pdfbase.pdfmetrics import getAscentDescent, stringWidth

from kitgen.data.components import Face, Piece
from kitgen.errors import GameDataError, RenderError
from kitgen.layout.areas import (
    OUTER_PLACES,
    AreaSpec,
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


@dataclass(frozen=True)
class TitleLine:
    text: str
    font: str
    size: float
    baseline: float             # centred across the piece


def title_lines(piece: Piece, face: Face) -> list[TitleLine]:
    """The title (and subtitle) across the top of the piece, or a RenderError when one does not fit."""
    if not face.text:
        return []
    big, small = title_sizes(piece)
    width = piece.width - 2 * EDGE - mm(6)
    y = piece.height - EDGE - mm(2) - big * 0.95
    lines = []
    for text, font, largest in ((face.text, fonts.BOLD, big), (face.subtitle, fonts.ITALIC, small)):
        if not text:
            continue
        fonts.check_glyphs(text, piece.where, font)
        size = fit_line(text, font, largest, LABEL_MIN, width)
        if size is None:
            raise RenderError(f"{piece.where}: the title {text!r} does not fit across the "
                              f"{to_mm(piece.width):.0f} mm {piece.kind}; shorten it")
        lines.append(TitleLine(text, font, size, y))
        y -= big * 0.35 + small * 1.1
    return lines


def space_label(piece: Piece, spec: AreaSpec, rect: Rect, label: str) -> tuple[float, float]:
    """(size, room across) of a label printed inside its space; size 0 when it prints none there.

    A label too long for its space even at the smallest size is a RenderError.
    """
    inner_w = rect.w - mm(3) if spec.shape != "circle" else rect.w * 0.7
    largest = max(6.0, min(13.0, rect.h * 0.22))
    if spec.label_at == "left":
        largest = max(6.0, min(22.0, rect.h * 0.45))
        inner_w = rect.w * 0.32
    if not label or spec.label_at in ("none",) + OUTER_PLACES:    # outer labels: see outer_texts
        return 0.0, inner_w
    fonts.check_glyphs(label, piece.where, fonts.BOLD)
    size = fit_line(label, fonts.BOLD, largest, LABEL_MIN, inner_w)
    if size is None:
        raise RenderError(f"{piece.where}: area label {label!r} does not fit its "
                          f"{to_mm(rect.w):.0f} mm space even at {LABEL_MIN:g} pt; shorten it")
    return size, inner_w
