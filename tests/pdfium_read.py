"""Reading a PDF page's own drawing with PDFium: fast, and blind to what forms (cards) hold inside."""

from __future__ import annotations

import ctypes
from pathlib import Path


def strokes(page) -> list[tuple[tuple[float, float, float, float], tuple[int, int, int], float, bool]]:
    """The page's own stroked paths (forms are not looked into): (left, bottom, right, top) of the
    path itself, its stroke colour (0-255), its width and whether it is dashed."""
    import pypdfium2.raw as raw

    out = []
    for obj in page.get_objects(filter=[raw.FPDF_PAGEOBJ_PATH], max_depth=1):
        width = ctypes.c_float()
        raw.FPDFPageObj_GetStrokeWidth(obj.raw, ctypes.byref(width))
        r, g, b, a = (ctypes.c_uint() for _ in range(4))
        raw.FPDFPageObj_GetStrokeColor(obj.raw, *(ctypes.byref(v) for v in (r, g, b, a)))
        x0, y0, x1, y1 = obj.get_bounds()
        w = width.value                     # PDFium widens the bounds by the stroke's width all round
        out.append(((x0 + w, y0 + w, x1 - w, y1 - w), (r.value, g.value, b.value), width.value,
                    raw.FPDFPageObj_GetDashCount(obj.raw) > 0))
    return out


def _indexed(textpage) -> list[tuple[int, str]]:
    """(index, character) of each character of a text page, PDFium's spaces and line ends included."""
    count = textpage.count_chars()
    text = textpage.get_text_range()
    if len(text) == count:              # one string for the page: far fewer calls than one per character
        return list(enumerate(text))
    return [(k, textpage.get_text_range(k, 1)) for k in range(count)]   # characters beyond the BMP


def characters(page) -> list[tuple[str, float, float, float, float]]:
    """Every printed character of the page, those inside forms too: (text, left, bottom, right, top)."""
    textpage = page.get_textpage()
    return [(ch, *textpage.get_charbox(k)) for k, ch in _indexed(textpage) if ch.strip()]


def page_texts(pdf: Path | bytes) -> list[str]:
    """The text of every page, those inside forms too, one line of print per line (``\\n``)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf if isinstance(pdf, bytes) else str(pdf))
    try:
        return [doc[i].get_textpage().get_text_range().replace("\r\n", "\n") for i in range(len(doc))]
    finally:
        doc.close()


def words(page) -> list[tuple[str, float, float, float, float]]:
    """Every printed word of the page, those inside forms too: (text, left, bottom, right, top), where a
    word is a run of characters between spaces and line ends."""
    textpage = page.get_textpage()
    out, word, box = [], "", None
    for k, ch in _indexed(textpage) + [(-1, " ")]:
        if not ch.strip():
            if word:
                out.append((word, *box))
            word, box = "", None
            continue
        x0, y0, x1, y1 = textpage.get_charbox(k)
        word += ch
        box = (x0, y0, x1, y1) if box is None else (min(box[0], x0), min(box[1], y0), max(box[2], x1), max(box[3], y1))
    return out
