"""Card sheets as designers keep them (tests/real_sheets/, see its README): each builds from
``kitgen new --from SHEET`` with no edit, every row a card; then, with the few lines of game.toml in
tests/real_sheets/designs/, it prints what its designer wants (derived fields, icons, decks).

Every kit is built once for the module; the sheets are read back with their own readers (csv,
openpyxl) to know what to expect, and the kits with pdfplumber.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
from pathlib import Path

import openpyxl
import pdfplumber
import pytest

from kitgen.outputs.kit import build_kit
from kitgen.outputs.starter import write_from_sheet

SHEETS = Path(__file__).resolve().parent / "real_sheets"
NAMES = ("spider-monkey.xlsx", "flag-columns.csv", "lcg-export.tsv", "dragons-and-caves.xlsx", "heist-emoji.csv")


def sheet_rows(name: str) -> list[tuple[int, list[str]]]:
    """(row number, cells) of every filled row, as the sheet's own reader gives them."""
    path = SHEETS / name
    if path.suffix == ".xlsx":
        book = openpyxl.load_workbook(path, data_only=True)
        sheet = book.worksheets[0]
        rows = [(i, ["" if v is None else str(v) for v in row])
                for i, row in enumerate(sheet.iter_rows(values_only=True), start=1)]
    else:
        with open(path, encoding="utf-8", newline="") as fh:
            rows = list(enumerate(csv.reader(fh, delimiter="\t" if path.suffix == ".tsv" else ","), start=1))
    return [(i, cells) for i, cells in rows if any(c.strip() for c in cells)]


def manifest(kit: Path) -> dict:
    return json.loads((kit / "manifest.json").read_text(encoding="utf-8"))


def pdf_text(path: Path) -> list[str]:
    with pdfplumber.open(path) as doc:
        return [page.extract_text() or "" for page in doc.pages]


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
    header = {"lcg-export.tsv": 0, "dragons-and-caves.xlsx": 3}.get(name, 1)
    assert printed == {i for i, _ in rows if i > header}
    assert made.header.startswith("no header row" if name == "lcg-export.tsv" else "header on row")


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
    assert "TREASURE" in text and "VICTORY" in text and "ACTION" in text       # the type line from the flags


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
    with pdfplumber.open(design.folder / "cards.pdf") as doc:
        drawn = sum(len(page.curves) + len(page.rects) for page in doc.pages[:1])
    with pdfplumber.open(plain.folder / "cards.pdf") as doc:
        plain_drawn = sum(len(page.curves) + len(page.rects) for page in doc.pages[:1])
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
