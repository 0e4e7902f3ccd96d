"""Packing geometry: every shape inside the printable area, none overlapping, on letter and A4."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kitgen.packing import (GAP, MARGIN, DoesNotFit, Rect, card_grid, content_area, crop_marks,
                            largest_content, pack_shelves, paginate, printable_area)
from kitgen.units import Size, mm, paper_size

PAPERS = {"letter": paper_size("letter"), "a4": paper_size("a4")}
FIVE_MM = 5 * 72 / 25.4


def inside_margins(r: Rect, paper: Size) -> bool:
    tol = 1e-6
    return (r.x >= FIVE_MM - tol and r.y >= FIVE_MM - tol
            and r.x + r.width <= paper.width - FIVE_MM + tol and r.y + r.height <= paper.height - FIVE_MM + tol)


def apart(a: Rect, b: Rect, gap: float) -> bool:
    """True when the two boxes are at least ``gap`` apart on x or on y."""
    tol = 1e-6
    return (a.x + a.width + gap <= b.x + tol or b.x + b.width + gap <= a.x + tol
            or a.y + a.height + gap <= b.y + tol or b.y + b.height + gap <= a.y + tol)


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
        assert p.rect.width == pytest.approx(expected[0]) and p.rect.height == pytest.approx(expected[1])
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
def test_card_grid_and_crop_marks_inside_and_off_the_cards(paper_name, w, h, count):
    paper = PAPERS[paper_name]
    area = content_area(paper)
    grid = card_grid(Size(mm(w), mm(h)), area)
    for page in paginate(count, grid.per_page):
        cells = [grid.cells[i] for i in range(len(page))]
        for c in cells:
            assert inside_margins(c, paper) and area.contains(c)
            assert c.width == pytest.approx(mm(w)) and c.height == pytest.approx(mm(h))
        for i, a in enumerate(cells):
            for b in cells[i + 1:]:
                assert not a.overlaps(b)
        for m in crop_marks(cells):
            box = Rect(min(m.x1, m.x2), min(m.y1, m.y2), abs(m.x2 - m.x1), abs(m.y2 - m.y1))
            assert inside_margins(box, paper)
            # a mark continues a cut line: its x (vertical mark) or y (horizontal mark) is a card edge
            if m.x1 == m.x2:
                assert any(abs(m.x1 - v) < 1e-3 for c in cells for v in (c.x, c.x + c.width))
                assert not any(c.y - 1e-6 < m.y1 < c.y + c.height + 1e-6 for c in cells)
            else:
                assert any(abs(m.y1 - v) < 1e-3 for c in cells for v in (c.y, c.y + c.height))
                assert not any(c.x - 1e-6 < m.x1 < c.x + c.width + 1e-6 for c in cells)


def test_rows_fill_as_hand_counted():
    # 25 mm circles, 3 mm apart on letter: 7 across 205.9 mm, 9 down the 259.4 mm under the heading
    area = content_area(PAPERS["letter"])
    assert area.width == pytest.approx(mm(215.9 - 10)) and area.height == pytest.approx(mm(279.4 - 10 - 10))
    one_page = pack_shelves([(mm(25), mm(25))] * 63, area)
    assert {p.page for p in one_page} == {0}
    assert len({round(p.rect.y, 3) for p in one_page}) == 9
    two_pages = pack_shelves([(mm(25), mm(25))] * 64, area)
    assert sorted({p.page for p in two_pages}) == [0, 1]
    assert sum(p.page == 1 for p in two_pages) == 1


def test_rows_are_centred_across_the_page():
    area = content_area(PAPERS["a4"])
    (p,) = pack_shelves([(mm(40), mm(40))], area)
    assert p.rect.x - area.x == pytest.approx(area.x + area.width - (p.rect.x + p.rect.width))
    assert p.rect.y + p.rect.height == pytest.approx(area.y + area.height)


def test_too_wide_shape_is_turned_and_too_large_refused():
    area = content_area(PAPERS["letter"])
    (p,) = pack_shelves([(mm(240), mm(150))], area)
    assert p.rotated and p.rect.width == pytest.approx(mm(150)) and p.rect.height == pytest.approx(mm(240))
    with pytest.raises(DoesNotFit) as info:
        pack_shelves([(mm(20), mm(20)), (mm(300), mm(300))], area)
    assert info.value.index == 1


def test_largest_content_is_what_both_papers_offer():
    w, h = largest_content()
    assert w == pytest.approx(mm(210 - 10))                # A4 is the narrower
    assert h == pytest.approx(mm(279.4 - 10 - 10))         # letter is the shorter, less the heading
    assert printable_area(PAPERS["a4"]).x == pytest.approx(MARGIN) == pytest.approx(FIVE_MM)


def test_poker_cards_grid_on_letter():
    grid = card_grid(Size(mm(63.5), mm(88.9)), content_area(PAPERS["letter"]))
    assert (grid.columns, grid.rows) == (3, 2)
    block = grid.block
    page = PAPERS["letter"]
    assert block.x == pytest.approx(page.width - block.x - block.width)   # centred across


def test_paginate():
    assert [list(r) for r in paginate(7, 3)] == [[0, 1, 2], [3, 4, 5], [6]]
    assert paginate(0, 3) == []
