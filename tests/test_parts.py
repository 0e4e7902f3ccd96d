"""Parts: kitgen's named pieces of a card, placed by a layout in a line each.  Every built-in part is
drawn where its place says (the stacked ones one below another, the text panel in the room left,
a badge in its corner and turned in the opposite one), read back from the PDF; a layout's changes
reach the box they name; a game's own part works as kitgen's do; mistakes are one line naming the
layout and the part; the docs' example layouts are at most 30 lines each and printed in
docs/layouts.md as they are."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pdfplumber
import pytest
from PIL import Image

from tests.conftest import run
from tests.test_bad_input import assert_user_error

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "docs" / "examples"
DOCS = REPO / "docs" / "layouts.md"
MM = 72 / 25.4
W, H = 63.5, 88.9                       # a poker card, in mm
SHEET = "Name,Type,Value,Text\nAlpha,plain,7,Draw two cards.\nBeta,changed,9,Gain a coin.\n"
EVERY_PART = """
[layouts.all]
size = "poker"
parts = [
  { part = "background" },
  { part = "frame" },
  { part = "title-bar" },
  { part = "art-window" },
  { part = "text-panel" },
  { part = "type-line" },
  { part = "footer-line" },
  { part = "icon-row", content = "dot dot" },
  { part = "cost-column", content = "dot dot dot" },
  { part = "corner-badge", content = "{{ value }}", turned = true },
]

