"""Real bleed: the back's art is never scaled to fill it, its frame stays 3 mm inside the cut,
cards sit a gap apart and turn when that fits more of them; read back from the PDFs drawn.
"""

from __future__ import annotations

import io

import pdfplumber
import pypdfium2 as pdfium
import pytest
from PIL import Image

from kitgen.data.art_files import ArtLibrary
from kitgen.data.builtin import builtin_games
from kitgen.data.game import load_game
from kitgen.layout.sheet import sheet_layout
from kitgen.outputs.card_pages import CardPage, card_pages_pdf
from kitgen.outputs.export_job import ExportJob, ExportOptions
from kitgen.outputs.manifest import sheet_manifest
from kitgen.units import MM, card_size, inch, mm, paper_size
from tests.conftest import run
from tests.test_print_marks import build_cards

DPI = 300
SAFE_MM = 3.0


def raster(pdf: bytes, page: int = 0, dpi: int = DPI) -> Image.Image:
    doc = pdfium.PdfDocument(pdf)
    return doc[page].render(scale=dpi / 72).to_pil().convert("RGB")


def near(a, b, tol: int = 70) -> bool:
    return sum(abs(x - y) for x, y in zip(a, b)) < tol


def frame_distances(im: Image.Image, trim: tuple[int, int, int, int], gold) -> dict[str, float]:
    """Millimetres from each trim edge inwards to the first pixel of the gold frame, scanned along
    the middle row and the middle column of the card."""
    x0, y0, x1, y1 = trim
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    px = im.load()

    def first(points):
        for k, (x, y) in enumerate(points):
            if near(px[x, y], gold):
                return k
        raise AssertionError("no gold frame found")

    per_mm = DPI / 25.4
    return {"left": first((x, cy) for x in range(x0, cx)) / per_mm,
            "right": first((x, cy) for x in range(x1 - 1, cx, -1)) / per_mm,
            "top": first((cx, y) for y in range(y0, cy)) / per_mm,
            "bottom": first((cx, y) for y in range(y1 - 1, cy, -1)) / per_mm}


def rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


