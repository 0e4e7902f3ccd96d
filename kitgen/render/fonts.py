"""The fonts kitgen prints with: DejaVu Sans and a game's own, TrueType, always embedded (as subsets).

DejaVu Sans (shipped in ``font_files/`` under the Bitstream Vera licence) covers
Latin with all its accents, Greek and Cyrillic, so card text in most European
languages prints as written.  Text with a glyph the font lacks (emoji, CJK) is
refused with a clear message instead of printing empty boxes.

A game may bring fonts of its own: every ``.ttf`` and ``.otf`` file in its
``fonts/`` folder can be named in a layout (:class:`FontSet`).  Files named
``Family-Bold.ttf``, ``Family-Italic.ttf``, ``Family-BoldItalic.ttf`` join
``Family-Regular.ttf`` (or ``Family.ttf``) as one family, so ``font = "Family"``
with ``bold = true`` or ``**bold**`` in the text picks the bold file.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
from functools import lru_cache
from pathlib import Path

from kitgen.errors import RenderError

REGULAR, BOLD, ITALIC, BOLD_ITALIC = "KG-Regular", "KG-Bold", "KG-Italic", "KG-BoldItalic"
_FILES = {REGULAR: "DejaVuSans.ttf", BOLD: "DejaVuSans-Bold.ttf", ITALIC: "DejaVuSans-Oblique.ttf",
          BOLD_ITALIC: "DejaVuSans-BoldOblique.ttf"}
FONT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "font_files")
FAMILY = "KG"


def _keeping_subsets(font):
    """``font`` (a registered TrueType face), remembering the subsets it cut: every PDF embeds the
    glyphs it uses as a subset of the font file, and PDFs that use the same glyphs (a game's builds,
    the rulebooks of most games) get the same bytes again without cutting them anew."""
    font.face.makeSubset = _subsets(font.face.makeSubset)
    return font


def _subsets(make):
    cached = lru_cache(maxsize=16)(lambda codes: make(list(codes)))
    return lambda subset: cached(tuple(subset))


@lru_cache(maxsize=1)
def register() -> None:
    """Register the faces (and their family, for <b> and <i> in paragraphs) once."""
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for name, file in _FILES.items():
        pdfmetrics.registerFont(_keeping_subsets(TTFont(name, os.path.join(FONT_DIR, file))))
    pdfmetrics.registerFontFamily(FAMILY, normal=REGULAR, bold=BOLD, italic=ITALIC, boldItalic=BOLD_ITALIC)
    addMapping(FAMILY, 0, 0, REGULAR)


@lru_cache(maxsize=64)
def _charmap(font_name: str) -> frozenset[int]:
    from reportlab.pdfbase import pdfmetrics

    register()
    face = pdfmetrics.getFont(font_name).face
    return frozenset(face.charToGlyph)


def missing_glyphs(text: str, font_name: str = REGULAR) -> list[str]:
    """Characters of ``text`` the font cannot draw (whitespace and controls ignored)."""
    cmap = _charmap(font_name)
    return sorted({ch for ch in text if not ch.isspace() and ord(ch) not in cmap})


@lru_cache(maxsize=16_384)
def _missing(text: str, font_name: str) -> tuple[str, ...]:
    """:func:`missing_glyphs`, remembered for short texts (a deck repeats its types, costs and names
    between the cards, the rulebook's tables and the card sheets)."""
    return tuple(missing_glyphs(text, font_name))


def check_glyphs(text: str, where: str, font_name: str = REGULAR) -> None:
    missing = _missing(text, font_name) if len(text) <= 200 else missing_glyphs(text, font_name)
    if missing:
        raise RenderError(f"{where}: {glyph_problem(missing)}")


def glyph_problem(missing) -> str:
    """What to say of characters the font lacks: for an emoji, the [icons] line that draws it as an icon."""
    from kitgen.data.icons import emoji_advice, is_emoji

    shown = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in missing[:5])
    emoji = [ch for ch in missing if is_emoji(ch) and not 0x1F3FB <= ord(ch) <= 0x1F3FF]
    if emoji:
        return f"the font has no glyph for {shown}; to print {emoji[0]!r} as an icon, {emoji_advice(emoji[0])}"
    return (f"the font has no glyph for {shown}; to print them, put a font that has them in the game's fonts/ "
            f"folder{_font_hint(missing)} and name it in the boxes that print them (font = \"Name\", see "
            "docs/layouts.md#fonts), or replace those characters in the text")


