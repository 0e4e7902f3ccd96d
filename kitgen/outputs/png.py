"""``png``: one PNG per distinct card face and per distinct back, at print resolution with bleed.

A poker card (63.5 x 88.9 mm) with the default 1/8 in bleed at 300 DPI is
825 x 1125 pixels.  Names sort in deck order and carry the copy count:
``01-plaza-x13.png`` ... ``back.png``.  A back shared by several cards is
written once (``back.png``; ``back-2.png``... when a deck has several shared
backs); a card's own back (a double-faced card) is written beside its face,
``01-plaza-x13-back.png``.  A game of several decks gets a folder per deck,
each with its faces and its backs (``dragons/dragons-back.png``).
``manifest.json`` lists every face with its copies and the file of its back.
"""

from __future__ import annotations

import json

from kitgen.outputs.card_pages import CardPage, card_pages_pdf
from kitgen.outputs.naming import BACK_NAME, card_stems
from kitgen.outputs.progress import Steps
from kitgen.outputs.raster import PageJob, rasterise
from kitgen.units import inch

DEFAULT_BLEED = inch(1 / 8)
DEFAULT_DPI = 300
FULL_SIZE_IMAGES = True    # every card is one image at the full DPI: its pixel size is capped


def deck_backs(painter, deck, stems: list[str], prefix: str = "") -> tuple[list, dict[int, str]]:
    """The distinct backs of ``deck`` as (file stem, a card that has it), and for each of its cards (by
    position) the stem of its back: a back shared by several cards is named ``back`` (``back-2``...
    when the deck has several such), a card's own back after its face (``01-plaza-x13-back``)."""
    holders: dict[int, list[int]] = {}
    for i, card in enumerate(deck.cards):
        holders.setdefault(painter.back_key(card), []).append(i)
    shared = [k for k, cards in holders.items() if len(cards) > 1 or len(holders) == 1]
    backs, of = [], {}
    for key, cards in holders.items():
        if key in shared:
            n = shared.index(key) + 1
            stem = f"{prefix}{BACK_NAME}" + (f"-{n}" if len(shared) > 1 else "")
        else:
            stem = f"{stems[cards[0]]}-{BACK_NAME}"
        backs.append((stem, deck.cards[cards[0]]))
        of.update((i, stem) for i in cards)
    return backs, of


def card_pngs(job, bleed: float | None = None) -> dict[str, bytes | dict]:
    """File name -> PNG bytes (a deck's folder -> its files, when the game has several decks): every
    distinct face in deck order, then each distinct back once, and manifest.json."""
    bleed = job.bleed if bleed is None else bleed
    game = job.game
    painter = job.painter(bleed)
    several = len(game.decks) > 1
    pages: list[CardPage] = []
    names: list[tuple[str | None, str]] = []          # (the deck's folder or None, file name) of each page
    listing = []
    for deck in game.decks:
        folder = deck.key if several else None
        stems = card_stems(deck.cards)
        backs, back_of = deck_backs(painter, deck, stems, f"{deck.key}-" if several else "")
        pages += [CardPage(card) for card in deck.cards] + [CardPage(card, back=True) for _, card in backs]
        names += [(folder, f"{stem}.png") for stem in stems] + [(folder, f"{stem}.png") for stem, _ in backs]
        listing.append({"key": deck.key, "label": deck.label, "folder": folder or ".",
                        "faces": [{"file": f"{stem}.png", "name": card.name, "row": card.row, "copies": card.count,
                                   "back": f"{back_of[i]}.png"} for i, (stem, card) in enumerate(zip(stems, deck.cards))],
                        "backs": [f"{stem}.png" for stem, _ in backs]})
    pdf = card_pages_pdf(job, pages, f"{game.title} - cards", "card images", bleed=bleed, boxes=False)
    w, h = job.pixels(job.card.width + 2 * bleed), job.pixels(job.card.height + 2 * bleed)
    steps = Steps(job.progress, len(pages))
    images = rasterise(pdf, [PageJob(i, w, h) for i in range(len(pages))], job.jobs, job.dpi, steps.advance)
    files: dict[str, bytes | dict] = {}
    for (folder, name), image in zip(names, images):
        (files.setdefault(folder, {}) if folder else files)[name] = image
    files["manifest.json"] = (json.dumps({"game": game.slug, "decks": listing}, indent=1, ensure_ascii=False)
                              + "\n").encode("utf-8")
    return files


def export(job, target):
    """Write the PNG folder ``target`` (replaced whole)."""
    from kitgen.outputs.files import replace_folder

    return replace_folder(target, card_pngs(job))
