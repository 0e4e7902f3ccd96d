"""The picture of docs/card-sheets.md that shows which way up backs print: Star Exchange's factories
(each card's back is its upgraded side) on a page of fronts, their backs page for a long-edge flip and
for a short-edge flip, and one card turned over like a page.

Run from the repository root:  python docs/make_sheet_pictures.py

Builds the example's card sheets both ways in a temporary folder with kitgen's own
build, rasterises the pages with pdfium and writes docs/images/sheet-back-orientation.png.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import pypdfium2
from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kitgen.outputs.kit import BuildOptions, build_kit  # noqa: E402

IMAGES = ROOT / "docs" / "images"
GAME = ROOT / "docs" / "examples" / "star-exchange"
FONT = ROOT / "kitgen" / "render" / "font_files" / "DejaVuSans.ttf"
DPI = 40
CARD_DPI = 90
GAP = 24
BACKGROUND = "#e9e6df"


def _page(pdf: Path, number: int, dpi: float) -> Image.Image:
    doc = pypdfium2.PdfDocument(str(pdf))
    try:
        return doc[number - 1].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        doc.close()


def _card(pdf: Path, manifest: dict, side: str, dpi: float) -> Image.Image:
    """The first card's front or back, cut out of its page and turned as the card is held."""
    card = manifest["cards"][0][side]
    page = _page(pdf, card["page"], dpi)
    k = dpi / 72
    height = manifest["page_size"][1]
    x0, y0, x1, y1 = card["box"]
    piece = page.crop((round(x0 * k), round((height - y1) * k), round(x1 * k), round((height - y0) * k)))
    return piece.rotate(-card.get("rotation", 0), expand=True)


def _labelled(image: Image.Image, lines: list[str], font) -> Image.Image:
    """The picture with a thin outline and its caption underneath."""
    line_h = font.size + 6
    out = Image.new("RGB", (max(image.width, 10), image.height + 12 + line_h * len(lines)), BACKGROUND)
    out.paste(image, (0, 0))
    draw = ImageDraw.Draw(out)
    draw.rectangle((0, 0, image.width - 1, image.height - 1), outline="#8a8578")
    for i, line in enumerate(lines):
        draw.text((image.width / 2, image.height + 8 + i * line_h), line, fill="#2b2420", font=font, anchor="ma")
    return out


def _row(pictures: list[Image.Image], arrows: bool = False) -> Image.Image:
    width = sum(p.width for p in pictures) + GAP * (len(pictures) + 1)
    height = max(p.height for p in pictures) + 2 * GAP
    row = Image.new("RGB", (width, height), BACKGROUND)
    draw, x = ImageDraw.Draw(row), GAP
    for i, picture in enumerate(pictures):
        row.paste(picture, (x, GAP))
        x += picture.width + GAP
        if arrows and i < len(pictures) - 1:
            y = GAP + pictures[0].height * 0.45
            draw.polygon([(x - GAP + 4, y - 7), (x - 4, y), (x - GAP + 4, y + 7)], fill="#8a8578")
    return row


def main() -> None:
    font = ImageFont.truetype(str(FONT), 15)
    with tempfile.TemporaryDirectory() as tmp:
        built = {}
        for flip in ("long", "short"):
            result = build_kit(GAME, Path(tmp) / flip, BuildOptions(duplex=flip))
            built[flip] = (result.folder / "cards.pdf",
                           json.loads((result.folder / "manifest.json").read_text(encoding="utf-8")))
        (long_pdf, long_manifest), (short_pdf, _) = built["long"], built["short"]
        sheets = _row([
            _labelled(_page(long_pdf, 1, DPI), ["the page of fronts"], font),
            _labelled(_page(long_pdf, 2, DPI), ["its backs, --duplex long:", "upright on the page"], font),
            _labelled(_page(short_pdf, 2, DPI), ["its backs, --duplex short:", "upside down on the page"], font),
        ])
        card = _row([_labelled(_card(long_pdf, long_manifest, "front", CARD_DPI), ["a card"], font),
                     _labelled(_card(long_pdf, long_manifest, "back", CARD_DPI),
                               ["turned over like a page:", "its back reads upright,", "whichever the flip"], font)],
                    arrows=True)
    picture = Image.new("RGB", (sheets.width + card.width, max(sheets.height, card.height)), BACKGROUND)
    picture.paste(sheets, (0, 0))
    picture.paste(card, (sheets.width, (picture.height - card.height) // 2))
    IMAGES.mkdir(exist_ok=True)
    picture.save(IMAGES / "sheet-back-orientation.png", optimize=True)
    print(f"wrote sheet-back-orientation.png into {IMAGES.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
