"""One sheet of an XLSX workbook, read with python-calamine after checks of kitgen's own.

python-calamine (a binding of the Rust calamine reader) reads a 10,000-row
sheet in about 0.1 s, where openpyxl takes about 0.8 s (benchmarks/bench_sheets.py).
It gives each cell's saved value, so a formula that was never computed (a
workbook written by a script rather than saved by a spreadsheet program)
reads as an empty cell.  Before reading, this module therefore scans the
sheet's XML itself: for formula cells without a saved value or whose saved
value is an error, and for a sheet too large to read (a stray cell far to the
right makes every row that wide).
"""

from __future__ import annotations

import datetime as dt
import html
import io
import posixpath
import re
import zipfile
from xml.etree import ElementTree

from kitgen.errors import GameDataError

MAX_UNPACKED_BYTES = 256 * 1024 * 1024  # all parts of the workbook, unzipped
MAX_ROWS = 100_000
MAX_COLUMNS = 1_000

_REF = re.compile(rb'\br="([A-Z]{1,3})([0-9]+)"')
_TYPE = re.compile(rb'\bt="([a-zA-Z]+)"')


def read_xlsx(data: bytes, where: str, sheet: str | None) -> tuple[str, list[tuple[int, list[str]]],
                                                                  list[tuple[int, int, str]]]:
    """(sheet name, rows as (row number, cells from column A), formula problems as (row, column, message))."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError):
        raise GameDataError("not an XLSX workbook (it is not a zip archive); save the sheet from the "
                            "spreadsheet program as .xlsx, or as CSV", file=where) from None
    with archive:
        name, part = _find_sheet(archive, where, sheet)
        xml = archive.read(part)
    check_extent(xml, where, name)
    formulas = formula_problems(xml)
    rows = _read_values(data, where, name)
    return name, rows, formulas


def _find_sheet(archive: zipfile.ZipFile, where: str, wanted: str | None) -> tuple[str, str]:
    """(name, zip member) of the sheet named ``wanted``, or of the first sheet."""
    members = {info.filename: info for info in archive.infolist()}
    if "xl/workbook.xml" not in members:
        raise GameDataError("not an XLSX workbook (a zip archive without xl/workbook.xml); save the sheet "
                            "from the spreadsheet program as .xlsx, or as CSV", file=where)
    unpacked = sum(info.file_size for info in members.values())
    if unpacked > MAX_UNPACKED_BYTES:
        raise GameDataError(f"the workbook unpacks to {unpacked / 2**20:.0f} MB; kitgen reads workbooks of at "
                            f"most {MAX_UNPACKED_BYTES // 2**20} MB unpacked", file=where)
    try:
        book = ElementTree.fromstring(archive.read("xl/workbook.xml"))
        rels = ElementTree.fromstring(archive.read("xl/_rels/workbook.xml.rels"))
    except (KeyError, ElementTree.ParseError):
        raise GameDataError("damaged XLSX workbook (its list of sheets cannot be read); open it in a "
                            "spreadsheet program and save it again", file=where) from None
    targets = {rel.get("Id"): rel.get("Target", "") for rel in rels if rel.tag.endswith("Relationship")}
    sheets = []
    for element in book.iter():
        if element.tag.endswith("}sheet"):
            rel_id = next((v for k, v in element.attrib.items() if k.endswith("}id")), None)
            target = targets.get(rel_id, "")
            part = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join("xl", target))
            sheets.append((element.get("name", ""), part))
    if not sheets:
        raise GameDataError("the workbook has no sheets", file=where)
    if wanted is None:
        name, part = sheets[0]
    else:
        found = [s for s in sheets if s[0] == wanted] or [s for s in sheets if s[0].casefold() == wanted.casefold()]
        if not found:
            raise GameDataError(f"no sheet named {wanted!r} in the workbook (its sheets: "
                                f"{', '.join(s[0] for s in sheets)})", file=where)
        name, part = found[0]
    if part not in members:
        raise GameDataError(f"sheet {name!r} is not a sheet of cells (a chart?); name another one "
                            "as data = \"file.xlsx#Sheet\" in game.toml", file=where)
    return name, part


def _prefix(xml: bytes) -> bytes:
    """The namespace prefix of the sheet's elements: b'' for <worksheet>, b'x:' for <x:worksheet>."""
    found = re.search(rb"<(\w+:)?worksheet\b", xml[:4096])
    return (found.group(1) or b"") if found else b""


