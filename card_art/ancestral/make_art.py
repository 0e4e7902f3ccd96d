"""Draw Ancestral's card art, the leaf card back, the offering token and the hut mat picture.

``python card_art/ancestral/make_art.py [OUTDIR]``: see :mod:`kitgen.outputs.art_script`.
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

# --- palette -------------------------------------------------------------------
CREAM = "#fbf6e9"
SKY = "#dbe7e4"
SAND = "#e4cf9f"
SAND_DARK = "#c8ab72"
DUST = "#d8b27a"
OCHRE = "#c98b3a"
RUST = "#b8692a"
RUST_DARK = "#86461a"
SUN = "#e9b949"
SUN_LIGHT = "#f4d98a"
LEAF = "#55803c"
LEAF_LIGHT = "#86ad5e"
LEAF_DARK = "#2f4f34"
THATCH = "#c9a45c"
THATCH_DARK = "#9c7a3a"
MUD = "#a7774c"
MUD_LIGHT = "#c49a6c"
CANE = "#dcc18a"
WATER = "#3a6f8f"
WATER_LIGHT = "#7fb3c8"
WATER_PALE = "#b9d6df"
BREEZE = "#3f8a68"
BREEZE_LIGHT = "#8cc3a6"
PLUM = "#7a3b69"
PLUM_LIGHT = "#a76a95"
STONE = "#8c7b6b"
STONE_LIGHT = "#b0a190"
SNOW = "#f7f4ec"
GREY = "#5d5346"
BACK_GREEN = "#2f4f34"
BACK_GREEN_LIGHT = "#3d6243"
BACK_GOLD = "#d9b45a"

W, H = 800, 600          # card art: 4:3, about 55 x 41 mm at 300+ dpi
CX, CY = W / 2, H / 2
STROKE = 6               # the ink outline used by every glyph
COLORS = 48              # palette size of each file
BACK_W, BACK_H = 750, 1050
BACK_INSET = 46       # the back's art is the picture inside this: its frame is drawn by the back's layout
TOKEN = 400
MAT_W, MAT_H = 688, 512   # the hut mat, 172 x 128 mm at 4 px per mm
MAT_GROUND = "#efe4c8"


# --- shared pieces -------------------------------------------------------------

def panel(accent: str) -> ak.Sketch:
    """The soft rounded panel every card picture sits on, with a thin band of the type colour."""
    s = ak.Sketch(W, H)
    s.rect((2, 2, W - 2, H - 2), PANEL, PANEL_EDGE, 4, radius=34)
    s.rect((40, H - 30, W - 40, H - 18), ak.mix(accent, PANEL, 0.3), radius=6)
    return s


def scene(s: ak.Sketch, sky: str = SKY, ground: str = SAND, horizon: float = 440) -> None:
    """Sky and ground clipped to the inside of the panel."""
    layer, clip = s.layer(), s.layer()
    clip.rect((8, 8, W - 8, H - 40), "#000000", radius=30)
    layer.rect((0, 0, W, horizon), sky)
    layer.rect((0, horizon, W, H), ground)
    layer.rect((0, horizon, W, horizon + 10), SAND_DARK)
    s.paste(layer, clip)


def inked(s: ak.Sketch, points, fill, width: float = STROKE) -> None:
    s.polygon(points, fill, INK, width)


def spiral(cx: float, cy: float, r0: float, r1: float, start: float, end: float,
           steps: int = 40) -> list[ak.Point]:
    """Points on a spiral from radius r0 at angle ``start`` to r1 at ``end`` (0 = up, clockwise)."""
    out = []
    for k in range(steps + 1):
        t = k / steps
        a = math.radians(start + (end - start) * t)
        r = r0 + (r1 - r0) * t
        out.append((cx + r * math.sin(a), cy - r * math.cos(a)))
    return out


def gust(s: ak.Sketch, x: float, y: float, length: float, curl: float, color: str,
         width: float = 14, outline: bool = True) -> None:
    """A wind stroke: a straight run to the right ending in an upward curl of radius ``curl``."""
    end = (x + length, y)
    pts = [(x, y), end] + spiral(end[0], y - curl, curl, curl * 0.35, 180, -110)[1:]
    if outline:
        s.line(pts, INK, width + 8)
    s.line(pts, color, width)


def leaf_shape(cx: float, cy: float, length: float, width: float, angle: float) -> list[ak.Point]:
    return ak.rotate(ak.lens(cx, cy, length, width, bulge=1.25), angle, (cx, cy))


def leaf(s: ak.Sketch, cx: float, cy: float, length: float, width: float, angle: float,
         fill: str = LEAF, vein: str = LEAF_DARK, line: float = 4) -> None:
    """A pointed leaf with its midrib, turned ``angle`` degrees clockwise from upright."""
    s.polygon(leaf_shape(cx, cy, length, width, angle), fill, INK, line)
    rib = ak.rotate([(cx, cy - length * 0.42), (cx, cy + length * 0.42)], angle, (cx, cy))
    s.line(rib, vein, max(2, line * 0.7))


def poplar(s: ak.Sketch, x: float, base: float, height: float, width: float, lean: float = 0.0,
           fill: str = LEAF) -> None:
    """A tall poplar (the windbreak tree of the dry valleys): a trunk and a narrow crown."""
    def along(t: float) -> ak.Point:
        return (x + lean * t, base - height * t)

    s.line([along(0.0), along(0.3)], RUST_DARK, 12)
    tilt = math.degrees(math.atan2(lean, height))
    crown = ak.translate(ak.rotate(ak.lens(0, 0, height * 0.8, width, bulge=1.4), tilt), *along(0.58))
    s.polygon(crown, fill, INK, 5)
    s.line([along(0.3), along(0.9)], ak.mix(fill, INK, 0.35), 3)


def hut(s: ak.Sketch, cx: float, base: float, width: float, leaves: int = 0) -> None:
    """A quincha hut: mud walls on cane posts under a thatched roof; ``leaves`` fallen on the roof."""
    wall_h = width * 0.42
    x0, x1 = cx - width / 2, cx + width / 2
    s.rect((x0, base - wall_h, x1, base), MUD_LIGHT, INK, STROKE)
    for k in range(1, 4):
        y = base - wall_h * k / 4
        s.line([(x0 + 10, y), (x1 - 10, y)], ak.mix(MUD, MUD_LIGHT, 0.3), 3, round_caps=False)
    door = (cx - width * 0.11, base - wall_h * 0.72, cx + width * 0.11, base - STROKE / 2)
    s.rect(door, ak.mix(INK, MUD, 0.35), INK, 4, radius=width * 0.05)
    for dx in (-0.32, 0.32):
        s.rect((cx + width * dx - 18, base - wall_h * 0.7, cx + width * dx + 18, base - wall_h * 0.42),
               ak.mix(INK, MUD, 0.5), INK, 3)
    eave = width * 0.14
    peak = base - wall_h - width * 0.42
    roof = [(x0 - eave, base - wall_h + 8), (cx, peak), (x1 + eave, base - wall_h + 8)]
    inked(s, roof, THATCH)
    for k in range(1, 6):  # rows of thatch
        t = k / 6
        y = peak + (base - wall_h + 8 - peak) * t
        half = (width / 2 + eave) * t
        s.line([(cx - half + 6, y), (cx + half - 6, y)], THATCH_DARK, 3, round_caps=False)
    spots = [(-0.22, 0.62, -30), (0.2, 0.55, 25), (0.0, 0.32, -8), (-0.36, 0.86, -50), (0.38, 0.84, 48)]
    for i, (fx, fy, angle) in enumerate(spots[:leaves]):
        ly = peak + (base - wall_h + 8 - peak) * fy
        leaf(s, cx + width * fx, ly, width * 0.2, width * 0.09, angle + 90, LEAF, LEAF_DARK, 3)


# --- the reference card ---------------------------------------------------------

def reference() -> ak.Sketch:
    s = panel(GREY)
    scene(s)
    for x in (110, 690):
        poplar(s, x, 446, 300, 70)
    hut(s, CX, 450, 300, leaves=2)
    gust(s, 40, 140, 120, 34, DUST, 12)
    return s


# --- the Zonda winds ------------------------------------------------------------

def strong_wind() -> ak.Sketch:
    s = panel(RUST)
    scene(s, sky=ak.mix(SKY, DUST, 0.25))
    poplar(s, 560, 446, 320, 80, lean=110)
    poplar(s, 690, 446, 260, 64, lean=95)
    for i, (y, length, curl) in enumerate(((130, 330, 46), (230, 420, 58), (330, 300, 40))):
        gust(s, 40, y, length, curl, RUST if i % 2 == 0 else OCHRE, 18)
    for x, y, a in ((520, 120, 40), (620, 200, 70), (700, 110, 20)):
        leaf(s, x, y, 60, 26, a, LEAF_LIGHT, LEAF_DARK, 3)
    return s


def hot_wind() -> ak.Sketch:
    s = panel(RUST)
    scene(s, sky=ak.mix(SKY, SUN_LIGHT, 0.45))
    for poly in ak.rays(600, 150, 78, 132, 12, 12):
        inked(s, poly, SUN, 4)
    s.circle(600, 150, 78, SUN, INK, STROKE)
    s.circle(600, 150, 50, SUN_LIGHT)
    for i, (y, length, curl) in enumerate(((210, 380, 50), (310, 300, 44), (390, 430, 34))):
        gust(s, 40, y, length, curl, RUST if i != 1 else "#d0552a", 16)
    for x in (130, 250, 370):   # heat shimmer over the ground
        s.line([(x, 430), (x + 14, 412), (x - 4, 396), (x + 10, 378)], ak.mix(RUST, SKY, 0.35), 5)
    return s


def dry_wind() -> ak.Sketch:
    s = panel(RUST)
    scene(s, sky=ak.mix(SKY, DUST, 0.5), ground=DUST, horizon=430)
    for x, y, r in ((600, 190, 70), (680, 240, 56), (530, 250, 52), (700, 160, 40)):
        s.circle(x, y, r, ak.mix(DUST, PANEL, 0.3), ak.mix(OCHRE, PANEL, 0.3), 4)
    for i, (y, length, curl) in enumerate(((140, 360, 44), (250, 400, 52), (350, 320, 36))):
        gust(s, 40, y, length, curl, OCHRE if i % 2 == 0 else RUST, 16)
    cracks = [[(120, 450), (170, 480), (150, 520), (200, 545)], [(170, 480), (240, 470)],
              [(420, 448), (460, 490), (520, 500)], [(460, 490), (440, 540)],
              [(620, 455), (600, 500), (660, 530)]]
    for c in cracks:
        s.line(c, RUST_DARK, 5)
    for x, y, a in ((520, 380, 110), (640, 350, 150)):
        leaf(s, x, y, 56, 24, a, SAND_DARK, RUST_DARK, 3)
    return s


# --- the protections ------------------------------------------------------------

def quincha_defense() -> ak.Sketch:
    s = panel(WATER)
    scene(s)
    x0, x1, y0, y1 = 150, 650, 140, 450
    for x in (x0, x1):       # posts
        s.rect((x - 20, y0 - 40, x + 20, y1 + 10), RUST_DARK, INK, STROKE)
    for k in range(9):       # vertical canes
        x = x0 + 40 + k * (x1 - x0 - 80) / 8
        s.rect((x - 12, y0, x + 12, y1), CANE, INK, 3)
    for k in range(5):       # woven horizontal canes
        y = y0 + 30 + k * (y1 - y0 - 60) / 4
        s.rect((x0 + 20, y - 10, x1 - 20, y + 10), ak.mix(CANE, THATCH_DARK, 0.3), INK, 3)
    plaster = [(x0 + 20, y0 + 120), (x0 + 120, y0 + 90), (x0 + 260, y0 + 130), (x1 - 20, y0 + 100),
               (x1 - 20, y1), (x0 + 20, y1)]
    inked(s, plaster, MUD_LIGHT, 5)
    for x, y in ((240, 330), (330, 390), (470, 300), (560, 380)):
        s.ellipse((x - 36, y - 12, x + 36, y + 12), ak.mix(MUD, MUD_LIGHT, 0.4))
    gust(s, 20, 90, 90, 26, ak.mix(DUST, PANEL, 0.2), 10)
    return s


def tree_curtain() -> ak.Sketch:
    s = panel(WATER)
    scene(s)
    for i, x in enumerate((230, 330, 430, 530, 630)):
        poplar(s, x, 448, 330 - (i % 2) * 30, 92, fill=LEAF if i % 2 == 0 else LEAF_LIGHT)
    for y in (200, 300):      # the wind breaks on the trees
        s.line([(30, y), (150, y)], INK, 22)
        s.line([(30, y), (150, y)], DUST, 14)
        for dy in (-22, 0, 22):
            s.line([(160, y + dy * 0.4), (178, y + dy)], ak.mix(DUST, INK, 0.3), 6)
    return s


def water_shield() -> ak.Sketch:
    s = panel(WATER)
    scene(s)
    shield = [(CX - 190, 110), (CX + 190, 110), (CX + 190, 290), (CX, 470), (CX - 190, 290)]
    layer, clip = s.layer(), s.layer()
    clip.polygon(shield, "#000000")
    layer.rect((0, 0, W, H), WATER_PALE)
    for k in range(8):
        y = 130 + k * 44
        pts = [(CX - 220 + j * 20, y + 12 * math.sin(j * 0.9 + k)) for j in range(23)]
        layer.line(pts, WATER if k % 2 == 0 else WATER_LIGHT, 14)
    s.paste(layer, clip)
    s.polygon(shield, None, INK, STROKE)
    for x, y in ((CX - 260, 200), (CX + 260, 230), (CX - 240, 360), (CX + 240, 380)):
        drop = [(x, y - 40)] + ak.arc_points(x, y, 24, 24, 60, 300, 20)
        inked(s, drop, WATER_LIGHT, 4)
    return s


# --- the breeze and the special defense ----------------------------------------

def south_breeze() -> ak.Sketch:
    s = panel(BREEZE)
    scene(s, sky=ak.mix(SKY, BREEZE_LIGHT, 0.2))
    hut(s, 210, 450, 230)
    for y, length, curl in ((170, 300, 30), (250, 380, 36), (330, 260, 26)):
        gust(s, 330, y, length, curl, BREEZE_LIGHT, 10)
    for x, y, a in ((480, 210, 60), (600, 170, 110), (690, 290, 80), (560, 300, 140)):
        leaf(s, x, y, 58, 26, a, LEAF_LIGHT, LEAF_DARK, 3)
    return s


def hunuc_huar() -> ak.Sketch:
    s = panel(PLUM)
    scene(s, sky=ak.mix(SKY, PLUM_LIGHT, 0.25))
    for poly in ak.rays(CX, 170, 92, 150, 16, 10):
        inked(s, poly, SUN, 3)
    s.circle(CX, 170, 92, PLUM, INK, STROKE)
    for seg in ak.ring_segments(CX, 170, 56, 80, 8, 10):
        s.polygon(seg, PLUM_LIGHT)
    s.circle(CX, 170, 44, SUN_LIGHT, INK, 4)
    for dx in (-16, 16):
        s.circle(CX + dx, 164, 7, INK)
    s.line([(CX - 14, 186), (CX + 14, 186)], INK, 4)
    peaks = [(40, 450), (200, 270), (290, 350), (CX, 240), (510, 350), (600, 270), (760, 450)]
    inked(s, peaks, STONE)
    for px, py in ((200, 270), (CX, 240), (600, 270)):
        cap = [(px - 46, py + 50), (px, py), (px + 46, py + 50), (px + 16, py + 40), (px, py + 56),
               (px - 16, py + 40)]
        s.polygon(cap, SNOW, INK, 3)
    for x in (140, 660):
        s.line([(x - 60, 410), (x + 60, 410)], STONE_LIGHT, 6)
    # the winds turned back
    for side in (-1, 1):
        x = CX + side * 300
        s.line([(x, 120), (x - side * 40, 160), (x, 200)], RUST, 10)
    return s


# --- the back, the token and the mat ------------------------------------------------

def back() -> ak.Sketch:
    """The common back: a large leaf above the title band, so face-down cards read as leaves."""
    s = ak.Sketch(BACK_W, BACK_H, BACK_GREEN)
    gold, dim = BACK_GOLD, ak.mix(BACK_GOLD, BACK_GREEN, 0.55)
    faint = ak.mix(BACK_GOLD, BACK_GREEN, 0.82)
    cx = BACK_W / 2
    band_top = 420
    # thatch: slanting strokes behind the leaf
    pattern, clip = s.layer(), s.layer()
    clip.rect((46, 46, BACK_W - 46, band_top - 6), "#000000", radius=18)
    for x in range(-300, BACK_W + 300, 34):
        pattern.line([(x, band_top), (x + 240, 46)], faint, 5)
    s.paste(pattern, clip)
    s.rect((42, band_top, BACK_W - 42, BACK_H - band_top), BACK_GREEN_LIGHT)
    s.line([(42, band_top), (BACK_W - 42, band_top)], gold, 5, round_caps=False)
    # the leaf, its tip up and to the right
    centre = (cx, 236)
    body = leaf_shape(centre[0], centre[1], 400, 190, 35)
    s.polygon(body, ak.mix(BACK_GREEN_LIGHT, gold, 0.15), gold, 7)
    rib = ak.rotate([(cx, centre[1] + 230), (cx, centre[1] - 180)], 35, centre)
    s.line(rib, gold, 7)
    for k in range(-3, 4):
        y = centre[1] + k * 46
        for side in (-1, 1):
            vein = [(cx, y), (cx + side * 62, y - 44 + abs(k) * 9)]
            s.line(ak.rotate(vein, 35, centre), dim, 5)
    return s


def back_image():
    return ak.half_turn_symmetric(ak.within(back().image(), BACK_INSET))


def offering_token() -> ak.Sketch:
    """A clay offering bowl holding leaves and a maize cob."""
    s = ak.Sketch(TOKEN, TOKEN)
    c = TOKEN / 2
    s.circle(c, c, 176, CREAM, INK, 6)
    for i, seg in enumerate(ak.ring_segments(c, c, 140, 168, 16, 5)):
        s.polygon(seg, OCHRE if i % 2 == 0 else SAND, INK, 2)
    for x, a in ((c - 50, -35), (c + 50, 35), (c, 0)):
        leaf(s, x, 170, 120, 52, a, LEAF if a else LEAF_LIGHT, LEAF_DARK, 4)
    bowl = ak.arc_points(c, 214, 116, 104, 90, 270, 30)
    inked(s, bowl, RUST, 6)
    s.rect((c - 124, 204, c + 124, 226), RUST_DARK, INK, 5, radius=10)
    for k in range(5):
        x = c - 72 + k * 36
        s.polygon([(x - 12, 250), (x + 12, 250), (x, 274)], SUN, INK, 2)
    s.rect((c - 46, 312, c + 46, 328), RUST_DARK, INK, 4, radius=6)
    return s


def hut_mat() -> ak.Sketch:
    """The backdrop of a player's hut mat (172 x 128 mm): faint thatch, under the roof and the defenses."""
    s = ak.Sketch(MAT_W, MAT_H, MAT_GROUND)
    faint = ak.mix(MAT_GROUND, THATCH_DARK, 0.16)
    for x in range(-MAT_H, MAT_W, 22):
        s.line([(x, MAT_H), (x + MAT_H * 0.6, 0)], faint, 4)
    return s


# --- the whole set ------------------------------------------------------------------

def card_pictures() -> dict[str, Callable[[], ak.Sketch]]:
    return {
        "reference.png": reference,
        "strong-wind.png": strong_wind, "hot-wind.png": hot_wind, "dry-wind.png": dry_wind,
        "quincha-defense.png": quincha_defense, "tree-curtain.png": tree_curtain,
        "water-shield.png": water_shield,
        "south-breeze.png": south_breeze, "hunuc-huar.png": hunuc_huar,
    }


def build() -> dict[str, bytes]:
    """Every art file's name and PNG bytes."""
    files = {name: ak.palette_png(draw(), COLORS, matte=PANEL)
             for name, draw in card_pictures().items()}
    files["back.png"] = ak.palette_png(back_image(), COLORS, matte=BACK_GREEN)
    files["offering-token.png"] = ak.palette_png(offering_token(), COLORS, matte=CREAM)
    files["hut-mat.png"] = ak.palette_png(hut_mat(), 24, matte=MAT_GROUND)
    return dict(sorted(files.items()))


def main(argv: list[str] | None = None) -> int:
    return run_script(build, __file__, argv)


if __name__ == "__main__":
    raise SystemExit(main())
