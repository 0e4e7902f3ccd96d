"""An XLSX workbook's own parts, read within bounds: its list of sheets, styles and shared strings.

Each reader follows the XML as the reader of python-calamine does (elements matched by their
name without prefix, attributes by their name as written), keeps only what a card sheet needs,
and writes it again as plain XML for the workbook that python-calamine is given: the sheets
become the one sheet asked for, the styles the number format of each cell style, the shared
strings plain runs of text (whitespace kept or trimmed as the original says).  The bounds:
:data:`MAX_SHEETS` sheets, :data:`MAX_STYLES` number formats and cell styles,
:data:`MAX_SHARED_STRINGS` shared strings of :data:`MAX_SHARED_BYTES` in all, and no cell's
text longer than :data:`MAX_CELL_TEXT`.
"""

from __future__ import annotations

import posixpath
import re
from array import array
from dataclasses import dataclass

from kitgen.data.xlsx_zip import LOCAL, MAX_DEPTH, Elements, Parts, Rewritten, damaged, escape_text, local, too_deep
from kitgen.errors import GameDataError, LimitError

MAX_SHEETS = 1_000                   # sheets of one workbook
MAX_SHEET_NAME = 255                 # characters of a sheet's name (spreadsheet programs allow 31)
MAX_SMALL_PART = 16 * 2**20          # bytes of the list of sheets, its relationships, the styles, unpacked
MAX_STYLES = 100_000                 # number formats, and cell styles (a spreadsheet program allows some 64,000)
MAX_SHARED_STRINGS = 1_000_000       # shared strings: the different texts of all the workbook's sheets
MAX_SHARED_BYTES = 64 * 2**20        # their text, in UTF-8
MAX_CELL_TEXT = 1_000_000            # characters of one cell's text (a spreadsheet program allows 32,767)

WORKBOOK = "xl/workbook.xml"


def uncaptured(pattern: str) -> str:
    """``pattern`` with its groups made non-capturing (a run of items is matched whole, then item by item)."""
    return re.sub(r"\((?!\?)", "(?:", pattern)


# The text of a <t>, <v> in the plain form the fast paths take (:class:`~kitgen.data.xlsx_zip.Fast`):
# no markup, entity, "]" (of "]]>"), line break (which would shift expat's line numbers) or control
# character XML refuses; characters beyond ASCII are checked as UTF-8 where a run is decoded.
PLAIN_TEXT = r'[^<&\]\r\n\x00-\x08\x0b\x0c\x0e-\x1f]*+'
_PLAIN_STRING = r'<si(?:(/)>|><t( xml:space="preserve")?>(' + PLAIN_TEXT + r')</t></si>)'
_STRINGS_RUN = re.compile(f"(?:{uncaptured(_PLAIN_STRING)})++".encode())
_STRING = re.compile(_PLAIN_STRING)
_BUILTIN = {"14", "15", "16", "17", "18", "19", "20", "21", "22", "45", "46", "47"}   # dates and durations


@dataclass(frozen=True)
class Book:
    name: str             # the sheet read
    part: str             # its member of the archive
    date1904: bool        # dates count from 1904, as in old Mac workbooks
    sheets: tuple[str, ...] = ()   # the names of all the workbook's sheets, in order


