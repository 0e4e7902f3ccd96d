"""Crop marks that print and cross no text, read back from every card PDF of every built-in game.

A home printer leaves 5 mm of every edge blank, so a crop mark is only of use
if part of it lies inside that margin: every mark must keep at least 3 mm
there.  The sheet label, the scale bar and the gutterfold's "fold" must sit
where no mark (and no fold line) crosses them.  Geometry is checked as plain
numbers too: every cut of a sheet has a guide that prints.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import numpy as np
import pdfplumber
import pytest

from kitgen.data.art_files import ArtLibrary
from kitgen.data.builtin import builtin_games
from kitgen.data.game import load_game
from kitgen.layout.duplex import back_slot
from kitgen.layout.sheet import MIN_MARK, PRINTER_MARGIN, printable_area, sheet_layout
from kitgen.outputs.kit import BuildOptions, card_sheet_layout
from kitgen.render.sheets import render_card_sheets
from kitgen.units import CARD_SIZES_MM, MM, card_size, mm, paper_size
from tests.pdfium_read import characters, strokes

CASES = [(game, paper, layout) for game in builtin_games() for paper in ("letter", "a4")
         for layout in ("duplex", "gutterfold")]


def build_cards(game_name: str, paper: str, layout: str, **options) -> tuple[bytes, object]:
    game = load_game(game_name)
    lay = game_sheet_layout(game, paper, layout, **options)
    return render_card_sheets(game, lay, ArtLibrary.for_game(game), "cards.csv").pdf, lay


# the kits other modules build once per run (conftest's built_kit) whose card sheets are these: read, not drawn again
RUN_KITS = {("altun-ha", "letter", "duplex"): ("altun-ha",), ("ancestral", "letter", "duplex"): ("ancestral",),
            ("altun-ha", "letter", "gutterfold"): ("altun-ha", "--layout", "gutterfold")}


def game_sheet_layout(game, paper: str, layout: str, **options):
    """The card sheets' layout :func:`build_cards` draws ``game`` (loaded) on."""
    opts = BuildOptions(paper=paper, layout=layout, **options)
    return card_sheet_layout(opts, paper_size(paper), card_size(game.card_size), "card_size")


@pytest.fixture(scope="module")
def built(built_kit):
    """``built(game, paper, layout)``: :func:`build_cards` with default options, once per module for each;
    the cases ``kitgen build`` makes with its defaults read the run's kit's cards.pdf (the same drawing)."""
    memo = {}

    def build(game_name: str, paper: str, layout: str):
        case = (game_name, paper, layout)
        if case not in memo:
            if case in RUN_KITS:
                kit = built_kit(*RUN_KITS[case])
                memo[case] = (kit / "cards.pdf").read_bytes(), game_sheet_layout(load_game(game_name), paper, layout)
            else:
                memo[case] = build_cards(*case)
        return memo[case]

    return build


@pytest.fixture(scope="module", params=CASES, ids=["-".join(c) for c in CASES])
def card_pdf(request, built):
    return request.param, built(*request.param)


@pytest.fixture(scope="module")
def pdfium_read(built):
    """``pdfium_read(game, paper, layout)``: the built sheets read with :func:`read_pdfium`, once per module
    for each (the marks test and the pdfplumber comparison read the same Altun Ha sheets)."""
    memo = {}

    def read(*case):
        if case not in memo:
            pdf, lay = built(*case)
            memo[case] = read_pdfium(pdf, [s.outset(lay.bleed) for s in lay.sheet.slots])
        return memo[case]

    return read


@dataclass
class Page:
    """What the checks need of a page, in PDF points (origin bottom left)."""

    width: float
    height: float
    marks: list          # (x0, y0, x1, y1) of the crop marks: black 0.4 pt lines beside the cards
    folds: list          # (x0, y0, x1, y1) of dashed lines (the gutterfold's fold)
    chars: list          # (text, x0, y0, x1, y1) of every printed character, cards' included
    text: str


