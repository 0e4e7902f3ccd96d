"""``tts``: Tabletop Simulator deck sheets, a back image and a saved object that imports the deck.

Faces are rasterised one by one from the kit's card drawing (no bleed: the
simulator shows the trimmed card) and pasted into sheet grids planned by
:mod:`kitgen.layout.tts_grid`.  The saved object (``<slug>.json``) is a deck
with one card per copy, named after the data; copy it into the simulator's
"Saved Objects" folder.  Images are referred to by local file URLs, or by
``base_url`` + file name when they will be hosted online.

When the cards' backs differ (double-faced cards, backs chosen per card), each
sheet of faces gets a sheet of backs in the same grid and its deck entry says
``UniqueBack``: the simulator then shows every card's own back, also as the
hidden side other players see of a card in a hand.

A game of several decks (:mod:`kitgen.data.decks`) gets one deck object per
deck in the saved object, side by side on the table, each with its own sheets
(``<slug>-<deck>-sheet-1.png``) and back.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from kitgen.layout.tts_grid import SheetGrid, plan_sheets
from kitgen.outputs.card_pages import CardPage, card_pages_pdf
from kitgen.outputs.progress import Steps
from kitgen.outputs.raster import PageJob, png_bytes, rasterise

USES_BLEED = False     # the simulator shows the card cut to size
DEFAULT_BLEED = 0.0
DEFAULT_DPI = 300      # an upper bound: sheets shrink faces to stay within 4096 px
DECK_SPACING = 3.0     # table units between two decks' centres: a card is about 2.2 wide
TRANSFORM = {"posX": 0.0, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
             "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def sheet_name(slug: str, number: int) -> str:
    return f"{slug}-sheet-{number}.png"


def back_name(slug: str) -> str:
    return f"{slug}-back.png"


def backs_name(slug: str, number: int) -> str:
    return f"{slug}-backs-{number}.png"


def _guid(*parts) -> str:
    return hashlib.sha1("/".join(map(str, parts)).encode("utf-8")).hexdigest()[:6]


def render_sheets(job, grids: list[SheetGrid], unique_backs: bool = False, cards=None) -> tuple[list, object]:
    """Pillow images of every sheet of faces, and either the back at the first sheet's face size or,
    with ``unique_backs``, a sheet of backs in the same grid as each sheet of faces."""
    from PIL import Image

    cards = list(job.game.cards if cards is None else cards)
    pages = [CardPage(card) for card in cards]
    pages += [CardPage(card, back=True) for card in (cards if unique_backs else cards[:1])]
    pdf = card_pages_pdf(job, pages, f"{job.game.title} - deck", "deck faces", bleed=0.0, boxes=False)
    jobs = []
    for grid in grids:
        jobs += [PageJob(i, grid.cell_w, grid.cell_h) for i in range(grid.first, grid.first + grid.count)]
    if unique_backs:
        for grid in grids:
            jobs += [PageJob(len(cards) + i, grid.cell_w, grid.cell_h) for i in range(grid.first, grid.first + grid.count)]
    else:
        jobs.append(PageJob(len(cards), grids[0].cell_w, grids[0].cell_h))
    images = iter(rasterise(pdf, jobs, job.jobs, progress=Steps(job.progress, len(jobs)).advance))
    sheets = []
    for _ in range(2 if unique_backs else 1):
        for grid in grids:
            sheet = Image.new("RGB", (grid.width, grid.height), (255, 255, 255))
            for slot in range(grid.count):
                sheet.paste(next(images), grid.cell(slot))
            sheets.append(sheet)
    if unique_backs:
        return sheets[:len(grids)], sheets[len(grids):]
    return sheets, next(images)


def deck_object(job, deck, grids: list[SheetGrid], urls: dict[str, str], stem: str, unique_backs: bool,
                number: int, first_id: int = 0) -> dict:
    """One deck object of the saved object: one card per copy, in deck order (``number``: its place
    on the table, from the left; its sheets are numbered from ``first_id`` + 1, after the decks' before
    it, so no two decks of the save share a number)."""
    slug = job.game.slug
    custom = {}
    for n, grid in enumerate(grids, start=first_id + 1):
        local = n - first_id
        back = urls[backs_name(stem, local)] if unique_backs else urls[back_name(stem)]
        custom[str(n)] = {"FaceURL": urls[sheet_name(stem, local)], "BackURL": back,
                          "NumWidth": grid.cols, "NumHeight": grid.rows, "BackIsHidden": True,
                          "UniqueBack": unique_backs, "Type": 0}
    cards, ids = [], []
    for n, grid in enumerate(grids, start=first_id + 1):
        for slot in range(grid.count):
            card = deck.cards[grid.first + slot]
            card_id = n * 100 + slot
            for copy in range(1, card.count + 1):
                ids.append(card_id)
                cards.append({
                    "GUID": _guid(slug, card.row, copy), "Name": "Card", "Transform": dict(TRANSFORM),
                    "Nickname": card.name, "Description": card.text,
                    "GMNotes": json.dumps({"type": card.type, "value": card.value}, ensure_ascii=False),
                    "CardID": card_id, "SidewaysCard": False, "HideWhenFaceDown": True,
                    "CustomDeck": {str(n): custom[str(n)]},
                })
    several = len(job.game.decks) > 1
    transform = dict(TRANSFORM, posX=DECK_SPACING * (number - 1))
    return {"GUID": _guid(slug, "deck", deck.key) if several else _guid(slug, "deck"), "Name": "Deck",
            "Transform": transform, "Nickname": f"{job.game.title}: {deck.label}" if several else job.game.title,
            "Description": f"{len(ids)} cards", "SidewaysCard": False, "HideWhenFaceDown": True,
            "DeckIDs": ids, "CustomDeck": custom, "ContainedObjects": cards}


def saved_object(job, decks: list[dict]) -> dict:
    """The simulator's saved-object JSON of the game's decks."""
    game = job.game
    return {"SaveName": game.title, "GameMode": "", "Date": "", "VersionNumber": "", "Gravity": 0.5,
            "PlayArea": 0.5, "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "",
            "LuaScript": "", "LuaScriptState": "", "TabStates": {}, "ObjectStates": decks}


def image_url(base_url: str | None, folder: Path, name: str) -> str:
    if base_url:
        return f"{base_url.rstrip('/')}/{name}"
    return (folder.resolve() / name).as_uri()


def tts_files(job, folder: Path) -> dict[str, bytes]:
    """Every file of the export by name: each deck's sheets and back, the saved object and a short how-to."""
    slug = job.game.slug
    several = len(job.game.decks) > 1
    files: dict[str, bytes] = {}
    planned = []
    for deck in job.game.decks:
        stem = f"{slug}-{deck.key}" if several else slug
        grids = plan_sheets(len(deck.cards), job.card.width, job.card.height, job.dpi)
        painter = job.painter(0.0)
        unique = len({painter.back_key(card) for card in deck.cards}) > 1
        sheets, back = render_sheets(job, grids, unique, deck.cards)
        for number, sheet in enumerate(sheets, start=1):
            files[sheet_name(stem, number)] = png_bytes(sheet, _sheet_dpi(job, grids[number - 1]))
        if unique:
            for number, sheet in enumerate(back, start=1):
                files[backs_name(stem, number)] = png_bytes(sheet, _sheet_dpi(job, grids[number - 1]))
        else:
            files[back_name(stem)] = png_bytes(back, _sheet_dpi(job, grids[0]))
        planned.append((deck, grids, stem, unique))
    urls = {name: image_url(job.options.base_url, folder, name) for name in files}
    objects, first = [], 0
    for n, (deck, grids, stem, unique) in enumerate(planned, start=1):
        objects.append(deck_object(job, deck, grids, urls, stem, unique, n, first))
        first += len(grids)
    data = saved_object(job, objects)
    files[f"{slug}.json"] = (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
    files["README.txt"] = _readme(job, [g for _, grids, _, _ in planned for g in grids]).encode("utf-8")
    return files


def _sheet_dpi(job, grid: SheetGrid) -> float:
    return round(grid.cell_w / (job.card.width / 72.0), 2)


def _readme(job, grids) -> str:
    slug = job.game.slug
    decks = job.game.decks
    what = "deck" if len(decks) == 1 else f"set of {len(decks)} decks ({', '.join(d.label for d in decks)})"
    lines = [f"{job.game.title}: a Tabletop Simulator {what} of {job.deck_size} cards "
             f"({len(job.game.cards)} faces on {len(grids)} sheet{'s' if len(grids) > 1 else ''}).",
             "",
             f"Copy {slug}.json into Documents/My Games/Tabletop Simulator/Saves/Saved Objects",
             "and spawn it from Objects > Saved Objects.",
             "",
             "The images are referred to by file URLs on this computer. To share the deck,",
             "upload the PNG files and export again with --base-url pointing at the folder",
             "they are served from.", ""]
    return "\n".join(lines)


def export(job, target):
    from kitgen.outputs.files import replace_folder

    return replace_folder(target, tts_files(job, target))
