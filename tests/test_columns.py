"""A sheet's own columns: the [columns] mapping, optional count and type, card colours, rows as identity."""

from __future__ import annotations

import json
import tomllib

import pdfplumber
import pypdfium2 as pdfium
import pytest

from kitgen.data.game import load_game
from kitgen.data.values import TYPE_PALETTE
from tests.conftest import run
from tests.sheets import game_folder
from tests.test_bad_input import assert_user_error

# like a deck-builder's sheet: many columns, no count, per-card colours (one with transparency),
# art as web addresses, a multi-line text, and columns left empty in every row
DECK = ('nom,Name,time_cost,artwork,type_line_left,rules_text,background_color,fr_Name,tags\n'
        'x,5 Stars,7,https://example.org/art/v1/five_stars.png,Passive,"Gain +4 Favor.",#2F5DA8,,spicy\n'
        'x,Arancini,3,https://example.org/art/v1/arancini.png,Dish - Appetizer,"Gain 1 Favor.\n\nThen draw.",'
        '#C4473680,,\n'
        'x,Brainstorm,3,order.png,Technique,Draw 3.,,,\n')
DECK_COLUMNS = '''
    [columns]
    name = "Name"
    type = "type_line_left"
    text = "rules_text"
    value = "time_cost"
    art = "artwork"
    color = "background_color"
    '''


def test_a_mapped_sheet_reads_as_written(tmp_path):
    game = load_game(game_folder(tmp_path / "g", DECK, toml=DECK_COLUMNS))
    assert [(c.name, c.type, c.count, c.value, c.art, c.row) for c in game.cards] == [
        ("5 Stars", "Passive", 1, "7", "five_stars.png", 2),
        ("Arancini", "Dish - Appetizer", 1, "3", "arancini.png", 3),
        ("Brainstorm", "Technique", 1, "3", "order.png", 4)]
    assert game.cards[1].text == "Gain 1 Favor.\n\nThen draw."
    # every column stays reachable by its header, however it is spelled
    card = game.cards[0]
    assert card.fields["tags"] == card.fields["TAGS"] == "spicy"
    assert card.fields["type line left"] == "Passive"
    assert list(card.fields)[:3] == ["nom", "Name", "time_cost"]


def test_card_colour_overrides_the_type_colour_and_transparency_is_laid_on_white(tmp_path):
    game = load_game(game_folder(tmp_path / "g", DECK, toml=DECK_COLUMNS))
    assert [c.color for c in game.cards] == ["#2f5da8", "#e1a39a", ""]   # #C44736 at 128/255 over white
    folder = tmp_path / "g"
    assert run("build", folder, "--out", tmp_path / "out").exit_code == 0
    kit = tmp_path / "out" / "sheet-game"
    man = json.loads((kit / "manifest.json").read_text())
    page = pdfium.PdfDocument(str(kit / "cards.pdf"))[0]
    scale = 2
    image = page.render(scale=scale).to_pil().convert("RGB")
    height = page.get_height()
    expected = ["#2f5da8", "#e1a39a", game.types["Technique"].color]
    for card, colour in zip(man["cards"], expected):
        x0, y0, x1, y1 = card["front"]["box"]
        frame = image.getpixel((int((x0 + 3) * scale), int((height - (y0 + y1) / 2) * scale)))   # left frame
        assert "#%02x%02x%02x" % frame == colour, card["name"]


def test_undeclared_types_get_distinct_palette_colours_and_a_warning(tmp_path):
    folder = game_folder(tmp_path / "g", DECK, toml=DECK_COLUMNS + '''
    [types.passive]
    label = "Passive"
    color = "#2a6f97"
    ''')
    game = load_game(folder)
    assert list(game.types) == ["passive", "Dish - Appetizer", "Technique"]
    assert game.cards[0].type == "passive"              # a declared type matches by its label too
    colours = [t.color for t in game.types.values()]
    assert len(set(colours)) == 3 and set(colours[1:]) <= set(TYPE_PALETTE)
    result = run("validate", folder)
    assert result.exit_code == 0
    warning = next(line for line in result.output.splitlines() if "not declared" in line)
    assert "column 'type_line_left'" in warning and "Dish - Appetizer" in warning and "Technique" in warning
    assert "Passive (" not in warning


