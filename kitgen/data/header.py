"""Which row of a card sheet is its header: found, or said in game.toml.

Designers keep sheets with a title above the header, and exports of card
databases with no header at all.  The header is the first row that is not
blank or a comment, with two exceptions found here:

- **Title rows.**  A first row with one filled cell, above rows that fill
  several, is a title, and so is one of a few cells over a fuller row (a group
  row, ``Provided`` and ``Required`` over the columns they group): the header
  is the first row below it that fills as many cells as the rows after it do
  (at most :data:`MAX_TITLE_ROWS` rows are passed over).
- **No header.**  A first row that holds values is a card, not a header:
  a cell that is long text, runs over two lines or holds markup
  (``<card qty="1">``), a number in a column of numbers, or a value that
  appears again in the same column below, when such cells outnumber the
  short words over columns of numbers, markup or long text (names of
  columns).  Such a sheet has no header, and its columns are named by their
  letters (A, B, ...) and numbers (1, 2, ...).

game.toml says it outright with ``header = 3`` (the header's row number as
the spreadsheet shows it) or ``header = false`` (no header).  The choice and
its reason are one line, :attr:`HeaderChoice.why`, which ``kitgen new --from``
and ``kitgen validate`` print.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from statistics import median

from kitgen.errors import GameDataError
from kitgen.layout.tiling import column_letters

MAX_TITLE_ROWS = 5       # rows above the header that may be a title
SAMPLE = 200             # rows below the first read to judge it
LONG = 40                # characters: no header is this long
NUMBERS = 0.8            # of a column's filled cells below: "a column of numbers"
_MARKUP = re.compile(r"<[A-Za-z/][^<>]*>")


@dataclass(frozen=True)
class HeaderChoice:
    row: int | None      # the header's row number; None: the sheet has no header
    first: int           # the row number of the first row that may hold a card
    why: str             # which row and why, in one line


def header_option(value, where: str) -> int | bool | None:
    """game.toml's ``header``: a row number (1 or more), ``false`` for none, ``true`` for the first
    row (no search); absent: None, found."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int) and value >= 1:
        return value
    raise GameDataError(f"'header' = {value!r}: give the row number of the header as the spreadsheet shows it "
                        "(header = 2), or header = false for a sheet without one", file=where)


def choose_header(rows: list[tuple[int, list[str]]], header: int | bool | None, file: str) -> HeaderChoice:
    """The header of ``rows`` (row number, cells; blank and comment rows already left out)."""
    first = rows[0][0]
    if header is False:
        return HeaderChoice(None, first, f"no header row (header = false): row {first} holds the first card; "
                                         f"columns are named {_letters(rows)}")
    if header is True:
        return HeaderChoice(first, first + 1, f"header on row {first} (header = true)")
    if isinstance(header, int):
        numbers = [n for n, _ in rows]
        if header not in numbers:
            raise GameDataError(f"header = {header}: row {header} is blank, a comment or past the last row "
                                f"(rows {numbers[0]}-{numbers[-1]} hold values)", file=file)
        return HeaderChoice(header, header + 1, f"header on row {header} (header = {header})")
    at, skipped = _after_titles(rows)
    row, cells = rows[at]
    below = [c for _, c in rows[at + 1:at + 1 + SAMPLE]]
    reason = _looks_like_values(cells, below)
    if reason:
        return HeaderChoice(None, row, f"no header row: row {row} looks like a card ({reason}), so it is read as one "
                                       f"and columns are named {_letters(rows)}; header = {row} in game.toml "
                                       "reads it as the header")
    if skipped:
        titles = [c.strip() for c in rows[0][1] if c.strip()]
        shown = ", ".join(repr(t if len(t) <= 30 else t[:29] + "…") for t in titles[:3])
        return HeaderChoice(row, row + 1, f"header on row {row} (row {rows[0][0]} holds only {shown}, "
                                          f"a title{'' if at == 1 else ' and notes'} above it)")
    return HeaderChoice(row, row + 1, f"header on row {row}")


