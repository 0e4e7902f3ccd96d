"""``contact-sheet``: one PNG showing every distinct face and every distinct back, each labelled."""

from __future__ import annotations

from kitgen.layout.contact_sheet import contact_layout
from kitgen.outputs.raster import PageJob, rasterise
from kitgen.render import fonts
from kitgen.render.canvas import canvas_bytes, new_canvas
from kitgen.render.colors import INK, NOTE, PAPER, SHADOW
from kitgen.render.text_fit import fit_line
from kitgen.units import to_mm

USES_BLEED = False
DEFAULT_BLEED = 0.0
DEFAULT_DPI = 100
MAX_SIDE = 8000           # pixels; larger decks get a lower resolution


def contact_pdf(job) -> tuple[bytes, object]:
    game = job.game
    cards = list(game.cards)
    w, h = job.card.width, job.card.height
    painter = job.painter(0.0)
    backs: dict[int, list] = {}                  # each distinct back -> the cards that have it
    for card in cards:
        backs.setdefault(painter.back_key(card), []).append(card)
    lay = contact_layout(len(cards) + len(backs), w, h)
    one_back = len(backs) == 1
    canvas = new_canvas((lay.width, lay.height), f"{game.title} - contact sheet", "every card at a glance")
    canvas.setFillColor(PAPER)
    canvas.rect(0, 0, lay.width, lay.height, fill=1, stroke=0)
    _header(canvas, job, lay.header)
    back_cards = list(backs.values())
    for i, box in enumerate(lay.cards):
        card = cards[i] if i < len(cards) else None
        holders = back_cards[i - len(cards)] if card is None else None
        form = painter.face(canvas, card) if card is not None else painter.back(canvas, holders[0])
        canvas.setFillColor(SHADOW)
        canvas.rect(box.x + 1.5, box.y - 1.5, box.w, box.h, fill=1, stroke=0)
        canvas.saveState()
        canvas.translate(box.x, box.y)
        canvas.doForm(form)
        canvas.restoreState()
        label = lay.labels[i]
        if card is not None:
            name, count = card.name, f"× {card.count}"
        elif one_back:
            name, count = "Back", f"all {job.deck_size} cards"
        else:
            name = "Back" if len(holders) > 1 else f"Back of {holders[0].name}"
            count = f"{sum(c.count for c in holders)} cards" if len(holders) > 1 else f"× {holders[0].count}"
        _label(canvas, label, name, count)
    canvas.showPage()
    return canvas_bytes(canvas), lay


def _header(canvas, job, box) -> None:
    game = job.game
    size = fit_line(game.title, fonts.BOLD, 22, 10, box.w) or 10
    canvas.setFillColor(INK)
    canvas.setFont(fonts.BOLD, size)
    canvas.drawString(box.x, box.y1 - size, game.title)
    summary = (f"{job.deck_size} cards, {len(game.cards)} different faces · "
               f"{to_mm(job.card.width):g} x {to_mm(job.card.height):g} mm")
    small = fit_line(summary, fonts.REGULAR, 10, 5, box.w) or 5
    canvas.setFillColor(NOTE)
    canvas.setFont(fonts.REGULAR, small)
    canvas.drawString(box.x, box.y1 - size - small - 6, summary)
    canvas.setStrokeColor(SHADOW)
    canvas.setLineWidth(0.8)
    canvas.line(box.x, box.y + 8, box.x1, box.y + 8)


def _label(canvas, box, name: str, count: str) -> None:
    size = fit_line(name, fonts.BOLD, min(11.0, box.h * 0.42), 5, box.w) or 5
    canvas.setFillColor(INK)
    canvas.setFont(fonts.BOLD, size)
    cx = box.x + box.w / 2
    canvas.drawCentredString(cx, box.y1 - 4 - size * 0.8, name)
    small = fit_line(count, fonts.REGULAR, min(9.0, box.h * 0.32), 5, box.w) or 5
    canvas.setFillColor(NOTE)
    canvas.setFont(fonts.REGULAR, small)
    canvas.drawCentredString(cx, box.y1 - 6 - size - small * 0.8, count)


def contact_png(job) -> bytes:
    pdf, lay = contact_pdf(job)
    dpi = min(float(job.dpi), MAX_SIDE * 72.0 / max(lay.width, lay.height))
    w, h = job.pixels(lay.width, dpi), job.pixels(lay.height, dpi)
    return rasterise(pdf, [PageJob(0, w, h)], 1, round(dpi, 2))[0]


def export(job, target):
    from kitgen.outputs.files import write_files

    return write_files(target.parent, {target.name: contact_png(job)})
