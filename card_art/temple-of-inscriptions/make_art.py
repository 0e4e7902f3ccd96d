"""Draw the card art, card back and board pictures of Temple of Inscriptions.

``python card_art/temple-of-inscriptions/make_art.py [OUTDIR]``: see :mod:`kitgen.outputs.art_script`.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root, when run as a script

from kitgen.outputs.art_script import run_script
from kitgen.render import art_toolkit as ak
from kitgen.render.art_toolkit import INK, PANEL, PANEL_EDGE

SKY = "#dfe6d8"
JUNGLE = "#3f6b4a"
JUNGLE_LIGHT = "#6d9a6f"
JUNGLE_DARK = "#2a4a34"
STONE = "#d8c9a3"
STONE_LIGHT = "#e9dfc2"
STONE_DARK = "#a8936a"
GHOST = "#ebe3cd"
GHOST_LINE = "#c9bb98"
OCHRE = "#b5642f"
OCHRE_LIGHT = "#d88a52"
OCHRE_DARK = "#7d4220"
JADE = "#1f7a5c"
JADE_LIGHT = "#4fa884"
JADE_DARK = "#14513d"
GOLD = "#c9a54c"
GOLD_LIGHT = "#e6cc86"
BACK = "#23332b"
BACK_LIGHT = "#2f443a"

W, H = 800, 600          # card art: 4:3, like the other games
CX = W / 2
STROKE = 6
COLORS = 40
LEVELS = 9


def _frame() -> tuple[ak.Sketch, ak.Sketch, ak.Sketch]:
    """The panel, and a scene layer clipped to its inside."""
    s = ak.Sketch(W, H)
    s.rect((2, 2, W - 2, H - 2), PANEL, PANEL_EDGE, 4, radius=34)
    scene, clip = s.layer(), s.layer()
    clip.rect((8, 8, W - 8, H - 8), "#000000", radius=30)
    return s, scene, clip


def _pyramid(s: ak.Sketch, level: int, base_y: float = 520) -> None:
    """The nine tiers of the pyramid with its temple; tiers below ``level`` built, ``level`` marked."""
    tiers = ak.stepped_pyramid(CX, base_y, 620, 250, LEVELS - 1, 330)
    for number, (x0, y0, x1, y1) in enumerate(tiers, start=1):
        if number < level:
            face, lip, line, width = STONE, STONE_LIGHT, INK, STROKE
        elif number == level:
            face, lip, line, width = OCHRE, OCHRE_LIGHT, INK, STROKE
        else:
            face, lip, line, width = GHOST, GHOST, GHOST_LINE, 3
        s.rect((x0, y0, x1, y1), face, line, width)
        s.rect((x0 + width / 2, y0 + width / 2, x1 - width / 2, y0 + (y1 - y0) * 0.25), lip)
    # the central stairway runs up the front
    top = tiers[-1][1]
    stair = [(CX - 58, base_y), (CX + 58, base_y), (CX + 34, top), (CX - 34, top)]
    built = level > 1
    s.polygon(stair, STONE_LIGHT if built else GHOST, INK if built else GHOST_LINE, 4 if built else 3)
    for k in range(1, 16):
        y = base_y - (base_y - top) * k / 16
        half = 58 - 24 * k / 16
        s.line([(CX - half + 6, y), (CX + half - 6, y)], STONE_DARK if built else GHOST_LINE, 2,
               round_caps=False)
    # the temple on top: five doorways under a mansard roof (level 9)
    tx0, tx1, ty1 = CX - 112, CX + 112, top
    ty0 = ty1 - 70
    if level == LEVELS:
        wall, roof, line, width, door = OCHRE, OCHRE_DARK, INK, STROKE, INK
    elif level > LEVELS:
        wall, roof, line, width, door = STONE, STONE_DARK, INK, STROKE, INK
    else:
        wall, roof, line, width, door = GHOST, GHOST, GHOST_LINE, 3, GHOST_LINE
    s.rect((tx0, ty0 + 22, tx1, ty1), wall, line, width)
    s.polygon([(tx0 - 12, ty0 + 24), (tx0 + 14, ty0 - 4), (tx1 - 14, ty0 - 4), (tx1 + 12, ty0 + 24)],
              roof, line, width)
    for i in range(5):
        dx = (i - 2) * 40
        s.rect((CX + dx - 11, ty0 + 38, CX + dx + 11, ty1 - 3), door)


def level_picture(level: int) -> ak.Sketch:
    s, scene, clip = _frame()
    scene.rect((0, 0, W, H), SKY)
    for x, y, r in ((60, 470, 90), (160, 500, 70), (740, 470, 90), (640, 500, 70), (0, 520, 80),
                    (800, 520, 80)):
        scene.circle(x, y, r, JUNGLE_LIGHT)
    for x, y, r in ((90, 520, 70), (710, 520, 70)):
        scene.circle(x, y, r, JUNGLE)
    scene.rect((0, 520, W, H), "#c9b98f")
    s.paste(scene, clip)
    _pyramid(s, level)
    # the level's number in a plaque at the top left
    s.rect((34, 30, 150, 110), PANEL, INK, 5, radius=14)
    s.tally(level, 92, 70, 15, OCHRE, INK, 3)
    s.rect((2, 2, W - 2, H - 2), None, PANEL_EDGE, 4, radius=34)
    return s


def jewel_picture() -> ak.Sketch:
    """A jade ear flare and beads: the wild jewel."""
    s, scene, clip = _frame()
    scene.rect((0, 0, W, H), "#e4ecdf")
    for poly in ak.rays(CX, 300, 150, 420, 18, 6):
        scene.polygon(poly, "#d5e3d3")
    s.paste(scene, clip)
    for i in range(13):
        a = math.radians(-70 + i * 140 / 12)
        x, y = CX + 250 * math.sin(a), 300 + 190 * math.cos(a) - 40
        s.circle(x, y, 20, JADE_LIGHT if i % 2 else JADE, INK, 4)
    s.circle(CX, 290, 150, JADE, INK, STROKE)
    s.circle(CX, 290, 118, JADE_LIGHT, INK, 4)
    s.circle(CX, 290, 60, "#dfeee4", INK, 5)
    s.circle(CX, 290, 26, GOLD, INK, 4)
    for k in range(8):
        a = math.radians(k * 45 + 22.5)
        s.circle(CX + 89 * math.sin(a), 290 - 89 * math.cos(a), 10, JADE_DARK)
    s.rect((2, 2, W - 2, H - 2), None, PANEL_EDGE, 4, radius=34)
    return s


BACK_W, BACK_H = 750, 1050
BACK_INSET = 46       # the back's art is the picture inside this: its frame is drawn by the back's layout


def back() -> ak.Sketch:
    s = ak.Sketch(BACK_W, BACK_H, BACK)
    cx = BACK_W / 2
    gold, dim = GOLD, ak.mix(GOLD, BACK, 0.55)
    band_top = 380
    s.rect((42, band_top, BACK_W - 42, BACK_H - band_top), BACK_LIGHT)
    s.line([(42, band_top), (BACK_W - 42, band_top)], gold, 5, round_caps=False)
    base = band_top - 24
    tiers = ak.stepped_pyramid(cx, base, 520, 190, 8, 200)
    for x0, y0, x1, y1 in tiers:
        s.rect((x0, y0, x1, y1), BACK, gold, 4)
    top = tiers[-1][1]
    s.polygon([(cx - 40, base), (cx + 40, base), (cx + 24, top), (cx - 24, top)], BACK, gold, 4)
    s.rect((cx - 92, top - 56, cx + 92, top), BACK, gold, 4)
    s.polygon([(cx - 104, top - 54), (cx - 80, top - 80), (cx + 80, top - 80), (cx + 104, top - 54)],
              dim, gold, 4)
    for i in range(5):
        dx = (i - 2) * 33
        s.rect((cx + dx - 9, top - 42, cx + dx + 9, top - 4), gold)
    for x, sign in ((62, 1), (BACK_W - 62, -1)):
        pts = [(x, 62)]
        for k in range(4):
            pts += [(x + sign * (70 - 17 * k), 62 + 17 * k), (x + sign * (70 - 17 * k), 62 + 17 * (k + 1))]
        pts.append((x, 62 + 68))
        s.polygon(pts if sign > 0 else pts[::-1], dim)
    return s


def treasure() -> ak.Sketch:
    """A heap of jade beads and gold: the board's bank spaces."""
    s = ak.Sketch(300, 200)
    for i, (x, y) in enumerate(((90, 150), (150, 150), (210, 150), (120, 110), (180, 110), (150, 70))):
        s.circle(x, y, 30, GOLD if i % 2 == 0 else JADE_LIGHT, INK, 5)
        s.circle(x, y, 11, GOLD_LIGHT if i % 2 == 0 else JADE_DARK)
    return s


