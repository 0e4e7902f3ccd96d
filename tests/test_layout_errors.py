"""Mistakes in card layouts, fonts and icons: one line naming the file, layout, box, key or cell; exit 2;
nothing written.  And the safe zone, a warning of validate."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pdfplumber
import pytest

from tests.conftest import run
from tests.test_bad_input import assert_user_error

SHEET = "Name,Cost,Shade,Text,Look\nEmber,3,#aa3322,Deal 2 damage.,\nFrost,2,#3366aa,Freeze a card.,\n"
BASE = """
[layouts.mine.boxes.ground]
kind = "rect"
bleed = true
fill = "{{ shade }}"

[layouts.mine.boxes.title]
content = "{{ name }}"
x = "5mm"
y = "5mm"
w = "100% - 10mm"
h = "8mm"
lines = 1
"""


def layout_game(folder: Path, layouts: str = "", sheet: str = SHEET, toml: str = "", face: str = "mine") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "game.toml").write_text(f'title = "Layout Test"\nface = "{face}"\n' + textwrap.dedent(toml),
                                      encoding="utf-8")
    (folder / "cards.csv").write_text(sheet, encoding="utf-8")
    (folder / "layouts.toml").write_text(textwrap.dedent(BASE) + textwrap.dedent(layouts), encoding="utf-8")
    return folder


def text_box(**keys) -> str:
    """A box 'extra' added to the layout 'mine', its keys written as given (TOML values)."""
    lines = "\n".join(f"{k} = {v}" for k, v in keys.items())
    return f"\n[layouts.mine.boxes.extra]\n{lines}\n"


_box = text_box


@pytest.mark.parametrize("layouts, needles", [
    (_box(x='"60mm"', w='"10mm"', content='"{{ cost }}"'),
     ["layouts.toml, layout 'mine', box 'extra'", "reaches outside the card"]),
    (_box(w='"0mm"', content='"{{ cost }}"'), ["box 'extra'", "greater than zero"]),
    (_box(h='"-3mm"', content='"{{ cost }}"'), ["box 'extra'", "greater than zero"]),
    (_box(kind='"star"'), ["box 'extra'", "unknown kind 'star'"]),
    (_box(content='"{{ cost }}"', font='"Comic Serif"'), ["box 'extra'", "no font named 'Comic Serif'"]),
    (_box(content='"{{ costt }}"'), ["layouts.toml, line", "box 'extra'", "no column or value named 'costt'"]),
    (_box(content='"{{ name "'), ["layouts.toml, line", "box 'extra'", "key 'content'", "template error"]),
    (_box(content='"{{ cost | no_such_filter }}"'), ["layouts.toml", "box 'extra'", "template error"]),
    (_box(kind='"rect"', fill='"#12345"'), ["box 'extra', key 'fill'", "not a colour"]),
    (_box(content='"{{ cost }}"', colour='"#123456"'), ["box 'extra'", "unknown key 'colour'"]),
    (_box(content='"{{ cost }}"', x='"5mm + 2"'), ["box 'extra'", "cannot add a length and a plain number"]),
    (_box(content='"{{ cost }}"', y='"title.botom"'), ["box 'extra'", "title.botom"]),
    ('\n[layouts.mine]\nextends = "mine"\n', ["layout 'mine' extends itself"]),
    ('\n[layouts.other]\nextends = "nowhere"\n', ["layout 'other' extends 'nowhere', which does not exist"]),
    ('\n[layouts.a]\nextends = "b"\n[layouts.b]\nextends = "a"\n', ["extends itself", "a -> b -> a"]),
    ('\n[layouts.kitgen]\n', ["layout 'kitgen' is already defined in kitgen's built-in layouts"]),
])
def test_layout_mistakes_are_one_line_naming_where(tmp_path, layouts, needles):
    folder = layout_game(tmp_path / "g", layouts)
    for command in (["build", folder, "--out", tmp_path / "out"], ["validate", folder]):
        assert_user_error(run(*command), *needles)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("sheet, layouts, toml, needles", [
    # a colour cell that does not parse, read by a template: the row and the column
    (SHEET.replace("#3366aa", "blue-ish"), "", "", ["cards.csv, row 3, column 'Shade'", "'blue-ish' is not a colour"]),
    # a layout named by the card's own row that does not exist
    ("Name,Look,Shade\nEmber,mine,#aa3322\nFrost,fancy,#3366aa\n", "", '[columns]\nface = "Look"\n',
     ["row 3, column 'Look'", "no layout named 'fancy'"]),
    # game.toml naming a layout that does not exist
    (SHEET, "", 'face = "nothing"\n', ["'face' = 'nothing': no such layout"]),
    # a text too long even on two lines: the needed and the available width in mm
    ("Name,Shade\nThe Unbelievably Long And Winding Name Of The Ancient Forgotten Kingdom Beyond The Sea,#123456\n",
     '\n[layouts.long]\nextends = "mine"\n[layouts.long.boxes.title]\nlines = 2\nfloor = "7pt"\n', "long",
     ["row 2, column 'Name'", "box 'title' of layout 'long'", "at 7 pt on 2 lines", "needs", "mm wide"]),
])
def test_card_cells_that_cannot_print_name_the_row_and_column(tmp_path, sheet, layouts, toml, needles):
    if toml.startswith("face"):
        folder = layout_game(tmp_path / "g", layouts, sheet)
        (folder / "game.toml").write_text('title = "Layout Test"\n' + toml, encoding="utf-8")
    elif toml == "long":
        folder = layout_game(tmp_path / "g", layouts, sheet, face="long")
    else:
        folder = layout_game(tmp_path / "g", layouts, sheet, toml)
    for command in (["build", folder, "--out", tmp_path / "out"], ["validate", folder]):
        assert_user_error(run(*command), *needles)
    assert not (tmp_path / "out").exists()


def test_an_icon_the_game_does_not_have_yet_prints_as_written_with_a_warning(tmp_path):
    # as a sheet written for Squib and its icon set: ':CC-BY:' and ':snow:' have no icons/ file here yet
    sheet = SHEET.replace("Freeze a card.", "Freeze :snow: a card. \\:tea: :snow:").replace("Deal 2", ":coin: Deal 2")
    folder = layout_game(tmp_path / "g", _box(content='"{{ text }}"', y='"20mm"', h='"30mm"'), sheet)
    for command in (["build", folder, "--out", tmp_path / "out"], ["validate", folder]):
        result = run(*command)
        assert result.exit_code == 0, result.output
        warnings = [line for line in result.output.splitlines() if line.startswith("Warning:") and "no icon" in line]
        assert len(warnings) == 1                                        # once for the name, where first met
        assert "row 3, column 'Text'" in warnings[0] and "no icon ':snow:'" in warnings[0]
        assert "prints as written; add icons/snow.svg (or .png)" in warnings[0]
    with pdfplumber.open(tmp_path / "out" / "layout-test" / "cards.pdf") as pdf:
        text = pdf.pages[0].extract_text()
        assert "Freeze :snow: a card. :tea: :snow:" in " ".join(text.split())
        assert ":coin:" not in text and len(pdf.pages[0].curves) > 0       # a built-in icon is still drawn


def test_text_or_a_border_outside_the_safe_zone_is_a_warning_of_validate(tmp_path):
    folder = layout_game(tmp_path / "g", _box(content='"{{ cost }}"', x='"1mm"', y='"30mm"', w='"10mm"', h='"8mm"'))
    result = run("validate", folder)
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.output.splitlines() if line.startswith("Warning:")]
    assert len(warnings) == 1
    assert "box 'extra'" in warnings[0] and "2.0 mm past the safe zone (3 mm inside the trim)" in warnings[0]
    safe = layout_game(tmp_path / "ok", _box(content='"{{ cost }}"', x='"4mm"', y='"30mm"', w='"10mm"', h='"8mm"'))
    assert "Warning" not in run("validate", safe).output       # the bleed background is no warning either


@pytest.mark.parametrize("what", ["icon", "font"])
def test_icons_and_fonts_are_read_only_inside_the_game_folder(tmp_path, what):
    outside = tmp_path / "outside"
    outside.mkdir()
    if what == "icon":
        from PIL import Image

        Image.new("RGB", (8, 8), (200, 0, 0)).save(outside / "snow.png")
        sheet = SHEET.replace("Freeze a card.", "Freeze :snow: a card.")
        folder = layout_game(tmp_path / "g", text_box(content='"{{ text }}"', y='"20mm"', h='"30mm"'), sheet)
        (folder / "icons").mkdir()
        (folder / "icons" / "snow.png").symlink_to(outside / "snow.png")
    else:
        (outside / "Blocky.ttf").write_bytes(b"\0" * 64)
        folder = layout_game(tmp_path / "g", text_box(content='"{{ text }}"', font='"Blocky"', y='"20mm"', h='"30mm"'))
        (folder / "fonts").mkdir()
        (folder / "fonts" / "Blocky.ttf").symlink_to(outside / "Blocky.ttf")
    for command in (["build", folder, "--out", tmp_path / "out"], ["validate", folder]):
        assert_user_error(run(*command), "leads outside the game folder")
    assert not (tmp_path / "out").exists()


def test_a_builtin_layout_read_once_is_used_again_only_where_the_sheet_has_its_columns(tmp_path, monkeypatch):
    """kitgen's own layouts are checked once per process: a game whose sheet lacks a column one of
    them reads is still refused, naming that layout, and a game with it shares the layout read before."""
    from kitgen.data import layouts
    from kitgen.data.game import load_game
    from kitgen.errors import GameDataError

    own = tmp_path / "builtin_layouts.toml"
    own.write_text(layouts.BUILTIN_FILE.read_text(encoding="utf-8")
                   + '\n[layouts.kitgen-shade]\nextends = "kitgen"\n[layouts.kitgen-shade.boxes.shade]\n'
                     'kind = "rect"\nfill = "{{ shade }}"\n', encoding="utf-8")
    monkeypatch.setattr(layouts, "BUILTIN_FILE", own)
    layouts._builtin_layouts.cache_clear()
    try:
        with_shade = layout_game(tmp_path / "with")
        first, again = load_game(with_shade), load_game(with_shade)
        assert first.layouts["kitgen-shade"] is again.layouts["kitgen-shade"]
        assert first.layouts["kitgen-shade"].box("shade").settings["fill"].names == {"shade"}
        assert first.layouts["mine"] is not again.layouts["mine"]            # a game's own: read each time
        without = layout_game(tmp_path / "without", sheet=SHEET.replace("Shade", "Hue"),
                              layouts="", face="kitgen")
        with pytest.raises(GameDataError) as refused:
            load_game(without)
        assert "layout 'kitgen-shade', box 'shade', key 'fill'" in refused.value.message
        assert "no column or value named 'shade'" in refused.value.message
        assert refused.value.file == layouts.BUILTIN_LABEL
    finally:
        layouts._builtin_layouts.cache_clear()
