"""What the margins of a card sheet hold, read back from cards.pdf for every paper, card size and bleed:
a 50 mm scale bar on a page of every build (exactly 50 mm, inside the printable area, clear of marks and
cards), crop marks that print 4 mm where the page allows, and, without crop marks, every card's edge
shown by white paper or a hairline.
"""

from __future__ import annotations

import functools
import json

import pypdfium2 as pdfium
import pytest

from kitgen.data.art_files import ArtLibrary
from kitgen.data.game import load_game
from kitgen.outputs.kit import BuildOptions, card_sheet_layout
from kitgen.render.sheets import render_card_sheets
from kitgen.units import CARD_SIZES_MM, MM, card_size, paper_size
from tests.conftest import run, write_game
from tests.pdfium_read import characters, strokes

PRINTER = 5 * MM
NOTE = (107, 98, 88)            # the small print's colour: labels, scale bars
GUIDE = (154, 154, 154)         # hairlines along cuts, without crop marks
COMBOS = [(paper, size, bleed, layout) for paper in ("letter", "a4") for size in sorted(CARD_SIZES_MM)
          for bleed in (0, 3) for layout in ("duplex", "gutterfold")]
NO_ROOM = {("letter", "mini", 0, "gutterfold")}   # ten mini cards fill the page: 0.5 mm beside, marks every 41 mm


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    folder = write_game(tmp_path_factory.mktemp("margins") / "game")
    (folder / "cards.csv").write_text("name,type,count\nOne,plain,30\n", encoding="utf-8")
    return load_game(folder)


def sheets(game, paper, size, bleed, layout, **options):
    opts = BuildOptions(paper=paper, card_size=size, bleed_mm=bleed, layout=layout, **options)
    lay = card_sheet_layout(opts, paper_size(paper), card_size(size), "--card-size")
    return render_card_sheets(game, lay, ArtLibrary.for_game(game), "cards.csv"), lay


@pytest.fixture(scope="module")
def drawn(game):
    """``drawn(paper, size, bleed, layout, **options)``: :func:`sheets` of the module's game, each set of
    options rendered once per module (the scale bar's, crop marks' and edges' tests read the same duplex sheets)."""
    memo = {}

    def draw(paper, size, bleed, layout, **options):
        key = (paper, size, bleed, layout, tuple(sorted(options.items())))
        if key not in memo:
            memo[key] = sheets(game, paper, size, bleed, layout, **options)
        return memo[key]

    return draw


def _length(box) -> float:
    left, bottom, right, top = box
    return max(right - left, top - bottom)


def _straight(box) -> bool:
    left, bottom, right, top = box
    return min(right - left, top - bottom) < 0.05


def _cards_on(result, lay, page: int):
    """The boxes (x0, y0, x1, y1) of every card drawn on ``page`` (1-based), bleed included."""
    b = lay.bleed
    out = []
    for pl in result.placements:
        for p, r in ((pl.front_page, pl.front), (pl.back_page, pl.back)):
            if p == page:
                out.append((r.x - b, r.y - b, r.x1 + b, r.y1 + b))
    return out


def _meets(a, b, pad: float = 0.0) -> bool:
    return a[0] < b[2] + pad and b[0] < a[2] + pad and a[1] < b[3] + pad and b[1] < a[3] + pad


def find_bar(page):
    """The 50 mm bar of a page: (its line's box, the box of all it covers, the 2 in bar's line or None)."""
    lines = [(box, width) for box, colour, width, dashed in strokes(page)
             if colour == NOTE and not dashed and _straight(box)]
    metric = [box for box, width in lines if abs(_length(box) - 50 * MM) < 1.0]
    if not metric:
        return None
    assert len(metric) == 1
    bar = metric[0]
    inches = [box for box, width in lines if abs(_length(box) - 144.0) < 1.0]
    parts = [bar] + inches + [box for box, width in lines if _length(box) < 1 * MM and _meets(box, bar, 1.5 * MM)]
    chars = characters(page)
    label = [c for c in chars if c[0] in "50mmin2" and _meets(c[1:], bar, 8 * MM)]
    assert "".join(c[0] for c in label).replace(" ", "").startswith("50mm")
    parts += [c[1:] for c in label]
    whole = (min(p[0] for p in parts), min(p[1] for p in parts), max(p[2] for p in parts), max(p[3] for p in parts))
    return bar, whole, (inches[0] if inches else None)


def crop_marks(page):
    return [box for box, colour, width, dashed in strokes(page)
            if colour == (0, 0, 0) and abs(width - 0.4) < 0.01 and _straight(box)]


@pytest.mark.parametrize("paper,size,bleed,layout", COMBOS, ids=["-".join(map(str, c)) for c in COMBOS])
def test_a_page_of_every_sheet_carries_an_exact_scale_bar_clear_of_marks_and_cards(drawn, paper, size, bleed, layout):
    result, lay = drawn(paper, size, bleed, layout)
    doc = pdfium.PdfDocument(result.pdf)
    first_sheet = (1,) if layout == "gutterfold" else lay.page_numbers(0, 2)
    found = []
    for number in first_sheet:
        page = doc[number - 1]
        bar = find_bar(page)
        if bar is None:
            continue
        line, whole, inches = bar
        assert _length(line) == pytest.approx(50 * MM, abs=0.01 * MM)       # 50 mm to 1/100 mm
        if inches is not None:
            assert _length(inches) == pytest.approx(144.0, abs=0.01 * MM)   # 2 in
        width, height = page.get_width(), page.get_height()
        assert whole[0] >= PRINTER - 0.01 and whole[1] >= PRINTER - 0.01
        assert whole[2] <= width - PRINTER + 0.01 and whole[3] <= height - PRINTER + 0.01
        assert not any(_meets(mark, whole, 0.5 * MM) for mark in crop_marks(page))
        assert not any(_meets(card, whole, 0.5 * MM) for card in _cards_on(result, lay, number))
        found.append(number)
    doc.close()
    if (paper, size, bleed, layout) in NO_ROOM:
        assert not found
    else:
        assert len(found) == 1, found


