"""The one palette of kitgen's drawings, and colour arithmetic (mixing, contrast).

Every fixed colour a renderer uses is named here; the colours of a game
(card types, the back) come from its game.toml as ``#rrggbb`` strings, which
:func:`mix` and :func:`text_color_on` take as they are.
"""

from __future__ import annotations

from reportlab.lib.colors import Color, HexColor, linearlyInterpolatedColor

from kitgen.data.values import luminance_of

# cards, table aids and exports
INK = HexColor("#2b2420")            # text and outlines
PANEL = HexColor("#fbf7ec")          # a card face's light panel; light text on dark pieces
MUTED = HexColor("#7a7064")          # secondary text on table aids
GUIDE = HexColor("#c9c2b6")          # light guide lines: first cuts, table rules, under headings
CUT = HexColor("#3b332c")            # cut lines of table aids
SEAM = HexColor("#c0392b")           # seams and targets of a board in parts: a red that shows on most boards
STRIPE = HexColor("#f4f1ea")         # every other row of a score pad
PLACEHOLDER = HexColor("#e4ded2")    # where an art file is missing
PLACEHOLDER_EDGE = HexColor("#b9b0a0")

# around the cards on a sheet, and the contact sheet
CROP_MARK = HexColor("#000000")
CUT_GUIDE = HexColor("#9a9a9a")      # hairlines along cuts without crop marks: shows on dark and light cards
NOTE = HexColor("#6b6258")           # small print: sheet labels, scale bars, the fold line, captions
PAPER = HexColor("#f3efe6")          # the contact sheet's background
SHADOW = HexColor("#d8d1c3")         # under each card of the contact sheet

# the rulebook
RULEBOOK_INK = HexColor("#222222")
RULEBOOK_MUTED = HexColor("#666666")
DIAGRAM_TITLE = HexColor("#444444")
DIAGRAM_LABEL = HexColor("#555555")
RULE = HexColor("#b9ad8f")           # rules under table headers and around the page
HEADER_FILL = HexColor("#e9e1cc")
ZEBRA = HexColor("#f7f3ea")          # every other row of a rulebook table
CARD_OUTLINE = HexColor("#bdb6a8")   # round a card the rulebook shows

# the balance report (its text is the rulebook's ink and muted grey)
REPORT_HEAD = HexColor("#2d3a2e")    # headings and table headers
REPORT_STRIPE = HexColor("#f3f1ea")  # every other row of a table
CHART_GRID = HexColor("#dddddd")     # grid lines and table rules
BAR = HexColor("#2a7f62")            # the baseline's bars
BAR_VARIANT = HexColor("#a0522d")    # a compared variant's bars
BAR_THIRD = HexColor("#b8a06a")      # a third series of bars (a chart comparing three figures)
NEGATIVE = HexColor("#b03a2e")       # bars below zero, warnings
REFERENCE = HexColor("#d9822b")      # reference lines such as the fair share
WARNING_FILL = HexColor("#fbeceb")   # behind a warning


class TextColor(Color):
    """The colour of text: a press canvas (:mod:`kitgen.render.canvas`) prints it in the inks of text and
    lines (a black one in black ink alone); on every other canvas it is the colour it says."""


def text_color(value: Color | str) -> TextColor:
    """``value`` as the colour of text."""
    c = _color(value)
    return c if isinstance(c, TextColor) else TextColor(c.red, c.green, c.blue, alpha=c.alpha)


def _color(value: Color | str) -> Color:
    return HexColor(value) if isinstance(value, str) else value


def mix(color: Color | str, other: Color | str, t: float) -> Color:
    """``color`` moved a fraction ``t`` (0 to 1) of the way towards ``other``."""
    return linearlyInterpolatedColor(_color(color), _color(other), 0, 1, t)


def luminance(color: Color | str) -> float:
    """Relative luminance as WCAG 2 defines it (sRGB channels linearised), 0 for black to 1 for white."""
    c = _color(color)
    return luminance_of((c.red, c.green, c.blue))


def contrast(a: Color | str, b: Color | str) -> float:
    """The WCAG 2 contrast ratio of two colours, from 1 (the same) to 21 (black on white)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


READABLE = 4.5     # WCAG 2 level AA for normal text


def readable_on(background: Color | str, wanted: Color | str, ratio: float = READABLE) -> Color:
    """``wanted`` if it reads on ``background`` with at least ``ratio`` contrast, else ``wanted``
    taken just far enough towards black or white (whichever gets there first) that it does."""
    wanted = _color(wanted)
    if contrast(wanted, background) >= ratio:
        return wanted
    for step in range(1, 21):
        for end in ("#000000", "#ffffff"):
            candidate = mix(wanted, end, step / 20)
            if contrast(candidate, background) >= ratio:
                return candidate
    return INK if contrast(INK, background) >= contrast(PANEL, background) else PANEL


def is_dark(color: Color | str) -> bool:
    """Whether light text reads better than dark text on ``color`` (by relative luminance)."""
    c = _color(color)
    return 0.2126 * c.red + 0.7152 * c.green + 0.0722 * c.blue < 0.55


def text_color_on(background: Color | str, wanted: str = "") -> Color:
    """``wanted`` when given, else ink or panel white, whichever reads on ``background``."""
    if wanted:
        return HexColor(wanted)
    return PANEL if is_dark(background) else INK
