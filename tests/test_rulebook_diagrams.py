"""Rulebook diagrams and card pictures, read back: every label fits, every text reads (WCAG contrast),
real cards drawn by the kit's painter."""

from __future__ import annotations

import io

import pdfplumber
import pypdfium2 as pdfium
import pytest
from PIL import Image

from kitgen.data.builtin import builtin_games
from kitgen.data.game import load_game
from kitgen.errors import GameDataError
from kitgen.layout import stack_diagram as geo
from kitgen.render.colors import READABLE, contrast
from kitgen.render.rulebook import _blocks, document, markup, render_rulebook
from kitgen.render.rulebook.diagrams import NAME_SIZES, band_label
from kitgen.render.text_fit import ELLIPSIS
from kitgen.units import MM, paper_size
from tests.conftest import copy_builtin

LETTER = paper_size("letter")
SCALE = 3                   # rasters at 216 dpi


def diagrams_pdf(game) -> bytes:
    """Only the diagrams of a game's rulebook, laid out as the rulebook lays them out."""
    blocks, where = _blocks(game)
    kept = [b for b in blocks if isinstance(b, markup.Insert) and b.kind in ("stacks", "phases")]
    assert kept
    return document.build_pdf(kept, game, LETTER, where)


def long_names_game(tmp_path):
    """Temple of Inscriptions with longer card names, and a long temple label, to push the diagrams."""
    folder = copy_builtin("temple-of-inscriptions", tmp_path / "long")
    csv = folder / "cards.csv"
    text = csv.read_text(encoding="utf-8")
    for old, new in (("Foundation Stone", "Foundation Stone of the Great Platform"),
                     ("Rubble Core", "Rubble Core"), ("Lower Terrace", "Lowermost Terrace Wall")):
        text = text.replace(old, new)
    csv.write_text(text, encoding="utf-8")
    template = folder / "templates" / "rules.md.j2"
    template.write_text(template.read_text(encoding="utf-8").replace(
        'labels=["Pyramid"]', 'labels=["The pyramid over the tomb of Pakal the Great"]'), encoding="utf-8")
    return load_game(folder)


@pytest.fixture(scope="module")
def diagrams(tmp_path_factory):
    out = {slug: diagrams_pdf(load_game(slug)) for slug in builtin_games()}
    out["long names"] = diagrams_pdf(long_names_game(tmp_path_factory.mktemp("g")))
    return out


@pytest.fixture(scope="module")
def read_back(diagrams) -> dict[str, list[dict]]:
    """Each diagrams PDF read back by pdfplumber once for the tests below: per page, its height, characters,
    rectangles, curves and text."""
    out = {}
    for which, data in diagrams.items():
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            out[which] = [{"height": float(page.height), "chars": page.chars, "rects": page.rects,
                           "curves": page.curves, "text": page.extract_text()} for page in pdf.pages]
    return out


def _bands(page):
    """The value bands of the temple cards: filled shapes 15 pt high and a card wide."""
    h = page["height"]
    return [(o["x0"], h - o["bottom"], o["x1"], h - o["top"]) for o in page["rects"] + page["curves"]
            if abs(o["height"] - geo.BAND_H) < 0.3 and abs(o["width"] - (geo.CARD_W - 2 * geo.BAND_INSET)) < 0.3
            and o.get("fill")]


def _overlap(a, b) -> float:
    w = min(a["x1"], b["x1"]) - max(a["x0"], b["x0"])
    h = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    return max(0.0, w) * max(0.0, h)


@pytest.mark.parametrize("which", [*builtin_games(), "long names"])
def test_every_diagram_label_fits_its_place(read_back, which):
    names_seen = []
    for page in read_back[which]:
        h = page["height"]
        chars = [c for c in page["chars"] if c["text"].strip()]
        # no character runs into another (a value into a name, a label into its neighbour)
        ordered = sorted(chars, key=lambda c: c["x0"])
        for i, a in enumerate(ordered):
            for b in ordered[i + 1:]:
                if b["x0"] >= a["x1"]:
                    break
                small = min((a["x1"] - a["x0"]) * (a["bottom"] - a["top"]),
                            (b["x1"] - b["x0"]) * (b["bottom"] - b["top"]))
                assert _overlap(a, b) <= 0.25 * small, (a["text"], b["text"])
        for x0, y0, x1, y1 in _bands(page):
            inside = [c for c in chars if x0 - 2 < (c["x0"] + c["x1"]) / 2 < x1 + 2 and y0 - 2 < h - (c["top"] + c["bottom"]) / 2 < y1 + 2]
            values = [c for c in inside if c["size"] > 9]
            names = [c for c in inside if c["size"] <= NAME_SIZES[0] + 0.01]
            assert len(values) == 1
            for c in names:                 # inside the band, clear of its ends and of the value
                assert c["x0"] >= values[0]["x1"] + geo.VALUE_GAP - 0.5 and c["x1"] <= x1 - geo.BAND_PAD + 0.5
                assert y0 <= h - c["bottom"] and h - c["top"] <= y1
                assert c["size"] >= NAME_SIZES[1] - 0.01
            names_seen.append("".join(c["text"] for c in sorted(names, key=lambda c: (c["top"] > (names[0]["top"] + 2), c["x0"]))))
        text = " ".join(page["text"].split())
        if which == "long names":
            assert "The pyramid over the tomb" in text or ELLIPSIS in text
    if which == "temple-of-inscriptions":    # every name there fits whole, on one line or two
        assert {"FoundationStone", "RubbleCore", "LowerTerrace"} <= set(names_seen)
    if which == "long names":
        assert any(n.endswith(ELLIPSIS) for n in names_seen)      # too long even on two lines: shortened
        assert "RubbleCore" in names_seen


