"""What the live preview shows, made in the worker process from the library's own outputs.

:func:`draw_cards` draws the card faces and the back whose pictures the server does not
hold yet (a picture's key says what it rests on), from a PDF drawn by the kit's own card
painter (:func:`kitgen.outputs.card_pages.card_pdf`), so the pictures on screen are the
cards that print; :func:`build_kit_files` then builds the whole kit with
:func:`kitgen.outputs.kit.build_kit`.  :func:`page_image` turns one
page of a built PDF into a picture on request.  Both return plain data: they
run in :class:`kitgen.web.worker.Worker`.
"""

from __future__ import annotations

import io
import time
from pathlib import Path

CARD_DPI = 110          # a poker card is 275 px wide: sharp at the size the page shows it
PAGE_DPI = 80           # a letter page is 680 px wide
FAST_PNG = 1            # zlib level: these images live for one build, so speed beats size
DOCUMENTS = ("cards.pdf", "rules.pdf", "aids.pdf")
SIZES: dict[str, dict] = {}     # a game -> the sizes of its same_size boxes on each card, by what they rest on


def _png(image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=FAST_PNG)
    return buffer.getvalue()


def draw_cards(game: str, known: list[str]) -> dict:
    """The cards of ``game`` as the preview shows them, each with the key of its picture
    (:mod:`kitgen.outputs.card_keys`), and the pictures whose keys are not in ``known``, drawn now.

    Only those cards are arranged and drawn (and so checked): the kit built next checks them all.
    Returns the title, the cards (name, type, count, value, text, row, ``picture``), the first card's
    back's key and each card's when their backs differ (``backs``),
    ``pictures`` (key -> PNG) and ``boxes`` (key -> where each box of that picture lies and what its
    text was fitted to, :func:`kitgen.outputs.card_preview.box_notes`).
    """
    from kitgen.outputs.card_keys import picture_keys
    from kitgen.outputs.card_pages import CardPage, card_pdf
    from kitgen.outputs.card_preview import box_notes
    from kitgen.outputs.export_job import ExportOptions, prepare
    from kitgen.outputs.raster import PageJob, rasterise

    started = time.perf_counter()
    job = prepare(game, ExportOptions(dpi=CARD_DPI), 0.0, CARD_DPI, check_cards=False)
    painter = job.painter(0.0)
    keys = picture_keys(job, painter, SIZES.setdefault(game, {}))
    deck = list(job.game.cards)
    wanted: dict[str, CardPage] = {}
    for card, key in zip(deck, keys.faces):
        wanted.setdefault(key, CardPage(card))
    own_backs = len(set(keys.backs)) > 1             # double-faced cards: each card's own back
    for card, key in zip(deck if own_backs else deck[:1], keys.backs):
        wanted.setdefault(key, CardPage(card, back=True))
    have = set(known)
    wanted = {key: page for key, page in wanted.items() if key not in have}
    pages = list(wanted.values())
    size = (job.pixels(job.card.width), job.pixels(job.card.height))
    images = []
    if pages:
        pdf = card_pdf(painter, pages, f"{job.game.title} - preview", "card faces")
        images = rasterise(pdf, [PageJob(i, *size) for i in range(len(pages))])
    w, h = painter.width, painter.height
    types = job.game.types
    return {
        "title": job.game.title,
        "cards": [{"name": c.name, "type": c.type, "type_label": types[c.type].label, "color": types[c.type].color,
                   "count": c.count, "value": c.value, "text": c.text, "row": c.row, "picture": key}
                  for c, key in zip(deck, keys.faces)],
        "back": keys.backs[0] if deck else None,
        "backs": keys.backs if own_backs else [],
        "deck_size": job.deck_size,
        "card_px": list(size),
        "pictures": {key: _png(image) for key, image in zip(wanted, images)},
        "boxes": {key: [n.as_data(w, h) for n in box_notes(painter, page.card, page.back)]
                  for key, page in wanted.items()},
        "seconds": round(time.perf_counter() - started, 3),
    }


def build_kit_files(game: str, out: str) -> dict:
    """Build the kit of ``game`` under ``out``: its title, files, page counts, the size of each PDF's
    first page as pictured, the deck's size and the warnings."""
    from kitgen.outputs.kit import build_kit

    started = time.perf_counter()
    result = build_kit(game, out)
    return {
        "title": result.title,
        "slug": Path(result.folder).name,
        "folder": str(result.folder),
        "files": [p.name for p in result.files],
        "pages": dict(result.pages),
        "page_px": {p.name: first_page_px(p) for p in result.files if p.suffix == ".pdf"},
        "deck_size": result.cards,
        "warnings": list(result.warnings),
        "seconds": round(time.perf_counter() - started, 3),
    }


def page_px(document, page: int, dpi: int = PAGE_DPI) -> tuple[int, int]:
    """(width, height) in pixels of page ``page`` of a pypdfium2 document pictured at ``dpi``."""
    width, height = document[page].get_size()
    return round(width / 72 * dpi), round(height / 72 * dpi)


def first_page_px(pdf_path: str | Path) -> list[int]:
    """The size of the picture of a PDF's first page, which the web pages give its pictures before they
    load (so nothing moves as they come in)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(Path(pdf_path).read_bytes())
    try:
        return list(page_px(document, 0))
    finally:
        document.close()


def page_image(pdf_path: str, page: int, dpi: int = PAGE_DPI) -> bytes:
    """Page ``page`` (from 0) of a PDF as PNG bytes at ``dpi``; IndexError when there is no such page."""
    import pypdfium2 as pdfium

    from kitgen.outputs.raster import PageJob, rasterise

    data = Path(pdf_path).read_bytes()
    document = pdfium.PdfDocument(data)
    try:
        if not 0 <= page < len(document):
            raise IndexError(f"no page {page + 1}")
        size = page_px(document, page, dpi)
    finally:
        document.close()
    image = rasterise(data, [PageJob(page, *size)])[0]
    return _png(image)
