"""kitgen export --format contact-sheet: one labelled picture of every face and the back."""

from __future__ import annotations

import csv

import pytest
from PIL import Image

from kitgen.data.builtin import builtin_dirs, builtin_games
from kitgen.data.game import load_game
from kitgen.layout.contact_sheet import contact_layout
from tests.conftest import run, small_game


def hex_rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


@pytest.mark.parametrize("count", [1, 2, 6, 27, 61, 150])
def test_layout_cards_and_labels_stay_apart_and_inside(count):
    lay = contact_layout(count, 180.0, 252.0)
    assert len(lay.cards) == len(lay.labels) == count
    assert lay.cols <= 10 and lay.cols * lay.rows >= count
    boxes = list(lay.cards) + list(lay.labels) + [lay.header]
    for i, a in enumerate(boxes):
        assert 0 <= a.x and a.x1 <= lay.width and 0 <= a.y and a.y1 <= lay.height
        for b in boxes[i + 1:]:
            assert not a.overlaps(b)
    for card, label in zip(lay.cards, lay.labels):
        assert label.y1 == pytest.approx(card.y) and label.x == card.x


def test_every_face_sits_in_its_box_in_deck_order_then_the_back(tmp_path):
    game_dir = small_game(tmp_path / "g")
    dpi = 60
    result = run("export", game_dir, "--format", "contact-sheet", "--out", tmp_path / "out", "--dpi", str(dpi))
    assert result.exit_code == 0, result.output
    game = load_game(game_dir)
    lay = contact_layout(len(game.cards) + 1, 180.0, 252.0)
    with Image.open(tmp_path / "out" / "export-test" / "contact-sheet.png") as im:
        assert im.mode == "RGB"
        assert im.info["dpi"] == pytest.approx((dpi, dpi), abs=0.03)
        assert im.size == (round(lay.width / 72 * dpi), round(lay.height / 72 * dpi))
        colours = [game.types[c.type].color for c in game.cards] + [game.back.color]
        for box, colour in zip(lay.cards, colours):
            # a point on the card's coloured frame, 1.5 mm inside the left edge, halfway up
            x = (box.x + 4.25) / 72 * dpi
            y = im.height - (box.y + box.h / 2) / 72 * dpi
            px = im.getpixel((int(x), int(y)))
            assert all(abs(a - b) <= 6 for a, b in zip(px, hex_rgb(colour))), (colour, px)


@pytest.mark.parametrize("slug", builtin_games())
def test_every_built_in_game_exports_a_contact_sheet(tmp_path, slug):
    data = builtin_dirs(slug)[0]
    with open(data / "cards.csv", encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    result = run("export", slug, "--format", "contact-sheet", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    assert f"({sum(int(r['count']) for r in rows)} cards, {len(rows)} faces)" in result.output
    with Image.open(tmp_path / slug / "contact-sheet.png") as im:
        assert im.mode == "RGB" and max(im.size) <= 8000
