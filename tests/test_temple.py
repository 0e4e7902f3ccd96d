"""The built-in Temple of Inscriptions kit: cards from the data, board and tiles, rulebook, print guarantees."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from collections import Counter

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from kitgen.data.builtin import builtin_dirs
from kitgen.data.game import load_game
from kitgen.layout.packing import content_area
from kitgen.layout.tiling import tile_board
from kitgen.render.aids.board import board_area
from kitgen.render.rulebook import render_rulebook
from kitgen.units import MM, paper_size
from tests.conftest import copy_builtin, run
from tests.pdfcheck import unembedded_fonts
from tests.pdfium_read import page_texts, strokes
from tests.pdfium_read import words as page_words

SLUG = "temple-of-inscriptions"
DATA, TEMPLATES, ART = builtin_dirs(SLUG)


def csv_counts() -> Counter:
    with open(DATA / "cards.csv", encoding="utf-8") as fh:
        return Counter({row["name"]: int(row["count"]) for row in csv.DictReader(fh)})


@pytest.fixture(scope="module")
def kits(built_kit):
    """The run's shared kits (read only here): default options (letter paper), and on A4."""
    return {"letter": built_kit(SLUG), "a4": built_kit(SLUG, "--paper", "a4")}


def test_the_deck_is_the_issue_default():
    counts = csv_counts()
    assert sum(counts.values()) == 75
    assert counts["Jade Jewel"] == 12
    construction = {n: c for n, c in counts.items() if n != "Jade Jewel"}
    assert len(construction) == 9 and set(construction.values()) == {7}


def test_card_counts_per_name_in_the_manifest_match_the_data(kits):
    for kit in kits.values():
        manifest = json.loads((kit / "manifest.json").read_text(encoding="utf-8"))
        assert Counter(c["name"] for c in manifest["cards"]) == csv_counts()
        assert sorted(p.name for p in kit.iterdir()) == ["aids.pdf", "cards.pdf", "manifest.json", "rules.pdf"]


def test_cards_are_poker_sized_with_backs_behind_fronts(kits):
    manifest = json.loads((kits["letter"] / "manifest.json").read_text(encoding="utf-8"))
    width, height = manifest["page_size"]
    for card in manifest["cards"]:
        x0, y0, x1, y1 = card["front"]["box"]
        assert (x1 - x0, y1 - y0) == (pytest.approx(63.5 * MM, abs=0.05), pytest.approx(88.9 * MM, abs=0.05))
        bx0, by0, bx1, by1 = card["back"]["box"]
        assert card["back"]["page"] == card["front"]["page"] + 1
        assert bx0 == pytest.approx(width - x1, abs=0.1) and by0 == pytest.approx(y0, abs=0.1)


def test_all_fonts_embedded(kits):
    for name in ("cards.pdf", "rules.pdf", "aids.pdf"):
        assert unembedded_fonts(kits["letter"] / name) == [], name


def test_rebuild_is_byte_identical(kits, tmp_path):
    result = run("build", SLUG, "--out", tmp_path)
    assert result.exit_code == 0, result.output
    for name in ("cards.pdf", "rules.pdf", "aids.pdf", "manifest.json"):
        assert hashlib.sha256((tmp_path / SLUG / name).read_bytes()).digest() == \
            hashlib.sha256((kits["letter"] / name).read_bytes()).digest(), name


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_aids_hold_the_board_in_parts_then_the_tiles_inside_the_printable_area(kits, paper):
    page_size = paper_size(paper)
    tiling = tile_board(420 * MM, 297 * MM, board_area(page_size), 10 * MM)
    parts = len(tiling.parts)
    texts = page_texts(kits[paper] / "aids.pdf")
    board_pages = [i for i, t in enumerate(texts) if "Game board: part" in t]
    assert board_pages == list(range(parts))
    for part, i in zip(tiling.parts, board_pages):
        assert f"part {part.label} of {parts}" in texts[i]
    # tiles: 9 pyramid tiles and 90 treasure tiles, packed beside the board parts and after them,
    # inside the printable area, not overlapping
    area = content_area(page_size)
    boxes = []
    words = Counter()
    pdf = pdfium.PdfDocument(str(kits[paper] / "aids.pdf"))
    for number in range(len(pdf)):
        page = pdf[number]
        here = []
        for (x0, y0, x1, y1), colour, _, _ in strokes(page):
            w, h = (x1 - x0) / MM, (y1 - y0) / MM
            if (abs(w - 24) < 0.3 and abs(h - 24) < 0.3) or (abs(w - 54) < 0.3 and abs(h - 17) < 0.3):
                if max(colour) < 0.3 * 255:                          # the dark cut line
                    here.append((number, x0, y0, x1, y1))
        boxes += here
        for text, x0, y0, x1, y1 in page_words(page):                # the words printed on a tile
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            if any(b[1] < cx < b[3] and b[2] < cy < b[4] for b in here):
                words[text] += 1
    assert len(boxes) == 99
    for n, (pg, x0, y0, x1, y1) in enumerate(boxes):
        assert x0 >= area.x - 0.5 and x1 <= area.x1 + 0.5 and y0 >= area.y - 0.5 and y1 <= area.y1 + 0.5
        for pg2, a0, b0, a1, b1 in boxes[n + 1:]:
            assert pg != pg2 or not (x0 < a1 - 0.1 and a0 < x1 - 0.1 and y0 < b1 - 0.1 and b0 < y1 - 0.1)
    assert words["Level"] == 9
    # the treasure (30 x 1, 25 x 2, 35 x 5) and the numbers of "Level 1", "Level 2", "Level 5"
    assert (words["1"], words["2"], words["5"]) == (31, 26, 36)
    assert len(pdf) < 7          # fewer pages than when every kind of piece had pages of its own


