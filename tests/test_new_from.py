"""`kitgen new PATH --from SHEET`: a game folder around a designer's own sheet that builds as it is."""

from __future__ import annotations

import csv
import json
import re
import tomllib
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from kitgen.data.game import load_game
from kitgen.outputs.quoted import comment_text, toml_string
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
    assert "Note:" not in run("validate", folder).output       # Flavour is read: the starter face shows it
    assert "{{ flavour }}" in (folder / "layouts.toml").read_text(encoding="utf-8")


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


# --- sheets whose names and headers would break a game.toml pasted together --------------------------

HOSTILE_HEADERS = ['Say "hi"', "Back\\slash", "New\nline", "D\x7fEL", "Ctl\x01\x02\x1b", "x]] [[y", "#} {{ x }} {%",
                   "Emoji \U0001F525", "L" * 3000]
TYPES = ['Fire "hot"', "Ice\\cold", "x]]", "Caf\u00e9 #1"]


def _control_characters(text: str) -> list[str]:
    return [f"U+{ord(ch):04X}" for ch in text if ch != "\n" and unicodedata.category(ch) == "Cc"]


def test_hostile_headers_and_type_values_are_written_escaped_and_the_folder_builds(tmp_path):
    sheet = tmp_path / "hostile.csv"
    with open(sheet, "w", encoding="utf-8", newline="") as fh:
        out = csv.writer(fh)
        out.writerow(["Name", "Type", "Count", *HOSTILE_HEADERS])
        for i, kind in enumerate(TYPES):
            out.writerow([f"Card {i}", kind, 1, *(f"cell {j} of {i}" for j in range(len(HOSTILE_HEADERS)))])
    folder = tmp_path / "g"
    result = run("new", folder, "--from", sheet)
    assert result.exit_code == 0, result.output
    text = (folder / "game.toml").read_text(encoding="utf-8")
    assert _control_characters(text) == []                       # DEL and the rest escaped, never pasted
    data = tomllib.loads(text)
    assert data["columns"] == {"name": "Name", "type": "Type", "count": "Count"}
    assert sorted(t["label"] for t in data["types"].values()) == sorted(TYPES)
    stub = (folder / "templates" / "rules.md.j2").read_text(encoding="utf-8")
    assert _control_characters(stub) == []
    string = r'("(?:[^"\\]|\\.)*")'
    noted = re.findall(rf"^# {string} is not mapped", text, re.M)
    assert [tomllib.loads(f"k = {literal}")["k"] for literal in noted] == [" ".join(h.split()) for h in HOSTILE_HEADERS]
    shown = re.findall(rf"card\.fields\[{string}\]", stub.split("-#}", 1)[0])
    assert len(shown) == len(HOSTILE_HEADERS)
    cards = load_game(folder).cards
    for i, literal in enumerate(shown):                     # each accessor the stub shows reads its column
        assert cards[1].fields[tomllib.loads(f"k = {literal}")["k"]] == f"cell {i} of 1"
    assert run("validate", folder).exit_code == 0
    build = run("build", folder, "--out", tmp_path / "out")
    assert build.exit_code == 0, build.output
    rules = " ".join(page_texts(tmp_path / "out" / "g" / "rules.pdf"))
    for label in TYPES:
        assert label in rules


def test_a_sheet_whose_file_name_holds_a_line_break_and_control_characters(tmp_path):
    sheet = tmp_path / "my\nca\x01rds\x7f.csv"
    sheet.write_text("Name,Type\nScout,Ship\n", encoding="utf-8")
    folder = tmp_path / "g"
    result = run("new", folder, "--from", sheet, "--title", 'Say "Hi" \\ Bye')
    assert result.exit_code == 0, result.output
    text = (folder / "game.toml").read_text(encoding="utf-8")
    assert text.splitlines()[0] == '# Say "Hi" \\ Bye: a game folder around the card sheet mycards.csv.'
    data = tomllib.loads(text)
    assert data["title"] == 'Say "Hi" \\ Bye' and data["data"] == "cards.csv"      # copied under a plain name
    assert (folder / "cards.csv").read_bytes() == sheet.read_bytes()
    assert run("validate", folder).exit_code == 0
    build = run("build", folder, "--out", tmp_path / "out")
    assert build.exit_code == 0, build.output
    assert 'Say "Hi" \\ Bye' in page_texts(tmp_path / "out" / "say-hi-bye" / "rules.pdf")[0]


