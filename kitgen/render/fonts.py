"""The fonts kitgen prints with: DejaVu Sans, TrueType, always embedded (as subsets).

DejaVu Sans (shipped in ``font_files/`` under the Bitstream Vera licence) covers
Latin with all its accents, Greek and Cyrillic, so card text in most European
languages prints as written.  Text with a glyph the font lacks (emoji, CJK) is
refused with a clear message instead of printing empty boxes.
"""

from __future__ import annotations

import os
from functools import lru_cache

from kitgen.errors import RenderError

REGULAR, BOLD, ITALIC, BOLD_ITALIC = "KG-Regular", "KG-Bold", "KG-Italic", "KG-BoldItalic"
_FILES = {REGULAR: "DejaVuSans.ttf", BOLD: "DejaVuSans-Bold.ttf", ITALIC: "DejaVuSans-Oblique.ttf",
          BOLD_ITALIC: "DejaVuSans-BoldOblique.ttf"}
FONT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "font_files")
FAMILY = "KG"


@lru_cache(maxsize=1)
def register() -> None:
    """Register the faces (and their family, for <b> and <i> in paragraphs) once."""
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for name, file in _FILES.items():
        pdfmetrics.registerFont(TTFont(name, os.path.join(FONT_DIR, file)))
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
