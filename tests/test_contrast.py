"""Contrast: validate warns of a text or an icon of one colour that stands out less than 3:1 (WCAG 2)
from what is drawn behind it, naming the layout, the box and the card; the built-in games and the
layout examples do not."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from kitgen.data.builtin import builtin_games
from kitgen.outputs.kit import validate_game
from tests.conftest import run
from tests.sheets import game_folder, layout_box

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"


def _layout(boxes: str) -> str:
    return ('[layouts.plain]\nsize = "poker"\n\n[layouts.plain.boxes.ground]\nkind = "rect"\nbleed = true\n'
            'fill = "{{ ground }}"\n\n' + boxes)


@pytest.fixture
def low(tmp_path):
    folder = game_folder(tmp_path / "low", "name,ground,ink\nGrey Card,#ffffff,#999999\nDark Card,#1b1d2a,#ffffff\n"
                         "Hidden Card,#222222,#ffffff\n", toml='face = "plain"\n')
    boxes = (layout_box("plain", "title", "{{ name }}", color="{{ ink }}", size="12pt")
             + layout_box("plain", "tokens", ":coal: :coal:", y="20mm", kind="icons")
             + layout_box("plain", "faded", "Faded", y="35mm", color="#ffffff40", size="12pt"))
    (folder / "layouts.toml").write_text(_layout(boxes), encoding="utf-8")
    (folder / "icons").mkdir()
    coal = Image.new("RGBA", (48, 48), (0, 0, 0, 0))
    ImageDraw.Draw(coal).ellipse((4, 4, 44, 44), fill=(40, 40, 45, 255))
    coal.save(folder / "icons" / "coal.png")
    return folder


def test_low_contrast_text_and_icons_are_warned_of_with_the_layout_box_and_card(low):
    result = run("validate", low)
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.output.splitlines() if "has a contrast" in line]
    # #999999 on white: luminances 0.3185 and 1, (1 + 0.05) / (0.3185 + 0.05) = 2.849
    assert any("layout 'plain', box 'title' (row 2, card 'Grey Card'): its text (#999999) has a contrast of 2.8:1 "
               "against #ffffff behind it" in w for w in warnings), warnings
    # a coal icon (#28282d, of one colour) on the dark ground #1b1d2a: 1.1:1
    assert any("box 'tokens' (row 3, card 'Dark Card'): the icon 'coal' (of one colour) (#28282d) has a contrast "
               "of 1.1:1 against #1b1d2a" in w for w in warnings), warnings
    # white at a quarter strength on white paper is white on white
    assert any("box 'faded' (row 2, card 'Grey Card'): its text (#ffffff) has a contrast of 1.0:1 against #ffffff"
               in w for w in warnings), warnings
    assert not any("'title' (row 3" in w or "'title' (row 4" in w for w in warnings)    # white on dark reads
    # each problem once, on the first card that shows it: the coal and the faded text on #222222 are
    # problems of their own (another background)
    assert len(warnings) == len({w.split("): ", 1)[1] for w in warnings}) == 6, warnings


def test_text_on_a_picture_is_not_judged(tmp_path):
    folder = game_folder(tmp_path / "pic", "name,art\nCard,sky.png\n", toml='face = "plain"\n')
    (folder / "art").mkdir()
    Image.new("RGB", (400, 300), (250, 250, 250)).save(folder / "art" / "sky.png")
    boxes = (layout_box("plain", "art", "{{ art }}", kind="image", y="4mm", h="40mm")
             + layout_box("plain", "title", "{{ name }}", y="10mm", color="#f0f0f0"))
    (folder / "layouts.toml").write_text(_layout(boxes).replace('fill = "{{ ground }}"', 'fill = "#ffffff"'),
                                         encoding="utf-8")
    result = run("validate", folder)
    assert result.exit_code == 0, result.output
    assert "has a contrast" not in result.output


@pytest.mark.parametrize("game", builtin_games() + [str(EXAMPLES / "star-exchange"), str(EXAMPLES / "kitchen-rivals")])
def test_the_built_in_games_and_the_layout_examples_read_in_print(game):
    report = validate_game(game)
    assert not [w for w in report.warnings if "has a contrast" in w]


def test_the_colours_kitgen_chooses_for_types_read_on_its_own_face(tmp_path):
    # a sheet of many kinds of card (a protocol sheet with five kinds set 2.9:1 before): every type kitgen
    # colours itself prints its value, lightened, on kitgen's own face with no contrast warning
    rows = "".join(f"Card {i},kind {i},{i % 9 + 1}\n" for i in range(24))
    folder = game_folder(tmp_path / "g", "name,type,value\n" + rows)
    result = run("validate", folder)
    assert result.exit_code == 0, result.output
    assert "24 card types are not declared" in result.output and "contrast" not in result.output


def test_kitgen_s_own_face_reads_on_a_designer_s_light_colours(tmp_path):
    # as a minimal deck's sheet: each card's colour a pure yellow, cyan or magenta, on kitgen's own face
    folder = game_folder(tmp_path / "g", "name,value,color\nFlying,2,#FFFF00\nFighting,1,#00FFFF\n"
                                         "Normal,0,#FF00FF\nDark,9,#1b1d2a\n")
    result = run("validate", folder)
    assert result.exit_code == 0, result.output
    assert "contrast" not in result.output
    game = validate_game(folder).game
    assert [c.color for c in game.cards] == ["#ffff00", "#00ffff", "#ff00ff", "#1b1d2a"]   # the cells as written
