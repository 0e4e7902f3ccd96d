"""One card's picture with its boxes outlined and named (`kitgen preview`), what each text box was
fitted to, and the served preview's drawing of only the cards that changed (`draw_cards`).

The picture is read back with Pillow: the outlines lie where the layout places its boxes, in mm
written in the test's layouts.toml.  The drawing is checked by behaviour: which pictures a
second drawing makes after a row, a layout or nothing changed.
"""

from __future__ import annotations

import io
import textwrap
from pathlib import Path

import pytest
from PIL import Image

from kitgen.web.preview import draw_cards
from tests.conftest import run

DPI = 100
PX = DPI / 25.4                        # pixels a mm
LAYOUTS = """
[layouts.probe]
size = "poker"
[layouts.probe.boxes]
ground = { kind = "rect", fill = "#ffffff" }
band = { kind = "rect", x = "10mm", y = "20mm", w = "40mm", h = "15mm", fill = "#ffffff" }
title = { content = "{{ name }}", x = "10mm", y = "50mm", w = "40mm", h = "8mm", size = "20pt", min_size = "16pt", lines = 1, fallback = [{ lines = 2, h = "16mm", min_size = "8pt" }] }
faint = { content = "{{ text }}", x = "10mm", y = "70mm", w = "40mm", h = "8mm", size = "9pt", color = "#eeeeee" }

[layouts.other]
size = "poker"
[layouts.other.boxes]
ground = { kind = "rect", fill = "#dde8f0" }
title = { content = "{{ name }}", x = "5mm", y = "5mm", w = "50mm", h = "10mm" }
"""
TOML = """title = "Preview Test"
face = "probe"
[types.plain]
label = "Plain"
color = "#2f5da8"
[types.blue]
label = "Blue"
color = "#3f8f45"
face = "other"
"""
SHEET = """name,type,count,text
Fox,plain,2,quick
The Very Long Name Of A Card,plain,1,slow
Owl,blue,1,wise
Elk,blue,1,tall
"""


def preview_game(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "game.toml").write_text(TOML, encoding="utf-8")
    (folder / "layouts.toml").write_text(textwrap.dedent(LAYOUTS), encoding="utf-8")
    (folder / "cards.csv").write_text(SHEET, encoding="utf-8")
    return folder


def magenta(pixel) -> bool:
    r, g, b = pixel[:3]
    return r > 170 and g < 90 and 80 < b < 170


def pixels(image) -> list[tuple]:
    return [image.getpixel((x, y)) for y in range(image.height) for x in range(image.width)]


def outlined_near(image, x_mm: float, y_mm: float, reach: int = 2) -> bool:
    """Whether an outline pixel lies within ``reach`` pixels of (x, y) mm."""
    x, y = round(x_mm * PX), round(y_mm * PX)
    return any(magenta(image.getpixel((i, j))) for i in range(x - reach, x + reach + 1)
               for j in range(y - reach, y + reach + 1))


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    return preview_game(tmp_path_factory.mktemp("preview") / "game")


@pytest.fixture(scope="module")
def long_card(game, tmp_path_factory):
    out = tmp_path_factory.mktemp("out")
    result = run("preview", game, "the very long name of a card", "--out", out, "--dpi", DPI)
    assert result.exit_code == 0, result.output
    return result.output, Image.open(out / "preview-test" / "preview-the-very-long-name-of-a-card.png").convert("RGB")


def test_the_picture_outlines_every_box_where_the_layout_places_it(long_card):
    _, image = long_card
    assert image.size == (round(63.5 * PX), round(88.9 * PX))            # a poker card at 100 DPI
    # the band: 10, 20 mm, 40 x 15 mm: its four edges are outlined, its middle is the card
    for x, y in ((30, 20), (30, 35), (10, 27.5), (50, 27.5)):
        assert outlined_near(image, x, y), (x, y)
    assert image.getpixel((round(30 * PX), round(28 * PX))) == (255, 255, 255)
    # the title took its fallback: two lines, 16 mm high instead of 8
    assert outlined_near(image, 30, 66) and not outlined_near(image, 30, 58, reach=1)
    # and the name of each box is written in it, in the outlines' colour
    names = image.crop((round(10 * PX), round(20 * PX), round(30 * PX), round(24 * PX)))
    assert sum(magenta(p) for p in pixels(names)) > 20