def read_book(parts: Parts, wanted: str | None) -> Book:
    """The sheet named ``wanted`` (any case), or the first sheet, of the workbook."""
    where = parts.where
    info = parts.find(WORKBOOK)
    if info is None:
        raise GameDataError("not an XLSX workbook (a zip archive without xl/workbook.xml); save the sheet "
                            "from the spreadsheet program as .xlsx, or as CSV", file=where)
    sheets = _Sheets(where)
    parts.parse(info, sheets, MAX_SMALL_PART)
    if not sheets.found:
        raise GameDataError("the workbook has no sheets", file=where)
    if wanted is None:
        name, rel_id = sheets.found[0]
    else:
        found = ([s for s in sheets.found if s[0] == wanted]
                 or [s for s in sheets.found if s[0].casefold() == wanted.casefold()])
        if not found:
            raise GameDataError(f"no sheet named {wanted!r} in the workbook (its sheets: "
                                f"{', '.join(s[0] for s in sheets.found)})", file=where)
        name, rel_id = found[0]
    rels_info = parts.find("xl/_rels/workbook.xml.rels")
    rels = _Relationship(where, rel_id)
    if rels_info is not None:
        parts.parse(rels_info, rels, MAX_SMALL_PART)
    if rels.target is None:
        raise damaged(where, "its list of sheets cannot be read (no part holds the sheet "
                             f"{name!r})")
    target = rels.target
    part = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join("xl", target))
    if parts.find(part) is None:
        raise GameDataError(f"sheet {name!r} is not a sheet of cells (a chart?); name another one "
                            "as data = \"file.xlsx#Sheet\" in game.toml", file=where)
    return Book(name=name, part=part, date1904=sheets.date1904, sheets=tuple(s[0] for s in sheets.found))


class _Sheets(Elements):
    """workbook.xml: each <sheet>'s name and relationship id, and whether dates count from 1904."""

    def __init__(self, where: str):
        self.where = where
        self.found: list[tuple[str, str]] = []
        self.date1904 = False

    def start(self, name: str, attrs: dict[str, str]) -> None:
        tag = local(name)
        if tag == "sheet":
            if len(self.found) >= MAX_SHEETS:
                raise LimitError(f"the workbook has more than {MAX_SHEETS:,} sheets, the most kitgen reads",
                                 file=self.where)
            title = attrs.get("name", "")
            if len(title) > MAX_SHEET_NAME:
                raise damaged(self.where, f"a sheet's name is {len(title):,} characters long (at most 31 in "
                                          "spreadsheet programs)")
            rel_id = ""
            for key, value in attrs.items():          # r:id, whatever its prefix, or a plain id
                if local(key) == "id":
                    rel_id = value
            self.found.append((title, rel_id))
        elif tag == "workbookPr":
            self.date1904 = attrs.get("date1904") in ("1", "true")


class _Relationship(Elements):
    """workbook.xml.rels: the target of the relationship ``rel_id``."""

    def __init__(self, where: str, rel_id: str):
        self.where, self.rel_id = where, rel_id
        self.target: str | None = None

    def start(self, name: str, attrs: dict[str, str]) -> None:
        if local(name) == "Relationship" and attrs.get("Id") == self.rel_id:
            self.target = attrs.get("Target", "")


def write_book(out: Rewritten, book: Book) -> None:
    """The rewritten workbook's list of sheets: the one sheet read, as xl/worksheets/sheet1.xml."""
    ns = "http://schemas.openxmlformats.org/"
    out.add("_rels/.rels", f'<Relationships xmlns="{ns}package/2006/relationships"><Relationship Id="rId1" '
                           f'Type="{ns}officeDocument/2006/relationships/officeDocument" '
                           'Target="xl/workbook.xml"/></Relationships>')
    out.add(WORKBOOK, f'<workbook xmlns="{ns}spreadsheetml/2006/main" xmlns:r="{ns}officeDocument/2006/'
                      f'relationships"><workbookPr date1904="{int(book.date1904)}"/><sheets>'
                      '<sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>')
    out.add("xl/_rels/workbook.xml.rels", f'<Relationships xmlns="{ns}package/2006/relationships">'
                                          f'<Relationship Id="rId1" Type="{ns}officeDocument/2006/relationships/'
                                          'worksheet" Target="worksheets/sheet1.xml"/></Relationships>')


def copy_styles(parts: Parts, out: Rewritten) -> None:
    """xl/styles.xml rewritten: the number format of each cell style (which tells dates from numbers)."""
    info = parts.find("xl/styles.xml")
    if info is None:
        return
    styles = _Styles(parts.where)
    parts.parse(info, styles, MAX_SMALL_PART)
    formats = "".join(f'<numFmt numFmtId="k{i}" formatCode="{escape_text(code)}"/>'
                      for i, code in enumerate(styles.codes) if code is not None)
    cells = "".join('<xf/>' if fmt is None else f'<xf numFmtId="{fmt}"/>' for fmt in styles.cell_formats)
    out.add("xl/styles.xml", f"<styleSheet><numFmts>{formats}</numFmts><cellXfs>{cells}</cellXfs></styleSheet>")