def _font_hint(missing) -> str:
    """A font to try for the script of the characters ``missing``, when it is one DejaVu Sans lacks."""
    import unicodedata

    names = " ".join(unicodedata.name(ch, "") for ch in missing[:5])
    for words, font in ((("CJK", "HIRAGANA", "KATAKANA", "HANGUL"), "Noto Sans CJK or Noto Sans SC"),
                        (("DEVANAGARI", "BENGALI", "TAMIL", "TELUGU", "GUJARATI"), "a Noto Sans of that script"),
                        (("THAI", "ETHIOPIC", "KHMER", "MYANMAR"), "a Noto Sans of that script")):
        if any(word in names for word in words):
            return f" ({font}, for instance)"
    return ""


DEFAULT_FAMILY = "DejaVu Sans"
FONT_SUFFIXES = (".ttf", ".otf")
STYLES = {"": (False, False), "regular": (False, False), "book": (False, False), "roman": (False, False),
          "bold": (True, False), "italic": (False, True), "oblique": (False, True), "it": (False, True),
          "bolditalic": (True, True), "boldoblique": (True, True), "boldit": (True, True)}
_STYLE_SUFFIX = re.compile(r"^(.*?)[-_ ]?(regular|book|roman|bolditalic|boldoblique|boldit|bold|italic|oblique|it)$",
                           re.IGNORECASE)
_BUILTIN = {(False, False): REGULAR, (True, False): BOLD, (False, True): ITALIC, (True, True): BOLD_ITALIC}


@lru_cache(maxsize=256)
def family_key(name: str) -> str:
    """A font name as compared: case, spaces, '-' and '_' ignored ('DejaVu Sans' == 'dejavusans')."""
    return re.sub(r"[\s_-]+", "", name).casefold()


_DEFAULT_KEY = family_key(DEFAULT_FAMILY)


