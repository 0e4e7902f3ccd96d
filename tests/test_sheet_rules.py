"""The rules of issue 21 one by one, on small sheets: which row is the header, fields worked out
from the row, decks in every output, the contact sheet over several pictures, rich text that is not
understood, icons from [icons] and emoji."""

from __future__ import annotations

import json
from pathlib import Path

import pdfplumber
import pytest
from PIL import Image

from kitgen.data.game import load_game
from kitgen.data.header import choose_header
from kitgen.data.problems import Problems
from kitgen.errors import GameDataError
from kitgen.layout.contact_sheet import contact_pages
from tests.conftest import run


def rows(*lines: str) -> list[tuple[int, list[str]]]:
    return [(i, line.split(",")) for i, line in enumerate(lines, start=1)]


def test_a_header_is_found_on_its_row_or_missing():
    assert choose_header(rows("Name,Cost", "Fox,3", "Owl,2"), None, "s").row == 1
    titled = choose_header(rows("My game v2", "Name,Cost,Text", "Fox,3,Run", "Owl,2,Fly"), None, "s")
    assert titled.row == 2 and "'My game v2', a title" in titled.why
    numbers = choose_header(rows("Fox,3,Run", "Owl,2,Fly", "Elk,5,Charge"), None, "s")
    assert numbers.row is None and "cell B '3' is a number" in numbers.why
    repeated = choose_header(rows("Fox,Beast,Run", "Owl,Bird,Fly", "Elk,Beast,Charge"), None, "s")
    assert repeated.row is None and "'Beast' appears again" in repeated.why
    sections = choose_header(rows("Name,Kind", "Fox,Beast", "Name,Kind", "Owl,Bird"), None, "s")
    assert sections.row == 1                                  # a header repeated above a section is a header
    assert choose_header(rows("Fox,3", "Owl,2"), 1, "s").row == 1
    assert choose_header(rows("Name,Cost", "Fox,3"), False, "s").row is None
    with pytest.raises(GameDataError, match="header = 7: row 7 is blank"):
        choose_header(rows("Name,Cost", "Fox,3"), 7, "s")


def test_a_header_one_of_whose_names_is_also_a_value_stays_a_header():
    # as a published prototype's workbook: resource columns of numbers under short names, and a column
    # named "convert" some of whose cells say "convert" (a real header was read as a card before)
    sheet = rows("Type,Name,wood,metal,bonus,convert", "item,Soup Cans,,3,1,", "item,Jewel Box,1,,1,convert",
                 "item,Clock,1,1,2,", "friend,Raccoon,,2,,convert")
    choice = choose_header(sheet, None, "s")
    assert choice.row == 1 and choice.why == "header on row 1"
    # the same clue with nothing against it still says "no header": every cell is a card's
    assert choose_header(rows("Fox,Beast,Run", "Owl,Bird,Fly", "Elk,Beast,Charge"), None, "s").row is None
    # a card's short sentence over longer ones is no name of a column (a header-less export of a card game)
    long = "You may return three cards from your hand. If you do; draw and meld a 3."
    sheet = [(1, ["THE WHEEL", "1", "Draw two 1."]), (2, ["TOOLS", "1", long]), (3, ["MASONRY", "1", long]),
             (4, ["CURRENCY", "2", long])]
    assert choose_header(sheet, None, "s").row is None


def test_a_row_grouping_the_columns_above_the_header_is_passed_over():
    # as a network game's workbook: "Provided" and "Required" over the columns they group, then the header
    sheet = rows(",,,Provided,,,Required,", "Name,Cost,Quantity,Address,Latency,Session,Address,Latency",
                 "SPDY-con,4,5,X,X,,,", "Netcon,4,5,X,,X,,X", "AX-81,4,5,,X,X,X,")
    choice = choose_header(sheet, None, "s")
    assert choice.row == 2 and "row 1 holds only 'Provided', 'Required', a title above it" in choice.why
    # a short header over rows as full as it is a header, not a title
    assert choose_header(rows("Name,Text", "Fox,Runs", "Owl,Flies"), None, "s").row == 1


def game(tmp_path: Path, csv: str, toml: str = "", name: str = "g") -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "game.toml").write_text('title = "Sheet Rules"\n' + toml, encoding="utf-8")
    (folder / "cards.csv").write_text(csv, encoding="utf-8")
    return folder


def test_columns_by_letter_and_number_in_a_sheet_without_a_header(tmp_path):
    folder = game(tmp_path, "Fox,3,Run far\nOwl,2,Fly high\n", 'header = false\n[columns]\nname = "A"\nvalue = 2\n'
                  'text = "{{ C | upper }}"\n')
    g = load_game(folder)
    assert [(c.name, c.value, c.text, c.row) for c in g.cards] == [("Fox", "3", "RUN FAR", 1), ("Owl", "2", "FLY HIGH", 2)]


