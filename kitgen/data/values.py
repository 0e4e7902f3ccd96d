"""Single values users write, checked or normalised: colours, slugs, whole numbers, text direction.

The readers of game.toml (:mod:`kitgen.data.game`, :mod:`kitgen.data.components`)
check colours here (and layouts their yes-or-no keys, :func:`true_or_false`), and whatever names a folder or file after a title or a card
(the game's slug, exported file names, ``kitgen new``) makes its slug here.
Card types that game.toml does not declare take their colours from
:func:`type_colors`.  Layouts read their colours with :func:`layout_color`, and
their templates' colour filters mix them with :func:`mix_colors`.
"""

from __future__ import annotations

import colorsys
import re
import unicodedata

_HEX_COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")
_HEX_COLOR_ALPHA = re.compile(r"^#([0-9a-fA-F]{6})([0-9a-fA-F]{2})?$")
_WHOLE = re.compile(r"^[0-9]+(\.0*)?$")

# Frame colours for card types nobody declared: distinct, and dark enough for white corner numbers.
# each dark enough that kitgen's own face can print it lightened as a big value on its paper (3:1 at least)
TYPE_PALETTE = ("#2a6f97", "#c44536", "#3a7d44", "#7b4b94", "#b5621b", "#1b8a7a",
                "#8c5e34", "#b5446e", "#56656f", "#5f8a3a", "#3d5a80", "#a44a3f")
_NOT_SLUG = re.compile(r"[^a-z0-9]+")


def hex_color(value: str, name: str) -> str:
    """``value`` in lower case when it is a colour like ``#a0522d``; else ValueError naming the key ``name``."""
    if not _HEX_COLOR.match(value):
        raise ValueError(f"'{name}' = {value!r} is not a colour like \"#a0522d\"")
    return value.lower()


def card_color(value: str) -> str:
    """A card's own colour, ``#rrggbb`` or ``#rrggbbaa``, as ``#rrggbb`` in lower case: a colour
    with transparency is laid over the white paper.  ValueError for anything else."""
    found = _HEX_COLOR_ALPHA.match(value.strip())
    if not found:
        raise ValueError(f"{value!r} is not a colour like \"#2f5da8\" (or \"#2f5da880\" with transparency)")
    rgb, alpha = found.group(1).lower(), found.group(2)
    if alpha is None:
        return "#" + rgb
    a = int(alpha, 16) / 255
    channels = (round(int(rgb[i:i + 2], 16) * a + 255 * (1 - a)) for i in (0, 2, 4))
    return "#" + "".join(f"{c:02x}" for c in channels)


def type_colors(count: int, taken: set[str] = frozenset()) -> list[str]:
    """``count`` distinct frame colours, none of them in ``taken``: the palette, then hues around the circle."""
    colors = [c for c in TYPE_PALETTE if c not in {t.lower() for t in taken}]
    hue = 0.0
    while len(colors) < count:
        hue = (hue + 0.618033988749895) % 1.0           # the golden angle keeps neighbours apart
        r, g, b = colorsys.hls_to_rgb(hue, 0.34, 0.55)   # as dark as the palette: readable as text too
        color = "#" + "".join(f"{round(c * 255):02x}" for c in (r, g, b))
        if color not in colors and color not in taken:
            colors.append(color)
    return colors[:count]


def whole_number(text: str) -> int | None:
    """``'3'`` or ``'3.0'`` (as a spreadsheet may save it) as 3; None when not a whole number >= 0."""
    text = text.strip()
    return int(text.split(".")[0]) if _WHOLE.match(text) else None


MAX_SLUG = 64                # characters of a folder name made from a title


def true_or_false(raw) -> bool:
    """A yes or no as a layout writes it: true or false, or text (``yes``, ``no``, ``1``, ``0``, empty: no);
    ValueError for anything else."""
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().lower()
    if text in ("true", "yes", "1"):
        return True
    if text in ("false", "no", "0", ""):
        return False
    raise ValueError(f"{raw!r} is not true or false")


def slugify(text: str, fallback: str = "game", ascii_only: bool = False) -> str:
    """Lower-case ASCII words joined by hyphens, accents dropped: 'Über Spiel' -> 'uber-spiel'.

    Text with no Latin letters at all (Greek, Cyrillic...) keeps its own letters
    rather than collide on ``fallback``, unless ``ascii_only`` (file names that
    must stay portable); text with no letters or digits gives ``fallback``.
    """
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    slug = _NOT_SLUG.sub("-", ascii_text.lower()).strip("-")[:MAX_SLUG].strip("-")
    if not slug and not ascii_only:
        slug = re.sub(r"[^\w]+", "-", text.lower()).strip("-_")
    return slug or fallback