class _Styles(Elements):
    """styles.xml as the reader takes it: <numFmt>s inside <numFmts>, then each <xf> inside <cellXfs>
    takes the custom format of its numFmtId defined so far, or the built-in one."""

    def __init__(self, where: str):
        self.where = where
        self.custom: dict[str, str] = {}
        self.codes: list[str | None] = []             # by cell style: its custom format code
        self.cell_formats: list[str | None] = []      # by cell style: its numFmtId in the rewritten styles
        self.inside = ""                              # "numFmts" or "cellXfs"

    def start(self, name: str, attrs: dict[str, str]) -> None:
        tag = local(name)
        if not self.inside and tag in ("numFmts", "cellXfs"):
            self.inside = tag
        elif self.inside == "numFmts" and tag == "numFmt":
            if "numFmtId" in attrs and "formatCode" in attrs:
                if len(self.custom) >= MAX_STYLES:
                    raise LimitError(f"the workbook's styles define more than {MAX_STYLES:,} number formats, "
                                     "the most kitgen reads", file=self.where)
                self.custom[attrs["numFmtId"]] = attrs["formatCode"]
        elif self.inside == "cellXfs" and tag == "xf":
            if len(self.cell_formats) >= MAX_STYLES:
                raise LimitError(f"the workbook has more than {MAX_STYLES:,} cell styles, the most kitgen reads",
                                 file=self.where)
            fmt = attrs.get("numFmtId")
            code = self.custom.get(fmt) if fmt is not None else None
            self.codes.append(code)
            if code is not None:
                self.cell_formats.append(f"k{len(self.codes) - 1}")
            else:
                self.cell_formats.append(fmt if fmt in _BUILTIN else None)

    def end(self, name: str) -> None:
        if self.inside and local(name) == self.inside:
            self.inside = ""


def copy_shared_strings(parts: Parts, out: Rewritten) -> array:
    """xl/sharedStrings.xml rewritten as plain runs of text; the UTF-8 length of each string (at least:
    escapes such as _x000D_ are counted as written)."""
    info = parts.find("xl/sharedStrings.xml")
    lengths = array("Q")
    if info is None:
        return lengths
    with out.part("xl/sharedStrings.xml") as stream:
        stream.write(b"<sst>")
        strings = _SharedStrings(parts.where, stream, lengths)
        parts.parse(info, strings)
        strings.flush()
        stream.write(b"</sst>")
    return lengths


