"""Card faces: where things go, and how long names and texts make room for themselves."""

from __future__ import annotations

import json

import pdfplumber
import pytest

from kitgen.layout.card_face import ART_SHARES, face_layout
from kitgen.units import card_size
from tests.conftest import run


@pytest.mark.parametrize("size", ["poker", "mini", "tarot", "square"])
def test_face_boxes_stay_inside_the_panel_and_apart(size):
    card = card_size(size)
    lay = face_layout(card.width, card.height, has_value=True, has_text=True)
    boxes = [lay.corner_top, lay.corner_bottom, lay.name, lay.art, lay.text, lay.type_line]
    for box in boxes + [lay.name_wide]:
        assert lay.panel.contains(box), box
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not a.overlaps(b), (a, b)
    assert lay.name.x + lay.name.w / 2 == pytest.approx(lay.panel.x + lay.panel.w / 2)   # centred
    assert not lay.name_wide.overlaps(lay.corner_top)


def test_a_smaller_art_share_gives_the_text_more_room():
    card = card_size("poker")
    layouts = [face_layout(card.width, card.height, True, True, share) for share in ART_SHARES]
    art_heights = [lay.art.h for lay in layouts]
    text_heights = [lay.text.h for lay in layouts]
    assert art_heights == sorted(art_heights, reverse=True) and len(set(art_heights)) == len(ART_SHARES)
    assert text_heights == sorted(text_heights) and len(set(text_heights)) == len(ART_SHARES)


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
    # on a mini card "Foundation Stones" is too wide for the box centred between the corners
    card = _build(altun_copy, tmp_path, "Foundation Stones,bid,1,1,,plaza.png\n", "--card-size", "mini")[0]
    x0, y0, x1, y1 = card["front"]["box"]
    with pdfplumber.open(tmp_path / "altun-ha" / "cards.pdf") as doc:
        words = [w for w in doc.pages[0].extract_words() if w["text"] == "Stones"]
    assert len(words) == 1 and words[0]["x1"] <= x1
    assert words[0]["x1"] > x0 + (x1 - x0) * 0.8     # past the centred name box
