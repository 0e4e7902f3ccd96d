"""Hostile XLSX workbooks, built byte for byte, and a runner that reads each under a memory limit.

Each workbook of :data:`REFUSED` must end ``kitgen validate`` and ``kitgen build`` in one
``Error:`` line naming the workbook and holding its text; :data:`READ` holds workbooks within
kitgen's bounds that must read.  The small ones are also committed as game folders under
tests/hostile/ (``xlsx-*``: :data:`COMMITTED`), where tests/test_hostile.py runs them with the
other hostile folders; tests/test_xlsx_bounds.py checks those files are what these builders
make, and runs every case here through :func:`main`, in a child process per case whose address
space is limited (``RLIMIT_AS``), so a workbook that makes kitgen over-allocate fails its test
instead of the machine.

Zips are written by :func:`zip_of` so that any header can lie: a declared size, a method, a
flag, a CRC, a truncated stream.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import struct
import sys
import time
import zlib
from pathlib import Path
from typing import Callable

NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
PKG = "http://schemas.openxmlformats.org/"
ROOT_RELS = (f'<Relationships xmlns="{PKG}package/2006/relationships"><Relationship Id="rId1" '
             f'Type="{PKG}officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>'
             '</Relationships>')
WORKBOOK_RELS = (f'<Relationships xmlns="{PKG}package/2006/relationships"><Relationship Id="rId1" '
                 f'Type="{PKG}officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
                 '<Relationship Id="rId2" '
                 f'Type="{PKG}officeDocument/2006/relationships/chartsheet" Target="chartsheets/sheet1.xml"/>'
                 '</Relationships>')
SHEET = "xl/worksheets/sheet1.xml"
HEADER = '<row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c></row>'
GIB = 2**30


# --- zips whose every header is written by hand ------------------------------------------------

def member(name: str, data: bytes, method: int = 8, *, raw: bytes | None = None, crc: int | None = None,
           size: int | None = None, flags: int = 0, level: int = 6) -> tuple:
    """One member for :func:`zip_of`: ``data`` deflated (method 8, at zlib's ``level``) or stored (any other
    method, which kitgen refuses before unpacking), unless ``raw`` gives the bytes as stored in the archive;
    ``crc``, ``size`` (unpacked) and ``flags`` as the headers say."""
    if raw is None:
        packer = zlib.compressobj(level, zlib.DEFLATED, -15)
        raw = packer.compress(data) + packer.flush() if method == 8 else data
    return (name.encode(), method, raw, zlib.crc32(data) if crc is None else crc,
            len(data) if size is None else size, flags)


def zip_of(*members: tuple, cut: int | None = None) -> bytes:
    """A zip archive of ``members`` (from :func:`member`), dated 1980-01-01; ``cut``: only its first bytes."""
    body, directory = bytearray(), bytearray()
    for name, method, raw, crc, size, flags in members:
        offset = len(body)
        body += struct.pack("<4sHHHHHIIIHH", b"PK\x03\x04", 20, flags, method, 0, 0x21, crc, len(raw), size,
                            len(name), 0) + name + raw
        directory += struct.pack("<4sHHHHHHIIIHHHHHII", b"PK\x01\x02", 20, 20, flags, method, 0, 0x21, crc,
                                 len(raw), size, len(name), 0, 0, 0, 0, 0, offset) + name
    end = struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, len(members), len(members), len(directory), len(body), 0)
    whole = bytes(body + directory + end)
    return whole if cut is None else whole[:cut]


def workbook_xml(sheets: str = '<sheet name="Cards" sheetId="1" r:id="rId1"/>') -> str:
    return (f'<workbook {NS} xmlns:r="{PKG}officeDocument/2006/relationships"><sheets>{sheets}</sheets>'
            '</workbook>')


def book(sheet: str | bytes, shared: str | bytes | None = None, *, styles: str | None = None,
         workbook: str | None = None, sheet_member: tuple | None = None, extra: tuple = (), level: int = 6) -> bytes:
    """A workbook of one sheet (XML, or ``sheet_member`` as it is) with what else is given, its shared
    strings and sheet deflated at zlib's ``level``."""
    encode = (lambda x: x if isinstance(x, bytes) else x.encode("utf-8"))
    parts = [member("_rels/.rels", ROOT_RELS.encode()), member("xl/workbook.xml", encode(workbook or workbook_xml())),
             member("xl/_rels/workbook.xml.rels", WORKBOOK_RELS.encode())]
    if styles is not None:
        parts.append(member("xl/styles.xml", styles.encode()))
    if shared is not None:
        parts.append(member("xl/sharedStrings.xml", encode(shared), level=level))
    parts.append(sheet_member or member(SHEET, encode(sheet), level=level))
    return zip_of(*parts, *extra)


