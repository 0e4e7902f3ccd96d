"""The columns of a card sheet: matching headers, the ``[columns]`` mapping, and each row's fields.

A sheet keeps its own headers.  game.toml's ``[columns]`` table says which
header holds each of kitgen's card fields::

    [columns]
    name = "Front Name"
    count = "Quantity"
    text = "rules_text"

Headers match ignoring case, spaces, ``_``, ``-`` and accents, so ``"Front Name"``,
``front_name`` and ``FRONT-NAME`` are one header.  A field left out of the
table is found under its own name (``count`` also as ``qty``, ``quantity`` or
``copies``; ``color`` also as ``colour``); only ``name`` is required.  Every
column, mapped or not, stays reachable from templates as ``card.fields``,
which remembers which columns were read so unused ones can be pointed out.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any, Iterator

from kitgen.errors import GameDataError
from kitgen.layout.tiling import column_letters

FIELDS = ("name", "type", "count", "value", "corner", "text", "art", "color", "face", "back", "deck")
EXPLICIT_ONLY = ("face", "back", "deck")     # mapped only when [columns] names the column
IMPLICIT = {"count": ("count", "qty", "quantity", "copies"), "color": ("color", "colour")}

# Headers `kitgen new --from` maps on its own (compared as header_key), tried in this order...
GUESSES = {
    "name": ("name", "card name", "title", "card", "card title", "nom", "nome", "titre", "titel", "titulo", "titolo",
             "名前", "カード名", "卡名", "名称"),
    "type": ("type", "types", "card type", "kind", "category", "class", "typ", "tipo", "タイプ", "種類", "类型"),
    "count": ("count", "qty", "quantity", "copies", "number of copies", "amount", "frequency", "card count",
              "anzahl", "枚数", "数量"),
    "value": ("value", "cost", "points", "score", "power", "wert", "valeur", "valor", "コスト", "费用"),
    "text": ("text", "rules text", "rules", "effect", "effects", "ability", "abilities", "description",
             "card text", "texte", "texto", "testo", "テキスト", "効果", "效果"),
    "art": ("art", "artwork", "image", "picture", "illustration", "img", "art file", "image file", "画像", "图片"),
    "color": ("color", "colour", "background color", "background colour", "frame color", "frame colour",
              "couleur", "farbe"),
    "deck": ("deck", "decks", "deck name", "pile", "paquet", "pioche", "stapel", "mazo"),
}
# ...then the first header with a word starting with one of these ("Front Name", "rules_text", "time_cost").
GUESS_WORDS = {
    "name": ("name",), "type": ("type",), "count": ("qty", "quantity", "copies", "count"),
    "value": ("cost", "value", "points"), "text": ("text", "rules", "effect", "desc"),
    "art": ("art", "image", "img", "picture"), "color": ("color", "colour"), "deck": ("deck",),
}
MAX_GUESSED_VALUE = 4        # characters: a value column holds short numbers or symbols for the corners
MAX_GUESSED_DECKS = 12       # decks a deck column may name
DISTINCT_NAMES = 0.8         # of a column's cells that differ, for it to be taken for the names


def header_key(text: str) -> str:
    """A header as it is compared: ``'Front Name'``, ``'front_name'`` and ``'FRÖNT-NAME'`` give ``'frontname'``."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed
                   if not unicodedata.combining(ch) and not ch.isspace() and ch not in "_-").casefold()


class Columns:
    """The header row of a sheet: names as written, lookup by :func:`header_key`, and columns read.
    A sheet without a header (``lettered``) names its columns A, B, ...; they are also found by
    number (1 is A)."""

    def __init__(self, names: tuple[str, ...], lettered: bool = False):
        self.names = names
        self.lettered = lettered
        self.positions: dict[str, list[int]] = {}
        for i, name in enumerate(names):
            if name:
                self.positions.setdefault(header_key(name), []).append(i)
        self.used: set[int] = set()

    def find(self, name: str | int) -> int | None:
        """The position of the column headed ``name`` (the first, if two share it), or None; in a sheet
        without a header, also of the column numbered ``name`` (1 is A)."""
        if isinstance(name, int):
            return name - 1 if 1 <= name <= len(self.names) else None
        found = self.positions.get(header_key(name))
        if found:
            return found[0]
        if self.lettered and name.strip().isdigit():
            return self.find(int(name.strip()))
        return None

    def named(self) -> list[int]:
        """Positions of the columns with a header, each header once."""
        return [found[0] for found in self.positions.values()]

    def listing(self) -> str:
        """The headers, for messages: 'Name, Qty, Rules Text'."""
        return ", ".join(self.names[i] for i in self.named()) or "(no headers)"