@pytest.mark.parametrize("game_name", builtin_games())
def test_back_frame_stays_in_the_safe_zone_with_bleed_as_exports_draw_it(game_name):
    # the picture the PNG export and the print-shop PDF make of the back: trim plus 1/8 in of bleed
    game = load_game(game_name)
    bleed = inch(1 / 8)
    job = ExportJob(game, card_size(game.card_size), bleed, DPI, 1, ArtLibrary.for_game(game), "cards.csv",
                    ExportOptions())
    im = raster(card_pages_pdf(job, [CardPage(game.cards[0], back=True)], "back", "back"))
    b = round(bleed / 72 * DPI)
    w, h = im.size
    assert abs(w - (job.card.width + 2 * bleed) / 72 * DPI) <= 1 and abs(h - (job.card.height + 2 * bleed) / 72 * DPI) <= 1
    distances = frame_distances(im, (b, b, w - b, h - b), rgb(game.back.accent))
    assert min(distances.values()) >= SAFE_MM, distances
    assert max(distances.values()) < 6.0, distances      # the art is not shrunk either: the frame is near the edge
    # the bleed shows the card's edge colour all round, nothing of the frame and no white paper
    edge = im.getpixel((b + 2, h // 2))
    for x, y in ((1, h // 2), (w - 2, h // 2), (w // 2, 1), (w // 2, h - 2), (1, 1), (w - 2, h - 2)):
        assert near(im.getpixel((x, y)), edge, 12), (x, y)


@pytest.fixture(scope="module")
def bled_sheets():
    """Altun Ha's card sheets on letter paper with 3 mm of bleed, and their layout: drawn once for the module."""
    return build_cards("altun-ha", "letter", "duplex", bleed_mm=3.0)


def test_back_frame_on_a_bleed_sheet_lies_where_it_does_without_bleed(bled_sheets):
    plain, lay0 = build_cards("altun-ha", "letter", "duplex")
    bled, lay3 = bled_sheets
    gold = rgb(load_game("altun-ha").back.accent)
    found = []
    for pdf, lay in ((plain, lay0), (bled, lay3)):
        im = raster(pdf, page=1)                      # the first page of backs
        page_h = lay.page.height
        slot = lay.backs[0]
        s = DPI / 72
        trim = (round(slot.x * s), round((page_h - slot.y1) * s), round(slot.x1 * s), round((page_h - slot.y) * s))
        found.append(frame_distances(im, trim, gold))
    for side in ("left", "right", "top", "bottom"):
        assert found[1][side] >= SAFE_MM
    # a turned card's sides are the upright card's sides turned: the same four distances
    assert sorted(found[1].values()) == pytest.approx(sorted(found[0].values()), abs=0.15)


def fit(space_mm: float, size_mm: float, gap_mm: float) -> int:
    return int((space_mm + gap_mm) // (size_mm + gap_mm))


@pytest.mark.parametrize("paper, expected", [("letter", 6), ("a4", 8)])
def test_bleed_sheets_turn_the_cards_when_more_fit(paper, expected):
    page, card, bleed = paper_size(paper), card_size("poker"), mm(3)
    w, h = page.width / MM - 10 - 6, page.height / MM - 10 - 6       # printable, less the outer bleed
    upright = fit(w, 63.5, 6) * fit(h, 88.9, 6)
    sideways = fit(w, 88.9, 6) * fit(h, 63.5, 6)
    lay = sheet_layout(page, card, bleed)
    assert lay.turned and lay.per_page == max(upright, sideways) == expected > upright
    assert lay.gap == (mm(6), mm(6))         # twice the bleed: each card keeps its own


def test_a_turned_sheet_lines_up_and_its_manifest_says_so(bled_sheets):
    pdf, lay = bled_sheets
    game = load_game("altun-ha")
    from kitgen.layout.deck import place_cards

    placements, pages = place_cards([c.count for c in game.cards], lay)
    manifest = sheet_manifest(game, lay, placements, pages, "letter")
    assert manifest["cards_turned"] is True and manifest["cards_per_page"] == 6
    assert manifest["gap_mm"] == [6.0, 6.0] and pages == 28
    page_w = lay.page.width
    for card in manifest["cards"]:
        f, b = card["front"], card["back"]
        assert f["rotation"] == 90 and b["rotation"] == 270
        assert (f["box"][2] - f["box"][0], f["box"][3] - f["box"][1]) == pytest.approx((88.9 * MM, 63.5 * MM), abs=0.01)
        assert b["box"][0] == pytest.approx(page_w - f["box"][2], abs=0.01) and b["box"][1] == pytest.approx(f["box"][1])
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        front, back = doc.pages[0], doc.pages[1]
        h = float(front.height)
        on_front = [c for c in front.chars if c["text"] == "P" and c["size"] > 8]      # "Plaza", the name
        assert on_front and all(c["matrix"][1] > 0.9 for c in on_front)               # reads up the page
        box = manifest["cards"][0]["front"]["box"]
        assert any(box[0] < c["x0"] < box[2] and box[1] < h - c["top"] < box[3] for c in on_front)
        title = [c for c in back.chars if c["text"] == "A" and c["size"] > 8]         # "Altun Ha", the back
        assert title and all(c["matrix"][1] < -0.9 for c in title)                    # turned the other way


def test_gap_sets_cards_apart_with_marks_for_each_card():
    pdf, lay = build_cards("altun-ha", "a4", "duplex", gap_mm=8.0)
    assert lay.sheet.gap == (mm(8), mm(8)) and lay.per_page == 8 and lay.sheet.turned
    xs = sorted({round(s.x, 2) for s in lay.fronts})
    assert xs[1] - xs[0] == pytest.approx(mm(88.9 + 8), abs=0.01)
    cuts = sorted({round(v, 2) for s in lay.fronts for v in (s.x, s.x1)})
    marked = sorted({round(m.x0, 2) for m in lay.sheet.crop_marks if m.x0 == m.x1})
    assert marked == cuts and len(cuts) == 4        # both cuts of every gutter are marked


@pytest.mark.parametrize("args, message", [
    (["--bleed", "3", "--gap", "4"], "Error: --gap: 4 mm is less than twice the 3 mm bleed"),
    (["--gap", "-1"], "Error: --gap: the gap must be 0 mm or more"),
    (["--gap", "25"], "Error: --gap: the gap must be 0 mm or more, up to 20 mm, not 25"),
])
def test_bad_gaps_are_refused_naming_the_option(tmp_path, args, message):
    result = run("build", "altun-ha", "--out", tmp_path, *args)
    assert result.exit_code == 2
    assert result.output.startswith(message), result.output
    assert not (tmp_path / "altun-ha").exists()
