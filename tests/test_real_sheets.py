"""Card sheets as designers keep them (tests/real_sheets/, see its README): each builds from
``kitgen new --from SHEET`` with no edit, every row a card; then, with the few lines of game.toml in
tests/real_sheets/designs/, it prints what its designer wants (derived fields, icons, decks).

Every kit is built once for the module; the sheets are read back with their own readers (csv,
openpyxl) to know what to expect, and the kits with pdfplumber (each PDF opened and each page parsed once).
"""

from __future__ import annotations

import csv
import functools
import json
import re
import shutil
import tomllib
from pathlib import Path

import pytest

from kitgen.outputs.kit import build_kit
from kitgen.outputs.starter import write_from_sheet
from tests.plumber_once import Opened

SHEETS = Path(__file__).resolve().parent / "real_sheets"
NAMES = ("spider-monkey.xlsx", "flag-columns.csv", "lcg-export.tsv", "dragons-and-caves.xlsx", "heist-emoji.csv",
         "spellcrafter.csv", "pycard-monsters.csv", "pirate-partage.csv", "minideck.csv", "gratticartes.csv")
DELIMITERS = {".tsv": "\t", ".csv": ","}
SEPARATORS = {"pycard-monsters.csv": "|"}                          # pycard's examples are separated by '|'
HEADERLESS = ("lcg-export.tsv", "minideck.csv")
COUNT_0 = {"pycard-monsters.csv"}                                   # a row whose count is 0 is no card


@functools.cache
def sheet_rows(name: str) -> list[tuple[int, list[str]]]:
    """(row number, cells) of every filled row, as the sheet's own reader gives them (read once a module)."""
    path = SHEETS / name
    if path.suffix == ".xlsx":
        import openpyxl                 # here, not at the top: importing it costs every worker's collection 0.7 s

        book = openpyxl.load_workbook(path, data_only=True)
        sheet = book.worksheets[0]
        rows = [(i, ["" if v is None else str(v) for v in row])
                for i, row in enumerate(sheet.iter_rows(values_only=True), start=1)]
    else:
        with open(path, encoding="utf-8", newline="") as fh:
            rows = list(enumerate(csv.reader(fh, delimiter=SEPARATORS.get(name, DELIMITERS[path.suffix])), start=1))
    return [(i, cells) for i, cells in rows if any(c.strip() for c in cells)]


def manifest(kit: Path) -> dict:
    return json.loads((kit / "manifest.json").read_text(encoding="utf-8"))


@functools.cache
def card_texts(kit: Path) -> dict[int, str]:
    """The text printed on each row's card (its first copy), read inside its trim box, spaces made one
    (read once a module)."""
    out: dict[int, str] = {}
    doc = pdf(kit / "cards.pdf")
    for card in manifest(kit)["cards"]:
        if card["row"] not in out:
            page = doc.pages[card["front"]["page"] - 1]
            x0, y0, x1, y1 = card["front"]["box"]
            h = float(page.height)
            text = page.crop((x0, h - y1, x1, h - y0)).extract_text() or ""
            out[card["row"]] = " ".join(text.split())
    return out


@functools.cache
def pdf_text(path: Path) -> list[str]:
    """The text of each page (read once a module: the kits are built once)."""
    return [page.extract_text() or "" for page in pdf(path).pages]


pdf = Opened()                  # a kit's PDF opened once a module: each page parsed once
_close_pdfs = pdf.closing()


@pytest.fixture(scope="module")
def kits(tmp_path_factory) -> dict:
    """For each sheet: (the folder kitgen new wrote, its kit as written, the kit of the design)."""
    root = tmp_path_factory.mktemp("real")
    out = {}
    for name in NAMES:
        stem = name.split(".")[0]
        copy = root / name
        shutil.copyfile(SHEETS / name, copy)
        folder = root / stem
        made = write_from_sheet(folder, str(copy))
        plain = build_kit(folder, root / "plain")
        designed = root / f"{stem}-design"
        shutil.copytree(folder, designed)
        (designed / "game.toml").write_text((SHEETS / "designs" / f"{stem}.toml").read_text(encoding="utf-8"),
                                            encoding="utf-8")
        design = build_kit(designed, root / "design")
        out[stem] = (folder, made, plain, design)
    return out


@pytest.mark.parametrize("name", NAMES)
def test_every_row_is_a_card_of_the_folder_kitgen_new_writes(kits, name):
    folder, made, plain, _ = kits[name.split(".")[0]]
    rows = sheet_rows(name)
    cards = manifest(plain.folder)["cards"]
    printed = {card["row"] for card in cards}
    header = {"lcg-export.tsv": 0, "minideck.csv": 0, "dragons-and-caves.xlsx": 3}.get(name, 1)
    assert printed == {i for i, _ in rows if i > header}
    assert made.header.startswith("no header row" if name in HEADERLESS else "header on row")


