"""The XLSX reader's fast path (runs of plain rows and shared strings matched at C speed) against
expat alone: on every workbook of tests/xlsx_hostile.py, on workbooks with bytes changed and on
random sheets, both give the same rewritten workbook, part by part, or the same error.
"""

from __future__ import annotations

import io
import random
import zipfile

import pytest

from kitgen.data import xlsx_book, xlsx_sheet
from kitgen.data.xlsx import _read_values as read_values
from kitgen.data.xlsx import rewrite
from kitgen.errors import KitgenError
from tests.xlsx_hostile import (NS, READ, REFUSED, ROOT_RELS, SHEET, WORKBOOK_RELS, book, flipped, member,
                                million_cells_of_text, sheet, workbook_xml, zip_of)

# refused while the archive is measured, before a handler runs: no path to compare
MEASURED_ONLY = ("xlsx-sheet-declares-1000-bytes-holds-3-gib", "xlsx-sheet-of-3-gib", "xlsx-nine-million-tags",
                 "xlsx-10001-parts")
# a second of CPU on expat alone: compared below at a bound lowered to a thousand, in the same form
SCALED = ("xlsx-million-shared-strings", "xlsx-rows-without-references")


def outcome(data: bytes, fast: bool, sheet: str | None = None) -> tuple:
    """What the reader makes of ``data``: each part of the rewritten workbook and the formula problems,
    or the error's message."""
    try:
        found, rewritten, formulas = rewrite(data, "cards.xlsx", sheet, fast)
    except KitgenError as exc:
        return ("error", str(exc))
    archive = zipfile.ZipFile(io.BytesIO(rewritten))
    return (found, [(i.filename, i.compress_size, archive.read(i)) for i in archive.infolist()], formulas)


def same(data: bytes, sheet: str | None = None) -> tuple:
    fast, full = outcome(data, True, sheet), outcome(data, False, sheet)
    assert fast == full
    return fast


def taken_fast(monkeypatch) -> dict[str, int]:
    """How many runs each fast path took (or stopped at with an error) while the test runs (a
    differential test that never took the fast path would prove nothing)."""
    calls = {"rows": 0, "strings": 0}
    for name, cls in (("rows", xlsx_sheet.Cells), ("strings", xlsx_book._SharedStrings)):
        def counted(self, run, form=0, _fast=cls.fast, _name=name):
            took = False
            try:
                took = _fast(self, run, form)
            except KitgenError:
                took = True
                raise
            finally:
                calls[_name] += took
            return took
        monkeypatch.setattr(cls, "fast", counted)
    return calls


@pytest.mark.parametrize("name", [n for n in REFUSED if n not in MEASURED_ONLY + SCALED])
def test_a_hostile_workbook_reads_the_same_on_both_paths(name):
    result = same(REFUSED[name][0](), "Chart" if name.endswith("chart-sheet") else None)
    assert result[0] == "error" and REFUSED[name][1] in result[1]


def test_the_largest_hostile_workbooks_read_the_same_on_both_paths_at_a_lower_bound(monkeypatch):
    calls = taken_fast(monkeypatch)
    monkeypatch.setattr(xlsx_book, "MAX_SHARED_STRINGS", 2_000)
    monkeypatch.setattr(xlsx_sheet, "MAX_ROWS", 1_000)
    strings = book(sheet('<row r="2"><c r="A2" t="s"><v>0</v></c></row>'),
                   "<sst " + NS + "><si><t>Card</t></si>" + "<si/>" * 2_000 + "</sst>")
    result = same(strings)
    assert result[0] == "error" and "more than 2,000 shared strings" in result[1]
    assert calls["strings"]
    rows = same(book(sheet("<row><c><v>1</v></c></row>" * 1_000)))
    assert rows[0] == "error" and "at most 1,000 rows" in rows[1]


def test_the_workbooks_at_the_bounds_read_the_same_on_both_paths(monkeypatch):
    calls = taken_fast(monkeypatch)
    for name, (make, _) in READ.items():
        if name != "xlsx-a-million-cells-of-text":
            assert same(make())[0] != "error"
    # the million cells of text, scaled to 3,000 rows (the same form, the same paths, many chunks)
    found, parts, _ = same(million_cells_of_text(3_000))
    assert calls["rows"] > 1 and calls["strings"] > 1
    sheet_xml = dict((n, d) for n, _, d in parts)[SHEET]
    assert sheet_xml.count(b"<c ") == 29_990 + 10