class Runs:
    """The text of one string (a shared string, or a cell's inline string) as the reader puts it
    together: every <t> outside a phonetic run (<rPh>), each trimmed of spaces and line breaks
    unless it says xml:space="preserve".  One object reads string after string (:meth:`begin`)."""

    def __init__(self, where: str, closed=None):
        self.where, self.closed = where, closed    # closed(): called as the string's own element ends
        self.begin("", "")
        self.preserve = False
        self.piece: list[str] = []            # the open <t>'s text

    def begin(self, name: str, tag: str) -> None:
        """Start a string held by the element ``name`` (<si>, <is>: ``tag``)."""
        self.name, self.tag = name, tag
        self.depth = 0                        # elements open inside the string's own
        self.pieces: list[str] = []
        self.size = self.bytes = 0            # characters read; UTF-8 bytes kept
        self.phonetic = False
        self.t_name: str | None = None

    def start(self, name: str, attrs: dict[str, str]) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise too_deep(self.where)
        tag = LOCAL.get(name) or local(name)
        if tag == "t" and not self.phonetic:
            if self.t_name is not None:
                raise damaged(self.where, "a text element <t> inside another")
            self.t_name, self.preserve, self.piece = name, attrs.get("xml:space") == "preserve", []
        elif tag == "rPh":
            self.phonetic = True
        elif tag == self.tag:
            raise damaged(self.where, f"an element <{name}> inside another")

    def end(self, name: str) -> None:
        if not self.depth:                    # the string's own element: its owner's handler, when it has one
            self.closed()
            return
        self.depth -= 1
        if name == self.t_name:
            self._add("".join(self.piece), self.preserve)
            self.t_name = None
        elif local(name) == "rPh":
            self.phonetic = False

    def _add(self, piece: str, preserve: bool) -> None:
        if not preserve:
            piece = piece.strip(" \t\r\n")
        self.pieces.append(piece)
        self.bytes += len(piece) if piece.isascii() else len(piece.encode("utf-8"))

    def plain(self, text: str, preserve: bool, empty: bool = False) -> None:
        """A whole string that is one plain <t> holding ``text`` (or ``empty``, no <t>), as :meth:`begin`,
        :meth:`start`, :meth:`text` and :meth:`end` read it (the fast paths)."""
        self.pieces, self.bytes, self.size = [], 0, len(text)
        if self.size > MAX_CELL_TEXT:
            raise self._too_long()
        if not empty:
            self._add(text, preserve)

    def text(self, data: str) -> None:
        if self.t_name is not None:
            self.size += len(data)
            if self.size > MAX_CELL_TEXT:
                raise self._too_long()
            self.piece.append(data)

    def _too_long(self) -> LimitError:
        return LimitError(f"a cell holds more than {MAX_CELL_TEXT:,} characters, the most kitgen reads (a "
                          "spreadsheet program allows 32,767)", file=self.where)

    def xml(self) -> str:
        """The string as <t> elements the reader puts together into the same text."""
        if not self.pieces:
            return ""
        if len(self.pieces) == 1:
            return text_element(self.pieces[0])
        return "".join(f'<r><t xml:space="preserve">{escape_text(p)}</t></r>' for p in self.pieces)

    def length(self) -> int:
        """The string's UTF-8 bytes (at least: escapes such as _x000D_ are counted as written)."""
        return self.bytes


def text_element(piece: str) -> str:
    """A <t> the reader takes as ``piece``: told to keep its spaces only where it starts or ends with one
    (the reader trims spaces, tabs and line breaks, nothing else), which most texts do not."""
    if piece[:1] in _EDGES or piece[-1:] in _EDGES:
        return f'<t xml:space="preserve">{escape_text(piece)}</t>'
    return f"<t>{escape_text(piece)}</t>"


_EDGES = (" ", "\t", "\r", "\n")