def test_a_cell_of_spaces_is_blank_to_a_template(tmp_path):
    # as a card maker's example sheet: blank cards to write on, their names a space or two
    folder = game(tmp_path, "Card Name,Copies\nZig,6\n ,6\n  ,6\n", '[columns]\nname = "{{ card_name or (\'Card \' ~ row) }}"\n')
    assert [(c.name, c.count) for c in load_game(folder).cards] == [("Zig", 6), ("Card 3", 6), ("Card 4", 6)]


def test_fields_worked_out_from_the_row_read_each_other_in_order(tmp_path):
    folder = game(tmp_path, "Name,Treasure,Victory\nCopper,1,0\nEstate,0,1\n,0,0\n",
                  '[columns]\ncount = "{{ 12 if type == \'victory\' else 10 }}"\n'
                  'type = "{{ \'treasure\' if Treasure == \'1\' else \'victory\' if Victory == \'1\' else \'action\' }}"\n'
                  'name = "{{ Name or (\'Card \' ~ row) }}"\n')
    g = load_game(folder)
    assert [(c.name, c.type, c.count) for c in g.cards] == [("Copper", "treasure", 10), ("Estate", "victory", 12),
                                                            ("Card 4", "action", 10)]
    assert g.column("count") == "[columns] count"


@pytest.mark.parametrize("toml, needle", [
    ('[columns]\nname = "{{ Nmae }}"\n', "[columns] name: no column or field named 'Nmae'"),
    ('[columns]\ntype = "{{ count }}"\ncount = "{{ type }}"\n', "read one another in a circle"),
    ('[columns]\ncount = "{{ Qty|int * -1 }}"\n', "row 2, [columns] count: count '-3' is not a whole number"),
    ('[columns]\nname = "{{ Name }"\n', "[columns] name = '{{ Name }': template error"),
    ('[decks.big]\ntypes = ["giant"]\n', "'decks.big.types' names the type 'giant'"),
    ('name_required = "no"\n', "'name_required' must be true or false"),
])
def test_mistakes_of_worked_out_fields_and_decks_name_the_key(tmp_path, toml, needle):
    folder = game(tmp_path, "Name,Qty\nFox,3\n", toml)
    with pytest.raises(GameDataError) as info:
        load_game(folder, Problems())
    assert needle in str(info.value)


def test_a_card_may_go_without_a_name_when_the_game_says_so(tmp_path):
    with pytest.raises(GameDataError, match="row 3, column 'Name': missing card name"):
        load_game(game(tmp_path, "Name,Text\nFox,Run\n,Hide\n"))
    g = load_game(game(tmp_path, "Name,Text\nFox,Run\n,Hide :nest:\n", "name_required = false\n", "h"))
    assert [c.name for c in g.cards] == ["Fox", ""]
    warning = next(line for line in run("validate", tmp_path / "h").output.splitlines() if "no icon" in line)
    assert "row 3, column 'Text' (a card without a name): no icon ':nest:'" in warning       # not "(card '')"


def test_unbalanced_markers_are_warnings_naming_row_and_column(tmp_path):
    folder = game(tmp_path, "Name,Text\nFox,***traits***\nOwl,**x\nElk,5 VP*\n")
    result = run("validate", folder)
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.output.splitlines() if "opens or closes" in line]
    assert len(warnings) == 1 and "row 3, column 'Text' (card 'Owl')" in warnings[0]


def test_the_html_sheets_hold_is_read_and_other_tags_are_warnings(tmp_path):
    # as a deck-builder's export (<hr> between a card's abilities) and a Squib sheet (<i>, <span size=...>)
    folder = game(tmp_path, "Name,Text\nBlob,<b>Gain 3 Trade</b><hr>Ally: draw a card.\n"
                            "Vitrail,Basé sur <i>Via Fabula</i><br>Icônes\nCrédits,<span size=\"small\">CC-BY</span>\n")
    result = run("build", folder, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.output.splitlines() if "is not read" in line]
    assert len(warnings) == 1 and "row 4, column 'Text' (card 'Crédits')" in warnings[0]
    assert "the markup <span size=\"small\">, </span> is not read" in warnings[0]
    with pdfplumber.open(tmp_path / "out" / "sheet-rules" / "cards.pdf") as pdf:
        page = pdf.pages[0]
        text = page.extract_text()
        fonts = {w["text"]: w["fontname"] for w in page.extract_words(extra_attrs=["fontname"])}
    assert "<b>" not in text and "<hr>" not in text and "<i>" not in text and "<br>" not in text
    assert "Bold" in fonts["Trade"] and "Bold" not in fonts["Ally:"]
    assert "Oblique" in fonts["Fabula"] or "Italic" in fonts["Fabula"]
    lines = text.splitlines()
    assert lines.index("Ally: draw a card.") > lines.index("Gain 3 Trade")        # on lines of their own
    assert '<span size="small">CC-BY' in text and '</span>' in text             # printed as written


