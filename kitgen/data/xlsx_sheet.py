"""The cells of one XLSX sheet, read within bounds before python-calamine reads any of them.

The reader python-calamine uses places cells as the XML says: a cell's ``r="B7"``, or, without
one, the column after the previous cell in the row that ``<row r=...>`` (or the count of rows)
gives; and it fills a rectangle from the first cell to the farthest, so one stray cell at XFD99999
asks for gigabytes.  :class:`Cells` follows the sheet's XML as that reader does (elements
matched by their name without prefix, whatever the prefix or namespace; cells in any order) and
checks every cell against :data:`MAX_ROWS` and :data:`MAX_COLUMNS` as it comes, then bounds the
cells with a value (:data:`MAX_CELLS`, as many as the rectangle from A1 to the farthest of them)
and their text (:data:`MAX_TEXT_BYTES`, counting a shared string at every cell that shows it).
It writes each cell with a value again, with its reference spelled out, into the sheet that
python-calamine reads, and notes formula cells without a saved value (a workbook written by a
program that does not compute formulas) or whose value is an error.

The handlers are swapped as the parser enters and leaves ``<sheetData>`` and each cell, so each
element costs one call that does only what its place needs; runs of plain rows skip expat and
are taken a run at a time (:meth:`Cells.fast`), with the same result.
"""

from __future__ import annotations

import re
from array import array
from dataclasses import dataclass, field

from kitgen.data.xlsx_book import MAX_CELL_TEXT, PLAIN_TEXT, Runs, decoded, uncaptured
from kitgen.data.xlsx_zip import LOCAL, MAX_DEPTH, damaged, escape_text, local, too_deep
from kitgen.errors import LimitError
from kitgen.layout.tiling import column_letters

MAX_ROWS = 100_000
MAX_COLUMNS = 1_000
MAX_CELLS = 1_000_000                # cells with a value; and cells from A1 to the farthest of them
MAX_TEXT_BYTES = 32 * 2**20          # the text of the sheet's cells, in UTF-8
MAX_FORMULA_PROBLEMS = 100           # formula cells named one by one; the rest are counted
FORMULA_SHOWN = 200                  # characters of a formula quoted in a message

_LETTERS = [column_letters(i) for i in range(MAX_COLUMNS)]
_COLUMNS = {**{s: i for i, s in enumerate(_LETTERS)}, **{s.lower(): i for i, s in enumerate(_LETTERS)}}
_CELL = re.compile(r"([A-Za-z]+)([0-9]+)")
_ROW = re.compile(r"[A-Za-z]*([0-9]+)")
_NUMBER_TYPES = (None, "n", "s", "b", "e")        # types whose <v> the reader takes as it is written
_OUTSIDE_TEXT = ("c", "row", "sheetData")

# The plain form of rows and cells that the fast path takes (:meth:`Cells.fast`): a row, numbered
# in its r or not, with the attributes spreadsheet programs write, each at most once, in the order
# they write them; cells, named in their r (capitals, no leading zero) or not, with a style and a
# type, empty (<c/>, <c></c>), or holding one <v>, or one <is><t>.
_ATTR = r'="[ !#-%\'-;=?-~]*+"'                   # printable ASCII but " & < >
_ROW_ATTRS = "".join(f"(?: {name}{_ATTR})?" for name in (
    "spans", "s", "customFormat", "ht", "hidden", "customHeight", "outlineLevel", "collapsed", "thickTop",
    "thickBot", "ph", "x14ac:dyDescent"))
_PLAIN_CELL = (r'<c(?: r="([A-Z]{1,3})([1-9][0-9]{0,6})")?(?: s="([0-9]{1,9})")?(?: t="(s|n|b|e|str|inlineStr)")?'
               r'(?:(/>|></c>)|><v>(' + PLAIN_TEXT + r')</v></c>|><(is)><t( xml:space="preserve")?>(' + PLAIN_TEXT +
               r')</t></is></c>)')