def read_pdfium(pdf: bytes, cards) -> list[Page]:
    """Pages read with PDFium: the page's own lines (cards are forms, not looked into) and every
    character's box, those inside the cards included."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    pages = []
    for i in range(len(doc)):
        page = doc[i]
        marks, folds = [], []
        for (left, bottom, right, top), colour, width, dashed in strokes(page):
            if right - left > 0.5 and top - bottom > 0.5:
                continue                                  # not a straight line across or up the page
            cx, cy = (left + right) / 2, (bottom + top) / 2
            box = (cx, bottom, cx, top) if right - left <= 0.5 else (left, cy, right, cy)
            if dashed:
                folds.append(box)
            elif colour == (0, 0, 0) and abs(width - 0.4) < 0.01 and not any(c.contains_point(cx, cy) for c in cards):
                marks.append(box)
        pages.append(Page(page.get_width(), page.get_height(), marks, folds, characters(page),
                          page.get_textpage().get_text_range()))
    return pages


def read_pdfplumber(pdf: bytes, cards) -> list[Page]:
    """The same, read with pdfplumber: its lines and chars."""
    pages = []
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        for page in doc.pages:
            h = float(page.height)

            def box(ln):
                return ln["x0"], h - ln["bottom"], ln["x1"], h - ln["top"]

            marks, folds = [], []
            for ln in page.lines:
                cx, cy = (ln["x0"] + ln["x1"]) / 2, h - (ln["top"] + ln["bottom"]) / 2
                if ln.get("dash") and ln["dash"][0]:
                    folds.append(box(ln))
                elif tuple(ln.get("stroking_color") or ()) in ((0,), (0, 0, 0)) \
                        and abs(ln["linewidth"] - 0.4) < 0.01 and not any(c.contains_point(cx, cy) for c in cards):
                    marks.append(box(ln))
            chars = [(c["text"], c["x0"], h - c["bottom"], c["x1"], h - c["top"])
                     for c in page.chars if c["text"].strip()]
            pages.append(Page(float(page.width), h, marks, folds, chars, page.extract_text()))
    return pages


def printed_mm(line, page: Page) -> float:
    """How much of a mark lies inside the printable area, in mm."""
    x0, y0, x1, y1 = line
    m = PRINTER_MARGIN
    if abs(x1 - x0) < 1e-6:
        if not m <= x0 <= page.width - m:
            return 0.0
        return max(0.0, min(y1, page.height - m) - max(y0, m)) / MM
    if not m <= y0 <= page.height - m:
        return 0.0
    return max(0.0, min(x1, page.width - m) - max(x0, m)) / MM


def crossed(line, chars: list, boxes, pad: float = 0.2) -> str:
    """The characters that ``line`` (a vertical or horizontal line) crosses, or passes within ``pad`` of,
    compared with all of a page's characters at once: ``boxes`` holds their x0, y0, x1, y1 as an array."""
    x0, y0, x1, y1 = line
    cx0, cy0, cx1, cy1 = boxes.T
    if abs(x1 - x0) < 1e-6:
        hit = (cx0 - pad < x0) & (x0 < cx1 + pad) & (y0 < cy1 + pad) & (y1 > cy0 - pad)
    else:
        hit = (cy0 - pad < y0) & (y0 < cy1 + pad) & (x0 < cx1 + pad) & (x1 > cx0 - pad)
    return "".join(chars[i][0] for i in np.flatnonzero(hit))