def _plain_book() -> tuple[str, str]:
    """A sheet and shared strings in the plain forms, with what leaves them between."""
    strings = (f'<sst {NS}><si><t>Name</t></si><si><t xml:space="preserve"> Temple </t></si><si><t>  lead  </t></si>'
               '<si><t>caf\u00e9 \u2014 ok</t></si><si><t>a "quote" &gt; b</t></si><si><t>x</t></si></sst>')
    rows = ('<row r="2" spans="1:4"><c r="A2" t="s"><v>1</v></c><c r="B2" s="1"><v>45000</v></c>'
            '<c r="C2" t="s"><v>2</v></c></row>'
            '<row r="3"><c r="A3" t="inlineStr"><is><t>Inline</t></is></c><c r="B3" t="n"><v>2.5</v></c>'
            '<c r="C3" s="2"/><c r="D3" t="b"><v>1</v></c></row>'
            '<row r="4" ht="15" customHeight="1"><c r="A4" t="s"><v>3</v></c><c r="B4" t="str"><v>t&lt;x</v></c></row>'
            '<row r="5"><c r="A5" t="s"><v>0</v></c><c r="B5" t="s"><v>5</v></c></row>'
            '<row r="6"/><row r="7"><c r="A7"><f>1+1</f><v>2</v></c><c r="B7" t="e"><v>#N/A</v></c></row>'
            '<row r="8"><c r="A8" t="s"><v>4</v></c>'
            '<c r="C8" t="inlineStr"><is><t xml:space="preserve"> p </t></is></c>'
            '</row><row r="9"><c r="A9" t="s"><v>5</v></c></row>')
    return sheet(rows), strings


def test_a_workbook_with_any_byte_of_its_xml_changed_reads_the_same_on_both_paths(monkeypatch):
    calls = taken_fast(monkeypatch)
    sheet_xml, strings = _plain_book()
    styles = (f'<styleSheet {NS}><numFmts count="1"><numFmt numFmtId="164" formatCode="dd/mm/yyyy"/></numFmts>'
              '<cellXfs count="3"><xf numFmtId="0"/><xf numFmtId="164"/><xf numFmtId="0"/></cellXfs></styleSheet>')
    head = [member("_rels/.rels", ROOT_RELS.encode(), 0), member("xl/workbook.xml", workbook_xml().encode(), 0),
            member("xl/_rels/workbook.xml.rels", WORKBOOK_RELS.encode(), 0),
            member("xl/styles.xml", styles.encode(), 0)]
    first = same(zip_of(*head, member("xl/sharedStrings.xml", strings.encode(), 0),
                        member(SHEET, sheet_xml.encode(), 0)))
    assert first[0] != "error"
    assert calls["rows"] and calls["strings"]
    read = errors = 0
    for part, other, xml in (("sheet", strings, sheet_xml), ("strings", sheet_xml, strings)):
        for _, changed in flipped(xml.encode(), 2):
            members = ((changed, other.encode()) if part == "sheet" else (other.encode(), changed))
            result = same(zip_of(*head, member("xl/sharedStrings.xml", members[1], 0),
                                 member(SHEET, members[0], 0)))
            errors += result[0] == "error"
            read += result[0] != "error"
    assert read > 100 and errors > 100


_KINDS = ['', ' t="s"', ' t="n"', ' t="str"', ' t="b"', ' t="e"', ' t="inlineStr"', ' t="x"']
_TEXTS = ["1", "0", "12", "007", "", "2.5", "-3e5", "abc", "caf\u00e9", " sp ", "a\tb", "a&amp;b", "x]]y",
          "line\nbreak", "cr\rhere", "&#65;", "\ufffe", "<![CDATA[c]]>", "a]]>b", "\x01"]   # the last 4: not plain


def _random_cell(rng: random.Random, row: int, col: int, hostile: bool) -> str:
    letters = xlsx_sheet.column_letters(col)
    far = [f' r="XFD{row}"', f' r="{letters}{row + 100_000}"'] if hostile and rng.random() < 0.1 else []
    ref = rng.choice([f' r="{letters}{row}"'] * 6 + [f' r="{letters.lower()}{row}"', f' r="{letters}0{row}"', ""]
                     + far)
    style = rng.choice(["", "", ' s="1"', ' s="x"'])
    kind = rng.choice(_KINDS)
    attrs = rng.choice([ref + style + kind] * 5 + [kind + ref + style, ref + style + kind + ' cm="1"'])
    text = rng.choice(_TEXTS if hostile else _TEXTS[:-4])
    body = rng.choice([f"<v>{text}</v>"] * 4 + [
        f"<is><t>{text}</t></is>", f'<is><t xml:space="preserve">{text}</t></is>', f"<f>A1</f><v>{text}</v>",
        f"<is><r><t>{text}</t></r><r><t>2</t></r></is>", "", f"<x:v>{text}</x:v>", f"<v>{text}</v><!-- c -->"])
    return f"<c{attrs}/>" if body == "" and rng.random() < 0.5 else f"<c{attrs}>{body}</c>"