def test_a_build_with_no_room_for_the_bar_says_so_in_one_line(tmp_path):
    folder = write_game(tmp_path / "game", card_size="mini")
    result = run("build", folder, "--out", tmp_path / "out", "--layout", "gutterfold")
    assert result.exit_code == 0, result.output
    said = [line for line in result.output.splitlines() if "scale bar" in line]
    assert said == ["Warning: cards.pdf: no page has room for the 50 mm scale bar beside these cards on letter; "
                    "to check that it printed at actual size, measure a card between its cuts: 41 x 63 mm"]
    # the page itself: marks cross the margins above and below every 41 mm, and beside the cards
    # lies 0.5 mm of printable paper, so no stretch of margin 50 mm long is free of marks
    kit = tmp_path / "out" / "test-game"
    doc = pdfium.PdfDocument(str(kit / "cards.pdf"))
    page = doc[0]
    xs = sorted({round(m[0], 1) for m in crop_marks(page) if m[2] - m[0] < 0.05})
    assert max(b - a for a, b in zip(xs, xs[1:])) < 50 * MM
    boxes = [c["front"]["box"] for c in json.loads((kit / "manifest.json").read_text())["cards"]]
    assert min(min(b[0] for b in boxes), page.get_width() - max(b[2] for b in boxes)) - PRINTER < 1 * MM
    doc.close()


def printed_mm(mark, width, height) -> float:
    left, bottom, right, top = mark
    if right - left < 0.05:
        return (min(top, height - PRINTER) - max(bottom, PRINTER)) / MM
    return (min(right, width - PRINTER) - max(left, PRINTER)) / MM


SHORT_MARKS = {("a4", "poker", 3), ("a4", "bridge", 3)}   # eight cards leave 3.6 mm or less beside them


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("size", sorted(CARD_SIZES_MM))
@pytest.mark.parametrize("bleed", [0, 3])
def test_crop_marks_reach_4_mm_into_the_printable_area_where_the_page_allows(drawn, paper, size, bleed):
    result, lay = drawn(paper, size, bleed, "duplex")
    doc = pdfium.PdfDocument(result.pdf)
    page = doc[0]
    width, height = page.get_width(), page.get_height()
    marks = crop_marks(page)
    lengths = [printed_mm(m, width, height) for m in marks]
    doc.close()
    assert marks and min(lengths) >= 3 - 0.01
    if (paper, size, bleed) not in SHORT_MARKS:
        assert min(lengths) >= 4 - 0.01, min(lengths)
        return
    # a 4 mm mark would come nearer the cards than the 1.5 mm the marks keep from them: the cards'
    # bleed reaches within 5.5 mm of the printable area on the side of the short marks
    cards = _cards_on(result, lay, 1)
    beside = min(min(c[0] for c in cards), width - max(c[2] for c in cards)) - PRINTER
    below = min(min(c[1] for c in cards), height - max(c[3] for c in cards)) - PRINTER
    assert min(beside, below) < 5.5 * MM


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("size", sorted(CARD_SIZES_MM))
@pytest.mark.parametrize("bleed", [0, 3])
def test_without_crop_marks_every_card_edge_shows(drawn, paper, size, bleed):
    marked, marked_lay = drawn(paper, size, bleed, "duplex")
    result, lay = drawn(paper, size, bleed, "duplex", crop_marks=False)
    assert lay.sheet.gap == marked_lay.sheet.gap             # the gutters are kept
    scale = 4.0
    doc = pdfium.PdfDocument(result.pdf)
    page = doc[0]
    assert not crop_marks(page)
    guides = [box for box, colour, width, dashed in strokes(page) if colour == GUIDE and _straight(box)]
    height = page.get_height()

    @functools.cache
    def rendered():
        """The page's pixels: rows, columns, then blue, green, red, read in place (rendered when first
        looked at: with a bleed no edge is looked for on white paper)."""
        return page.render(scale=scale).to_numpy()

    def white(x, y) -> bool:
        pixels = rendered()
        column, row = int(x * scale), int((height - y) * scale)
        assert 0 <= row < pixels.shape[0] and 0 <= column < pixels.shape[1], (x, y)     # on the page
        return min(pixels[row, column, :3]) > 245

    def guided(x0, y0, x1, y1) -> bool:
        return any(g[0] - 0.2 <= x0 and x1 <= g[2] + 0.2 and g[1] - 0.2 <= y0 and y1 <= g[3] + 0.2 for g in guides)

    out = 0.6 * MM
    for pl in result.placements:
        if pl.front_page != 1:
            continue
        r = pl.front
        for edge, outside in (((r.x, r.y, r.x, r.y1), lambda t: (r.x - out, r.y + t * r.h)),
                              ((r.x1, r.y, r.x1, r.y1), lambda t: (r.x1 + out, r.y + t * r.h)),
                              ((r.x, r.y, r.x1, r.y), lambda t: (r.x + t * r.w, r.y - out)),
                              ((r.x, r.y1, r.x1, r.y1), lambda t: (r.x + t * r.w, r.y1 + out))):
            paper_shows = bleed == 0 and all(white(*outside(t)) for t in (0.1, 0.3, 0.5, 0.7, 0.9))
            assert paper_shows or guided(*edge), (paper, size, bleed, edge)
    doc.close()
