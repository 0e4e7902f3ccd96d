"""The card table and the component list, built from the same data that prints the cards."""

from __future__ import annotations

from dataclasses import dataclass

from kitgen.errors import GameDataError

COLUMN_TITLES = {"name": "Card", "type": "Type", "count": "Count", "value": "Value", "text": "Effect"}
DEFAULT_COLUMNS = ("name", "type", "count", "value", "text")
LISTED_TYPES = 600      # characters of the count of cards by type in the component list; beyond, types are counted


@dataclass(frozen=True)
class CardTable:
    columns: tuple[str, ...]
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    types: tuple[str, ...]          # the type key of each row, for colouring
    total: int                      # cards in the table, counting copies


def _types(game, what: str, keys) -> list[str]:
    keys = [keys] if isinstance(keys, str) else list(keys or ())
    for key in keys:
        if key not in game.types:
            raise GameDataError(f"{what}={key!r}: no such card type; game.toml declares {', '.join(game.types)}")
    return keys


def card_table(game, type: str | None = None, columns=None, exclude=None) -> CardTable:
    """Rows of the card list: one per row of the card sheet, in its order; ``exclude`` leaves out a
    type (or a list of types) listed elsewhere in the rulebook, so no table is printed twice."""
    if type is not None:
        _types(game, "card_table(type", type)
    left_out = _types(game, "card_table(exclude", exclude)
    cards = [c for c in game.cards if (type is None or c.type == type) and c.type not in left_out]
    if columns:
        cols = tuple(str(c).strip() for c in columns)
        cols = tuple(c.lower() if c.lower() in DEFAULT_COLUMNS else c for c in cols)
        for col in cols:
            if col not in DEFAULT_COLUMNS and not (cards and col in cards[0].fields):
                raise GameDataError(f"card_table(columns=...): no column {col!r} in the card sheet")
    else:
        cols = tuple(c for c in DEFAULT_COLUMNS
                     if not (c == "type" and type is not None)
                     and not (c == "value" and not any(card.value for card in cards))
                     and not (c == "text" and not any(card.text for card in cards)))
    rows = []
    for card in cards:
        cells = []
        for col in cols:
            if col == "type":
                cells.append(game.types[card.type].label)
            elif col == "count":
                cells.append(str(card.count))
            elif col in ("name", "value", "text"):
                cells.append(getattr(card, col) or ("" if col == "text" else "-"))
            else:
                cells.append(card.fields.get(col, ""))
        rows.append(tuple(cells))
    header = tuple(COLUMN_TITLES.get(c, c.replace("_", " ").title()) for c in cols)
    return CardTable(cols, header, tuple(rows), tuple(c.type for c in cards), sum(c.count for c in cards))


def select_cards(game, names=None, type=None, per_type=None) -> list:
    """The cards a rulebook shows as pictures: those named (in the order given), or every card of
    ``type``, or the first ``per_type`` cards of each type, in cards.csv order."""
    what = "show_cards"
    if names is not None:
        names = [names] if isinstance(names, str) else list(names)
        by_name = {c.name.casefold(): c for c in game.cards}
        missing = [n for n in names if str(n).casefold() not in by_name]
        if missing:
            raise GameDataError(f"{what}: no card named {missing[0]!r} in the card sheet")
        return [by_name[str(n).casefold()] for n in names]
    cards = [c for c in game.cards if c.type in _types(game, f"{what}(type", type)] if type else list(game.cards)
    if per_type is not None:
        if isinstance(per_type, bool) or not isinstance(per_type, int) or per_type < 1:
            raise GameDataError(f"{what}(per_type={per_type!r}): give a number of cards, 1 or more")
        seen: dict[str, int] = {}
        kept = []
        for card in cards:
            if seen.get(card.type, 0) < per_type:
                seen[card.type] = seen.get(card.type, 0) + 1
                kept.append(card)
        cards = kept
    return cards


@dataclass(frozen=True)
class ComponentLine:
    count: int
    name: str
    detail: str


_KIND_WORDS = {"token": "token", "tile": "tile", "mat": "mat", "score-pad": "score pad",
               "reference": "reference card"}


def component_lines(game) -> list[ComponentLine]:
    """What is in the box: the deck by type, then every component of game.toml."""
    from kitgen.units import to_mm

    by_type = [(t.label, sum(c.count for c in game.cards if c.type == k)) for k, t in game.types.items()]
    parts = ", ".join(f"{n} {label}" for label, n in by_type if n and label)
    if len(parts) > LISTED_TYPES:           # a list longer than a few lines would make a cell taller than a page
        parts = f"{sum(1 for label, n in by_type if n):,} card types"
    lines = [ComponentLine(game.deck_size, "Cards", f"one shared deck: {parts}" if parts else "one shared deck")]
    for comp in game.components:
        word = _KIND_WORDS.get(comp.kind, comp.kind)
        count = getattr(comp, "total", comp.count)
        if hasattr(comp, "faces"):
            size = f"{to_mm(comp.width):.0f} mm" if comp.shape != "rect" else \
                f"{to_mm(comp.width):.0f} x {to_mm(comp.height):.0f} mm"
            detail = f"{comp.shape} {word}, {size}"
            subtitles = sorted({f.subtitle for f in comp.faces if f.subtitle})
            if len(subtitles) > 1 and all(f.text for f in comp.faces):     # "1 point, 2 points, 5 points"
                detail += ": " + ", ".join(f"{f.text} {f.subtitle}".strip() for f in comp.faces)
            elif subtitles:
                detail += f": {', '.join(subtitles)}"
        elif comp.kind == "score-pad":
            track = getattr(comp, "track", "")
            detail = f"{word}: {comp.rounds} rounds" + (f", {track} column filled in" if track else "")
            word_count = "sheet" if count == 1 else "sheets"
            detail += f" ({count} {word_count})"
        elif comp.kind == "reference":
            detail = f"{word}: {getattr(comp, 'title', '') or comp.name}"
        else:
            detail = word
        lines.append(ComponentLine(count, comp.name, detail))
    return lines