def sheet(rows: str, root: str = "worksheet", ns: str = NS) -> str:
    return f"<{root} {ns}><sheetData>{HEADER}{rows}</sheetData></{root}>"


def repeated_deflate(unit: bytes, total: int, head: bytes = b"") -> bytes:
    """A raw deflate stream of ``head`` then ``unit`` repeated to some ``total`` bytes, made in
    milliseconds: one block, flushed so that it stands alone, repeated."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    start = packer.compress(head) + packer.flush(zlib.Z_FULL_FLUSH)
    units = max(1, 2**20 // len(unit))
    block = packer.compress(unit * units) + packer.flush(zlib.Z_FULL_FLUSH)
    return start + block * (total // (len(unit) * units)) + packer.flush()


# --- the workbooks ------------------------------------------------------------------------------

def _far_before_a2() -> bytes:
    return book(sheet('<row r="2"><c r="XFD99999" t="inlineStr"><is><t>x</t></is></c>'
                      '<c r="A2" t="inlineStr"><is><t>Card</t></is></c></row>'))


def _rows_under_another_prefix() -> bytes:
    q = 'xmlns:q="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    return book(f'<worksheet {NS} {q}><sheetData>{HEADER}<q:row r="2"><q:c r="XFD99999"><q:v>1</q:v></q:c>'
                '<q:c r="A2" t="inlineStr"><q:is><q:t>Card</q:t></q:is></q:c></q:row></sheetData></worksheet>')


def _every_element_prefixed() -> bytes:
    x = 'xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    return book(f'<x:worksheet {x}><x:sheetData><x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>Name</x:t>'
                '</x:is></x:c></x:row><x:row r="2"><x:c r="XFD99999"><x:v>1</x:v></x:c><x:c r="A2" '
                't="inlineStr"><x:is><x:t>Card</x:t></x:is></x:c></x:row></x:sheetData></x:worksheet>')


def _unknown_default_namespace() -> bytes:
    return book(sheet('<row r="2"><c r="XFD99999"><v>1</v></c></row>', ns='xmlns="urn:not-a-spreadsheet"'))


def _cells_without_references() -> bytes:
    return book(sheet("<row>" + "<c><v>1</v></c>" * 1001 + "</row>"))


def _rows_without_references() -> bytes:
    return book(sheet("<row><c><v>1</v></c></row>" * 100_000))


def _lowercase_far_reference() -> bytes:
    return book(sheet('<row r="2"><c r="xfd99999"><v>1</v></c></row>'))


def _reference_of_20_digits() -> bytes:
    return book(sheet('<row r="2"><c r="A99999999999999999999"><v>1</v></c></row>'))


def _values_past_a_million_cells() -> bytes:
    return book(sheet('<row r="1001"><c r="ALL1001"><v>1</v></c></row>'))


def _good_sheet() -> bytes:
    return sheet('<row r="2"><c r="A2" t="inlineStr"><is><t>Card</t></is></c></row>').encode()


def _bad_crc() -> bytes:
    return book("", sheet_member=member(SHEET, _good_sheet(), crc=zlib.crc32(_good_sheet()) ^ 1))


def _bad_deflate_data() -> bytes:
    raw = bytearray(member(SHEET, _good_sheet())[2])
    raw[0] = 0x07                                        # a final block of the reserved type 3
    return book("", sheet_member=member(SHEET, _good_sheet(), raw=bytes(raw)))


def _truncated_archive() -> bytes:
    whole = book(_good_sheet())
    return whole[:len(whole) // 2]


def _truncated_part() -> bytes:
    raw = member(SHEET, _good_sheet())[2]
    return book("", sheet_member=member(SHEET, _good_sheet(), raw=raw[:len(raw) // 2]))


def _two_sheet_parts_one_name() -> bytes:
    return book(_good_sheet(), extra=(member(SHEET, _good_sheet()),))


def _part_compressed_with_lzma() -> bytes:
    return book("", sheet_member=member(SHEET, _good_sheet(), method=14))


def _part_encrypted() -> bytes:
    return book("", sheet_member=member(SHEET, _good_sheet(), flags=1))


def _doctype_billion_laughs() -> bytes:
    entities = '<!ENTITY a "aaaaaaaaaa">' + "".join(f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">'
                                                    for i in range(8))
    return book(f'<!DOCTYPE worksheet [{entities}]><worksheet {NS}><sheetData>{HEADER}<row r="2"><c r="A2" '
                't="inlineStr"><is><t>&i;</t></is></c></row></sheetData></worksheet>')


def _nested_100000_deep() -> bytes:
    return book(sheet("<a>" * 100_000 + "</a>" * 100_000))


def _tag_of_2_mb() -> bytes:
    return book(sheet(f'<row r="2"><c r="A2" t="inlineStr" x="{"a" * 2 * 2**20}"><is><t>Card</t></is></c></row>'))


def _not_well_formed() -> bytes:
    return book(sheet('<row r="2"><c r="A2"><v>1</c></v></row>'))


def _row_inside_a_cell() -> bytes:
    return book(sheet('<row r="2"><c r="A2"><row r="99999"/></c></row>'))


def _nine_million_tags() -> bytes:
    return book(sheet("<x/>" * 9_000_000))


def _million_shared_strings() -> bytes:
    return book(sheet('<row r="2"><c r="A2" t="s"><v>0</v></c></row>'),
                "<sst " + NS + "><si><t>Card</t></si>" + "<si/>" * 1_000_000 + "</sst>")


def _shared_string_shown(times: int) -> Callable[[], bytes]:
    def make() -> bytes:
        cells = "".join(f'<row r="{r}"><c r="A{r}" t="s"><v>0</v></c></row>' for r in range(2, times + 2))
        return book(sheet(cells), f"<sst {NS}><si><t>{'rules text ' * 3_000}</t></si></sst>")
    return make


def _shared_string_index_past_the_end() -> bytes:
    return book(sheet('<row r="2"><c r="A2" t="s"><v>5</v></c></row>'), f"<sst {NS}><si><t>Card</t></si></sst>")


def _cell_of_2_million_characters() -> bytes:
    text = "<x/>".join(["a" * 700_000] * 3)
    return book(sheet(f'<row r="2"><c r="A2" t="inlineStr"><is><t>{text}</t></is></c></row>'))


def _sheets(count: int) -> str:
    return "".join(f'<sheet name="S{i}" sheetId="{i + 1}" r:id="rId1"/>' for i in range(count))


def _1001_sheets() -> bytes:
    return book(_good_sheet(), workbook=workbook_xml(_sheets(1001)))


def _100001_cell_styles() -> bytes:
    return book(_good_sheet(), styles=f"<styleSheet {NS}><cellXfs>" + "<xf/>" * 100_001 + "</cellXfs></styleSheet>")


def _chart_sheet() -> bytes:
    chart = member("xl/chartsheets/sheet1.xml", f"<chartsheet {NS}><drawing/></chartsheet>".encode())
    return book(_good_sheet(), workbook=workbook_xml('<sheet name="Cards" sheetId="1" r:id="rId1"/>'
                                                     '<sheet name="Chart" sheetId="2" r:id="rId2"/>'),
                extra=(chart,))


def _sheet_declares_1000_bytes() -> bytes:
    raw = repeated_deflate(b"<b/>" + b" " * 1020, 3 * GIB, f"<worksheet {NS}><sheetData>".encode())
    return book("", sheet_member=member(SHEET, b"", raw=raw, crc=0, size=1000))


def _sheet_of_3_gib() -> bytes:
    raw = repeated_deflate(b"<b/>" + b" " * 1020, 3 * GIB, f"<worksheet {NS}><sheetData>".encode())
    return book("", sheet_member=member(SHEET, b"", raw=raw, crc=0, size=3 * GIB))


def _10001_parts() -> bytes:
    return book(_good_sheet(), extra=tuple(member(f"x/{i}", b"") for i in range(10_001)))


# case name -> (builder, what the one Error: line says); "data" in game.toml is cards.xlsx unless
# the name ends in "chart-sheet" (cards.xlsx#Chart)
REFUSED: dict[str, tuple[Callable[[], bytes], str]] = {
    "xlsx-cell-far-before-a2": (_far_before_a2, "has a cell at XFD99999"),
    "xlsx-rows-under-another-prefix": (_rows_under_another_prefix, "has a cell at XFD99999"),
    "xlsx-every-element-prefixed": (_every_element_prefixed, "has a cell at XFD99999"),
    "xlsx-unknown-default-namespace": (_unknown_default_namespace, "has a cell at XFD99999"),
    "xlsx-cells-without-references": (_cells_without_references, "has a cell at ALM2"),
    "xlsx-rows-without-references": (_rows_without_references, "has a cell at A100001"),
    "xlsx-lowercase-far-reference": (_lowercase_far_reference, "has a cell at XFD99999"),
    "xlsx-reference-of-20-digits": (_reference_of_20_digits, "has a cell at A9999999999999999999"),
    "xlsx-values-past-a-million-cells": (_values_past_a_million_cells, "at most 1,000,000 cells"),
    "xlsx-bad-crc": (_bad_crc, "its checksum does not match"),
    "xlsx-bad-deflate-data": (_bad_deflate_data, "its compressed data is damaged"),
    "xlsx-truncated-archive": (_truncated_archive, "its zip archive is truncated or broken"),
    "xlsx-truncated-part": (_truncated_part, "its part xl/worksheets/sheet1.xml cannot be unpacked"),
    "xlsx-two-sheet-parts-one-name": (_two_sheet_parts_one_name, "2 parts named xl/worksheets/sheet1.xml"),
    "xlsx-part-compressed-with-lzma": (_part_compressed_with_lzma, "compressed by a method"),
    "xlsx-part-encrypted": (_part_encrypted, "protected by a password"),
    "xlsx-doctype-billion-laughs": (_doctype_billion_laughs, "declares a document type"),
    "xlsx-nested-100000-deep": (_nested_100000_deep, "nests elements more than 64 deep"),
    "xlsx-tag-of-2-mb": (_tag_of_2_mb, "a tag or a text of more than 1 MB"),
    "xlsx-not-well-formed": (_not_well_formed, "is not well-formed XML"),
    "xlsx-row-inside-a-cell": (_row_inside_a_cell, "an element <row> inside the cell"),
    "xlsx-nine-million-tags": (_nine_million_tags, "more than 8,000,000 tags"),
    "xlsx-million-shared-strings": (_million_shared_strings, "more than 1,000,000 shared strings"),
    "xlsx-shared-string-shown-1200-times": (_shared_string_shown(1200), "more than 32 MB of text"),
    "xlsx-shared-string-index-past-the-end": (_shared_string_index_past_the_end, "shows shared string 5"),
    "xlsx-cell-of-2-million-characters": (_cell_of_2_million_characters, "more than 1,000,000 characters"),
    "xlsx-1001-sheets": (_1001_sheets, "more than 1,000 sheets"),
    "xlsx-100001-cell-styles": (_100001_cell_styles, "more than 100,000 cell styles"),
    "xlsx-chart-sheet": (_chart_sheet, "sheet 'Chart' is not a sheet of cells"),
    "xlsx-sheet-declares-1000-bytes-holds-3-gib": (_sheet_declares_1000_bytes, "its checksum does not match"),
    "xlsx-sheet-of-3-gib": (_sheet_of_3_gib, "unpack to more than 256 MB"),
    "xlsx-shared-string-shown-100000-times": (_shared_string_shown(100_000), "more than 32 MB of text"),
    "xlsx-10001-parts": (_10001_parts, "more than 10,000 parts"),
}
COMMITTED = [name for name in REFUSED if name not in (      # too large, or a second to read: made at test time
    "xlsx-million-shared-strings", "xlsx-sheet-declares-1000-bytes-holds-3-gib", "xlsx-sheet-of-3-gib",
    "xlsx-shared-string-shown-100000-times", "xlsx-10001-parts")]


def million_cells_of_text(last_row: int = 100_000) -> bytes:
    """A sheet at kitgen's bounds: a million cells (10 columns, 100,000 rows), each its own shared
    string, their text 31 MB: what costs the most memory to read (``last_row``: fewer rows, the same form).
    Its 87 MB of XML are deflated at level 1, as fast as zlib packs: a fifth of the time of level 6 for
    a stream of the same kind (the reader inflates either alike)."""
    count = (last_row - 1) * 10
    # string i is "<si><t>{i:09d} card text, long enough</t></si>": joined a thousand at a time, the
    # first six digits once per thousand and the last three from one list
    tails = [f"{i:03d} card text, long enough</t></si>" for i in range(1000)]
    strings = "".join(f"<si><t>{start // 1000:06d}" + f"<si><t>{start // 1000:06d}".join(tails[:count - start])
                      for start in range(0, count, 1000))
    head = "".join(f'<c r="{c}1" t="inlineStr"><is><t>Column {c}</t></is></c>' for c in "ABCDEFGHIJ")
    row = '<row r="%d">' + "".join(f'<c r="{c}%d" t="s"><v>%d</v></c>' for c in "ABCDEFGHIJ") + "</row>"
    rows = "".join([row % (r, r, i, r, i + 1, r, i + 2, r, i + 3, r, i + 4, r, i + 5, r, i + 6, r, i + 7, r, i + 8,
                           r, i + 9) for r, i in zip(range(2, last_row + 1), range(0, count, 10))])
    return book(f"<worksheet {NS}><sheetData><row r=\"1\">{head}</row>{rows}</sheetData></worksheet>",
                f"<sst {NS} uniqueCount=\"{count}\">{strings}</sst>", level=1)


def _unique_count_of_a_trillion() -> bytes:
    return book(sheet('<row r="2"><c r="A2" t="s"><v>0</v></c></row>'),
                f'<sst {NS} count="1" uniqueCount="1000000000000"><si><t>Card</t></si></sst>')


# case name -> (builder, the rows the sheet reads as, header included)
READ: dict[str, tuple[Callable[[], bytes], int]] = {
    "xlsx-a-million-cells-of-text": (million_cells_of_text, 100_000),
    "xlsx-unique-count-of-a-trillion": (_unique_count_of_a_trillion, 2),
}


def flipped(data: bytes, step: int):
    """``data`` with one byte changed, at every ``step``-th place."""
    for at in range(0, len(data), step):
        changed = bytearray(data)
        changed[at] ^= 0x5A
        yield at, bytes(changed)


def fuzz_books() -> dict[str, bytes]:
    """Small workbooks (deflated and stored) with shared strings, styles and formulas, to damage byte by byte."""
    styles = (f'<styleSheet {NS}><numFmts count="1"><numFmt numFmtId="164" formatCode="dd/mm/yyyy"/></numFmts>'
              '<cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="164"/></cellXfs></styleSheet>')
    rows = ('<row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2" s="1"><v>45000</v></c><c r="C2"><f>1+1</f>'
            '<v>2</v></c></row><row r="3"><c r="A3" t="inlineStr"><is><r><t>Rich </t></r><r><t>text</t></r></is>'
            '</c></row>')
    strings = f'<sst {NS}><si><t>Name</t></si><si><t xml:space="preserve"> Temple </t></si></sst>'
    deflated = book(sheet(rows), strings, styles=styles)
    parts = [member("_rels/.rels", ROOT_RELS.encode(), 0), member("xl/workbook.xml", workbook_xml().encode(), 0),
             member("xl/_rels/workbook.xml.rels", WORKBOOK_RELS.encode(), 0),
             member("xl/styles.xml", styles.encode(), 0), member("xl/sharedStrings.xml", strings.encode(), 0),
             member(SHEET, sheet(rows).encode(), 0)]
    return {"deflated": deflated, "stored": zip_of(*parts)}


# --- the runner ---------------------------------------------------------------------------------

LIMIT = 2**30            # address space of each case's process
ALARM = 60               # seconds before a case's process is stopped as hung


def game_folder(folder: Path, name: str, data: bytes) -> Path:
    folder.mkdir(parents=True)
    target = "cards.xlsx#Chart" if name.endswith("chart-sheet") else "cards.xlsx"
    (folder / "game.toml").write_text(f'title = "Hostile"\ndata = "{target}"\n', encoding="utf-8")
    (folder / "cards.xlsx").write_bytes(data)
    return folder


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _in_child(work: Callable[[], dict], report: Path) -> dict:
    """Run ``work()`` in a forked child under :data:`LIMIT` and :data:`ALARM`; its JSON result, with the
    child's peak resident memory and how it ended."""
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            import resource
            resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))
            signal.alarm(ALARM)
            report.write_text(json.dumps(work()), encoding="utf-8")
        except BaseException as exc:                   # noqa: BLE001 - reported, never hidden
            report.write_text(json.dumps({"crash": f"{type(exc).__name__}: {exc}"[:2000]}), encoding="utf-8")
            code = 1
        os._exit(code)
    start = time.monotonic()
    _, status, usage = os.wait4(pid, 0)
    result = json.loads(report.read_text(encoding="utf-8")) if report.exists() else {}
    result["signal"] = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    result["peak_mb"] = usage.ru_maxrss / 1024
    result["seconds"] = time.monotonic() - start            # reported, never asserted
    return result


