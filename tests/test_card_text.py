"""A box's text set at the largest size it fits: a paragraph parsed once and resized is the paragraph
parsed at each size, and the sizes skipped without wrapping are sizes at which the text cannot fit."""

from __future__ import annotations

import math
import random

import pytest
from reportlab.lib.colors import Color
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.utils import simpleSplit

from kitgen.render import fonts
from kitgen.render.card_text import TextSetting, attempts
from kitgen.render.rich_text import IconParagraph, para_markup, parse
from kitgen.render.text_fit import largest_fit

WORDS = ("gain", "lose", "draw", "**two**", "*cards*", "discard", "each", "player", "a", "token",
         "Überraschung", "naïve", "extraordinarily-long-word-without-any-break", "\n", "&", "<tag>")


def _text(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 40)))


def _style(size: float) -> ParagraphStyle:
    return ParagraphStyle("card", fontName=fonts.REGULAR, fontSize=size, leading=size * 1.22, textColor=Color(0, 0, 0))


@pytest.fixture(scope="module", autouse=True)
def _fonts():
    fonts.register()


def test_a_resized_paragraph_is_the_paragraph_parsed_at_that_size():
    rng = random.Random(4)
    for _ in range(150):
        text = _text(rng)
        first = IconParagraph(para_markup(parse(text), 10.5, {}), _style(10.5), {})
        size = rng.choice([9.75, 8.0, 6.25, 10.5, 12.0])
        parsed = IconParagraph(para_markup(parse(text), size, {}), _style(size), {})
        resized = first.resized(_style(size))
        assert [f.__dict__ for f in resized.frags] == [f.__dict__ for f in parsed.frags]
        width = rng.uniform(30, 200)
        assert resized.wrap(width, 500) == parsed.wrap(width, 500)
        assert resized.getActualLineWidths0() == parsed.getActualLineWidths0()
        assert repr(resized.blPara.lines) == repr(parsed.blPara.lines)


def test_a_resized_paragraph_with_icons_is_the_paragraph_parsed_at_that_size(tmp_path):
    """An icon's picture is sized as the markup written at the new size gives it (its width to 4
    decimals of the type size times its aspect, an odd one here)."""
    from PIL import Image

    from kitgen.data.icons import IconLibrary
    from kitgen.render.rich_text import Icon

    Image.new("RGBA", (37, 13), (200, 0, 0, 255)).save(tmp_path / "wide.png")
    icons = {"coin": Icon("coin", IconLibrary(None).find("coin", "test")), "wide": Icon("wide", tmp_path / "wide.png")}
    rng = random.Random(5)
    words = WORDS + (":coin:", ":wide:", ":wide::coin:")
    for _ in range(60):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(1, 30))) + " :wide:"
        first = IconParagraph(para_markup(parse(text), 10.5, icons), _style(10.5), icons)
        size = rng.choice([9.75, 8.0, 6.25, 10.5, 12.0, 7.3])
        parsed = IconParagraph(para_markup(parse(text), size, icons), _style(size), icons)
        resized = first.resized(_style(size))

        def seen(para):
            return [{k: (v.__dict__ if k == "cbDefn" else v) for k, v in f.__dict__.items()} for f in para.frags]
        assert seen(resized) == seen(parsed)
        assert any(getattr(f, "cbDefn", None) is not None for f in parsed.frags)
        width = rng.uniform(30, 200)
        assert resized.wrap(width, 500) == parsed.wrap(width, 500)
        assert resized.getActualLineWidths0() == parsed.getActualLineWidths0()
        assert repr(resized.blPara.lines) == repr(parsed.blPara.lines)


def _fits_when_wrapped(how: TextSetting, size: float) -> bool:
    para = IconParagraph(para_markup(parse(how.text), size, {}), _style(size), {})
    _, h = para.wrap(how.width, how.height)
    return h <= how.height and max(para.getActualLineWidths0() or [0]) <= how.width + 0.01


def test_sizes_are_skipped_only_where_the_text_cannot_fit(monkeypatch):
    rng = random.Random(9)
    font_set = fonts.FontSet(None)
    wrapped = []
    wrap = IconParagraph.wrap
    monkeypatch.setattr(IconParagraph, "wrap", lambda self, w, h: wrapped.append(1) or wrap(self, w, h))
    tried = wraps = 0
    for _ in range(120):
        how = TextSetting(_text(rng), fonts.DEFAULT_FAMILY, False, False, width=rng.uniform(40, 160), top=10.5,
                          low=5.0, lines=None, height=rng.uniform(20, 90), leading=1.22)
        fits: dict[float, bool] = {}           # size -> whether the text wrapped at it fits, worked out once

        def fits_wrapped(size: float) -> bool:
            if size not in fits:
                fits[size] = _fits_when_wrapped(how, size)
            return fits[size]
        attempt = attempts(how, parse(how.text), {}, font_set)
        for size in (10.5, 9.0, 7.5, 6.0, 5.0):
            wrapped.clear()
            got = attempt(size)
            tried, wraps = tried + 1, wraps + len(wrapped)
            assert (got is not None) == fits_wrapped(size), (how, size)
            assert got is None or got.size == size
        # the sizes tried, and so the size found, are those of wrapping the text at every size tried
        found = largest_fit(attempts(how, parse(how.text), {}, font_set), how.top, how.low)
        reference = largest_fit(lambda s: s if fits_wrapped(s) else None, how.top, how.low)
        assert (found.size if found else None) == reference
    assert wraps < tried                # some sizes were refused without wrapping the paragraph


