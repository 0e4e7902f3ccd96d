"""Board tiling geometry: parts cover the board, neighbours share exactly the overlap, pages stay printable."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kitgen.errors import LayoutError
from kitgen.layout.packing import printable_area
from kitgen.layout.tiling import spans, tile_board
from kitgen.render.aids.board import board_area
from kitgen.units import mm, paper_size

PAPERS = ["letter", "a4"]


def check_cover(tiling, overlap):
    """Every part's columns and rows: contiguous spans from 0 to the side, neighbours sharing ``overlap``."""
    xs = sorted({(round(p.part.x, 6), round(p.part.x1, 6)) for p in tiling.parts})
    ys = sorted({(round(p.part.y, 6), round(p.part.y1, 6)) for p in tiling.parts})
    assert len(tiling.parts) == len(xs) * len(ys) == tiling.columns * tiling.rows
    for spans_, side in ((xs, tiling.width), (ys, tiling.height)):
        assert spans_[0][0] == pytest.approx(0, abs=1e-6)
        assert spans_[-1][1] == pytest.approx(side, abs=1e-6)
        for (a0, a1), (b0, b1) in zip(spans_, spans_[1:]):
            assert a1 - b0 == pytest.approx(overlap, abs=1e-6)   # shared strip
            assert b0 > a0                                       # and each part adds something
    # every point of the board lies in some part: check a fine grid
    for i in range(41):
        for j in range(41):
            x, y = tiling.width * i / 40, tiling.height * j / 40
            assert any(p.part.contains_point(x, y) for p in tiling.parts)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("size_mm", [(420, 297), (297, 420), (600, 450), (841, 594), (500, 180)])
def test_parts_cover_the_board_with_the_stated_overlap(paper, size_mm):
    page = paper_size(paper)
    area = board_area(page)
    overlap = mm(10)
    tiling = tile_board(mm(size_mm[0]), mm(size_mm[1]), area, overlap)
    check_cover(tiling, overlap)
    printable = printable_area(page)
    for part in tiling.parts:
        assert part.window.w == pytest.approx(part.part.w)
        assert part.window.h == pytest.approx(part.part.h)
        assert area.contains(part.window) and printable.contains(part.window)
        assert part.cut_left == (part.column > 0) and part.cut_top == (part.row > 0)


@pytest.mark.parametrize("paper", PAPERS)
def test_a3_board_takes_four_pages_turned_on_both_papers(paper):
    # 420 x 297 mm as declared would need 3 x 2 pages; turned, 2 x 2
    tiling = tile_board(mm(420), mm(297), board_area(paper_size(paper)), mm(10))
    assert tiling.rotated and (tiling.columns, tiling.rows) == (2, 2)
    assert (tiling.width, tiling.height) == (pytest.approx(mm(297)), pytest.approx(mm(420)))
    assert [p.label for p in tiling.parts] == ["A1", "A2", "B1", "B2"]
    # the declared top-left corner lands at the oriented top-left after a quarter turn counter-clockwise
    assert tiling.oriented(0, mm(297)) == (pytest.approx(0), pytest.approx(0))
    assert tiling.oriented(mm(420), mm(297)) == (pytest.approx(0), pytest.approx(mm(420)))


def test_a_board_that_fits_is_one_page_without_marks():
    tiling = tile_board(mm(150), mm(100), board_area(paper_size("a4")), mm(10))
    assert len(tiling.parts) == 1 and not tiling.marks and not tiling.rotated
    assert not tiling.parts[0].cut_left and not tiling.parts[0].cut_top


@pytest.mark.parametrize("paper", PAPERS)
def test_alignment_marks_sit_on_seams_inside_both_neighbours(paper):
    tiling = tile_board(mm(600), mm(450), board_area(paper_size(paper)), mm(12))
    assert tiling.marks
    for mark in tiling.marks:
        holders = [p for p in tiling.parts if p.part.contains_point(mark.x, mark.y)]
        assert len(holders) >= 2
        # the seam is the left (or top) edge of a later part: that page is trimmed there
        if mark.vertical:
            assert any(p.cut_left and p.part.x == pytest.approx(mark.x) for p in holders)
        else:
            assert any(p.cut_top and p.part.y1 == pytest.approx(mark.y) for p in holders)


def test_a_point_maps_to_the_same_spot_of_the_board_on_both_pages():
    tiling = tile_board(mm(380), mm(240), board_area(paper_size("letter")), mm(10))
    left, right = tiling.parts
    x = right.part.x + mm(4)       # inside the shared strip
    lx, _ = left.to_page(x, mm(50))
    rx, _ = right.to_page(x, mm(50))
    assert lx - left.window.x == pytest.approx(x)
    assert rx - right.window.x == pytest.approx(mm(4))


def test_overlap_too_large_for_the_page_is_refused():
    with pytest.raises(LayoutError):
        tile_board(mm(500), mm(500), board_area(paper_size("letter")), mm(120))


@settings(max_examples=60)
@given(length=st.floats(10, 3000), window=st.floats(60, 300), overlap=st.floats(0, 25))
def test_spans_property(length, window, overlap):
    out = spans(length, window, overlap)
    assert out[0][0] == 0 and out[-1][1] == pytest.approx(length)
    assert all(0 < b - a <= window + 1e-6 for a, b in out)
    for (a0, a1), (b0, b1) in zip(out, out[1:]):
        assert a1 - b0 == pytest.approx(overlap, abs=1e-6)
    # no part more than needed: one part fewer could not cover the length
    n = len(out)
    assert n == 1 or (n - 1) * window - (n - 2) * overlap < length + 1e-6
