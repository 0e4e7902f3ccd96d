"""kitgen export --format tts: sheet grids within the simulator's limits and a saved object matching the data."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image

from kitgen.data.builtin import builtin_dirs
from kitgen.layout.tts_grid import plan_sheets
from tests.conftest import csv_cards, run, small_game


def load(folder: Path, slug: str) -> dict:
    data = json.loads((folder / f"{slug}.json").read_text(encoding="utf-8"))
    (deck,) = data["ObjectStates"]
    return deck


def file_of(url: str, folder: Path) -> Path:
    assert url.startswith("file://")
    path = Path(url[len("file://"):])
    assert path.parent == folder.resolve()
    return path


@pytest.fixture(scope="module")
def altun_tts(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("tts")
    result = run("export", "altun-ha", "--format", "tts", "--out", out)
    assert result.exit_code == 0, result.output
    return out / "altun-ha" / "tts"


def test_saved_object_has_every_copy_with_its_name(altun_tts):
    deck = load(altun_tts, "altun-ha")
    expected = Counter(dict(csv_cards(builtin_dirs("altun-ha")[0])))
    assert deck["Name"] == "Deck"
    assert len(deck["DeckIDs"]) == sum(expected.values()) == 80
    assert Counter(card["Nickname"] for card in deck["ContainedObjects"]) == expected
    assert [card["CardID"] for card in deck["ContainedObjects"]] == deck["DeckIDs"]


def test_sheet_grid_matches_the_image_and_the_limits(altun_tts):
    deck = load(altun_tts, "altun-ha")
    for key, sheet in deck["CustomDeck"].items():
        assert sheet["NumWidth"] <= 10 and sheet["NumHeight"] <= 7
        with Image.open(file_of(sheet["FaceURL"], altun_tts)) as im:
            assert im.mode == "RGB"
            assert max(im.size) <= 4096
            assert im.width % sheet["NumWidth"] == 0 and im.height % sheet["NumHeight"] == 0
            cell_w, cell_h = im.width // sheet["NumWidth"], im.height // sheet["NumHeight"]
            assert cell_w / cell_h == pytest.approx(63.5 / 88.9, abs=0.01)
            used = {cid % 100 for cid in deck["DeckIDs"] if cid // 100 == int(key)}
            # every slot a card refers to holds a face; the unused slots are blank
            for slot in range(sheet["NumWidth"] * sheet["NumHeight"]):
                x, y = (slot % sheet["NumWidth"]) * cell_w, (slot // sheet["NumWidth"]) * cell_h
                # more than 50 colours: Pillow gives up counting past maxcolors and answers None
                colours = im.crop((x, y, x + cell_w, y + cell_h)).getcolors(maxcolors=50)
                assert (colours is None) == (slot in used), slot
        with Image.open(file_of(sheet["BackURL"], altun_tts)) as back:
            assert back.size == (cell_w, cell_h)


def test_card_ids_point_at_the_right_faces(altun_tts):
    """A card's slot is its position in the data: row order, first sheet first."""
    deck = load(altun_tts, "altun-ha")
    names = [name for name, _ in csv_cards(builtin_dirs("altun-ha")[0])]
    for card in deck["ContainedObjects"]:
        assert names[card["CardID"] % 100] == card["Nickname"]


def test_large_deck_uses_several_sheets_and_a_base_url(tmp_path):
    rows = [(f"Card {i:02d}", "resource", 1 + i % 2, "", "") for i in range(75)]
    game = small_game(tmp_path / "big", rows)
    result = run("export", game, "--format", "tts", "--out", tmp_path / "out", "--dpi", "36",
                 "--base-url", "https://example.org/decks/")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "out" / "export-test" / "tts"
    deck = load(folder, "export-test")
    assert sorted(deck["CustomDeck"]) == ["1", "2"]
    assert len(deck["DeckIDs"]) == sum(1 + i % 2 for i in range(75))
    per_sheet = Counter(cid // 100 for cid in set(deck["DeckIDs"]))
    assert sum(per_sheet.values()) == 75 and max(per_sheet.values()) <= 69
    for key, sheet in deck["CustomDeck"].items():
        assert sheet["FaceURL"] == f"https://example.org/decks/export-test-sheet-{key}.png"
        with Image.open(folder / f"export-test-sheet-{key}.png") as im:
            assert im.width % sheet["NumWidth"] == 0 and im.height % sheet["NumHeight"] == 0
    assert Counter(c["Nickname"] for c in deck["ContainedObjects"]) == Counter(
        {name: count for name, _, count, _, _ in rows})


@pytest.mark.parametrize("count", [1, 2, 26, 69, 70, 140, 500])
@pytest.mark.parametrize("card", [(180.0, 252.0), (198.4, 340.2), (116.2, 178.6)])
def test_planned_sheets_respect_the_simulator_limits(count, card):
    sheets = plan_sheets(count, *card, dpi=300)
    assert sum(s.count for s in sheets) == count
    assert [s.first for s in sheets] == [sum(t.count for t in sheets[:i]) for i in range(len(sheets))]
    for s in sheets:
        assert 2 <= s.cols <= 10 and 2 <= s.rows <= 7
        assert s.count <= min(69, s.cols * s.rows)
        assert max(s.width, s.height) <= 4096
        assert s.cell_w <= round(card[0] / 72 * 300) and s.cell_h <= round(card[1] / 72 * 300)
        assert s.cell_w / s.cell_h == pytest.approx(card[0] / card[1], rel=0.01)
