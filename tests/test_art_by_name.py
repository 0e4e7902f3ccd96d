"""Art named as designers name it: a file name, a path in art/, a web address, any case, no ending."""

from __future__ import annotations

import json

import pdfplumber
import pytest
from PIL import Image

from kitgen.data.art_files import ArtLibrary, art_name
from kitgen.data.game import load_game
from kitgen.errors import GameDataError
from kitgen.render.card import CardPainter
from kitgen.units import card_size
from tests.conftest import run
from tests.sheets import game_folder


def _png(path, colour=(200, 40, 40)):
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (40, 30), colour).save(path)


@pytest.mark.parametrize("value, name", [
    ("https://raw.example.org/game/assets/card-art/v1/five_stars.png", "five_stars.png"),
    ("https://example.org/art/Caf%C3%A9%20Menu.png?raw=true", "Café Menu.png"),
    ("www.example.org/art/order.jpg", "order.jpg"),
    ("monsters\\goblin.png", "monsters/goblin.png"),
    ("goblin.png", "goblin.png"),
])
def test_an_art_value_names_a_file_in_the_art_folder(value, name):
    assert art_name(value) == name


def test_art_is_found_by_path_case_or_without_its_ending(tmp_path):
    for rel in ("Bot-A-Pult.png", "monsters/goblin.jpg", "order.png"):
        _png(tmp_path / "art" / rel)
    library = ArtLibrary(tmp_path / "art")
    assert library.find("bot-a-pult", "w").name == "Bot-A-Pult.png"            # no ending, other case
    assert library.find("monsters/goblin.jpg", "w").name == "goblin.jpg"
    assert library.find(art_name("https://example.org/x/order.png"), "w").name == "order.png"
    assert library.find("dragon", "cards.csv, row 9, column 'Image'") is None
    assert library.warnings == ["cards.csv, row 9, column 'Image': art file 'dragon' (as .png, .jpg or .jpeg) "
                                "not found in art/; drawing a placeholder"]
    # a sheet written for SVG or GIF art: its PNG export of the same name is drawn, the sheet left as it is
    _png(tmp_path / "art" / "icons" / "cartels.png")
    assert library.find("icons/cartels.svg", "w").name == "cartels.png"
    assert library.find("default.svg", "cards.csv, row 2, column 'Image'") is None
    assert library.warnings[-1] == ("cards.csv, row 2, column 'Image': art file 'default.svg' (as default.png, .jpg "
                                    "or .jpeg: kitgen draws PNG or JPEG art) not found in art/; drawing a placeholder")
    (tmp_path / "art" / "dragon.gif").write_bytes(b"GIF89a")
    with pytest.raises(GameDataError, match="'dragon.gif' is a GIF file; kitgen draws PNG or JPEG art: export it "
                                            "as dragon.png into art/"):
        library.find("dragon.gif", "w")


def test_web_addresses_use_the_art_folder_and_a_missing_one_is_named(tmp_path):
    sheet = ("Name,Artwork\n"
             "Stars,https://example.org/art/v1/five_stars.png\n"
             "Menu,https://example.org/art/v1/algorithmic_menu.png\n")
    folder = game_folder(tmp_path / "g", sheet, toml='[columns]\nart = "Artwork"\n')
    _png(folder / "art" / "five_stars.png")
    result = run("build", folder, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.output.splitlines() if line.startswith("Warning:")]
    assert len(warnings) == 1
    assert "row 3, column 'Artwork'" in warnings[0] and "'algorithmic_menu.png' not found in art/" in warnings[0]
    kit = tmp_path / "out" / "sheet-game"
    cards = json.loads((kit / "manifest.json").read_text())["cards"]
    with pdfplumber.open(kit / "cards.pdf") as doc:
        page = doc.pages[0]
        height = float(page.height)
        centres = [((im["x0"] + im["x1"]) / 2, height - (im["top"] + im["bottom"]) / 2) for im in page.images]
        text = page.extract_text()
    inside = lambda box, x, y: box[0] <= x <= box[2] and box[1] <= y <= box[3]
    assert any(inside(cards[0]["front"]["box"], x, y) for x, y in centres)       # the picture is drawn
    assert not any(inside(cards[1]["front"]["box"], x, y) for x, y in centres)
    assert "art missing: algorithmic_menu.png" in text


def test_a_long_placeholder_label_stays_inside_the_art_box(tmp_path):
    long_name = "a_very_long_descriptive_file_name_for_the_picture_of_this_card_in_the_first_deck.png"
    folder = game_folder(tmp_path / "g", f"Name,Art\nStars,{long_name}\n")
    assert run("build", folder, "--out", tmp_path / "out", "--card-size", "mini").exit_code == 0
    kit = tmp_path / "out" / "sheet-game"
    x0, y0, x1, y1 = json.loads((kit / "manifest.json").read_text())["cards"][0]["front"]["box"]
    size = card_size("mini")
    game = load_game(folder)
    art = CardPainter(game, size.width, size.height, 0.0, ArtLibrary.for_game(game), "cards").boxes(game.cards[0])["art"]
    with pdfplumber.open(kit / "cards.pdf") as doc:
        page = doc.pages[0]
        label = [ch for ch in page.chars if ch["size"] < 5 and x0 <= ch["x0"] <= x1 and y0 <= page.height - ch["top"]]
    text = "".join(ch["text"] for ch in label)
    assert text.startswith("art missing: a_very") and text.endswith("deck.png") and "\u2026" in text
    assert all(x0 + art.x <= ch["x0"] and ch["x1"] <= x0 + art.x1 for ch in label)
