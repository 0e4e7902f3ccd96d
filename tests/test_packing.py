"""Aid geometry: every shape and reference card inside the printable area, none overlapping, on letter and A4."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kitgen.layout.geometry import Rect
from kitgen.layout.packing import (
    GAP,
    MARGIN,
    DoesNotFit,
    content_area,
    largest_content,
    pack_shelves,
    paginate,
    printable_area,
)
from kitgen.layout.sheet import sheet_layout
from kitgen.render.aids.reference import MARK_ROOM
from kitgen.units import Size, mm, paper_size

PAPERS = {"letter": paper_size("letter"), "a4": paper_size("a4")}
FIVE_MM = 5 * 72 / 25.4


def inside_margins(r: Rect, paper: Size, tol: float = 1e-6) -> bool:
    return (r.x >= FIVE_MM - tol and r.y >= FIVE_MM - tol
            and r.x + r.w <= paper.width - FIVE_MM + tol and r.y + r.h <= paper.height - FIVE_MM + tol)


def apart(a: Rect, b: Rect, gap: float) -> bool:
    """True when the two boxes are at least ``gap`` apart on x or on y."""
    tol = 1e-6
    return (a.x + a.w + gap <= b.x + tol or b.x + b.w + gap <= a.x + tol
            or a.y + a.h + gap <= b.y + tol or b.y + b.h + gap <= a.y + tol)


sizes_mm = st.lists(st.tuples(st.floats(5, 195), st.floats(5, 195)), min_size=1, max_size=40)


@pytest.mark.parametrize("paper_name", ["letter", "a4"])
@settings(max_examples=60, deadline=None)
@given(sizes=sizes_mm)
def test_packed_shapes_stay_inside_and_apart(paper_name, sizes):
    paper = PAPERS[paper_name]
    boxes = [(mm(w), mm(h)) for w, h in sizes]
    placements = pack_shelves(boxes, content_area(paper))
    assert [p.index for p in placements] == list(range(len(boxes)))
    for p, (w, h) in zip(placements, boxes):
        expected = (h, w) if p.rotated else (w, h)
        assert p.rect.w == pytest.approx(expected[0]) and p.rect.h == pytest.approx(expected[1])
        assert inside_margins(p.rect, paper)
    for i, a in enumerate(placements):
        for b in placements[i + 1:]:
            if a.page == b.page:
                assert apart(a.rect, b.rect, GAP), (a, b)
    pages = {p.page for p in placements}
    assert pages == set(range(len(pages)))  # no empty page in between


@pytest.mark.parametrize("paper_name", ["letter", "a4"])
@settings(max_examples=40, deadline=None)
@given(w=st.floats(20, 95), h=st.floats(20, 130), count=st.integers(1, 30))
def test_reference_card_grid_and_crop_marks_inside_and_off_the_cards(paper_name, w, h, count):
    # reference cards: a card-sheet layout confined to the area under the page heading
    paper = PAPERS[paper_name]
    area = content_area(paper)
    layout = sheet_layout(paper, Size(mm(w), mm(h)), margin=MARK_ROOM, area=area)
    for page in paginate(count, layout.per_page):
        cells = layout.slots[:len(page)]
        for c in cells:
            assert inside_margins(c, paper) and area.contains(c)
            assert c.w == pytest.approx(mm(w)) and c.h == pytest.approx(mm(h))
        for i, a in enumerate(cells):
            for b in cells[i + 1:]:
                assert not a.overlaps(b)
        assert layout.crop_marks
        for m in layout.crop_marks:
            box = Rect(min(m.x0, m.x1), min(m.y0, m.y1), abs(m.x1 - m.x0), abs(m.y1 - m.y0))
            # cut positions are rounded to 1/10000 pt
            assert inside_margins(box, paper, 1e-3) and area.contains(box, 1e-3)
            assert max(box.w, box.h) >= mm(4) - 1e-3
            # a mark continues a cut line: its x (vertical mark) or y (horizontal mark) is a card edge
            if m.x0 == m.x1:
                assert any(abs(m.x0 - v) < 1e-3 for c in layout.slots for v in (c.x, c.x + c.w))
                assert not any(c.y - 1e-6 < y < c.y + c.h + 1e-6 for c in layout.slots for y in (m.y0, m.y1))
            else:
                assert any(abs(m.y0 - v) < 1e-3 for c in layout.slots for v in (c.y, c.y + c.h))
                assert not any(c.x - 1e-6 < x < c.x + c.w + 1e-6 for c in layout.slots for x in (m.x0, m.x1))


def test_rows_fill_as_hand_counted():
    # 25 mm circles, 3 mm apart on letter: 7 across 205.9 mm, 9 down the 259.4 mm under the heading
    area = content_area(PAPERS["letter"])
    assert area.w == pytest.approx(mm(215.9 - 10)) and area.h == pytest.approx(mm(279.4 - 10 - 10))
    one_page = pack_shelves([(mm(25), mm(25))] * 63, area)
    assert {p.page for p in one_page} == {0}
    assert len({round(p.rect.y, 3) for p in one_page}) == 9
    two_pages = pack_shelves([(mm(25), mm(25))] * 64, area)
    assert sorted({p.page for p in two_pages}) == [0, 1]
    assert sum(p.page == 1 for p in two_pages) == 1


def test_rows_are_centred_across_the_page():
    area = content_area(PAPERS["a4"])
    (p,) = pack_shelves([(mm(40), mm(40))], area)
    assert p.rect.x - area.x == pytest.approx(area.x + area.w - (p.rect.x + p.rect.w))
    assert p.rect.y + p.rect.h == pytest.approx(area.y + area.h)


def test_too_wide_shape_is_turned_and_too_large_refused():
    area = content_area(PAPERS["letter"])
    (p,) = pack_shelves([(mm(240), mm(150))], area)
    assert p.rotated and p.rect.w == pytest.approx(mm(150)) and p.rect.h == pytest.approx(mm(240))
    with pytest.raises(DoesNotFit) as info:
        pack_shelves([(mm(20), mm(20)), (mm(300), mm(300))], area)
    assert info.value.index == 1


def test_largest_content_is_what_both_papers_offer():
    w, h = largest_content()
    assert w == pytest.approx(mm(210 - 10))                # A4 is the narrower
    assert h == pytest.approx(mm(279.4 - 10 - 10))         # letter is the shorter, less the heading
    assert printable_area(PAPERS["a4"]).x == pytest.approx(MARGIN) == pytest.approx(FIVE_MM)


def test_poker_reference_cards_on_letter():
    area = content_area(PAPERS["letter"])
    layout = sheet_layout(PAPERS["letter"], Size(mm(63.5), mm(88.9)), margin=MARK_ROOM, area=area)
    assert (layout.cols, layout.rows) == (3, 2)
    block = layout.grid
    page = PAPERS["letter"]
    assert block.x == pytest.approx(page.width - block.x - block.w)   # centred across
    # centred down the room under the heading, so clear of it
    assert block.y - area.y == pytest.approx(area.y + area.h - block.y1)


def test_paginate():
    assert [list(r) for r in paginate(7, 3)] == [[0, 1, 2], [3, 4, 5], [6]]
    assert paginate(0, 3) == []