def _refused(folder: Path, previous: Path, out: Path) -> dict:
    from click.testing import CliRunner

    from kitgen.cli.group import cli

    shutil.copytree(previous, out)
    before = _tree(out)
    validate = CliRunner().invoke(cli, ["validate", str(folder)])
    build = CliRunner().invoke(cli, ["build", str(folder), "--out", str(out)])
    return {"validate": [validate.exit_code, validate.output, repr(validate.exception)],
            "build": [build.exit_code, build.output, repr(build.exception)],
            "kit_untouched": _tree(out) == before and sorted(p.name for p in out.iterdir()) == ["hostile"]}


def _read(path: Path) -> dict:
    from kitgen.data.problems import Problems
    from kitgen.data.sheet import read_sheet

    table = read_sheet(path, path.name, None, Problems(collect=True))
    return {"rows": len(table.rows) + 1}


def _fuzz(books: dict[str, bytes], folder: Path, step: int) -> dict:
    from kitgen.data.problems import Problems
    from kitgen.data.sheet import read_sheet
    from kitgen.errors import KitgenError

    tried, other = 0, []
    for kind, data in books.items():
        path = folder / "cards.xlsx"
        for at, changed in flipped(data, step):
            tried += 1
            try:                                        # the bytes as read from the file: the reader is under test
                read_sheet(path, "cards.xlsx", None, Problems(collect=True), raw=changed)
            except KitgenError as exc:
                if not str(exc).startswith("cards.xlsx"):
                    other.append(f"{kind} byte {at}: {exc}")
            except Exception as exc:                   # noqa: BLE001 - what the test looks for
                other.append(f"{kind} byte {at}: {type(exc).__name__}: {exc}")
    return {"tried": tried, "not_kitgen_errors": other[:20]}


