"""Card sheets in the formats spreadsheets save: CSV with any separator, TSV, XLSX workbooks."""

from __future__ import annotations

import re
import zipfile

import pytest

from kitgen.data.game import load_game
from tests.conftest import run
from tests.sheets import error_lines, game_folder, with_saved_values, xlsx_bytes
from tests.test_bad_input import assert_user_error

ROWS = [["Name", "Qty", "Text"],
        ["Seer", 1, "Look, then point; quietly"],
        ["Wolf", 2, "At night\nchoose a victim"]]


def _csv(rows, sep: str) -> str:
    def cell(value) -> str:
        text = str(value)
        return f'"{text}"' if any(ch in text for ch in ",;\t|\n\"") else text
    return "\n".join(sep.join(cell(v) for v in row) for row in rows) + "\n"


@pytest.mark.parametrize("sep, word", [(",", "commas"), (";", "semicolons"), ("\t", "tabs"), ("|", "vertical bars")])
def test_the_separator_is_sniffed_and_reported(tmp_path, sep, word):
    folder = game_folder(tmp_path / "g", _csv(ROWS, sep))
    result = run("validate", folder)
    assert result.exit_code == 0, result.output
    assert f"CSV separated by {word}" in result.output
    game = load_game(folder)
    assert [(c.name, c.count, c.text) for c in game.cards] == [
        ("Seer", 1, "Look, then point; quietly"), ("Wolf", 2, "At night\nchoose a victim")]


def test_a_semicolon_sheet_as_european_spreadsheets_save_it(tmp_path):
    # Windows line endings, a byte-order mark, decimal commas inside values, no final newline
    text = "\ufeffName;Type;Copies;Value\r\nRadio Tower;Tower;2;1,5\r\nMega Bot;Mecha;1;3"
    folder = game_folder(tmp_path / "g", text)
    game = load_game(folder)
    assert [(c.name, c.type, c.count, c.value) for c in game.cards] == [
        ("Radio Tower", "Tower", 2, "1,5"), ("Mega Bot", "Mecha", 1, "3")]
    assert game.sheet.format == "CSV separated by semicolons"


def test_tsv_file_and_a_tab_separated_file_named_csv(tmp_path):
    # like a card database export: commas in unquoted values, a trailing tab on every line,
    # a multi-line quoted text, and the same name on several rows
    text = ("Unique ID\tName\tPitch\tTypes\tFunctional Text\t\n"
            "a1\t10,000 Year Reunion\t1\tGeneric, Action\t\"**Go again**\n\n- draw\"\t\n"
            "a2\tAether Dart\t1\tWizard, Action\tDeal 1\t\n"
            "a3\tAether Dart\t2\tWizard, Action\tDeal 2\t\n")
    toml = '[columns]\ntext = "Functional Text"\nvalue = "Pitch"\n'
    for name in ("cards.tsv", "cards.csv"):
        game = load_game(game_folder(tmp_path / name, text, name, toml))
        assert [c.name for c in game.cards] == ["10,000 Year Reunion", "Aether Dart", "Aether Dart"]
        assert [c.row for c in game.cards] == [2, 3, 4]     # the record with line breaks is one row
        assert game.cards[0].text == "**Go again**\n\n- draw"
        assert game.cards[0].fields["types"] == "Generic, Action"
    assert "tab" in game.sheet.format


def test_comment_rows_are_skipped_and_every_unquoted_separator_is_listed(tmp_path):
    # a hand-written semicolon file: comment rows, blank lines, and two rows whose text holds an unquoted ';'
    text = ("#Format: type;name;text;cost;copies\n\n#----\n#encounters\n\n"
            "encounter;Treasure Chest;Roll 1d4.;0;3\n\n"
            "encounter;War Party;1sp per goblin; 4sp per bugbear;0;1\n"
            "item;Sword;+1 attack;5;2\n"
            "item;Raid;2sp; 3sp;0;1\n")
    folder = game_folder(tmp_path / "g", text, toml='[columns]\ntype = "#Format: type"\n')
    result = run("validate", folder)
    assert result.exit_code == 2
    lines = error_lines(result)
    assert len(lines) == 2
    for line, row in zip(lines, (8, 10)):
        assert f"cards.csv, row {row}: 6 fields but the header names 5 columns" in line
        assert "a ';' inside a value needs quotes" in line


