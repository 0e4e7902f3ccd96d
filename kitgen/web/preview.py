"""What the live preview shows, made in the worker process from the library's own outputs.

:func:`build_preview` builds the kit with :func:`kitgen.outputs.kit.build_kit`
and rasterises every distinct card face and the back from a PDF drawn by the
kit's own card painter (:func:`kitgen.outputs.card_pages.card_pages_pdf`), so
the pictures on screen are the cards that print.  :func:`page_image` turns one
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


def _png(image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=FAST_PNG)
    return buffer.getvalue()


def build_preview(game: str, out: str) -> dict:
    """Build the kit of ``game`` under ``out`` and picture its cards.

    Returns the title, the kit's files and page counts, the cards (name, type,
    count, value) with a PNG of each face, the back's PNG (and each card's, when their backs differ)
    and the warnings.
    """
    from kitgen.outputs.card_pages import CardPage, card_pages_pdf
    from kitgen.outputs.export_job import ExportOptions, prepare
    from kitgen.outputs.kit import build_kit
    from kitgen.outputs.raster import PageJob, rasterise

    started = time.perf_counter()
    result = build_kit(game, out)
    job = prepare(game, ExportOptions(dpi=CARD_DPI), 0.0, CARD_DPI)
    deck = list(job.game.cards)
    own_backs = job.painter(0.0).distinct_backs()        # double-faced cards, backs chosen per card
    pages = [CardPage(card) for card in deck] + [CardPage(card, back=True) for card in
                                                 (deck if own_backs else deck[:1])]
    pdf = card_pages_pdf(job, pages, f"{job.game.title} - preview", "card faces", bleed=0.0, boxes=False)
    size = (job.pixels(job.card.width), job.pixels(job.card.height))
    images = rasterise(pdf, [PageJob(i, *size) for i in range(len(pages))])
    faces = [_png(image) for image in images]
    types = job.game.types
    cards = [{"name": c.name, "type": c.type, "type_label": types[c.type].label, "color": types[c.type].color,
              "count": c.count, "value": c.value, "text": c.text, "row": c.row}
             for c in job.game.cards]
    return {
        "title": result.title,
        "slug": job.game.slug,
        "folder": str(result.folder),
        "files": [p.name for p in result.files],
        "pages": dict(result.pages),
        "page_px": {p.name: first_page_px(p) for p in result.files if p.suffix == ".pdf"},
        "deck_size": result.cards,
        "cards": cards,
        "faces": faces[:len(deck)],
        "back": faces[len(deck)],
        "backs": faces[len(deck):] if own_backs else [],     # each card's own back, when they differ
        "card_px": list(size),
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