def check_extent(xml: bytes, where: str, name: str) -> None:
    """Refuse a sheet whose used area is too large to read: each row's last cell is looked at."""
    p = _prefix(xml)
    end_tag, cell = b"</" + p + b"row>", b"<" + p + b"c "
    start = 0
    while True:
        end = xml.find(end_tag, start)
        if end < 0:
            break
        last = xml.rfind(cell, start, end)
        if last >= 0:
            ref = _REF.search(xml, last, xml.find(b">", last) + 1)
            if ref:
                column, row = _column_index(ref.group(1)), int(ref.group(2))
                if row > MAX_ROWS or column >= MAX_COLUMNS:
                    cell_name = ref.group(1).decode() + ref.group(2).decode()
                    raise GameDataError(f"sheet {name!r} has a cell at {cell_name}, but kitgen reads at most "
                                        f"{MAX_ROWS:,} rows and {MAX_COLUMNS:,} columns; delete the cells "
                                        "beyond them", file=where)
        start = end + len(end_tag)


def formula_problems(xml: bytes) -> list[tuple[int, int, str]]:
    """(row, 0-based column, message) of formula cells without a saved value, or whose value is an error."""
    p = _prefix(xml)
    found = []
    for match in re.finditer(b"<" + p + b"f[ >/]", xml):
        begin = xml.rfind(b"<" + p + b"c ", 0, match.start())
        end = xml.find(b"</" + p + b"c>", match.start())
        if begin < 0 or end < 0:
            continue
        cell = xml[begin:end]
        head = cell[:cell.find(b">") + 1]
        ref = _REF.search(head)
        if not ref:
            continue
        kind = _TYPE.search(head)
        kind = kind.group(1).decode() if kind else "n"
        value = re.search(b"<" + p + b"v>([^<]*)</" + p + b"v>", cell)
        saved = value is not None and (value.group(1) != b"" or kind == "str")
        if kind == "str" and re.search(b"<" + p + b"v\\s*/>", cell):
            saved = True                                   # a formula whose text is empty
        text = re.search(b"<" + p + b"f[^>]*>([^<]*)</" + p + b"f>", cell)
        formula = "=" + html.unescape(text.group(1).decode("utf-8", "replace")) if text else "a shared formula"
        row, column = int(ref.group(2)), _column_index(ref.group(1))
        if kind == "e" and saved:
            error = html.unescape(value.group(1).decode("utf-8", "replace"))
            found.append((row, column, f"the formula {formula} gives the error {error}; correct it in the workbook"))
        elif not saved:
            found.append((row, column, f"the formula {formula} has no saved value (the workbook was written "
                                       "by a program that does not compute formulas); open it in a spreadsheet "
                                       "program and save it, or type the value itself"))
    return found


def _column_index(letters: bytes) -> int:
    index = 0
    for ch in letters:
        index = index * 26 + ch - 64
    return index - 1


def _read_values(data: bytes, where: str, name: str) -> list[tuple[int, list[str]]]:
    import python_calamine

    try:
        workbook = python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(data))
        values = workbook.get_sheet_by_name(name).to_python(skip_empty_area=False)
    except python_calamine.CalamineError as exc:
        raise GameDataError(f"cannot read sheet {name!r} of the workbook ({exc}); open it in a spreadsheet "
                            "program and save it again as .xlsx", file=where) from None
    return [(number, [cell_text(v) for v in row]) for number, row in enumerate(values, start=1)]


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

