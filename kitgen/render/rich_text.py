"""Rich text of card boxes and rulebook tables: ``**bold**``, ``*italic*``, line breaks and ``:icon:``,
and the few HTML tags sheets hold (``<b>``, ``<i>``, ``<br>``, ``<hr>``).

The text a template gives is read into pieces (:func:`parse`): runs of text in
a style, icons, and line breaks; a backslash makes the next character literal
(``\\*``, ``\\:``).  An icon ``:coin:`` is the picture ``icons/coin.png`` of the
game folder, drawn as tall as the type size around it, standing on the
baseline, and as wide as its picture's proportions make it.

Boxes of a few lines (names, corners) are measured, wrapped and drawn here;
paragraphs are laid out by reportlab's Paragraph, whose ``<img>`` tags draw
the icons through :class:`IconParagraph`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from reportlab.lib.abag import ABag
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus.paragraph import textTransformFrags
from reportlab.platypus.paraparser import ParaParser, _numpct

from kitgen.render.images import draw_image, image_size
from kitgen.render.paragraphs import Paragraph
from kitgen.render.xml_text import escape

_INLINE = re.compile(r"\\(?P<escaped>.)|\*\*\*(?P<both>[^*].*?)\*\*\*|\*\*(?P<bold>.+?)\*\*|\*(?P<italic>.+?)\*"
                     r"|(?i:<(?P<btag>b|strong)>(?P<hbold>.+?)</(?P=btag)>|<(?P<itag>i|em)>(?P<hitalic>.+?)</(?P=itag)>"
                     r"|<(?P<rule>hr)\s*/?>|<(?P<br>br)\s*/?>)"
                     r"|:(?P<icon>[A-Za-z][A-Za-z0-9_-]*):", re.S)
# the HTML a sheet may hold that is read (as Squib's and spreadsheets' exports write it): <b>, <i>, <br>, <hr>
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*(?:\s[^<>]*)?/?>")
# markers left once pairs are read: "**" anywhere, or "*" opening a word ("*x"); a "*" after a word
# ("VP*") or standing alone is a footnote mark
_UNREAD = re.compile(r"\*\*+|(?<![^\s(\[])\*(?=[^\s*])")
ICON_SRC = "kitgen-icon:"
ICON_HEIGHT = 1.0            # of the type size


@dataclass(frozen=True)
class Run:
    text: str
    bold: bool
    italic: bool


@dataclass(frozen=True)
class IconRef:
    name: str


BREAK = "\n"
Piece = Run | IconRef | str


@dataclass(frozen=True)
class Icon:
    """A picture that stands in text: drawn from the game's file as the kit's art is, or an SVG drawn as
    vectors in the colour of the text around it (its ``currentColor``)."""

    name: str
    path: object

    @property
    def svg(self) -> bool:
        return str(self.path).lower().endswith(".svg")

    @property
    def aspect(self) -> float:
        if self.svg:
            from kitgen.render.svg_icons import svg_size

            w, h = svg_size(self.path)
        else:
            w, h = image_size(self.path)
        return w / h

    def draw(self, canvas, x: float, y: float, w: float, h: float, colour: str | None = None) -> None:
        """Draw the icon in the box; an SVG's currentColor is ``colour``, else the canvas's fill colour
        (the colour the text around it is set in)."""
        if self.svg:
            from kitgen.render.svg_icons import draw_svg, hex_of

            draw_svg(canvas, self.path, x, y, w, h, colour or hex_of(getattr(canvas, "_fillColorObj", None)))
        else:
            draw_image(canvas, self.path, x, y, w, h)


_ICONS_ONLY = re.compile(r":(?P<icon>[A-Za-z][A-Za-z0-9_-]*):")


_PARSED_LONGEST = 2000           # characters of the longest text remembered


def parse(text: str, bold: bool = False, italic: bool = False, icons_only: bool = False) -> list[Piece]:
    """The pieces of ``text``: runs in their style, icons, and BREAK for each line break
    (``icons_only``: every other character prints as written, as card text in the rulebook does).
    ``***x***`` is bold italic; a marker without its pair prints as written (see :func:`unread_markers`).

    A card's text is read by its fit, its glyph check and its contrast check, and many cards share
    texts: the pieces of a short text are remembered for the process (they are frozen, so each caller
    gets a list of its own holding the same ones)."""
    if len(text) > _PARSED_LONGEST:
        return _parse(text, bold, italic, icons_only)
    return list(_parsed(text, bold, italic, icons_only))


@lru_cache(maxsize=4096)
def _parsed(text: str, bold: bool, italic: bool, icons_only: bool) -> tuple[Piece, ...]:
    return tuple(_parse(text, bold, italic, icons_only))


def _parse(text: str, bold: bool, italic: bool, icons_only: bool) -> list[Piece]:
    out: list[Piece] = []
    pos = 0
    for m in (_ICONS_ONLY if icons_only else _INLINE).finditer(text):
        _plain(text[pos:m.start()], bold, italic, out)
        kind = m.lastgroup
        if kind == "escaped":
            _plain(m.group(kind), bold, italic, out)
        elif kind == "both":
            out += parse(m.group(kind), True, True)
        elif kind == "bold":
            out += parse(m.group(kind), True, italic)
        elif kind == "italic" or kind == "hitalic":
            out += parse(m.group(kind), bold, True)
        elif kind == "hbold":
            out += parse(m.group(kind), True, italic)
        elif kind == "br":
            out.append(BREAK)
        elif kind == "rule":                       # a rule between parts of the text: an empty line
            out += [BREAK, BREAK]
        else:
            out.append(IconRef(m.group(kind)))
        pos = m.end()
    _plain(text[pos:], bold, italic, out)
    return out


def unread_markers(text: str) -> list[str]:
    """The ``*`` and ``**`` markers of ``text`` that open or close nothing, as written (they print as
    they are): ``**x``, ``x**``, ``*x``.  A ``*`` after a word or standing alone is a footnote mark."""
    return _outside_markup(text, _UNREAD)


def unread_tags(text: str) -> list[str]:
    """The HTML tags of ``text`` that are not read (``<span size="small">``, ``</span>``, a ``<b>`` never
    closed): they print as written."""
    return _outside_markup(text, _TAG)


def _outside_markup(text: str, pattern: re.Pattern[str]) -> list[str]:
    """Every match of ``pattern`` in the plain text of ``text``: between its markup, and inside each
    bold or italic run, read the same way."""
    found: list[str] = []
    pos = 0
    for m in _INLINE.finditer(text):
        found += pattern.findall(text[pos:m.start()])
        if m.lastgroup in ("both", "bold", "italic", "hbold", "hitalic"):
            found += _outside_markup(m.group(m.lastgroup), pattern)
        pos = m.end()
    return found + pattern.findall(text[pos:])


def _plain(text: str, bold: bool, italic: bool, out: list) -> None:
    for i, part in enumerate(text.replace("\r\n", "\n").split("\n")):
        if i:
            out.append(BREAK)
        if part:
            out.append(Run(part, bold, italic))


def icon_names(pieces: list[Piece]) -> list[str]:
    return [p.name for p in pieces if isinstance(p, IconRef)]


def written_out(pieces: list[Piece], names: set[str]) -> list[Piece]:
    """``pieces`` with the icons ``names`` (those the game lacks) as the text ``:name:``, printed as written."""
    return [Run(f":{p.name}:", False, False) if isinstance(p, IconRef) and p.name in names else p for p in pieces]


def plain_text(pieces: list[Piece], style: tuple[bool, bool] | None = None) -> str:
    """The characters printed (in one style, when ``style`` is (bold, italic)), for glyph checks."""
    return "".join(p.text for p in pieces if isinstance(p, Run) and (style is None or (p.bold, p.italic) == style))


# --- a few lines, drawn here ----------------------------------------------------------

_UNIT_WIDTHS: dict[tuple[str, str], float] = {}
_UNIT_KEPT = 65_536              # runs remembered (a deck's words; forgotten all at once past this)


def unit_width(text: str, face: str) -> float:
    """The width of ``text`` in the TrueType ``face`` at 1 pt, remembered for the process (a face's
    registered name stands for one font file's content).  Its width at ``size`` is ``unit_width * size``
    exactly, the float reportlab's own ``stringWidth(text, face, size)`` gives: its accelerator works out
    (sum of glyph widths * 0.001) * size, and the first factor is this width (tests/test_card_text.py
    checks it on every built-in face at many sizes)."""
    key = (text, face)
    width = _UNIT_WIDTHS.get(key)
    if width is None:
        if len(_UNIT_WIDTHS) >= _UNIT_KEPT:
            _UNIT_WIDTHS.clear()
        width = _UNIT_WIDTHS[key] = stringWidth(text, face, 1.0)
    return width


@dataclass(frozen=True)
class Part:
    """One drawn piece of a line: text in a face, or an icon; ``width`` in points."""

    text: str
    face: str
    icon: Icon | None
    width: float


class LineSetter:
    """Measures, wraps and draws pieces in up to a few lines, faces chosen by ``face(bold, italic)``."""

    def __init__(self, pieces: list[Piece], face, icons: dict[str, Icon], base: tuple[bool, bool] = (False, False)):
        self.face, self.icons, self.base = face, icons, base
        self.words: list[list[Piece] | str] = []      # words, and BREAK between lines
        word: list[Piece] = []
        for piece in pieces:
            if piece == BREAK:
                if word:
                    self.words.append(word)
                self.words.append(BREAK)
                word = []
            elif isinstance(piece, IconRef):
                word.append(piece)
            else:
                chunks = re.split(r"(\s+)", piece.text)
                for chunk in chunks:
                    if not chunk:
                        continue
                    if chunk.isspace():
                        if word:
                            self.words.append(word)
                        word = []
                    else:
                        word.append(Run(chunk, piece.bold, piece.italic))
        if word:
            self.words.append(word)
        self._unit: list | None = None            # each word's parts with their widths at 1 pt, or BREAK
        self._sized: dict[float, list] = {}       # size -> each word's parts and their width, or BREAK
        self._spaces: dict[float, float] = {}     # size -> the width of a space between words
        self._faces: dict[tuple[bool, bool], str] = {}   # (bold, italic) -> face

    def _units(self) -> list:
        """Each word's parts as (text, face, icon, width at 1 pt), BREAK kept: measured once for every
        size tried (see :func:`unit_width`)."""
        if self._unit is None:
            self._unit = []
            for word in self.words:
                if word == BREAK:
                    self._unit.append(BREAK)
                    continue
                parts = []
                for piece in word:
                    if isinstance(piece, IconRef):
                        parts.append(("", "", self.icons[piece.name], None))
                    else:
                        face = self._face(piece.bold, piece.italic)
                        parts.append((piece.text, face, None, unit_width(piece.text, face)))
                self._unit.append(parts)
        return self._unit

    def _face(self, bold: bool, italic: bool) -> str:
        """The face of a style, asked of ``face`` once per style."""
        style = (bold, italic)
        face = self._faces.get(style)
        if face is None:
            face = self._faces[style] = self.face(bold, italic)
        return face

    def lines(self, size: float, width: float) -> list[list[list[Part]]]:
        """Words greedily filled into lines of at most ``width`` (a word wider than a line keeps a
        line of its own); a line is a list of words, a word a list of parts."""
        space = self._space(size)
        out: list[list[list[Part]]] = []
        line: list[list[Part]] = []
        used = -space
        for word in self._words_at(size):
            if word == BREAK:
                out.append(line)
                line, used = [], -space
                continue
            parts, w = word
            if line and used + space + w > width:
                out.append(line)
                line, used = [], -space
            line.append(parts)
            used += space + w
        out.append(line)
        return out

    def _words_at(self, size: float) -> list:
        """Each word's parts at ``size`` and their width (BREAK kept), measured once per size: a fit tries
        a size at many widths."""
        sized = self._sized.get(size)
        if sized is None:
            sized = self._sized[size] = []
            for word in self._units():
                if word == BREAK:
                    sized.append(BREAK)
                else:
                    parts = [Part(text, face, None, unit * size) if icon is None else
                             Part("", "", icon, size * ICON_HEIGHT * icon.aspect) for text, face, icon, unit in word]
                    sized.append((parts, sum(p.width for p in parts)))
        return sized

    def _space(self, size: float) -> float:
        """The width of a space between words at ``size``, measured once per size."""
        space = self._spaces.get(size)
        if space is None:
            space = self._spaces[size] = unit_width(" ", self._face(*self.base)) * size
        return space

    def width(self, line, size: float) -> float:
        space = self._space(size)
        return sum(p.width for word in line for p in word) + space * max(0, len(line) - 1)

    def draw(self, canvas, line, x: float, baseline: float, size: float) -> None:
        """One line from ``x`` on ``baseline``: runs of one face as one string, icons between them."""
        space = " "
        groups: list[tuple[str, str | Icon, float]] = []     # (text, face or icon, width)
        sp = stringWidth(" ", self.face(*self.base), size)
        for i, word in enumerate(line):
            for j, part in enumerate(word):
                lead = space if i and j == 0 else ""
                if part.icon is not None:
                    if lead:
                        groups.append((lead, self.face(*self.base), sp))
                    groups.append(("", part.icon, part.width))
                elif groups and groups[-1][1] == part.face:
                    text, face, w = groups[-1]
                    groups[-1] = (text + lead + part.text, face, w + (sp if lead else 0) + part.width)
                else:
                    if lead:
                        groups.append((lead, self.face(*self.base), sp))
                    groups.append((part.text, part.face, part.width))
        for text, face, w in groups:
            if isinstance(face, Icon):
                face.draw(canvas, x, baseline, w, size * ICON_HEIGHT)
            elif text.strip():
                canvas.setFont(face, size)
                canvas.drawString(x, baseline, text)
            x += w


# --- paragraphs, laid out by reportlab -------------------------------------------------

def para_markup(pieces: list[Piece], size: float, icons: dict[str, Icon]) -> str:
    """reportlab paragraph markup of the pieces at ``size`` (icons as <img> tags)."""
    out = []
    for piece in pieces:
        if piece == BREAK:
            out.append("<br/>")
        elif isinstance(piece, IconRef):
            icon = icons[piece.name]
            h = size * ICON_HEIGHT
            out.append(f'<img src="{ICON_SRC}{escape(piece.name)}" width="{h * icon.aspect:.4f}" '
                       f'height="{h:.4f}" valign="baseline"/>')
        else:
            text = escape(piece.text)
            if piece.italic:
                text = f"<i>{text}</i>"
            if piece.bold:
                text = f"<b>{text}</b>"
            out.append(text)
    return "".join(out)


class _IconParser(ParaParser):
    """reportlab's paragraph parser, with <img src="kitgen-icon:NAME"> taken from the game's icons."""

    def __init__(self, icons: dict[str, Icon]):
        super().__init__()
        self.icons = icons

    def end_img(self):
        frag = self._stack[-1]
        src = getattr(frag, "src", "") or ""
        if not src.startswith(ICON_SRC):
            return super().end_img()
        defn = frag.cbDefn = ABag()
        defn.kind, defn.src = "img", src
        defn.image = self.icons[src[len(ICON_SRC):]]
        defn.width, defn.height = frag.width, frag.height
        defn.valign = getattr(frag, "valign", "baseline")
        del frag._selfClosingTag
        self.handle_data("")
        self._pop("img")


class IconParagraph(Paragraph):
    """A Paragraph whose icons are the game's pictures, drawn by :meth:`Icon.draw` (see KitCanvas)."""

    def __init__(self, text: str, style, icons: dict[str, Icon], frags: list | None = None):
        self._icons = icons
        super().__init__(text, style, frags=frags)

    def resized(self, style) -> "IconParagraph":
        """This paragraph, not yet wrapped, at the type size of ``style`` (otherwise the same as this
        one's): its fragments copied at the new size, as parsing the text again at that size would give
        them.  An icon's picture takes the size :func:`para_markup` writes at that size, read back by
        the parser's own converter (the same rounding to 4 decimals, the same numbers)."""
        size = style.fontSize
        frags = []
        for f in self.frags:
            defn = getattr(f, "cbDefn", None)
            if defn is not None and getattr(defn, "kind", None) == "img" and defn.src.startswith(ICON_SRC):
                h = size * ICON_HEIGHT
                width = _numpct(f"{h * self._icons[defn.src[len(ICON_SRC):]].aspect:.4f}")
                height = _numpct(f"{h:.4f}")
                picture = ABag(**defn.__dict__)
                picture.width, picture.height = width, height
                f = f.clone(fontSize=size, width=width, height=height, cbDefn=picture,
                            us_lines=list(getattr(f, "us_lines", ())))
            else:
                f = f.clone(fontSize=size, us_lines=list(getattr(f, "us_lines", ())))
            frags.append(f)
        return IconParagraph(self.text, style, self._icons, frags)

    def _setup(self, text, style, bulletText, frags, cleaner):
        if frags is None:
            text = cleaner(text)
            parser = _IconParser(self._icons)
            parser.caseSensitive = self.caseSensitive
            style, frags, bullet = parser.parse(text, style)
            if frags is None:
                raise ValueError(f"paragraph markup error ({parser.errors[0]}) in {text[:30]!r}")
            textTransformFrags(frags, style)
            if bullet:
                bulletText = bullet
        self.text, self.frags, self.style, self.bulletText, self.debug = text, frags, style, bulletText, 0
