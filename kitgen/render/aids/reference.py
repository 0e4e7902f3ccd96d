"""Player reference cards: card-sized pieces, packed with the other pieces and cut along their outlines."""

from __future__ import annotations

from reportlab.lib.colors import HexColor
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph

from kitgen.data.components import Reference
from kitgen.errors import GameDataError, OptionError, RenderError
from kitgen.render import fonts
from kitgen.render.colors import INK, MUTED, PANEL, mix, text_color_on
from kitgen.render.text_fit import fit_line, largest_fit
from kitgen.render.xml_text import escape
from kitgen.units import Size, card_size, mm, to_mm

LARGEST, SMALLEST = 11.0, 5.5     # body text sizes tried, in points
PAD = mm(3)
TITLE_H = mm(9)
CORNER_SIZE = 12.0                # points: the corner mark


def _markup(line: str) -> str:
    """A line with its lead-in (the text before the first colon) in bold."""
    head, sep, rest = line.partition(":")
    if sep and len(head) <= 40:
        return f"<b>{escape(head)}:</b>{escape(rest)}"
    return escape(line)


def fit_lines(ref: Reference, width: float, height: float) -> tuple[list[Paragraph], float]:
    """Paragraphs of the lines at the largest size that fits ``width`` x ``height``, by quarter points
    from LARGEST down to SMALLEST."""
    fonts.register()

    def attempt(size: float) -> tuple[list[Paragraph], float] | None:
        style = ParagraphStyle("ref", fontName=fonts.REGULAR, fontSize=size, leading=size * 1.2,
                               textColor=INK, spaceAfter=size * 0.45)
        paras = [Paragraph(_markup(line), style) for line in ref.lines]
        total = sum(p.wrap(width, height)[1] for p in paras) + style.spaceAfter * (len(paras) - 1)
        if total <= height and all(max(p.getActualLineWidths0() or [0]) <= width + 2 for p in paras):
            return paras, size
        return None

    fitted = largest_fit(attempt, LARGEST, SMALLEST)
    if fitted is None:
        raise RenderError(f"{ref.where}: the lines do not fit on a {to_mm(width + 2 * PAD):.1f} x "
                          f"{to_mm(height + TITLE_H + 2 * PAD):.1f} mm card even at {SMALLEST:g} pt; "
                          "shorten them or give a larger 'size'")
    return fitted


def _draw_card(canvas, ref: Reference, size: Size, band: str, footer: str) -> None:
    w, h = size.width, size.height
    canvas.setFillColor(PANEL)
    canvas.rect(0, 0, w, h, stroke=0, fill=1)
    canvas.setFillColor(HexColor(band))
    canvas.rect(0, h - TITLE_H - PAD, w, TITLE_H + PAD, stroke=0, fill=1)
    beside = 0.0
    canvas.setFillColor(text_color_on(band))
    if ref.corner:                  # the mark in the top-left corner, seen in a fanned hand
        canvas.setFont(fonts.BOLD, CORNER_SIZE)
        canvas.drawString(PAD, h - PAD - TITLE_H / 2 - CORNER_SIZE * 0.35, ref.corner)
        beside = stringWidth(ref.corner, fonts.BOLD, CORNER_SIZE) + mm(2)
    title_size = fit_line(ref.title, fonts.BOLD, 10, 6, w - 2 * PAD - 2 * beside)
    if title_size is None:
        raise RenderError(f"{ref.where}: the title {ref.title!r} does not fit across the card; shorten it")
    canvas.setFont(fonts.BOLD, title_size)
    canvas.drawCentredString(w / 2, h - PAD - TITLE_H / 2 - title_size * 0.2, ref.title)
    body_top = h - TITLE_H - PAD - mm(2.5)
    footer_h = mm(4.5) if footer else 0
    width, height = w - 2 * PAD, body_top - PAD - footer_h
    paras, _ = fit_lines(ref, width, height)
    y = body_top
    for p in paras:
        _, ph = p.wrap(width, height)
        y -= ph
        p.drawOn(canvas, PAD, y)
        y -= p.style.spaceAfter
    if footer:
        canvas.setStrokeColor(mix(band, "#ffffff", 0.5))
        canvas.setLineWidth(0.5)
        canvas.line(PAD, PAD + footer_h - mm(1.5), w - PAD, PAD + footer_h - mm(1.5))
        canvas.setFillColor(MUTED)
        fs = fit_line(footer, fonts.ITALIC, 6, 4, width) or 4
        canvas.setFont(fonts.ITALIC, fs)
        canvas.drawCentredString(w / 2, PAD, footer)


def _size(ref: Reference, game) -> Size:
    if ref.size is not None:
        return Size(*ref.size)
    try:
        return card_size(game.card_size)
    except OptionError as exc:
        raise GameDataError(f"{ref.where}: the game's {exc}") from None


def reference_form(canvas, ref: Reference, ctx) -> tuple[str, tuple[float, float]]:
    """The reference card drawn once as a form; its name and (width, height)."""
    for line in (ref.title, ref.corner, *ref.lines):
        fonts.check_glyphs(line, ref.where, fonts.BOLD)
    size = _size(ref, ctx.game)
    form = ctx.form_name("reference")
    canvas.beginForm(form, lowerx=0, lowery=0, upperx=size.width, uppery=size.height)
    _draw_card(canvas, ref, size, ref.color or ctx.game.back.color, ctx.title)
    canvas.endForm()
    return form, (size.width, size.height)
