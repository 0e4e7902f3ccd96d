"""The Altun Ha kit, read back the way a print shop would."""

from __future__ import annotations

import csv
import hashlib
import json
from collections import Counter
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from kitgen.data.builtin import builtin_dirs
from kitgen.units import MM
from tests.conftest import run
from tests.pdfcheck import found_in, unembedded_fonts, words_by_page

LETTER = (612.0, 792.0)
A4 = (595.276, 841.89)
POKER = (63.5 * MM, 88.9 * MM)


def manifest(folder: Path) -> dict:
    return json.loads((folder / "manifest.json").read_text(encoding="utf-8"))


def deck_counts() -> Counter:
    data, _, _ = builtin_dirs("altun-ha")
    with open(data / "cards.csv", encoding="utf-8-sig", newline="") as fh:
        return Counter({row["name"]: int(row["count"]) for row in csv.DictReader(fh)})


@pytest.fixture(scope="module")
def card_words(altun_kit) -> dict[int, list[tuple[str, float, float]]]:
    return words_by_page(altun_kit / "cards.pdf")


def test_kit_has_its_four_files(altun_kit):
    assert sorted(p.name for p in altun_kit.iterdir()) == ["aids.pdf", "cards.pdf", "manifest.json", "rules.pdf"]


def test_card_counts_per_name_match_the_data(altun_kit):
    cards = manifest(altun_kit)["cards"]
    assert Counter(c["name"] for c in cards) == deck_counts()
    assert len(cards) == 80
    for name, count in deck_counts().items():
        assert sorted(c["copy"] for c in cards if c["name"] == name) == list(range(1, count + 1))


def test_pages_are_letter_and_cards_are_poker_sized(altun_kit):
    man = manifest(altun_kit)
    assert man["page_size"] == pytest.approx(LETTER)
    for name in ("cards.pdf", "rules.pdf", "aids.pdf"):
        for page in PdfReader(altun_kit / name).pages:
            assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(LETTER, abs=0.01)
    for c in man["cards"]:
        x0, y0, x1, y1 = c["front"]["box"]
        assert (x1 - x0, y1 - y0) == pytest.approx(POKER, abs=0.01)
    # 80 cards at 9 per sheet: 9 sheets of fronts, each followed by its backs
    assert len(PdfReader(altun_kit / "cards.pdf").pages) == 18


def test_every_card_name_prints_inside_its_box(altun_kit, card_words):
    for c in manifest(altun_kit)["cards"]:
        first = c["name"].split()[0]
        assert found_in(card_words[c["front"]["page"]], first, c["front"]["box"]), c


def test_backs_print_behind_fronts_on_the_next_page(altun_kit, card_words):
    W, _ = LETTER
    for c in manifest(altun_kit)["cards"]:
        fx0, fy0, fx1, fy1 = c["front"]["box"]
        bx0, by0, bx1, by1 = c["back"]["box"]
        assert c["back"]["page"] == c["front"]["page"] + 1
        assert (bx0, bx1, by0) == pytest.approx((W - fx1, W - fx0, fy0), abs=0.01)
        assert found_in(card_words[c["back"]["page"]], "Altun", c["back"]["box"])   # the back's title


def test_all_fonts_are_embedded_truetype(altun_kit):
    for name in ("cards.pdf", "rules.pdf", "aids.pdf"):
        assert unembedded_fonts(altun_kit / name) == [], name


def test_the_cedilla_of_facade_prints(altun_kit, card_words):
    facade = [c for c in manifest(altun_kit)["cards"] if c["name"] == "Façade"]
    assert len(facade) == 7
    assert all(found_in(card_words[c["front"]["page"]], "Façade", c["front"]["box"]) for c in facade)


def test_pdf_asks_viewers_not_to_scale(altun_kit):
    prefs = PdfReader(altun_kit / "cards.pdf").trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/PrintScaling"] == "/None"


def test_scale_bar_is_fifty_millimetres(altun_kit):
    with pdfplumber.open(altun_kit / "cards.pdf") as doc:
        page = doc.pages[0]
        labels = [w for w in page.extract_words() if w["text"] in ("50", "2")]
        assert labels, "scale bar labels missing"
        lengths = sorted(round(max(ln["width"], ln["height"]) / MM, 2) for ln in page.lines)
    assert 50.0 in lengths and 50.8 in lengths


def test_crop_marks_reach_the_page_edge(altun_kit):
    with pdfplumber.open(altun_kit / "cards.pdf") as doc:
        page = doc.pages[0]
        across = [ln for ln in page.lines if abs(ln["top"] - ln["bottom"]) < 0.01 and ln["x0"] < 0.01]
    ys = sorted({round(ln["top"], 2) for ln in across})
    # poker on letter: 3 rows touching, so 4 cut lines marked in the side margins, from the page edge
    assert len(ys) == 4
    assert ys[1] - ys[0] == pytest.approx(POKER[1], abs=0.01)