def test_a_header_written_as_a_comment_can_be_mapped(tmp_path):
    folder = game_folder(tmp_path / "g", "#name;type;cost;text\nRadio Tower;Basic Tower;;Provides 1u.\n"
                                         "Mega Bot;Mecha;3;(No abilities.)", toml='[columns]\nname = "#name"\n')
    assert run("validate", folder).exit_code == 0
    assert [c.name for c in load_game(folder).cards] == ["Radio Tower", "Mega Bot"]


def test_unnamed_columns_are_read_and_pointed_out(tmp_path):
    # two stray columns without a header, one of them holding values
    folder = game_folder(tmp_path / "g", "ID,Name,Text,,\n1,N_1,Draw 1,,\n2,N_2,Draw 2,,x\n")
    result = run("validate", folder)
    assert result.exit_code == 0
    assert "column E holds values but has no header" in result.output


# --- XLSX -----------------------------------------------------------------------

def test_xlsx_first_sheet_or_the_named_one(tmp_path):
    book = xlsx_bytes({"Notes": [["Name"], ["not a card"]],
                       "Deck": [["Name", "Count", "Value", "Printed"],
                                ["Temple", 2.0, 3.0, "yes"],
                                [None, None, None, None],
                                ["Jaguar", 1, 0.25, None]]})
    first = load_game(game_folder(tmp_path / "a", book, "cards.xlsx"))
    assert [c.name for c in first.cards] == ["not a card"]
    deck = load_game(game_folder(tmp_path / "b", book, "cards.xlsx#Deck"))
    assert [(c.name, c.count, c.value, c.row) for c in deck.cards] == [("Temple", 2, "3", 2), ("Jaguar", 1, "0.25", 4)]
    assert deck.sheet.format == "XLSX workbook" and deck.sheet.file.endswith("cards.xlsx, sheet 'Deck'")
    result = run("validate", tmp_path / "b")
    assert result.exit_code == 0 and "sheet 'Deck'" in result.output


def test_an_xlsx_card_prints_whole_numbers_without_a_decimal_point(tmp_path):
    book = xlsx_bytes({"Cards": [["Name", "Value"], ["Temple", 3.0]]})
    folder = game_folder(tmp_path / "g", book, "cards.xlsx")
    assert run("build", folder, "--out", tmp_path / "out").exit_code == 0
    import pdfplumber
    with pdfplumber.open(tmp_path / "out" / "sheet-game" / "cards.pdf") as doc:
        words = doc.pages[0].extract_words()
    assert "Temple" in [w["text"] for w in words]
    assert [w["text"] for w in words].count("3") == 3          # both corners and large below the art
    assert not any("3.0" in w["text"] for w in words)


def test_an_xlsx_formula_with_a_saved_value_reads_as_its_value(tmp_path):
    book = with_saved_values(xlsx_bytes({"Cards": [["Name", "Count"], ["Temple", "=1+2"]]}), {"B2": "3"})
    assert load_game(game_folder(tmp_path / "g", book, "cards.xlsx")).cards[0].count == 3


