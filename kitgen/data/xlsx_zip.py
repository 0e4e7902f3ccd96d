"""An XLSX workbook's parts, unpacked from its zip archive and parsed as XML within bounds.

A workbook is a zip archive of XML parts, and nothing it says about itself can be trusted: a
part may declare 1,000 bytes and hold gigabytes of deflated data, a damaged one fails deep
inside zipfile or zlib.  :class:`Parts` streams each part kitgen reads out of the archive in
chunks, never holding more than a megabyte of it.  A first pass (:meth:`Parts.measure`) counts the bytes as they
come, so it stops at :data:`MAX_UNPACKED_BYTES` whatever the headers claim, and counts the tags
and the longest stretch between two; only a part within those bounds is streamed again into
expat (:meth:`Parts.parse`), so no part makes the parser hold more than a megabyte at once or
call back more than :data:`MAX_MARKUP` times, and a bomb of tags is refused at C speed (a part of
at most :data:`KEEP` bytes is kept from the first pass instead of unpacked again).  The
handlers keep elements from nesting deeper than :data:`MAX_DEPTH` (the parser keeps each open
one).  The CRC of each part is checked at its end.  Every problem is one :class:`GameDataError`
naming the workbook.

Expat calls back into Python for every element, some five calls for each cell of a sheet.  A
handler may offer a fast path (:class:`Fast`): once expat has ended an item (a ``</row>``, a
``</si>``) exactly where the bytes given to it end, the run of items that follows in a plain
form spreadsheet programs write (matched at C speed by regular expressions, tried in order,
that admit no prefix, entity, comment, line break or character XML refuses) goes to the handler
whole, not to expat; anything else, from the first item outside those forms, goes to expat as before.

:class:`Rewritten` is the small, plain workbook kitgen writes from what it read (see
:mod:`kitgen.data.xlsx`), the only one python-calamine is given.
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from typing import Iterator, Protocol
from xml.parsers import expat

from kitgen.errors import GameDataError, LimitError

MAX_PARTS = 10_000                   # members of the archive; a workbook holds tens
MAX_UNPACKED_BYTES = 256 * 2**20     # of all the parts kitgen reads (the sheet, its strings and styles), unzipped
MAX_MARKUP = 8_000_000               # tags in one part: a sheet of a million cells has some four to six million
MAX_TOKEN = 2**20                    # bytes of one tag, or of the text between two: a cell holds 32,767 characters
MAX_DEPTH = 64                       # elements inside one another: a sheet nests some six deep
CHUNK = 2**16
KEEP = 2**20                         # bytes of a part kept from the count for the parser: smaller parts are unpacked once

ADVICE = "open it in a spreadsheet program and save it again as .xlsx"
_DAMAGED = (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, OSError, ValueError, OverflowError,
            NotImplementedError, RuntimeError, IndexError, KeyError)


class Handler(Protocol):
    def attach(self, parser) -> None:
        """Set the parser's handlers (StartElementHandler and the rest) to its own methods."""


class Fast(Handler, Protocol):
    """A handler that also takes runs of items in their plain form, in one call per run."""

    fast_end: bytes                  # the end tag of an item: b"</row>"
    fast_runs: tuple[re.Pattern[bytes], ...]   # one item or more in a plain form, whole; tried in order
    fast_ready: int                  # where expat ended the last item (its offset past fast_end), or -1

    def fast(self, run: bytes, form: int) -> bool:
        """Take ``run`` (matched by ``fast_runs[form]``) as expat would have, or refuse it whole
        (False: bytes that are not UTF-8, say) before changing anything; a run refused is offered
        to the next form, then to expat."""


class Elements:
    """A handler told of each element's start and end (text is not read), nested at most
    :data:`MAX_DEPTH` deep (the parser keeps every open element)."""

    where = ""
    depth = 0

    def attach(self, parser) -> None:
        parser.StartElementHandler = self._opened
        parser.EndElementHandler = self._closed

    def _opened(self, name: str, attrs: dict[str, str]) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise too_deep(self.where)
        self.start(name, attrs)

    def _closed(self, name: str) -> None:
        self.depth -= 1
        self.end(name)

    def start(self, name: str, attrs: dict[str, str]) -> None:
        pass

    def end(self, name: str) -> None:
        pass


def too_deep(where: str) -> GameDataError:
    return damaged(where, f"it nests elements more than {MAX_DEPTH} deep (a spreadsheet program nests a few)")


LOCAL: dict[str, str] = {}          # names met so far, without their prefix (LOCAL.get(name) or local(name))


def local(name: str) -> str:
    """An element's name without its prefix: 'row' for <row>, <x:row> or <q:row>, as the reader matches it."""
    found = LOCAL.get(name)
    if found is None:
        colon = name.find(":")
        found = name if colon < 0 else name[colon + 1:]
        if len(LOCAL) < 10_000:
            LOCAL[name] = found
    return found