def test_the_command_says_what_each_text_was_fitted_to(long_card):
    output, _ = long_card
    lines = [line for line in output.splitlines() if not line.startswith("Warning: ")]
    assert lines[0].startswith("Wrote the face of 'The Very Long Name Of A Card' (row 3): ")
    title = next(line for line in lines if line.strip().startswith("title (text)"))
    assert "at 10.0, 50.0 mm, 40.0 x 16.0 mm" in title and "fallback 1 of 1 (lines = 2, h = '16mm', min_size = '8pt')" in title
    size = float(title.split(": ")[1].split(" pt")[0])
    assert 6 <= size < 20
    band = next(line for line in lines if line.strip().startswith("band (rect)"))
    assert band.strip() == "band (rect) at 10.0, 20.0 mm, 40.0 x 15.0 mm"
    faint = lines.index(next(line for line in lines if line.strip().startswith("faint (text)")))
    assert lines[faint].endswith("9 pt, no fallback")
    assert "box 'faint'" in lines[faint + 1] and "contrast" in lines[faint + 1]
    assert lines[faint + 1].startswith("    warning: ")


def test_without_outlines_the_picture_is_the_card_alone(game, tmp_path):
    result = run("preview", game, "4", "--out", tmp_path, "--dpi", DPI, "--no-outline")
    assert result.exit_code == 0, result.output
    assert "'Owl' (row 4)" in result.output
    image = Image.open(tmp_path / "preview-test" / "preview-owl.png").convert("RGB")
    assert not any(magenta(p) for p in pixels(image))
    assert image.getpixel((5, 5)) == (0xdd, 0xe8, 0xf0)                  # the other layout's ground


def test_a_card_that_is_not_there_is_one_line(game, tmp_path):
    result = run("preview", game, "Badger", "--out", tmp_path)
    assert result.exit_code == 2
    assert result.output.splitlines() == ["Error: CARD: no card named 'Badger' and no card on row 'Badger' of the "
                                          "sheet (cards: 'Fox', 'The Very Long Name Of A Card', 'Owl', 'Elk')"]
    assert not (tmp_path / "preview-test").exists()


def test_a_drawing_draws_again_only_the_cards_whose_row_or_layout_changed(tmp_path):
    folder = preview_game(tmp_path / "game")
    first = draw_cards(str(folder), [])
    keys = [c["picture"] for c in first["cards"]]
    assert len(set(keys)) == 4 and set(first["pictures"]) == set(keys) | {first["back"]}
    for key, png in first["pictures"].items():
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and first["boxes"][key]
    known = list(first["pictures"])
    assert draw_cards(str(folder), known)["pictures"] == {}                  # nothing changed: nothing drawn

    sheet = folder / "cards.csv"
    sheet.write_text(SHEET.replace("Owl,blue,1,wise", "Owl,blue,1,wiser"), encoding="utf-8")
    row = draw_cards(str(folder), known)
    assert [c["picture"] for c in row["cards"]][:2] == keys[:2] and row["cards"][3]["picture"] == keys[3]
    assert list(row["pictures"]) == [row["cards"][2]["picture"]] and row["cards"][2]["picture"] != keys[2]
    new = Image.open(io.BytesIO(row["pictures"][row["cards"][2]["picture"]]))
    assert new.size == tuple(first["card_px"])

    layouts = folder / "layouts.toml"
    layouts.write_text(textwrap.dedent(LAYOUTS).replace("#dde8f0", "#f0e0dd"), encoding="utf-8")
    known += list(row["pictures"])
    drawn = draw_cards(str(folder), known)
    blue = {c["picture"] for c in drawn["cards"] if c["type"] == "blue"}
    assert set(drawn["pictures"]) == blue and len(blue) == 2               # the other layout's cards alone
    assert [c["picture"] for c in drawn["cards"] if c["type"] == "plain"] == keys[:2]
    ground = Image.open(io.BytesIO(drawn["pictures"][drawn["cards"][3]["picture"]])).convert("RGB")
    assert ground.getpixel((3, 3)) == (0xf0, 0xe0, 0xdd)


def test_a_text_that_changes_the_decks_common_size_draws_every_card_of_its_layout(tmp_path):
    folder = preview_game(tmp_path / "game")
    layouts = folder / "layouts.toml"
    layouts.write_text(textwrap.dedent(LAYOUTS).replace('h = "10mm" }', 'h = "10mm", size = "16pt", same_size = true }'),
                       encoding="utf-8")
    first = draw_cards(str(folder), [])
    known = list(first["pictures"])
    keys = [c["picture"] for c in first["cards"]]
    sheet = folder / "cards.csv"
    sheet.write_text(SHEET.replace("Owl,", "Ant,"), encoding="utf-8")      # as short: the common size stays
    same = draw_cards(str(folder), known)
    assert [c["picture"] for c in same["cards"]][3] == keys[3] and list(same["pictures"]) == [same["cards"][2]["picture"]]
    sheet.write_text(SHEET.replace("Owl,", "Owl of the Northern Marshes,"), encoding="utf-8")
    longer = draw_cards(str(folder), known + list(same["pictures"]))
    blue = [c["picture"] for c in longer["cards"] if c["type"] == "blue"]
    assert set(longer["pictures"]) == set(blue) and blue[1] != keys[3]     # Elk's title shrank with Owl's
    assert [c["picture"] for c in longer["cards"] if c["type"] == "plain"] == keys[:2]