_PLAIN_ROW = rf'<row(?: r="([1-9][0-9]{{0,6}})")?{_ROW_ATTRS}(?:/>|>((?:{uncaptured(_PLAIN_CELL)})*+)</row>)'
_ROWS_RUN = re.compile(f"(?:{uncaptured(_PLAIN_ROW)})++".encode())
_FAST_ROW = re.compile(_PLAIN_ROW)
# Rows whose every cell shows a shared string as a plain cell is written again (capitals, the index
# without a leading zero, no style): such a run (a run of plain rows too, all ASCII) is tried first
# and written again as it is, less its row tags.
_SHARED_CELL = r'<c r="([A-Z]{1,3})([1-9][0-9]{0,6})" t="s"><v>(0|[1-9][0-9]{0,8})</v></c>'
_SHARED_ROWS = re.compile(
    rf'(?:<row r="[1-9][0-9]{{0,6}}"{_ROW_ATTRS}(?:/>|>(?:{uncaptured(_SHARED_CELL)})*+</row>))++'.encode())
_SHARED_CELLS = re.compile(_SHARED_CELL)
_ROW_TAG = re.compile(r'<row [^>]*+>|</row>')
_LAST_ROW = re.compile(r'.*<row r="([0-9]+)"', re.DOTALL)
_FAST_CELL = re.compile(_PLAIN_CELL)


def _within(far_row: int, far_col: int, count: int, size: int) -> bool:
    """Whether cells as far as (far_row, far_col), ``count`` of them with ``size`` bytes of text, are
    within the bounds (the fast path falls back to the cell-by-cell path, which names the one passed)."""
    return (far_row + 1) * (far_col + 1) <= MAX_CELLS and count <= MAX_CELLS and size <= MAX_TEXT_BYTES


@dataclass
class FormulaProblems:
    found: list[tuple[int, int, str]] = field(default_factory=list)   # (row, 0-based column, message)
    rows: set[int] = field(default_factory=set)                      # every row with one
    more: int = 0                                                     # beyond the ones named


