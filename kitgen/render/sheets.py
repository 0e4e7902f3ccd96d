"""cards.pdf: every card copy on sheets, with crop marks, a scale bar and a note on how to print.

One renderer for both sheet layouts of :mod:`kitgen.layout`: duplex (a page
of fronts, then its page of backs) and gutterfold (fronts and their mirrored
backs on one page, folded along a dashed line).  Where each copy goes comes
from :func:`kitgen.layout.deck.place_cards`; the manifest of those places is
written by :mod:`kitgen.outputs.manifest`.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.colors import white
from reportlab.pdfbase.pdfmetrics import stringWidth

from kitgen.layout.deck import CardPlacement, place_cards
from kitgen.layout.gutterfold import FOLD_DASH, GutterfoldLayout
from kitgen.layout.sheet import MARK_CLEARANCE, PRINTER_MARGIN, ScaleBar, SheetLayout
from kitgen.render import fonts
from kitgen.render.canvas import canvas_bytes, new_canvas
from kitgen.render.card import CardPainter
from kitgen.render.colors import CROP_MARK, NOTE
from kitgen.render.text_fit import fit_line
from kitgen.units import MM, to_mm

SUBJECTS = {"duplex": "print-and-play card sheets", "gutterfold": "print-and-play gutterfold card sheets"}
DUPLEX_HINT = {
    "long": "print double-sided, flip on long edge",
    "short": "print double-sided, flip on short edge",
    "none": "backs: reload the stack flipped on its long edge",
}
GUTTERFOLD_HINT = "print one-sided at 100%, fold on the dashed line, glue, then cut"


@dataclass(frozen=True)
class CardSheets:
    pdf: bytes
    pages: int
    placements: list[CardPlacement]


def render_card_sheets(game, layout, art, source: str) -> CardSheets:
    """Draw every card copy where ``layout`` (a DuplexLayout or a GutterfoldLayout) puts it."""
    painter = CardPainter(game, layout.card.width, layout.card.height, layout.bleed, art, source)
    for card in game.cards:
        painter.check(card)
    placements, pages = place_cards([c.count for c in game.cards], layout)
    sheets = len({pl.front_page for pl in placements})
    sides: dict[int, tuple[str, int]] = {}          # page -> (what it holds, its sheet's number)
    for sheet in range(sheets):
        front_page, back_page = layout.page_numbers(sheet, sheets)
        sides[back_page] = ("backs", sheet + 1)
        sides[front_page] = ("fronts", sheet + 1)
    canvas = new_canvas(layout.page, f"{game.title} - cards", SUBJECTS[layout.kind])
    for page in range(1, pages + 1):
        side, sheet = sides[page]
        if side == "fronts":
            draw_crop_marks(canvas, layout.sheet)
            if isinstance(layout, GutterfoldLayout):
                _draw_fold(canvas, layout)
            if layout.sheet.scale_bar:
                draw_scale_bar(canvas, layout.sheet.scale_bar)
        for pl in placements:
            if pl.front_page == page:
                _place(canvas, painter.face(canvas, game.cards[pl.index]), pl.front, 0)
            if pl.back_page == page:
                _place(canvas, painter.back(canvas), pl.back, layout.back_rotation)
        _draw_note(canvas, layout, _note(game, layout, side, sheet, sheets))
        canvas.showPage()
    return CardSheets(canvas_bytes(canvas), pages, placements)


def _note(game, layout, side: str, sheet: int, sheets: int) -> str:
    size = f"{to_mm(layout.card.width):g} x {to_mm(layout.card.height):g} mm"
    if isinstance(layout, GutterfoldLayout):
        return f"{game.title} · gutterfold {sheet}/{sheets} · {size} · {GUTTERFOLD_HINT}"
    return f"{game.title} · {side} {sheet}/{sheets} · {size} · print at 100%, {DUPLEX_HINT[layout.duplex]}"


def _place(canvas, form: str, rect, rotation: int) -> None:
    canvas.saveState()
    if rotation == 180:
        canvas.translate(rect.x1, rect.y1)
        canvas.rotate(180)
    else:
        canvas.translate(rect.x, rect.y)
    canvas.doForm(form)
    canvas.restoreState()


def draw_crop_marks(canvas, layout: SheetLayout) -> None:
    canvas.setStrokeColor(CROP_MARK)
    canvas.setLineWidth(0.4)
    for ln in layout.crop_marks:
        canvas.line(ln.x0, ln.y0, ln.x1, ln.y1)


def draw_scale_bar(canvas, bar: ScaleBar) -> None:
    """A 50 mm bar with 10 mm ticks and a 2 in bar with 1/2 in ticks, labelled."""
    canvas.saveState()
    canvas.translate(bar.x, bar.y)
    if bar.vertical:
        # draw along +x in a frame turned so that +x points up the page
        canvas.translate(4.2 * MM, 0)
        canvas.rotate(90)
    canvas.setStrokeColor(NOTE)
    canvas.setFillColor(NOTE)
    canvas.setLineWidth(0.5)
    for y, length, step, ticks, label in ((3.4 * MM, 50 * MM, 10 * MM, 5, "50 mm"),
                                          (0.9 * MM, 144.0, 36.0, 4, "2 in")):
        canvas.line(0, y, length, y)
        for i in range(ticks + 1):
            canvas.line(i * step, y, i * step, y - 0.8 * MM)
        canvas.setFont(fonts.REGULAR, 5)
        canvas.drawString(length + 1.2 * MM, y - 0.9 * MM, label)
    canvas.restoreState()


def _draw_note(canvas, layout, text: str) -> None:
    """What the page is and how to print it: above the fronts of a vertical fold, else in a margin."""
    if isinstance(layout, GutterfoldLayout) and layout.vertical:
        _note_above_fronts(canvas, layout, text)
    else:
        _note_in_margin(canvas, layout.sheet, text)


def _note_in_margin(canvas, layout: SheetLayout, text: str) -> None:
    """A small line in the right (or top) margin, beside the middle row (or column) of cards."""
    grid, page = layout.grid, layout.page
    size = 5.5
    canvas.saveState()
    canvas.setFillColor(NOTE)
    canvas.setFont(fonts.REGULAR, size)
    right_room = page.width - grid.x1 - 1.5 * MM - 5 * MM
    top_room = page.height - grid.y1 - 1.5 * MM - 5 * MM
    if right_room >= top_room and right_room >= 2.5 * MM:
        x = page.width - 5 * MM - right_room / 2 + size / 3
        middle = grid.y + grid.h / 2
        row = min(layout.slots, key=lambda r: abs(r.y + r.h / 2 - middle))
        canvas.translate(x, row.y + row.h / 2)
        canvas.rotate(90)
        canvas.drawCentredString(0, 0, text)
    elif top_room >= 2.5 * MM:
        middle = grid.x + grid.w / 2
        col = min(layout.slots, key=lambda r: abs(r.x + r.w / 2 - middle))
        canvas.drawCentredString(col.x + col.w / 2, page.height - 5 * MM - top_room / 2 - size / 3, text)
    canvas.restoreState()


def _note_above_fronts(canvas, layout: GutterfoldLayout, text: str) -> None:
    """A line in the top margin over the fronts, clear of the fold marks, on white over the cut marks."""
    grid, page = layout.sheet.grid, layout.page
    room = page.height - grid.y1 - MARK_CLEARANCE - PRINTER_MARGIN
    if room < 2.5 * MM:
        return
    x0 = min(r.x for r in layout.fronts)
    x1 = max(r.x1 for r in layout.fronts)
    size = fit_line(text, fonts.REGULAR, 5.5, 3.5, x1 - x0) or 3.5
    width = stringWidth(text, fonts.REGULAR, size)
    cx, y = (x0 + x1) / 2, page.height - PRINTER_MARGIN - room / 2 - size / 3
    canvas.saveState()
    canvas.setFillColor(white)       # the cut marks it crosses stop short of the text
    canvas.rect(cx - width / 2 - 1.5, y - size * 0.3, width + 3, size * 1.25, fill=1, stroke=0)
    canvas.setFillColor(NOTE)
    canvas.setFont(fonts.REGULAR, size)
    canvas.drawCentredString(cx, y, text)
    canvas.restoreState()


def _draw_fold(canvas, layout: GutterfoldLayout) -> None:
    """The fold: dashed marks beyond the cards, a fine dashed line between them, and the word "fold"."""
    canvas.saveState()
    canvas.setStrokeColor(NOTE)
    canvas.setDash(*FOLD_DASH)
    canvas.setLineWidth(0.5)
    for ln in layout.fold_marks:
        canvas.line(ln.x0, ln.y0, ln.x1, ln.y1)
    canvas.setLineWidth(0.25)
    grid = layout.sheet.grid
    if layout.vertical:
        canvas.line(layout.fold.x0, grid.y, layout.fold.x0, grid.y1)
    else:
        canvas.line(grid.x, layout.fold.y0, grid.x1, layout.fold.y0)
    canvas.setDash()
    canvas.setFillColor(NOTE)
    canvas.setFont(fonts.REGULAR, 5.5)
    if not layout.fold_marks:
        canvas.restoreState()
        return
    first = layout.fold_marks[0]
    if layout.vertical:
        canvas.drawString(first.x0 + 1.2 * MM, first.y0 + 1.0 * MM, "fold")
    else:
        canvas.drawString(first.x0 + 1.0 * MM, first.y0 + 1.2 * MM, "fold")
    canvas.restoreState()
