"""``contact-sheet``: PNG pictures showing every distinct face and every distinct back, each labelled.

Cards keep one size (the export's DPI); a deck too large for one picture of at
most :data:`MAX_SIDE` pixels goes on over several, numbered in their titles and
named ``contact-sheet.png``, ``contact-sheet-2.png``...  A game of several
decks shows each in a section of its own: its faces, then its backs.
"""

from __future__ import annotations

from kitgen.layout.contact_sheet import contact_pages
from kitgen.outputs.raster import PageJob, rasterise
from kitgen.render import fonts
from kitgen.render.canvas import canvas_bytes, new_canvas
from kitgen.render.colors import INK, NOTE, PAPER, SHADOW
from kitgen.render.text_fit import fit_line
from kitgen.units import to_mm

USES_BLEED = False
DEFAULT_BLEED = 0.0
DEFAULT_DPI = 100
MAX_SIDE = 8000           # pixels of one picture; a larger deck goes on over several


def _items(job) -> list[list[tuple]]:
    """For each deck, what its section shows: ("face", card) for each card, then ("back", cards
    having it) for each distinct back."""
    painter = job.painter(0.0)
    sections = []
    for deck in job.game.decks:
        backs: dict[int, list] = {}
        for card in deck.cards:
            backs.setdefault(painter.back_key(card), []).append(card)
        sections.append([("face", card) for card in deck.cards] + [("back", cards) for cards in backs.values()])
    return sections


def contact_pdf(job) -> tuple[bytes, list]:
    """The contact sheet as a PDF of one page per picture, and the layout of each page."""
    game = job.game
    w, h = job.card.width, job.card.height
    painter = job.painter(0.0)
    sections = _items(job)
    decks = game.decks
    items = [item for section in sections for item in section]
    section_of = [s for s, section in enumerate(sections) for _ in section]
    width = contact_pages([len(s) for s in sections], w, h, float("inf"), len(decks) > 1)[0].width
    dpi = min(float(job.dpi), MAX_SIDE * 72.0 / width)
    pages = contact_pages([len(s) for s in sections], w, h, MAX_SIDE * 72.0 / dpi, len(decks) > 1)
    canvas = new_canvas((pages[0].width, pages[0].height), f"{game.title} - contact sheet", "every card at a glance")
    for number, lay in enumerate(pages, start=1):
        canvas.setPageSize((lay.width, lay.height))
        canvas.setFillColor(PAPER)
        canvas.rect(0, 0, lay.width, lay.height, fill=1, stroke=0)
        _header(canvas, job, lay.header, number, len(pages))
        for box, s in lay.sections:
            _section(canvas, box, decks[s])
        for i, box, label in zip(lay.items, lay.cards, lay.labels):
            kind, what = items[i]
            deck = decks[section_of[i]]
            form = painter.face(canvas, what) if kind == "face" else painter.back(canvas, what[0])
            canvas.setFillColor(SHADOW)
            canvas.rect(box.x + 1.5, box.y - 1.5, box.w, box.h, fill=1, stroke=0)
            canvas.saveState()
            canvas.translate(box.x, box.y)
            canvas.doForm(form)
            canvas.restoreState()
            if kind == "face":
                name, count = what.name, f"× {what.count}"
            elif len(what) == sum(1 for k, _ in sections[section_of[i]] if k == "face"):
                name, count = "Back", f"all {deck.size} cards"
            else:
                name = "Back" if len(what) > 1 else f"Back of {what[0].name}"
                count = f"{sum(c.count for c in what)} cards" if len(what) > 1 else f"× {what[0].count}"
            _label(canvas, label, name, count)
        canvas.showPage()
    return canvas_bytes(canvas), pages, dpi


def _section(canvas, box, deck) -> None:
    """The band naming a deck above its cards."""
    text = f"{deck.label} · {deck.size} cards, {len(deck.cards)} faces"
    size = fit_line(text, fonts.BOLD, 14, 6, box.w) or 6
    canvas.setFillColor(INK)
    canvas.setFont(fonts.BOLD, size)
    canvas.drawString(box.x, box.y + (box.h - size) / 2 + 2, text)
    canvas.setStrokeColor(SHADOW)
    canvas.setLineWidth(0.6)
    canvas.line(box.x, box.y + 2, box.x1, box.y + 2)


def _header(canvas, job, box, number: int = 1, pages: int = 1) -> None:
    game = job.game
    title = game.title if pages == 1 else f"{game.title} · page {number} of {pages}"
    size = fit_line(title, fonts.BOLD, 22, 10, box.w) or 10
    canvas.setFillColor(INK)
    canvas.setFont(fonts.BOLD, size)
    canvas.drawString(box.x, box.y1 - size, title)
    decks = f" in {len(game.decks)} decks" if len(game.decks) > 1 else ""
    summary = (f"{job.deck_size} cards{decks}, {len(game.cards)} different faces · "
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


def page_name(target_name: str, number: int) -> str:
    """``contact-sheet.png`` for the first picture, ``contact-sheet-2.png``... for the others."""
    if number == 1:
        return target_name
    stem, dot, suffix = target_name.rpartition(".")
    return f"{stem}-{number}.{suffix}"


def contact_pngs(job) -> list[bytes]:
    """The PNG of every page of the contact sheet."""
    pdf, pages, dpi = contact_pdf(job)
    jobs = [PageJob(i, job.pixels(lay.width, dpi), job.pixels(lay.height, dpi)) for i, lay in enumerate(pages)]
    return rasterise(pdf, jobs, job.jobs if len(pages) > 1 else 1, round(dpi, 2))


def contact_png(job) -> bytes:
    """The first (for most games the only) picture of the contact sheet."""
    return contact_pngs(job)[0]


def export(job, target):
    from kitgen.outputs.files import write_files

    pictures = contact_pngs(job)
    names = [page_name(target.name, n) for n in range(1, len(pictures) + 1)]
    for stale in target.parent.glob(f"{target.stem}-*{target.suffix}") if target.parent.is_dir() else ():
        if stale.name not in names and stale.stem[len(target.stem) + 1:].isdigit():
            stale.unlink()              # pages of an earlier, larger contact sheet
    if len(pictures) > 1:
        faces = len(job.game.cards)
        job.notes.append(f"{faces:,} faces and their backs at a fixed size take {len(pictures)} pictures: "
                         f"{names[0]}, {names[1]}" + (f" ... {names[-1]}" if len(names) > 2 else ""))
    return write_files(target.parent, dict(zip(names, pictures)))
