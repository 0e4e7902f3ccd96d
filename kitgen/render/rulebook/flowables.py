"""The rulebook's blocks as reportlab platypus flowables, styled with the game's colours.

Typography: 10.2 pt body on 14 pt leading, two heading levels (plus a minor
one), tinted boxes for rulings, notes and examples, striped tables.  Every
insert of a template (:class:`~kitgen.render.rulebook.markup.Insert`) is one
method of :class:`Builder`, listed in :data:`INSERTS`.  The pages they are
laid out on are :mod:`kitgen.render.rulebook.document`'s.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (
    CondPageBreak,
    HRFlowable,
    KeepTogether,
    ListFlowable,
    ListItem,
    PageBreak,
    Spacer,
    Table,
    TableStyle,
)

from kitgen.render import fonts
from kitgen.render.colors import HEADER_FILL, RULE, ZEBRA
from kitgen.render.colors import RULEBOOK_INK as INK
from kitgen.render.colors import RULEBOOK_MUTED as MUTED
from kitgen.render.paragraphs import Paragraph
from kitgen.render.rulebook import diagrams, markup, tables
from kitgen.units import mm

BOX_FILLS = {"ruling": "#fbf0d9", "note": "#eef3f6", "example": "#eef5ee"}
BOX_EDGES = {"ruling": "#c9962e", "note": "#5d7f95", "example": "#4f8a5b"}
BOX_PREFIX = {"ruling": "Playtest ruling", "note": "Note", "example": "Example"}


@dataclass
class Theme:
    """Colours of one game and the paragraph styles built on them."""

    primary: str
    accent: str
    styles: dict[str, ParagraphStyle] = field(default_factory=dict)

    @classmethod
    def for_game(cls, game) -> "Theme":
        theme = cls(primary=game.back.color, accent=game.back.accent)
        theme.styles = _styles(game.back.color)
        return theme


@lru_cache(maxsize=16)
def _styles(color: str) -> dict[str, ParagraphStyle]:
    """The paragraph styles of a rulebook in ``color``, made once per colour (and never changed, so
    that paragraphs parsed in them are parsed once: :class:`kitgen.render.paragraphs.Paragraph`)."""
    primary = colors.HexColor(color)
    body = ParagraphStyle("body", fontName=fonts.REGULAR, fontSize=10.2, leading=14.2,
                          textColor=INK, spaceAfter=6.5)
    return {
        "body": body,
        "h1": ParagraphStyle("h1", parent=body, fontName=fonts.BOLD, fontSize=17, leading=21,
                             textColor=primary, spaceBefore=6, spaceAfter=2, keepWithNext=1),
        "h2": ParagraphStyle("h2", parent=body, fontName=fonts.BOLD, fontSize=12.2, leading=15.5,
                             textColor=primary, spaceBefore=9, spaceAfter=3.5, keepWithNext=1),
        "h3": ParagraphStyle("h3", parent=body, fontName=fonts.BOLD, fontSize=10.2, leading=14,
                             spaceBefore=5, spaceAfter=2, keepWithNext=1),
        "item": ParagraphStyle("item", parent=body, spaceAfter=2.5),
        "cell": ParagraphStyle("cell", parent=body, fontSize=9, leading=11.5, spaceAfter=0),
        "cell_head": ParagraphStyle("cell_head", parent=body, fontName=fonts.BOLD, fontSize=9,
                                    leading=11.5, spaceAfter=0),
        "box_title": ParagraphStyle("box_title", parent=body, fontName=fonts.BOLD, fontSize=9.8,
                                    leading=13, spaceAfter=3),
        "box": ParagraphStyle("box", parent=body, fontSize=9.8, leading=13.4, spaceAfter=4),
        "caption": ParagraphStyle("caption", parent=body, fontName=fonts.ITALIC, fontSize=8.8,
                                  leading=11.5, textColor=MUTED, alignment=TA_CENTER, spaceAfter=8),
        "title": ParagraphStyle("title", parent=body, fontName=fonts.BOLD, fontSize=30, leading=34,
                                textColor=primary, alignment=TA_CENTER, spaceAfter=4),
        "subtitle": ParagraphStyle("subtitle", parent=body, fontName=fonts.ITALIC, fontSize=13,
                                   leading=17, textColor=MUTED, alignment=TA_CENTER, spaceAfter=3),
        "facts": ParagraphStyle("facts", parent=body, fontSize=10, alignment=TA_CENTER,
                                textColor=INK, spaceAfter=10),
    }


# --- text and glyphs ------------------------------------------------------------

def _without_icons(game, value: str) -> str:
    """The characters of a sheet's text that print as letters: its icons and [icons] tokens left out."""
    from kitgen.render.rich_text import parse, plain_text

    return plain_text(parse(game.tokens.substitute(value), icons_only=True))


