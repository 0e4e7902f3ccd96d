"""The card face ``kitgen new --from`` writes: a ``layouts.toml`` that already shows the sheet.

Each line of the layout places one of kitgen's parts (kitgen/data/builtin_parts.toml) and says in a
comment which column of the sheet it shows: the name on a title bar, the value in two corners, the
art in a window, the effect text in a panel and the type on a type line, as ``[columns]`` maps them,
and up to :data:`MAX_EXTRAS` of the sheet's other short columns as labelled lines (two side by side
when both are short enough).  A sheet without an effect text column shows its first column of
longer text in the text panel.  The columns are chosen from what the cells hold, so every card the
sheet gives can print: a column whose cells hold characters the font lacks (and that are no emoji
kitgen draws as an icon), or right-to-left text, is left out of the face, and a label keeps only
what the font prints.
"""

from __future__ import annotations

import keyword
from dataclasses import dataclass

from kitgen.data.card_context import CARD_NAMES, column_names
from kitgen.data.columns import PICTURE_ENDINGS
from kitgen.outputs.quoted import comment_text, jinja_string, toml_string
from kitgen.units import MM

FACE = "card"                 # the layout's name, which game.toml's face names
MAX_EXTRAS = 6                # other short columns shown as labelled lines
MAX_SHORT = 24                # characters of every cell of a column shown on a labelled line
MAX_PANEL_TEXT = 250          # characters of every cell of a column shown in the text panel in place of text
MAX_LABEL = 20                # characters of a label; a longer header is cut, with "…"
LINE_SIZE = 7.5               # points: the type size of a labelled line, as LINE_PART writes it
HALF_LINE = 26.25 * MM        # a line half the card wide, beside another: (63 mm / 2) less the margin and a gap
JINJA_WORDS = frozenset({"and", "or", "not", "in", "is", "if", "else", "true", "false", "none", "True", "False",
                         "None", "recursive", "for", "block", "with"})


@dataclass(frozen=True)
class Shown:
    """A column the face shows on a labelled line."""

    column: int
    reads: str                # how a layout's template reads it: power_delta, fields["Power Δ"]
    label: str                # as printed ("" for none), markup and template characters escaped
    width: float              # points of label and widest value at LINE_SIZE
    box: str                  # its box's name in the layout