def test_a_header_less_export_is_read_from_its_first_row(kits):
    folder, made, plain, design = kits["lcg-export"]
    rows = sheet_rows("lcg-export.tsv")
    assert "row 1 looks like a card" in made.header and "markup" in made.header
    toml = (folder / "game.toml").read_text(encoding="utf-8")
    assert "header = false" in toml and 'name = "{{ A | striptags }}"' in toml
    names = [re.search(r">([^<]+)<", cells[0]).group(1) for _, cells in rows]
    assert [c["name"] for c in manifest(plain.folder)["cards"]] == names        # one copy a row, markup left out
    # the design reads each card's copies out of the markup: qty="2"
    wanted = {re.search(r">([^<]+)<", c[0]).group(1): int(re.search(r'qty="(\d+)"', c[0]).group(1)) for _, c in rows}
    got: dict[str, int] = {}
    for card in manifest(design.folder)["cards"]:
        got[card["name"]] = got.get(card["name"], 0) + 1
    assert got == wanted


def test_flag_columns_become_a_type_and_counts_follow_it(kits):
    folder, made, plain, design = kits["flag-columns"]
    toml = (folder / "game.toml").read_text(encoding="utf-8")
    assert "type = \"{{ 'action' if Action == '1' else 'treasure' if Treasure == '1'" in toml
    assert '[types."duration"]' in toml or "Duration" in toml
    rows = sheet_rows("flag-columns.csv")
    head = rows[0][1]
    got: dict[str, int] = {}
    for card in manifest(design.folder)["cards"]:
        got[card["name"]] = got.get(card["name"], 0) + 1
    for _, cells in rows[1:]:
        flags = dict(zip(head, cells))
        want = 12 if flags["Victory"] == "1" else 30 if flags["Treasure"] == "1" else 10
        assert got[flags["Card"]] == want, flags["Card"]
    text = "\n".join(pdf_text(plain.folder / "cards.pdf"))
    assert "Treasure" in text and "Victory" in text and "Action" in text       # the type line from the flags


def test_nameless_caves_get_names_icons_replace_tokens_and_each_deck_has_its_own_pages(kits):
    folder, made, plain, design = kits["dragons-and-caves"]
    assert "header on row 3" in made.header and "Dragon Kingdom: card list v7" in made.header
    rows = sheet_rows("dragons-and-caves.xlsx")
    nameless = [i for i, cells in rows if i > 3 and not cells[0].strip()]
    data = manifest(design.folder)
    names = {card["row"]: card["name"] for card in data["cards"]}
    assert all(names[i] == f"Cave {i}" for i in nameless)
    assert [d["key"] for d in data["decks"]] == ["dragons", "caves"]
    decks_on_page: dict[int, set] = {}
    for card in data["cards"]:
        decks_on_page.setdefault(card["front"]["page"], set()).add(card["deck"])
        assert (card["deck"] == "caves") == (card["row"] in nameless)
    assert all(len(decks) == 1 for decks in decks_on_page.values())
    pages = pdf_text(design.folder / "cards.pdf")
    assert not any("[Meat]" in page or "[Gold]" in page or "[Egg]" in page for page in pages)
    assert any("Ember Wyrm" in page for page in pages)
    assert "[Meat]" in "\n".join(pdf_text(plain.folder / "cards.pdf"))     # without [icons], printed as written
    rules = "\n".join(pdf_text(design.folder / "rules.pdf"))
    assert "Credits" in rules and "game-icons.net" in rules and "Lorc" in rules


def test_emoji_print_as_their_built_in_twins(kits):
    folder, made, plain, design = kits["heist-emoji"]
    for kit in (plain, design):
        text = "\n".join(pdf_text(kit.folder / "cards.pdf"))
        assert not re.search("[\U0001F300-\U0001FAFF]", text)
    design_text = "\n".join(pdf_text(design.folder / "cards.pdf"))
    assert "EFFICIENT PICKER" in design_text and "%n" not in design_text
    assert "➜" not in design_text                                              # [icons] "➜" = "move"
    drawn = sum(len(page.curves) + len(page.rects) for page in pdf(design.folder / "cards.pdf").pages[:1])
    plain_drawn = sum(len(page.curves) + len(page.rects) for page in pdf(plain.folder / "cards.pdf").pages[:1])
    assert drawn > 0 and plain_drawn > 0


def test_a_workbook_of_several_kinds_prints_each_deck_apart(kits):
    folder, made, plain, design = kits["spider-monkey"]
    rows = sheet_rows("spider-monkey.xlsx")
    head = rows[0][1]
    starters = sum(int(float(dict(zip(head, c))["Qty"])) for _, c in rows[1:] if dict(zip(head, c))["Type"] == "0 starter")
    data = manifest(design.folder)
    decks = {d["key"]: d for d in data["decks"]}
    assert decks["starters"]["cards"] == starters and decks["starters"]["label"] == "Starting cards"
    assert not set(decks["starters"]["front_pages"]) & set(decks["blueprints"]["front_pages"])
    assert data["cards"] and all(c["deck"] in decks for c in data["cards"])