def test_count_is_recognised_under_its_common_names_and_optional(tmp_path):
    for header in ("count", "Qty", "QUANTITY", "copies"):
        game = load_game(game_folder(tmp_path / header, f"Name,{header}\nSeer,1\nWolf,2\n"))
        assert [c.count for c in game.cards] == [1, 2], header
    game = load_game(game_folder(tmp_path / "none", "Name,Hint\nSeer,S\nWolf,W\nWolf,W\n"))
    assert game.deck_size == 3 and [c.count for c in game.cards] == [1, 1, 1]
    assert list(game.types) == [""] and game.types[""].label == ""      # one type, no type line
    game = load_game(game_folder(tmp_path / "spread", "Name,Copies\nSeer,3.0\n"))
    assert game.cards[0].count == 3                                    # as a spreadsheet may save it


def test_headers_match_ignoring_case_spaces_and_accents(tmp_path):
    folder = game_folder(tmp_path / "g", "Nâme,TYPE,Effet Texte,Coût\nSeer,Role,Look.,1\n", toml='''
        [columns]
        name = "name"
        text = "effet_texte"
        value = "COUT"
        ''')
    card = load_game(folder).cards[0]
    assert (card.name, card.type, card.text, card.value) == ("Seer", "Role", "Look.", "1")


def test_the_same_name_on_several_rows_keeps_each_row(tmp_path):
    # like an engine-building game: one card in each faction, double-sided headers
    sheet = ("s,Faction,Front Name,Back Name,Quantity\n"
             "1,Caylion,Nanotechnology,Nanofabricators,1\n"
             "2,Eni Et,Nanotechnology,Nano Weave,2\n"
             "3,Unity,Universal Translator,Empathy,1\n")
    folder = game_folder(tmp_path / "g", sheet, toml='[columns]\nname = "Front Name"\ntype = "Faction"\n')
    assert run("build", folder, "--out", tmp_path / "out").exit_code == 0
    kit = tmp_path / "out" / "sheet-game"
    cards = json.loads((kit / "manifest.json").read_text())["cards"]
    assert [(c["name"], c["row"], c["copy"]) for c in cards] == [
        ("Nanotechnology", 2, 1), ("Nanotechnology", 3, 1), ("Nanotechnology", 3, 2), ("Universal Translator", 4, 1)]
    assert list(cards[0]) == ["name", "row", "deck", "copy", "front", "back"]
    with pdfplumber.open(kit / "cards.pdf") as doc:
        text = doc.pages[0].extract_text()
    assert "CAYLION" in text and "ENI ET" in text      # two faces, one per row


def test_templates_read_every_column(tmp_path):
    folder = game_folder(tmp_path / "g", "Front Name,Back Name,Hint\nNanotech,Nanofab,use it\n", toml='''
        rulebook = "rules.md.j2"
        [columns]
        name = "Front Name"
        ''')
    (folder / "templates").mkdir()
    (folder / "templates" / "rules.md.j2").write_text(
        "# Cards\n\n{% for card in cards %}{{ card.name }} turns into {{ card.fields['Back Name'] }} "
        "({{ card.fields.hint }}).\n{% endfor %}\n{{ card_table(columns=['name', 'Back Name']) }}\n",
        encoding="utf-8")
    result = run("build", folder, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "out" / "sheet-game" / "rules.pdf") as doc:
        text = " ".join(page.extract_text() for page in doc.pages)
    assert "Nanotech turns into Nanofab (use it)." in text
    assert "Back Name" in text                          # the table's column heading


@pytest.mark.parametrize("columns, needles", [
    ('text = "rules_txt"', ["game.toml", "[columns] text = 'rules_txt'", "no such column",
                            "its headers: Name, Qty, rules_text"]),
    ('text = "rules_text"\nvalue = "Rules Text"', ["game.toml", "text and value both name the column 'rules_text'"]),
    ('colour = "Name"', ["game.toml", "unknown key 'columns.colour'", "name, type, count"]),
    ('name = 4', ["game.toml", "[columns] name = 4: ", "has no column 4 (it has 3)"]),
    ('name = 1.5', ["game.toml", "'columns.name' must be the text of a header", "its number"]),
])
def test_bad_mappings(tmp_path, columns, needles):
    folder = game_folder(tmp_path / "g", "Name,Qty,rules_text\nSeer,1,Look.\n", toml=f"[columns]\n{columns}\n")
    out = tmp_path / "out"
    assert_user_error(run("build", folder, "--out", out), *needles)
    assert not out.exists()