def starter_layout(title: str, columns, rows, mapped: dict[str, int], worked_out: dict, taken: set[int],
                   typed: bool) -> str:
    """The text of layouts.toml for a game named ``title`` around a sheet of ``columns`` and ``rows``
    ((row, cells) pairs): ``mapped`` and ``worked_out`` are [columns] as written (field -> column, and
    field -> (template, note)), ``taken`` the columns those use, ``typed`` whether card types are declared."""

    def source(field: str) -> str:
        if field in worked_out:
            return f"{field}: worked out in game.toml's [columns]"
        return f"{field}: column {header(mapped[field])}"

    def header(i: int) -> str:               # a column's header in a comment, cut at 60 characters
        text = comment_text(columns.names[i])
        return toml_string(text if len(text) <= 60 else text[:59] + "…")

    def cells(i: int) -> list[str]:
        return [c[i].strip() for _, c in rows if i < len(c) and c[i].strip()]

    free = [i for i in columns.named() if i not in taken and cells(i) and _printable(cells(i))
            and not _pictures(cells(i)) and not _colours(cells(i))]
    short = [i for i in free if all(len(v) <= MAX_SHORT and "\n" not in v for v in cells(i))]
    chosen = sorted(sorted(short, key=lambda i: -len(cells(i)))[:MAX_EXTRAS])
    left_out = [i for i in short if i not in chosen]
    panel = None
    has_text = "text" in mapped or "text" in worked_out
    if not has_text:
        longer = [i for i in free if i not in short and all(len(v) <= MAX_PANEL_TEXT for v in cells(i))]
        panel = max(longer, key=lambda i: len(cells(i)), default=None)
    names = column_names(columns)
    extras = []
    for i in chosen:
        label = _label(columns.names[i])
        reads = _reads(columns, i, names)
        extras.append(Shown(i, reads, label, _width(label, cells(i)), _box(reads, i)))
    rows_of_lines = _pairs(extras)

    value = "value" in mapped or "value" in worked_out
    text_shown = has_text or panel is not None
    art = max(0.16, 0.4 - 0.05 * len(rows_of_lines)) if text_shown else None
    parts: list[tuple[str, str]] = []          # (the part's line, its comment)
    colour = ("the card's own colour (" + source("color") + "), else its type's" if "color" in mapped
              else "its type's colour" if typed else "the deck's colour")
    parts.append(('{ part = "background" }', colour + ", to the edge of the bleed"))
    parts.append(('{ part = "frame" }', "a light panel, bordered in a darker shade"))
    room = ', padding = ["0mm", "11mm"]' if value else ""          # clear of the corner badges
    if "name" in mapped or "name" in worked_out:
        parts.append(('{ part = "title-bar"' + (', h = "10mm"' if value else "") + room + " }", source("name")))
    art_h = '"art_h"' if art is not None else '"rest"'
    parts.append(("{ part = \"art-window\", h = " + art_h + " }",
                  source("art") if "art" in mapped else
                  "art: no column names pictures; [columns] art = \"...\" names one, its pictures in art/"))
    for line in rows_of_lines:
        for n, shown in enumerate(line):
            parts.append((_line(shown, n, line, art is None, toml_string), f"column {header(shown.column)}"))
    if text_shown:
        steps = [f'{{ vars = {{ art_h = "{art * f:.2f} * height" }} }}' for f in (0.7, 0.45)]
        steps += ['{ min_size = "0pt" }', f'{{ vars = {{ art_h = "{art * 0.2:.2f} * height" }} }}']
        content = "" if has_text else f", content = {toml_string('{{ ' + _reads(columns, panel, names) + ' }}')}"
        parts.append(("{ part = \"text-panel\"" + content + ", fallback = [" + ", ".join(steps) + "] }",
                      source("text") + " (a long one takes room from the art, then shrinks)" if has_text else
                      f"column {header(panel)}, the sheet's longer text "
                      "([columns] text is the effect text's)"))
    if typed and value:           # as tall as the badges, between them, so nothing above runs under them
        parts.append(('{ part = "type-line", h = "10mm", fill = "none"' + room + " }", source("type")))
    elif typed:
        parts.append(('{ part = "type-line" }', source("type")))
    elif value:
        parts.append(('{ part = "footer-line", h = "10mm"' + room + " }",
                      "the game's title, between the corner badges"))
    if value:
        parts.append(('{ part = "corner-badge", name = "value", content = "{{ value }}", turned = true, '
                      'color = "{{ card_color | ink }}" }', source("value") + ", and again upside down"))

    out = [f"# The card face of {comment_text(title)}, written by kitgen new to show the sheet's own columns:",
           "# each line of parts places one of kitgen's parts (docs/layouts.md, \"Parts\") and says which",
           "# column it shows.  Change a line, move it, take it out or add one, and build again.",
           "", f"[layouts.{FACE}]", 'size = "poker"']
    if art is not None:
        out.append(f'vars = {{ art_h = "{art:.2f} * height" }}   # the art window\'s height; a long text takes some')
    out.append("parts = [")
    width = max(len(p) for p, _ in parts)
    out += [f"  {p + ',':<{min(width + 1, 64)}}  # {c}" for p, c in parts]
    out.append("]")
    if left_out:
        shown = ", ".join(header(i) for i in left_out[:12])
        more = f" and {len(left_out) - 12} more" if len(left_out) > 12 else ""
        out += ["", f"# Not shown, to keep the card readable: {shown}{more}.",
                "# A line like those above shows one, e.g. { part = \"labelled-line\", content = \"**Label:** {{ column }}\" }"]
    if extras:
        out.append(LINE_PART)
    return "\n".join(out).rstrip("\n") + "\n"


def _line(shown: Shown, n: int, line: list[Shown], from_bottom: bool, toml_string) -> str:
    """The part that shows one column on a labelled line, hidden on a card whose cell is blank; of a pair
    side by side, the one the stack would place second takes the other's y (the right one from the top,
    the left one below the part that takes the rest of the room, where the stack goes up from the bottom)."""
    label = f"**{shown.label}:** " if shown.label else ""
    keys = [f"name = {toml_string(shown.box)}", f"content = {toml_string(label + '{{ ' + shown.reads + ' }}')}",
            "when = " + toml_string("{{ " + shown.reads + " | trim != '' }}")]     # "FALSE", "no", "0" show too
    if len(line) == 2:
        keys.append('side = "left"' if n == 0 else 'side = "right"')
        if n == (0 if from_bottom else 1):
            keys.append(f'y = "{line[1 - n].box}.y"')
    return '{ part = "labelled-line", ' + ", ".join(keys) + " }"


