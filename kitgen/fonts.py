"""The fonts kitgen prints with: TrueType faces shipped with reportlab, always embedded.

Bitstream Vera covers Latin-1 (so the ç of Façade prints); text with a glyph
the font lacks is refused with a clear message instead of printing boxes.
"""

from __future__ import annotations

import os
from functools import lru_cache

from .errors import RenderError

REGULAR, BOLD, ITALIC, BOLD_ITALIC = "KG-Regular", "KG-Bold", "KG-Italic", "KG-BoldItalic"
_FILES = {REGULAR: "Vera.ttf", BOLD: "VeraBd.ttf", ITALIC: "VeraIt.ttf", BOLD_ITALIC: "VeraBI.ttf"}
FAMILY = "KG"


@lru_cache(maxsize=1)
def register() -> None:
    """Register the faces (and their family, for <b> and <i> in paragraphs) once."""
    import reportlab
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    folder = os.path.join(os.path.dirname(reportlab.__file__), "fonts")
    for name, file in _FILES.items():
        pdfmetrics.registerFont(TTFont(name, os.path.join(folder, file)))
    pdfmetrics.registerFontFamily(FAMILY, normal=REGULAR, bold=BOLD, italic=ITALIC, boldItalic=BOLD_ITALIC)
    addMapping(FAMILY, 0, 0, REGULAR)


@lru_cache(maxsize=8)
def _charmap(font_name: str) -> frozenset[int]:
    from reportlab.pdfbase import pdfmetrics

    register()
    face = pdfmetrics.getFont(font_name).face
    return frozenset(face.charToGlyph)


def missing_glyphs(text: str, font_name: str = REGULAR) -> list[str]:
    """Characters of ``text`` the font cannot draw (whitespace and controls ignored)."""
    cmap = _charmap(font_name)
    return sorted({ch for ch in text if not ch.isspace() and ord(ch) not in cmap})


def check_glyphs(text: str, where: str, font_name: str = REGULAR) -> None:
    missing = missing_glyphs(text, font_name)
    if missing:
        shown = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in missing[:5])
        raise RenderError(f"{where}: the font has no glyph for {shown}; "
                          "replace those characters in the text")