class _Text:
    """Turns inline markup into paragraphs, refusing glyphs the font lacks; the text ``[icons]`` maps
    (and emoji with a built-in twin) is drawn as icons, in the colour of the words around it."""

    def __init__(self, where: str, game=None):
        self.where, self.game = where, game
        self._library = None
        self._fonts = None

    def covering(self, text: str, style: ParagraphStyle) -> ParagraphStyle:
        """``style``, or when its font lacks a character of ``text`` (plain letters) and a font of the
        game's fonts/ has them all, the same style in that font."""
        if self._fonts is None:
            self._fonts = fonts.FontSet(None if self.game is None or self.game.builtin else self.game.root)
        face = self._fonts.covering_face(text, style.fontName)
        return style if face == style.fontName else ParagraphStyle(f"{style.name}-{face}", parent=style,
                                                                   fontName=face)

    def _letters(self, text: str) -> str:
        return _letters_of(*self._icons(text))

    def _icons(self, text: str) -> tuple[str, dict]:
        """``text`` with each icon token made one private-use character, and those characters' icons."""
        tokens = self.game.tokens if self.game is not None else None
        used = sorted(tokens.used(text)) if tokens is not None else []
        if not used:
            return text, {}
        from kitgen.data.icons import IconLibrary
        from kitgen.render.rich_text import Icon

        if self._library is None:
            self._library = IconLibrary(None if self.game.builtin else self.game.root)
        marks = {name: chr(PRIVATE + i) for i, name in enumerate(used)}
        text = tokens.pattern.sub(lambda m: marks[tokens.names[_strip_emoji(m.group())]], text)
        return text, {marks[n]: Icon(n, self._library.find(n, self.where)) for n in used}

    def para(self, text: str, style: ParagraphStyle) -> Paragraph:
        marked, icons = self._icons(text)           # read once: the letters, the font and the check follow
        letters = _letters_of(marked, icons)
        style = self.covering(letters, style)       # a style that covers them covers them again (check's)
        self._check_letters(text, letters, style)
        if not icons:
            return Paragraph(markup.to_para(text), style, shared=True)
        from kitgen.render.rich_text import ICON_SRC, IconParagraph

        body = markup.to_para(marked)
        size = style.fontSize
        for mark, icon in icons.items():
            body = body.replace(mark, f'<img src="{ICON_SRC}{icon.name}" width="{size * icon.aspect:.4f}" '
                                      f'height="{size:.4f}" valign="baseline"/>')
        return IconParagraph(body, style, {icon.name: icon for icon in icons.values()})

    def check(self, text: str, style: ParagraphStyle) -> None:
        """Refuse ``text`` (inline markup) if neither the style's font nor one of the game's fonts/ has
        every glyph of it (icons aside)."""
        self._check_letters(text, self._letters(text), style)

    def _check_letters(self, text: str, letters: str, style: ParagraphStyle) -> None:
        fonts.check_glyphs(letters, f"{self.where}: in {markup.plain(text)[:60]!r}",
                           self.covering(letters, style).fontName)

    def literal(self, text: str, style: ParagraphStyle) -> Paragraph:
        """Data text (card names, effects) printed exactly as written."""
        return self.para(markup.escape_value(text), style)


PRIVATE = 0xF0000            # private-use characters stand for icons while markup is read


def _letters_of(marked: str, icons: dict) -> str:
    """The characters of inline markup with its icons marked (:meth:`_Text._icons`) that print as letters."""
    return "".join(ch for ch in markup.plain(marked) if ch not in icons)


def _strip_emoji(text: str) -> str:
    from kitgen.data.icons import strip_emoji

    return strip_emoji(text)


# --- blocks -> flowables ----------------------------------------------------------