LINE_PART = """
[parts.labelled-line]               # a column's label and value on a line, drawn on cards where the cell is filled
name = "line"
stack = true
params = { side = "whole", x = "$margin", w = "width - 2 * $margin" }

[parts.labelled-line.choices.side]  # across the card, or half of it (one of two halves takes the other's y)
whole = { x = "$margin", w = "width - 2 * $margin" }
left = { x = "$margin", w = "width / 2 - $margin - 0.75mm" }
right = { x = "width / 2 + 0.75mm", w = "width / 2 - $margin - 0.75mm" }

[parts.labelled-line.boxes.text]
x = "$x"
y = "$y"
w = "$w"
h = "4mm"
size = "7.5pt"
floor = "5pt"
lines = 1
align = "left"
color = "#2b2420"
"""
OWN_BOXES = frozenset({"background", "frame", "title", "art", "art_window", "text", "type", "value", "value_disc",
                       "value_turned", "value_disc_turned", "art_h", "width", "height", "safe", "min", "max"})


def _box(reads: str, column: int) -> str:
    """The name of a labelled line's box: the column's name when it is a plain one, else column_N."""
    if reads.isidentifier() and reads.isascii() and len(reads) <= 30 and reads not in OWN_BOXES:
        return reads
    return f"column_{column + 1}"


def _pairs(extras: list[Shown]) -> list[list[Shown]]:
    """The labelled lines, two to a line where both are short enough, in the sheet's order."""
    out: list[list[Shown]] = []
    i = 0
    while i < len(extras):
        if i + 1 < len(extras) and extras[i].width <= HALF_LINE and extras[i + 1].width <= HALF_LINE:
            out.append(extras[i:i + 2])
            i += 2
        else:
            out.append([extras[i]])
            i += 1
    return out


def _width(label: str, values: list[str]) -> float:
    """Points a labelled line of the widest of ``values`` takes at :data:`LINE_SIZE`."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from kitgen.render import fonts

    fonts.register()
    widest = max(stringWidth(v, fonts.REGULAR, LINE_SIZE) for v in values)
    return stringWidth(f"{label}: ", fonts.BOLD, LINE_SIZE) + widest


def _reads(columns, i: int, names: dict[str, int]) -> str:
    """How a layout's template reads column ``i``: by its header as a name (``power_delta``) when that
    name is its own, else ``fields["..."]`` (a header-less sheet's letters, and headers no name gives)."""
    if not columns.lettered:
        for name, at in names.items():
            if at == i and name not in CARD_NAMES and name.isidentifier() and len(name) <= 40 and not keyword.iskeyword(name) \
                    and name not in JINJA_WORDS:
                return name
    return f"fields[{jinja_string(columns.names[i])}]"


def _label(header: str) -> str:
    """A header as a line's label: spaced, ``_`` as a space, capitalised when written all in lower case,
    cut at :data:`MAX_LABEL` characters; only what the bold font prints, left to right, and markup
    (``*``, ``:``, ``<``, ``\\``) and template braces escaped."""
    from kitgen.data.values import right_to_left
    from kitgen.render import fonts

    text = " ".join(comment_text(" ".join(header.split())).replace("_", " ").split())
    missing = set(fonts.missing_glyphs(text, fonts.BOLD))
    text = " ".join("".join(ch for ch in text if ch not in missing).split())
    if not text or right_to_left(text):
        return ""
    if text == text.lower():
        text = text[:1].upper() + text[1:]
    if len(text) > MAX_LABEL:
        text = text[:MAX_LABEL - 1].rstrip() + "…"
    text = "".join("\\" + ch if ch in "*:<\\" else ch for ch in text)
    return text.replace("{", '{{ "{" }}')


def _printable(values: list[str]) -> bool:
    """Whether every cell prints: each character in the font or an emoji kitgen draws as an icon, and
    no right-to-left text."""
    from kitgen.data.icons import IconTokens
    from kitgen.data.values import right_to_left
    from kitgen.render import fonts

    tokens = IconTokens()
    for v in values:
        plain = tokens.substitute(v)
        if right_to_left(v) or fonts.missing_glyphs(plain, fonts.REGULAR) or fonts.missing_glyphs(plain, fonts.BOLD):
            return False
    return True


def _pictures(values: list[str]) -> bool:
    return all(v.lower().endswith(PICTURE_ENDINGS) for v in values)


def _colours(values: list[str]) -> bool:
    from kitgen.data.values import card_color

    try:
        return all(v.startswith("#") and card_color(v) for v in values)
    except ValueError:
        return False