def test_a_sheet_of_several_kinds_prints_each_deck_apart_with_its_changes_as_icons(kits):
    folder, made, plain, design = kits["spellcrafter"]
    rows = sheet_rows("spellcrafter.csv")
    head = rows[0][1]
    assert "mapped name, type, count" in made.summary
    data = manifest(design.folder)
    kinds = {r[1][head.index("name")]: r[1][head.index("card_type")] for r in rows[1:]}
    want = {"trinkets": sum(1 for k in kinds.values() if "_" not in k and k != "skill"),
            "familiars": sum(1 for k in kinds.values() if k.endswith("_familiar")),
            "skills": sum(1 for k in kinds.values() if k == "skill")}
    assert {d["key"]: d["cards"] for d in data["decks"]} == want
    pages = [set(d["front_pages"]) for d in data["decks"]]
    assert not (pages[0] & pages[1] or pages[0] & pages[2] or pages[1] & pages[2])
    text = card_texts(design.folder)
    bat, spider = (next(r for r, cells in rows if cells[head.index("name")] == n) for n in ("Bat Wing", "Wolf Spider"))
    assert "A torn and bloodied wing membrane" in text[bat] and "Needs more than 3" in text[bat]
    assert "CAVE FAMILIAR" in text[spider]
    assert not any(":skull:" in t or ":moon:" in t for t in text.values())     # drawn as built-in icons
    rules = "\n".join(pdf_text(design.folder / "rules.pdf"))
    assert "Lorc" in rules or "Delapouite" in rules                            # credited, as CC BY asks


def test_a_sheet_separated_by_vertical_bars_keeps_the_commas_of_its_text(kits):
    folder, made, plain, design = kits["pycard-monsters"]
    assert plain.folder.exists() and "art" in made.summary
    rows = sheet_rows("pycard-monsters.csv")
    head = rows[0][1]
    cards = manifest(plain.folder)["cards"]
    assert [c["name"] for c in cards] == [r[1][head.index("name")] for r in rows[1:]]
    assert "Lorem ipsum dolor sit amet, consectetur" in card_texts(plain.folder)[2]
    # the design reads pycard's num_cards: a number, one when blank or not a number, none at 0
    got: dict[str, int] = {}
    for card in manifest(design.folder)["cards"]:
        got[card["name"]] = got.get(card["name"], 0) + 1
    for _, cells in rows[1:]:                     # Pythia's row stops before num_cards: a blank, one card
        number = (cells + [""])[head.index("num_cards")].strip()
        want = int(number) if number.isdigit() else 1
        assert got.get(cells[head.index("name")], 0) == want, cells[1]


def test_resources_counted_in_columns_print_as_that_many_icons(kits):
    folder, made, plain, design = kits["pirate-partage"]
    columns = tomllib.loads((folder / "game.toml").read_text(encoding="utf-8"))["columns"]
    assert "count" not in columns                 # a_cannonball_count counts cannonballs, not copies
    rows = sheet_rows("pirate-partage.csv")
    assert len(manifest(plain.folder)["cards"]) == len(rows) - 1
    text = card_texts(design.folder)
    assert all(":stone:" not in t and "Eyes:" in t for t in text.values()) and "Hands:" in text[2]
    doc, bare = pdf(design.folder / "cards.pdf"), pdf(plain.folder / "cards.pdf")
    assert len(doc.pages[0].curves) > len(bare.pages[0].curves) + 40        # the icons are drawn, as vectors


def test_a_header_less_deck_of_symbols_takes_its_colours_and_corners_from_the_row(kits):
    folder, made, plain, design = kits["minideck"]
    assert "color" in made.summary                                          # a column of colours, found
    rows = sheet_rows("minideck.csv")
    data = manifest(design.folder)
    assert [c["name"] for c in data["cards"]] == [cells[1] for _, cells in rows]
    text = card_texts(design.folder)
    for row, cells in rows:                        # rank and suit (J♣); ★ and ♥ are drawn as their icon twins
        assert text[row].startswith(cells[12].replace("★", "") + cells[11].replace("♥", "")), text[row]
    assert "Rider · Snake" in text[1]


def test_a_nameless_french_sheet_written_for_squib_builds_as_it_is_and_as_designed(kits):
    folder, made, plain, design = kits["gratticartes"]
    assert ":CC-BY:" in card_texts(plain.folder)[3]       # an icon it does not have prints as written
    text = card_texts(design.folder)
    assert not any("<span" in t or ",," in t for t in text.values())
    assert "Grâce à toi, j’ai rechargé mes batteries" in text[8] and "MERCI" in text[8]
    assert "Thanker Cards" in text[3]
    assert all(c["name"] == "" for c in manifest(design.folder)["cards"])


