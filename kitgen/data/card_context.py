"""What a layout's templates see of a card, and where each value came from (for messages).

A template reads the card's row: every column by its header written as a name
(``Front Name`` -> ``front_name``, ``time_cost`` -> ``time_cost``), ``fields``
(every column by its header as written: ``fields["Front Name"]``), and kitgen's
own values, which win over a column of the same name::

    name, type (its key), type_label, type_color, count, value, corner, text, art, row,
    color (the card's own colour, or ""), card_color (its own, else its type's),
    back (game.toml's [back]: title, subtitle, color, accent, text_color, art),
    game (title, subtitle, slug)
    vars (the layout's own named values, as text: ``{{ vars.colour }}``)
"""

from __future__ import annotations

import re
from typing import Any

CARD_NAMES = ("name", "type", "type_label", "type_color", "count", "value", "numeric_value", "corner", "text", "art",
              "row", "color", "card_color", "fields", "back", "game", "vars")
TEMPLATE_NAMES = frozenset(CARD_NAMES)
FIELD_OF = {"name": "name", "type": "type", "count": "count", "value": "value", "numeric_value": "value",
            "corner": "corner",
            "text": "text", "art": "art", "color": "color"}
_NOT_NAME = re.compile(r"[^0-9a-z]+")


def identifier(header: str) -> str:
    """A header as templates name it: ``'Front Name'`` -> ``'front_name'`` (letters and digits kept)."""
    name = _NOT_NAME.sub("_", header.strip().lower()).strip("_")
    return f"_{name}" if name[:1].isdigit() else name


def column_names(columns) -> dict[str, int]:
    """Template name -> column position, for every column with a header (the first of a name wins)."""
    found: dict[str, int] = {}
    for i in columns.named():
        name = identifier(columns.names[i])
        if name and name not in found:
            found[name] = i
    return found


def card_context(card, game) -> dict[str, Any]:
    """Everything a layout's template may read about ``card`` (None: a card-free drawing)."""
    back = game.back
    context: dict[str, Any] = {
        "back": {"title": back.title, "subtitle": back.subtitle, "color": back.color, "accent": back.accent,
                 "text_color": back.text_color, "art": back.art},
        "game": {"title": game.title, "subtitle": game.subtitle, "slug": game.slug},
    }
    if card is None:
        return context
    if game.sheet is not None:
        for name, i in game.layout_columns.items():
            context[name] = card.fields.cell(i)
    ctype = game.types[card.type]
    context.update(name=card.name, type=card.type, type_label=ctype.label, type_color=ctype.color,
                   count=card.count, value=card.value, numeric_value=card.numeric_value, corner=card.corner,
                   text=card.text,
                   art=card.art, row=card.row, color=card.color, card_color=card.color or ctype.color,
                   fields=card.fields)
    return context


def sources(setting, card, game) -> list[str]:
    """Where the values a setting's template reads are written: column headers (as "column 'X'") or
    game.toml keys (as "key 'types.bid.label'"), for messages."""
    found: list[str] = []

    def column(header: str) -> None:
        shown = header if header.startswith("[columns]") else f"column '{header}'"
        if shown not in found:
            found.append(shown)

    members = dict.fromkeys(setting.members)
    for name in sorted(setting.names):
        if name in FIELD_OF:
            column(game.column(FIELD_OF[name]))
        elif name in ("type_label", "type_color", "card_color"):
            declared = card is not None and card.type in game.raw.get("types", {})
            if name == "card_color" and card is not None and card.color:
                column(game.column("color"))
            elif declared:
                found.append(f"key 'types.{card.type}.{'label' if name == 'type_label' else 'color'}'")
            else:
                column(game.column("type"))
        elif name == "back":
            found += [f"key 'back.{m}'" for n, m in members if n == "back"] or ["key 'back'"]
        elif name == "game":
            found += [f"key '{m}'" for n, m in members if n == "game"]
        elif name == "fields":
            for n, m in members:
                if n == "fields" and game.sheet is not None and m in card.fields:
                    i = game.sheet.columns.find(m)
                    column(game.sheet.columns.names[i])
        elif name in game.layout_columns and game.sheet is not None:
            column(game.sheet.columns.names[game.layout_columns[name]])
    return found


def mark_used(setting, game) -> None:
    """Count the columns a layout's template reads as used (validate's note on unused columns)."""
    if game.sheet is None:
        return
    used = game.sheet.columns.used
    for name in setting.names:
        if name in game.layout_columns and name not in FIELD_OF:
            used.add(game.layout_columns[name])
    for n, m in setting.members:
        if n == "fields":
            i = game.sheet.columns.find(m)
            if i is not None:
                used.add(i)