class _SharedStrings:
    """sharedStrings.xml: each <si> inside <sst>, written again as it streams by."""

    def __init__(self, where: str, stream, lengths: array):
        self.where, self.stream, self.lengths = where, stream, lengths
        self.state = "before"                 # <sst> not yet met; "inside" it; "after" it (the rest is not read)
        self.depth = 0                        # elements open, outside the strings
        self.string = Runs(where, self.end_of_string)
        self.total = 0
        self.pending: list[str] = []

    def attach(self, parser) -> None:
        self.parser = parser
        self._outside = (self.start, self.end)
        self._inside = (self.string.start, self.string.end, self.string.text)
        parser.StartElementHandler = self.start
        parser.EndElementHandler = self.end

    def start(self, name: str, attrs: dict[str, str]) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise too_deep(self.where)
        tag = LOCAL.get(name) or local(name)
        if self.state == "inside" and tag == "si":
            if len(self.lengths) >= MAX_SHARED_STRINGS:
                raise self._too_many()
            self.string.begin(name, tag)
            parser = self.parser
            parser.StartElementHandler, parser.EndElementHandler, parser.CharacterDataHandler = self._inside
        elif self.state == "before" and tag == "sst":
            self.state = "inside"

    def end(self, name: str) -> None:
        self.depth -= 1
        if self.state == "inside" and local(name) == "sst":
            self.state = "after"

    def end_of_string(self) -> None:
        string = self.string
        self.depth -= 1
        size = string.bytes
        self.total += size
        if self.total > MAX_SHARED_BYTES:
            raise self._too_much()
        self.lengths.append(size)
        self.pending.append(f"<si>{string.xml()}</si>")
        if len(self.pending) >= 4096:
            self.flush()
        parser = self.parser
        parser.StartElementHandler, parser.EndElementHandler = self._outside
        parser.CharacterDataHandler = None
        if string.name == "si":               # a plain </si> ended: the fast path may take what follows
            self.fast_ready = parser.CurrentByteIndex + len(self.fast_end)

    # --- the fast path: runs of <si><t>text</t></si>, each as expat and the handlers above take it ---

    fast_end = b"</si>"
    fast_runs = (_STRINGS_RUN,)
    fast_ready = -1

    def fast(self, run: bytes, form: int) -> bool:
        text = decoded(run)
        if text is None or self.depth >= MAX_DEPTH:
            return False
        items = None
        blank = text.count("<si/>") * len("<si/>") == len(text)
        if blank:                                               # each one <si/>: nothing to split
            raw = pieces = [""] * (len(text) // len("<si/>"))
        elif "<si/>" not in text and "xml:space" not in text:   # each one <si><t>text</t></si>: split at C speed
            raw = text[len("<si><t>"):-len("</t></si>")].split("</t></si><si><t>")
            spaced = "<t> " in text or "<t>\t" in text or " </t>" in text or "\t</t>" in text
            pieces = [t.strip(" \t\r\n") for t in raw] if spaced else raw
        else:
            items = _STRING.findall(text)
            raw = [t for _, _, t in items]
            pieces = [t if preserve else t.strip(" \t\r\n") for _, preserve, t in items]
        sizes = list(map(len, pieces)) if text.isascii() else [len(p.encode("utf-8")) for p in pieces]
        total = self.total + sum(sizes)
        if (len(self.lengths) + len(raw) > MAX_SHARED_STRINGS or total > MAX_SHARED_BYTES
                or len(text) > MAX_CELL_TEXT and max(map(len, raw)) > MAX_CELL_TEXT):
            self._one_by_one(_STRING.findall(text))   # a bound is passed: the same error, at the same string
        self.total = total
        self.lengths.extend(sizes)
        if blank:                               # as Runs.xml() writes an <si/>
            self.pending.append("<si></si>" * len(pieces))
        elif items is not None:                 # as Runs.xml() writes an <si/>, and a string of one piece
            self.pending += ["<si></si>" if empty else f"<si>{text_element(piece)}</si>"
                             for (empty, _, _), piece in zip(items, pieces)]
        else:                                   # the same, the pieces escaped at once (none holds a NUL): none
            self.pending.append("<si><t>"       # keeps a space at its ends, as no string preserves them
                                + escape_text("\0".join(pieces)).replace("\0", "</t></si><si><t>") + "</t></si>")
        self.flush()        # a run's text is written as it is taken: kept, the runs held the whole part
        return True

    def _one_by_one(self, items: list[tuple[str, str]]) -> None:
        """The strings of a run one by one, as expat and the handlers take them, up to the one that
        passes a bound (raised)."""
        string, lengths = self.string, self.lengths
        for empty, preserve, t in items:
            if len(lengths) >= MAX_SHARED_STRINGS:
                raise self._too_many()
            string.plain(t, bool(preserve), bool(empty))
            self.total += string.bytes
            if self.total > MAX_SHARED_BYTES:
                raise self._too_much()
            lengths.append(string.bytes)
        raise AssertionError("a run of shared strings within bounds taken one by one")

    def _too_many(self) -> LimitError:
        return LimitError(f"the workbook has more than {MAX_SHARED_STRINGS:,} shared strings (the different "
                          "texts of its cells), the most kitgen reads", file=self.where)

    def _too_much(self) -> LimitError:
        return LimitError(f"the workbook's shared strings hold more than {MAX_SHARED_BYTES // 2**20} MB of "
                          "text, the most kitgen reads", file=self.where)

    def flush(self) -> None:
        self.stream.write("".join(self.pending).encode("utf-8"))
        self.pending = []


def decoded(run: bytes) -> str | None:
    """A run of plain items as text, or None where expat would refuse it (or read it otherwise):
    bytes that are not UTF-8, or the two characters U+FFFE and U+FFFF."""
    try:
        text = run.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return None if "\ufffe" in text or "\uffff" in text else text