class Cells:
    """A sheet's XML, followed as the reader follows it; each cell with a value written to ``stream``."""

    def __init__(self, where: str, sheet: str, strings: array, stream):
        self.where, self.sheet, self.strings, self.stream = where, sheet, strings, stream
        self.phase = "before"                 # <sheetData> not yet met; "inside" it; "after" it
        self.depth = 0                        # elements open, outside the cells
        self.row = self.col = 0               # where a cell without a reference goes (0-based)
        self.count = self.text_bytes = 0      # of the cells with a value
        self.far_row = self.far_col = -1
        self.formulas = FormulaProblems()
        self.pending: list[str] = []
        self.runs = Runs(where)
        self._cell(0, 0, None, None)

    # --- between cells ----------------------------------------------------------------------

    def attach(self, parser) -> None:
        self.parser = parser
        self._in_rows = (self._start, self._end, None)
        self._in_cell = (self._cell_start, self._cell_end, self._cell_text)
        parser.StartElementHandler = self._outside
        parser.EndElementHandler = self._outside_end

    def _outside(self, name: str, attrs: dict[str, str]) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise too_deep(self.where)
        if self.phase == "before" and local(name) == "sheetData":
            self.phase = "inside"
            self._between_cells()

    def _outside_end(self, name: str) -> None:
        self.depth -= 1

    def _between_cells(self) -> None:
        parser = self.parser
        parser.StartElementHandler, parser.EndElementHandler, parser.CharacterDataHandler = self._in_rows

    def _start(self, name: str, attrs: dict[str, str]) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise too_deep(self.where)
        tag = LOCAL.get(name) or local(name)
        if tag == "c":
            ref = attrs.get("r")
            if ref is None:
                row, col = self.row, self.col
                if row >= MAX_ROWS or col >= MAX_COLUMNS:
                    self._beyond(f"{column_letters(col)}{row + 1}")
            else:
                row, col = self._placed(ref)
            self.col = self.c_col = col
            self.c_row, self.c_kind, self.c_style = row, attrs.get("t"), attrs.get("s")
            self.c_depth = 0                    # as _cell() sets them, without the call (once per cell)
            self.value = self.saved = self.formula = None
            parser = self.parser
            parser.StartElementHandler, parser.EndElementHandler, parser.CharacterDataHandler = self._in_cell
        elif tag == "row":
            ref = attrs.get("r")
            if ref is not None:
                self.row = self._row_number(ref)

    def _placed(self, ref: str) -> tuple[int, int]:
        """(row, column), 0-based, of the cell named ``ref``, within :data:`MAX_ROWS` and :data:`MAX_COLUMNS`."""
        split = len(ref.rstrip("0123456789"))      # most references are 'B7': their letters looked up
        col = _COLUMNS.get(ref[:split])
        if col is None or not 0 < len(ref) - split <= 7 or (row := int(ref[split:]) - 1) < 0:
            row, col = self._reference(ref)
        if row >= MAX_ROWS or col >= MAX_COLUMNS:
            self._beyond(f"{column_letters(col)}{row + 1}")
        return row, col

    def _end(self, name: str) -> None:
        self.depth -= 1
        tag = LOCAL.get(name) or local(name)
        if tag == "row":
            self.row += 1
            self.col = 0
            if name == "row":                       # a plain </row> ended: the fast path may take what follows
                self.fast_ready = self.parser.CurrentByteIndex + len(self.fast_end)
        elif tag == "sheetData":
            self.phase = "after"
            self.attach(self.parser)

    def flush(self) -> None:
        self.stream.write("".join(self.pending).encode("utf-8"))
        self.pending = []

    def _write(self, cells: list[str]) -> None:
        """Cells written again for python-calamine, kept until some thousands are waiting."""
        self.pending += cells
        if len(self.pending) >= 4096:
            self.flush()

    # --- the fast path: runs of plain rows, each as expat and the handlers above take it --------

    fast_end = b"</row>"
    fast_runs = (_SHARED_ROWS, _ROWS_RUN)
    fast_ready = -1

    def fast(self, run: bytes, form: int) -> bool:
        if self.depth + 2 > MAX_DEPTH:                          # a row, and a cell in it
            return False
        if form == 0:
            return self._shared_rows(run.decode("ascii"))
        text = decoded(run)
        if text is None:
            return False
        rows, line = [], self.row               # each row's number (0-based) and the text of its cells
        for number, cells in _FAST_ROW.findall(text):
            if number:
                line = int(number) - 1
            rows.append((line, cells))
            line += 1
        if not self._plain_rows(rows):          # one passes a bound, or holds what is not plain: row by row,
            for line, cells in rows:            # the rows before it taken as they are, its cells one by one
                if not self._plain_rows([(line, cells)]):
                    self.row, self.col = line, 0
                    for cell in _FAST_CELL.findall(cells):
                        self._plain_cell(*cell)
                    self.row += 1
        return True

    def _shared_rows(self, text: str) -> bool:
        """Rows of plain cells that show shared strings, all at once, as :meth:`_plain_rows` takes them
        row by row (the cells are written as they are); False, with nothing changed, where one passes
        a bound."""
        cells = _SHARED_CELLS.findall(text)
        if cells:
            letters, digits, shown = zip(*cells)
            cols = list(map(_COLUMNS.get, set(letters)))     # a row's cells share its number, rows their letters:
            if None in cols:                                 # each told once (numbers have no leading zero)
                return False
            far_row, far_col = max(self.far_row, max(map(int, set(digits))) - 1), max(self.far_col, max(cols))
            if far_row >= MAX_ROWS:
                return False
            try:                                # an index past the last string: the array refuses it
                size = self.text_bytes + sum(map(self.strings.__getitem__, map(int, shown)))
            except IndexError:
                return False
            count = self.count + len(cells)
            if not _within(far_row, far_col, count, size):
                return False
            self.count, self.text_bytes, self.far_row, self.far_col = count, size, far_row, far_col
            self.pending.append(_ROW_TAG.sub("", text))
            self.flush()                    # written as it is taken: kept, the runs held the whole sheet
        self.row, self.col = int(_LAST_ROW.match(text).group(1)), 0
        return True

    def _plain_rows(self, rows: list[tuple[int, str]]) -> bool:
        """The cells of rows at once (each row: its number, 0-based, and the text of its cells), where
        all are within bounds: what :meth:`_plain_cell` and :meth:`_close` do for each, with the bounds
        checked once for all (they only grow); the next row follows the last.  False, with nothing
        changed, where one passes a bound or holds a value that is not plain text."""
        strings, pending = self.strings, []
        count, size, far_row, far_col = self.count, self.text_bytes, self.far_row, self.far_col
        runs, cells_of = self.runs, _FAST_CELL.findall
        for line, text in rows:
            row, col = line, 0
            for letters, digits, style, kind, empty, v, inline, preserve, t in cells_of(text):
                if letters:
                    col = _COLUMNS.get(letters)
                    row = int(digits) - 1
                    if col is None:
                        return False
                    ref = letters + digits
                else:                               # the next column of its own row (wherever the last cell was)
                    row = line
                    ref = f"{_LETTERS[col]}{row + 1}" if col < MAX_COLUMNS else ""
                if row >= MAX_ROWS or col >= MAX_COLUMNS:
                    return False
                if empty:
                    col += 1
                    continue
                if inline:
                    if len(t) > MAX_CELL_TEXT:
                        return False
                    runs.plain(t, bool(preserve))
                    pending.append(f'<c r="{ref}" t="inlineStr"><is>{runs.xml()}</is></c>')
                    size += runs.bytes
                elif kind == "s":
                    index = int(v) if len(v) <= 9 and v.isdigit() and v.isascii() else 0
                    if v == "" or index >= len(strings):
                        return False
                    pending.append(f'<c r="{ref}" t="s"><v>{index}</v></c>')
                    size += strings[index]
                elif kind == "inlineStr" or (kind != "str" and v == ""):
                    col += 1                        # a cell the reader takes as empty
                    continue
                elif ">" in v:
                    return False
                else:                               # a number (or a boolean, an error, a formula's text)
                    head = f' t="{kind}" s="{style}"' if kind and style else f' t="{kind}"' if kind else (
                        f' s="{style}"' if style else "")
                    pending.append(f'<c r="{ref}"{head}><v>{v}</v></c>')
                    size += len(v) if v.isascii() else len(v.encode("utf-8"))
                count += 1
                if row > far_row:
                    far_row = row
                if col > far_col:
                    far_col = col
                col += 1
        if not _within(far_row, far_col, count, size):
            return False
        self.count, self.text_bytes, self.far_row, self.far_col = count, size, far_row, far_col
        self.row, self.col = rows[-1][0] + 1, 0
        self._write(pending)
        return True

    def _plain_cell(self, letters, digits, style, kind, empty, v, inline, preserve, t) -> None:
        """One plain cell, as :meth:`_start`, :meth:`_cell_start`, :meth:`_cell_text` and :meth:`_cell_end`
        take it."""
        if letters:
            row, col = self._placed(letters + digits)
        else:
            row, col = self.row, self.col
            if row >= MAX_ROWS or col >= MAX_COLUMNS:
                self._beyond(f"{column_letters(col)}{row + 1}")
        self.col = self.c_col = col
        self.c_row, self.c_kind, self.c_style = row, kind or None, style or None
        if not empty:
            if inline:
                self.runs.plain(t, bool(preserve))
                self.value = "is"
            else:
                if len(v) > MAX_CELL_TEXT:
                    raise self._damaged(f"a value of more than {MAX_CELL_TEXT:,} characters")
                self.value, self.v_text = "v", v
            self.formula = None
            self._close()
        self.col += 1

    def _row_number(self, ref: str) -> int:
        match = _ROW.fullmatch(ref)
        if not match:
            raise damaged(self.where, f"sheet {self.sheet!r} has a row numbered {ref[:20]!r}")
        digits = match.group(1)
        return MAX_ROWS if len(digits) > 7 else self._from_one(int(digits), ref)

    def _reference(self, ref: str) -> tuple[int, int]:
        """(row, column), 0-based, of a cell reference such as 'xfd9' (either case, as the reader takes it)."""
        match = _CELL.fullmatch(ref)
        if not match:
            raise damaged(self.where, f"sheet {self.sheet!r} has a cell whose reference {ref[:20]!r} is not a "
                                      "cell name like B7")
        letters, digits = match.groups()
        if len(letters) > 3 or len(digits) > 7:
            self._beyond(ref[:20])
        col = 0
        for ch in letters.upper():
            col = col * 26 + ord(ch) - 64
        return self._from_one(int(digits), ref), col - 1

    def _from_one(self, number: int, ref: str) -> int:
        if number == 0:
            raise damaged(self.where, f"sheet {self.sheet!r} has a cell or row {ref!r} in row 0")
        return number - 1

    def _beyond(self, cell: str) -> None:
        raise LimitError(f"sheet {self.sheet!r} has a cell at {cell}, but kitgen reads at most {MAX_ROWS:,} rows "
                         f"and {MAX_COLUMNS:,} columns; delete the cells beyond them", file=self.where)

    # --- inside a cell: <v>, <f> or <is>; the last one gives its value --------------------------

    def _cell(self, row: int, col: int, kind: str | None, style: str | None) -> None:
        """A cell's state where it opens (:meth:`_start` sets the same, inline: it runs for every cell)."""
        self.c_row, self.c_col, self.c_kind, self.c_style = row, col, kind, style
        self.c_depth = 0                  # elements open inside the cell
        self.child = ""                   # the open child: "v", "f" or "is"
        self.parts: list[str] = []        # text of the open <v> or <f>
        self.size = 0
        self.value: str | None = None     # "v" (the text in self.v_text) or "is" (in self.runs); None: no value
        self.v_text = ""
        self.saved: str | None = None     # the text of the first <v>
        self.formula: str | None = None   # the start of the first <f>'s text

    def _damaged(self, what: str):
        return damaged(self.where, f"sheet {self.sheet!r}, cell {column_letters(self.c_col)}{self.c_row + 1}: "
                                   f"{what}")

    def _cell_start(self, name: str, attrs: dict[str, str]) -> None:
        tag = LOCAL.get(name) or local(name)
        if self.c_depth == 0:
            if tag == "v" or tag == "f":
                self.child, self.parts, self.size = tag, [], 0
            elif tag == "is":
                self.child = tag
                self.runs.begin(name, tag)
            else:
                raise self._damaged(f"an element <{name}> inside the cell (a cell holds <v>, <f> or <is>)")
        elif self.child != "is":
            raise self._damaged(f"an element <{name}> inside <{self.child}>, which holds text")
        elif tag in _OUTSIDE_TEXT:
            raise self._damaged(f"an element <{name}> inside the cell's text")
        else:
            self.runs.start(name, attrs)
        self.c_depth += 1

    def _cell_end(self, name: str) -> None:
        if self.c_depth == 0:                     # the cell's own end
            self.depth -= 1
            self._close()
            self.col += 1
            parser = self.parser
            parser.StartElementHandler, parser.EndElementHandler, parser.CharacterDataHandler = self._in_rows
            return
        self.c_depth -= 1
        if self.c_depth:
            self.runs.end(name)
        elif self.child == "v":
            self.value, self.v_text = "v", "".join(self.parts)
            if self.saved is None:
                self.saved = self.v_text
        elif self.child == "is":
            self.value = "is"
        else:
            if self.formula is None:
                self.formula = "".join(self.parts)[:FORMULA_SHOWN]
            self.value = None

    def _cell_text(self, data: str) -> None:
        child = self.child
        if self.c_depth == 0:
            return
        if child == "is":
            self.runs.text(data)
        elif child == "v":
            self.size += len(data)
            if self.size > MAX_CELL_TEXT:
                raise self._damaged(f"a value of more than {MAX_CELL_TEXT:,} characters")
            self.parts.append(data)
        elif self.size < FORMULA_SHOWN:
            self.size += len(data)
            self.parts.append(data)

    def _close(self) -> None:
        """The cell has ended: written again after ``<c r="..."`` if the reader would take a value from it,
        within the bounds of cells and text.  (One method, no regex: it runs for every cell.)"""
        if self.formula is not None:
            self._formula()
        value = self.value
        if value is None:
            return
        if value == "is":
            body, size = f' t="inlineStr"><is>{self.runs.xml()}</is>', self.runs.length()
        else:
            kind, text = self.c_kind, self.v_text
            if kind in ("inlineStr", "is") or (kind in _NUMBER_TYPES and text == ""):
                return                    # a cell the reader takes as empty
            if kind == "s":
                index = int(text) if len(text) <= 9 and text.isdigit() and text.isascii() else 0
                if index >= len(self.strings):
                    raise self._damaged(f"it shows shared string {text[:20]}, but the workbook has "
                                        f"{len(self.strings):,}")
                body, size = f' t="s"><v>{index}</v>', self.strings[index]
            else:
                plain = not ("<" in text or "&" in text or ">" in text or "\r" in text)  # as no number holds
                if kind is None and not plain:
                    kind = "str"          # text, not a number: kept whole as text
                head = f' t="{escape_text(kind)}"' if kind is not None else ""
                style = self.c_style
                if style is not None and len(style) <= 9 and style.isdigit() and style.isascii():
                    head += f' s="{style}"'
                body = f"{head}><v>{text if plain else escape_text(text)}</v>"
                size = len(text) if text.isascii() else len(text.encode("utf-8"))
        self.count += 1
        self.text_bytes += size
        row, col = self.c_row, self.c_col
        if row > self.far_row or col > self.far_col:
            self.far_row, self.far_col = max(self.far_row, row), max(self.far_col, col)
            area = (self.far_row + 1) * (self.far_col + 1)
            if area > MAX_CELLS:
                far = f"{column_letters(self.far_col)}{self.far_row + 1}"
                raise LimitError(f"sheet {self.sheet!r} has values as far as {far} ({area:,} cells from A1), but "
                                 f"kitgen reads at most {MAX_CELLS:,} cells; delete the cells beyond the cards",
                                 file=self.where)
        if self.count > MAX_CELLS:
            raise LimitError(f"sheet {self.sheet!r} has more than {MAX_CELLS:,} cells with a value, the most kitgen "
                             "reads", file=self.where)
        if self.text_bytes > MAX_TEXT_BYTES:
            raise LimitError(f"sheet {self.sheet!r} holds more than {MAX_TEXT_BYTES // 2**20} MB of text in its "
                             "cells (a shared string counted at every cell that shows it), the most kitgen reads",
                             file=self.where)
        self.pending.append(f'<c r="{_LETTERS[col]}{row + 1}"{body}</c>')      # inline: it runs for every cell
        if len(self.pending) >= 4096:
            self.flush()

    def _formula(self) -> None:
        kind = self.c_kind or "n"
        saved = self.saved is not None and (self.saved != "" or kind == "str")
        formula = "=" + self.formula if self.formula else "a shared formula"
        if kind == "e" and saved:
            message = f"the formula {formula} gives the error {self.saved[:FORMULA_SHOWN]}; correct it in the workbook"
        elif not saved:
            message = (f"the formula {formula} has no saved value (the workbook was written by a program that "
                       "does not compute formulas); open it in a spreadsheet program and save it, or type the "
                       "value itself")
        else:
            return
        problems = self.formulas
        problems.rows.add(self.c_row + 1)
        if len(problems.found) < MAX_FORMULA_PROBLEMS:
            problems.found.append((self.c_row + 1, self.c_col, message))
        else:
            problems.more += 1