DECKS = '''[types.dragon]
label = "Dragon"
color = "#aa3333"
[types.cave]
label = "Cave"
color = "#445566"
back = "cave-back"
[layouts.cave-back]
extends = "kitgen-back"
[layouts.cave-back.boxes.background]
kind = "rect"
bleed = true
fill = "#7a5c2e"
'''


@pytest.fixture(scope="module")
def split(tmp_path_factory) -> dict:
    """A game whose two types have their own backs, built and exported once."""
    tmp = tmp_path_factory.mktemp("decks")
    folder = game(tmp, "Name,Type,Qty\nRed,dragon,3\nGrotto,cave,2\nBlue,dragon,1\nHollow,cave,1\n", DECKS)
    out = tmp / "out"
    results = {}
    for args in (("build",), ("export", "--format", "png", "--dpi", "36"), ("export", "--format", "tts", "--dpi", "36"),
                 ("export", "--format", "contact-sheet", "--dpi", "36"), ("export", "--format", "print-shop")):
        result = run(*args[:1], folder, "--out", out, *args[1:])
        assert result.exit_code == 0, result.output
        results[args[-1]] = result
    return {"kit": out / "sheet-rules", "results": results}


def test_types_with_their_own_backs_are_decks_on_sheets_of_their_own(split):
    data = json.loads((split["kit"] / "manifest.json").read_text(encoding="utf-8"))
    assert [(d["key"], d["cards"]) for d in data["decks"]] == [("dragon", 4), ("cave", 3)]
    pages = {}
    for card in data["cards"]:
        pages.setdefault(card["front"]["page"], set()).add(card["deck"])
    assert all(len(decks) == 1 for decks in pages.values()) and len(pages) == 2


def test_the_png_export_writes_each_shared_back_once_and_says_which_back_each_face_has(split):
    folder = split["kit"] / "png"
    assert sorted(p.name for p in (folder / "dragon").iterdir()) == ["01-red-x3.png", "02-blue-x1.png", "dragon-back.png"]
    assert sorted(p.name for p in (folder / "cave").iterdir()) == ["01-grotto-x2.png", "02-hollow-x1.png", "cave-back.png"]
    listing = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    assert [f["back"] for d in listing["decks"] for f in d["faces"]] == ["dragon-back.png"] * 2 + ["cave-back.png"] * 2
    with Image.open(folder / "cave" / "cave-back.png") as back:
        assert back.convert("RGB").getpixel((back.width // 2, 2)) == pytest.approx((0x7a, 0x5c, 0x2e), abs=3)


def test_tabletop_simulator_gets_one_deck_object_per_deck(split):
    folder = split["kit"] / "tts"
    save = json.loads((folder / "sheet-rules.json").read_text(encoding="utf-8"))
    decks = save["ObjectStates"]
    assert [d["Nickname"] for d in decks] == ["Sheet Rules: Dragon", "Sheet Rules: Cave"]
    assert [len(d["DeckIDs"]) for d in decks] == [4, 3]
    assert not set(decks[0]["CustomDeck"]) & set(decks[1]["CustomDeck"])
    assert decks[0]["Transform"]["posX"] != decks[1]["Transform"]["posX"]
    assert (folder / "sheet-rules-cave-back.png").exists() and (folder / "sheet-rules-dragon-sheet-1.png").exists()


def test_print_shop_writes_a_file_per_deck(split):
    import pypdf

    for deck, pages in (("dragon", 8), ("cave", 6)):
        assert len(pypdf.PdfReader(split["kit"] / f"print-shop-{deck}.pdf").pages) == pages


def test_the_contact_sheet_pages_a_large_deck_at_one_card_size():
    one = contact_pages([12], 180.0, 252.0, float("inf"))
    assert len(one) == 1
    pages = contact_pages([120, 5], 180.0, 252.0, 2000.0)
    assert len(pages) > 2
    sizes = {(round(b.w, 3), round(b.h, 3)) for page in pages for b in page.cards}
    assert sizes == {(180.0, 252.0)}
    assert all(page.height <= 2000.0 for page in pages)
    assert sorted(i for page in pages for i in page.items) == list(range(125))
    assert [s for page in pages for _, s in page.sections] == [0, 1]


def test_emoji_without_an_icon_names_the_icons_line_and_the_one_column(tmp_path):
    folder = game(tmp_path, "Name,Cost,Text\nFox,🧿,Run\n", '[columns]\nvalue = "Cost"\n')
    result = run("validate", folder)
    assert result.exit_code == 2
    line = next(line for line in result.output.splitlines() if "U+1F9FF" in line)
    assert "row 2, column 'Cost' (card 'Fox')" in line and "column 'Text'" not in line
    assert '[icons] "🧿" = "' in line
    (folder / "game.toml").write_text('title = "Sheet Rules"\n[columns]\nvalue = "Cost"\n[icons]\n"🧿" = "eye"\n',
                                      encoding="utf-8")
    assert run("validate", folder).exit_code == 0