def test_rulebook_carries_every_card_name_and_its_rulings(kits):
    text = "\n".join(p.extract_text() for p in PdfReader(kits["letter"] / "rules.pdf").pages)
    flat = " ".join(text.split())
    for name in csv_counts():
        assert name in flat, name
    # every ruling of game.toml, in its order: the rules engine's switches with the original's words and
    # every other reading's switch, and the plain texts about the pieces
    rulings = load_game(SLUG).rulings
    for n, (name, ruling) in enumerate(rulings.items(), start=1):
        if isinstance(ruling, str):
            assert flat.count(f"Playtest ruling {n}: {name.capitalize()}") == 1
            continue
        assert flat.count(f"Playtest ruling {n}: {ruling['title']}") == 1
        assert f'The original rules: "{" ".join(ruling["seed"].split())}"' in flat
        chosen = str(ruling["default"]).lower()
        for value in ruling["options"]:
            assert (f"(--set {name}={value})" in flat) == (value != chosen), (name, value)
    assert [int(n) for n in re.findall(r"Playtest ruling (\d+): ", flat)] == list(range(1, len(rulings) + 1))
    # the main text sends the reader to the ruling of each switch
    for name in ("scoring", "starting_hand", "turn_order", "empty_pile", "summoner_sets", "summon_refund",
                 "summon_needs_treasure", "one_construction", "ties", "deck", "treasure"):
        assert f"(Playtest ruling {list(rulings).index(name) + 1})" in flat, name
    # the playtest defaults are stated with the numbers of the data
    assert "7 construction cards for each of the 9 levels (63 cards) and 12 Jade Jewel cards: 75 cards" in flat
    assert "at most 5 x (1 + 2 + ... + 9) = 225 points" in flat
    assert "Example of play" in flat and "BEFORE" in flat and "AFTER" in flat
    for where in ("cards.csv", "game.toml"):
        assert where in flat


def test_the_rulebook_follows_a_ruling_switched_in_the_data(tmp_path):
    folder = copy_builtin(SLUG, tmp_path / "game")
    toml = folder / "game.toml"
    text = toml.read_text(encoding="utf-8")
    for old, new in (('default = "per_card"', 'default = "per_player"'), ('default = "rotate"', 'default = "fixed"')):
        text = text.replace(old, new)
    toml.write_text(text.replace('default = true\nreason = "The original says the summoner loses',
                                 'default = false\nreason = "The original says the summoner loses'), encoding="utf-8")
    # the rulebook alone, as a build draws it (on its default paper): the cards are not looked at here
    rules = render_rulebook(load_game(folder), paper_size("letter"))
    flat = " ".join("\n".join(p.extract_text() for p in PdfReader(io.BytesIO(rules)).pages).split())
    assert "L points of treasure, where L is the level just built, however many cards they set" in flat
    assert "Every phase of every round goes clockwise from that player" in flat
    assert "The summoner's point stays in the bank" in flat
    assert "(--set scoring=per_card)" in flat and "(--set summon_refund=true)" in flat


def test_kitgen_list_shows_the_game():
    result = run("list")
    assert result.exit_code == 0 and "Temple of Inscriptions" in result.output


def test_art_script_is_deterministic_and_complete(drawn_art):
    files = drawn_art(SLUG)
    named = {row["art"] for row in csv.DictReader(open(DATA / "cards.csv", encoding="utf-8"))}
    assert named | {"back.png", "treasure.png", "summon.png"} == set(files)
    for name, data in files.items():
        assert (ART / name).read_bytes() == data, f"{name} differs from what make_art.py draws"
        assert len(data) < 40_000
