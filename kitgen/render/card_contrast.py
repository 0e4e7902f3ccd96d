"""Whether a card's text and its icons of one colour stand out from what is drawn behind them.

Contrast is WCAG 2's ratio of relative luminances, from 1:1 (the same
lightness) to 21:1 (black on white); under 3:1 a text or a flat icon is hard
to read in print.  What lies behind a box is worked out from the boxes drawn
before it (their fills, transparency composited over white paper) at a few
points of its text: the middle and the two ends of its widest line.  Where a
picture lies behind, its colours vary and nothing is said.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from PIL import Image
from reportlab.lib.colors import Color

from kitgen.render.card_fit import Drawn
from kitgen.render.card_text import LINE_LEADING
from kitgen.render.colors import contrast, luminance
from kitgen.render.rich_text import icon_names, parse

LEAST = 3.0              # WCAG 2's least contrast for large text and graphics: what reads in print
PAPER = (1.0, 1.0, 1.0)
BLACK = (0.0, 0.0, 0.0, 1.0)
ONE_COLOUR = 1.5         # an icon whose lightest and darkest parts differ less than this is of one colour


@lru_cache(maxsize=4096)
def ratio(a: tuple, b: tuple) -> float:
    """WCAG 2's contrast ratio of two (r, g, b) colours with channels from 0 to 1, from 1 to 21."""
    return contrast(Color(*a[:3]), Color(*b[:3]))


def hex_colour(rgb) -> str:
    return "#" + "".join(f"{round(v * 255):02x}" for v in rgb[:3])


def over(colour, below) -> tuple[float, float, float]:
    """``colour`` (r, g, b, alpha) laid over the opaque colour ``below``."""
    a = colour[3]
    b = 1 - a
    return (a * colour[0] + b * below[0], a * colour[1] + b * below[1], a * colour[2] + b * below[2])


def problems(drawn: list[Drawn], painter, memo: dict) -> list[tuple[Drawn, str, tuple, tuple, float]]:
    """(box, what, its colour, the colour behind it, contrast) of every text and one-coloured icon
    standing out less than :data:`LEAST` from what is behind it.  ``what`` is "text" or an icon's name.

    A box's answer hangs on the box and on the boxes drawn before it that it overlaps; cards share
    those (a deck's places and boxes are worked out once, :mod:`kitgen.layout.known`), so ``memo``
    keeps each answer for the next card that draws the same ones."""
    found = []
    for i, d in enumerate(drawn):
        if d.box.kind not in ("text", "icons") or not d.content.strip():
            continue
        under = tuple(b for b in drawn[:i] if _overlap(b, d)) + (d,)
        key = tuple(id(b) for b in under)
        if key not in memo:
            points = _points(d)
            # a box drawn the same way over the same boxes (a title of the same length) is judged once
            text = None if d.box.kind == "icons" else (tuple(icon_names(parse(d.content))), _has_letters(d.content))
            look = (key[:-1], d.box.name, d.style.get("color"), d.style.get("fill"),
                    tuple((round(x, 1), round(y, 1)) for x, y in points), d.content if text is None else text)
            if look not in memo:
                memo[look] = _judge(under, points, painter, text)
            memo[key] = (under, [(d, *rest) for _, *rest in memo[look]])   # the boxes kept alive with their ids
        found += memo[key][1]
    return found


def _overlap(b: Drawn, d: Drawn) -> bool:
    p, q = b.place, d.place
    return p.x < q.x + q.w and q.x < p.x + p.w and p.y < q.y + q.h and q.y < p.y + p.h


def _judge(under: tuple[Drawn, ...], points, painter,
           text: tuple[tuple[str, ...], bool] | None = None) -> list[tuple[Drawn, str, tuple, tuple, float]]:
    """The problems of the last box of ``under``, at ``points``, over the others.  ``text``: of a text
    box, the names of its icons and whether it prints letters, where the caller has them already."""
    d = under[-1]
    behind = {b for b in (_behind(under, x, y) for x, y in points) if b is not None}
    if not behind:
        return []
    found = []
    if d.box.kind == "text":
        names, letters = text or (icon_names(parse(d.content)), _has_letters(d.content))
        colour = d.style.get("color") or BLACK
        value, worst = min((ratio(over(colour, b), b), b) for b in behind)
        if value < LEAST and letters:
            found.append((d, "text", over(colour, worst), worst, value))
    else:
        from kitgen.render.card_draw import icon_box_names

        names = icon_box_names(d.content)
    for name in dict.fromkeys(names):
        colour = one_colour(painter.icon(name, d.where).path)
        if colour is None:
            continue
        value, worst = min((ratio(colour, b), b) for b in behind)
        if value < LEAST:
            found.append((d, name, colour, worst, value))
    return found