def right_to_left(text: str) -> str | None:
    """A message when ``text`` holds right-to-left letters (Hebrew, Arabic...), which kitgen would
    print reversed and unjoined (it does not shape text); None otherwise."""
    if text.isascii():                  # no ASCII character reads right to left
        return None
    for ch in text:
        if unicodedata.bidirectional(ch) in ("R", "AL", "RLE", "RLO", "RLI"):
            return (f"right-to-left text ({ch!r}, U+{ord(ch):04X}) is not supported: kitgen would print it "
                    "reversed and its letters unjoined; write this text left to right")
    return None


NO_COLOR = ("", "none", "transparent")


def layout_color(value: str) -> tuple[float, float, float, float] | None:
    """A colour of a layout as (red, green, blue, alpha) from 0 to 1: ``#rrggbb``, or ``#rrggbbaa``
    with real transparency; None for ``""``, ``none`` and ``transparent``.  ValueError otherwise."""
    text = value.strip()
    if text.lower() in NO_COLOR:
        return None
    found = _HEX_COLOR_ALPHA.match(text)
    if not found:
        raise ValueError(f"{value!r} is not a colour like \"#2f5da8\", \"#2f5da880\" (with transparency) "
                         "or \"none\"")
    rgb, alpha = found.group(1), found.group(2)
    r, g, b = (int(rgb[i:i + 2], 16) / 255 for i in (0, 2, 4))
    return r, g, b, (int(alpha, 16) / 255 if alpha else 1.0)


def luminance_of(rgb) -> float:
    """Relative luminance as WCAG 2 defines it of (red, green, blue) from 0 to 1: 0 for black, 1 for white."""
    def linear(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = rgb[:3]
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def contrast_of(a: str, b: str) -> float:
    """The WCAG 2 contrast ratio of two colours like ``#2f5da8``, from 1 (the same) to 21."""
    la, lb = sorted((luminance_of(layout_color(a) or (1, 1, 1)), luminance_of(layout_color(b) or (1, 1, 1))),
                    reverse=True)
    return (la + 0.05) / (lb + 0.05)


PANEL_COLOR = "#fbf7ec"      # the light panel of kitgen's own face
INK_COLOR = "#2b2420"        # its dark text
LEGIBLE = 3.0                # contrast that reads in print (see kitgen.render.card_contrast)


def readable_color(color: str, background: str = PANEL_COLOR, ratio: float = LEGIBLE) -> str:
    """``color`` when it reads on ``background`` (``ratio`` or more), else the least darker (on a light
    background; lighter on a dark one) shade of it that does: a designer's yellow printed on kitgen's
    light panel becomes an ochre."""
    if layout_color(color) is None or contrast_of(color, background) >= ratio:
        return color
    end = "#000000" if luminance_of(layout_color(background) or (1, 1, 1)) > 0.18 else "#ffffff"
    for step in range(1, 21):
        shade = mix_colors(color, end, step / 20)
        if contrast_of(shade, background) >= ratio:
            return shade
    return end


def ink_on(color: str, light: str = "#ffffff", dark: str = INK_COLOR) -> str:
    """The colour of text on ``color``: white while it reads there, else kitgen's dark ink."""
    if layout_color(color) is None or contrast_of(light, color) >= LEGIBLE:
        return light
    return dark if contrast_of(dark, color) > contrast_of(light, color) else light


def mix_colors(color: str, other: str, t: float) -> str:
    """``color`` moved a fraction ``t`` of the way towards ``other``, as ``#rrggbb`` (alpha kept)."""
    a, b = layout_color(color), layout_color(other)
    if a is None or b is None:
        return color
    if not 0 <= float(t) <= 1:
        raise ValueError(f"a share from 0 to 1, not {t!r}")
    channels = (round((x + (y - x) * float(t)) * 255) for x, y in zip(a[:3], b[:3]))
    alpha = "" if a[3] >= 1 else f"{round(a[3] * 255):02x}"
    return "#" + "".join(f"{c:02x}" for c in channels) + alpha
