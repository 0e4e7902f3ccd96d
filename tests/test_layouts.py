"""Card layouts as data, read back from the PDF: texts in their boxes, colours from columns where the
layout puts them, icons inline, equal titles when asked, and each card's own back behind its front.

The games are the examples of docs/layouts.md (docs/examples/), built once per test module.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pdfplumber
import pypdfium2 as pdfium
import pytest

from kitgen.data.art_files import ArtLibrary
from kitgen.data.game import load_game
from kitgen.render.card import CardPainter
from kitgen.units import card_size
from tests.conftest import REPO, run
from tests.pdfcheck import norm, words_by_page
from tests.pdfium_read import page_texts
from tests.plumber_once import Opened
from tests.sheets import layout_box

EXAMPLES = REPO / "docs" / "examples"
KITCHEN, STARS = EXAMPLES / "kitchen-rivals", EXAMPLES / "star-exchange"


def _build(game: Path, out: Path, *options: str) -> Path:
    result = run("build", game, "--out", out, *options)
    assert result.exit_code == 0, result.output
    return out / load_game(game).slug


@pytest.fixture(scope="module")
def kitchen(tmp_path_factory) -> Path:
    """The Kitchen Rivals kit, built once."""
    return _build(KITCHEN, tmp_path_factory.mktemp("kitchen"))


plumbed = Opened()              # a kit's cards.pdf opened once a module: each page parsed once
_close_plumbed = plumbed.closing()


@pytest.fixture(scope="module")
def kitchen_boxes() -> dict[int, dict]:
    """Kitchen Rivals' boxes on every card, worked out once (the tests only read them)."""
    return _boxes(KITCHEN)


def _boxes(game_path: Path, back: bool = False) -> dict[int, dict]:
    """Card row -> box name -> Rect of the built-in size, as the painter places them."""
    game = load_game(game_path)
    size = card_size(game.card_size)
    painter = CardPainter(game, size.width, size.height, 0.0, ArtLibrary.for_game(game), "cards")
    return {card.row: painter.boxes(card, back) for card in game.cards}


def _words_in(words, box, origin) -> str:
    """The letters of the words whose centre lies in ``box`` (card coordinates) of the card at ``origin``."""
    x0, y0 = origin
    inside = [t for t, cx, cy in words
              if box.x - 0.5 <= cx - x0 <= box.x1 + 0.5 and box.y - 0.5 <= cy - y0 <= box.y1 + 0.5]
    return "".join(inside)


def test_each_box_text_lies_inside_its_box(kitchen, kitchen_boxes):
    manifest = json.loads((kitchen / "manifest.json").read_text())
    words = words_by_page(kitchen / "cards.pdf")
    boxes = kitchen_boxes
    game = load_game(KITCHEN)
    by_row = {c.row: c for c in game.cards}
    checked = 0
    for copy in manifest["cards"]:
        card, (x0, y0, _, _) = by_row[copy["row"]], copy["front"]["box"]
        page, box = words[copy["front"]["page"]], boxes[copy["row"]]
        expected = {"title": card.name, "kind": card.fields["Kind"], "time": card.fields["Time"],
                    "cuisine": card.fields["Cuisine"], "tags": card.fields["Tags"].replace(",", "")}
        for name, text in expected.items():
            if text:
                assert norm(text) in _words_in(page, box[name], (x0, y0)), (card.name, name)
                checked += 1
        first_word = norm(card.text.split()[0])
        assert _words_in(page, box["rules"], (x0, y0)).startswith(first_word), card.name
    assert checked > 60


def _pixels(pdf: Path, page: int, scale: float = 2.0):
    document = pdfium.PdfDocument(str(pdf))
    image = document[page - 1].render(scale=scale).to_pil().convert("RGB")
    height = document[page - 1].get_height()
    document.close()
    return lambda x, y: image.getpixel((round(x * scale), round((height - y) * scale)))


