"""Reading a card sheet: CSV (comma, semicolon, tab or vertical bar, sniffed), TSV or an XLSX workbook.

Every format gives the same :class:`Sheet`: the header row, then each row's
cells as text with the row's number as a spreadsheet shows it (the header is
row 1 when it is the sheet's first row).  Blank rows are left out, and so are
comment rows (only the first cell filled, starting with ``#``).  A problem in
one row (too many fields) is reported to the :class:`Problems` collector while
the other rows are read on.

Which row is the header is found (:mod:`kitgen.data.header`) unless game.toml
says it (``header = 3``, ``header = false``): a sheet whose first row holds
values has no header, and its columns are named by their letters (A, B, ...).
"""

from __future__ import annotations

import csv
import io
import unicodedata
from dataclasses import dataclass, replace
from pathlib import Path

from kitgen.data.columns import Columns
from kitgen.data.files import decode_text, read_bytes
from kitgen.data.gc_pause import gc_paused
from kitgen.data.header import HeaderChoice, choose_header
from kitgen.data.problems import Problems
from kitgen.errors import GameDataError
from kitgen.layout.tiling import column_letters

DELIMITERS = {",": "commas", ";": "semicolons", "\t": "tabs", "|": "vertical bars"}   # "|": pycard's and SQL exports'
XLSX_SUFFIXES = (".xlsx", ".xlsm")
TSV_SUFFIXES = (".tsv", ".tab")
OTHER_SPREADSHEETS = (".xls", ".ods", ".numbers", ".xlsb")
SNIFF_RECORDS = 20           # records read to find the header when sniffing the separator


@dataclass(frozen=True)
class Sheet:
    file: str                                   # how messages name it: the file, and the sheet of a workbook
    format: str                                 # e.g. "CSV separated by semicolons", for validate's summary
    columns: Columns
    header_row: int
    rows: tuple[tuple[int, tuple[str, ...]], ...]   # (row number, cells), blank rows left out
    notes: tuple[str, ...] = ()                 # things worth knowing that are not mistakes
    header: HeaderChoice | None = None          # which row was taken as the header, and why
    sheets: tuple[str, ...] = ()                # a workbook's sheets, in order (the one read among them)

    @property
    def has_header(self) -> bool:
        return self.header is None or self.header.row is not None

    @property
    def header_line(self) -> str:
        """Which row is the header and why, in a few words: "header on row 1", "no header row: ..."."""
        return self.header.why if self.header is not None else f"header on row {self.header_row}"


def split_sheet_name(data: str) -> tuple[str, str | None]:
    """``"cards.xlsx#Deck"`` -> ``("cards.xlsx", "Deck")``; a name without ``#`` names no sheet."""
    file, sep, sheet = data.partition("#")
    return file, (sheet if sep else None)


def read_sheet(path: Path, where: str, sheet: str | None = None, problems: Problems | None = None,
               raw: bytes | None = None, header: int | bool | None = None) -> Sheet:
    """The sheet at ``path`` (``where`` names it in messages; ``sheet``: a workbook's sheet).

    ``raw``: the file's bytes, already read (a game's sheet is read by
    :func:`~kitgen.data.files.open_inside`); without them the file is read here.
    ``header``: the row number of the header, False for none, None to find it.
    """
    problems = problems if problems is not None else Problems()
    suffix = path.suffix.lower()
    if suffix in OTHER_SPREADSHEETS:
        raise GameDataError(f"kitgen reads .xlsx workbooks, .csv and .tsv files, not {suffix}; save the sheet "
                            "as .xlsx or as CSV UTF-8 from the spreadsheet program", file=where)
    if suffix in XLSX_SUFFIXES:
        from kitgen.data.xlsx import read_xlsx  # loads python-calamine only for workbooks

        book = read_xlsx(read_bytes(path, where) if raw is None else raw, where, sheet)
        file = f"{where}, sheet {book.name!r}"
        formulas = book.formulas
        result = _sheet(file, "XLSX workbook", book.rows, problems, fields_may_spill=False, bad_rows=formulas.rows,
                        header=header)
        names = result.columns.names
        if formulas.more:
            total = len(formulas.found) + formulas.more
            problems.add(GameDataError(f"{total:,} formula cells have no saved value or give an error, in rows "
                                       f"{min(formulas.rows):,} to {max(formulas.rows):,} (the first "
                                       f"{len(formulas.found)} are named one by one)", file=file))
        for row, column, message in formulas.found:
            header = names[column] if column < len(names) and names[column] else column_letters(column)
            problems.add(GameDataError(message, file=file, row=row, column=header))
        return replace(result, sheets=book.sheets)
    if sheet is not None:
        raise GameDataError(f"'#{sheet}' names a sheet, but only an .xlsx workbook has sheets", file=where)
    if raw is None:
        raw = read_bytes(path, where)
    if raw.startswith(b"PK\x03\x04"):
        raise GameDataError("this is a zip archive (an XLSX workbook?), not a text file; give it the "
                            "ending .xlsx", file=where)
    text = decode_text(raw, where)
    if suffix in TSV_SUFFIXES:
        delimiter, kind = "\t", "TSV (separated by tabs)"
    else:
        delimiter = sniff_delimiter(text)
        kind = f"CSV separated by {DELIMITERS[delimiter]}"
    return _sheet(where, kind, _csv_rows(text, delimiter, where), problems, fields_may_spill=True, header=header)


