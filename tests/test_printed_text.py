"""What the built-in kits print, read back from their PDFs: no template markup left in a rulebook, no
"1 points", and a corner mark on every card so that a fanned hand can be read."""

from __future__ import annotations

import json
import re

import pypdfium2 as pdfium
import pytest

from kitgen.data.builtin import builtin_games
from kitgen.data.game import load_game
from kitgen.units import MM
from tests.pdfium_read import characters, page_texts

NOUNS = ("point", "card", "leaf", "leave", "round", "player", "tile", "token", "level", "jewel", "offering",
         "temple", "bid", "wind", "defense", "breeze", "action", "attack", "sheet", "copy", "copie")


@pytest.fixture(scope="module", params=builtin_games())
def kit(request, built_kit):
    """The run's shared kit of each built-in game (default options), read only here."""
    return request.param, built_kit(request.param)


def _flat(pdf) -> str:
    return " ".join(" ".join(text.split()) for text in page_texts(pdf))


def test_no_template_markup_is_left_in_the_rulebook(kit):
    slug, folder = kit
    text = _flat(folder / "rules.pdf")
    assert len(text) > 2000
    for mark in ("[[", "]]", "{{", "}}", "{%", "%}", "{#"):
        assert mark not in text, (slug, mark, text[max(0, text.find(mark) - 60):text.find(mark) + 60])


def test_one_of_a_thing_is_said_in_the_singular(kit):
    slug, folder = kit
    plural = re.compile(r"(?<![\d.,/+\-])\b(1|one) (%s)s\b" % "|".join(NOUNS), re.IGNORECASE)
    for name in ("cards.pdf", "rules.pdf", "aids.pdf"):
        text = _flat(folder / name)
        found = [text[max(0, m.start() - 40):m.end() + 20] for m in plural.finditer(text)]
        assert not found, (slug, name, found)
    if slug == "temple-of-inscriptions":              # the treasure tiles worth one: "1 point"
        assert "1 point " in _flat(folder / "aids.pdf") + " "
        assert "24 mm: 1 point, 2 points, 5 points" in _flat(folder / "rules.pdf")     # the list of components


def test_every_card_shows_a_corner_mark_that_a_fanned_hand_reads(kit):
    slug, folder = kit
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    doc = pdfium.PdfDocument(str(folder / "cards.pdf"))
    chars = {}
    marks: dict[str, set[str]] = {}
    for card in manifest["cards"]:
        page = card["front"]["page"]
        if page not in chars:
            chars[page] = characters(doc[page - 1])
        x0, y0, x1, y1 = card["front"]["box"]
        corner = "".join(c for c, cx0, cy0, cx1, cy1 in chars[page]
                         if x0 < (cx0 + cx1) / 2 < x0 + 14 * MM and y1 - 14 * MM < (cy0 + cy1) / 2 < y1)
        assert corner, (slug, card["name"])
        marks.setdefault(card["name"], set()).add(corner)
    doc.close()
    # one mark a card, and cards of different effects are told apart by it (Altun Ha's six gods
    # are all played as a 7, Temple's jewels are one card)
    assert all(len(m) == 1 for m in marks.values())
    if slug != "altun-ha":
        assert len({next(iter(m)) for m in marks.values()}) == len(marks)
    else:
        trades = ["Stone", "Salt", "Maize", "Cocoa", "Ceramics", "Honey", "Feathers", "Textiles", "Pyrite",
                  "Obsidian", "Jade", "Codex"]
        assert len({next(iter(marks[t])) for t in trades}) == len(trades)


def test_reference_cards_carry_a_corner_mark_too(kit):
    slug, folder = kit
    references = [c for c in load_game(slug).components if c.kind == "reference"]
    assert bool(references) == (slug != "ancestral")      # Ancestral's reference cards are cards of its deck
    text = _flat(folder / "aids.pdf")
    for ref in references:
        assert ref.corner == "?"
        assert text.count(f"? {ref.title}") == text.count(ref.title) == ref.count
