"""kitgen export --format png: pixel sizes, DPI and colour metadata, names in deck order, agreement with the PDF."""

from __future__ import annotations

import json

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops, ImageStat

from tests.conftest import csv_cards, run, small_game


def expected_px(mm_size: float, bleed_in: float, dpi: int) -> int:
    return round((mm_size / 25.4 + 2 * bleed_in) * dpi)


@pytest.fixture
def game(tmp_path) -> Path:
    return small_game(tmp_path / "game")


def export(game: Path, out: Path, *args) -> Path:
    result = run("export", game, "--format", "png", "--out", out, "--jobs", "1", *args)
    assert result.exit_code == 0, result.output
    return out / "export-test" / "png"


def test_single_poker_card_at_300_dpi_is_825_by_1125(tmp_path):
    game = small_game(tmp_path / "one", [("Lone", "action", 1, 1, "Draw 1 card.")])
    folder = export(game, tmp_path / "out")
    assert sorted(p.name for p in folder.iterdir()) == ["01-lone-x1.png", "back.png", "manifest.json"]
    listing = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert listing["decks"][0]["faces"] == [{"file": "01-lone-x1.png", "name": "Lone", "row": 2, "copies": 1,
                                            "back": "back.png"}]
    for path in folder.glob("*.png"):
        with Image.open(path) as im:
            assert im.size == (825, 1125)
            assert im.mode == "RGB"
            assert im.info["dpi"] == pytest.approx((300, 300), abs=0.03)
            assert im.info["srgb"] == 0          # sRGB chunk, perceptual intent
            assert "icc_profile" not in im.info


def test_names_sort_in_deck_order_and_carry_counts(game, tmp_path):
    folder = export(game, tmp_path / "out", "--dpi", "40")
    names = sorted(p.name for p in folder.glob("*.png"))
    assert names[-1] == "back.png"
    faces = names[:-1]
    cards = csv_cards(game)
    assert len(faces) == len(cards)
    for i, (file, (name, count)) in enumerate(zip(faces, cards), start=1):
        assert file.startswith(f"{i:02d}-{name.lower()}-")
        assert file.endswith(f"-x{count}.png")


@pytest.mark.parametrize("size, bleed, dpi, w_mm, h_mm, bleed_in", [
    ("70x120", "0", 72, 70, 120, 0.0),
    ("mini", "3mm", 150, 41, 63, 3 / 25.4),
    ("poker", "0.25in", 100, 63.5, 88.9, 0.25),
])
def test_pixel_size_follows_card_size_bleed_and_dpi(tmp_path, size, bleed, dpi, w_mm, h_mm, bleed_in):
    game = small_game(tmp_path / "g", [("Solo", "resource", 2, "", "")])
    folder = export(game, tmp_path / "out", "--card-size", size, "--bleed", bleed, "--dpi", str(dpi))
    with Image.open(folder / "01-solo-x2.png") as im:
        assert im.size == (expected_px(w_mm, bleed_in, dpi), expected_px(h_mm, bleed_in, dpi))
        assert im.info["dpi"] == pytest.approx((dpi, dpi), abs=0.03)  # pHYs stores whole pixels per metre


def test_same_input_gives_identical_bytes_with_one_or_two_processes(game, tmp_path):
    one = export(game, tmp_path / "a", "--dpi", "50")
    result = run("export", game, "--format", "png", "--out", tmp_path / "b", "--jobs", "2", "--dpi", "50")
    assert result.exit_code == 0, result.output
    two = tmp_path / "b" / "export-test" / "png"
    names = sorted(p.name for p in one.iterdir())
    assert names == sorted(p.name for p in two.iterdir())
    for name in names:
        assert (one / name).read_bytes() == (two / name).read_bytes(), name


TILE = 16              # pixels; a missing corner value or name changes a tile by far more than the bound
MEAN_BOUND, TILE_BOUND = 4.0, 12.0


