"""Reading fonts back out of a PDF with pypdf, the way a print shop's preflight does."""

from __future__ import annotations

import io
from pathlib import Path

from pypdf import PdfReader


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
