"""Proofs to look at before an order: every exported picture with the shop's guides, and a soft proof.

``proof-<deck>.png`` shows each distinct face and back as exported, with the
bleed's edge (red), the cut (blue) and the safe zone (green, dashed) drawn
over it, so art that stops short of the bleed or text that strays past the
safe zone shows at a glance.  For a CMYK shop, ``soft-proof-<deck>.png`` sets
each picture as designed (sRGB, left) beside the print file's page rendered
in CMYK and brought back to the screen through the print profile (right), so
a colour shift is seen before the order.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from kitgen.outputs.raster import as_rgb, png_bytes
from kitgen.units import to_mm

CELL_WIDTH = 260         # pixels of one picture on a proof
COLUMNS = 6
PAIR_COLUMNS = 3
GAP = 24
LABEL = 34
HEADER = 92
PAPER = (246, 244, 240)
INK = (33, 33, 33)
NOTE = (96, 96, 96)
BLEED_EDGE = (214, 40, 40)
CUT = (30, 90, 220)
SAFE = (20, 150, 60)
PROOF_DPI = 100


@lru_cache(maxsize=None)
def _font(size: int, bold: bool = False):
    from PIL import ImageFont

    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    with resources.files("kitgen.render").joinpath("font_files", name).open("rb") as fh:
        return ImageFont.truetype(fh, size)


def _fit(draw, text: str, font, width: int) -> str:
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"


def _sheet(cells: int, columns: int, cell_w: int, cell_h: int):
    from PIL import Image

    cols = max(1, min(columns, cells))
    rows = (cells + cols - 1) // cols
    width = GAP + cols * (cell_w + GAP)
    height = HEADER + rows * (cell_h + LABEL + GAP) + GAP
    return Image.new("RGB", (width, height), PAPER), cols


def _header(draw, title: str, subtitle: str, legend: list[tuple[str, tuple]] = ()) -> None:
    draw.text((GAP, 18), title, font=_font(26, True), fill=INK)
    draw.text((GAP, 54), subtitle, font=_font(15), fill=NOTE)
    x = GAP + draw.textlength(subtitle, font=_font(15)) + 30
    for text, colour in legend:
        draw.line([(x, 64), (x + 26, 64)], fill=colour, width=3)
        draw.text((x + 32, 54), text, font=_font(15), fill=NOTE)
        x += 32 + draw.textlength(text, font=_font(15)) + 22


def guide_sheet(deck, size, profile, names: list[str], images: list) -> bytes:
    """Every picture of ``deck`` (at any resolution) with the bleed's edge, the cut and the safe zone drawn
    over it."""
    from PIL import ImageDraw

    w0, h0 = images[0].size
    scale = CELL_WIDTH / w0
    cell_h = round(h0 * scale)
    sheet, cols = _sheet(len(images), COLUMNS, CELL_WIDTH, cell_h)
    draw = ImageDraw.Draw(sheet)
    w, h = size.image_pixels(profile.dpi)
    subtitle = (f"{profile.shop}: {size.name}, {to_mm(size.bleed):.1f} mm bleed, {to_mm(size.safe):.1f} mm "
                f"safe zone, {w} x {h} px at {profile.dpi} dpi")
    _header(draw, f"{deck.title}: proof", subtitle, [("bleed edge", BLEED_EDGE), ("cut", CUT), ("safe zone", SAFE)])
    per_point = CELL_WIDTH / (size.width + 2 * size.bleed)
    bleed_px = size.bleed * per_point
    safe_px = (size.bleed + size.safe) * per_point
    for i, (name, image) in enumerate(zip(names, images)):
        x = GAP + (i % cols) * (CELL_WIDTH + GAP)
        y = HEADER + (i // cols) * (cell_h + LABEL + GAP)
        sheet.paste(as_rgb(image).resize((CELL_WIDTH, cell_h), resample=3), (x, y))
        draw.rectangle([x, y, x + CELL_WIDTH - 1, y + cell_h - 1], outline=BLEED_EDGE, width=2)
        draw.rectangle([round(x + bleed_px), round(y + bleed_px), round(x + CELL_WIDTH - 1 - bleed_px),
                        round(y + cell_h - 1 - bleed_px)], outline=CUT, width=2)
        _dashed_rect(draw, x + safe_px, y + safe_px, x + CELL_WIDTH - 1 - safe_px, y + cell_h - 1 - safe_px, SAFE)
        draw.text((x, y + cell_h + 6), _fit(draw, name, _font(14), CELL_WIDTH), font=_font(14), fill=INK)
    return png_bytes(sheet, PROOF_DPI)


def _dashed_rect(draw, x0: float, y0: float, x1: float, y1: float, colour, dash: int = 7) -> None:
    for a, b, fixed, vertical in ((x0, x1, y0, False), (x0, x1, y1, False), (y0, y1, x0, True), (y0, y1, x1, True)):
        t = a
        while t < b:
            e = min(t + dash, b)
            line = [(fixed, t), (fixed, e)] if vertical else [(t, fixed), (e, fixed)]
            draw.line([(round(p), round(q)) for p, q in line], fill=colour, width=2)
            t += 2 * dash


def soft_proof_sheet(deck, profile, names: list[str], images: list, separations: list) -> bytes:
    """Each picture as designed (left) beside it as printed (right): ``separations`` are the print file's
    pages in CMYK, brought back to the screen through the print profile."""
    from PIL import ImageDraw

    from kitgen.outputs.cmyk import soft_proof

    w0, h0 = images[0].size
    scale = CELL_WIDTH / w0
    cell_h = round(h0 * scale)
    pair_w = 2 * CELL_WIDTH + GAP // 2
    sheet, cols = _sheet(len(images), PAIR_COLUMNS, pair_w + GAP, cell_h)     # pairs twice as far apart
    draw = ImageDraw.Draw(sheet)
    _header(draw, f"{deck.title}: soft proof", f"{profile.shop}: as designed (sRGB, left) and as printed "
            f"(FOGRA39, at most {profile.ink_limit or 240}% ink, right)")
    for i, (name, image, cmyk) in enumerate(zip(names, images, separations)):
        x = GAP + (i % cols) * (pair_w + 2 * GAP)
        y = HEADER + (i // cols) * (cell_h + LABEL + GAP)
        sheet.paste(as_rgb(image).resize((CELL_WIDTH, cell_h), resample=3), (x, y))
        sheet.paste(soft_proof(cmyk).resize((CELL_WIDTH, cell_h), resample=3), (x + CELL_WIDTH + GAP // 2, y))
        draw.text((x, y + cell_h + 6), _fit(draw, name, _font(14), pair_w), font=_font(14), fill=INK)
    return png_bytes(sheet, PROOF_DPI)