def differences(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    """(mean difference over the whole image, largest mean difference over one TILE x TILE tile), 0..255."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    mean = sum(ImageStat.Stat(diff).mean) / 3
    tiles = diff.reduce(TILE)          # each pixel is the mean of one tile
    worst = max(hi for _, hi in tiles.getextrema())
    return mean, worst


def erase_corner_value(image: Image.Image) -> Image.Image:
    """A copy with the number in the top-left value circle painted over in the circle's colour."""
    out = image.convert("RGB")
    w, h = out.size
    ring = out.getpixel((2, 2))          # the starter's card colour: bleed and value circle alike
    box = (int(w * 0.11), int(h * 0.07), int(w * 0.26), int(h * 0.19))
    near = [(x, y) for x in range(box[0], box[2]) for y in range(box[1], box[3])
            if sum(abs(c - r) for c, r in zip(out.getpixel((x, y)), ring)) < 40]
    xs, ys = [x for x, _ in near], [y for _, y in near]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    dx, dy = (x1 - x0) * 0.2, (y1 - y0) * 0.2
    out.paste(ring, (round(x0 + dx), round(y0 + dy), round(x1 - dx), round(y1 - dy)))
    return out


def test_png_matches_the_print_shop_pdf(game, tmp_path):
    # the PNG export draws its own one-card pages; the print-shop PDF is a separate document
    dpi = 100
    folder = export(game, tmp_path / "out", "--dpi", str(dpi))
    result = run("export", game, "--format", "print-shop", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    pdf = pdfium.PdfDocument(tmp_path / "out" / "export-test" / "print-shop.pdf")
    first = sorted(folder.glob("01-*.png"))[0]
    for index, png in ((0, first), (1, folder / "back.png")):
        page = pdf[index].render(scale=dpi / 72).to_pil()
        with Image.open(png) as b:
            assert page.size == b.size
            mean, worst = differences(page, b)
            assert mean < MEAN_BOUND, f"{png.name} differs from the PDF page by {mean:.1f} on average"
            assert worst < TILE_BOUND, f"{png.name} differs from the PDF page by {worst} in one tile"
        if index == 0:
            # the checks catch a small missing element: the card's value painted out of the PNG
            with Image.open(png) as b:
                blanked = erase_corner_value(b)
                changed = ImageChops.difference(blanked, b.convert("RGB")).getbbox()
            assert changed is not None and changed[0] < page.width / 3 and changed[1] < page.height / 4
            mean, worst = differences(page, blanked)
            assert mean < MEAN_BOUND          # the whole-image average alone misses it
            assert worst >= TILE_BOUND        # the tile bound does not
    pdf.close()


def test_a_second_export_replaces_the_folder_and_drops_stale_files(tmp_path):
    game = small_game(tmp_path / "g", [("Alpha", "resource", 1, "", ""), ("Beta", "resource", 2, "", "")])
    folder = export(game, tmp_path / "out", "--dpi", "36")
    assert (folder / "02-beta-x2.png").exists()
    small_game(tmp_path / "g2", [("Alpha", "resource", 3, "", "")])
    for file in ("cards.csv",):
        (game / file).write_bytes((tmp_path / "g2" / file).read_bytes())
    export(game, tmp_path / "out", "--dpi", "36")
    assert sorted(p.name for p in folder.iterdir()) == ["01-alpha-x3.png", "back.png", "manifest.json"]
    assert not [p for p in folder.parent.iterdir() if p.name.startswith(".")]


def test_a_failed_export_leaves_the_previous_one_untouched(game, tmp_path):
    folder = export(game, tmp_path / "out", "--dpi", "36")
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    with open(game / "cards.csv", "a", encoding="utf-8") as fh:
        fh.write("Broken,bid,none,,,,\n")
    result = run("export", game, "--format", "png", "--out", tmp_path / "out", "--dpi", "36")
    assert result.exit_code == 2
    assert result.output.startswith("Error: ") and "cards.csv" in result.output
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