class Builder:
    def __init__(self, game, theme: Theme, where: str, width: float, art=None, checking: bool = False):
        self.game, self.theme, self.st = game, theme, theme.styles
        self.text = _Text(where, game)
        self.width = width
        self.art = art
        self.painter = None           # the kit's card painter, made when a template shows a card
        self.checking = checking      # validate: card tables' cells checked, not laid out

    def flowables(self, blocks) -> list:
        out: list = []
        for block in blocks:
            out.extend(self.block(block))
        return out

    def block(self, block) -> list:
        if isinstance(block, markup.Heading):
            return self.heading(block)
        if isinstance(block, markup.Paragraph):
            return [self.text.para(block.text, self.st["body"])]
        if isinstance(block, markup.ListBlock):
            return [self.list(block, self.st["item"])]
        if isinstance(block, markup.Box):
            return [self.box(block)]
        if isinstance(block, markup.Insert):
            return INSERTS[block.kind](self, **block.args)
        raise TypeError(block)

    def heading(self, block: markup.Heading) -> list:
        style = self.st[f"h{block.level}"]
        para = self.text.para(block.text, style)
        if block.level == 1:
            para._kitgen_chapter = markup.plain(block.text)
            rule = HRFlowable(width="100%", thickness=1.2, color=colors.HexColor(self.theme.accent),
                              spaceBefore=1, spaceAfter=6)
            rule.keepWithNext = 1
            return [CondPageBreak(mm(45)), para, rule]
        if block.level == 2:
            return [CondPageBreak(mm(28)), para]
        return [para]

    def list(self, block: markup.ListBlock, style) -> ListFlowable:
        items = [ListItem(self.text.para(t, style), leftIndent=16) for t in block.items]
        if block.ordered:
            return ListFlowable(items, bulletType="1", start=block.start, bulletFontName=fonts.BOLD,
                                bulletFontSize=style.fontSize, leftIndent=16, bulletDedent=14,
                                bulletColor=colors.HexColor(self.theme.primary), spaceAfter=5)
        return ListFlowable(items, bulletType="bullet", start="\u2022", bulletFontName=fonts.REGULAR,
                            bulletFontSize=style.fontSize, leftIndent=16, bulletDedent=11,
                            bulletColor=colors.HexColor(self.theme.primary), spaceAfter=5)

    def box(self, block: markup.Box) -> KeepTogether:
        """A tinted box; kept on one page unless it is longer than a page, then split in its rows."""
        prefix = BOX_PREFIX[block.kind]
        if not block.title:
            title = prefix
        elif block.title[:1].isdigit():
            title = f"{prefix} {block.title}"      # "Playtest ruling 3: ..."
        else:
            title = f"{prefix}: {block.title}"
        inner = [self.text.para(title, self.st["box_title"])]
        for b in block.blocks:
            if isinstance(b, markup.Paragraph):
                inner.append(self.text.para(b.text, self.st["box"]))
            elif isinstance(b, markup.ListBlock):
                inner.append(self.list(b, self.st["box"]))
            else:
                inner.extend(self.block(b))
        table = Table([[inner]], colWidths=[self.width], splitInRow=1)
        table.setStyle(TableStyle([
            ("BACKGROUND", (0, 0), (-1, -1), colors.HexColor(BOX_FILLS[block.kind])),
            ("LINEBEFORE", (0, 0), (0, -1), 3, colors.HexColor(BOX_EDGES[block.kind])),
            ("FONTNAME", (0, 0), (-1, -1), fonts.REGULAR),
            ("LEFTPADDING", (0, 0), (-1, -1), 10), ("RIGHTPADDING", (0, 0), (-1, -1), 10),
            ("TOPPADDING", (0, 0), (-1, -1), 7), ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
        ]))
        table.spaceBefore, table.spaceAfter = 2, 9
        return KeepTogether([table])

    # --- data-driven inserts ---

    def title_block(self) -> list:
        g = self.game
        facts = f"{g.players_text} players \u00b7 {g.deck_size} cards"
        out = [Spacer(1, mm(6)), self.text.literal(g.title, self.st["title"])]
        if g.subtitle:
            out.append(self.text.literal(g.subtitle, self.st["subtitle"]))
        out.append(self.text.literal(facts, self.st["facts"]))
        out += [HRFlowable(width="30%", thickness=2, color=colors.HexColor(self.theme.accent),
                           spaceBefore=2, spaceAfter=mm(6))]
        return out

    def _grid(self, header, rows, widths, extra=(), styles=None) -> Table:
        """A table with a shaded header row; ``styles[r][c]`` overrides a body cell's style."""
        head = [self.text.literal(h, self.st["cell_head"]) for h in header]
        body = [[self.text.literal(c, (styles[r][i] if styles and styles[r][i] else self.st["cell"]))
                 if isinstance(c, str) else c for i, c in enumerate(row)] for r, row in enumerate(rows)]
        table = Table([head] + body, colWidths=widths, repeatRows=1, hAlign="LEFT")
        style = [
            ("BACKGROUND", (0, 0), (-1, 0), HEADER_FILL),
            ("LINEBELOW", (0, 0), (-1, 0), 0.8, RULE),
            ("LINEBELOW", (0, -1), (-1, -1), 0.8, RULE),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("FONTNAME", (0, 0), (-1, -1), fonts.REGULAR),
            ("TOPPADDING", (0, 0), (-1, -1), 2.6), ("BOTTOMPADDING", (0, 0), (-1, -1), 3.2),
            ("LEFTPADDING", (0, 0), (-1, -1), 5), ("RIGHTPADDING", (0, 0), (-1, -1), 5),
        ]
        for r in range(2, len(rows) + 1, 2):
            style.append(("BACKGROUND", (0, r), (-1, r), ZEBRA))
        table.setStyle(TableStyle(style + list(extra)))
        table.spaceBefore, table.spaceAfter = 3, 10
        return table

    def card_table(self, type=None, columns=None, caption="", exclude=None) -> list:
        data = tables.card_table(self.game, type, columns, exclude)
        for card in self.game.cards:
            if type is None or card.type == type:
                for col, value in (("name", card.name), ("text", card.text)):
                    letters = _without_icons(self.game, value)
                    fonts.check_glyphs(letters, f"{self.game.sheet.file}, row {card.row}, {card.label}, "
                                                f"column '{self.game.column(col)}'",
                                       self.text.covering(letters, self.st["cell"]).fontName)
        widths = None if self.checking else self._column_widths(data)
        styles = None
        if "type" in data.columns:
            col = data.columns.index("type")
            type_styles = {k: ParagraphStyle(f"type-{k}", parent=self.st["cell"], fontName=fonts.BOLD,
                                             textColor=colors.HexColor(t.color))
                           for k, t in self.game.types.items()}
            styles = [[type_styles[key] if i == col else None for i in range(len(data.columns))]
                      for key in data.types]
        rows = self._rich_rows(data, type, styles)
        if self.checking:
            self._check_grid(data.header, rows, styles)
            out: list = [Spacer(0, 0)]
        else:
            out = [self._grid(data.header, rows, widths, styles=styles)]
        if caption:
            out.append(self.text.para(caption, self.st["caption"]))
        return out

    def _rich_rows(self, data: tables.CardTable, type, styles) -> list[list]:
        """The table's cells; those from the card sheet show their :icons:, every other character as written."""
        from kitgen.data.icons import IconLibrary
        from kitgen.render.rich_text import Icon, IconParagraph, icon_names, para_markup, parse, plain_text, written_out

        game = self.game
        library = IconLibrary(None if game.builtin else game.root)
        cards = [c for c in game.cards if type is None or c.type == type]
        rows = []
        for r, (card, row) in enumerate(zip(cards, data.rows)):
            cells: list = []
            for i, (col, value) in enumerate(zip(data.columns, row)):
                if col in ("type", "count"):
                    cells.append(value)
                    continue
                style = styles[r][i] if styles and styles[r][i] else self.st["cell"]
                header = game.column(col) if col in tables.DEFAULT_COLUMNS else col
                where = f"{game.sheet.file}, row {card.row}, {card.label}, column '{header}'"
                text = game.tokens.substitute(" ".join(value.split("\n")))    # [icons] and emoji drawn as icons
                pieces = parse(text, icons_only=True)                       # the rest as written, on one line
                missing = {n for n in icon_names(pieces) if library.missing(n, where)}   # warned of by the cards
                pieces = written_out(pieces, missing) if missing else pieces
                icons = {n: Icon(n, library.find(n, where)) for n in icon_names(pieces)}
                style = self.text.covering(plain_text(pieces), style)       # a font of the game's that has them
                fonts.check_glyphs(plain_text(pieces), where, style.fontName)
                markup = para_markup(pieces, style.fontSize, icons)      # an icon's size, worked out here
                cells.append(None if self.checking else IconParagraph(markup, style, icons))
            rows.append(cells)
        return rows

    def _check_grid(self, header, rows, styles) -> None:
        """What :meth:`_grid` refuses of a card table's words (the glyphs of its plain cells), once
        for each text in each font."""
        done: set = set()
        for i, h in enumerate(header):
            self.text.check(markup.escape_value(h), self.st["cell_head"])
        for r, row in enumerate(rows):
            for i, c in enumerate(row):
                if isinstance(c, str):
                    style = styles[r][i] if styles and styles[r][i] else self.st["cell"]
                    if (c, style.fontName) not in done:
                        self.text.check(markup.escape_value(c), style)
                        done.add((c, style.fontName))

    def _column_widths(self, data: tables.CardTable) -> list[float]:
        """Short columns as wide as their longest entry; the effect text takes what is left."""
        size, pad = self.st["cell"].fontSize, 10 + 2
        natural = []
        for i, col in enumerate(data.columns):
            head = stringWidth(data.header[i], fonts.BOLD, size)
            font = fonts.BOLD if col == "type" else fonts.REGULAR
            cells = [stringWidth(row[i], font, size) for row in data.rows]
            natural.append(max([head, *cells]) + pad)
        if "text" in data.columns:
            t = data.columns.index("text")
            rest = self.width - sum(w for i, w in enumerate(natural) if i != t)
            natural[t] = max(rest, self.width * 0.35)
        total = sum(natural)
        if total > self.width:
            natural = [w * self.width / total for w in natural]
        elif "text" not in data.columns:
            natural = [w + min(24.0, (self.width - total) / len(natural)) for w in natural]
        return natural

    def component_list(self) -> list:
        lines = tables.component_lines(self.game)
        rows = [(str(line.count), line.name, line.detail) for line in lines]
        widths = [self.width * f for f in (0.1, 0.32, 0.58)]
        return [self._grid(("Count", "Component", "Notes"), rows, widths)]

    def stacks(self, before, after=None, caption="", labels=None, type=None, wild=None, word="Stack") -> list:
        kinds = diagrams.stack_kinds(self.game, type, wild)
        names = {}
        for card in self.game.cards:
            v = card.numeric_value
            if card.type == kinds.type and v is not None and v not in names:
                names[v] = card.name
        what = f"{word.lower()}_diagram"
        before_t = diagrams.parse_stacks(before, what, kinds, word.lower())
        after_t = diagrams.parse_stacks(after, what, kinds, word.lower()) if after is not None else None
        wild_name = self.game.types[kinds.wild].label if kinds.wild else ""
        for stack in before_t + (after_t or []):
            for c in stack:
                fonts.check_glyphs(wild_name if c.wild else names.get(c.value, ""), f"{what} card name")
        wild_color = self.game.types[kinds.wild].color if kinds.wild else self.game.types[kinds.type].color
        drawing = diagrams.StackDiagram(before_t, after_t, names, self.game.types[kinds.type].color, wild_color,
                                        wild_name, self.theme.accent, labels, word)
        out = [Spacer(1, 4), drawing, Spacer(1, 4)]
        if caption:
            out.append(self.text.para(caption, self.st["caption"]))
        return [KeepTogether(out)]

    def cards(self, rows, caption="") -> list:
        """Cards of the game drawn by the kit's own painter, in rows, the caption under the last."""
        by_row = {c.row: c for c in self.game.cards}
        chosen = [by_row[r] for r in rows]
        if self.painter is None:
            from kitgen.render.card import CardPainter
            from kitgen.units import card_size

            size = card_size(self.game.card_size)
            self.painter = CardPainter(self.game, size.width, size.height, 0.0, self.art, "cards.csv")
        for card in chosen:
            self.painter.check(card)
        rows_of = diagrams.card_rows(len(chosen), self.painter.width, self.painter.height, self.width)
        out: list = [Spacer(1, 4)]
        for k, (start, stop, scale) in enumerate(rows_of):
            row = diagrams.CardRow(self.painter, chosen[start:stop], scale)
            if k == len(rows_of) - 1 and caption:
                out.append(KeepTogether([row, self.text.para(caption, self.st["caption"])]))
            else:
                out.append(row)
        return out

    def phases(self, phases, caption="") -> list:
        for p in phases:
            fonts.check_glyphs(str(p), "phase_diagram", fonts.BOLD)
        out = [Spacer(1, 3), diagrams.PhaseDiagram(phases, self.theme.primary, self.theme.accent),
               Spacer(1, 6)]
        if caption:
            out.append(self.text.para(caption, self.st["caption"]))
        return [KeepTogether(out)]


INSERTS = {
    "title": Builder.title_block,
    "components": Builder.component_list,
    "card_table": Builder.card_table,
    "cards": Builder.cards,
    "stacks": Builder.stacks,
    "phases": Builder.phases,
    "page_break": lambda self: [PageBreak()],
}
