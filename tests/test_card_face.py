"""The built-in face: where things go, and how long names and texts make room for themselves."""

from __future__ import annotations

import json

import pdfplumber
import pytest

from kitgen.data.art_files import ArtLibrary
from kitgen.data.game import load_game
from kitgen.render.card import CardPainter
from kitgen.units import card_size
from tests.conftest import run


def _painter(game, size: str) -> CardPainter:
    card = card_size(size)
    return CardPainter(game, card.width, card.height, 0.0, ArtLibrary.for_game(game), "cards.csv")


@pytest.mark.parametrize("size", ["poker", "mini", "tarot", "square"])
def test_face_boxes_stay_inside_the_panel_and_apart(size):
    game = load_game("temple-of-inscriptions")          # cards with a value, a text and art
    boxes = _painter(game, size).boxes(game.cards[1])      # a name that fits between the corners
    panel = boxes["panel"]
    parts = ["corner", "corner_turned", "title", "art", "text", "type"]
    for name in parts:
        assert panel.contains(boxes[name]), name
    for i, a in enumerate(parts):
        for b in parts[i + 1:]:
            assert not boxes[a].overlaps(boxes[b]), (a, b)
    title = boxes["title"]
    assert title.x + title.w / 2 == pytest.approx(panel.x + panel.w / 2)   # centred between the corners


def _build(altun_copy, tmp_path, rows: str, *options: str) -> list[dict]:
    """Build a copy of Altun Ha holding only these cards.csv rows; returns the manifest's cards."""
    (altun_copy / "cards.csv").write_text("name,type,count,value,text,art\n" + rows, encoding="utf-8")
    toml = altun_copy / "game.toml"   # the plain rulebook: Altun Ha's own names cards this deck lacks
    toml.write_text(toml.read_text(encoding="utf-8").replace('rulebook = "rules.md.j2"', ""), encoding="utf-8")
    result = run("build", altun_copy, "--out", tmp_path, *options)
    assert result.exit_code == 0, result.output
    return json.loads((tmp_path / "altun-ha" / "manifest.json").read_text())["cards"]


def _faces(altun_copy, tmp_path, rows: str):
    """Per card: (height of its art, smallest body-text size) as read from the PDF."""
    cards = _build(altun_copy, tmp_path, rows)
    out = {}
    with pdfplumber.open(tmp_path / "altun-ha" / "cards.pdf") as doc:
        page = doc.pages[0]
        H = float(page.height)
        for c in cards:
            x0, y0, x1, y1 = c["front"]["box"]
            inside = lambda o: x0 <= o["x0"] and o["x1"] <= x1 and y0 <= H - o["bottom"] and H - o["top"] <= y1
            images = [im for im in page.images if inside(im)]
            body = [ch for ch in page.chars if inside(ch) and ch["fontname"].endswith("DejaVuSans")]
            out[c["name"]] = (images[0]["height"], min(ch["size"] for ch in body))
    return out


def test_long_text_takes_room_from_the_art_before_shrinking(altun_copy, tmp_path):
    long_text = "Draw three cards, then give one card to the player on your left. " * 4
    faces = _faces(altun_copy, tmp_path, f"Short,trade,1,,Gain 5 points.,stone.png\n"
                                         f"Long,trade,1,,\"{long_text}\",stone.png\n")
    short_art, short_font = faces["Short"]
    long_art, long_font = faces["Long"]
    assert long_art < short_art * 0.9          # the art gave up room
    assert long_font >= 8.0 - 0.01             # and the text stayed at a comfortable size
    assert short_font > long_font


def test_long_name_reaches_into_the_free_corner(altun_copy, tmp_path):
    # on a mini card "Stairway Stones" is too wide for the box centred between the corners, even at 7 pt
    card = _build(altun_copy, tmp_path, "Stairway Stones,bid,1,1,,plaza.png\n", "--card-size", "mini")[0]
    x0, y0, x1, y1 = card["front"]["box"]
    with pdfplumber.open(tmp_path / "altun-ha" / "cards.pdf") as doc:
        words = [w for w in doc.pages[0].extract_words() if w["text"] == "Stones"]
    assert len(words) == 1 and words[0]["x1"] <= x1
    assert words[0]["x1"] > x0 + (x1 - x0) * 0.8     # past the centred name box


@pytest.mark.parametrize("size", ["mini", "poker", "tarot"])
def test_a_long_name_shrinks_to_the_same_floor_at_every_size_then_wraps(altun_copy, tmp_path, size):
    # the one-line floor is 7 pt whatever the card size, so a larger card always gives a name more room
    name = "The Great Temple Of The Jaguar Priests"
    _build(altun_copy, tmp_path, f"{name},trade,1,,Gain 5 points.,stone.png\n", "--card-size", size)
    with pdfplumber.open(tmp_path / "altun-ha" / "cards.pdf") as doc:
        page = doc.pages[0]
        words = [w for w in page.extract_words(extra_attrs=["size"]) if w["text"] in ("Great", "Priests")]
    sizes = {round(w["size"], 2) for w in words}
    tops = {w["text"]: w["top"] for w in words}
    assert len(sizes) == 1 and min(sizes) >= 6.0 - 0.01
    if tops["Priests"] > tops["Great"] + 3:        # two lines: only because one line needed less than 7 pt
        assert min(sizes) < 15
