"""Load and validate a game folder into typed objects.

This is the only module that reads a user's game files.  Every problem is
reported as a :class:`GameDataError` naming the file, row and column; the rest
of kitgen trusts the objects returned here.  Problems in single rows of the
card sheet go to a :class:`~kitgen.data.problems.Problems` collector, so
``kitgen validate`` can list them all while ``kitgen build`` stops at the first.

A game folder holds ``game.toml``, a card sheet (``cards.csv`` unless game.toml
names another with ``data = "cards.xlsx#Deck"``), optionally ``templates/``
(the rulebook template) and ``art/`` (card art).  Built-in games keep the same
data in the package, with their templates and art under ``templates/<slug>``
and ``card_art/<slug>``.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from kitgen.data.art_files import ArtLibrary, art_name
from kitgen.data.card_context import column_names, mark_used
from kitgen.data.columns import Fields, map_columns
from kitgen.data.files import open_inside, read_toml
from kitgen.data.header import header_option
from kitgen.data.layouts import DEFAULT_BACK, DEFAULT_FACE, read_layouts
from kitgen.data.limits import MAX_CARDS
from kitgen.data.model import Back, Card, CardType, Game
from kitgen.data.paths import check_folder, control_character, inside, relative, resolve_game_dirs
from kitgen.data.problems import Problems
from kitgen.data.rulings import parse_rulings
from kitgen.data.sheet import Sheet, read_sheet, split_sheet_name
from kitgen.data.values import card_color, hex_color, right_to_left, slugify, type_colors, whole_number
from kitgen.errors import GameDataError, LimitError, OptionError
from kitgen.units import card_size

DEFAULT_DATA = ("cards.csv", "cards.tsv", "cards.xlsx")   # the card sheet when game.toml names none
MAX_COUNT = 10_000           # copies of one card; more is a typing slip, not a deck
TOP_LEVEL_KEYS = {
    "title", "slug", "subtitle", "players", "card_size", "rulebook", "back", "types",
    "components", "rules", "rulings", "simulation", "designer", "version", "fonts", "data", "columns",
    "layouts", "face", "header", "name_required", "icons", "decks",
}
MAX_TITLE = 120              # characters of the game's title
MAX_NAME = 200               # characters of a card's name
SHOWN_TYPES = 12             # undeclared types named in the warning; the rest are counted


PRINTED_KEYS = {"title", "subtitle", "label", "labels", "name", "text", "lines", "track", "caption", "designer",
                "seed", "reason"}


def printed_text(data: Any, path: str = "") -> list[tuple[str, str]]:
    """(key path, text) of every game.toml string that ends up printed, e.g. ('types.bid.label', 'Bid')."""
    found: list[tuple[str, str]] = []
    if isinstance(data, dict):
        for key, value in data.items():
            if not path and key in ("columns", "data"):
                continue                        # headers and file names of the sheet, never printed
            sub = f"{path}.{key}" if path else str(key)
            if key in PRINTED_KEYS and isinstance(value, str):
                found.append((sub, value))
            elif key in ("options", "reason") and isinstance(value, dict):   # a ruling's: value = "text"
                found.extend((f"{sub}.{k}", v) for k, v in value.items() if isinstance(v, str))
            elif key in PRINTED_KEYS and isinstance(value, list):
                found.extend((f"{sub}[{i}]", v) for i, v in enumerate(value, 1) if isinstance(v, str))
            else:
                found.extend(printed_text(value, sub))
    elif isinstance(data, list):
        for i, item in enumerate(data, 1):
            found.extend(printed_text(item, f"{path}[{i}]"))
    return found


def load_game(game_or_path: str | Path, problems: Problems | None = None) -> Game:
    """Read and validate a game given by built-in slug or by folder.

    A bad row of the card sheet raises at once, unless ``problems`` collects
    (``Problems(collect=True)``): then the row is reported there and left out.
    """
    problems = problems if problems is not None else Problems()
    root, template_dir, art_dir, builtin = resolve_game_dirs(game_or_path)
    label = (lambda name: f"{game_or_path}/{name}") if builtin else (lambda name: str(root / name))
    toml_file = label("game.toml")
    if not builtin:
        for folder in (template_dir, art_dir):
            check_folder(root, folder, label(folder.name))
    data = read_toml(root, "game.toml", toml_file)
    name, sheet_name = _data_file(data, root, toml_file)
    raw = open_inside(root, name, label(name))
    header = header_option(data.get("header"), toml_file)
    sheet = read_sheet(inside(root, name, label(name)), label(name), sheet_name, problems, raw=raw, header=header)
    game = _build_game(data, sheet, root, template_dir, art_dir, builtin, toml_file, problems)
    _check_art(game, toml_file, problems)
    return game


# --- reading files ---------------------------------------------------------

def _data_file(data: dict, root: Path, where: str) -> tuple[str, str | None]:
    """(file name, sheet name or None) of the card sheet: game.toml's ``data``, else the first of
    cards.csv, cards.tsv and cards.xlsx that exists."""
    if "data" not in data:
        return next((n for n in DEFAULT_DATA if (root / n).is_file()), DEFAULT_DATA[0]), None
    value = data["data"]
    if not isinstance(value, str) or not value.strip():
        raise GameDataError("'data' must name the card sheet, e.g. data = \"cards.xlsx\" or "
                            "\"cards.xlsx#Deck\" for one sheet of a workbook", file=where)
    name, sheet = split_sheet_name(value.strip())
    if sheet is not None and not sheet.strip():
        raise GameDataError(f"'data' = {value!r}: name the sheet after '#', or leave out the '#'", file=where)
    return name, sheet


# --- validating --------------------------------------------------------------

def _str(data: dict, key: str, where: str, default: str | None = None, section: str = "") -> str:
    value = data.get(key, default)
    name = f"{section}.{key}" if section else key
    if value is None:
        raise GameDataError(f"missing required key '{name}'", file=where)
    if not isinstance(value, str):
        raise GameDataError(f"'{name}' must be text, not {type(value).__name__}", file=where)
    return value


def _color(data: dict, key: str, where: str, default: str, section: str) -> str:
    try:
        return hex_color(_str(data, key, where, default, section), f"{section}.{key}")
    except ValueError as exc:
        raise GameDataError(str(exc), file=where) from None


def _players(value: Any, where: str) -> tuple[int, int, int]:
    """(min, max, usual): ``usual`` is the top of the count the game is made for when more may play
    ("2-4+ (up to 16)" is ``{min = 2, usual = 4, max = 16}``); it equals max when not given."""
    usual = None
    if isinstance(value, int) and not isinstance(value, bool):
        lo = hi = value
    elif isinstance(value, dict):
        unknown = sorted(set(value) - {"min", "max", "usual"})
        if unknown:
            raise GameDataError(f"'players': unknown key {unknown[0]!r} (accepted: min, max, usual)", file=where)
        lo, hi = value.get("min"), value.get("max", value.get("min"))
        usual = value.get("usual")
    elif isinstance(value, str) and re.fullmatch(r"\s*\d+\s*(-\s*\d+\s*)?", value):
        parts = [int(p) for p in value.split("-")]
        lo, hi = parts[0], parts[-1]
    else:
        raise GameDataError("'players' must be a number, \"2-4\" or {min = 2, max = 4}", file=where)
    usual = hi if usual is None else usual
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (lo, hi, usual)) \
            or not 1 <= lo <= usual <= hi:
        raise GameDataError("'players' must give whole numbers with 1 <= min <= usual <= max", file=where)
    return lo, hi, usual


def _card_size(data: dict, where: str) -> str:
    """game.toml's ``card_size``, checked once here: every later reader of it can trust it."""
    size = _str(data, "card_size", where, "poker")
    try:
        card_size(size)
    except OptionError as exc:
        raise GameDataError(f"'card_size': {exc.message}", file=where) from None
    return size


