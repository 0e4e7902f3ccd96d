"""Load and validate a game folder into typed objects.

This is the only module that reads a user's game files.  Every problem is
reported as a :class:`GameDataError` naming the file, row and column; the rest
of kitgen trusts the objects returned here.

A game folder holds ``game.toml``, ``cards.csv``, optionally ``templates/``
(the rulebook template) and ``art/`` (card art).  Built-in games keep the same
data in the package, with their templates and art under ``templates/<slug>``
and ``card_art/<slug>``.
"""

from __future__ import annotations

import csv
import io
import re
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any

from kitgen.data.model import Back, Card, CardType, Game
from kitgen.data.paths import contained, resolve_game_dirs
from kitgen.data.values import hex_color, slugify
from kitgen.errors import GameDataError

REQUIRED_COLUMNS = ("name", "type", "count")
MAX_COUNT = 10_000           # copies of one card; more is a typing slip, not a deck
TOP_LEVEL_KEYS = {
    "title", "slug", "subtitle", "players", "card_size", "rulebook", "back", "types",
    "components", "rules", "rulings", "designer", "version", "fonts",
}


PRINTED_KEYS = {"title", "subtitle", "label", "labels", "name", "text", "lines", "track", "caption", "designer"}


def printed_text(data: Any, path: str = "") -> list[tuple[str, str]]:
    """(key path, text) of every game.toml string that ends up printed, e.g. ('types.bid.label', 'Bid')."""
    found: list[tuple[str, str]] = []
    if isinstance(data, dict):
        for key, value in data.items():
            sub = f"{path}.{key}" if path else str(key)
            if key in PRINTED_KEYS and isinstance(value, str):
                found.append((sub, value))
            elif key in PRINTED_KEYS and isinstance(value, list):
                found.extend((f"{sub}[{i}]", v) for i, v in enumerate(value, 1) if isinstance(v, str))
            else:
                found.extend(printed_text(value, sub))
    elif isinstance(data, list):
        for i, item in enumerate(data, 1):
            found.extend(printed_text(item, f"{path}[{i}]"))
    return found


def load_game(game_or_path: str | Path) -> Game:
    """Read and validate a game given by built-in slug or by folder."""
    root, template_dir, art_dir, builtin = resolve_game_dirs(game_or_path)
    label = (lambda name: f"{game_or_path}/{name}") if builtin else (lambda name: str(root / name))
    toml_file, csv_file = label("game.toml"), label("cards.csv")
    data = _read_toml(root / "game.toml", toml_file)
    return _build_game(data, _read_csv(root / "cards.csv", csv_file), root, template_dir, art_dir,
                       builtin, toml_file, csv_file)


# --- reading files ---------------------------------------------------------

def _read_bytes(path: Path, where: str) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise GameDataError("file not found", file=where) from None
    except IsADirectoryError:
        raise GameDataError("is a folder, expected a file", file=where) from None
    except OSError as exc:
        raise GameDataError(f"cannot read file ({exc.strerror})", file=where) from None


def _decode(raw: bytes, where: str) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise GameDataError(
            f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start}); "
            "save it as UTF-8 (\"CSV UTF-8\" in spreadsheet programs)", file=where) from None


def _read_toml(path: Path, where: str) -> dict[str, Any]:
    text = _decode(_read_bytes(path, where), where)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise GameDataError(f"bad TOML: {exc}", file=where) from None


def _read_csv(path: Path, where: str) -> list[tuple[int, dict[str, str]]]:
    text = _decode(_read_bytes(path, where), where)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    rows: list[list[str]] = []
    try:
        for row in reader:
            rows.append(row)
    except csv.Error as exc:
        hint = "; a quoted field is never closed" if "end of data" in str(exc) else ""
        raise GameDataError(f"malformed CSV: {exc}{hint}", file=where, row=len(rows) + 1) from None
    if not rows or not any(cell.strip() for cell in rows[0]):
        raise GameDataError("empty file; the first row must name the columns "
                            f"({', '.join(REQUIRED_COLUMNS)}, ...)", file=where)
    header = [h.strip().lower() for h in rows[0]]
    for col in REQUIRED_COLUMNS:
        if col not in header:
            raise GameDataError(f"missing required column '{col}' (the header row has: "
                                f"{', '.join(h for h in header if h)})", file=where, row=1)
    seen = set()
    for i, h in enumerate(header):
        if h and h in seen:
            raise GameDataError(f"column '{h}' appears twice in the header", file=where, row=1)
        seen.add(h)
    records = []
    for number, cells in enumerate(rows[1:], start=2):
        if not any(c.strip() for c in cells):
            continue  # blank lines a spreadsheet leaves at the end
        if len(cells) > len(header) and any(c.strip() for c in cells[len(header):]):
            raise GameDataError(f"{len(cells)} fields but the header names {len(header)} columns "
                                "(a comma inside a value needs quotes)", file=where, row=number)
        record = {h: (cells[i] if i < len(cells) else "") for i, h in enumerate(header) if h}
        records.append((number, record))
    if not records:
        raise GameDataError("no cards: add one row per kind of card below the header", file=where)
    return records


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


