"""Aid geometry: every piece inside the printable area, copies edge to edge, none overlapping, on letter and A4."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kitgen.layout.geometry import Rect
from kitgen.layout.packing import (
    GAP,
    MARGIN,
    DoesNotFit,
    PieceGroup,
    Room,
    content_area,
    largest_content,
    pack_groups,
    printable_area,
)
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


groups_mm = st.lists(st.tuples(st.floats(5, 195), st.floats(5, 195), st.integers(1, 12), st.booleans()),
                    min_size=1, max_size=8)


@pytest.mark.parametrize("paper_name", ["letter", "a4"])
@settings(max_examples=60)
@given(spec=groups_mm)
def test_packed_pieces_stay_inside_touch_only_their_own_kind_and_fill_pages_in_order(paper_name, spec):
    paper = PAPERS[paper_name]
    groups = [PieceGroup(mm(w), mm(h), n, turnable) for w, h, n, turnable in spec]
    area = content_area(paper)
    try:
        placements = pack_groups(groups, [], area, 0)
    except DoesNotFit as exc:        # only a piece too large for the page either way it may lie
        g = groups[exc.index]
        assert not any(w <= area.w + 1e-6 and h <= area.h + 1e-6
                       for w, h in ([(g.width, g.height), (g.height, g.width)] if g.turnable else [(g.width, g.height)]))
        return
    assert [(p.group, p.item) for p in placements] == [(i, k) for i, g in enumerate(groups) for k in range(g.count)]
    for p in placements:
        g = groups[p.group]
        expected = (g.height, g.width) if p.rotated else (g.width, g.height)
        assert not p.rotated or g.turnable
        assert p.rect.w == pytest.approx(expected[0]) and p.rect.h == pytest.approx(expected[1])
        assert inside_margins(p.rect, paper) and area.contains(p.rect, 1e-6)
    for i, a in enumerate(placements):
        for b in placements[i + 1:]:
            if a.page == b.page:
                # copies of one piece lie edge to edge, different pieces a cutting gap apart
                assert apart(a.rect, b.rect, 0 if a.group == b.group else GAP), (a, b)
    pages = {p.page for p in placements}
    assert pages == set(range(len(pages)))  # no empty page in between


def test_copies_lie_edge_to_edge_as_hand_counted():
    # 24 mm tiles on letter: 8 across the 205.9 mm, 10 down the 259.4 mm under the heading, touching
    area = content_area(PAPERS["letter"])
    assert area.w == pytest.approx(mm(215.9 - 10)) and area.h == pytest.approx(mm(279.4 - 10 - 10))
    one_page = pack_groups([PieceGroup(mm(24), mm(24), 80)], [], area, 0)
    assert {p.page for p in one_page} == {0}
    xs = sorted({round(p.rect.x, 3) for p in one_page})
    assert len(xs) == 8 and all(b - a == pytest.approx(mm(24), abs=0.01) for a, b in zip(xs, xs[1:]))
    assert len({round(p.rect.y, 3) for p in one_page}) == 10
    two_pages = pack_groups([PieceGroup(mm(24), mm(24), 81)], [], area, 0)
    assert sum(p.page == 1 for p in two_pages) == 1
    # centred across a new page, starting at its top
    assert xs[0] - area.x == pytest.approx(area.x1 - (xs[-1] + mm(24)), abs=0.01)
    assert max(p.rect.y1 for p in one_page) == pytest.approx(area.y1)


def test_rooms_are_filled_before_a_new_page_and_by_the_most_copies():
    area = content_area(PAPERS["a4"])
    rooms = [Room(0, Rect(area.x, area.y, mm(30), mm(30))), Room(1, Rect(area.x, area.y, mm(100), mm(60)))]
    placed = pack_groups([PieceGroup(mm(24), mm(24), 10)], rooms, area, 2)
    by_page = {page: sum(p.page == page for p in placed) for page in (0, 1, 2)}
    assert by_page == {0: 1, 1: 8, 2: 1}    # 4 x 2 in the larger room first, 1 in the small one, 1 more on a new page


def test_too_wide_shape_is_turned_and_too_large_refused():
    area = content_area(PAPERS["letter"])
    (p,) = pack_groups([PieceGroup(mm(240), mm(150), 1)], [], area, 0)
    assert p.rotated and p.rect.w == pytest.approx(mm(150)) and p.rect.h == pytest.approx(mm(240))
    with pytest.raises(DoesNotFit) as info:
        pack_groups([PieceGroup(mm(20), mm(20), 1), PieceGroup(mm(300), mm(300), 1)], [], area, 0)
    assert info.value.index == 1
    with pytest.raises(DoesNotFit):          # a hexagon keeps its orientation
        pack_groups([PieceGroup(mm(240), mm(150), 1, turnable=False)], [], area, 0)


def test_largest_content_is_what_both_papers_offer():
    w, h = largest_content()
    assert w == pytest.approx(mm(210 - 10))                # A4 is the narrower
    assert h == pytest.approx(mm(279.4 - 10 - 10))         # letter is the shorter, less the heading
    assert printable_area(PAPERS["a4"]).x == pytest.approx(MARGIN) == pytest.approx(FIVE_MM)