def _types(data: dict, where: str) -> dict[str, CardType]:
    """The types game.toml declares (none is fine: the sheet's types then get colours of their own)."""
    table = data.get("types", {})
    if not isinstance(table, dict):
        raise GameDataError("'types' must be tables such as [types.bid] with label and color", file=where)
    types = {}
    for key, spec in table.items():
        if not isinstance(spec, dict):
            raise GameDataError(f"'types.{key}' must be a table with label and color", file=where)
        section = f"types.{key}"
        _known_keys(spec, TYPE_KEYS, section, where)
        types[key] = CardType(key=key, label=_str(spec, "label", where, key.title(), section),
                              color=_color(spec, "color", where, "#555555", section),
                              face=_str(spec, "face", where, "", section), back=_str(spec, "back", where, "", section))
    return types


TYPE_KEYS = {"label", "color", "face", "back"}
BACK_KEYS = {"title", "subtitle", "color", "accent", "text_color", "art", "layout"}


def _known_keys(table: dict, allowed: set[str], section: str, where: str) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise GameDataError(f"unknown key '{section}.{unknown[0]}' (accepted in [{section}]: "
                            f"{', '.join(sorted(allowed))})", file=where)


def _back(data: dict, title: str, where: str) -> Back:
    spec = data.get("back", {})
    if not isinstance(spec, dict):
        raise GameDataError("'back' must be a table", file=where)
    _known_keys(spec, BACK_KEYS, "back", where)
    return Back(title=_str(spec, "title", where, title, "back"),
                subtitle=_str(spec, "subtitle", where, "", "back"),
                color=_color(spec, "color", where, "#2f3e46", "back"),
                accent=_color(spec, "accent", where, "#e9c46a", "back"),
                text_color=_color(spec, "text_color", where, "#ffffff", "back"),
                art=_str(spec, "art", where, "", "back"),
                layout=_str(spec, "layout", where, DEFAULT_BACK, "back"))