def damaged(where: str, what: str) -> GameDataError:
    return GameDataError(f"damaged XLSX workbook: {what}; {ADVICE}", file=where)


class Parts:
    """The members of a workbook's archive, read within bounds."""

    def __init__(self, data: bytes, where: str, fast: bool = True):
        self.where = where
        self.fast = fast                                # whether handlers may take plain runs (:class:`Fast`)
        self.unpacked = 0
        if data.count(b"PK\x01\x02") > MAX_PARTS:       # each member has one such entry: an upper bound, counted fast
            raise LimitError(f"the workbook's archive holds more than {MAX_PARTS:,} parts; a workbook holds tens",
                             file=where)
        try:
            self.archive = zipfile.ZipFile(io.BytesIO(data))
            infos = self.archive.infolist()
        except _DAMAGED:
            if data.startswith(b"\xd0\xcf\x11\xe0"):
                raise GameDataError("not an XLSX workbook: an old .xls file, or a workbook protected by a "
                                    "password; save it from the spreadsheet program as .xlsx without a password, "
                                    "or as CSV", file=where) from None
            if data.startswith(b"PK"):
                raise damaged(where, "its zip archive is truncated or broken") from None
            raise GameDataError("not an XLSX workbook (it is not a zip archive); save the sheet from the "
                                "spreadsheet program as .xlsx, or as CSV", file=where) from None
        self._by_name: dict[str, list[zipfile.ZipInfo]] = {}
        for info in infos:
            self._by_name.setdefault(info.filename.casefold(), []).append(info)

    def find(self, name: str) -> zipfile.ZipInfo | None:
        """The member called ``name`` (its case as written, or any case when only one matches)."""
        found = self._by_name.get(name.casefold(), [])
        exact = [info for info in found if info.filename == name]
        if len(exact) == 1 or len(found) == 1:
            return exact[0] if exact else found[0]
        if found:
            raise damaged(self.where, f"its archive holds {len(found)} parts named {name}")
        return None

    def chunks(self, info: zipfile.ZipInfo) -> Iterator[bytes]:
        """The unpacked bytes of ``info``, streamed; a damaged part is a :class:`GameDataError`."""
        name = info.filename
        if info.flag_bits & 0x1:
            raise GameDataError("the workbook is protected by a password; save it without one", file=self.where)
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise damaged(self.where, f"its part {name} is compressed by a method spreadsheet programs do not use "
                                      f"(zip method {info.compress_type})")
        try:
            with self.archive.open(info) as stream:
                while chunk := stream.read(CHUNK):
                    yield chunk
        except _DAMAGED as exc:
            raise damaged(self.where, f"its part {name} cannot be unpacked ({_reason(exc)})") from None

    def measure(self, info: zipfile.ZipInfo, limit: int) -> list[bytes] | None:
        """Unpack ``info`` once, counting as it streams: its bytes (no more than ``limit``, nor than
        :data:`MAX_UNPACKED_BYTES` over all the parts read), its tags and the longest stretch between
        two; anything past a bound stops the count there, whatever the archive's headers say.  The
        chunks of a part of at most :data:`KEEP` bytes, checked whole (its CRC too), so that it need
        not be unpacked again; None for a larger one (nothing of it is kept)."""
        name = info.filename
        read, markup, run = 0, 0, 0                     # bytes; tags; bytes since the last '<'
        kept: list[bytes] | None = []
        for chunk in self.chunks(info):
            read += len(chunk)
            if read > KEEP:
                kept = None
            elif kept is not None:
                kept.append(chunk)
            if read > limit or self.unpacked + read > MAX_UNPACKED_BYTES:
                bound = limit if read > limit else MAX_UNPACKED_BYTES
                what = f"its part {name} unpacks" if read > limit else "the parts kitgen reads unpack"
                raise LimitError(f"the workbook is too large: {what} to more than {bound // 2**20} MB, the most "
                                 "kitgen reads", file=self.where)
            markup += chunk.count(b"<")
            if markup > MAX_MARKUP:
                raise LimitError(f"the workbook's part {name} holds more than {MAX_MARKUP:,} tags, the most "
                                 "kitgen reads", file=self.where)
            first = chunk.find(b"<")
            if first >= 0:
                gap, run = run + first, len(chunk) - chunk.rfind(b"<") - 1
            else:
                gap = run = run + len(chunk)
            if gap > MAX_TOKEN:
                raise LimitError(f"the workbook's part {name} holds a tag or a text of more than "
                                 f"{MAX_TOKEN // 2**20} MB, the most kitgen reads (a cell holds at most 32,767 "
                                 "characters)", file=self.where)
        self.unpacked += read
        return kept

    def parse(self, info: zipfile.ZipInfo, handler: Handler, limit: int = MAX_UNPACKED_BYTES) -> None:
        """Parse the part ``info`` as XML, streamed, with the handlers that ``handler`` attaches, once
        :meth:`measure` has found it within bounds."""
        kept = self.measure(info, limit)
        chunks = iter(kept) if kept is not None else self.chunks(info)
        name = info.filename
        parser = expat.ParserCreate()
        parser.buffer_text = True
        parser.StartDoctypeDeclHandler = self._no_doctype(name)
        handler.attach(parser)
        try:
            if self.fast and hasattr(handler, "fast_runs"):
                _parse_fast(parser, chunks, handler)
            else:
                for chunk in chunks:
                    parser.Parse(chunk, False)
            parser.Parse(b"", True)
        except expat.ExpatError as exc:
            raise damaged(self.where, f"its part {name} is not well-formed XML "
                                      f"({expat.ErrorString(exc.code)}, line {exc.lineno})") from None

    def _no_doctype(self, name: str):
        def refuse(*_args) -> None:
            raise damaged(self.where, f"its part {name} declares a document type, which spreadsheet programs "
                                      "never write")
        return refuse