def test_a_text_that_just_fits_its_box_is_never_refused_unwrapped():
    rng = random.Random(12)
    font_set = fonts.FontSet(None)
    for _ in range(200):
        text, size = _text(rng), rng.choice([10.5, 8.0, 6.5])
        para = IconParagraph(para_markup(parse(text), size, {}), _style(size), {})
        _, h = para.wrap(rng.uniform(30, 200), 1000)
        width = max(para.getActualLineWidths0() or [0])          # the box as wide and tall as the text
        how = TextSetting(text, fonts.DEFAULT_FAMILY, False, False, width=width, top=size, low=size, lines=None,
                          height=h, leading=1.22)
        assert (attempts(how, parse(text), {}, font_set)(size) is not None) == _fits_when_wrapped(how, size)


def test_the_one_fit_search_finds_what_trying_every_size_from_the_top_finds():
    """largest_fit (card texts, sheet labels, reference cards, aids) against a plain scan down by the step."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from kitgen.render.text_fit import fit_line, wrap_lines

    def scan(fits, top, low, step):
        size = top
        while size >= low - 1e-9:
            if fits(size):
                return size
            size -= step
        return None

    rng = random.Random(4)
    fonts.register()
    for _ in range(300):
        top, low = rng.choice([(10.5, 5.0), (5.5, 4.5), (11.0, 5.5), (8.0, 8.0), (9.0, 6.5)])
        step = rng.choice([0.25, 0.5])
        limit = rng.uniform(low - 1, top + 1)                       # fits at and below this size
        asked = []
        found = largest_fit(lambda s: asked.append(s) or (s if s <= limit else None), top, low, step)
        assert found == scan(lambda s: s <= limit, top, low, step), (top, low, step, limit)
        assert asked[0] == top and len(asked) <= 2 + math.log2((top - low) / step + 1)   # top first, then halving
        text, width = _text(rng)[:rng.randint(3, 60)], rng.uniform(20, 200)
        assert fit_line(text, fonts.REGULAR, top, low, width, step) == scan(
            lambda s: stringWidth(text, fonts.REGULAR, s) <= width, top, low, step)
        wrapped = wrap_lines(text, fonts.REGULAR, top, low, width, 2)
        assert (wrapped[0] if wrapped else None) == scan(
            lambda s: len(simpleSplit(text, fonts.REGULAR, s, width)) <= 2, top, low, 0.25)
    assert largest_fit(lambda s: s, 4.0, 5.0) == 4.0                  # the top is tried even below the lowest
    assert largest_fit(lambda s: None, 10.0, 6.0) is None


def test_a_line_setters_widths_are_reportlabs_at_each_size():
    """The few-line setter measures each run once at 1 pt and scales it: the widths it sets lines by
    are, float for float, what reportlab's stringWidth gives at each size, on every built-in face."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from kitgen.render.rich_text import LineSetter

    rng = random.Random(8)
    faces = {(False, False): fonts.REGULAR, (True, False): fonts.BOLD, (False, True): fonts.ITALIC,
             (True, True): fonts.BOLD_ITALIC}
    texts = [_text(rng) for _ in range(3)] + ["***Ωμέγα*** Жёлтый **ÆØÅ** *ﬁ* 1/2 — “x”"]
    sizes = [quarter / 4 for quarter in range(1, 241)] + [rng.uniform(1, 60) for _ in range(40)]  # a scaled top
    for text in texts:
        for base in faces:
            pieces = parse(text, *base)
            setter = LineSetter(pieces, lambda b, i: faces[(b, i)], {}, base)
            for size in sizes:
                parts = [part for line in setter.lines(size, 1e9) for word in line for part in word]
                for part in parts:
                    assert part.width == stringWidth(part.text, part.face, size), (part, size)
                if len(parts) >= 2:          # two words on a line, a space of the base face between them
                    assert setter.width([[parts[0]], [parts[1]]], size) == \
                        parts[0].width + parts[1].width + stringWidth(" ", faces[base], size)
