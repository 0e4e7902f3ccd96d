"""Reading a PDF back the way a print shop's preflight does: its fonts (pypdf), its words and where
they sit (PDFium), what reaches into the margin (pdfplumber)."""

from __future__ import annotations

import io
import unicodedata
from pathlib import Path

import pypdfium2 as pdfium
from pypdf import PdfReader

from kitgen.units import MM
from tests.pdfium_read import words

MARGIN = 5 * MM   # what most printers cannot print: every page keeps it clear


def fonts_of(pdf: Path | bytes) -> dict[str, dict | None]:
    """Every font used on any page (forms included): base name -> font descriptor (None if absent)."""
    reader = PdfReader(io.BytesIO(pdf) if isinstance(pdf, bytes) else pdf)
    found: dict[str, dict | None] = {}
    for page in reader.pages:
        _collect(page.get("/Resources"), found)
    return found


def _collect(resources, found: dict) -> None:
    if resources is None:
        return
    resources = resources.get_object()
    for font in (resources.get("/Font") or {}).values():
        font = font.get_object()
        name = str(font.get("/BaseFont"))
        if font.get("/Subtype") == "/Type0":     # composite fonts keep the descriptor on the descendant
            font = font["/DescendantFonts"][0].get_object()
        descriptor = font.get("/FontDescriptor")
        found[name] = descriptor.get_object() if descriptor is not None else None
    for xobject in (resources.get("/XObject") or {}).values():
        xobject = xobject.get_object()
        if xobject.get("/Subtype") == "/Form":
            _collect(xobject.get("/Resources"), found)


def unembedded_fonts(pdf: Path | bytes) -> list[str]:
    """Fonts that are not embedded as TrueType programs (an empty list is what we want)."""
    fonts = fonts_of(pdf)
    assert fonts, "the PDF uses no fonts at all"
    return sorted(name for name, desc in fonts.items() if desc is None or "/FontFile2" not in desc)


def in_margin(page, tol: float = 0.5) -> list[dict]:
    """Whatever a pdfplumber page draws (text, rectangles, lines, curves, images) that reaches into MARGIN."""
    return [obj for obj in page.chars + page.rects + page.lines + page.curves + page.images
            if obj["x0"] < MARGIN - tol or obj["x1"] > page.width - MARGIN + tol
            or obj["top"] < MARGIN - tol or obj["bottom"] > page.height - MARGIN + tol]


def norm(text: str) -> str:
    """Only the letters and digits of ``text``, composed and case-folded, so words compare as printed."""
    return "".join(ch for ch in unicodedata.normalize("NFC", text).casefold() if ch.isalnum())


def words_by_page(pdf: Path) -> dict[int, list[tuple[str, float, float]]]:
    """Every word's text and centre, in PDF points from the bottom-left corner, by page number (read
    with PDFium, several times faster than pdfplumber on pages of cards)."""
    doc = pdfium.PdfDocument(str(pdf))
    try:
        return {number: [(norm(text), (x0 + x1) / 2, (y0 + y1) / 2) for text, x0, y0, x1, y1 in words(doc[number - 1])]
                for number in range(1, len(doc) + 1)}
    finally:
        doc.close()


def found_in(words, text: str, box) -> bool:
    """Whether a word of one page (words_by_page) holding ``text`` has its centre in box (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = box
    return any(norm(text) in t and x0 <= cx <= x1 and y0 <= cy <= y1 for t, cx, cy in words)