def test_rebuild_is_byte_identical(altun_kit, tmp_path):
    assert run("build", "altun-ha", "--out", tmp_path).exit_code == 0
    for name in ("cards.pdf", "rules.pdf", "aids.pdf", "manifest.json"):
        assert hashlib.sha256((tmp_path / "altun-ha" / name).read_bytes()).digest() == \
            hashlib.sha256((altun_kit / name).read_bytes()).digest(), name


def test_kit_stays_small(altun_kit):
    assert sum(p.stat().st_size for p in altun_kit.iterdir()) < 3 * 1024 * 1024


@pytest.mark.parametrize("duplex", ["short", "none"])
def test_other_duplex_modes_place_backs_as_promised(built_kit, duplex):
    man = manifest(built_kit("altun-ha", "--paper", "a4", "--duplex", duplex))
    W, H = man["page_size"]
    assert (W, H) == pytest.approx(A4, abs=0.01)
    sheets = max(c["front"]["page"] for c in man["cards"])
    for c in man["cards"]:
        fx0, fy0, fx1, fy1 = c["front"]["box"]
        bx0, by0, bx1, by1 = c["back"]["box"]
        if duplex == "short":
            assert c["back"]["page"] == c["front"]["page"] + 1
            assert (bx0, by0, by1) == pytest.approx((fx0, H - fy1, H - fy0), abs=0.01)
        else:
            assert c["back"]["page"] == c["front"]["page"] + sheets
            assert (bx0, by0) == pytest.approx((W - fx1, fy0), abs=0.01)


def test_options_change_the_sheets(built_kit):
    kit = built_kit("altun-ha", "--card-size", "mini", "--bleed", "3", "--back-offset", "1,-0.5", "--no-crop-marks")
    man = manifest(kit)
    boxes = [c["front"]["box"] for c in man["cards"]]
    assert {(round((b[2] - b[0]) / MM, 2), round((b[3] - b[1]) / MM, 2)) for b in boxes} == {(41.0, 63.0)}
    first = [b for c, b in zip(man["cards"], boxes) if c["front"]["page"] == 1]
    assert len(first) == man["cards_per_page"] > 9
    gaps = sorted({round(b2[0] - b1[2], 2) for b1, b2 in zip(first, first[1:]) if b2[0] > b1[2]})
    assert gaps[0] == pytest.approx(6 * MM, abs=0.01)    # 3 mm of bleed on each side of a cut
    W = man["page_size"][0]
    c = man["cards"][0]
    assert c["back"]["box"][0] == pytest.approx(W - c["front"]["box"][2] + 1 * MM, abs=0.01)
    assert c["back"]["box"][1] == pytest.approx(c["front"]["box"][1] - 0.5 * MM, abs=0.01)
    with pdfplumber.open(kit / "cards.pdf") as doc:
        assert not [ln for ln in doc.pages[0].lines if ln["top"] < 0.01]   # no crop marks


def test_command_reports_what_it_wrote(altun_build):
    assert altun_build["exit_code"] == 0
    output = altun_build["output"]
    assert "cards.pdf" in output and "80 cards" in output and "18 pages" in output


def test_build_does_not_load_the_solver(altun_build):
    # the shared kit was built by the CLI in a fresh process
    assert altun_build["exit_code"] == 0
    assert altun_build["loaded"] == []


def test_pdfs_embed_the_font_subset_of_the_glyphs_each_one_draws():
    """Font subsets and their compressed streams are remembered between PDFs: each PDF still gets
    the subset of its own glyphs, and one drawn again gets the same bytes."""
    import io

    from kitgen.render import fonts
    from kitgen.render.canvas import canvas_bytes, new_canvas

    def pdf(text: str) -> bytes:
        canvas = new_canvas((200, 100), "t")
        canvas.setFont(fonts.REGULAR, 12)
        canvas.drawString(10, 50, text)
        canvas.showPage()
        return canvas_bytes(canvas)

    def font_file(data: bytes) -> bytes:
        font = PdfReader(io.BytesIO(data)).pages[0]["/Resources"]["/Font"]
        (only,) = font.values()
        return only.get_object()["/FontDescriptor"].get_object()["/FontFile2"].get_object().get_data()

    words = ["Stack of cards", "Quartz jumps", "Caf\u00e9 \u00e0 la carte"]   # ASCII: one subset; é à: more
    made = [pdf(w) for w in words]
    files = [font_file(m) for m in made]
    assert made[0] != made[1] and files[0] == files[1] and files[0] != files[2]   # the same subset; a larger one
    assert pdf(words[2]) == made[2] and font_file(pdf(words[0])) == files[0]
    for data, word in zip(made, words):
        assert PdfReader(io.BytesIO(data)).pages[0].extract_text().strip() == word