class Fields(Mapping):
    """One row's cells by header: ``fields["Front Name"]``, ``fields["front_name"]`` and, in a
    template, ``card.fields.front_name`` are the same cell.  Reading a cell marks its column used."""

    __slots__ = ("_columns", "_cells")

    def __init__(self, columns: Columns, cells: tuple[str, ...]):
        self._columns, self._cells = columns, cells

    def _position(self, key: Any) -> int | None:
        if isinstance(key, int) and not isinstance(key, bool):
            return self._columns.find(key) if self._columns.lettered else None
        return self._columns.find(key) if isinstance(key, str) else None

    def __getitem__(self, key: str) -> str:
        i = self._position(key)
        if i is None:
            raise KeyError(key)
        self._columns.used.add(i)
        return self.cell(i)

    def cell(self, i: int) -> str:
        """The cell of column ``i`` ("" past the row's end), without marking the column used."""
        return self._cells[i] if i < len(self._cells) else ""

    def __contains__(self, key: object) -> bool:
        return self._position(key) is not None

    def __iter__(self) -> Iterator[str]:
        return (self._columns.names[i] for i in self._columns.named())

    def __len__(self) -> int:
        return len(self._columns.positions)

    def __repr__(self) -> str:
        cells = (self.cell(i) for i in self._columns.named())
        return f"Fields({dict(zip(self, cells))!r})"      # without marking the columns used


def is_template(value: Any) -> bool:
    """Whether a text of game.toml is a template rather than plain text: a ``[columns]`` entry over the
    row rather than a column's header, a component's text over the rules (:mod:`kitgen.data.component_text`)."""
    return isinstance(value, str) and ("{{" in value or "{%" in value)


def map_columns(columns: Columns, table: Any, toml_file: str, sheet_file: str, header_row: int,
                name_required: bool = True) -> dict[str, int]:
    """Kitgen's field -> column position, from game.toml's ``[columns]`` and the headers' own names;
    fields written as templates are left to :mod:`kitgen.data.derived`."""
    if not isinstance(table, dict):
        raise GameDataError("'columns' must be a table such as [columns] name = \"Front Name\"", file=toml_file)
    mapping: dict[str, int] = {}
    taken: dict[int, str] = {}
    for field, header in table.items():
        if field not in FIELDS:
            raise GameDataError(f"unknown key 'columns.{field}' (accepted: {', '.join(FIELDS)})", file=toml_file)
        if is_template(header):
            continue                                # worked out from the row: kitgen.data.derived
        if isinstance(header, int) and not isinstance(header, bool):
            i = columns.find(header)                # the column's number: 1 is A
            if i is None:
                raise GameDataError(f"[columns] {field} = {header}: {sheet_file} has no column {header} "
                                    f"(it has {len(columns.names)})", file=toml_file)
        elif not isinstance(header, str):
            raise GameDataError(f"'columns.{field}' must be the text of a header in {sheet_file}, its number, or "
                                "a template such as \"{{ Name or 'Card ' ~ row }}\"", file=toml_file)
        elif not header.strip():
            continue                                # "" says: this sheet has no such column
        else:
            i = columns.find(header)
        if i is None:
            raise GameDataError(f"[columns] {field} = {header!r}: {sheet_file} has no such column "
                                f"(its headers: {columns.listing()})", file=toml_file)
        if len(columns.positions.get(header_key(columns.names[i]), ())) > 1:
            letters = " and ".join(column_letters(p) for p in columns.positions[header_key(columns.names[i])])
            raise GameDataError(f"[columns] {field} = {header!r}: the header names two columns "
                                f"({letters}) of {sheet_file}; rename one of them", file=toml_file)
        if i in taken:
            raise GameDataError(f"[columns] {taken[i]} and {field} both name the column {columns.names[i]!r}; "
                                "map each field to a column of its own", file=toml_file)
        mapping[field] = i
        taken[i] = field
    for field in FIELDS:
        if field in mapping or field in table or field in EXPLICIT_ONLY:
            continue
        i = implicit_column(columns, field, set(taken))
        if i is not None:
            mapping[field] = i
            taken[i] = field
    if "name" not in mapping and not is_template(table.get("name")) and name_required:
        first = columns.names[columns.named()[0]] if columns.named() else "Name"
        raise GameDataError(f"no column for the card names (its headers: {columns.listing()}); name it in "
                            f"game.toml, e.g. [columns] name = {first!r}", file=sheet_file, row=header_row)
    return mapping