def _filled(cells: list[str]) -> int:
    return sum(1 for c in cells if c.strip())


def _after_titles(rows) -> tuple[int, bool]:
    """The index of the first row that is not a title above the header, and whether one was passed: a row
    of one filled cell, or of a few over a fuller row (``Provided`` and ``Required`` over the columns they
    group), above rows that fill at least twice as many."""
    at = 0
    while at < min(MAX_TITLE_ROWS, len(rows) - 1):
        filled = _filled(rows[at][1])
        after = [_filled(c) for _, c in rows[at + 1:at + 1 + SAMPLE]]
        if not after or median(after) < 2:
            break
        if filled > 1 and not (filled < after[0] and filled <= median(after) / 2):
            break
        at += 1
    return at, at > 0


def number(text: str) -> float | None:
    """The number a cell holds ("3", "-2", "1.5"), or None."""
    try:
        value = float(text.strip().replace(",", "")) if text.strip() else None
    except ValueError:
        return None
    return value if value is not None and math.isfinite(value) else None


def _kind(text: str) -> str:
    """The shape of a cell: a number, markup, long text (over two lines, or long), or short text."""
    if number(text) is not None:
        return "number"
    if _MARKUP.search(text):
        return "markup"
    if "\n" in text or len(text) > LONG:
        return "long text"
    return "short text"


SHARE = {"number": NUMBERS, "markup": 0.5, "long text": 0.5}   # of a column's cells below of the same shape


def _looks_like_values(cells: list[str], below: list[list[str]]) -> str:
    """Why the row ``cells`` holds values rather than names of columns ("" if it looks like a header).

    Each cell is a clue one way or the other.  A cell shaped as the cells below it are (a number over
    numbers, markup over markup, long text over long text), or a value that appears again in its column,
    says "a card"; a short word over a column of numbers, markup or long text says "a header" (``wood``
    over 3, 1, 2; a sentence, ``Draw two 1.``, is no name).  The row is a card when the clues for it
    outnumber those against: a header one of
    whose names is also a value of its column (``convert`` over rows that say ``convert``) stays a header.
    """
    same = [c.strip().casefold() for c in cells]
    below = [c for c in below if [x.strip().casefold() for x in c[:len(same)]] != same]   # a repeated header
    values, names = [], 0
    for i, cell in enumerate(cells):
        text = cell.strip()
        if not text:
            continue
        shown = text if len(text) <= 24 else text[:23] + "…"
        column = [c[i].strip() for c in below if i < len(c) and c[i].strip()]
        kind = _kind(text)
        shaped = [k for k in SHARE if len(column) >= 2 and sum(_kind(v) == k for v in column) >= SHARE[k] * len(column)]
        if kind in shaped:
            values.append(f"cell {column_letters(i)} {shown!r} is {'a' if kind == 'number' else ''} {kind}"
                          .replace("  ", " ") + ", as the cells below it are")
        elif kind != "number" and len(text) >= 2 and text.casefold() in {v.casefold() for v in column}:
            values.append(f"cell {column_letters(i)} {shown!r} appears again below it")
        elif kind == "short text" and shaped and _name_like(text):
            names += 1
    return values[0] if len(values) > names else ""


def _name_like(text: str) -> bool:
    """Whether a short text reads as the name of a column (``wood``, ``Est. Value``) rather than a
    sentence of a card (``Draw two 1.``): a few words, not ending as a sentence does."""
    return len(text.split()) <= 4 and not text.rstrip().endswith((".", "!", "?", ";", ","))


def _letters(rows) -> str:
    width = max(len(c) for _, c in rows)
    shown = [column_letters(i) for i in range(min(width, 3))]
    return ", ".join(shown) + (", ..." if width > 3 else "") + " (or 1, 2, ...)"