def _hex(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


def test_colours_from_columns_appear_where_the_layout_puts_them(kitchen, kitchen_boxes):
    manifest = json.loads((kitchen / "manifest.json").read_text())
    boxes = kitchen_boxes
    game = load_game(KITCHEN)
    by_row = {c.row: c for c in game.cards}
    pixel = _pixels(kitchen / "cards.pdf", 1)
    seen = set()
    for copy in (c for c in manifest["cards"] if c["front"]["page"] == 1):
        card, (x0, y0, _x1, y1) = by_row[copy["row"]], copy["front"]["box"]
        frame = _hex(card.fields["Frame"])
        assert all(abs(a - b) <= 3 for a, b in zip(pixel(x0 + 2.0, (y0 + y1) / 2), frame)), card.name
        disc = boxes[copy["row"]]["time_disc"]
        if card.fields["Time Colour"]:       # the disc's colour, sampled left of the number it holds
            got = pixel(x0 + disc.x + disc.w * 0.18, y0 + disc.y + disc.h / 2)
            assert all(abs(a - b) <= 3 for a, b in zip(got, _hex(card.fields["Time Colour"]))), card.name
        seen.add(card.fields["Frame"])
    assert len(seen) >= 2                    # cards of different colours were sampled


def test_icons_are_drawn_inline_on_the_baseline_at_the_text_size(kitchen):
    page = plumbed(kitchen / "cards.pdf").pages[0]
    h = float(page.height)
    icons = [im for im in page.images if im["height"] < 20]
    assert icons, "no icon on the first page"
    lines = {}
    for ch in page.chars:
        lines.setdefault(round(ch["matrix"][5], 1), []).append(ch)
    inline = 0
    for im in icons:
        bottom = h - im["bottom"]
        for baseline, chars in lines.items():
            same_line = [c for c in chars if abs(c["top"] - im["top"]) < im["height"] * 1.5]
            if abs(bottom - baseline) < 0.05 and same_line:
                assert im["height"] == pytest.approx(same_line[0]["size"], abs=0.05)
                inline += 1
                break
    assert inline >= 3        # the rules texts' :taste:, :favor: and :time: stand on their lines


def test_one_title_size_for_the_deck_when_the_layout_asks(kitchen, kitchen_boxes, tmp_path):
    def title_sizes(kit: Path, game_path: Path, boxes: dict[int, dict]) -> dict[str, set]:
        manifest = json.loads((kit / "manifest.json").read_text())
        game = load_game(game_path)
        by_row = {c.row: c for c in game.cards}
        sizes: dict[str, set] = {}
        doc = plumbed(kit / "cards.pdf")
        for copy in manifest["cards"]:
            page = doc.pages[copy["front"]["page"] - 1]
            x0, y0 = copy["front"]["box"][:2]
            box = boxes[copy["row"]]["title"]
            chars = [c for c in page.chars if box.x <= c["x0"] - x0 and c["x1"] - x0 <= box.x1 + 0.5
                     and box.y <= page.height - c["bottom"] - y0 + 3 and page.height - c["top"] - y0 <= box.y1 + 3]
            sizes.setdefault(by_row[copy["row"]].name, set()).update(round(c["size"], 2) for c in chars)
        return sizes

    sizes = title_sizes(kitchen, KITCHEN, kitchen_boxes)
    one_line = {name: s for name, s in sizes.items() if not name.startswith("Family")}
    assert len(set().union(*one_line.values())) == 1            # every title at one size
    assert max(sizes["Family Recipe Notebook Of The Old Harbour Inn"]) < min(next(iter(one_line.values())))

    copy = shutil.copytree(KITCHEN, tmp_path / "game")         # the same deck without same_size
    layouts = copy / "layouts.toml"
    text = layouts.read_text(encoding="utf-8")
    assert "same_size = true, " in text
    layouts.write_text(text.replace("same_size = true, ", ""), encoding="utf-8")
    free = title_sizes(_build(copy, tmp_path / "out"), copy, _boxes(copy))
    assert len(set().union(*(s for n, s in free.items() if not n.startswith("Family")))) > 1


@pytest.mark.parametrize("options", [("--duplex", "long"), ("--duplex", "short"), ("--layout", "gutterfold")])
def test_each_card_has_its_own_back_behind_its_front(tmp_path, options):
    kit = _build(STARS, tmp_path, *options)
    manifest = json.loads((kit / "manifest.json").read_text())
    words = words_by_page(kit / "cards.pdf")
    game = load_game(STARS)
    by_row = {c.row: c for c in game.cards}
    for copy in manifest["cards"]:
        card = by_row[copy["row"]]
        front, back = copy["front"], copy["back"]
        inside = lambda page, box: [t for t, cx, cy in words[page]
                                    if box[0] <= cx <= box[2] and box[1] <= cy <= box[3]]
        front_words, back_words = inside(front["page"], front["box"]), inside(back["page"], back["box"])
        assert norm(card.name.split()[0]) in front_words
        assert norm(card.fields["Back Name"].split()[0]) in back_words, (card.name, options)   # names are unique


def test_print_shop_png_and_tts_give_every_card_its_own_back(tmp_path):
    game = load_game(STARS)
    result = run("export", STARS, "--format", "print-shop", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    texts = [norm(text) for text in page_texts(tmp_path / "star-exchange" / "print-shop.pdf")]
    assert len(texts) == 2 * game.deck_size
    for i, card in enumerate(game.cards):        # one copy of each card: front, then its back
        assert norm(card.name) in texts[2 * i] and norm(card.fields["Back Name"]) in texts[2 * i + 1]

    assert run("export", STARS, "--format", "png", "--out", tmp_path, "--dpi", "40").exit_code == 0
    names = sorted(p.name for p in (tmp_path / "star-exchange" / "png").glob("*.png"))
    assert len(names) == 2 * len(game.cards) and "back.png" not in names
    assert all(f"{n[:-4]}-back.png" in names for n in names if not n.endswith("-back.png"))

    assert run("export", STARS, "--format", "tts", "--out", tmp_path, "--dpi", "40").exit_code == 0
    folder = tmp_path / "star-exchange" / "tts"
    deck = json.loads((folder / "star-exchange.json").read_text())["ObjectStates"][0]
    entry = deck["CustomDeck"]["1"]
    assert entry["UniqueBack"] is True and entry["BackURL"].endswith("star-exchange-backs-1.png")
    from PIL import Image

    with Image.open(folder / "star-exchange-sheet-1.png") as faces, Image.open(folder / "star-exchange-backs-1.png") as backs:
        assert faces.size == backs.size          # the backs sheet has the faces' grid


def test_a_deck_with_one_back_keeps_one_back_image(tmp_path):
    assert run("export", KITCHEN, "--format", "png", "--out", tmp_path, "--dpi", "40").exit_code == 0
    names = [p.name for p in (tmp_path / "kitchen-rivals" / "png").iterdir()]
    assert "back.png" in names and not any(n.endswith("-back.png") for n in names)


def test_icons_also_show_in_the_rulebook_card_tables(kitchen):
    with pdfplumber.open(kitchen / "rules.pdf") as doc:
        icons = [im for page in doc.pages for im in page.images]
        text = "".join(page.extract_text() for page in doc.pages)
    assert len(icons) >= 8                       # :taste:, :favor: and :time: of the effect column
    assert all(im["height"] == pytest.approx(9.0, abs=0.01) for im in icons)   # the table's type size
    assert ":taste:" not in text and "*A good cook shops first.*" in text     # the rest prints as written


def test_a_column_or_a_type_picks_each_card_its_layout(tmp_path):
    from tests.test_layout_errors import layout_game

    sheet = "Name,Kind,Look,Shade\nEmber,spell,,#aa3322\nFrost,spell,kitgen,#3366aa\nStone,relic,,#777777\n"
    folder = layout_game(tmp_path / "g", sheet=sheet, toml='[columns]\ntype = "Kind"\nface = "Look"\n'
                         '[types.relic]\nlabel = "Relic"\ncolor = "#555555"\nface = "kitgen"\n')
    boxes = _boxes(folder)
    assert set(boxes[2]) == {"ground", "title"}         # the game's face: its own layout
    assert "panel" in boxes[3] and "panel" in boxes[4]  # kitgen's face, named by the row and by the type


def test_backgrounds_reach_into_the_bleed_and_art_is_not_scaled_to_fill_it(kitchen, tmp_path):
    plain, bled = kitchen, _build(KITCHEN, tmp_path / "bled", "--bleed", "3")      # the module's kit: no bleed
    card = load_game(KITCHEN).cards[0]
    copy = json.loads((bled / "manifest.json").read_text())["cards"][0]
    x0, y0, x1, y1 = copy["front"]["box"]
    pixel = _pixels(bled / "cards.pdf", 1)
    frame = _hex(card.fields["Frame"])
    assert all(abs(a - b) <= 3 for a, b in zip(pixel(x0 - 1.5 * 72 / 25.4, (y0 + y1) / 2), frame))
    sizes = []
    for kit in (plain, bled):
        first = json.loads((kit / "manifest.json").read_text())["cards"][0]["front"]
        x0, y0, x1, y1 = first["box"]
        page = plumbed(kit / "cards.pdf").pages[first["page"] - 1]
        sizes.append(sorted(tuple(sorted((round(im["width"], 2), round(im["height"], 2))))  # cards may turn
                            for im in page.images
                            if x0 <= (im["x0"] + im["x1"]) / 2 <= x1
                            and y0 <= page.height - (im["top"] + im["bottom"]) / 2 <= y1))
    assert sizes[0] and sizes[0] == sizes[1]             # every picture as large with bleed as without


def test_the_served_preview_shows_each_cards_own_back(tmp_path):
    from kitgen.web.preview import draw_cards

    preview = draw_cards(str(STARS), [])
    assert len(preview["backs"]) == len(preview["cards"]) == len(load_game(STARS).cards)
    assert len(set(preview["backs"])) == len(preview["backs"]) and preview["back"] == preview["backs"][0]
    faces = {card["picture"] for card in preview["cards"]}
    assert set(preview["pictures"]) == faces | set(preview["backs"])      # every back drawn, as every face
    assert draw_cards(str(KITCHEN), [])["backs"] == []                    # one back for the whole deck


def test_random_picks_and_lipsum_are_the_same_in_every_build_and_still_vary_by_card(tmp_path):
    copy = shutil.copytree(KITCHEN, tmp_path / "game")
    layouts = copy / "layouts.toml"
    motto = "{{ ['Ash', 'Basil', 'Clove', 'Dill', 'Elder', 'Fennel'] | random }} {{ lipsum(1, false, 3, 4) }}"
    layouts.write_text(layouts.read_text(encoding="utf-8") + "\n" + layout_box(
        "dish", "motto", motto, x="10mm", y="40mm", w="100% - 20mm", h="12mm", size="6pt"), encoding="utf-8")
    first = _build(copy, tmp_path / "one")
    second = _build(copy, tmp_path / "two")
    assert (first / "cards.pdf").read_bytes() == (second / "cards.pdf").read_bytes()
    game = load_game(copy)
    size = card_size(game.card_size)
    painter = CardPainter(game, size.width, size.height, 0.0, ArtLibrary.for_game(game), "cards")
    mottos = [next(d.content for d in painter._face(card) if d.box.name == "motto") for card in game.cards]
    assert len({m.split()[0] for m in mottos}) > 2                 # the pick depends on the card
    assert len({m.split(" ", 1)[1] for m in mottos}) == 1          # lipsum only on its arguments
    again = CardPainter(game, size.width, size.height, 0.0, ArtLibrary.for_game(game), "cards")
    assert [next(d.content for d in again._face(card) if d.box.name == "motto") for card in game.cards] == mottos
