"""The pictures of docs/printing-at-a-shop.md: the top of Altun Ha's proof for The Game Crafter, and the
end of its soft proof for DriveThruCards.

Run from the repository root:  python docs/make_shop_pictures.py

Exports Altun Ha for both shops in a temporary folder with kitgen's own export, and writes
docs/images/shop-proof.png and docs/images/shop-soft-proof.png: each sheet's header and two rows of
pictures (the first two of the proof, the last two of the soft proof, which end with the back), at two
thirds of their size.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kitgen.outputs import proofs  # noqa: E402
from kitgen.outputs.shop_export import export_to_shop  # noqa: E402

IMAGES = ROOT / "docs" / "images"
ROWS = 2
SCALE = 2 / 3


def _rows(sheet: Path, last: bool) -> Image.Image:
    """The sheet's header and its first (or last) ROWS rows of pictures, scaled by SCALE."""
    with Image.open(sheet) as image:
        image = image.convert("RGB")
    cell_h = round(1125 * proofs.CELL_WIDTH / 825)
    row_h = cell_h + proofs.LABEL + proofs.GAP
    rows = (image.height - proofs.HEADER - proofs.GAP) // row_h
    first = rows - ROWS if last else 0
    out = Image.new("RGB", (image.width, proofs.HEADER + ROWS * row_h), proofs.PAPER)
    out.paste(image.crop((0, 0, image.width, proofs.HEADER)), (0, 0))
    top = proofs.HEADER + first * row_h
    out.paste(image.crop((0, top, image.width, top + ROWS * row_h)), (0, proofs.HEADER))
    return out.resize((round(out.width * SCALE), round(out.height * SCALE)), Image.Resampling.LANCZOS)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        tgc = export_to_shop("altun-ha", "tgc", folder).target
        dtc = export_to_shop("altun-ha", "dtc", folder).target
        _rows(tgc / "proof-altun-ha.png", last=False).save(IMAGES / "shop-proof.png", optimize=True)
        _rows(dtc / "soft-proof-altun-ha.png", last=True).save(IMAGES / "shop-soft-proof.png", optimize=True)
    print(f"wrote {IMAGES / 'shop-proof.png'} and {IMAGES / 'shop-soft-proof.png'}")


if __name__ == "__main__":
    main()