def _parse_fast(parser, chunks: Iterator[bytes], handler: Fast) -> None:
    """Give ``chunks`` to ``parser``, but each run of plain items that starts where expat has just
    ended one to ``handler.fast``.  Expat is given the bytes up to the end of each item (or of the
    chunk, less the bytes that may start an end tag), so it has nothing pending when an item it
    ended is the last thing it was given: the state of the handler is then the state between two
    items, which is all a run needs.  A run holds no line break, so expat's line numbers in
    messages stay those of the part."""
    end, runs = handler.fast_end, tuple(enumerate(handler.fast_runs))
    keep = len(end) - 1
    utf8 = [True]

    def declared(_version, encoding, _standalone) -> None:   # the runs are read as UTF-8
        utf8[0] = encoding is None or encoding.lower() in ("utf-8", "utf8")

    parser.XmlDeclHandler = declared
    behind = 0                         # bytes the handler took: expat's offsets trail the part's by as many
    base = 0                           # the part's offset of buffer[0]
    buffer = b""
    for chunk in chunks:
        buffer = buffer + chunk if buffer else chunk
        at = 0
        while True:
            if handler.fast_ready == base + at - behind and utf8[0]:
                for form, run in runs:
                    found = run.match(buffer, at)
                    if found is not None and handler.fast(found.group(), form):
                        break
                else:
                    found = None
                if found is not None:
                    behind += found.end() - at
                    at = found.end()
                    continue
            stop = buffer.find(end, at)
            if stop < 0:
                break
            stop += len(end)
            parser.Parse(buffer[at:stop], False)
            at = stop
        stop = max(at, len(buffer) - keep)
        if stop > at:
            parser.Parse(buffer[at:stop], False)
        base += stop
        buffer = buffer[stop:]
    if buffer:
        parser.Parse(buffer, False)


def _reason(exc: BaseException) -> str:
    text = str(exc)
    if "CRC" in text:
        return "its checksum does not match: the file was changed or damaged"
    if isinstance(exc, zlib.error):
        return "its compressed data is damaged"
    if isinstance(exc, EOFError) or "Truncated" in text or "truncated" in text:
        return "it ends early: the file is truncated"
    return text[:200] or type(exc).__name__


STORED = 2**14                       # bytes of a rewritten part stored rather than deflated

_SPECIAL = re.compile(r'[&<>"\r\n\t]')
_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\r": "&#13;", "\n": "&#10;", "\t": "&#9;"}


def escape_text(text: str) -> str:
    """Text for XML content or a double-quoted attribute, every character kept as it is (a carriage
    return or tab too, which XML would otherwise turn into a line break or a space)."""
    if ("&" in text or "<" in text or ">" in text or '"' in text or "\r" in text or "\n" in text
            or "\t" in text):          # seven substring scans: some 40 times faster than the pattern's search
        return _SPECIAL.sub(lambda m: _ESCAPES[m.group()], text)
    return text


class Rewritten:
    """A workbook written part by part into memory, each part compressed as it is written."""

    def __init__(self):
        self.buffer = io.BytesIO()
        self.archive = zipfile.ZipFile(self.buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=1)

    def add(self, name: str, xml: str) -> None:
        """The part ``name`` whole: stored as it is when it is small (the list of sheets, most styles), where
        deflating it would cost more than it saves."""
        data = xml.encode("utf-8")
        self.archive.writestr(name, data, zipfile.ZIP_STORED if len(data) <= STORED else zipfile.ZIP_DEFLATED)

    def part(self, name: str):
        """A binary stream to write the part ``name`` into, piece by piece (deflate gives the same bytes
        however the pieces are cut, so the fast path and expat alone write the same part)."""
        return self.archive.open(name, "w", force_zip64=True)

    def getvalue(self) -> bytes:
        self.archive.close()
        return self.buffer.getvalue()

    def __enter__(self) -> Rewritten:
        return self

    def __exit__(self, *exc) -> None:
        self.archive.close()                # again, harmlessly, after getvalue()