[layouts.changed]
extends = "all"
margin = "6mm"                                   # every part of 'all' moves in
spacing = "2mm"
parts = [{ part = "corner-badge", name = "mark", corner = "top-right", content = "M", disc = { fill = "#ff0000" } }]
boxes.title = { size = "9pt", color = "#0000ff" }
"""
TOML = """title = "Parts Test"
face = "all"
[types.plain]
label = "Plain"
color = "#2f5da8"
[types.changed]
label = "Changed"
color = "#3f8f45"
face = "changed"
"""


def parts_game(folder: Path, layouts: str, sheet: str = SHEET, toml: str = TOML) -> Path:
    folder.mkdir(parents=True)
    (folder / "game.toml").write_text(textwrap.dedent(toml), encoding="utf-8")
    (folder / "cards.csv").write_text(sheet, encoding="utf-8")
    (folder / "layouts.toml").write_text(textwrap.dedent(layouts), encoding="utf-8")
    (folder / "icons").mkdir()
    dot = Image.new("RGBA", (40, 40), (0, 0, 0, 0))
    dot.paste((30, 90, 160, 255), (4, 4, 36, 36))
    dot.save(folder / "icons" / "dot.png")
    return folder


def card_pages(game: Path, out: Path) -> list:
    """Each card's face, one a page at trim size (the print-shop export without bleed), as pdfplumber
    pages; the caller closes nothing (the document lives as long as the test module)."""
    result = run("export", game, "--format", "print-shop", "--bleed", "0", "--out", out)
    assert result.exit_code == 0, result.output
    pdf = pdfplumber.open(next(out.glob("*/print-shop.pdf")))
    return pdf.pages[::2]               # front, back, front, back...


def mm(value: float) -> float:
    return value / MM


def words(page) -> dict[str, dict]:
    return {w["text"]: w for w in page.extract_words(extra_attrs=["size", "upright"])}


def shapes(page) -> list[tuple[float, float, float, float]]:
    """(x, y, w, h) in mm from the top-left of every rectangle and path drawn (rounded ones are curves)."""
    return [(mm(o["x0"]), mm(o["top"]), mm(o["x1"] - o["x0"]), mm(o["bottom"] - o["top"]))
            for o in page.rects + page.curves]


def has_shape(page, x, y, w, h, tol=0.05) -> bool:
    return any(all(abs(a - b) <= tol for a, b in zip(s, (x, y, w, h))) for s in shapes(page))


def inside(word: dict, top: float, bottom: float, left: float = 0.0, right: float = W) -> bool:
    return (top <= mm(word["top"]) and mm(word["bottom"]) <= bottom and left <= mm(word["x0"])
            and mm(word["x1"]) <= right)


@pytest.fixture(scope="module")
def faces(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("parts")
    return card_pages(parts_game(tmp / "game", EVERY_PART), tmp / "out")


def test_stacked_parts_follow_one_another_and_the_text_panel_takes_the_room_left(faces):
    page = faces[0]
    # margin = safe + 1.5mm = 4.5 mm, spacing 1.5 mm; from the top: title 7 mm, art 40% of 88.9 mm;
    # from the bottom: icons 6 mm, footer 3.5 mm, type 5 mm; the text panel between art and type
    title, art_y, art_h = (4.5, 11.5), 13.0, 0.4 * H
    icons = (H - 4.5 - 6, H - 4.5)
    footer = (icons[0] - 1.5 - 3.5, icons[0] - 1.5)
    type_ = (footer[0] - 1.5 - 5, footer[0] - 1.5)
    text = (art_y + art_h + 1.5, type_[0] - 1.5)
    found = words(page)
    assert inside(found["Alpha"], *title), found["Alpha"]
    assert abs((mm(found["Alpha"]["x0"]) + mm(found["Alpha"]["x1"])) / 2 - W / 2) < 0.2     # centred
    assert has_shape(page, 4.5, art_y, W - 9, art_h)              # the pale window of a card without art
    assert inside(found["Draw"], *text) and inside(found["cards."], *text)
    assert inside(found["Plain"], *type_) and has_shape(page, 4.5, type_[0], W - 9, 5)   # the type's band
    assert inside(found["Parts"], *footer) and found["Parts"]["size"] < 7                # the game's title
    row = sorted((mm(i["x0"]), mm(i["top"]), mm(i["bottom"])) for i in page.images if mm(i["top"]) > 70)
    assert len(row) == 2 and all(icons[0] - 0.01 <= t and b <= icons[1] + 0.01 for _, t, b in row)
    assert row[0][1] == pytest.approx(row[1][1]) and row[0][0] < row[1][0]               # side by side


def test_a_cost_column_runs_down_and_a_badge_turns_in_the_opposite_corner(faces):
    page = faces[0]
    column = sorted((mm(i["top"]), mm(i["x0"]), mm(i["x1"])) for i in page.images if mm(i["x1"]) < 12)
    assert len(column) == 3
    assert len({round(x0, 3) for _, x0, _ in column}) == 1           # one above another
    assert column[0][0] < column[1][0] < column[2][0] and column[0][0] < 4.5 + 0.8 + 0.1     # from the top
    assert all(4.5 + 0.8 - 0.01 <= x0 and x1 <= 4.5 + 6 - 0.8 + 0.01 for _, x0, x1 in column)
    sevens = [c for c in page.chars if c["text"] == "7"]
    assert len(sevens) == 2
    upright = next(c for c in sevens if c["matrix"][0] > 0)
    turned = next(c for c in sevens if c["matrix"][0] < 0)             # drawn upside down
    assert 4.5 <= mm(upright["x0"]) and mm(upright["x1"]) <= 14.5 and 4.5 <= mm(upright["top"]) <= 14.5
    assert W - 14.5 <= mm(turned["x0"]) and mm(turned["x1"]) <= W - 4.5 and H - 14.5 <= mm(turned["top"]) <= H - 4.5
    assert has_shape(page, 4.5, 4.5, 10, 10) and has_shape(page, W - 14.5, H - 14.5, 10, 10)   # the two discs


def test_a_layout_that_extends_another_moves_its_parts_and_changes_boxes_by_name(faces):
    page = faces[1]                      # 'changed': margin 6 mm and spacing 2 mm, a red badge, a blue title
    found = words(page)
    beta = found["Beta"]
    assert inside(beta, 6, 13) and beta["size"] == pytest.approx(9, abs=0.01)
    assert all(c["non_stroking_color"] == (0, 0, 1) for c in page.chars if c["text"] in "Beta" and
               c["top"] < 13 * MM)
    assert has_shape(page, 6, 15, W - 12, 0.4 * H)                   # the art window: 6 + 7 + 2 mm down
    assert inside(found["Changed"], H - 6 - 6 - 2 - 3.5 - 2 - 5, H - 6 - 6 - 2 - 3.5 - 2)
    mark = found["M"]
    assert W - 16 <= mm(mark["x0"]) and mm(mark["x1"]) <= W - 6 and inside(mark, 6, 16)
    assert any(tuple(round(v, 3) for v in (c.get("non_stroking_color") or ())) == (1, 0, 0)
               for c in page.curves)                                  # its disc, changed on its own line


RIBBON = re.search(r"```toml\n(\[parts\.ribbon\].*?)```", DOCS.read_text(encoding="utf-8"), re.S).group(1)


def test_the_part_docs_layouts_md_writes_is_placed_as_kitgens_own_are(tmp_path):
    game = parts_game(tmp_path / "game", RIBBON + """
        [layouts.all]
        parts = [{ part = "background", fill = "#fbf7ec" }, { part = "ribbon", content = "{{ text }}" }]
        """, sheet="Name,Text\nAlpha,New!\nBeta,\n", toml='title = "Ribbon"\nface = "all"\n')
    alpha, beta = card_pages(game, tmp_path / "out")
    label = words(alpha)["New!"]
    assert inside(label, 4.5, 9.5, W - 24, W)                       # x = width - 24mm, y = $margin, h = 5mm
    assert all(c["non_stroking_color"] == (1, 1, 1) for c in alpha.chars)
    assert has_shape(alpha, W - 24, 4.5, 24, 5)
    assert not beta.chars and not has_shape(beta, W - 24, 4.5, 24, 5)    # no content: no ribbon


PLACED = '\n[layouts.all]\nparts = [\n  {}\n]\n'


def placed(*lines: str) -> str:
    return PLACED.format(",\n  ".join(lines))


@pytest.mark.parametrize("layouts, needles", [
    (placed('{ part = "title-banner" }'), ["layout 'all', parts[1]: no part named 'title-banner'", "title-bar"]),
    (placed('{ part = "title-bar", colour = "#ffffff" }'),
     ["parts[1] ('title-bar'): unknown key 'colour'", "any key of its text box"]),
    (placed('{ part = "corner-badge", corner = "middle", content = "1" }'),
     ["parts[1] ('corner-badge'): corner = 'middle' is not one of: top-left, top-right, bottom-left, bottom-right"]),
    (placed('{ part = "text-panel" }', '{ part = "art-window", h = "rest" }'),
     ["parts[2] ('art-window'): only one stacked part may take the rest", "'text' takes it already"]),
    (placed('{ part = "corner-badge", content = "1", h = "rest" }'), ["parts[1]", "this part is not stacked"]),
    (placed('{ part = "title-bar", name = "x" }', '{ part = "type-line", name = "x" }'),
     ["parts[2] ('type-line'): another part is named 'x' already"]),
    (placed('{ part = "corner-badge", name = "a", content = "1" }', '{ part = "title-bar", name = "a_disc" }'),
     ["parts[2]: a box of it is named 'a_disc' as one placed before it is"]),
    (placed('{ part = "title-bar", size = "huge" }'), ["layout 'all', box 'title': unknown name 'huge'"]),
    (placed('{ part = "title-bar", content = "{{ nmae }}" }'), ["box 'title'", "no column or value named 'nmae'"]),
    (placed('{ part = "title-bar" }').replace("parts = [", 'margin = "3 apples"\nparts = ['),
     ["layout 'all', key 'margin'"]),
    ('\n[layouts.all]\nparts = "title-bar"\n', ["layout 'all': 'parts' must be a list of tables"]),
    ('\n[parts.title-bar]\nboxes.t = {}\n' + placed('{ part = "title-bar" }'),
     ["part 'title-bar' is already defined in kitgen's built-in parts; give yours another name"]),
    ('\n[parts.mine]\ncolour = 1\nboxes.t = {}\n' + placed('{ part = "mine" }'), ["part 'mine': unknown key 'colour'"]),
    ('\n[parts.mine]\nboxes.t = { content = "$nope" }\n' + placed('{ part = "mine" }'),
     ["parts[1] ('mine'): '$nope' names no parameter of part 'mine'"]),
    ('\n[parts.mine]\nparams = { a = "$b", b = "$a" }\nboxes.t = { content = "$a" }\n' + placed('{ part = "mine" }'),
     ["parts[1] ('mine'): its parameters refer to one another in a circle (a -> b -> a)"]),
    ('\n[parts.mine]\nparams = { on = "maybe" }\nboxes.t = { content = "x", if = "$on" }\nboxes.u = { content = "y" }\n'
     'main = "u"\n' + placed('{ part = "mine" }'), ["box 't', key 'if': 'maybe' is not true or false"]),
    ('\n[parts.mine]\nparams = { a = "$b$b$b$b$b$b$b$b$b$b", b = "$c$c$c$c$c$c$c$c$c$c", c = "$d$d$d$d$d$d$d$d$d$d",'
     ' d = "$e$e$e$e$e$e$e$e$e$e", e = "xxxxxxxxxx" }\nboxes.t = { content = "$a" }\n' + placed('{ part = "mine" }'),
     ["parts[1] ('mine')", "longer than 20,000 characters"]),
])
def test_part_mistakes_are_one_line_naming_the_layout_and_the_part(tmp_path, layouts, needles):
    folder = parts_game(tmp_path / "g", layouts, toml='title = "Parts Test"\nface = "all"\n')
    assert_user_error(run("validate", folder), *needles)


def layout_tables(text: str) -> dict[str, list[str]]:
    """The lines of each layout of a layouts.toml, by layout (its [layouts.NAME...] tables), without
    blank lines and comments."""
    found: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines():
        head = re.match(r"\[layouts\.([\w-]+)", line)
        if re.match(r"\[(?!layouts\.)", line):
            current = None
        if head:
            current = head.group(1)
        if current and line.strip() and not line.lstrip().startswith("#"):
            found.setdefault(current, []).append(line)
    return found


def test_every_example_layout_is_at_most_30_lines_and_the_docs_print_them_as_they_are():
    docs = DOCS.read_text(encoding="utf-8")
    counted = {}
    for example in sorted(EXAMPLES.glob("*/layouts.toml")):
        text = example.read_text(encoding="utf-8")
        for name, lines in layout_tables(text).items():
            counted[f"{example.parent.name}/{name}"] = len(lines)
        shown = re.search(rf"```toml\n# docs/examples/{example.parent.name}/layouts\.toml\n(.*?)```", docs, re.S)
        if shown:
            assert shown.group(1) == text, example
    assert set(counted) >= {"kingdom/kingdom", "trading-card/critter", "trading-card/field-guide",
                            "kitchen-rivals/dish", "star-exchange/factory", "star-exchange/factory-upgraded"}
    assert all(n <= 30 for n in counted.values()), counted
    for name in ("kingdom", "trading-card", "kitchen-rivals"):
        assert f"# docs/examples/{name}/layouts.toml\n" in docs
