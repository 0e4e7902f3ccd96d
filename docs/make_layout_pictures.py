"""The pictures of docs/layouts.md, made by kitgen from the example games in docs/examples/.

Run from the repository root:  python docs/make_layout_pictures.py

It first draws the examples' icons and art (simple shapes, so the examples carry
no borrowed pictures), then renders cards of each example with kitgen's own
card painter and writes docs/images/layout-*.png.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kitgen.outputs.card_pages import CardPage, card_pages_pdf  # noqa: E402
from kitgen.outputs.export_job import ExportOptions, prepare  # noqa: E402
from kitgen.outputs.raster import PageJob, rasterise  # noqa: E402

EXAMPLES = ROOT / "docs" / "examples"
IMAGES = ROOT / "docs" / "images"
DPI = 110
ICON = 96


def _canvas(size=ICON):
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    return image, ImageDraw.Draw(image)


def _star(draw, cx, cy, r, fill, points=5, inner=0.45, rim=None):
    pts = []
    for i in range(points * 2):
        a = -math.pi / 2 + i * math.pi / points
        rr = r if i % 2 == 0 else r * inner
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    draw.polygon(pts, fill=fill, outline=rim, width=5 if rim else 1)


DARK_RIM, LIGHT_RIM = (40, 40, 40), (225, 225, 230)


def rim_for(colour) -> tuple:
    """The outline that makes an icon of ``colour`` stand out on light and dark panels alike: dark
    round a light or middle colour, light round a dark one."""
    r, g, b = colour[:3]
    return LIGHT_RIM if 0.2126 * r + 0.7152 * g + 0.0722 * b < 70 else DARK_RIM


def icon(kind: str, colour, rim=None) -> Image.Image:
    """A simple icon; with ``rim``, outlined in that colour (cubes and discs are always outlined)."""
    image, draw = _canvas()
    s = ICON
    if kind == "cube":
        draw.rounded_rectangle((10, 10, s - 10, s - 10), radius=14, fill=colour, outline=rim or DARK_RIM, width=5)
    elif kind == "disc":
        draw.ellipse((8, 8, s - 8, s - 8), fill=colour, outline=rim or DARK_RIM, width=5)
    elif kind == "star":
        _star(draw, s / 2, s / 2 + 3, s / 2 - 6, colour, rim=rim)
    elif kind == "heart":
        draw.ellipse((8, 14, 52, 58), fill=colour)
        draw.ellipse((44, 14, 88, 58), fill=colour)
        draw.polygon([(11, 46), (85, 46), (48, 88)], fill=colour)
    elif kind == "hourglass":
        draw.polygon([(18, 8), (78, 8), (48, 48)], fill=colour)
        draw.polygon([(18, 88), (78, 88), (48, 48)], fill=colour)
        draw.rectangle((12, 4, 84, 12), fill=(90, 60, 30))
        draw.rectangle((12, 84, 84, 92), fill=(90, 60, 30))
    elif kind == "hexagon":
        pts = [(s / 2 + 42 * math.cos(math.pi / 3 * i), s / 2 + 42 * math.sin(math.pi / 3 * i)) for i in range(6)]
        draw.polygon(pts, fill=colour, outline=rim or (240, 240, 240), width=5 if rim else 1)
    elif kind == "ship":
        draw.polygon([(48, 8), (82, 86), (48, 69), (14, 86)], fill=colour, outline=rim, width=5 if rim else 1)
    elif kind == "arrow":
        draw.polygon([(8, 38), (56, 38), (56, 18), (90, 48), (56, 78), (56, 58), (8, 58)], fill=colour,
                     outline=rim, width=5 if rim else 1)
    return image


ICONS = {
    "kitchen-rivals": {"taste": ("star", (214, 162, 58, 255)), "favor": ("heart", (196, 71, 54, 255)),
                       "time": ("hourglass", (214, 162, 58, 255))},
    "star-exchange": {"green": ("cube", (70, 160, 80, 255)), "white": ("cube", (235, 235, 235, 255)),
                      "brown": ("cube", (140, 90, 50, 255)), "yellow": ("disc", (240, 200, 60, 255)),
                      "black": ("disc", (40, 40, 45, 255)), "ultra": ("hexagon", (80, 170, 220, 255)),
                      "point": ("star", (240, 190, 60, 255)), "ship": ("ship", (200, 200, 210, 255)),
                      "arrow": ("arrow", (150, 150, 170, 255))},
}

ART = {
    "kitchen-rivals": {"stew": ((47, 93, 168), "disc"), "tart": ((240, 200, 60), "star"),
                       "skewers": ((196, 71, 54), "ship"), "cheese": ((240, 200, 90), "hexagon"),
                       "market": ((184, 105, 42), "cube"), "roast": ((150, 70, 40), "disc"),
                       "critic": ((63, 143, 69), "star"), "notebook": ((63, 143, 69), "cube")},
    "kingdom": {"village": ((120, 150, 90), "hexagon"), "smithy": ((110, 90, 80), "cube"),
                "market": ((184, 105, 42), "disc"), "moat": ((61, 111, 163), "disc"),
                "alchemist": ((120, 80, 150), "star"), "gold": ((201, 162, 39), "disc"),
                "lands": ((63, 143, 69), "hexagon"), "library": ((140, 110, 80), "cube")},
    "trading-card": {"otter": ((47, 127, 158), "disc"), "heron": ((90, 140, 170), "ship"),
                     "tortoise": ((79, 138, 58), "hexagon"), "lynx": ((100, 130, 60), "star"),
                     "fox": ((192, 85, 47), "ship"), "newt": ((170, 60, 40), "star")},
}


def art_picture(colour, kind) -> Image.Image:
    """A plain picture for an example card: a soft gradient and one shape."""
    w, h = 480, 300
    image = Image.new("RGB", (w, h))
    top = tuple(min(255, c + 90) for c in colour)
    for y in range(h):
        t = y / (h - 1)
        image.paste(tuple(round(a + (b - a) * t) for a, b in zip(top, colour)), (0, y, w, y + 1))
    shape = icon(kind, (255, 255, 255, 170)).resize((200, 200))
    image.paste(shape, ((w - 200) // 2, (h - 200) // 2), shape)
    return image


def write_sources() -> None:
    """The icons and art the examples use, drawn here."""
    for game, icons in ICONS.items():
        folder = EXAMPLES / game / "icons"
        folder.mkdir(parents=True, exist_ok=True)
        for name, (kind, colour) in icons.items():
            # outlined, so that every icon reads on the light and the dark panels alike
            rim = rim_for(colour) if kind not in ("heart", "hourglass") else None
            icon(kind, colour, rim).resize((48, 48), Image.LANCZOS).save(folder / f"{name}.png", optimize=True)
    for game, pictures in ART.items():
        art = EXAMPLES / game / "art"
        art.mkdir(exist_ok=True)
        for name, (colour, kind) in pictures.items():
            art_picture(colour, kind).save(art / f"{name}.png", optimize=True)


def card_images(game: str, pages) -> list[Image.Image]:
    """The given pages (cards and backs) of a game, as pictures at DPI."""
    job = prepare(game, ExportOptions(), 0.0, DPI)
    pages = pages(job.game.cards)
    pdf = card_pages_pdf(job, pages, "layouts", "docs", bleed=0.0, boxes=False)
    w, h = job.pixels(job.card.width), job.pixels(job.card.height)
    return rasterise(pdf, [PageJob(i, w, h) for i in range(len(pages))], 1)


def strip(images: list[Image.Image], columns: int | None = None, gap: int = 18) -> Image.Image:
    """Pictures in a grid on a light background, ``columns`` to a row."""
    columns = columns or len(images)
    rows = math.ceil(len(images) / columns)
    w, h = images[0].size
    sheet = Image.new("RGB", (columns * w + (columns + 1) * gap, rows * h + (rows + 1) * gap), (243, 239, 230))
    for i, image in enumerate(images):
        r, c = divmod(i, columns)
        sheet.paste(image, (gap + c * (w + gap), gap + r * (h + gap)))
    return sheet


def outlined(game: str, index: int) -> Image.Image:
    """One face with the outline and name of every box drawn over it, as `kitgen preview` draws it."""
    from kitgen.outputs.card_preview import outlined as outline_boxes

    job = prepare(game, ExportOptions(), 0.0, DPI)
    return outline_boxes(job.painter(0.0), job.game.cards[index], dpi=2 * DPI)


def main() -> None:
    write_sources()
    IMAGES.mkdir(exist_ok=True)
    altun = card_images("altun-ha", lambda cards: [CardPage(cards[0]), CardPage(cards[9]), CardPage(cards[21]),
                                                   CardPage(cards[0], back=True)])
    strip(altun).save(IMAGES / "layout-builtin.png", optimize=True)
    kitchen = EXAMPLES / "kitchen-rivals"
    faces = card_images(str(kitchen), lambda cards: [CardPage(c) for c in cards[:8]])
    strip(faces, columns=4).save(IMAGES / "layout-kitchen-rivals.png", optimize=True)
    stars = EXAMPLES / "star-exchange"
    sides = card_images(str(stars), lambda cards: [CardPage(c) for c in cards[:4]] +
                        [CardPage(c, back=True) for c in cards[:4]])
    strip(sides, columns=4).save(IMAGES / "layout-star-exchange.png", optimize=True)
    kingdom = card_images(str(EXAMPLES / "kingdom"), lambda cards: [CardPage(c) for c in cards[:8]])
    strip(kingdom, columns=4).save(IMAGES / "layout-kingdom.png", optimize=True)
    critters = card_images(str(EXAMPLES / "trading-card"), lambda cards: [CardPage(c) for c in cards[:3]] +
                           [CardPage(c, back=True) for c in cards[:3]])
    strip(critters, columns=3).save(IMAGES / "layout-trading-card.png", optimize=True)
    outlined(str(kitchen), 0).save(IMAGES / "layout-boxes.png", optimize=True)
    print(f"wrote {', '.join(sorted(p.name for p in IMAGES.glob('layout-*.png')))} into {IMAGES.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