def _cards(sheet: Sheet, mapping: dict[str, int], declared: dict[str, CardType], game_toml: str,
           problems: Problems, layouts: dict, derived: list | None = None,
           name_required: bool = True) -> tuple[tuple[Card, ...], dict[str, CardType], list[str]]:
    """The cards of every good row, the card types (declared ones first, then those found in the
    sheet), and warnings; a bad row is reported to ``problems`` and left out."""
    from kitgen.data.derived import RowFields

    names = sheet.columns.names
    header = {field: names[i] for field, i in mapping.items()}
    header.update((d.field, d.key) for d in derived or ())
    worked_out = RowFields(derived or [], sheet.columns, mapping, sheet.file)
    type_col = mapping.get("type") if "type" in mapping else ("type" if "type" in header else None)
    if type_col is None and len(declared) > 1:
        raise GameDataError(f"game.toml declares {len(declared)} card types ({', '.join(declared)}) but "
                            f"{sheet.file} has no type column; name it: [columns] type = \"...\"", file=game_toml)
    lookup: dict[str, str] = {}
    for key, ctype in declared.items():
        lookup.setdefault(key.casefold(), key)
        lookup.setdefault(ctype.label.strip().casefold(), key)
    found: dict[str, str] = {}        # types the sheet uses but game.toml does not declare: key -> label
    untyped: list[int] = []
    left_out: list[int] = []          # rows whose count is 0
    cards = []
    for row, cells in sheet.rows:
        fields = Fields(sheet.columns, cells)
        values = worked_out.values(row, cells, fields) if derived else {}
        if isinstance(values, GameDataError):
            problems.add(values)
            continue

        def cell(field: str) -> str:
            if field in values:
                return values[field]
            i = mapping.get(field)
            return cells[i] if i is not None and i < len(cells) else ""

        def problem(message: str, field: str) -> None:
            errors.append(GameDataError(message, file=sheet.file, row=row, column=header[field]))

        errors: list[GameDataError] = []
        count, count_text = 1, cell("count").strip() if "count" in header else ""
        if count_text:                    # a blank count is one card, as a sheet without a count column
            number = whole_number(count_text)
            if number is None:
                problem(f"count {count_text!r} is not a whole number (0 leaves the row out of the deck)", "count")
            elif number > MAX_COUNT:
                problem(f"count {count_text} is more than {MAX_COUNT:,} copies of one card", "count")
            elif number == 0:             # a card taken out of the deck but kept in the sheet
                left_out.append(row)
                continue
            else:
                count = number
        name = " ".join(cell("name").split())     # a name over two lines of its cell wraps as its box needs
        invisible = control_character(name)
        if not name and name_required:
            problem("missing card name (name_required = false in game.toml lets a card go without one)", "name")
        elif invisible:
            problem(f"the name holds the invisible character {invisible}; a name that looks the same "
                    "as another must be the same", "name")
        elif len(name) > MAX_NAME:
            problem(f"the name is {len(name):,} characters long; a card's name is at most {MAX_NAME} (it prints "
                    "on a line or two of its card); put longer text in another column", "name")
        for field in ("name", "text", "value", "corner"):
            rtl = right_to_left(cell(field))
            if rtl:
                problem(rtl, field)
        color = cell("color").strip()
        if color:
            try:
                color = card_color(color)
            except ValueError as exc:
                problem(str(exc), "color")
        chosen = {}
        for side in ("face", "back"):
            chosen[side] = cell(side).strip()
            if chosen[side] and chosen[side] not in layouts:
                problem(f"no layout named {chosen[side]!r} (layouts: {', '.join(sorted(layouts))})", side)
        art = art_name(cell("art").strip())
        if art:
            try:
                relative(art, "")           # the art library follows symlinks when it opens the file
            except GameDataError as exc:
                problem(exc.message, "art")
        for error in errors:
            problems.add(error)
        if errors:
            continue
        if type_col is None:
            key = next(iter(declared), "")
        else:
            type_text = cell("type").strip()
            key = lookup.get(type_text.casefold())
            if key is None:
                key = lookup[type_text.casefold()] = type_text
                found[key] = type_text
            if not type_text:
                untyped.append(row)
        cards.append(Card(name=name, type=key, count=count, value=cell("value").strip(),
                          text=cell("text").strip(), art=art, row=row, fields=fields,
                          color=color, face=chosen["face"], back=chosen["back"], corner=cell("corner").strip(),
                          deck=cell("deck").strip()))
    if type_col is None and not declared:
        found[""] = ""
    colors = type_colors(len(found), {t.color for t in declared.values()})
    types = dict(declared)
    types.update((key, CardType(key=key, label=label, color=c)) for (key, label), c in zip(found.items(), colors))
    warnings = _type_warnings(sheet, header.get("type"), types, found, untyped)
    if left_out:
        shown = ", ".join(str(r) for r in left_out[:10]) + (", ..." if len(left_out) > 10 else "")
        rows = f"row {shown} has a count of 0 and prints" if len(left_out) == 1 else \
            f"{len(left_out)} rows have a count of 0 (rows {shown}) and print"
        warnings.append(f"{sheet.file}, {_column_text(header['count'])}: {rows} no card")
    return tuple(cards), types, warnings


