"""Lengths of layouts: the small expressions that place boxes, computed without drawing."""

from __future__ import annotations

import pytest

from kitgen.layout.card_boxes import Place, Places, outside_safe_zone, place_problem, with_bleed
from kitgen.layout.lengths import LengthError, evaluate, parse, points
from kitgen.units import MM


def value(text: str, scale: float = 1.0, percent_of: float | None = 200.0, names=None) -> float:
    lookup = lambda name, attr: (names or {})[(name, attr)]
    return points(evaluate(parse(text), lookup, scale, percent_of), scale, MM)


@pytest.mark.parametrize("text, expected", [
    ("3mm", 3 * MM), ("1in", 72.0), ("12pt", 12.0), ("1cm", 10 * MM), ("50%", 100.0),
    ("100% - 2 * 3mm", 200 - 6 * MM), ("(100% - 10pt) / 2", 95.0), ("min(60pt, 80%)", 60.0),
    ("max(1mm, 2pt, 3pt)", 3.0), ("-2pt + 5pt", 3.0), ("4", 4 * MM), ("0.5 * 10pt", 5.0),
])
def test_lengths_compute_to_points(text, expected):
    assert value(text) == pytest.approx(expected)


def test_lengths_with_units_scale_and_shares_of_the_trim_do_not():
    assert value("10pt", scale=0.5) == pytest.approx(5.0)
    assert value("50%", scale=0.5) == pytest.approx(100.0)
    assert value("2", scale=2.0) == pytest.approx(4 * MM)          # a bare number is mm, scaled too


def test_names_are_looked_up():
    names = {("frame", None): (10.0, 1), ("title", "bottom"): (40.0, 1), ("share", None): (0.5, 0)}
    assert value("title.bottom + frame", names=names) == pytest.approx(50.0)
    assert value("share * 100%", names=names) == pytest.approx(100.0)


@pytest.mark.parametrize("text, message", [
    ("3mm + 2", "cannot add a length and a plain number"), ("3mm * 2mm", "cannot multiply two lengths"),
    ("2 / 3mm", "cannot divide"), ("3mm / 0", "division by zero"), ("min(3mm, 2)", "mixes"),
    ("3 mm", "unexpected"), ("3px", "cannot read"), ("sqrt(4)", "unknown function"), ("(3mm", "ends too soon"),
    ("title.top", "a box has x, y, w, h, right, bottom, size"), ("", "empty"),
])
def test_mistakes_say_what_is_wrong(text, message):
    with pytest.raises(LengthError, match=message):
        value(text)


def test_percent_has_no_meaning_where_there_is_nothing_to_share():
    with pytest.raises(LengthError, match="% has no meaning"):
        value("50%", percent_of=None)


def test_boxes_refer_to_each_other_but_not_in_a_circle():
    settings = {("a", "x"): "b.right + 1mm", ("a", "y"): "0mm", ("a", "w"): "10mm", ("a", "h"): "10mm",
                ("b", "x"): "2mm", ("b", "y"): "a.bottom", ("b", "w"): "5mm", ("b", "h"): "5mm",
                ("c", "x"): "c.w", ("c", "y"): "0mm", ("c", "w"): "c.x", ("c", "h"): "1mm"}
    places = Places(100.0, 100.0, 1.0, {"a", "b", "c"}, lambda b, k: (parse(settings[(b, k)]), None),
                    lambda name: (parse("1mm"), None), lambda name: 0.0)
    assert places.place("a").x == pytest.approx(8 * MM)
    assert places.place("b").y == pytest.approx(10 * MM)
    with pytest.raises(LengthError, match=r"in a circle: c\.x -> c\.w -> c\.x"):
        places.place("c")


def test_places_checked_against_the_card_and_the_safe_zone():
    card = (180.0, 252.0)
    assert place_problem(Place(0, 0, 180, 252), *card, "rect") is None
    assert "outside the card" in place_problem(Place(170, 0, 20, 10), *card, "text")
    assert "greater than zero" in place_problem(Place(10, 10, 0, 10), *card, "text")
    assert place_problem(Place(10, 10, 50, 0), *card, "line") is None        # a flat line is a line
    assert with_bleed(Place(0, 0, 180, 252), *card, 9.0) == Place(-9, -9, 198, 270)
    assert with_bleed(Place(10, 0, 20, 10), *card, 9.0) == Place(10, -9, 20, 19)   # only where it meets the trim
    assert outside_safe_zone(Place(5, 20, 50, 10), *card, 3 * MM) == pytest.approx(3 * MM - 5)
    assert outside_safe_zone(Place(10, 20, 50, 10), *card, 3 * MM) == 0.0
