"""``png``: one PNG per distinct card face and its back, at print resolution with bleed.

A poker card (63.5 x 88.9 mm) with the default 1/8 in bleed at 300 DPI is
825 x 1125 pixels.  Names sort in deck order and carry the copy count:
``01-plaza-x13.png`` ... ``back.png``.  When the cards' backs differ (double-faced
cards, backs chosen per card), every face has its own back beside it:
``01-plaza-x13.png``, ``01-plaza-x13-back.png``.
"""

from __future__ import annotations

from kitgen.outputs.card_pages import CardPage, card_pages_pdf
from kitgen.outputs.naming import BACK_NAME, card_stems
from kitgen.outputs.progress import Steps
from kitgen.outputs.raster import PageJob, rasterise
from kitgen.units import inch

DEFAULT_BLEED = inch(1 / 8)
DEFAULT_DPI = 300
FULL_SIZE_IMAGES = True    # every card is one image at the full DPI: its pixel size is capped


def card_pngs(job, bleed: float | None = None) -> dict[str, bytes]:
    """File name -> PNG bytes for every distinct face in deck order, then the back (or each its own)."""
    bleed = job.bleed if bleed is None else bleed
    game = job.game
    stems = card_stems(game.cards)
    pages = [CardPage(card) for card in game.cards]
    names = [f"{stem}.png" for stem in stems]
    if job.painter(bleed).distinct_backs():
        pages += [CardPage(card, back=True) for card in game.cards]
        names += [f"{stem}-{BACK_NAME}.png" for stem in stems]
    else:
        pages.append(CardPage(game.cards[0], back=True))
        names.append(f"{BACK_NAME}.png")
    pdf = card_pages_pdf(job, pages, f"{game.title} - cards", "card images", bleed=bleed, boxes=False)
    w, h = job.pixels(job.card.width + 2 * bleed), job.pixels(job.card.height + 2 * bleed)
    steps = Steps(job.progress, len(pages))
    images = rasterise(pdf, [PageJob(i, w, h) for i in range(len(pages))], job.jobs, job.dpi, steps.advance)
    return dict(zip(names, images))


def export(job, target):
    """Write the PNG folder ``target`` (replaced whole)."""
    from kitgen.outputs.files import replace_folder

    return replace_folder(target, card_pngs(job))