def check_pages(pages: list[Page], layout: str) -> None:
    fronts = 0
    for number, page in enumerate(pages, start=1):
        fronts += bool(page.marks)
        boxes = np.array([c[1:] for c in page.chars], dtype=np.float64).reshape(-1, 4)
        for line in page.marks:
            assert printed_mm(line, page) >= MIN_MARK / MM - 0.01, (number, line)
            hit = crossed(line, page.chars, boxes)
            assert not hit, (number, "a mark crosses", hit)
        for line in page.folds:
            hit = crossed(line, page.chars, boxes)
            assert not hit, (number, "the fold line crosses", hit)
        flat = "".join(page.text.split())
        text = flat + " " + flat[::-1]            # text running up the page may read backwards
        assert "/" in text and ("fronts" in text or "backs" in text or "gutterfold" in text), number
        if page.marks:                              # the fronts carry the scale bar and its labels
            assert "50mm" in text and "2in" in text, number
        if layout == "gutterfold":
            assert "fold" in text, number
    assert fronts == (len(pages) if layout == "gutterfold" else len(pages) // 2)


def test_every_mark_prints_and_crosses_no_text(card_pdf, pdfium_read):
    (game, paper, layout), _ = card_pdf
    pages = pdfium_read(game, paper, layout)
    assert len(pages) >= 14
    check_pages(pages, layout)


def test_pdfplumber_reads_the_same_marks_and_text(built, pdfium_read):
    pdf, lay = built("altun-ha", "letter", "duplex")
    cards = [s.outset(lay.bleed) for s in lay.sheet.slots]
    plumber, pdfium_pages = read_pdfplumber(pdf, cards), pdfium_read("altun-ha", "letter", "duplex")
    check_pages(plumber, "duplex")
    for a, b in zip(plumber, pdfium_pages):
        assert len(a.marks) == len(b.marks)
        assert sorted(v for m in a.marks for v in m) == pytest.approx(sorted(v for m in b.marks for v in m), abs=0.3)


# --- the geometry as numbers -----------------------------------------------------------------

def _guided(lay, x: float | None, y: float | None) -> bool:
    """A cut along x (or y) has a mark that prints, or is an edge of white paper: no card touches
    the cut from its other side (without bleed a card's colour ends at its cut)."""
    for m in lay.crop_marks:
        if x is not None and abs(m.x0 - x) < 1e-3 and abs(m.x1 - x) < 1e-3:
            return True
        if y is not None and abs(m.y0 - y) < 1e-3 and abs(m.y1 - y) < 1e-3:
            return True
    if lay.bleed:
        return False
    for a in lay.slots:
        for b in lay.slots:
            if x is not None and abs(a.x1 - x) < 1e-3 and abs(b.x - x) < 1e-3 and a.y < b.y1 and b.y < a.y1:
                return False          # two cards share this cut: nothing shows where it is
            if y is not None and abs(a.y1 - y) < 1e-3 and abs(b.y - y) < 1e-3 and a.x < b.x1 and b.x < a.x1:
                return False
    return True


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("size", sorted(CARD_SIZES_MM))
@pytest.mark.parametrize("bleed", [0.0, 3.0])
def test_every_cut_has_a_guide_that_prints(paper, size, bleed):
    page = paper_size(paper)
    lay = sheet_layout(page, card_size(size), mm(bleed))
    room = printable_area(page)
    for m in lay.crop_marks:
        inside = (min(m.y1, room.y1) - max(m.y0, room.y)) if m.x0 == m.x1 else (min(m.x1, room.x1) - max(m.x0, room.x))
        assert inside >= MIN_MARK - 1e-6
    for s in lay.slots:
        for x in (s.x, s.x1):
            assert _guided(lay, x, None), (paper, size, bleed, "cut at x", x / MM)
        for y in (s.y, s.y1):
            assert _guided(lay, None, y), (paper, size, bleed, "cut at y", y / MM)


def test_poker_on_letter_keeps_nine_cards_with_its_columns_apart():
    lay = sheet_layout(paper_size("letter"), card_size("poker"))
    assert lay.per_page == 9 and not lay.turned
    # three rows fill the page's height: no mark could print above or below them, so the columns
    # are set apart (white gutters) and the rows, still touching, are marked in the side margins
    gx, gy = lay.gap
    assert 2 * MM - 1e-6 <= gx <= 3 * MM + 1e-6 and gy == 0
    assert all(m.y0 == m.y1 for m in lay.crop_marks)
    assert len({round(m.y0, 3) for m in lay.crop_marks}) == 4
    assert lay.scale_bar is not None and lay.scale_bar.vertical
    # on A4 the columns leave 9.75 mm beside them: marks of the rows would print only 3.25 mm, so the
    # rows are set 3 mm apart instead and the marks above and below (8.7 mm) guide the columns
    a4 = sheet_layout(paper_size("a4"), card_size("poker"))
    assert a4.per_page == 9 and a4.gap == (0.0, pytest.approx(3 * MM))
    assert a4.crop_marks and all(m.x0 == m.x1 for m in a4.crop_marks)


def test_gutter_ticks_mark_cuts_between_cards_set_wide_apart():
    lay = sheet_layout(paper_size("a4"), card_size("poker"), mm(1), gap=mm(8))
    grid = lay.grid
    ticks = [m for m in lay.crop_marks if grid.x < min(m.x0, m.x1) and max(m.x0, m.x1) < grid.x1
             and grid.y < min(m.y0, m.y1) and max(m.y0, m.y1) < grid.y1]
    assert ticks
    for t in ticks:
        length = abs(t.x1 - t.x0) + abs(t.y1 - t.y0)
        assert length >= MIN_MARK - 1e-6
        for s in lay.slots:            # in the white gutter, clear of every card's bleed
            assert not s.outset(mm(1)).overlaps(s.__class__(min(t.x0, t.x1), min(t.y0, t.y1),
                                                              max(abs(t.x1 - t.x0), 1e-3),
                                                              max(abs(t.y1 - t.y0), 1e-3)))


def test_turned_slots_mirror_exactly():
    page = paper_size("letter")
    lay = sheet_layout(page, card_size("poker"), mm(3))
    assert lay.turned and lay.per_page == 6
    for front in lay.slots:
        back = back_slot(front, page, "long")
        assert (back.w, back.h) == (front.w, front.h) == (card_size("poker").height, card_size("poker").width)
        assert back.x == pytest.approx(page.width - front.x1) and back.y == pytest.approx(front.y)