@pytest.mark.parametrize("name, width", [("Rubble Core", 33.0), ("Foundation Stone", 36.0), ("Stairs", 30.0),
                                         ("Foundation Stone of the Great Platform", 36.0), ("Mountainous", 20.0)])
def test_band_labels_fit_whole_or_say_they_are_cut(name, width):
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from kitgen.render import fonts

    fonts.register()
    lines, size = band_label(name, width, geo.BAND_H - 2)
    assert NAME_SIZES[1] <= size <= NAME_SIZES[0] and 1 <= len(lines) <= 2
    assert all(stringWidth(line, fonts.REGULAR, size) <= width + 1e-6 for line in lines)
    joined = " ".join(lines)
    assert joined == name or (len(lines) == 1 and joined.endswith(ELLIPSIS) and name.startswith(joined[:-1]))


def _background(im: Image.Image, box, glyph) -> tuple | None:
    """The colour behind a character: the commonest pixel in its box that is not close to the glyph's."""
    colours = im.crop(box).getcolors(maxcolors=1 << 16) or []
    far = [(n, c) for n, c in colours if sum(abs(a - b) for a, b in zip(c, glyph)) > 90]
    return max(far)[1] if far else None


@pytest.mark.parametrize("which", [*builtin_games(), "long names"])
def test_diagram_text_contrast_is_at_least_4_5_to_1(diagrams, read_back, which):
    doc = pdfium.PdfDocument(diagrams[which])
    checked = 0
    for n, page in enumerate(read_back[which]):
        im = doc[n].render(scale=SCALE).to_pil().convert("RGB")
        for c in page["chars"]:
            if not c["text"].strip():
                continue
            colour = c["non_stroking_color"]
            glyph = tuple(round(v * 255) for v in (colour * 3 if len(colour) == 1 else colour))
            box = tuple(round(v * SCALE) for v in (c["x0"], c["top"], c["x1"], c["bottom"]))
            behind = _background(im, box, glyph)
            if behind is None:
                continue
            ratio = contrast("#%02x%02x%02x" % glyph, "#%02x%02x%02x" % behind)
            assert ratio >= READABLE - 0.05, (which, c["text"], glyph, behind, round(ratio, 2))
            checked += 1
    assert checked > 50


def test_the_contrast_formula_is_wcag_2():
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)      # WCAG's own borderline grey
    assert contrast("#ffffff", "#ffffff") == pytest.approx(1.0)


def test_altun_ha_shows_one_real_card_of_each_kind(altun_kit):
    game = load_game("altun-ha")
    data = (altun_kit / "rules.pdf").read_bytes()     # what render_rulebook(game, LETTER) draws with the game's art
    doc = pdfium.PdfDocument(data)
    (number,) = [n for n in range(len(doc)) if "One card of each kind" in doc[n].get_textpage().get_text_range()]
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        page = pdf.pages[number]
        words = page.extract_words()
        frames = list({(round(r["x0"]), round(r["top"])): r for r in page.rects
                       if 0.70 < r["width"] / r["height"] < 0.73 and r["width"] > 35 * MM}.values())
        assert len(frames) == len(game.types)
        firsts = [next(c for c in game.cards if c.type == t) for t in game.types]
        for card, label in zip(firsts, (t.label.upper() for t in game.types.values())):
            first_word = card.name.split()[0]
            hits = [f for f in frames if any(w["text"] == first_word and f["x0"] < w["x0"] < f["x1"]
                                             and f["top"] < w["top"] < f["bottom"] for w in words)]
            assert len(hits) == 1, card.name
            frame = hits[0]
            inside = " ".join(w["text"] for w in words if frame["x0"] < w["x0"] < frame["x1"]
                              and frame["top"] < w["top"] < frame["bottom"])
            assert label in inside, (card.name, inside)
        assert page.images            # the cards' own art


def test_show_cards_names_a_card_that_does_not_exist_at_its_line(tmp_path):
    folder = copy_builtin("ancestral", tmp_path / "g")
    template = folder / "templates" / "rules.md.j2"
    template.write_text("# Cards\n\n{{ show_cards(['Strong Wind', 'Gale']) }}\n", encoding="utf-8")
    with pytest.raises(GameDataError, match=r"rules\.md\.j2, line 3: show_cards: no card named 'Gale'"):
        render_rulebook(load_game(folder), LETTER)
