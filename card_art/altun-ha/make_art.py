"""Draw Altun Ha's card art, card back and token art.

``python card_art/altun-ha/make_art.py [OUTDIR]``: see :mod:`kitgen.outputs.art_script`.
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
LIME = "#dcc9a0"
LIME_LIGHT = "#ebdcba"
LIME_DARK = "#b7a078"
LIME_SHADOW = "#8f7b58"
JADE = "#2a7f62"
JADE_LIGHT = "#5fae8a"
JADE_DARK = "#1c5843"
TERRA = "#a0522d"
TERRA_LIGHT = "#c9754b"
TERRA_DARK = "#74391d"
MAIZE = "#d9b45a"
MAIZE_LIGHT = "#eed394"
MAIZE_DARK = "#a9822c"
OBSIDIAN = "#1f1c1a"
OBSIDIAN_LIGHT = "#4b4640"
PURPLE = "#5b3a8c"
NIGHT = "#3a2d52"
NIGHT_LIGHT = "#55457a"
CREAM = "#fbf6e9"
RAIN = "#7fb3c0"
RAIN_DARK = "#3f7f8f"
BACK_GREEN = "#2d3a2e"
BACK_GREEN_LIGHT = "#3b4b3c"
BACK_GOLD = "#d9b45a"
SKY = "#e8dcbd"
GROUND = "#d6c39b"

W, H = 800, 600          # card art: 4:3, about 55 x 41 mm at 300+ dpi
CX, CY = W / 2, H / 2
STROKE = 6               # the ink outline used by every glyph
COLORS = 48              # palette size of each file

BID_STAGES = {1: "plaza", 2: "base", 3: "stage", 4: "stairs", 5: "facade", 6: "steps",
              7: "platform", 8: "altar"}


# --- shared pieces -------------------------------------------------------------

def panel(accent: str, bands: bool = True) -> ak.Sketch:
    """The soft rounded panel every card picture sits on, with a stepped border in the type colour."""
    s = ak.Sketch(W, H)
    s.rect((2, 2, W - 2, H - 2), PANEL, PANEL_EDGE, 4, radius=34)
    if not bands:
        return s
    s.polygon(ak.step_band(40, W - 40, H - 16, 9, 2, up=True) + [(W - 40, H - 14), (40, H - 14)],
              ak.mix(accent, PANEL, 0.25))
    s.polygon(ak.step_band(40, W - 40, 16, 9, 2, up=False) + [(W - 40, 14), (40, 14)],
              ak.mix(accent, PANEL, 0.25))
    return s


def medallion(s: ak.Sketch, fill: str, ring: str, r: float = 238) -> None:
    s.circle(CX, CY, r + 10, ak.mix(ring, PANEL, 0.55))
    s.circle(CX, CY, r, fill, ring, 8)


def inked(s: ak.Sketch, points, fill, width: float = STROKE) -> None:
    s.polygon(points, fill, INK, width)


def inked_circle(s: ak.Sketch, cx, cy, r, fill, width: float = STROKE) -> None:
    s.circle(cx, cy, r, fill, INK, width)


def ground_shadow(s: ak.Sketch, cx: float, y: float, rx: float, ry: float = 18) -> None:
    s.ellipse((cx - rx, y - ry, cx + rx, y + ry), ak.mix(LIME_DARK, PANEL, 0.35))


# --- bid cards: the pyramid with one stage marked ---------------------------------

def pyramid_picture(stage: int) -> ak.Sketch:
    s = panel(TERRA, bands=False)
    # sky, sun, jungle and ground, clipped to the panel's inside
    scene, clip = s.layer(), s.layer()
    clip.rect((8, 8, W - 8, H - 8), "#000000", radius=30)
    scene.rect((0, 0, W, 470), SKY)
    scene.circle(650, 110, 52, ak.mix(MAIZE_LIGHT, SKY, 0.2))
    for x, y, r in ((70, 420, 62), (150, 444, 48), (20, 450, 50), (730, 420, 62), (650, 444, 48),
                    (780, 450, 50)):
        scene.circle(x, y, r, ak.mix(JADE, SKY, 0.4))
    scene.rect((0, 462, W, H), GROUND)
    scene.rect((0, 462, W, 474), LIME_DARK)
    for x in range(-40, W + 40, 90):
        scene.line([(x + 45, 474), (x + 45 + (x + 45 - CX) * 0.5, H)], ak.mix(LIME_DARK, GROUND, 0.5), 3,
                   round_caps=False)
    s.paste(scene, clip)
    band = ak.step_band(40, W - 40, H - 16, 9, 2, up=True) + [(W - 40, H - 14), (40, H - 14)]
    s.polygon(band, ak.mix(TERRA, PANEL, 0.25))
    s.rect((2, 2, W - 2, H - 2), None, PANEL_EDGE, 4, radius=34)

    tiers = ak.stepped_pyramid(CX, 468, 560, 190, 8, 384)
    stair_w = 96
    for number, (x0, y0, x1, y1) in enumerate(tiers, start=1):
        if number < stage:
            face, lip, shade, step, line = LIME, LIME_LIGHT, LIME_DARK, LIME_LIGHT, INK
        elif number == stage:
            face, lip, shade, step, line = TERRA, TERRA_LIGHT, TERRA_DARK, MAIZE, INK
        else:
            face, lip, shade, step, line = ("#ede3cc", "#f3ebd8", "#e1d3b4", "#f3ebd8",
                                            ak.mix(LIME_DARK, PANEL, 0.4))
        width = STROKE if number <= stage else 3
        s.rect((x0, y0, x1, y1), face, line, width)
        h = y1 - y0
        s.rect((x0 + width / 2, y0 + width / 2, x1 - width / 2, y0 + h * 0.22), lip)
        s.rect((x0 + width / 2, y1 - h * 0.18, x1 - width / 2, y1 - width / 2), shade)
        if number < 8:
            # the central stairway climbs every tier but the shrine
            sx0, sx1 = CX - stair_w / 2, CX + stair_w / 2
            s.rect((sx0, y0, sx1, y1), step, line, width)
            for k in (1, 2):
                yy = y0 + h * k / 3
                tread = LIME_SHADOW if number < stage else TERRA_DARK if number == stage else line
                s.line([(sx0 + 6, yy), (sx1 - 6, yy)], tread, 3, round_caps=False)
        else:
            # the shrine on top: a doorway and a roof comb
            door = (CX - 22, y0 + h * 0.3, CX + 22, y1 - width / 2)
            s.rect(door, OBSIDIAN if number <= stage else "#e1d3b4")
            comb_color = face if number <= stage else "#ede3cc"
            comb = [(x0 + 34, y0), (x0 + 50, y0 - 34), (x1 - 50, y0 - 34), (x1 - 34, y0)]
            s.polygon(comb, comb_color, line, width)
            for dx in (-40, 0, 40):
                s.rect((CX + dx - 8, y0 - 26, CX + dx + 8, y0 - 10),
                       shade if number <= stage else "#e1d3b4")
    # the marked stage: a pointer on each side of its tier
    x0, y0, x1, y1 = tiers[stage - 1]
    ym = (y0 + y1) / 2
    for side in (-1, 1):
        tip = x0 - 12 if side < 0 else x1 + 12
        pts = [(tip, ym), (tip + side * 34, ym - 20), (tip + side * 34, ym + 20)]
        inked(s, pts, MAIZE, 5)
    # the stage number as a bar-and-dot numeral in a cartouche, top left
    box = (34, 40, 204, 210)
    s.rect(box, CREAM, INK, STROKE, radius=28)
    s.rect((box[0] + 12, box[1] + 12, box[2] - 12, box[3] - 12), None, TERRA, 3, radius=18)
    s.tally(stage, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, 30, TERRA, INK, 4)
    return s


# --- trade goods -----------------------------------------------------------------

def trade_base() -> ak.Sketch:
    s = panel(JADE)
    medallion(s, "#e8d9b6", JADE)
    return s


def stone() -> ak.Sketch:
    s = trade_base()
    ground_shadow(s, CX, 452, 200)
    noise = ak.Noise("stone")

    def block(x, y, w, h, d):
        top = [(x, y), (x + d, y - d * 0.6), (x + w + d, y - d * 0.6), (x + w, y)]
        side = [(x + w, y), (x + w + d, y - d * 0.6), (x + w + d, y + h - d * 0.6), (x + w, y + h)]
        inked(s, side, LIME_DARK)
        inked(s, top, LIME_LIGHT)
        inked(s, [(x, y), (x + w, y), (x + w, y + h), (x, y + h)], LIME)
        for _ in range(5):
            px, py = noise.uniform(x + 18, x + w - 30), noise.uniform(y + 16, y + h - 20)
            s.line([(px, py), (px + noise.uniform(10, 22), py + noise.uniform(-6, 6))], LIME_SHADOW, 4)

    block(232, 330, 170, 110, 40)
    block(412, 330, 170, 110, 40)
    block(322, 206, 170, 110, 40)
    return s


def salt() -> ak.Sketch:
    s = trade_base()
    ground_shadow(s, CX, 446, 190)
    # the mound of salt
    mound = ak.arc_points(CX, 370, 190, 200, -90, 90, 40)
    bumps = []
    for i, (x, y) in enumerate(mound):
        bumps.append((x, y + (6 if i % 4 == 2 else 0)))
    inked(s, bumps, CREAM)
    noise = ak.Noise("salt")
    for _ in range(9):
        x, y = noise.uniform(CX - 110, CX + 110), noise.uniform(240, 350)
        r = noise.uniform(12, 20)
        s.polygon(ak.regular_polygon(x, y, r, 4), "#dfe6e4", "#8aa3a6", 3)
    # the dish it sits in
    dish = ak.arc_points(CX, 360, 220, 90, 90, 270, 30)
    inked(s, [(CX - 230, 360), (CX + 230, 360)] + dish, TERRA)
    s.rect((CX - 236, 348, CX + 236, 374), TERRA_DARK, INK, STROKE, radius=12)
    for k in range(-3, 4):
        s.polygon(ak.regular_polygon(CX + k * 52, 402, 12, 4), MAIZE, INK, 3)
    return s


def maize_cob(s: ak.Sketch, cx: float, cy: float, length: float, width: float, angle: float,
              leaves: bool = True) -> None:
    center = (cx, cy)
    if leaves:
        for side in (-1, 1):
            leaf = ak.lens(cx + side * width * 0.42, cy + length * 0.18, length * 0.9, width * 0.7, bulge=1.3)
            leaf = ak.rotate(leaf, side * 14, (cx, cy + length * 0.5))
            inked(s, ak.rotate(leaf, angle, center), JADE_LIGHT if side < 0 else JADE)
    cob = ak.ellipse_points(cx, cy - length * 0.05, width / 2, length / 2, 60)
    inked(s, ak.rotate(cob, angle, center), MAIZE)
    rows, cols = 9, 5
    for r in range(rows):
        t = (r + 0.5) / rows
        y = cy - length * 0.05 - length / 2 + length * (0.08 + 0.84 * t)
        half = width / 2 * math.sqrt(max(0.0, 1 - ((y - (cy - length * 0.05)) / (length / 2)) ** 2))
        for c in range(cols):
            x = cx - half + half * 2 * (c + 0.5) / cols
            kw, kh = half * 2 / cols * 0.42, length / rows * 0.38
            kernel = ak.ellipse_points(x, y, kw, kh, 16)
            s.polygon(ak.rotate(kernel, angle, center), MAIZE_LIGHT, MAIZE_DARK, 2)
    if leaves:
        husk = ak.lens(cx, cy + length * 0.42, length * 0.5, width * 0.55, bulge=1.2)
        inked(s, ak.rotate(husk, angle, center), JADE)


def maize() -> ak.Sketch:
    s = trade_base()
    ground_shadow(s, CX, 470, 150)
    maize_cob(s, CX + 10, CY - 10, 330, 130, 28)
    return s


def cocoa() -> ak.Sketch:
    s = trade_base()
    ground_shadow(s, CX, 458, 190)
    center = (CX - 20, CY - 20)
    pod = ak.lens(*center, 340, 170, bulge=1.8)
    inked(s, ak.rotate(pod, -52, center), TERRA)
    for w, color in ((118, TERRA_DARK), (60, TERRA_DARK)):
        ridge = ak.lens(*center, 320, w, bulge=1.8)
        s.polygon(ak.rotate(ridge, -52, center), None, color, 4)
    stem = ak.rotate([(center[0], center[1] - 170), (center[0], center[1] - 210)], -52, center)
    s.line(stem, INK, 14)
    for x, y, a in ((CX + 90, 400, 20), (CX + 150, 380, -30), (CX + 190, 420, 60)):
        bean = ak.ellipse_points(x, y, 24, 36, 24)
        inked(s, ak.rotate(bean, a, (x, y)), "#6b3a22", 5)
        s.line(ak.rotate([(x, y - 24), (x, y + 24)], a, (x, y)), "#a86a45", 4)
    return s


def ceramics() -> ak.Sketch:
    s = trade_base()
    ground_shadow(s, CX, 452, 200)
    # a cylinder vase
    x0, x1, top, bottom = CX - 30, CX + 130, 150, 440
    body = [(x0 - 6, top), (x1 + 6, top), (x1 - 6, bottom - 14), (x1 - 20, bottom), (x0 + 20, bottom),
            (x0 + 6, bottom - 14)]
    inked(s, body, TERRA)
    s.rect((x0 - 10, top - 4, x1 + 10, top + 20), OBSIDIAN, INK, 4, radius=6)
    band = (x0 + 4, 220, x1 - 4, 320)
    s.rect(band, CREAM, INK, 4)
    for i in range(3):
        bx = band[0] + 10 + i * 48
        s.rect((bx, 232, bx + 38, 270), None, TERRA_DARK, 4, radius=8)
        s.circle(bx + 19, 251, 6, TERRA_DARK)
        s.rect((bx + 4, 280, bx + 34, 310), MAIZE, INK, 3, radius=5)
    s.rect((x0 + 10, 370, x1 - 10, 384), OBSIDIAN)
    # a tripod bowl beside it
    bx, by = CX - 130, 380
    for dx in (-56, 0, 56):
        inked(s, [(bx + dx - 12, by + 30), (bx + dx + 12, by + 30), (bx + dx + 4, by + 62),
                  (bx + dx - 4, by + 62)], TERRA_DARK, 4)
    bowl = ak.arc_points(bx, by - 10, 112, 70, 90, 270, 30)
    inked(s, [(bx - 112, by - 10)] + bowl[::-1] + [(bx + 112, by - 10)], MAIZE)
    s.ellipse((bx - 116, by - 28, bx + 116, by + 8), TERRA, INK, STROKE)
    s.ellipse((bx - 96, by - 20, bx + 96, by + 2), TERRA_DARK)
    for k in range(-2, 3):
        s.polygon(ak.regular_polygon(bx + k * 36, by + 26 - abs(k) * 4, 9, 4), TERRA_DARK)
    return s


def honey() -> ak.Sketch:
    s = trade_base()
    ground_shadow(s, CX, 456, 170)
    cells = ak.hex_grid(CX - 40, CY + 10, 62, 1, gap=6)
    for cell in cells:
        inked(s, cell, MAIZE)
        cx = sum(p[0] for p in cell) / 6
        cy = sum(p[1] for p in cell) / 6
        s.polygon(ak.regular_polygon(cx, cy, 36, 6, 30), MAIZE_DARK)
    # a drip of honey
    lowest = max(y for cell in cells for _, y in cell)
    dx = CX - 40
    drip = [(dx - 12, lowest - 8), (dx + 12, lowest - 8)] + ak.arc_points(dx, lowest + 40, 22, 24, 25, 335, 24)
    inked(s, drip, "#c8912a", 5)
    # a stingless bee
    bx, by = CX + 150, 150
    for side in (-1, 1):
        wing = ak.ellipse_points(bx + side * 20, by - 40, 24, 40, 20)
        s.polygon(ak.rotate(wing, side * 30, (bx + side * 20, by - 40)), CREAM, INK, 4)
    body = ak.ellipse_points(bx, by, 44, 30, 30)
    inked(s, ak.rotate(body, -20, (bx, by)), MAIZE)
    for dx in (-12, 10):
        stripe = [(bx + dx - 5, by - 30), (bx + dx + 5, by - 30), (bx + dx + 5, by + 30), (bx + dx - 5, by + 30)]
        s.polygon(ak.rotate(stripe, -20, (bx, by)), INK)
    inked_circle(s, bx + 48, by - 16, 16, OBSIDIAN, 4)
    return s


def feathers() -> ak.Sketch:
    s = trade_base()
    base = (CX, 470)
    colors = [JADE_DARK, JADE, JADE_LIGHT, JADE, JADE_DARK]
    for angle, color in zip((-40, -20, 0, 20, 40), colors):
        plume = ak.lens(CX, 280, 360, 78, bulge=1.6)
        inked(s, ak.rotate(plume, angle, base), color)
        eye = ak.lens(CX, 158, 96, 40, bulge=1.4)
        s.polygon(ak.rotate(eye, angle, base), MAIZE, INK, 4)
        s.line(ak.rotate([(CX, 440), (CX, 190)], angle, base), ak.mix(INK, color, 0.4), 4)
    s.rect((CX - 44, 410, CX + 44, 470), MAIZE, INK, STROKE, radius=10)
    s.rect((CX - 44, 432, CX + 44, 446), TERRA)
    return s


def textiles() -> ak.Sketch:
    s = trade_base()
    x0, x1, y0, y1 = CX - 170, CX + 170, 120, 440
    s.line([(x0 - 30, y0), (x1 + 30, y0)], TERRA_DARK, 18)
    inked(s, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)], CREAM)
    bands = [(y0 + 20, y0 + 62, "zigzag", JADE), (y0 + 84, y0 + 108, "stripe", TERRA),
             (y0 + 124, y0 + 196, "diamond", TERRA), (y0 + 212, y0 + 236, "stripe", MAIZE_DARK),
             (y0 + 252, y0 + 300, "step", JADE)]
    for top, bottom, kind, color in bands:
        if kind == "stripe":
            s.rect((x0 + 3, top, x1 - 3, bottom), color)
        elif kind == "zigzag":
            pts = []
            n = 8
            for i in range(n * 2 + 1):
                pts.append((x0 + 3 + (x1 - x0 - 6) * i / (n * 2), bottom if i % 2 else top))
            s.line(pts, color, 12)
        elif kind == "diamond":
            cy = (top + bottom) / 2
            for i in range(5):
                cx = x0 + 34 + i * 68
                s.polygon(ak.regular_polygon(cx, cy, 34, 4), color, INK, 3)
                s.polygon(ak.regular_polygon(cx, cy, 12, 4), MAIZE)
        elif kind == "step":
            s.polygon(ak.step_band(x0 + 3, x1 - 3, bottom, 12, 2), color)
    for i in range(15):
        x = x0 + 12 + i * (x1 - x0 - 24) / 14
        s.line([(x, y1), (x, y1 + 28)], TERRA_DARK, 6)
    return s


def pyrite() -> ak.Sketch:
    s = trade_base()
    ground_shadow(s, CX, 452, 180)
    for x, y, size in ((CX - 80, 330, 110), (CX + 90, 350, 90), (CX + 10, 250, 120)):
        faces = ak.iso_cube(x, y, size)
        inked(s, faces["left"], MAIZE)
        inked(s, faces["right"], MAIZE_DARK)
        inked(s, faces["top"], MAIZE_LIGHT)
        for k in (1, 2):
            a = ak.lerp(faces["left"][1], faces["left"][0], k / 3)
            b = ak.lerp(faces["left"][2], faces["left"][3], k / 3)
            s.line([a, b], MAIZE_DARK, 3, round_caps=False)
    s.polygon(ak.star(CX + 150, 170, 34, 9, 4), CREAM, INK, 3)
    s.polygon(ak.star(CX - 150, 200, 22, 6, 4), CREAM, INK, 3)
    return s


def obsidian() -> ak.Sketch:
    s = trade_base()
    center = (CX, CY)
    blade = ak.lens(CX, CY - 10, 400, 150, bulge=1.25)
    inked(s, ak.rotate(blade, 30, center), OBSIDIAN)
    scars, clip = s.layer(), s.layer()
    clip.polygon(ak.rotate(ak.lens(CX, CY - 10, 392, 140, bulge=1.25), 30, center), "#000000")
    # knapping scars: shallow flakes struck from both edges, meeting at a central ridge
    for i, y in enumerate(range(150, 440, 44)):
        for side in (-1, 1):
            x = CX + side * 44
            flake = ak.ellipse_points(x, y + side * 12, 52, 20, 24)
            shade = OBSIDIAN_LIGHT if (i + (side > 0)) % 2 else "#38342f"
            scars.polygon(ak.rotate(ak.rotate(flake, side * -24, (x, y)), 30, center), shade, "#151311", 3)
    scars.line(ak.rotate([(CX, 110), (CX, 440)], 30, center), "#6d675e", 4)
    scars.line(ak.rotate([(CX - 36, 150), (CX - 56, 280)], 30, center), "#9a948a", 5)
    s.paste(scars, clip)
    # the haft binding
    s.polygon(ak.rotate([(CX - 60, 420), (CX + 60, 420), (CX + 54, 470), (CX - 54, 470)], 30, center),
              TERRA, INK, STROKE)
    for y in (432, 448, 462):
        s.line(ak.rotate([(CX - 58, y), (CX + 58, y)], 30, center), TERRA_DARK, 4)
    return s


def jade() -> ak.Sketch:
    s = trade_base()
    s.arc(ak.circle_box(CX, 300, 168), -126, 126, INK, 5)
    for i, (x, y) in enumerate(ak.arc_points(CX, 300, 168, 168, -120, 120, 14)):
        inked_circle(s, x, y, 17 if i % 2 else 21, JADE_LIGHT if i % 2 else JADE, 4)
    # the pendant: a carved jade plaque with a face
    px, py = CX, 330
    s.rect((px - 92, py - 86, px + 92, py + 100), JADE, INK, STROKE, radius=40)
    s.rect((px - 74, py - 68, px + 74, py + 82), None, JADE_DARK, 4, radius=30)
    for dx in (-36, 36):
        s.ellipse((px + dx - 20, py - 24, px + dx + 20, py - 4), JADE_DARK)
    s.rect((px - 10, py - 6, px + 10, py + 30), JADE_LIGHT, JADE_DARK, 3, radius=6)
    s.rect((px - 34, py + 44, px + 34, py + 58), JADE_DARK, radius=6)
    return s


def codex() -> ak.Sketch:
    s = trade_base()
    ground_shadow(s, CX, 444, 210)
    n, pw, ph, skew = 4, 108, 250, 26
    x = CX - n * pw / 2
    y0 = 170
    for i in range(n):
        dy = skew if i % 2 else 0
        page = [(x + i * pw, y0 + (skew - dy)), (x + (i + 1) * pw, y0 + dy),
                (x + (i + 1) * pw, y0 + dy + ph), (x + i * pw, y0 + (skew - dy) + ph)]
        inked(s, page, CREAM if i % 2 == 0 else "#efe3c6")
        cx = x + i * pw + pw / 2
        cy = y0 + skew / 2
        s.line([(cx - 38, cy + 36), (cx + 38, cy + 36)], TERRA, 4, round_caps=False)
        s.tally(i + 3, cx, cy + 92, 16, TERRA_DARK)
        s.rect((cx - 30, cy + 140, cx + 30, cy + 200), None, INK, 4, radius=10)
        s.circle(cx, cy + 170, 10, JADE)
    return s


# --- gods -------------------------------------------------------------------------

def god_base() -> ak.Sketch:
    s = panel(PURPLE)
    medallion(s, NIGHT, PURPLE)
    for x, y, r in ((CX - 170, 130, 4), (CX + 185, 170, 5), (CX - 200, 360, 3), (CX + 150, 430, 4),
                    (CX - 120, 460, 3), (CX + 210, 300, 3)):
        s.circle(x, y, r, NIGHT_LIGHT)
    return s


def kin_flower(s: ak.Sketch, cx: float, cy: float, r: float, color: str) -> None:
    for a in (0, 90, 180, 270):
        petal = ak.lens(cx, cy - r * 0.55, r * 1.1, r * 0.7, bulge=1.5)
        s.polygon(ak.rotate(petal, a, (cx, cy)), color, INK, 4)
    s.circle(cx, cy, r * 0.22, MAIZE_LIGHT, INK, 4)


def sun_god() -> ak.Sketch:
    s = god_base()
    for poly in ak.rays(CX, CY, 120, 212, 16, 14):
        inked(s, poly, MAIZE, 5)
    for poly in ak.rays(CX, CY, 120, 176, 16, 12, rotation=11.25):
        inked(s, poly, TERRA_LIGHT, 5)
    inked_circle(s, CX, CY, 132, MAIZE)
    s.circle(CX, CY, 112, None, MAIZE_DARK, 4)
    kin_flower(s, CX, CY, 80, TERRA)
    return s


def moon_goddess() -> ak.Sketch:
    s = god_base()
    s.circle(CX, CY, 178, ak.mix(NIGHT, MAIZE_LIGHT, 0.12))
    inked_circle(s, CX - 20, CY, 170, MAIZE_LIGHT)
    s.circle(CX + 52, CY - 26, 150, ak.mix(NIGHT, MAIZE_LIGHT, 0.12), INK, STROKE)
    # a rabbit sitting in the crescent's hollow
    rx, ry = CX + 44, CY + 60
    for dx, a in ((-10, -12), (12, 10)):
        ear = ak.lens(rx + dx, ry - 110, 86, 26, bulge=1.3)
        inked(s, ak.rotate(ear, a, (rx + dx, ry - 70)), CREAM, 4)
    inked(s, ak.ellipse_points(rx + 16, ry + 10, 56, 46, 36), CREAM, 4)
    inked_circle(s, rx, ry - 46, 34, CREAM, 4)
    s.circle(rx - 12, ry - 52, 5, INK)
    for x, y in ((CX + 150, CY - 130), (CX - 150, CY - 150), (CX + 170, CY + 120)):
        s.polygon(ak.star(x, y, 18, 5, 4), MAIZE_LIGHT)
    return s


def figure(s: ak.Sketch, cx: float, base: float, color: str, spots: bool, reach: int) -> None:
    body = [(cx - 52, base), (cx + 52, base), (cx + 34, base - 150), (cx - 34, base - 150)]
    arm_in = [(cx + reach * 26, base - 130), (cx + reach * 92, base - 236)]
    arm_out = [(cx - reach * 26, base - 130), (cx - reach * 60, base - 70)]
    s.line(arm_in, INK, 34)
    s.line(arm_in, color, 22)
    s.line(arm_out, INK, 34)
    s.line(arm_out, color, 22)
    inked(s, body, color)
    s.rect((cx - 50, base - 60, cx + 50, base - 34), CREAM, INK, 4)
    inked_circle(s, cx, base - 194, 46, color)
    s.rect((cx - 50, base - 250, cx + 50, base - 222), JADE, INK, 4, radius=8)
    s.circle(cx + reach * 18, base - 196, 7, INK)
    if spots:
        for dx, dy in ((-14, -100), (16, -84), (-20, -150), (14, -128), (0, -190), (-24, -206)):
            s.circle(cx + dx, base + dy, 6, INK)


def hero_twins() -> ak.Sketch:
    s = god_base()
    figure(s, CX - 100, 480, TERRA_LIGHT, False, 1)
    figure(s, CX + 100, 480, MAIZE, True, -1)
    s.circle(CX, 190, 50, NIGHT_LIGHT)
    inked_circle(s, CX, 190, 34, OBSIDIAN)
    s.arc(ak.circle_box(CX, 190, 22), 200, 300, OBSIDIAN_LIGHT, 6)
    return s


def maize_god() -> ak.Sketch:
    s = god_base()
    # the maize crown
    for a in (-34, 34):
        leaf = ak.lens(CX, 150, 190, 54, bulge=1.3)
        inked(s, ak.rotate(leaf, a, (CX, 240)), JADE_LIGHT)
    maize_cob(s, CX, 150, 180, 86, 0, leaves=False)
    # the face
    face = ak.ellipse_points(CX, 330, 104, 124, 48)
    inked(s, face, TERRA_LIGHT)
    s.rect((CX - 118, 220, CX + 118, 262), JADE, INK, STROKE, radius=14)
    for dx in (-60, 0, 60):
        s.circle(CX + dx, 241, 9, JADE_LIGHT)
    for dx in (-1, 1):
        s.arc((CX + dx * 44 - 22, 300, CX + dx * 44 + 22, 330), 90, 270, INK, 7)
        inked_circle(s, CX + dx * 118, 340, 24, JADE_LIGHT, 5)
        s.circle(CX + dx * 118, 340, 9, JADE_DARK)
    s.line([(CX, 326), (CX - 8, 368), (CX + 8, 368)], TERRA_DARK, 6)
    s.arc((CX - 34, 370, CX + 34, 410), 100, 260, INK, 7)
    return s


def death_gods() -> ak.Sketch:
    s = god_base()
    skull = LIME_LIGHT
    jaw = [(CX - 88, 330), (CX + 88, 330), (CX + 72, 440), (CX - 72, 440)]
    inked(s, jaw, skull)
    inked_circle(s, CX, 250, 150, skull)
    s.rect((CX - 86, 322, CX + 86, 346), skull)
    for dx in (-60, 60):
        inked(s, ak.ellipse_points(CX + dx, 260, 42, 48, 30), OBSIDIAN)
        s.circle(CX + dx + 8, 250, 9, MAIZE)
    inked(s, [(CX, 300), (CX - 22, 346), (CX + 22, 346)], OBSIDIAN, 4)
    s.rect((CX - 70, 372, CX + 70, 420), CREAM, INK, 5, radius=6)
    for k in range(-2, 3):
        s.line([(CX + k * 28, 374), (CX + k * 28, 418)], INK, 5, round_caps=False)
    s.line([(CX - 70, 396), (CX + 70, 396)], INK, 5, round_caps=False)
    # the 'percent' marks of the death gods on the brow
    for dx in (-1, 1):
        s.circle(CX + dx * 112, 180, 9, OBSIDIAN_LIGHT)
        s.circle(CX + dx * 86, 156, 9, OBSIDIAN_LIGHT)
        s.line([(CX + dx * 118, 150), (CX + dx * 80, 186)], OBSIDIAN_LIGHT, 6)
    return s


def rain_gods() -> ak.Sketch:
    s = god_base()
    puffs = [(CX - 110, 230, 66), (CX - 30, 190, 88), (CX + 70, 200, 78), (CX + 140, 246, 56),
             (CX - 150, 272, 44)]
    for x, y, r in puffs:
        s.circle(x, y, r + STROKE, INK)
    s.rect((CX - 150 - STROKE, 250, CX + 140 + STROKE, 316 + STROKE), INK, radius=30)
    for x, y, r in puffs:
        s.circle(x, y, r, "#dbe6e3")
    s.rect((CX - 150, 250, CX + 140, 316), "#dbe6e3", radius=28)
    s.rect((CX - 120, 290, CX + 110, 316), "#b8cccb", radius=12)
    for x, y in ((CX - 110, 360), (CX - 40, 400), (CX + 30, 356), (CX + 100, 396), (CX - 120, 440),
                 (CX + 40, 450)):
        drop = [(x, y - 36)] + ak.arc_points(x, y, 20, 20, 60, 300, 16)
        inked(s, drop, RAIN, 4)
    bolt = [(CX + 150, 300), (CX + 190, 300), (CX + 168, 360), (CX + 196, 360), (CX + 130, 460),
            (CX + 148, 380), (CX + 122, 380)]
    inked(s, bolt, MAIZE, 5)
    return s


# --- card back and tokens -----------------------------------------------------------

BACK_W, BACK_H = 750, 1050
BACK_INSET = 46       # the back's art is the picture inside this: its frame is drawn by the back's layout


def back() -> ak.Sketch:
    """The common back: two temples facing away from a calm middle band, the same either way up."""
    s = ak.Sketch(BACK_W, BACK_H, BACK_GREEN)
    gold, dim = BACK_GOLD, ak.mix(BACK_GOLD, BACK_GREEN, 0.55)
    faint = ak.mix(BACK_GOLD, BACK_GREEN, 0.8)
    cx = BACK_W / 2
    # the calm band for the title
    band_top = 370
    s.rect((42, band_top, BACK_W - 42, BACK_H - band_top), BACK_GREEN_LIGHT)
    s.line([(42, band_top), (BACK_W - 42, band_top)], gold, 5, round_caps=False)
    s.polygon(ak.step_band(60, BACK_W - 60, band_top - 4, 10, 2, up=True), dim)
    # rays of the sun behind the temple, kept above the band
    glow, clip = s.layer(), s.layer()
    clip.rect((46, 46, BACK_W - 46, band_top - 6), "#000000")
    for poly in ak.rays(cx, 210, 70, 300, 16, 7):
        glow.polygon(poly, faint)
    glow.circle(cx, 210, 70, faint)
    s.paste(glow, clip)
    # the temple
    base = band_top - 26
    tiers = ak.stepped_pyramid(cx, base, 460, 170, 6, 186)
    for x0, y0, x1, y1 in tiers:
        s.rect((x0, y0, x1, y1), BACK_GREEN, gold, 5)
        s.line([(x0 + 9, y1 - 9), (x1 - 9, y1 - 9)], dim, 3, round_caps=False)
    top = tiers[-1]
    s.rect((cx - 42, top[1], cx + 42, base), BACK_GREEN, gold, 5)
    for i in range(1, 12):
        y = base - i * 186 / 12
        s.line([(cx - 34, y), (cx + 34, y)], dim, 3, round_caps=False)
    shrine = (cx - 62, top[1] - 54, cx + 62, top[1])
    s.rect(shrine, BACK_GREEN, gold, 5)
    s.rect((cx - 17, shrine[1] + 20, cx + 17, shrine[3]), gold)
    comb = [(cx - 46, shrine[1]), (cx - 32, shrine[1] - 36), (cx + 32, shrine[1] - 36), (cx + 46, shrine[1])]
    s.polygon(comb, BACK_GREEN, gold, 5)
    for dx in (-18, 0, 18):
        s.rect((cx + dx - 5, shrine[1] - 26, cx + dx + 5, shrine[1] - 10), dim)
    # corner motifs: stepped frets
    for x, sign in ((60, 1), (BACK_W - 60, -1)):
        stairs = [(x, 60)]
        for k in range(4):
            stairs += [(x + sign * (76 - 19 * k), 60 + 19 * k), (x + sign * (76 - 19 * k), 60 + 19 * (k + 1))]
        stairs.append((x, 60 + 76))
        s.polygon(stairs if sign > 0 else stairs[::-1], dim)
    return s


def back_image():
    return ak.half_turn_symmetric(ak.within(back().image(), BACK_INSET))


TOKEN = 400


def calendar_token() -> ak.Sketch:
    s = ak.Sketch(TOKEN, TOKEN)
    c = TOKEN / 2
    s.circle(c, c, 176, CREAM, INK, 6)
    for i, seg in enumerate(ak.ring_segments(c, c, 122, 170, 20, 4)):
        s.polygon(seg, MAIZE if i % 2 == 0 else MAIZE_LIGHT, INK, 3)
    for i in range(20):
        a = math.radians(360 * (i + 0.5) / 20)
        x, y = c + 146 * math.sin(a), c - 146 * math.cos(a)
        s.circle(x, y, 7 if i % 5 else 10, TERRA_DARK if i % 5 else JADE)
    s.circle(c, c, 118, CREAM, INK, 5)
    for poly in ak.rays(c, c, 74, 112, 13, 14):
        s.polygon(poly, TERRA_LIGHT, INK, 3)
    s.circle(c, c, 76, MAIZE, INK, 5)
    kin_flower(s, c, c, 52, TERRA)
    return s


def priest_king_token() -> ak.Sketch:
    s = ak.Sketch(TOKEN, TOKEN)
    c = TOKEN / 2
    s.circle(c, c, 176, CREAM, INK, 6)
    base = (c, 262)
    colors = [JADE_DARK, JADE, JADE_LIGHT, JADE, JADE_LIGHT, JADE, JADE_DARK]
    for angle, color in zip((-66, -44, -22, 0, 22, 44, 66), colors):
        plume = ak.lens(c, 162, 176, 52, bulge=1.5)
        s.polygon(ak.rotate(plume, angle, base), color, INK, 4)
        tip = ak.lens(c, 100, 48, 26, bulge=1.3)
        s.polygon(ak.rotate(tip, angle, base), MAIZE, INK, 3)
    band = [(c - 104, 236), (c + 104, 236), (c + 92, 298), (c - 92, 298)]
    s.polygon(band, MAIZE, INK, 5)
    for dx in (-62, 62):
        s.circle(c + dx, 267, 13, TERRA, INK, 3)
    s.circle(c, 262, 30, JADE, INK, 5)
    s.circle(c, 262, 12, JADE_LIGHT)
    for dx in (-70, -35, 0, 35, 70):
        s.polygon([(c + dx - 14, 298), (c + dx + 14, 298), (c + dx, 326)], TERRA, INK, 3)
    return s


# --- the whole set ------------------------------------------------------------------

def card_pictures() -> dict[str, Callable[[], ak.Sketch]]:
    pictures: dict[str, Callable[[], ak.Sketch]] = {
        f"{name}.png": (lambda stage=stage: pyramid_picture(stage)) for stage, name in BID_STAGES.items()
    }
    pictures.update({
        "stone.png": stone, "salt.png": salt, "maize.png": maize, "cocoa.png": cocoa,
        "ceramics.png": ceramics, "honey.png": honey, "feathers.png": feathers,
        "textiles.png": textiles, "pyrite.png": pyrite, "obsidian.png": obsidian, "jade.png": jade,
        "codex.png": codex,
        "sun-god.png": sun_god, "moon-goddess.png": moon_goddess, "hero-twins.png": hero_twins,
        "maize-god.png": maize_god, "death-gods.png": death_gods, "rain-gods.png": rain_gods,
    })
    return pictures


def build() -> dict[str, bytes]:
    """Every art file's name and PNG bytes."""
    files = {name: ak.palette_png(draw(), COLORS, matte=PANEL)
             for name, draw in card_pictures().items()}
    files["back.png"] = ak.palette_png(back_image(), COLORS, matte=BACK_GREEN)
    files["calendar-token.png"] = ak.palette_png(calendar_token(), COLORS, matte=CREAM)
    files["priest-king-token.png"] = ak.palette_png(priest_king_token(), COLORS, matte=CREAM)
    return dict(sorted(files.items()))


def main(argv: list[str] | None = None) -> int:
    return run_script(build, __file__, argv)


if __name__ == "__main__":
    raise SystemExit(main())