def sniff_delimiter(text: str) -> str:
    """The separator (comma, semicolon, tab or vertical bar) that splits the first non-blank record into most
    fields; on a tie, the first of :data:`DELIMITERS`."""
    best, most = ",", 1
    for delimiter in DELIMITERS:
        reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
        try:
            for _, record in zip(range(SNIFF_RECORDS), reader):
                if any(cell.strip() for cell in record):
                    if len(record) > most:
                        best, most = delimiter, len(record)
                    break
        except csv.Error:
            continue
    return best


@gc_paused()               # a list, a tuple and strings a row: nothing a cycle could hold
def _csv_rows(text: str, delimiter: str, where: str) -> list[tuple[int, list[str]]]:
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    rows: list[tuple[int, list[str]]] = []
    try:
        rows.extend(enumerate(reader, start=1))        # keeps the records read before a malformed one
    except csv.Error as exc:
        hint = "; a quoted field is never closed" if "end of data" in str(exc) else ""
        raise GameDataError(f"malformed CSV: {exc}{hint}", file=where, row=len(rows) + 1) from None
    return rows


def _nfc(text: str) -> str:
    """Text in one normal form, so "Café" typed with an accent or with a combining mark is one name."""
    return text if text.isascii() or unicodedata.is_normalized("NFC", text) else unicodedata.normalize("NFC", text)


def _filled(rows: list[tuple[int, list[str]]]) -> list[tuple[int, list[str]]]:
    """The rows that hold something other than a comment, their cells in one normal form (a row's cells
    joined once tell whether it is blank, a comment, or ASCII: most rows are, and are looked at once)."""
    return [(n, list(cells) if joined.isascii() else [_nfc(c) for c in cells]) for n, cells in rows
            if (stripped := (joined := "".join(cells)).strip()) and not (stripped[0] == "#" and _comment(cells))]


def _comment(cells: list[str]) -> bool:
    """A row whose only filled cell is the first, starting with '#': a comment or section title."""
    return cells[0].lstrip().startswith("#") and not any(c.strip() for c in cells[1:])


@gc_paused()
def _sheet(file: str, kind: str, rows: list[tuple[int, list[str]]], problems: Problems,
           fields_may_spill: bool, bad_rows: set[int] = frozenset(), header: int | bool | None = None) -> Sheet:
    """Header and records from raw rows: blank rows dropped, cells beyond the header checked,
    ``bad_rows`` (reported apart) left out."""
    rows = _filled(rows)
    if not rows:
        raise GameDataError("empty sheet; its first row must name the columns (name, and type, count, "
                            "text... as you like)", file=file)
    choice = choose_header(rows, header, file)
    if choice.row is None:
        header_row = 0
        width = max(_filled_width(cells) for _, cells in rows)
        names = tuple(column_letters(i) for i in range(width))
        body = [(n, cells) for n, cells in rows if n >= choice.first]
    else:
        at = next(i for i, (n, _) in enumerate(rows) if n == choice.row)
        header_row, head = rows[at]
        names = tuple(h.strip() for h in head)
        width = len(names)
        body = rows[at + 1:]
    columns = Columns(names, lettered=choice.row is None)
    records, spilled = [], set()
    unnamed = [i for i, name in enumerate(names) if not name]
    for number, cells in body:
        if number in bad_rows:
            continue
        extra = [i for i in range(width, len(cells)) if cells[i].strip()]
        if extra and fields_may_spill:
            sep = next((f"a {word}" for word, mark in (("tab", "tab"), ("';'", "semicolon"), ("'|'", "vertical bar"))
                        if mark in kind), "a comma")
            problems.add(GameDataError(f"{len(cells)} fields but the header names {width} columns "
                                       f"({sep} inside a value needs quotes)", file=file, row=number))
            continue
        if extra:
            spilled.update(extra)
        if unnamed:
            spilled.update(i for i in unnamed if i < len(cells) and cells[i].strip())
        records.append((number, tuple(cells[:width])))
    if not records and not problems.found and not bad_rows:
        raise GameDataError("no cards: add one row per kind of card below the header", file=file)
    notes = []
    if spilled:
        letters = ", ".join(column_letters(i) for i in sorted(spilled))
        notes.append(f"{file}: column {letters} holds values but has no header, so nothing can use it; "
                     "give it a header in row " + str(header_row))
    for key, positions in columns.positions.items():
        if len(positions) > 1:
            letters = " and ".join(column_letters(i) for i in positions)
            notes.append(f"{file}: the header {names[positions[0]]!r} names {len(positions)} columns ({letters}); "
                         "card.fields gives the first")
    return Sheet(file=file, format=kind, columns=columns, header_row=header_row, rows=tuple(records),
                 notes=tuple(notes), header=choice)


def _filled_width(cells: list[str]) -> int:
    """The cells of a row up to its last filled one."""
    for i in range(len(cells) - 1, -1, -1):
        if cells[i].strip():
            return i + 1
    return 0