def _has_letters(content: str) -> bool:
    """Whether a text prints any character besides its icons."""
    return bool(re.sub(r":[A-Za-z][A-Za-z0-9_-]*:|[\s*\\]", "", content))


def _points(d: Drawn) -> list[tuple[float, float]]:
    """Where the text (or icons) of ``d`` lies: the middle and the two ends of its widest line, in the
    card's frame from the top left."""
    inner = d.inner or d.place
    cy = inner.y + inner.h / 2
    if d.style.get("direction") == "down":          # a column of icons: its top, middle and bottom
        cx, pad = inner.x + inner.w / 2, min(1.0, inner.h / 4)
        return [(cx, inner.y + pad), (cx, cy), (cx, inner.y + inner.h - pad)]
    left, right = inner.x, inner.x + inner.w
    fit = d.text
    if fit is not None and fit.para is None and fit.lines:
        widest = max(fit.setter.width(line, fit.size) for line in fit.lines)
        block = fit.size * (d.style.get("leading") or LINE_LEADING) * len(fit.lines)
        valign = d.style.get("valign") or "middle"
        cy = {"top": inner.y + block / 2, "bottom": inner.y + inner.h - block / 2}.get(valign, cy)
        align = d.style.get("align") or "center"
        if align == "left":
            right = left + widest
        elif align == "right":
            left = right - widest
        else:
            left, right = inner.x + (inner.w - widest) / 2, inner.x + (inner.w + widest) / 2
    pad = min(1.0, (right - left) / 4)
    return [(left + pad, cy), ((left + right) / 2, cy), (right - pad, cy)]


def _contains(d: Drawn, x: float, y: float) -> bool:
    p = d.place
    if d.box.kind == "circle":
        r = min(p.w, p.h) / 2
        return (x - p.x - p.w / 2) ** 2 + (y - p.y - p.h / 2) ** 2 <= r * r
    return p.x <= x <= p.x + p.w and p.y <= y <= p.y + p.h


def _behind(under: tuple[Drawn, ...], x: float, y: float) -> tuple[float, float, float] | None:
    """The colour behind the point (x, y) of the last box of ``under``: the fills drawn there before
    its content (its own fill first), composited over white paper; None where a picture lies behind."""
    layers = []
    for k in range(len(under) - 1, -1, -1):
        d = under[k]
        if d.box.kind == "line" or not _contains(d, x, y):
            continue
        if k < len(under) - 1 and d.box.kind == "image" and d.content.strip():
            return None
        fill = d.style.get("fill")
        if fill is not None and fill[3] > 0:
            layers.append(fill)
            if fill[3] >= 1:
                break
    colour = PAPER
    for fill in reversed(layers):
        colour = over(fill, colour)
    return (round(colour[0], 6), round(colour[1], 6), round(colour[2], 6))


def one_colour(path) -> tuple[float, float, float] | None:
    """The colour of a picture drawn in one colour (its opaque parts of one lightness), else None (also
    for an SVG, drawn in the colour of its text where it says currentColor, which the text's own check
    covers)."""
    path = Path(path)
    if path.suffix.lower() == ".svg":
        return None
    stat = path.stat()
    return _one_colour(str(path), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=64)
def _one_colour(path: str, mtime_ns: int, size: int) -> tuple[float, float, float] | None:
    with Image.open(path) as image:
        picture = image.convert("RGBA")
    picture.thumbnail((64, 64))
    data = picture.tobytes()
    opaque = [tuple(data[i:i + 3]) for i in range(0, len(data), 4) if data[i + 3] >= 128]
    if not opaque:
        return None
    colours = [tuple(v / 255 for v in p) for p in opaque]
    lights = sorted(luminance(Color(*c)) for c in colours)
    low, high = lights[len(lights) // 20], lights[-1 - len(lights) // 20]      # past stray edge pixels
    if (high + 0.05) / (low + 0.05) > ONE_COLOUR:
        return None
    return tuple(sum(c[k] for c in colours) / len(colours) for k in range(3))
