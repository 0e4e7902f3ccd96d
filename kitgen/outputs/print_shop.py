"""``print-shop``: one card per page at trim size plus bleed, front, back, front, back...

Every copy of every card is a page (a shop prints the file as it is), each
followed by its own back.  Each page's TrimBox is the card's cut line and its
BleedBox the whole page, the way print services check a file.  A game of
several decks gets a file per deck, ``print-shop-<deck>.pdf``.
"""

from __future__ import annotations

from kitgen.outputs.card_pages import CardPage, card_pages_pdf
from kitgen.units import inch

USES_DPI = False
DEFAULT_BLEED = inch(1 / 8)
DEFAULT_DPI = 300   # not used: the PDF stays vector


def print_shop_pdf(job, deck=None) -> bytes:
    """The PDF of ``deck`` (None: every card of the game)."""
    pages = []
    for card in (job.game.cards if deck is None else deck.cards):
        for _ in range(card.count):
            pages += [CardPage(card), CardPage(card, back=True)]
    title = job.game.title if deck is None else f"{job.game.title}: {deck.label}"
    return card_pages_pdf(job, pages, f"{title} - print-shop cards", "one card per page: front, back, front, back")


def export(job, target):
    from kitgen.outputs.files import write_files

    decks = job.game.decks
    if len(decks) == 1:
        return write_files(target.parent, {target.name: print_shop_pdf(job)})
    return write_files(target.parent, {f"{target.stem}-{deck.key}{target.suffix}": print_shop_pdf(job, deck)
                                       for deck in decks})
