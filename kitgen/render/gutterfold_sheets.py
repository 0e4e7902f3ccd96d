"""cards.pdf as gutterfold sheets: fronts and their mirrored backs on one page, with fold and cut marks."""

from __future__ import annotations

from reportlab.lib.colors import white
from reportlab.pdfbase.pdfmetrics import stringWidth

from kitgen.layout.gutterfold import FOLD_DASH, GutterfoldLayout, place_gutterfold
from kitgen.layout.sheet import MARK_CLEARANCE, PRINTER_MARGIN
from kitgen.outputs.manifest import sheet_manifest
from kitgen.render import fonts
from kitgen.render.canvas import canvas_bytes, new_canvas
from kitgen.render.card import CardPainter
from kitgen.render.colors import NOTE
from kitgen.render.sheets import CardSheets, draw_crop_marks, draw_scale_bar, draw_sheet_label
from kitgen.render.text_fit import fit_line
from kitgen.units import MM, to_mm


def render_gutterfold_sheets(game, layout: GutterfoldLayout, art, source: str, paper_name: str) -> CardSheets:
    """Every card copy with its back on the same page, mirrored across the fold line."""
    painter = CardPainter(game, layout.card.width, layout.card.height, layout.bleed, art, source)
    for card in game.cards:
        painter.check(card)
    placements, pages = place_gutterfold([c.count for c in game.cards], layout)
    canvas = new_canvas(layout.page, f"{game.title} - cards", "print-and-play gutterfold card sheets")
    size_label = f"{to_mm(layout.card.width):g} x {to_mm(layout.card.height):g} mm"
    for page in range(1, pages + 1):
        draw_crop_marks(canvas, layout.sheet)
        _draw_fold(canvas, layout)
        if layout.sheet.scale_bar:
            draw_scale_bar(canvas, layout.sheet.scale_bar)
        for pl in (p for p in placements if p.front_page == page):
            card = game.cards[pl.index]
            _place(canvas, painter.face(canvas, card), pl.front, 0)
            _place(canvas, painter.back(canvas), pl.back, layout.back_rotation)
        _label(canvas, layout, f"{game.title} · gutterfold {page}/{pages} · {size_label} · "
               "print one-sided at 100%, fold on the dashed line, glue, then cut")
        canvas.showPage()
    manifest = sheet_manifest(game, layout, placements, pages, paper_name, layout_name="gutterfold",
                              duplex="none", fold={"vertical": layout.vertical, "at": round(layout.fold_position, 3)},
                              back_rotation=layout.back_rotation)
    return CardSheets(canvas_bytes(canvas), manifest, pages, placements)


def _place(canvas, form: str, rect, rotation: int) -> None:
    canvas.saveState()
    if rotation == 180:
        canvas.translate(rect.x1, rect.y1)
        canvas.rotate(180)
    else:
        canvas.translate(rect.x, rect.y)
    canvas.doForm(form)
    canvas.restoreState()


def _label(canvas, layout: GutterfoldLayout, text: str) -> None:
    """What the page is and how to use it, in a margin beside the fronts, clear of the fold marks."""
    if not layout.vertical:
        draw_sheet_label(canvas, layout.sheet, text)
        return
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