def implicit_column(columns: Columns, field: str, taken: set[int]) -> int | None:
    """The column holding ``field`` when game.toml does not map it: headed by the field's own name
    (or, for count and color, one of :data:`IMPLICIT`), unless another field has it."""
    for name in IMPLICIT.get(field, (field,)):
        i = columns.find(name)
        if i is not None and i not in taken:
            return i
    return None


def guess_columns(columns: Columns, rows) -> dict[str, int]:
    """The columns ``kitgen new --from`` maps: for each field, the first header among its common
    names (:data:`GUESSES`), else the first with a word starting like it (:data:`GUESS_WORDS`), whose
    cells suit the field (whole numbers for count, short values, colours, a few decks); a column is mapped
    once.  Without a name column, the first column whose cells differ from row to row holds the names."""
    from kitgen.data.values import card_color, whole_number

    def cells(i: int) -> list[str]:
        return [c[i].strip() for _, c in rows if i < len(c) and c[i].strip()]

    def suits(field: str, i: int, exact: bool) -> bool:
        values = cells(i)
        if field == "count":              # 0 takes a card out of the deck; a blank cell is one card
            numbers = [whole_number(v) for v in values]
            if None in numbers or not any(n >= 1 for n in numbers):
                return False              # under a header named for copies, a few 0s: cards taken out;
            zeros = numbers.count(0)      # under another (a_cannonball_count), a 0 says it counts something else
            return zeros == 0 or (exact and zeros <= len(numbers) / 2)
        if field == "value":
            return all(len(v) <= MAX_GUESSED_VALUE for v in values)
        if field == "color":
            try:
                return all(card_color(v) for v in values)
            except ValueError:
                return False
        if field == "deck":               # a few short names, each shared by several cards
            return all(len(v) <= 30 for v in values) and len({v.casefold() for v in values}) <= MAX_GUESSED_DECKS
        return field != "name" or bool(values)

    def words(i: int) -> list[str]:
        decomposed = unicodedata.normalize("NFKD", columns.names[i]).casefold()
        spaced = "".join(" " if not ch.isalnum() else ch for ch in decomposed if not unicodedata.combining(ch))
        return spaced.split()

    guessed: dict[str, int] = {}
    taken: set[int] = set()
    for field in GUESSES:
        exact = [columns.find(name) for name in GUESSES[field]]
        by_word = [i for i in columns.named()
                   if any(w.startswith(stem) for w in words(i) for stem in GUESS_WORDS[field])]
        exact = [i for i in exact if i is not None]
        for i in exact + by_word:
            if i not in taken and suits(field, i, i in exact):
                guessed[field] = i
                taken.add(i)
                break
    if "art" not in guessed:           # a column of picture files (avatar: alien-stare.png) is the art
        art = picture_column(columns, rows, taken)
        if art is not None:
            guessed["art"] = art
            taken.add(art)
    if "name" not in guessed:          # the first column of names that differ from card to card, else the first
        free = [i for i in columns.named() if i not in taken]
        names = [i for i in free if cells(i) and len(set(cells(i))) >= DISTINCT_NAMES * len(cells(i))]
        if free:
            guessed = {"name": (names or free)[0], **guessed}
    return guessed


PICTURE_ENDINGS = (".png", ".jpg", ".jpeg", ".svg", ".gif", ".webp")