# --- the first build: kitgen new's own face shows the sheet's fields on every card ------------------

LINE = re.compile(r'^\s*\{ part = "labelled-line".*\}, +# column ("(?:[^"\\]|\\.)*")$', re.M)
PANEL = re.compile(r'^\s*\{ part = "text-panel".*\}, +# column ("(?:[^"\\]|\\.)*"), the sheet', re.M)
PICTURE = (".png", ".jpg", ".jpeg", ".svg", ".gif", ".webp")


def words(text: str) -> list[str]:
    """The words of four letters or more, in lower case: what a card prints of a text whatever its
    markup, icons and line breaks."""
    return [w.casefold() for w in re.findall(r"[^\W\d_]{4,}", text)]


def squash(text: str) -> str:
    """Letters and digits only, in lower case: a text as a card's text reads back, whatever became an
    icon, a line break or a space."""
    return re.sub(r"[\W_]", "", text).casefold()


def shows(card: str, cell: str) -> bool:
    """Whether a card's text shows a cell: its first words (of four letters or more), else its letters
    and digits."""
    wanted = words(cell)[:8]
    if wanted:
        return set(wanted) <= set(words(card))
    return squash(cell) in squash(card)


@pytest.mark.parametrize("name", NAMES)
def test_the_first_build_shows_the_sheets_own_fields_on_every_card(kits, name):
    folder, made, plain, _ = kits[name.split(".")[0]]
    game = tomllib.loads((folder / "game.toml").read_text(encoding="utf-8"))
    layouts = (folder / "layouts.toml").read_text(encoding="utf-8")
    assert game["face"] in tomllib.loads(layouts)["layouts"]
    rows = sheet_rows(name)
    header = {"lcg-export.tsv": 0, "minideck.csv": 0, "dragons-and-caves.xlsx": 3}.get(name, 1)
    if header:
        head = next(cells for i, cells in rows if i == header)
    else:
        head = [chr(ord("A") + i) for i in range(max(len(c) for _, c in rows))]
    rows = [(i, cells) for i, cells in rows if i > header]
    columns = {k: v for k, v in game["columns"].items() if isinstance(v, str) and v and "{{" not in v}
    at = {h.strip().casefold(): i for i, h in reversed(list(enumerate(head)))}
    templates = " ".join(v for v in game["columns"].values() if isinstance(v, str) and "{{" in v)
    used = {at[h.casefold()] for h in columns.values()} | {
        i for i, h in enumerate(head) if h.strip() and re.search(rf"\b{re.escape(h.strip())}\b", templates)}

    def cell(cells, i):
        return cells[i].strip() if i < len(cells) else ""

    # the other short columns: as many as six of them, each on a labelled line
    shown = [i for i, h in enumerate(head) if h.strip() and i not in used and any(cell(c, i) for _, c in rows)
             and not all(cell(c, i).lower().endswith(PICTURE) for _, c in rows if cell(c, i))
             and not all(cell(c, i).startswith("#") for _, c in rows if cell(c, i))]    # no pictures, no colours
    short = [i for i in shown if all(len(cell(c, i)) <= 24 and "\n" not in cell(c, i) for _, c in rows)]
    lines = [at[tomllib.loads(f"k = {m}")["k"].casefold()] for m in LINE.findall(layouts)]
    assert set(lines) <= set(short) and len(lines) == min(6, len(short)), (lines, short)
    panel = [at[tomllib.loads(f"k = {m}")["k"].casefold()] for m in PANEL.findall(layouts)]
    longer = [i for i in shown if i not in short and all(len(cell(c, i)) <= 250 for _, c in rows)]
    # without an effect text, the panel shows a longer column of the sheet
    assert len(panel) == (0 if "text" in columns else min(1, len(longer))) and set(panel) <= set(longer)

    text = card_texts(plain.folder)
    names = {card["row"]: card["name"] for card in manifest(plain.folder)["cards"]}
    for row, cells in rows:
        card = text[row]
        if names[row]:
            assert shows(card, names[row]), (row, names[row], card)
        for field in ("value", "text", "type"):
            if field in columns and cell(cells, at[columns[field].casefold()]):
                assert shows(card, cell(cells, at[columns[field].casefold()])), (row, field, card)
        for i in panel:
            if cell(cells, i):
                assert shows(card, cell(cells, i)), (row, head[i], card)
        for i in lines:                           # the label (the header, cut at 19 characters), then the cell
            if cell(cells, i):
                assert squash(head[i][:19]) + squash(cell(cells, i)) in squash(card), (row, head[i], card)
