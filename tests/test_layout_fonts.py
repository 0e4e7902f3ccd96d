"""A game's own fonts: any .ttf or .otf of its fonts/ folder can be named in a layout, is embedded, and a
character it lacks is refused naming the row and column.  The fonts are made here with fontTools."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.t2CharStringPen import T2CharStringPen
from fontTools.pens.ttGlyphPen import TTGlyphPen

from tests.conftest import run
from tests.pdfcheck import fonts_of, unembedded_fonts
from tests.test_bad_input import assert_user_error
from tests.test_layout_errors import layout_game, text_box

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.,"


def make_font(path: Path, family: str, style: str = "Regular", cff: bool = False, letters: str = LETTERS) -> Path:
    """A font whose every letter is a box, with the glyphs of ``letters`` only."""
    names = [".notdef", "space"] + [f"g{ord(c)}" for c in letters]
    fb = FontBuilder(1000, isTTF=not cff)
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap({32: "space", **{ord(c): f"g{ord(c)}" for c in letters}})

    def draw(pen, empty: bool):
        if not empty:
            pen.moveTo((60, 0))
            pen.lineTo((60, 700))
            pen.lineTo((540, 700))
            pen.lineTo((540, 0))
            pen.closePath()

    if cff:
        charstrings = {}
        for n in names:
            pen = T2CharStringPen(600, None)
            draw(pen, n == "space")
            charstrings[n] = pen.getCharString()
        fb.setupCFF(f"{family}-{style}", {"FullName": f"{family} {style}"}, charstrings, {})
    else:
        glyphs = {}
        for n in names:
            pen = TTGlyphPen(None)
            draw(pen, n == "space")
            glyphs[n] = pen.glyph()
        fb.setupGlyf(glyphs)
    fb.setupHorizontalMetrics({n: (600, 60) for n in names})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": family, "styleName": style, "psName": f"{family}-{style}"})
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    path.parent.mkdir(parents=True, exist_ok=True)
    fb.save(str(path))
    return path


FONT_BOX = text_box(content='"{{ text }}"', font='"Blocky"', x='"5mm"', y='"20mm"', w='"100% - 10mm"', h='"30mm"')


@pytest.mark.parametrize("cff", [False, True], ids=["ttf", "otf-with-postscript-outlines"])
def test_a_font_of_the_game_folder_is_used_and_embedded(tmp_path, cff):
    folder = layout_game(tmp_path / "g", FONT_BOX)
    make_font(folder / "fonts" / ("Blocky-Regular.otf" if cff else "Blocky-Regular.ttf"), "Blocky", cff=cff)
    make_font(folder / "fonts" / "Blocky-Bold.ttf", "Blocky", "Bold")
    sheet = folder / "cards.csv"
    sheet.write_text(sheet.read_text(encoding="utf-8").replace("Deal 2 damage.", "Deal **2** damage."),
                     encoding="utf-8")
    result = run("build", folder, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "out" / "layout-test" / "cards.pdf"
    names = list(fonts_of(pdf))
    assert any("Blocky-Regular" in n for n in names) and any("Blocky-Bold" in n for n in names)
    assert unembedded_fonts(pdf) == []
    with pdfplumber.open(pdf) as doc:
        chars = [c for c in doc.pages[0].chars if c["text"] in "Deal2"]
    faces = {c["text"]: c["fontname"] for c in chars}
    assert faces["D"].endswith("Blocky-Regular") and faces["2"].endswith("Blocky-Bold")   # **2** is bold


def test_a_character_the_chosen_font_lacks_names_the_row_and_column(tmp_path):
    folder = layout_game(tmp_path / "g", FONT_BOX)
    make_font(folder / "fonts" / "Blocky.ttf", "Blocky")
    sheet = folder / "cards.csv"
    sheet.write_text(sheet.read_text(encoding="utf-8").replace("Freeze a card.", "Freeze a café."),
                     encoding="utf-8")
    for command in (["build", folder, "--out", tmp_path / "out"], ["validate", folder]):
        assert_user_error(run(*command), "row 3, column 'Text'", "no glyph for 'é'")
    assert not (tmp_path / "out").exists()


def test_a_file_that_is_no_font_is_named(tmp_path):
    folder = layout_game(tmp_path / "g", FONT_BOX)
    (folder / "fonts").mkdir()
    (folder / "fonts" / "Blocky.ttf").write_bytes(b"not a font at all")
    assert_user_error(run("build", folder, "--out", tmp_path / "out"), "fonts/Blocky.ttf", "cannot use this font")


def test_a_script_the_default_font_lacks_prints_in_a_font_of_the_game_that_has_it(tmp_path):
    # as a Chinese flashcard deck: its names are hanzi, which DejaVu Sans lacks; a font that has them in
    # fonts/ prints them on the cards and in the rulebook's card table, with no layout to write
    folder = tmp_path / "g"
    folder.mkdir()
    (folder / "game.toml").write_text('title = "Hanzi Cards"\n', encoding="utf-8")
    (folder / "cards.csv").write_text("name,text\n阿姨,Aunt\n安静,Quiet\n", encoding="utf-8")
    result = run("build", folder, "--out", tmp_path / "out")
    assert result.exit_code == 2 and "fonts/ folder (Noto Sans CJK or Noto Sans SC, for instance)" in result.output
    make_font(folder / "fonts" / "Hanzi.ttf", "Hanzi", letters=LETTERS + "阿姨安静")
    result = run("build", folder, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    kit = tmp_path / "out" / "hanzi-cards"
    for pdf in ("cards.pdf", "rules.pdf"):
        assert not unembedded_fonts(kit / pdf)
        with pdfplumber.open(kit / pdf) as doc:
            text = "".join(page.extract_text() or "" for page in doc.pages)
        assert "阿姨" in text and "安静" in text, pdf
        assert any("Hanzi" in name for name in fonts_of(kit / pdf)), pdf
