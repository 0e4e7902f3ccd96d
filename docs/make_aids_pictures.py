"""The pictures of the table aids in docs/components.md: every page of each built-in game's aids.pdf.

Run from the repository root:  python docs/make_aids_pictures.py

Builds each built-in game's kit on letter paper in a temporary folder, rasterises
every page of its aids.pdf with pdfium, and writes the pages side by side, each
with a thin outline, to docs/images/aids-<game>.png.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pypdfium2
from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kitgen.data.builtin import builtin_games  # noqa: E402
from kitgen.outputs.kit import BuildOptions, build_kit  # noqa: E402

IMAGES = ROOT / "docs" / "images"
DPI = 36
MARGIN = 12


def pages_side_by_side(pdf: Path) -> Image.Image:
    doc = pypdfium2.PdfDocument(str(pdf))
    pages = [doc[i].render(scale=DPI / 72).to_pil().convert("RGB") for i in range(len(doc))]
    width = sum(p.width for p in pages) + MARGIN * (len(pages) + 1)
    height = max(p.height for p in pages) + 2 * MARGIN
    sheet = Image.new("RGB", (width, height), "#e9e6df")
    draw, x = ImageDraw.Draw(sheet), MARGIN
    for page in pages:
        sheet.paste(page, (x, MARGIN))
        draw.rectangle((x - 1, MARGIN - 1, x + page.width, MARGIN + page.height), outline="#8a8578")
        x += page.width + MARGIN
    return sheet


def main() -> None:
    IMAGES.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for slug in builtin_games():
            build_kit(slug, tmp, BuildOptions(paper="letter"))
            target = IMAGES / f"aids-{slug}.png"
            pages_side_by_side(Path(tmp) / slug / "aids.pdf").save(target, optimize=True)
            print(target.relative_to(ROOT))


if __name__ == "__main__":
    main()
