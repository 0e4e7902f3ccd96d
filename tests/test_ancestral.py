"""The built-in game Ancestral: its kit read back, its rulebook, its table aids and its art."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import tomllib
from collections import Counter
from pathlib import Path

import pdfplumber
import pytest

from kitgen.data.builtin import builtin_dirs
from kitgen.data.game import load_game
from kitgen.render.rulebook import render_rulebook
from kitgen.units import MM, paper_size
from tests.conftest import aids_pdf, copy_builtin, run
from tests.pdfcheck import in_margin, norm, unembedded_fonts, words_by_page
from tests.pdfium_read import page_texts

SLUG = "ancestral"
DATA, TEMPLATES, ART = builtin_dirs(SLUG)
POKER = (63.5 * MM, 88.9 * MM)


def read_csv(folder: Path = DATA) -> list[dict[str, str]]:
    with open(folder / "cards.csv", encoding="utf-8-sig", newline="") as fh:
        return list(csv.DictReader(fh))


def read_toml(folder: Path = DATA) -> dict:
    return tomllib.loads((folder / "game.toml").read_text(encoding="utf-8"))


def deck_counts() -> Counter:
    return Counter({row["name"]: int(row["count"]) for row in read_csv()})


def flat(text: str) -> str:
    """Text with every run of white space made one space (lines of a PDF joined)."""
    return re.sub(r"\s+", " ", text)


def pdf_text(path_or_bytes) -> str:
    return flat(" ".join(page_texts(path_or_bytes)))


@pytest.fixture(scope="module")
def kit(built_kit) -> Path:
    """The run's shared kit (default options), read only here."""
    return built_kit(SLUG)