def _players(value: Any, where: str) -> tuple[int, int]:
    if isinstance(value, int) and not isinstance(value, bool):
        lo = hi = value
    elif isinstance(value, dict):
        lo, hi = value.get("min"), value.get("max", value.get("min"))
    elif isinstance(value, str) and re.fullmatch(r"\s*\d+\s*(-\s*\d+\s*)?", value):
        parts = [int(p) for p in value.split("-")]
        lo, hi = parts[0], parts[-1]
    else:
        raise GameDataError("'players' must be a number, \"2-4\" or {min = 2, max = 4}", file=where)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (lo, hi)) or not 1 <= lo <= hi:
        raise GameDataError("'players' must give whole numbers with 1 <= min <= max", file=where)
    return lo, hi


def _types(data: dict, where: str) -> dict[str, CardType]:
    table = data.get("types")
    if not isinstance(table, dict) or not table:
        raise GameDataError("declare the card types, e.g. [types.bid] with label and color", file=where)
    types = {}
    for key, spec in table.items():
        if not isinstance(spec, dict):
            raise GameDataError(f"'types.{key}' must be a table with label and color", file=where)
        section = f"types.{key}"
        types[key] = CardType(key=key, label=_str(spec, "label", where, key.title(), section),
                              color=_color(spec, "color", where, "#555555", section))
    return types


def _back(data: dict, title: str, where: str) -> Back:
    spec = data.get("back", {})
    if not isinstance(spec, dict):
        raise GameDataError("'back' must be a table", file=where)
    return Back(title=_str(spec, "title", where, title, "back"),
                subtitle=_str(spec, "subtitle", where, "", "back"),
                color=_color(spec, "color", where, "#2f3e46", "back"),
                accent=_color(spec, "accent", where, "#e9c46a", "back"),
                text_color=_color(spec, "text_color", where, "#ffffff", "back"),
                art=_str(spec, "art", where, "", "back"))


def _cards(records, types: dict[str, CardType], where: str) -> tuple[Card, ...]:
    by_fold = {k.casefold(): k for k in types}
    cards, names = [], {}
    for row, rec in records:
        name = rec["name"].strip()
        if not name:
            raise GameDataError("missing card name", file=where, row=row, column="name")
        if name.casefold() in names:
            raise GameDataError(f"duplicate card name {name!r} (also on row {names[name.casefold()]})",
                                file=where, row=row, column="name")
        names[name.casefold()] = row
        type_text = rec["type"].strip()
        key = by_fold.get(type_text.casefold())
        if key is None:
            raise GameDataError(f"unknown card type {type_text!r}; game.toml declares "
                                f"{', '.join(types)}", file=where, row=row, column="type")
        count_text = rec["count"].strip()
        if not re.fullmatch(r"[0-9]+", count_text) or int(count_text) < 1:
            raise GameDataError(f"count {count_text!r} is not a whole number >= 1",
                                file=where, row=row, column="count")
        if int(count_text) > MAX_COUNT:
            raise GameDataError(f"count {count_text} is more than {MAX_COUNT:,} copies of one card",
                                file=where, row=row, column="count")
        art = rec.get("art", "").strip()
        cards.append(Card(name=name, type=key, count=int(count_text),
                          value=rec.get("value", "").strip(), text=rec.get("text", "").strip(),
                          art=art, row=row, fields=dict(rec)))
    return tuple(cards)


def _build_game(data, records, root, template_dir, art_dir, builtin, toml_file, csv_file) -> Game:
    unknown = sorted(set(data) - TOP_LEVEL_KEYS)
    if unknown:
        raise GameDataError(f"unknown key '{unknown[0]}' (accepted: {', '.join(sorted(TOP_LEVEL_KEYS))})",
                            file=toml_file)
    title = _str(data, "title", toml_file)
    if not title.strip():
        raise GameDataError("'title' must not be empty", file=toml_file)
    slug = slugify(_str(data, "slug", toml_file, title))
    lo, hi = _players(data.get("players", "2-4"), toml_file)
    types = _types(data, toml_file)
    rulebook = _str(data, "rulebook", toml_file, "")
    if rulebook:
        contained(template_dir, rulebook, toml_file)
    for key in ("rules", "rulings"):
        if not isinstance(data.get(key, {}), dict):
            raise GameDataError(f"'{key}' must be a table", file=toml_file)
    cards = _cards(records, types, csv_file)
    from kitgen.data.components import parse_components  # kept apart: one parser per component kind

    game = Game(slug=slug, title=title, subtitle=_str(data, "subtitle", toml_file, ""),
                players_min=lo, players_max=hi,
                card_size=_str(data, "card_size", toml_file, "poker"), rulebook=rulebook,
                types=types, cards=cards, back=_back(data, title, toml_file), components=(),
                rules=dict(data.get("rules", {})), rulings=dict(data.get("rulings", {})),
                root=root, template_dir=template_dir, art_dir=art_dir, builtin=builtin, raw=data)
    components = parse_components(data.get("components", []), game, toml_file)
    for card in cards:
        if card.art:
            game.art_path(card.art, f"{csv_file}, row {card.row}, column 'art'")
    if game.back.art:
        game.art_path(game.back.art, toml_file)
    return replace(game, components=tuple(components))
