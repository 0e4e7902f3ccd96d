"""Sheet geometry, checked as plain numbers (no PDF involved)."""

from __future__ import annotations

import pytest

from kitgen.errors import LayoutError
from kitgen.layout.deck import place_cards
from kitgen.layout.duplex import back_slot, duplex_layout
from kitgen.layout.sheet import PRINTER_MARGIN, sheet_layout
from kitgen.units import CARD_SIZES_MM, MM, card_size, mm, paper_size

PAPERS = ["letter", "a4"]


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("size", list(CARD_SIZES_MM))
@pytest.mark.parametrize("bleed", [0.0, 3.0])
def test_grid_fits_inside_margins_without_overlap(paper, size, bleed):
    page, card = paper_size(paper), card_size(size)
    lay = sheet_layout(page, card, mm(bleed))
    w, h = (card.height, card.width) if lay.turned else (card.width, card.height)
    for slot in lay.slots:
        assert slot.w == pytest.approx(w) and slot.h == pytest.approx(h)
        outer = slot.outset(mm(bleed))
        assert min(outer.x, outer.y, page.width - outer.x1, page.height - outer.y1) >= PRINTER_MARGIN - 1e-6
    for i, a in enumerate(lay.slots):
        for b in lay.slots[i + 1:]:
            assert not a.outset(mm(bleed)).overlaps(b.outset(mm(bleed)))
    grid = lay.grid
    assert grid.x == pytest.approx(page.width - grid.x1)   # centred
    assert grid.y == pytest.approx(page.height - grid.y1)
    # no grid, upright or turned, whose crop marks all print beyond it holds more cards
    reach = PRINTER_MARGIN + 1.5 * MM + 3 * MM       # a mark's clearance and its 3 mm that print
    for cw, ch in ((card.width, card.height), (card.height, card.width)):
        cols = int((page.width - 2 * reach) // (cw + 2 * mm(bleed)))
        rows = int((page.height - 2 * reach) // (ch + 2 * mm(bleed)))
        assert cols * rows <= lay.per_page


def test_poker_on_letter_is_three_by_three_and_mini_more():
    assert sheet_layout(paper_size("letter"), card_size("poker")).per_page == 9
    assert sheet_layout(paper_size("letter"), card_size("mini")).per_page == 20


@pytest.mark.parametrize("bleed", [0.0, 2.0])
def test_crop_marks_stay_outside_cards_and_reach_page_edge(bleed):
    page = paper_size("a4")      # on A4 every cut has room for marks beyond the grid
    lay = sheet_layout(page, card_size("poker"), mm(bleed))
    areas = [s.outset(mm(bleed)) for s in lay.slots]
    assert lay.crop_marks
    for ln in lay.crop_marks:
        touches_edge = {ln.x0, ln.x1} & {0.0, page.width} or {ln.y0, ln.y1} & {0.0, page.height}
        assert touches_edge
        for a in areas:   # a mark never enters a card or its bleed
            if ln.x0 == ln.x1:
                assert not (a.x < ln.x0 < a.x1 and max(ln.y0, a.y) < min(ln.y1, a.y1))
                assert not (max(ln.y0, a.y) < min(ln.y1, a.y1) and a.x <= ln.x0 <= a.x1)
            else:
                assert not (max(ln.x0, a.x) < min(ln.x1, a.x1) and a.y <= ln.y0 <= a.y1)
    xs = {round(ln.x0, 3) for ln in lay.crop_marks if ln.x0 == ln.x1}
    cuts = {round(v, 3) for s in lay.slots for v in (s.x, s.x1)}
    assert xs == cuts    # every vertical cut has its marks


def test_no_crop_marks_when_off():
    assert sheet_layout(paper_size("a4"), card_size("poker"), crop_marks=False).crop_marks == ()


def test_scale_bar_sits_in_printable_margin_outside_the_grid():
    for paper in PAPERS:
        page = paper_size(paper)
        lay = sheet_layout(page, card_size("poker"))
        bar = lay.scale_bar
        assert bar is not None
        assert bar.x >= PRINTER_MARGIN - 1e-6 and bar.y >= PRINTER_MARGIN - 1e-6
        if bar.vertical:
            assert bar.x + 4.2 * MM <= lay.grid.x
            assert bar.y + bar.length <= page.height - PRINTER_MARGIN
        else:
            assert bar.y + 4.2 * MM <= lay.grid.y


def test_card_too_large_is_refused_with_the_sizes_and_no_option():
    with pytest.raises(LayoutError, match=r"^a card of 200.0 x 300.0 mm .*does not fit on letter") as info:
        sheet_layout(paper_size("letter"), card_size("200x300"), paper_name="letter")
    assert "--" not in str(info.value)       # the caller names the option that gave the size


def test_negative_bleed_is_refused():
    with pytest.raises(LayoutError, match="bleed must be 0 mm or more"):
        sheet_layout(paper_size("letter"), card_size("poker"), -1.0)


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_back_lands_behind_front_when_the_sheet_is_turned(duplex):
    page = paper_size("letter")
    lay = sheet_layout(page, card_size("poker"))
    for front in lay.slots:
        back = back_slot(front, page, duplex)
        if duplex == "long":   # turning over the long (vertical) edge maps x -> W - x
            assert (back.x, back.x1, back.y) == pytest.approx((page.width - front.x1, page.width - front.x, front.y))
        else:                  # turning over the short edge maps y -> H - y
            assert (back.y, back.y1, back.x) == pytest.approx((page.height - front.y1, page.height - front.y, front.x))


def test_back_offset_shifts_backs_only():
    page = paper_size("letter")
    lay = sheet_layout(page, card_size("poker"))
    plain, _ = place_cards([3], duplex_layout(lay, "long"))
    moved, _ = place_cards([3], duplex_layout(lay, "long", (mm(1.5), -mm(0.5))))
    for a, b in zip(plain, moved):
        assert a.front == b.front
        assert b.back.x - a.back.x == pytest.approx(mm(1.5))
        assert b.back.y - a.back.y == pytest.approx(-mm(0.5))


def test_pages_interleave_for_duplex_and_follow_for_none():
    lay = sheet_layout(paper_size("letter"), card_size("poker"))
    placements, pages = place_cards([13, 7], duplex_layout(lay, "long"))
    assert pages == 6 and len(placements) == 20
    assert [p.front_page for p in placements[::9]] == [1, 3, 5]
    assert all(p.back_page == p.front_page + 1 for p in placements)
    placements, pages = place_cards([13, 7], duplex_layout(lay, "none"))
    assert pages == 6
    assert {p.front_page for p in placements} == {1, 2, 3}
    assert all(p.back_page == p.front_page + 3 for p in placements)
