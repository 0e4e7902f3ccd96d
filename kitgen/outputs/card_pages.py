"""PDFs of one card per page: the trim size plus bleed, drawn by the kit's own card painter.

The print-shop PDF is such a document, and so is what the PNG, TTS and
contact-sheet exports rasterise: every exported picture comes from the same
drawing as the printed cards.
"""

from __future__ import annotations

from dataclasses import dataclass

from kitgen.render.canvas import canvas_bytes, new_canvas


@dataclass(frozen=True)
class CardPage:
    """One page: a card's face, or its back (``back``)."""

    card: object
    back: bool = False


def card_pages_pdf(job, pages: list[CardPage], title: str, subject: str, bleed: float | None = None,
                   boxes: bool = True) -> bytes:
    """A PDF whose every page is one card at trim size plus ``bleed`` on each side.

    With ``boxes`` each page's TrimBox is the card's trim and its BleedBox the
    whole page, as print shops read them.
    """
    bleed = job.bleed if bleed is None else bleed
    return card_pdf(job.painter(bleed), pages, title, subject, boxes)


def card_pdf(painter, pages: list[CardPage], title: str, subject: str, boxes: bool = False) -> bytes:
    """As :func:`card_pages_pdf`, drawn by ``painter`` (at its card size and bleed)."""
    bleed = painter.bleed
    w, h = painter.width, painter.height
    page_size = (w + 2 * bleed, h + 2 * bleed)
    canvas = new_canvas(page_size, title, subject)
    if boxes:
        canvas.setTrimBox((bleed, bleed, bleed + w, bleed + h))
        canvas.setBleedBox((0, 0, page_size[0], page_size[1]))
    for page in pages:
        form = painter.back(canvas, page.card) if page.back else painter.face(canvas, page.card)
        canvas.saveState()
        canvas.translate(bleed, bleed)
        canvas.doForm(form)
        canvas.restoreState()
        canvas.showPage()
    return canvas_bytes(canvas)
