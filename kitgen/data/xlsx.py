"""One sheet of an XLSX workbook, read by python-calamine from a workbook that kitgen writes first.

python-calamine (a binding of the Rust calamine reader) reads a 10,000-row
sheet in about 0.1 s, where openpyxl takes about 0.8 s (benchmarks/bench_sheets.py).
It trusts the workbook, though: it allocates the rectangle from the first cell
to the farthest (a stray cell at XFD99999 asks for 52 GB), reserves what a count
in the XML says, and unpacks whatever the archive holds.  So it never sees the
workbook it was given.  kitgen reads the parts a sheet needs itself, within
bounds (:mod:`~kitgen.data.xlsx_zip`: the archive; :mod:`~kitgen.data.xlsx_book`:
the list of sheets, styles and shared strings; :mod:`~kitgen.data.xlsx_sheet`:
the cells), following the XML as calamine does, and writes what it read into a
small workbook of plain XML: the one sheet, each cell with a value under its
reference, the shared strings and number formats it uses.  That workbook is all
python-calamine reads, so everything it allocates was counted first.  Plain rows and
shared strings, as spreadsheet programs write them, are read a run at a time at C speed
(:class:`~kitgen.data.xlsx_zip.Fast`), the rest one element at a time by expat: a million cells
of text take some 2.1 s of CPU where expat alone takes 7 s, and calamine itself 1 s
(benchmarks/bench_sheets.py).

python-calamine gives each cell's saved value, so a formula that was never
computed (a workbook written by a script rather than saved by a spreadsheet
program) would read as an empty cell: such cells, and formulas whose saved value
is an error, are reported apart.
"""

from __future__ import annotations

import datetime as dt
import io
from dataclasses import dataclass

from kitgen.data.gc_pause import gc_paused
from kitgen.data.xlsx_book import Book, copy_shared_strings, copy_styles, read_book, write_book
from kitgen.data.xlsx_sheet import Cells, FormulaProblems
from kitgen.data.xlsx_zip import Parts, Rewritten
from kitgen.errors import GameDataError

SHEET = "xl/worksheets/sheet1.xml"


@dataclass(frozen=True)
class XlsxSheet:
    name: str                                   # the sheet's name in the workbook
    rows: list[tuple[int, list[str]]]           # (row number, cells from column A)
    formulas: FormulaProblems                   # formula cells without a saved value, or with an error
    sheets: tuple[str, ...] = ()                # every sheet of the workbook, in order


@gc_paused()
def read_xlsx(data: bytes, where: str, sheet: str | None) -> XlsxSheet:
    """The sheet named ``sheet`` (or the first) of the workbook ``data``; ``where`` names it in messages.
    The cycle collector is paused meanwhile: the rows python-calamine gives are a list per row (100,000
    for a full sheet), which would start a collection every few hundred, and what the reader makes
    besides holds no cycle but a parser and its handler's, freed at the next collection."""
    book, rewritten, formulas = rewrite(data, where, sheet)
    return XlsxSheet(name=book.name, rows=_read_values(rewritten, where, book.name), formulas=formulas,
                     sheets=book.sheets)


def rewrite(data: bytes, where: str, sheet: str | None, fast: bool = True) -> tuple[Book, bytes, FormulaProblems]:
    """The workbook python-calamine is given for the sheet ``sheet`` of ``data``, read within bounds
    (``fast``: plain runs of rows and shared strings taken at once, see :class:`~kitgen.data.xlsx_zip.Fast`;
    the workbook is the same either way)."""
    parts = Parts(data, where, fast)
    book = read_book(parts, sheet)
    with Rewritten() as out:
        write_book(out, book)
        copy_styles(parts, out)
        strings = copy_shared_strings(parts, out)
        with out.part(SHEET) as stream:
            stream.write(b"<worksheet><sheetData>")
            cells = Cells(where, book.name, strings, stream)
            parts.parse(parts.find(book.part), cells)
            cells.flush()
            stream.write(b"</sheetData></worksheet>")
        if cells.phase == "before":
            raise GameDataError(f"sheet {book.name!r} is not a sheet of cells (a chart?); name another one "
                                "as data = \"file.xlsx#Sheet\" in game.toml", file=where)
        rewritten = out.getvalue()
    return book, rewritten, cells.formulas


def _read_values(data: bytes, where: str, name: str) -> list[tuple[int, list[str]]]:
    import python_calamine

    try:
        workbook = python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(data))
        values = workbook.get_sheet_by_index(0).to_python(skip_empty_area=False)
    except python_calamine.CalamineError as exc:
        raise GameDataError(f"cannot read sheet {name!r} of the workbook ({exc}); open it in a spreadsheet "
                            "program and save it again as .xlsx", file=where) from None
    del workbook
    for row in values:                      # most values are text already: no call for them
        row[:] = [value if type(value) is str else cell_text(value) for value in row]
    return list(enumerate(values, start=1))


def cell_text(value) -> str:
    """A cell's saved value as the card shows it: 3.0 -> '3', 0.1 -> '0.1', a date -> '2024-05-01'."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return "0" if value == 0 else format(value, ".15g")   # as a spreadsheet shows numbers: 15 digits at most
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat(" ", "minutes")
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    return str(value)

