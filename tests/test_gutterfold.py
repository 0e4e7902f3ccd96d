"""Gutterfold sheets: geometry for every card size and paper, and the built cards.pdf read back."""

from __future__ import annotations

import json
import math

import pdfplumber
import pytest

from kitgen.errors import LayoutError
from kitgen.layout.deck import place_cards
from kitgen.layout.gutterfold import FOLD_CLEARANCE, gutterfold_layout
from kitgen.layout.sheet import PRINTER_MARGIN
from kitgen.units import CARD_SIZES_MM, MM, PAPER_SIZES_MM, Size, card_size, paper_size
from tests.conftest import run


def centre(r):
    return (r.x + r.w / 2, r.y + r.h / 2)


@pytest.mark.parametrize("paper", sorted(PAPER_SIZES_MM))
@pytest.mark.parametrize("card", sorted(CARD_SIZES_MM))
@pytest.mark.parametrize("bleed_mm", [0, 3])
def test_backs_mirror_fronts_across_the_fold(paper, card, bleed_mm):
    page, size, bleed = paper_size(paper), card_size(card), bleed_mm * MM
    lay = gutterfold_layout(page, size, bleed)
    assert lay.per_page >= 1 and len(lay.backs) == lay.per_page
    assert {round(lay.page.width, 3), round(lay.page.height, 3)} == {round(page.width, 3), round(page.height, 3)}
    fold = lay.fold_position
    for front, back in zip(lay.fronts, lay.backs):
        (fx, fy), (bx, by) = centre(front), centre(back)
        if lay.vertical:
            assert (fx + bx) / 2 == pytest.approx(fold) and fy == pytest.approx(by)
            assert front.x1 + bleed + FOLD_CLEARANCE <= fold + 1e-6 <= back.x - bleed - FOLD_CLEARANCE + 2e-6
        else:
            assert (fy + by) / 2 == pytest.approx(fold) and fx == pytest.approx(bx)
            assert back.y1 + bleed + FOLD_CLEARANCE <= fold + 1e-6 <= front.y - bleed - FOLD_CLEARANCE + 2e-6
        assert (front.w, front.h) == (back.w, back.h) == (size.width, size.height)
    printable = lay.sheet.grid.__class__(PRINTER_MARGIN, PRINTER_MARGIN, lay.page.width - 2 * PRINTER_MARGIN,
                                         lay.page.height - 2 * PRINTER_MARGIN)
    slots = [r.outset(bleed) for r in lay.fronts + lay.backs]
    for i, a in enumerate(slots):
        assert printable.contains(a)
        assert not any(a.overlaps(b) for b in slots[i + 1:])


@pytest.mark.parametrize("paper", sorted(PAPER_SIZES_MM))
def test_the_most_cards_arrangement_is_chosen(paper):
    """Poker cards: portrait paper folds to 3 a page either way; landscape with a vertical fold holds 4."""
    page = paper_size(paper)
    lay = gutterfold_layout(page, card_size("poker"), 0)
    assert lay.per_page == 4          # two columns of two fronts on landscape paper
    assert lay.page.width > lay.page.height and lay.vertical


def test_a_card_too_large_to_fold_is_refused_with_the_option_named(tmp_path):
    with pytest.raises(LayoutError, match=r"^a card of 140 x 150 mm does not fit twice") as info:
        gutterfold_layout(paper_size("letter"), Size(140 * MM, 150 * MM), 0)
    assert "--" not in str(info.value)       # geometry names no option; the build does
    result = run("build", "altun-ha", "--out", tmp_path, "--layout", "gutterfold", "--card-size", "140x150")
    assert result.exit_code == 2
    assert "Error: --card-size: a card of 140 x 150 mm does not fit twice" in result.output
    assert "use --layout duplex or a smaller card" in result.output


def test_placements_keep_each_back_on_its_fronts_page():
    lay = gutterfold_layout(paper_size("letter"), card_size("poker"), 0)
    placements, pages = place_cards([3, 5, 1], lay)
    assert len(placements) == 9 and pages == math.ceil(9 / lay.per_page)
    for n, pl in enumerate(placements):
        assert pl.front_page == pl.back_page == n // lay.per_page + 1
        assert lay.backs.index(pl.back) == lay.fronts.index(pl.front)


def words(page):
    h = float(page.height)
    return [(w["text"], (w["x0"] + w["x1"]) / 2, h - (w["top"] + w["bottom"]) / 2, w.get("upright", True))
            for w in page.extract_words(extra_attrs=["upright"])]


def inside(x, y, box):
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


@pytest.mark.parametrize("args, vertical", [([], True), (["--bleed", "3"], False)])
def test_built_gutterfold_kit_has_fronts_and_mirrored_backs(built_kit, args, vertical):
    kit = built_kit("altun-ha", "--layout", "gutterfold", *args)
    manifest = json.loads((kit / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["layout"] == "gutterfold" and manifest["fold"]["vertical"] is vertical
    fold = manifest["fold"]["at"]
    cards = manifest["cards"]
    assert len(cards) == 80
    assert manifest["pages"] == math.ceil(80 / manifest["cards_per_page"])
    axis = 0 if vertical else 1
    for card in cards:
        f, b = card["front"]["box"], card["back"]["box"]
        assert card["front"]["page"] == card["back"]["page"]
        assert (f[axis] + f[axis + 2]) / 2 + (b[axis] + b[axis + 2]) / 2 == pytest.approx(2 * fold, abs=0.01)
    with pdfplumber.open(kit / "cards.pdf") as pdf:
        assert len(pdf.pages) == manifest["pages"]
        page = pdf.pages[0]
        found = words(page)
        on_page = [c for c in cards if c["front"]["page"] == 1]
        for card in on_page:
            assert any(card["name"].split()[0] in t and inside(x, y, card["front"]["box"]) for t, x, y, _ in found)
            titles = [(x, y) for t, x, y, _ in found if t in ("Altun", "nutlA") and inside(x, y, card["back"]["box"])]
            assert len(titles) == 1
            # the back title sits in the middle of the back; turned over a horizontal fold it reads upside down
            tx, ty = titles[0]
            back = card["back"]["box"]
            assert abs(ty - (back[1] + back[3]) / 2) < (back[3] - back[1]) * 0.15
        chars = [c for c in page.chars if c["text"] == "A" and any(
            inside(c["x0"], float(page.height) - c["top"], card["back"]["box"]) for card in on_page)]
        assert chars and all((c["matrix"][0] < 0) == (not vertical) for c in chars)
        # the fold line: a dashed segment along the fold between the cards
        fold_lines = [ln for ln in page.lines
                      if (vertical and abs(ln["x0"] - fold) < 0.1 and abs(ln["x1"] - fold) < 0.1)
                      or (not vertical and abs(float(page.height) - ln["top"] - fold) < 0.1
                          and abs(ln["top"] - ln["bottom"]) < 0.1)]
        assert fold_lines