def summon() -> ak.Sketch:
    """A single treasure piece with rays: the point the summoner pays."""
    s = ak.Sketch(300, 300)
    for poly in ak.rays(150, 150, 78, 138, 12, 9):
        s.polygon(poly, OCHRE_LIGHT)
    s.circle(150, 150, 70, GOLD, INK, 6)
    s.circle(150, 150, 44, GOLD_LIGHT, INK, 4)
    s.circle(150, 150, 14, OCHRE_DARK)
    return s


def pictures() -> dict[str, Callable[[], ak.Sketch]]:
    out: dict[str, Callable[[], ak.Sketch]] = {
        f"level-{n}.png": (lambda n=n: level_picture(n)) for n in range(1, LEVELS + 1)}
    out["jewel.png"] = jewel_picture
    return out


def build() -> dict[str, bytes]:
    """Every art file's name and PNG bytes."""
    files = {name: ak.palette_png(draw(), COLORS, matte=PANEL)
             for name, draw in pictures().items()}
    files["back.png"] = ak.palette_png(ak.half_turn_symmetric(ak.within(back().image(), BACK_INSET)), 24, matte=BACK)
    files["treasure.png"] = ak.palette_png(treasure(), 24, matte="#f1dfa6")
    files["summon.png"] = ak.palette_png(summon(), 24, matte="#e9c9a0")
    return dict(sorted(files.items()))


def main(argv: list[str] | None = None) -> int:
    return run_script(build, __file__, argv)


if __name__ == "__main__":
    raise SystemExit(main())