def test_a_sheet_of_500_types_makes_a_rulebook_with_one_table_over_pages(tmp_path):
    sheet = tmp_path / "many.csv"
    sheet.write_text("Name,Type\n" + "".join(f"Card {i},Kind {i}\n" for i in range(500)), encoding="utf-8")
    folder = tmp_path / "g"
    assert run("new", folder, "--from", sheet).exit_code == 0
    assert len(tomllib.loads((folder / "game.toml").read_text(encoding="utf-8"))["types"]) == 500
    assert run("validate", folder).exit_code == 0
    build = run("build", folder, "--out", tmp_path / "out")
    assert build.exit_code == 0, build.output
    pages = page_texts(tmp_path / "out" / "g" / "rules.pdf")
    assert re.search(r"^500 Cards one shared deck: 500 card types$", pages[0], re.M)
    table = " " + " ".join(" ".join(pages[1:]).split()) + " "        # each row: name, type, count
    assert len(pages) > 3 and all(f" Card {i} Kind {i} 1 " in table for i in range(500))


@given(st.text())
def test_any_text_is_a_toml_string_that_reads_back_as_it_was(text):
    assert tomllib.loads(f"k = {toml_string(text)}  # {comment_text(text)}\n")["k"] == text


def test_a_folder_name_with_a_line_break_is_refused_before_anything_is_written(tmp_path):
    folder = tmp_path / "star\nter"
    sheet = tmp_path / "cards.csv"
    sheet.write_text("Name\nScout\n", encoding="utf-8")
    for extra in ((), ("--from", sheet)):
        assert_user_error(run("new", folder, *extra), "PATH", "control character U+000A")
        assert not folder.exists()