def picture_column(columns: Columns, rows, taken: set[int]) -> int | None:
    """The first free column whose every cell names a picture file inside the game folder (``goblin.png``,
    ``monsters/goblin.jpg``; not ``../illo/goblin.png``), PNG and JPEG before other pictures; or None."""
    from kitgen.data.paths import relative

    found: list[tuple[bool, int]] = []
    for i in range(len(columns.names)):
        values = [c[i].strip() for _, c in rows if i < len(c) and c[i].strip()]
        if i in taken or not values or not all(v.lower().endswith(PICTURE_ENDINGS) for v in values):
            continue
        try:
            for v in values:
                relative(v, "")
        except GameDataError:
            continue
        found.append((not all(v.lower().endswith((".png", ".jpg", ".jpeg")) for v in values), i))
    return min(found)[1] if found else None


FLAG_VALUES = (({"1", "0"}, "1"), ({"x"}, "x"), ({"true", "false"}, "true"), ({"yes", "no"}, "yes"),
               ({"y", "n"}, "y"))     # what a flag column holds, and the value that sets it
FLAGGED_ROWS = 0.8        # of the rows with a flag set, for flag columns to be taken for the type


def flag_columns(columns: Columns, rows, taken: set[int]) -> list[tuple[int, str]]:
    """Columns that spread the card's type over flags (Action, Treasure, Victory holding 0 or 1):
    (position, the value that sets it, as written), for two or more such columns of which most rows set
    one, and most of those just one; [] when the sheet has none."""
    found = []
    for i in columns.named():
        if i in taken:
            continue
        values = {c[i].strip() for _, c in rows if i < len(c) and c[i].strip()}
        folded = {v.casefold() for v in values}
        for kind, on in FLAG_VALUES:
            if folded and folded <= kind and on in folded:
                found.append((i, next(v for v in values if v.casefold() == on)))
                break
    if len(found) < 2:
        return []
    set_per_row = [sum(1 for i, on in found if i < len(c) and c[i].strip() == on) for _, c in rows]
    flagged = [n for n in set_per_row if n]
    if len(flagged) < FLAGGED_ROWS * max(1, len(rows)):
        return []
    # a type is one flag a card (an Action that is also an Attack is the exception): columns of which
    # most cards set several are features of the card (Address, Latency...), not its type
    return found if sorted(flagged)[len(flagged) // 2] <= 1 else []


def guess_by_content(columns: Columns, rows) -> dict[str, int]:
    """For a sheet without a header: the name (the first column of short text, mostly different
    from row to row), the text (the column of longest text that names no pictures), the type (a column
    of a few short words that repeat), the art (a column of picture files) and the colour (a column of
    colours), judged from the cells alone."""
    from kitgen.data.header import number

    def cells(i):
        return [c[i].strip() for _, c in rows if i < len(c) and c[i].strip()]

    found: dict[str, int] = {}
    stats = {}
    for i in range(len(columns.names)):
        values = cells(i)
        if not values:
            continue
        numeric = sum(number(v) is not None for v in values) / len(values)
        stats[i] = (values, numeric, sum(len(v) for v in values) / len(values), len(set(values)))
    text = [i for i, (v, num, avg, _) in stats.items() if num < 0.5 and avg > 25
            and not all(x.lower().endswith(PICTURE_ENDINGS) for x in v)]      # paths of pictures are no text
    if text:
        found["text"] = max(text, key=lambda i: stats[i][2])
    for i, (values, num, avg, distinct) in stats.items():
        if i in found.values() or num >= 0.5:
            continue
        if "name" not in found and distinct >= 0.8 * len(values):
            found["name"] = i
        elif "type" not in found and distinct <= max(2, min(12, len(values) // 2)) and avg <= 20:
            found["type"] = i
    for i, (values, num, avg, distinct) in stats.items():
        if i not in found.values() and num >= 0.9 and all(len(v) <= MAX_GUESSED_VALUE for v in values):
            found["value"] = i
            break
    art = picture_column(columns, rows, set(found.values()))
    if art is not None:
        found["art"] = art
    from kitgen.data.values import card_color

    for i, (values, num, avg, distinct) in stats.items():    # a column of colours (#FF00FF) is the frame's
        if i not in found.values() and num == 0 and all(v.startswith("#") for v in values):
            try:
                if all(card_color(v) for v in values):
                    found["color"] = i
                    break
            except ValueError:
                continue
    return found
