"""cards.pdf: card sheets with crop marks, scale bars and duplex backs, plus the manifest."""

from __future__ import annotations

from dataclasses import dataclass

from kitgen.layout.sheet import Placement, ScaleBar, SheetLayout, place_deck
from kitgen.outputs.manifest import _sheet_of_back, sheet_manifest
from kitgen.render import fonts
from kitgen.render.canvas import canvas_bytes, new_canvas
from kitgen.render.card import CardPainter
from kitgen.render.colors import CROP_MARK, NOTE
from kitgen.units import MM, to_mm

DUPLEX_HINT = {
    "long": "print double-sided, flip on long edge",
    "short": "print double-sided, flip on short edge",
    "none": "backs: reload the stack flipped on its long edge",
}


@dataclass(frozen=True)
class CardSheets:
    pdf: bytes
    manifest: dict
    pages: int
    placements: list[Placement]


def render_card_sheets(game, layout: SheetLayout, duplex: str, back_offset: tuple[float, float],
                       art, source: str, paper_name: str) -> CardSheets:
    """Draw every card copy on sheets; each page of fronts is followed by its backs as asked."""
    painter = CardPainter(game, layout.card.width, layout.card.height, layout.bleed, art, source)
    for card in game.cards:
        painter.check(card)
    placements, pages = place_deck([c.count for c in game.cards], layout, duplex, back_offset)
    canvas = new_canvas(layout.page, f"{game.title} - cards", "print-and-play card sheets")
    by_page: dict[int, list[tuple[str, Placement]]] = {p: [] for p in range(1, pages + 1)}
    for pl in placements:
        by_page[pl.front_page].append(("front", pl))
        by_page[pl.back_page].append(("back", pl))
    fronts_pages = sorted({pl.front_page for pl in placements})
    size_label = f"{to_mm(layout.card.width):g} x {to_mm(layout.card.height):g} mm"
    for page in range(1, pages + 1):
        items = by_page[page]
        is_front = page in fronts_pages
        if is_front:
            sheet = fronts_pages.index(page) + 1
            draw_crop_marks(canvas, layout)
            if layout.scale_bar:
                draw_scale_bar(canvas, layout.scale_bar)
        for side, pl in items:
            card = game.cards[pl.index]
            rect = pl.front if side == "front" else pl.back
            form = painter.face(canvas, card) if side == "front" else painter.back(canvas)
            canvas.saveState()
            canvas.translate(rect.x, rect.y)
            canvas.doForm(form)
            canvas.restoreState()
        kind = "fronts" if is_front else "backs"
        sheet_no = sheet if is_front else _sheet_of_back(page, placements)
        draw_sheet_label(canvas, layout, f"{game.title} · {kind} {sheet_no}/{len(fronts_pages)} · {size_label}"
                    f" · print at 100%, {DUPLEX_HINT[duplex]}")
        canvas.showPage()
    manifest = sheet_manifest(game, layout, placements, pages, paper_name, layout_name="duplex", duplex=duplex)
    return CardSheets(canvas_bytes(canvas), manifest, pages, placements)


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


def draw_sheet_label(canvas, layout: SheetLayout, text: str) -> None:
    """A small line in the right (or top) margin saying what the page is and how to print it."""
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