def _column_text(column: str) -> str:
    """A column as messages name it: "column 'Kind'", or the key that works it out ("[columns] type")."""
    return column if column.startswith("[columns]") else f"column {column!r}"


def _type_warnings(sheet: Sheet, column: str | None, types: dict[str, CardType], found: dict[str, str],
                   untyped: list[int]) -> list[str]:
    warnings = []
    named = [key for key in found if key]
    if column is not None and named:
        shown = ", ".join(f"{key} ({types[key].color})" for key in named[:SHOWN_TYPES])
        more = f" and {len(named) - SHOWN_TYPES} more" if len(named) > SHOWN_TYPES else ""
        kinds = "type is" if len(named) == 1 else "types are"
        warnings.append(f"{sheet.file}, {_column_text(column)}: {len(named)} card {kinds} not declared in game.toml, "
                        f"so kitgen chose colours: {shown}{more}; declare them as [types.KEY] with "
                        "label and color to choose your own")
    if untyped:
        rows = ", ".join(str(r) for r in untyped[:10]) + (", ..." if len(untyped) > 10 else "")
        warnings.append(f"{sheet.file}, {_column_text(column)}: {len(untyped)} rows have no type (rows {rows}); "
                        "their cards print no type line")
    return warnings


def _build_game(data, sheet: Sheet, root, template_dir, art_dir, builtin, toml_file: str,
                problems: Problems) -> Game:
    unknown = sorted(set(data) - TOP_LEVEL_KEYS)
    if unknown:
        raise GameDataError(f"unknown key '{unknown[0]}' (accepted: {', '.join(sorted(TOP_LEVEL_KEYS))})",
                            file=toml_file)
    title = _str(data, "title", toml_file)
    if not title.strip():
        raise GameDataError("'title' must not be empty", file=toml_file)
    if len(title) > MAX_TITLE:
        raise GameDataError(f"'title' is {len(title)} characters long; a title of at most {MAX_TITLE} fits the "
                            "card backs and the rulebook's cover", file=toml_file)
    slug = slugify(_str(data, "slug", toml_file, title))
    lo, hi, usual = _players(data.get("players", "2-4"), toml_file)
    size = _card_size(data, toml_file)
    declared = _types(data, toml_file)
    rulebook = _str(data, "rulebook", toml_file, "")
    if rulebook:
        inside(root if not builtin else template_dir, rulebook, f"{toml_file}, key 'rulebook'", base=template_dir)
    for key in ("rules", "rulings", "simulation"):
        if not isinstance(data.get(key, {}), dict):
            raise GameDataError(f"'{key}' must be a table", file=toml_file)
    parse_rulings(data.get("rulings", {}), toml_file)
    if len(sheet.rows) > MAX_CARDS:          # every row is one card at least: refused before reading them
        raise LimitError(f"the sheet has {len(sheet.rows):,} rows of cards; kitgen prints at most "
                         f"{MAX_CARDS:,} cards", file=sheet.file)
    name_required = data.get("name_required", True)
    if not isinstance(name_required, bool):
        raise GameDataError("'name_required' must be true or false", file=toml_file)
    table = data.get("columns", {})
    mapping = map_columns(sheet.columns, table, toml_file, sheet.file, sheet.header_row, name_required)
    from kitgen.data.derived import derived_fields

    derived = derived_fields(table, sheet.columns, mapping, toml_file)
    layouts = read_layouts(data, None if builtin else root, toml_file, sheet.columns)
    face = _str(data, "face", toml_file, DEFAULT_FACE)
    back = _back(data, title, toml_file)
    for key, name in [("face", face), ("[back] layout", back.layout)] + [
            (f"types.{k}.{side}", getattr(t, side)) for k, t in declared.items() for side in ("face", "back")]:
        if name and name not in layouts:
            raise GameDataError(f"'{key}' = {name!r}: no such layout (layouts: {', '.join(sorted(layouts))})",
                                file=toml_file)
    from kitgen.data.icons import IconLibrary, check_tokens, icon_table

    icon_map = icon_table(data, toml_file)
    check_tokens(icon_map, IconLibrary(None if builtin else root), toml_file)
    cards, types, warnings = _cards(sheet, mapping, declared, toml_file, problems, layouts, derived, name_required)
    from kitgen.data.decks import assign_decks

    deck_column = next((d.key for d in derived if d.field == "deck"), None) or (
        f"column '{sheet.columns.names[mapping['deck']]}'" if "deck" in mapping else None)
    cards, decks = assign_decks(cards, types, back.layout, data, slug, title, toml_file,
                                sheet.file, deck_column)
    if not cards:
        problems.raise_all()          # every row was bad: those are the problems to show
        raise GameDataError("every row has a count of 0: there is no card to print", file=sheet.file)
    deck = sum(card.count for card in cards)
    if deck > MAX_CARDS:
        raise LimitError(f"the deck has {deck:,} cards (counting every copy); kitgen prints at most "
                            f"{MAX_CARDS:,}", file=sheet.file)
    from kitgen.data.components import parse_components  # kept apart: one parser per component kind

    game = Game(slug=slug, title=title, subtitle=_str(data, "subtitle", toml_file, ""),
                players_min=lo, players_max=hi, players_usual=usual,
                card_size=size, rulebook=rulebook,
                types=types, cards=cards, back=back, components=(),
                rules=dict(data.get("rules", {})), rulings=dict(data.get("rulings", {})),
                root=root, template_dir=template_dir, art_dir=art_dir, builtin=builtin, raw=data,
                sheet=sheet, mapping=mapping, derived={d.field: d.key for d in derived},
                warnings=tuple(warnings), layouts=layouts, face=face, deck_list=decks, icon_map=icon_map,
                layout_columns=column_names(sheet.columns))
    for layout in layouts.values():          # every template a layout holds: its boxes', fallbacks' and vars'
        for box in layout.boxes:
            for settings in (box.settings, *box.fallback, *box.fallback_vars):
                for setting in settings.values():
                    mark_used(setting, game)
        for setting in layout.vars.values():
            mark_used(setting, game)
    components = parse_components(data.get("components", []), game, toml_file)
    if game.back.art:
        relative(game.back.art, f"{toml_file}, key 'back.art'")
    return replace(game, components=tuple(components), art=ArtLibrary(art_dir, art_dir if builtin else root))


def _check_art(game: Game, toml_file: str, problems: Problems) -> None:
    """Find and decode every art file the game uses, once, as it loads (validate does this too)."""
    art = game.art
    uses = [(card.art, f"{game.sheet.file}, row {card.row}, column '{game.column('art')}'")
            for card in game.cards if card.art]
    if game.back.art:
        uses.append((game.back.art, f"{toml_file}, key 'back.art'"))
    for component in game.components:
        for face in getattr(component, "faces", ()):
            if face.art:
                uses.append((face.art, f"{component.where}, 'art'"))
        for i, area in enumerate(getattr(component, "areas", ()), start=1):
            if area.art:
                uses.append((area.art, f"{component.where}, area {i}, 'art'"))
    for name, where in uses:
        with problems.check():
            art.find(name, where)