class FontSet:
    """The fonts a game's layouts may name: DejaVu Sans, and each family of its ``fonts/`` folder."""

    def __init__(self, root: Path | None = None, label: str = "fonts"):
        """The fonts of the ``fonts/`` folder of the game folder ``root`` (None: DejaVu Sans only)."""
        register()
        self.root, self.label = root, label
        folder = None
        if root is not None:
            from kitgen.data.paths import check_folder

            folder = root / "fonts"
            check_folder(root, folder, "fonts/")
        self.files: dict[str, dict[tuple[bool, bool], Path]] = {}
        self.shown: dict[str, str] = {family_key(DEFAULT_FAMILY): DEFAULT_FAMILY}
        self._faces: dict[tuple[str, bool, bool], str] = {}
        self._families: dict[str, str] = {family_key(DEFAULT_FAMILY): FAMILY}
        for path in _font_files(folder):
            found = _STYLE_SUFFIX.match(path.stem)
            family, style = (found.group(1), found.group(2).lower()) if found and found.group(1) else (path.stem, "")
            key = family_key(family)
            self.files.setdefault(key, {}).setdefault(STYLES[style], path)
            self.shown.setdefault(key, family)
            self.files.setdefault(family_key(path.stem), {}).setdefault((False, False), path)
            self.shown.setdefault(family_key(path.stem), path.stem)

    def names(self) -> list[str]:
        """The font names a layout may use, for messages."""
        return sorted(set(self.shown.values()))

    def has(self, name: str) -> bool:
        return family_key(name) in self.shown

    def face(self, name: str, bold: bool = False, italic: bool = False) -> str:
        """The registered name of the face of family ``name`` closest to bold/italic."""
        key = family_key(name)
        if key == _DEFAULT_KEY:
            return _BUILTIN[(bold, italic)]
        wanted = (key, bold, italic)
        if wanted not in self._faces:
            styles = self.files[key]
            path = next(styles[s] for s in ((bold, italic), (bold, False), (False, italic), (False, False),
                                            *styles) if s in styles)
            from kitgen.data.paths import inside

            where = f"{self.label}/{path.name}"
            self._faces[wanted] = _register_file(inside(self.root, f"fonts/{path.name}", where), where)
        return self._faces[wanted]

    def covering(self, texts: dict[tuple[bool, bool], str]) -> str | None:
        """The first family of the game's fonts/ (by name) whose faces have every character of ``texts``
        (each text by the (bold, italic) style it prints in), or None: a text in a script DejaVu Sans
        lacks (Chinese, Thai...) prints in a font of the game that has it."""
        for key in sorted(self.files):
            name = self.shown[key]
            if all(not _missing(text, self.face(name, *style)) for style, text in texts.items() if text):
                return name
        return None

    def covering_face(self, text: str, face: str) -> str:
        """``face``, or when it lacks a character of ``text``, the face of the same style of the first
        family of the game's fonts/ that has them all (``face`` again when none has)."""
        if not self.files or not text or not _missing(text, face):
            return face
        style = next((s for s, f in _BUILTIN.items() if f == face), (False, False))
        name = self.covering({style: text})
        if name is None:
            return face
        self.family(name)                 # registered as a family, so <b> and <i> find its faces
        return self.face(name, *style)

    def family(self, name: str) -> str:
        """A family name reportlab's paragraphs know, so <b> and <i> pick the family's own faces."""
        key = family_key(name)
        if key not in self._families:
            from reportlab.pdfbase import pdfmetrics

            faces = {s: self.face(name, *s) for s in _BUILTIN}
            family = f"KGF-{hashlib.sha256('/'.join(faces.values()).encode()).hexdigest()[:12]}"
            pdfmetrics.registerFontFamily(family, normal=faces[(False, False)], bold=faces[(True, False)],
                                          italic=faces[(False, True)], boldItalic=faces[(True, True)])
            self._families[key] = family
        return self._families[key]


def _font_files(folder: Path | None) -> list[Path]:
    """The entries of a game's ``fonts/`` folder named as fonts, in order: anything but a folder (a FIFO or
    a link that leads nowhere is named as such when the font is used)."""
    if folder is None or not folder.is_dir():
        return []
    from kitgen.data.files import os_problem

    try:
        return sorted(p for p in folder.iterdir() if p.suffix.lower() in FONT_SUFFIXES and not p.is_dir())
    except OSError as exc:
        raise RenderError(f"fonts/: {os_problem(exc)}") from None


@lru_cache(maxsize=64)
def _register_file(path: Path, where: str) -> str:
    """Register a font file once per process under a name made from its content."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    from kitgen.data.files import read_regular
    from kitgen.render.font_convert import truetype_bytes

    data = read_regular(path, where)
    name = f"KGF-{hashlib.sha256(data).hexdigest()[:16]}"
    if name in pdfmetrics.getRegisteredFontNames():   # getFont would search reportlab's AFM folders for a new one
        return name
    try:
        pdfmetrics.registerFont(_keeping_subsets(TTFont(name, io.BytesIO(truetype_bytes(data)))))
    except MemoryError:            # out of memory is not a damaged file
        raise
    except Exception as exc:   # reportlab's and fontTools' errors for a file that is no usable font
        raise RenderError(f"{where}: cannot use this font file ({type(exc).__name__}: {exc}); give a TrueType "
                          "(.ttf) or OpenType (.otf) font that allows embedding") from None
    return name