@pytest.fixture(scope="module")
def manifest(kit) -> dict:
    return json.loads((kit / "manifest.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def aids_pdfs() -> dict[str, bytes]:
    game = load_game(SLUG)
    return {paper: aids_pdf(game, paper) for paper in ("letter", "a4")}


# --- the deck ------------------------------------------------------------------------

def test_the_deck_is_the_default_mix_of_58_cards():
    counts = deck_counts()
    assert sum(counts.values()) == 58
    assert counts["Reference"] == 4
    for wind in ("Strong Wind", "Hot Wind", "Dry Wind"):
        assert counts[wind] == 8
    for protection in ("Quincha Defense", "Tree Curtain", "Water Shield"):
        assert counts[protection] == 5
    assert counts["South Breeze"] == 10
    assert counts["Hunuc-Huar Protection"] == 5
    assert len(counts) == 9


def test_card_counts_per_name_in_the_manifest_match_the_data(manifest):
    cards = manifest["cards"]
    assert len(cards) == 58
    assert Counter(c["name"] for c in cards) == deck_counts()
    for name, count in deck_counts().items():
        assert sorted(c["copy"] for c in cards if c["name"] == name) == list(range(1, count + 1))
    for c in cards:
        x0, y0, x1, y1 = c["front"]["box"]
        assert (x1 - x0, y1 - y0) == pytest.approx(POKER, abs=0.01)


def test_every_card_name_is_printed_inside_its_manifest_box(kit, manifest):
    words = words_by_page(kit / "cards.pdf")
    for card in manifest["cards"]:
        x0, y0, x1, y1 = card["front"]["box"]
        here = [t for t, cx, cy in words[card["front"]["page"]] if x0 <= cx <= x1 and y0 <= cy <= y1]
        for part in card["name"].split():
            assert norm(part) in here, f"{card['name']} copy {card['copy']}: {part!r} not in its box"


def test_backs_are_the_common_leaf_back(kit, manifest):
    toml = read_toml()
    back_pages = {c["back"]["page"] for c in manifest["cards"]}
    front_pages = {c["front"]["page"] for c in manifest["cards"]}
    assert not back_pages & front_pages
    with pdfplumber.open(kit / "cards.pdf") as pdf:
        for number in back_pages:
            page = pdf.pages[number - 1]
            text = page.extract_text()
            on_page = [c for c in manifest["cards"] if c["back"]["page"] == number]
            # every back carries the game's back title and no card name
            assert text.count(toml["back"]["title"]) == len(on_page)
            assert not any(name in text for name in deck_counts())
            assert page.images, "the leaf picture is drawn on the backs"


# --- the rulebook -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def rules_text(kit) -> str:
    return pdf_text(kit / "rules.pdf")


def test_rulebook_carries_every_card_name_and_the_numbers_of_the_rules(rules_text):
    text = rules_text
    for row in read_csv():
        assert row["name"] in text, row["name"]
        # ruling 1 states the assumed mix, card by card
        assert f"{row['count']} {row['name']}" in text
    rules = read_toml()["rules"]
    assert f"hold {rules['hand_size']} again" in text
    assert f"gathers {rules['leaves_to_lose']} leaves" in text
    assert f"{rules['offerings_to_win']} offerings" in text
    for kinds, leaves in enumerate(rules["damage"], start=1):
        assert f"{kinds} kind{'s' if kinds > 1 else ''} of wind: {leaves} lea" in text


def test_rulebook_prints_every_ruling_of_the_data_in_order_with_its_switches(rules_text):
    text = rules_text
    rulings = read_toml()["rulings"]
    numbers = [int(n) for n in re.findall(r"Playtest ruling (\d+):", text)]
    assert numbers == list(range(1, len(rulings) + 1))
    rules = read_toml()["rules"]
    for number, (name, ruling) in enumerate(rulings.items(), start=1):
        if isinstance(ruling, str):
            assert f"Playtest ruling {number}: {name.replace('_', ' ').capitalize()}" in text
            assert flat(ruling.format(**rules)) in text, name
            continue
        assert f"Playtest ruling {number}: {ruling['title']}" in text, name
        assert f'The original rules: "{flat(ruling["seed"])}"' in text, name
        default = ruling["default"]
        chosen = ("true" if default else "false") if isinstance(default, bool) else default
        assert f"Ruling: {flat(ruling['options'][chosen].format(**rules))}" in text, name
        for value, meaning in ruling["options"].items():
            if value != chosen:
                assert f"Other reading (--set {name}={value}): {flat(meaning.format(**rules))}" in text, name
    # the deck's make-up stands before the rulings, where the designer changes it, and the caps after them
    assert "call for 58 cards" in text and "cards.csv" in text and "game.toml" in text
    assert f"after {read_toml()['simulation']['turn_cap']} turns" in text
    assert "Card list" in text and "Offering" in text and "Hut" in text
    assert "Example of play" in text


def test_the_rules_text_follows_the_defaults_of_the_rulings(tmp_path):
    folder = copy_builtin(SLUG, tmp_path / "variant")
    toml = (folder / "game.toml").read_text(encoding="utf-8")
    for name, old, new in (("damage_by", '"kinds"', '"cards"'), ("hunuc_huar_by", '"target"', '"anyone"'),
                           ("protect_many", "true", "false"), ("pass_allowed", "true", "false"),
                           ("new_round", '"deal"', '"keep"'), ("round_starter", '"winner"', '"rotate"')):
        head = f"[rulings.{name}]"
        start = toml.index(head)
        at = toml.index(f"default = {old}", start)
        toml = toml[:at] + f"default = {new}" + toml[at + len(f"default = {old}"):]
    (folder / "game.toml").write_text(toml, encoding="utf-8")
    text = pdf_text(render_rulebook(load_game(folder), paper_size("a4")))
    assert "2 winds: 3 leaves" in text and "each of a different kind" not in text
    assert "or any other player but you" in text
    assert "One Protect action lays one defense" in text
    assert "there is no passing" in text
    assert "the winner keeps their hand" in text
    assert "The player to the left of the last round's first player plays first" in text
    # the rulings chapter now calls the default what was the other reading, and the reverse
    assert "Other reading (--set damage_by=kinds)" in text and "--set damage_by=cards" not in text


def test_rulebook_follows_changed_data(tmp_path):
    folder = copy_builtin(SLUG, tmp_path / "variant")
    toml = (folder / "game.toml").read_text(encoding="utf-8")
    toml = toml.replace("leaves_to_lose = 5", "leaves_to_lose = 6")
    toml = toml.replace("offerings_to_win = 3", "offerings_to_win = 4")
    toml = toml.replace("damage = [1, 3, 5]", "damage = [1, 2, 4]")
    (folder / "game.toml").write_text(toml, encoding="utf-8")
    rows = read_csv(folder)
    for row in rows:
        if row["name"] == "South Breeze":
            row["count"] = "12"
    with open(folder / "cards.csv", "w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    text = pdf_text(render_rulebook(load_game(folder), paper_size("a4")))
    assert "gathers 6 leaves" in text and "gathers 5 leaves" not in text
    assert "first player with 4 offerings" in text
    assert "2 kinds of wind: 2 leaves" in text and "3 kinds of wind: 4 leaves" in text
    assert "12 South Breeze" in text and "10 South Breeze" not in text
    assert "assumes 60 cards" in text


# --- the table aids ----------------------------------------------------------------------------

def _boxes(page, width_mm, height_mm, kind):
    """Bounding boxes (x0, top, x1, bottom) of rectangles or curves of a size, either way up.

    A piece is drawn as a fill and a cut line a fraction of a point inside it: boxes
    within a point of each other are one piece.
    """
    found: set[tuple[float, float, float, float]] = set()
    for obj in getattr(page, kind):
        w, h = obj["x1"] - obj["x0"], obj["bottom"] - obj["top"]
        for a, b in ((width_mm, height_mm), (height_mm, width_mm)):
            if abs(w - a * MM) < 1.5 and abs(h - b * MM) < 1.5:
                box = (obj["x0"], obj["top"], obj["x1"], obj["bottom"])
                if not any(max(abs(p - q) for p, q in zip(box, seen)) < 1.0 for seen in found):
                    found.add(box)
    return found


def _overlap(a, b) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_aids_hold_12_offerings_and_a_hut_mat_per_player_inside_the_printable_area(aids_pdfs, paper):
    toml = read_toml()
    (token,) = [c for c in toml["components"] if c["name"] == "Offering"]
    (mat,) = [c for c in toml["components"] if c["kind"] == "mat"]
    token_mm = float(token["size"].rstrip("m"))
    mat_w, mat_h = (float(v) for v in mat["size"].rstrip("m").split("x"))
    players = toml["players"]["max"]
    assert token["count"] == 12 and mat["count"] == players
    size = paper_size(paper)
    tokens, mats, offerings, huts, leaves = 0, 0, 0, 0, Counter()
    with pdfplumber.open(io.BytesIO(aids_pdfs[paper])) as pdf:
        for page in pdf.pages:
            assert page.width == pytest.approx(size.width, abs=0.5)
            assert in_margin(page) == []
            circles = _boxes(page, token_mm, token_mm, "curves")
            outlines = _boxes(page, mat_w, mat_h, "rects")
            tokens += len(circles)
            mats += len(outlines)
            pieces = sorted(circles | outlines)
            for i, a in enumerate(pieces):
                for b in pieces[i + 1:]:
                    assert not _overlap(a, b), (a, b)
            words = [w["text"] for w in page.extract_words()]
            offerings += words.count("Offering")
            huts += words.count("Hut")
            text = flat(page.extract_text())
            for n in range(1, 6):
                leaves[n] += len(re.findall(rf"Leaf {n}\b", text))
            # every title and label of a mat lies inside a mat outline
            for w in page.extract_words():
                if w["text"] in ("Hut", "Leaf", "Quincha", "Curtain", "Shield"):
                    cx, cy = (w["x0"] + w["x1"]) / 2, (w["top"] + w["bottom"]) / 2
                    assert any(o[0] < cx < o[2] and o[1] < cy < o[3] for o in outlines), w["text"]
    assert tokens == 12 and offerings == 12
    assert mats == players and huts == players
    assert leaves == Counter({n: players for n in range(1, 6)})


def test_all_fonts_are_embedded(kit):
    for name in ("cards.pdf", "rules.pdf", "aids.pdf"):
        assert unembedded_fonts(kit / name) == [], name


def test_a_rebuild_is_byte_identical(kit, tmp_path):
    result = run("build", SLUG, "--out", tmp_path)
    assert result.exit_code == 0, result.output

    def digests(folder):
        return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}

    assert digests(tmp_path / SLUG) == digests(kit)


# --- the art ------------------------------------------------------------------------------------

def test_art_is_complete_and_reproduced_by_its_script(drawn_art):
    files = drawn_art(SLUG)
    assert files == {p.name: p.read_bytes() for p in sorted(ART.glob("*.png"))}
    toml = read_toml()
    referenced = {row["art"] for row in read_csv()} | {toml["back"]["art"]}
    referenced |= {c["art"] for c in toml["components"] if c.get("art")}
    assert referenced <= set(files)
    # one picture per kind of card, each different
    card_art = [row["art"] for row in read_csv()]
    assert len(set(card_art)) == len(card_art)
    assert len({files[name] for name in card_art}) == len(card_art)