def main(work: Path) -> None:
    """Run every case under ``work`` and write work/results.json."""
    from click.testing import CliRunner

    from kitgen.cli.group import cli                     # imported once, before the children are forked

    good = work / "good"
    good.mkdir(parents=True)
    (good / "game.toml").write_text('title = "Hostile"\n[types.action]\nlabel = "Action"\ncolor = "#2a9d8f"\n',
                                    encoding="utf-8")
    (good / "cards.csv").write_text("name,type,count\nGather,action,2\n", encoding="utf-8")
    previous = work / "previous"
    built = CliRunner().invoke(cli, ["build", str(good), "--out", str(previous)])
    assert built.exit_code == 0, built.output
    results = {}
    for name, (make, _) in REFUSED.items():
        folder = game_folder(work / name / "game", name, make())
        results[name] = _in_child(lambda: _refused(folder, previous, work / name / "out"), work / name / "result")
    for name, (make, _) in READ.items():
        folder = game_folder(work / name / "game", name, make())
        results[name] = _in_child(lambda: _read(folder / "cards.xlsx"), work / name / "result")
    fuzz = work / "fuzz"
    fuzz.mkdir()
    results["fuzz"] = _in_child(lambda: _fuzz(fuzz_books(), fuzz, 3), fuzz / "result")
    (work / "results.json").write_text(json.dumps(results), encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
