"""manifest.json: every printed card copy with its page and trim box."""

from __future__ import annotations

from kitgen.layout.sheet import Placement
from kitgen.units import to_mm


def sheet_manifest(game, layout, placements: list[Placement], pages: int, paper_name: str, *,
                   layout_name: str, duplex: str, fold: dict | None = None,
                   back_rotation: int | None = None) -> dict:
    """manifest.json: the sheet settings, then every card copy with its front and back boxes.

    ``layout`` is a SheetLayout or a GutterfoldLayout (anything with page, card, bleed, per_page).
    """
    rotation = {} if back_rotation is None else {"rotation": back_rotation}
    manifest = {
        "game": game.slug,
        "title": game.title,
        "paper": paper_name,
        "layout": layout_name,
        "page_size": [round(layout.page.width, 3), round(layout.page.height, 3)],
        "card_size_mm": [round(to_mm(layout.card.width), 3), round(to_mm(layout.card.height), 3)],
        "bleed_mm": round(to_mm(layout.bleed), 3),
        "duplex": duplex,
    }
    if fold is not None:
        manifest["fold"] = fold
    manifest["pages"] = pages
    manifest["cards_per_page"] = layout.per_page
    manifest["cards"] = [{"name": game.cards[pl.index].name, "copy": pl.copy,
                          "front": {"page": pl.front_page, "box": pl.front.box()},
                          "back": {"page": pl.back_page, "box": pl.back.box(), **rotation}}
                         for pl in placements]
    return manifest


def _sheet_of_back(page: int, placements: list[Placement]) -> int:
    fronts = sorted({pl.front_page for pl in placements})
    front = next(pl.front_page for pl in placements if pl.back_page == page)
    return fronts.index(front) + 1
