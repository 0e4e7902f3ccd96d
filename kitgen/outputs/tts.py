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


def render_sheets(job, grids: list[SheetGrid], unique_backs: bool = False) -> tuple[list, object]:
    """Pillow images of every sheet of faces, and either the back at the first sheet's face size or,
    with ``unique_backs``, a sheet of backs in the same grid as each sheet of faces."""
    from PIL import Image

    cards = list(job.game.cards)
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


def saved_object(job, grids: list[SheetGrid], urls: dict[str, str], unique_backs: bool = False) -> dict:
    """The simulator's saved-object JSON of the deck: one card per copy, in deck order."""
    game, slug = job.game, job.game.slug
    custom = {}
    for number, grid in enumerate(grids, start=1):
        back = urls[backs_name(slug, number)] if unique_backs else urls[back_name(slug)]
        custom[str(number)] = {"FaceURL": urls[sheet_name(slug, number)], "BackURL": back,
                               "NumWidth": grid.cols, "NumHeight": grid.rows, "BackIsHidden": True,
                               "UniqueBack": unique_backs, "Type": 0}
    cards, ids = [], []
    for number, grid in enumerate(grids, start=1):
        for slot in range(grid.count):
            card = game.cards[grid.first + slot]
            card_id = number * 100 + slot
            for copy in range(1, card.count + 1):
                ids.append(card_id)
                cards.append({
                    "GUID": _guid(slug, card.row, copy), "Name": "Card", "Transform": dict(TRANSFORM),
                    "Nickname": card.name, "Description": card.text,
                    "GMNotes": json.dumps({"type": card.type, "value": card.value}, ensure_ascii=False),
                    "CardID": card_id, "SidewaysCard": False, "HideWhenFaceDown": True,
                    "CustomDeck": {str(number): custom[str(number)]},
                })
    deck = {"GUID": _guid(slug, "deck"), "Name": "Deck", "Transform": dict(TRANSFORM),
            "Nickname": game.title, "Description": f"{len(ids)} cards",
            "SidewaysCard": False, "HideWhenFaceDown": True,
            "DeckIDs": ids, "CustomDeck": custom, "ContainedObjects": cards}
    return {"SaveName": game.title, "GameMode": "", "Date": "", "VersionNumber": "", "Gravity": 0.5,
            "PlayArea": 0.5, "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "",
            "LuaScript": "", "LuaScriptState": "", "TabStates": {}, "ObjectStates": [deck]}


def image_url(base_url: str | None, folder: Path, name: str) -> str:
    if base_url:
        return f"{base_url.rstrip('/')}/{name}"
    return (folder.resolve() / name).as_uri()


def tts_files(job, folder: Path) -> dict[str, bytes]:
    """Every file of the export by name: sheets, back, saved object and a short how-to."""
    slug = job.game.slug
    grids = plan_sheets(len(job.game.cards), job.card.width, job.card.height, job.dpi)
    unique = job.painter(0.0).distinct_backs()
    sheets, back = render_sheets(job, grids, unique)
    files: dict[str, bytes] = {}
    for number, sheet in enumerate(sheets, start=1):
        files[sheet_name(slug, number)] = png_bytes(sheet, _sheet_dpi(job, grids[number - 1]))
    if unique:
        for number, sheet in enumerate(back, start=1):
            files[backs_name(slug, number)] = png_bytes(sheet, _sheet_dpi(job, grids[number - 1]))
    else:
        files[back_name(slug)] = png_bytes(back, _sheet_dpi(job, grids[0]))
    urls = {name: image_url(job.options.base_url, folder, name) for name in files}
    data = saved_object(job, grids, urls, unique)
    files[f"{slug}.json"] = (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode("utf-8")
    files["README.txt"] = _readme(job, grids).encode("utf-8")
    return files


def _sheet_dpi(job, grid: SheetGrid) -> float:
    return round(grid.cell_w / (job.card.width / 72.0), 2)


def _readme(job, grids) -> str:
    slug = job.game.slug
    lines = [f"{job.game.title}: a Tabletop Simulator deck of {job.deck_size} cards "
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