def _random_book(rng: random.Random) -> bytes:
    hostile = rng.random() < 0.3
    rows, row = [], 1
    for _ in range(rng.randint(1, 40)):
        row += rng.choice([1, 1, 1, 2, 0])
        cells = "".join(_random_cell(rng, row, c, hostile) for c in range(rng.randint(0, 6)))
        attrs = rng.choice([f' r="{row}"'] * 6 + [f' r="{row}" spans="1:6"', "", f' r="0{row}"',
                                                  f' spans="1:2" r="{row}"'])
        tag = rng.choice(["row"] * 8 + ["x:row"])
        rows.append(f"<{tag}{attrs}>{cells}</{tag}>" + rng.choice(["", "", "\n", " ", "<!-- </row> -->"]))
    texts = "".join(rng.choice([f"<si><t>{t}</t></si>", f'<si><t xml:space="preserve">{t}</t></si>', "<si/>",
                                f"<si><r><t>{t}</t></r></si>", f"<si><t>{t}</t><rPh><t>ph</t></rPh></si>"])
                    for t in (rng.choice(_TEXTS if hostile else _TEXTS[:-4]) for _ in range(rng.randint(0, 12))))
    declaration = rng.choice(["", "", '<?xml version="1.0" encoding="UTF-8"?>',
                              '<?xml version="1.0" encoding="ISO-8859-1"?>'])
    return book(declaration + f"<worksheet {NS}><sheetData>{''.join(rows)}</sheetData></worksheet>",
                f"{declaration}<sst {NS}>{texts}</sst>")


def test_random_sheets_read_the_same_on_both_paths(monkeypatch):
    calls = taken_fast(monkeypatch)
    rng = random.Random(20)
    outcomes = {"error": 0, "read": 0}
    for _ in range(400):
        result = same(_random_book(rng))
        outcomes["error" if result[0] == "error" else "read"] += 1
    assert min(outcomes.values()) > 50, outcomes
    assert calls["rows"] > 50 and calls["strings"] > 50


@pytest.mark.parametrize("fast", [True, False])
def test_texts_keep_the_spaces_at_their_ends_only_where_the_workbook_preserves_them(fast):
    # the rewritten workbook marks a text xml:space="preserve" only where it starts or ends with a
    # space, tab or line break: every text here must still read as the workbook says
    texts = [" lead", "tail\t", "\u3000wide\u3000", "in  side", "", "x"]
    strings = "".join(f'<si><t xml:space="preserve">{t}</t></si><si><t>{t}</t></si>' for t in texts)
    cells = "".join(f'<row r="{i + 1}"><c r="A{i + 1}" t="s"><v>{2 * i}</v></c><c r="B{i + 1}" t="s"><v>{2 * i + 1}'
                    f'</v></c><c r="C{i + 1}" t="inlineStr"><is><t xml:space="preserve">{t}</t></is></c>'
                    f'<c r="D{i + 1}" t="inlineStr"><is><t>{t}</t></is></c></row>' for i, t in enumerate(texts))
    found, rewritten, _ = rewrite(book(sheet(cells), f"<sst {NS}>{strings}</sst>"), "cards.xlsx", None, fast)
    got = read_values(rewritten, "cards.xlsx", found.name)
    trimmed = ["lead", "tail", "\u3000wide\u3000", "in  side", "", "x"]
    assert got == [(i + 1, [t, s, t, s]) for i, (t, s) in enumerate(zip(texts, trimmed))]


def test_a_cell_without_a_reference_is_in_its_rows_line_on_both_paths(monkeypatch):
    # a cell with no r="" takes the next column of its own row, even after a cell whose reference names
    # another row (as expat's path always did): B1 here, not B5
    calls = taken_fast(monkeypatch)
    rows = "".join(f'<row r="{r}"><c r="A{r + 4}"><v>{r}</v></c><c><v>{r + 10}</v></c></row>' for r in range(1, 4))
    found = same(book(sheet(rows)))
    assert found[0] != "error" and calls["rows"] > 0
    xml = dict((name, data) for name, _, data in found[1])[SHEET].decode()
    assert [f'<c r="B{r}"><v>{r + 10}</v></c>' in xml for r in range(1, 4)] == [True] * 3
