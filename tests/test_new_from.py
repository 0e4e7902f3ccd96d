"""`kitgen new PATH --from SHEET`: a game folder around a designer's own sheet that builds as it is."""

from __future__ import annotations

import json
import tomllib

from tests.conftest import run
from tests.pdfium_read import page_texts
from tests.sheets import xlsx_bytes
from tests.test_bad_input import assert_user_error

# like a social-deduction table exported from an online spreadsheet
WEREWOLF = ("Name,Quantity,Hint,Description,Probability\n"
            "Seer,1,S,\"When instructed, pick one player; the moderator says if they're a werewolf.\",14%\n"
            "Werewolf,2,W,At nightfall open your eyes and pick a victim,29%\n"
            "Villager,4,V,At daybreak try to find the werewolf,57%\n")


def test_a_csv_becomes_a_folder_that_builds(tmp_path):
    sheet = tmp_path / "werewolf.csv"
    sheet.write_text(WEREWOLF, encoding="utf-8")
    folder = tmp_path / "my-game"
    result = run("new", folder, "--from", sheet)
    assert result.exit_code == 0, result.output
    assert "mapped name, count, text" in result.output
    assert (folder / "werewolf.csv").read_bytes() == sheet.read_bytes()          # copied as it is
    toml_text = (folder / "game.toml").read_text(encoding="utf-8")
    data = tomllib.loads(toml_text)
    assert data["data"] == "werewolf.csv"
    assert data["columns"] == {"name": "Name", "count": "Quantity", "text": "Description"}
    for header in ("Hint", "Probability"):                         # a comment for every header left over
        assert f'# "{header}" is not mapped' in toml_text
    assert "types" not in data                                     # the sheet has no type column
    assert (folder / "templates" / "rules.md.j2").is_file() and data["rulebook"] == "rules.md.j2"
    assert (folder / "art").is_dir()

    build = run("build", folder, "--out", tmp_path / "out")
    assert build.exit_code == 0, build.output
    kit = tmp_path / "out" / "my-game"
    man = json.loads((kit / "manifest.json").read_text())
    assert [c["name"] for c in man["cards"]].count("Villager") == 4 and len(man["cards"]) == 7
    text = " ".join(page_texts(kit / "rules.pdf"))
    assert "At daybreak try to find the werewolf" in text           # the card table of the stub


def test_one_sheet_of_a_workbook_with_its_types_declared(tmp_path):
    book = tmp_path / "design.xlsx"
    book.write_bytes(xlsx_bytes({
        "Notes": [["Anything"]],
        "Deck": [["Card Name", "Type", "Copies", "Cost", "Rules Text", "Flavour"],
                 ["Scout", "Ship", 2, 0, "Gain 1 Trade.", "Cheap"],
                 ["Viper", "Ship", 1, 0, "Gain 1 Combat.", None],
                 ["Outpost", "Base", 1.0, 3, "Gain 2 Trade.", None]]}))
    folder = tmp_path / "deck"
    result = run("new", folder, "--from", f"{book}#Deck")
    assert result.exit_code == 0, result.output
    data = tomllib.loads((folder / "game.toml").read_text(encoding="utf-8"))
    assert data["data"] == "design.xlsx#Deck"
    assert data["columns"] == {"name": "Card Name", "type": "Type", "count": "Copies", "value": "Cost",
                               "text": "Rules Text"}
    assert {t["label"] for t in data["types"].values()} == {"Ship", "Base"}
    colours = [t["color"] for t in data["types"].values()]
    assert len(set(colours)) == 2
    build = run("build", folder, "--out", tmp_path / "out")
    assert build.exit_code == 0 and "Warning" not in build.output, build.output
    assert run("validate", folder).output.count("Note:") == 1    # Flavour is left to templates


def test_columns_that_do_not_suit_a_field_are_left_unmapped(tmp_path):
    # 'Cost' holds words too long for a corner, 'Qty' holds no numbers: neither is guessed
    sheet = tmp_path / "cards.csv"
    sheet.write_text("Front Name,Cost,Qty\nNanotechnology,Researched,some\nGenetics,Starting,many\n", encoding="utf-8")
    assert run("new", tmp_path / "g", "--from", sheet).exit_code == 0
    data = tomllib.loads((tmp_path / "g" / "game.toml").read_text(encoding="utf-8"))
    assert data["columns"] == {"name": "Front Name", "count": ""}     # "": Qty is not the count
    assert run("build", tmp_path / "g", "--out", tmp_path / "out").exit_code == 0


def test_bad_from(tmp_path):
    assert_user_error(run("new", tmp_path / "g", "--from", tmp_path / "nope.csv"), "--from", "no such file")
    assert not (tmp_path / "g").exists()
    empty = tmp_path / "empty.csv"
    empty.write_text("", encoding="utf-8")
    assert_user_error(run("new", tmp_path / "g", "--from", empty), "empty.csv", "empty sheet")
    assert not (tmp_path / "g").exists()
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "x").write_text("", encoding="utf-8")
    sheet = tmp_path / "ok.csv"
    sheet.write_text("Name\nA\n", encoding="utf-8")
    assert_user_error(run("new", tmp_path / "taken", "--from", sheet), "PATH", "not empty")