def test_a_count_of_0_takes_a_card_out_and_a_blank_count_is_one_card(tmp_path):
    # as a stock-market game's list: cards cut from the deck keep their row with a count of 0, and a
    # side note below the cards has no count (each stopped `kitgen new --from`'s folder from building)
    sheet = tmp_path / "stocks.tsv"
    sheet.write_text("name\ttext\tcard-count\nMarket Nudge\tMove any stock by three\t10\n"
                     "Sell-Off\tLower a stock by three\t0\nForecast\tAnnounce a stock\t2\n"
                     "Dump\tTrade in a stock\t0\nInsider\tLook at the next event\t\n", encoding="utf-8")
    folder = tmp_path / "g"
    assert run("new", folder, "--from", sheet).exit_code == 0
    assert tomllib.loads((folder / "game.toml").read_text(encoding="utf-8"))["columns"]["count"] == "card-count"
    game = load_game(folder)
    assert [(c.name, c.count, c.row) for c in game.cards] == [("Market Nudge", 10, 2), ("Forecast", 2, 4),
                                                              ("Insider", 1, 6)]
    result = run("build", folder, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert ("Warning: " + str(folder / "stocks.tsv") + ", column 'card-count': 2 rows have a count of 0 (rows 3, 5) "
            "and print no card") in result.output
    cards = json.loads((tmp_path / "out" / "g" / "manifest.json").read_text(encoding="utf-8"))["cards"]
    assert sorted({c["row"] for c in cards}) == [2, 4, 6] and len(cards) == 13


def test_a_deck_column_frequency_and_titre_are_mapped(tmp_path):
    # as a programming card game's print sheet: a Frequency for the copies and a Deck for each kind of card
    sheet = tmp_path / "code.tsv"
    sheet.write_text("Card name\tCard description\tFrequency\tType\tDeck\n"
                     "Damage(Other, 1)\tThe other loses a life\t10\tstatement\tcode\n"
                     "Self.DrawCard()\tDraw a card\t8\tstatement\tcode\n"
                     "Overclock\tPlay two statements this turn\t2\thack\thacks\n"
                     "Blackout\tEvery player skips a turn\t1\tevent\tevents\n", encoding="utf-8")
    folder = tmp_path / "code"
    result = run("new", folder, "--from", sheet)
    assert result.exit_code == 0 and "mapped name, type, count, text, deck" in result.output
    columns = tomllib.loads((folder / "game.toml").read_text(encoding="utf-8"))["columns"]
    assert columns == {"name": "Card name", "type": "Type", "count": "Frequency", "text": "Card description",
                       "deck": "Deck"}
    assert run("build", folder, "--out", tmp_path / "out").exit_code == 0
    man = json.loads((tmp_path / "out" / "code" / "manifest.json").read_text(encoding="utf-8"))
    assert [(d["key"], d["cards"]) for d in man["decks"]] == [("code", 18), ("hacks", 2), ("events", 1)]
    # a French sheet's names are its Titre; without a name header, the first column of names that differ
    sheet = tmp_path / "cartes.csv"
    sheet.write_text("Type,Catégorie,Icone,Titre,Description\nArchitecture,Element,bust,Statue,\n"
                     "Architecture,Element,glass,Vitrail,Verre coloré\nThème,Element,bread,Cène,Un repas\n",
                     encoding="utf-8")
    assert run("new", tmp_path / "fr", "--from", sheet).exit_code == 0
    assert tomllib.loads((tmp_path / "fr" / "game.toml").read_text(encoding="utf-8"))["columns"]["name"] == "Titre"
    sheet.write_text("Catégorie,Label,Description\nElement,Statue,\nElement,Vitrail,Verre\nTheme,Cène,Repas\n",
                     encoding="utf-8")
    assert run("new", tmp_path / "fr2", "--from", sheet).exit_code == 0
    assert tomllib.loads((tmp_path / "fr2" / "game.toml").read_text(encoding="utf-8"))["columns"]["name"] == "Label"


def test_a_workbook_of_several_sheets_says_which_it_reads_and_how_to_read_another(tmp_path):
    # as a network game's workbook: one sheet per kind of card, the others read with "#Sheet"
    sheet = tmp_path / "cards.xlsx"
    sheet.write_bytes(xlsx_bytes({"Infrastructure": [["Name", "Cost", "Quantity"], ["Copper", 10, 6]],
                                  "Protocol": [[None, None, None, "Provided"], ["Name", "Cost", "Quantity", "Address"],
                                               ["Netcon", 4, 5, "X"], ["AX-81", 4, 5, None]],
                                  "User": [["Name"], ["Gamer"]]}))
    result = run("new", tmp_path / "g", "--from", sheet)
    assert result.exit_code == 0
    assert ("The workbook: 3 sheets ('Infrastructure', 'Protocol', 'User'); the game reads the first; "
            'data = "cards.xlsx#Protocol" in game.toml reads another.') in result.output
    assert tomllib.loads((tmp_path / "g" / "game.toml").read_text(encoding="utf-8"))["data"] == "cards.xlsx"
    result = run("new", tmp_path / "p", "--from", f"{sheet}#Protocol")
    assert result.exit_code == 0 and "The workbook" not in result.output
    assert "header on row 2 (row 1 holds only 'Provided', a title above it)" in result.output
    assert [(c.name, c.count) for c in load_game(tmp_path / "p").cards] == [("Netcon", 5), ("AX-81", 5)]


def test_flag_columns_most_cards_set_several_of_are_not_the_type(tmp_path):
    # as a network game's protocols: X marks what each provides, two or three a card; they are no type
    sheet = tmp_path / "protocols.csv"
    sheet.write_text("Name,Cost,Address,Latency,Reliability,Session\nSPDY-con,4,X,X,,\nNetcon,4,X,,X,\n"
                     "AX-81,4,,,X,X\nTCP-ish,6,X,X,X,\n", encoding="utf-8")
    assert run("new", tmp_path / "g", "--from", sheet).exit_code == 0
    columns = tomllib.loads((tmp_path / "g" / "game.toml").read_text(encoding="utf-8"))["columns"]
    assert "type" not in columns and columns["name"] == "Name"
    assert {c.type for c in load_game(tmp_path / "g").cards} == {""}


def test_a_column_counting_something_else_is_not_the_count_and_a_name_may_run_over_two_lines(tmp_path):
    # as a cooperative pirate game's challenges: resources each player needs, many 0, under *_count headers
    sheet = tmp_path / "cards.csv"
    sheet.write_text("id,player_a,a_cannonball_count,a_jewel_count,difficulty\nA1,Eyes,0,2,30\nA2,Eyes,3,0,32\n"
                     "A3,Eyes,0,4,34\n\"Title\nCard\",Hands,1,1,0\n", encoding="utf-8")
    assert run("new", tmp_path / "g", "--from", sheet).exit_code == 0
    columns = tomllib.loads((tmp_path / "g" / "game.toml").read_text(encoding="utf-8"))["columns"]
    assert "count" not in columns and columns["name"] == "id"
    game = load_game(tmp_path / "g")
    assert [(c.name, c.count) for c in game.cards] == [("A1", 1), ("A2", 1), ("A3", 1), ("Title Card", 1)]


def test_columns_of_pictures_and_colours_are_found_by_what_they_hold(tmp_path):
    # as pycard's example monsters: the art is a column of PNG names headed "avatar"
    sheet = tmp_path / "monsters.csv"
    sheet.write_text("avatar,name,defense,text\nalien-stare.png,Alien,1,Lorem ipsum dolor sit amet\n"
                     "barbarian.png,Barbarian,7,Sed do eiusmod tempor\n", encoding="utf-8")
    assert run("new", tmp_path / "m", "--from", sheet).exit_code == 0
    columns = tomllib.loads((tmp_path / "m" / "game.toml").read_text(encoding="utf-8"))["columns"]
    assert columns["art"] == "avatar" and columns["name"] == "name"
    result = run("build", tmp_path / "m", "--out", tmp_path / "out")
    assert result.exit_code == 0 and "art file 'alien-stare.png' not found in art/" in result.output
    # as a header-less minimal deck: a colour per card, and paths of pictures outside the folder (no text,
    # no art: "../illo/..." cannot be drawn from a game folder)
    sheet = tmp_path / "deck.csv"
    rows = [(0, "Normal", "#FF00FF"), (1, "Fighting", "#00FFFF"), (2, "Flying", "#FFFF00"), (3, "Poison", "#FF00FF")]
    sheet.write_text("".join(f"{n},{name},../domain/sea-and-sky-{n}.svg,{colour},../illo/Caribou-{n}.png\n"
                             for n, name, colour in rows), encoding="utf-8")
    assert run("new", tmp_path / "d", "--from", sheet).exit_code == 0
    columns = tomllib.loads((tmp_path / "d" / "game.toml").read_text(encoding="utf-8"))["columns"]
    assert columns["name"] == "B" and columns["color"] == "D" and "text" not in columns and "art" not in columns
    assert [c.color for c in load_game(tmp_path / "d").cards] == ["#ff00ff", "#00ffff", "#ffff00", "#ff00ff"]


# headers a starter face prints as labels: template and markup characters, quotes, a line break, an
# emoji the font lacks, one too long for a line; and one whose cells hold a right-to-left word
LABELLED = ["#} {{ x }} {%", 'Say "hi"', "New\nline", "Emoji \U0001F525", "L" * 3000, "a*b:c<i>\\d", "Hebrew"]
PRINTED = ["#} {{ x }} {%", 'Say "hi"', "New line", "Emoji", "L" * 19 + "…", "A*b:c<i>\\d"]


def test_the_starter_face_prints_any_header_as_a_label_and_its_cell_after_it(tmp_path):
    sheet = tmp_path / "hostile.csv"
    with open(sheet, "w", encoding="utf-8", newline="") as fh:
        out = csv.writer(fh)
        out.writerow(["Name", "Rules", *LABELLED])
        for i in range(3):
            out.writerow([f"Card {i}", f"Rule number {i}: draw a card.", *(f"v{j}-{i}" for j in range(6)), "\u05e9\u05dc"])
    folder = tmp_path / "g"
    assert run("new", folder, "--from", sheet).exit_code == 0
    layouts = (folder / "layouts.toml").read_text(encoding="utf-8")
    assert _control_characters(layouts) == [] and "\u05e9" not in layouts
    assert tomllib.loads((folder / "game.toml").read_text(encoding="utf-8"))["face"] == "card"
    build = run("build", folder, "--out", tmp_path / "out")
    assert build.exit_code == 0 and "Warning" not in build.output, build.output
    kit = tmp_path / "out" / "g"
    cards = json.loads((kit / "manifest.json").read_text(encoding="utf-8"))["cards"]
    texts = page_texts(kit / "cards.pdf")
    for card in cards:
        i = card["row"] - 2
        text = " ".join(texts[card["front"]["page"] - 1].split())
        assert f"Card {i}" in text and f"Rule number {i}: draw a card." in text
        for j, label in enumerate(PRINTED):             # each label once, bold, then its cell
            assert text.count(f"{label}: v{j}-{i}") == 1, (label, text)
        assert "\u05e9" not in text and "Hebrew" not in text     # a column that would print reversed: left out
