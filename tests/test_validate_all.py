"""`kitgen validate` lists every problem of a sheet in one run; `kitgen build` stops at the first."""

from __future__ import annotations

import re

import pytest

from kitgen.errors import ProblemList
from kitgen.outputs.kit import validate_game
from tests.conftest import run
from tests.sheets import error_lines, game_folder

BROKEN = ("Name,Qty,Text,Colour,Art\n"
          "Seer,1,Look.,#2F5DA8,\n"                              # row 2: fine
          ",2,Nameless.,,\n"                                     # row 3: no name
          "Wolf,two,Bite.,,\n"                                   # row 4: count not a number
          "Hunter,1,Shoot.,blue,\n"                              # row 5: not a colour
          "Witch,1,\"" + "Brew a potion and pour it slowly. " * 40 + "\",,\n"   # row 6: text too long
          "Elder,1,Speak.,,../../outside.png\n"                  # row 7: art outside the folder
          "Villager,3.5,Vote.,,\n")                              # row 8: count not whole


def test_validate_lists_every_problem_with_file_row_and_column(tmp_path):
    folder = game_folder(tmp_path / "g", BROKEN)
    result = run("validate", folder)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    lines = error_lines(result)
    assert len(lines) == len(result.output.splitlines()) == 6
    rows = [int(re.search(r"row (\d+)", line).group(1)) for line in lines]
    assert sorted(rows) == [3, 4, 5, 6, 7, 8]
    by_row = dict(zip(rows, lines))
    assert "column 'Name'" in by_row[3] and "missing card name" in by_row[3]
    assert "column 'Qty'" in by_row[4] and "'two'" in by_row[4]
    assert "column 'Colour'" in by_row[5] and "'blue'" in by_row[5]
    assert "'Witch'" in by_row[6] and "does not fit" in by_row[6]
    assert "column 'Art'" in by_row[7] and "outside the game folder" in by_row[7]
    assert "column 'Qty'" in by_row[8] and "'3.5'" in by_row[8]
    assert all(str(folder / "cards.csv") in line for line in lines)


def test_build_stops_at_the_first_problem_and_counts_the_rest(tmp_path):
    folder = game_folder(tmp_path / "g", BROKEN)
    out = tmp_path / "out"
    result = run("build", folder, "--out", out)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ")
    assert "row 3" in lines[0] and "missing card name" in lines[0]
    assert f"(and 5 more problems: `kitgen validate {folder}` lists them all)" in lines[0]
    assert not out.exists()


def test_a_long_list_is_cut_at_fifty_lines(tmp_path):
    sheet = "Name,Count\n" + "".join(f"Card {i},x\n" for i in range(62))
    result = run("validate", game_folder(tmp_path / "g", sheet))
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 51
    assert "row 2," in lines[0] and "row 51," in lines[49]
    assert lines[50] == "Error: ... and 12 more problems (62 in all)"


def test_the_library_raises_them_all_at_once(tmp_path):
    try:
        validate_game(game_folder(tmp_path / "g", BROKEN))
    except ProblemList as exc:
        assert len(exc.problems) == 6
        assert {getattr(p, "row", None) for p in exc.problems} == {3, 4, 5, 7, 8, None}   # a fit names the card
    else:
        raise AssertionError("validate_game accepted a broken sheet")


def test_columns_nothing_uses_are_noted(tmp_path):
    # a misnamed optional column (rules_text instead of text) is pointed out, not silently left out
    sheet = "Name,rules_text,Hint,Notes,Empty\nSeer,Look at a card.,S,,\nWolf,Bite.,W,,\n"
    result = run("validate", game_folder(tmp_path / "g", sheet))
    assert result.exit_code == 0
    note = next(line for line in result.output.splitlines() if line.startswith("Note:"))
    assert "not used on the cards or in the rulebook: rules_text, Hint" in note
    assert "2 columns are empty in every row" in note
    assert "Name" not in note.split(":", 2)[2].split(";")[0]


def test_a_column_the_rulebook_reads_is_used(tmp_path):
    folder = game_folder(tmp_path / "g", "Name,Hint,Lore\nSeer,S,Old\n", toml='rulebook = "rules.md.j2"\n')
    (folder / "templates").mkdir()
    (folder / "templates" / "rules.md.j2").write_text(
        "# Hints\n\n{% for card in cards %}{{ card.name }}: {{ card.fields.hint }}\n{% endfor %}\n", encoding="utf-8")
    result = run("validate", folder)
    assert result.exit_code == 0
    note = next(line for line in result.output.splitlines() if line.startswith("Note:"))
    assert note.endswith("in the rulebook as card.fields[\"header\"]") and ": Lore;" in note


@pytest.mark.parametrize("lore, needles", [
    ("An old ᚠ tale", ["no glyph for 'ᚠ'"]),
])
def test_validate_checks_the_cells_of_rulebook_card_tables_without_laying_them_out(tmp_path, lore, needles):
    # the Lore column is printed only in the rulebook's card table, never on a card
    sheet = f"Name,Text,Lore\nSeer,Look.,Wise\nWolf,Bite.,{lore}\n"
    folder = game_folder(tmp_path / "g", sheet, toml='rulebook = "rules.md.j2"\n')
    (folder / "templates").mkdir()
    (folder / "templates" / "rules.md.j2").write_text("# Cards\n\n{{ card_table(columns=['name', 'Lore']) }}\n",
                                                      encoding="utf-8")
    for command in ("validate", "build"):
        result = run(command, folder, *(["--out", tmp_path / "out"] if command == "build" else []))
        assert result.exit_code == 2, result.output
        line = result.output.strip()
        assert line.startswith("Error: ") and len(line.splitlines()) == 1
        assert "row 3" in line and "card 'Wolf'" in line and "column 'Lore'" in line
        assert all(needle in line for needle in needles), line