def test_a_mapped_header_naming_two_columns_is_refused(tmp_path):
    folder = game_folder(tmp_path / "g", "Name,Text,text\nSeer,Look.,Old text\n", toml='[columns]\ntext = "Text"\n')
    assert_user_error(run("validate", folder), "game.toml", "[columns] text = 'Text'", "two columns (B and C)")
    result = run("validate", game_folder(tmp_path / "unmapped", "Name,Note,note\nSeer,a,b\n"))
    assert result.exit_code == 0 and "the header 'Note' names 2 columns (B and C)" in result.output


def test_more_declared_types_than_a_type_column_is_refused(tmp_path):
    folder = game_folder(tmp_path / "g", "Name\nSeer\n", toml='''
        [types.a]
        label = "A"
        [types.b]
        label = "B"
        ''')
    assert_user_error(run("validate", folder), "game.toml", "declares 2 card types (a, b)", "no type column")


def test_a_bad_card_colour_names_its_row_and_column(tmp_path):
    folder = game_folder(tmp_path / "g", "Name,Colour\nSeer,#2F5DA8\nWolf,blue\n")
    assert_user_error(run("validate", folder), "cards.csv", "row 3", "column 'Colour'", "'blue' is not a colour")


def test_kitgen_new_from_starts_with_a_mapping_that_reads(tmp_path):
    # the mapping a designer writes by hand and the one `kitgen new --from` writes agree
    sheet = tmp_path / "deck.csv"
    sheet.write_text(DECK, encoding="utf-8")
    assert run("new", tmp_path / "made", "--from", sheet).exit_code == 0
    written = tomllib.loads((tmp_path / "made" / "game.toml").read_text(encoding="utf-8"))["columns"]
    assert written == tomllib.loads(DECK_COLUMNS.replace("\n    ", "\n"))["columns"]


def test_a_long_name_takes_two_lines_and_a_long_type_is_one_problem(tmp_path):
    sheet = ("Name,Type\n"
             "Breaking Spaghetti Is A Crime In Nonna's Kitchen,Reaction\n"
             "Nonna's Witness Protection,Elemental Runeblade Ninja Wizard Illusionist Action Attack Reaction\n"
             "Cheese Board,Elemental Runeblade Ninja Wizard Illusionist Action Attack Reaction\n")
    folder = game_folder(tmp_path / "g", sheet)
    result = run("validate", folder)
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(lines) == 1                             # one problem for the type, not one per card
    assert "row 3, column 'Type'" in lines[0] and "too long for box 'type'" in lines[0]

    folder = game_folder(tmp_path / "ok", sheet.replace("Elemental Runeblade Ninja Wizard Illusionist Action Attack Reaction", "Passive"))
    assert run("build", folder, "--out", tmp_path / "out").exit_code == 0
    kit = tmp_path / "out" / "sheet-game"
    box = json.loads((kit / "manifest.json").read_text())["cards"][0]["front"]["box"]
    with pdfplumber.open(kit / "cards.pdf") as doc:
        page = doc.pages[0]
        words = {w["text"]: (w["x0"], w["x1"], page.height - w["bottom"]) for w in page.extract_words()
                 if box[0] <= w["x0"] and w["x1"] <= box[2] and page.height - w["bottom"] > box[3] - 40}
    assert {"Breaking", "Spaghetti", "Crime"} <= set(words)
    assert words["Breaking"][2] > words["Crime"][2] + 5          # the name's second line is below its first


def test_headers_in_any_script_map_without_being_printed(tmp_path):
    # game.toml's [columns] names headers; they are never printed, so the font need not have them
    folder = game_folder(tmp_path / "g", "名前,枚数\nDragon,2\n", toml='[columns]\nname = "名前"\ncount = "枚数"\n')
    result = run("validate", folder)
    assert result.exit_code == 0, result.output
    assert load_game(folder).cards[0].count == 2