@pytest.mark.parametrize("make, needles", [
    (lambda: b"Name,Count\nTemple,1\n", ["cards.xlsx", "not an XLSX workbook", "not a zip archive"]),
    (lambda: _zip({"hello.txt": b"hi"}), ["cards.xlsx", "not an XLSX workbook", "xl/workbook.xml"]),
    (lambda: xlsx_bytes({"Cards": []}), ["cards.xlsx", "sheet 'Cards'", "empty sheet"]),
    (lambda: xlsx_bytes({"Cards": [["Name", "Count"], ["Temple", "=1+2"]]}),
     ["sheet 'Cards'", "row 2", "column 'Count'", "=1+2", "no saved value"]),
    (lambda: xlsx_bytes({"Cards": [["Name", "Count"], ["Temple", 2.5]]}),
     ["sheet 'Cards'", "row 2", "column 'Count'", "'2.5' is not a whole number"]),
    (lambda: _far_cell(), ["sheet 'Cards'", "ALZ2", "1,000 columns"]),
])
def test_bad_workbooks(tmp_path, make, needles):
    folder = game_folder(tmp_path / "g", make(), "cards.xlsx")
    out = tmp_path / "out"
    assert_user_error(run("build", folder, "--out", out), *needles)
    assert not out.exists()
    assert_user_error(run("validate", folder), *needles)


def test_a_sheet_name_that_does_not_exist_lists_the_sheets(tmp_path):
    folder = game_folder(tmp_path / "g", xlsx_bytes({"Deck": [["Name"], ["A"]], "Rules": [["x"]]}),
                         "cards.xlsx#Cards")
    assert_user_error(run("validate", folder), "cards.xlsx", "no sheet named 'Cards'", "Deck, Rules")


def test_a_formula_error_is_named(tmp_path):
    book = xlsx_bytes({"Cards": [["Name", "Value"], ["Temple", "=1/0"]]})
    book = with_saved_values(book, {"B2": "#DIV/0!"}, {"B2": "e"})
    folder = game_folder(tmp_path / "g", book, "cards.xlsx")
    assert_user_error(run("validate", folder), "row 2", "column 'Value'", "=1/0", "#DIV/0!")


def test_many_formula_cells_are_counted_first_and_100_kept(tmp_path):
    book = xlsx_bytes({"Cards": [["Name", "Count"]] + [[f"Card {i}", "=1+2"] for i in range(150)]})
    folder = game_folder(tmp_path / "g", book, "cards.xlsx")
    lines = error_lines(run("validate", folder))
    assert "150 formula cells have no saved value or give an error, in rows 2 to 151" in lines[0]
    assert all("no saved value" in line for line in lines[1:-1])
    assert [int(re.search(r"row (\d+)", line).group(1)) for line in lines[1:-1]] == list(range(2, len(lines)))
    assert lines[-1] == "Error: ... and 51 more problems (101 in all)"        # the 100 kept, past the 50 shown
    assert_user_error(run("build", folder, "--out", tmp_path / "out"), "150 formula cells")


def test_old_spreadsheet_formats_are_refused_with_advice(tmp_path):
    folder = game_folder(tmp_path / "g", b"\xd0\xcf\x11\xe0", "cards.xls")
    assert_user_error(run("validate", folder), "cards.xls", "not .xls", "save the sheet as .xlsx")


def _zip(members: dict[str, bytes]) -> bytes:
    import io
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    return out.getvalue()


def _far_cell() -> bytes:
    import io

    import openpyxl
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Cards"
    sheet.append(["Name"])
    sheet.append(["Temple"])
    sheet.cell(row=2, column=1014, value="stray")      # column ALZ
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_unicode_text_from_a_spreadsheet_and_the_sheet_found_without_data(tmp_path):
    # "Unicode text" as some spreadsheet programs save it: UTF-16 with a byte-order mark, tabs
    folder = tmp_path / "g"
    folder.mkdir()
    (folder / "game.toml").write_text('title = "T"\n', encoding="utf-8")
    (folder / "cards.tsv").write_bytes("Name\tText\nÆsir\tNaïve façade\n".encode("utf-16"))
    card = load_game(folder).cards[0]
    assert (card.name, card.text) == ("Æsir", "Naïve façade")
    (folder / "cards.tsv").unlink()
    (folder / "cards.xlsx").write_bytes(xlsx_bytes({"Deck": [["Name"], ["Jaguar"]]}))
    assert [c.name for c in load_game(folder).cards] == ["Jaguar"]
