"""manifest.json: the sheet settings, then every printed card copy with its pages and trim boxes.

Each copy names its card and the card's row in the card sheet (as a
spreadsheet shows it: the header is row 1), since two rows may share a name.
"""

from __future__ import annotations

import json

from kitgen.layout.deck import CardPlacement
from kitgen.layout.gutterfold import GutterfoldLayout
from kitgen.units import to_mm


def sheet_manifest(game, layout, placements: list[CardPlacement], pages: int, paper_name: str) -> dict:
    """The manifest of cards.pdf drawn on ``layout`` (a DuplexLayout or a GutterfoldLayout).

    A gutterfold manifest also says where the fold is.  A front or back drawn
    turned says by how many degrees (counter-clockwise), as a gutterfold back always does.
    """
    folded = isinstance(layout, GutterfoldLayout)
    front_turn = {"rotation": layout.front_rotation} if layout.front_rotation else {}
    back_turn = {"rotation": layout.back_rotation} if folded or layout.back_rotation else {}
    manifest = {
        "game": game.slug,
        "title": game.title,
        "paper": paper_name,
        "layout": layout.kind,
        "page_size": [round(layout.page.width, 3), round(layout.page.height, 3)],
        "card_size_mm": [round(to_mm(layout.card.width), 3), round(to_mm(layout.card.height), 3)],
        "bleed_mm": round(to_mm(layout.bleed), 3),
        "duplex": "none" if folded else layout.duplex,
    }
    if folded:
        manifest["fold"] = {"vertical": layout.vertical, "at": round(layout.fold_position, 3)}
    manifest["pages"] = pages
    manifest["cards_per_page"] = layout.per_page
    manifest["cards_turned"] = bool(layout.front_rotation)
    manifest["gap_mm"] = [round(to_mm(g), 3) for g in layout.sheet.gap]
    manifest["decks"] = _decks(game, placements)
    manifest["cards"] = [{"name": game.cards[pl.index].name, "row": game.cards[pl.index].row,
                          "deck": game.cards[pl.index].deck or game.decks[0].key, "copy": pl.copy,
                          "front": {"page": pl.front_page, "box": pl.front.box(), **front_turn},
                          "back": {"page": pl.back_page, "box": pl.back.box(), **back_turn}}
                         for pl in placements]
    return manifest


def _decks(game, placements: list[CardPlacement]) -> list[dict]:
    """Each deck: its key and label, its cards (every copy) and the pages its fronts are on."""
    pages: dict[str, list[int]] = {}
    for pl in placements:
        pages.setdefault(game.cards[pl.index].deck or game.decks[0].key, []).append(pl.front_page)
    return [{"key": d.key, "label": d.label, "cards": d.size,
             "front_pages": sorted(set(pages.get(d.key, [])))} for d in game.decks]


def manifest_bytes(manifest: dict) -> bytes:
    """The manifest as written: UTF-8 JSON, one key a line, ending in a newline."""
    return json.dumps(manifest, indent=1, ensure_ascii=False).encode("utf-8") + b"\n"
