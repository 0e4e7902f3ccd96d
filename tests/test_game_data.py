"""Game folders as designers make them: spreadsheets, odd characters, missing art, starters."""

from __future__ import annotations

import json

import pdfplumber
import pytest

from kitgen.data.builtin import builtin_games
from kitgen.data.game import load_game
from kitgen.errors import GameDataError
from tests.conftest import run
from tests.pdfcheck import found_in, words_by_page


def test_list_names_the_builtin_games():
    result = run("list")
    assert result.exit_code == 0
    assert "altun-ha" in result.output and "80 cards" in result.output
    assert set(builtin_games()) <= {line.split()[0] for line in result.output.splitlines()}


def test_spreadsheet_csv_reads_correctly(altun_copy):
    text = ('\ufeffname,type,count,value,text,art,flavour\r\n'
            'Plaza,bid,2,1,,plaza.png,"Stone, lime and sweat"\r\n'
            'Stone,trade,1,,"Draw 3 cards,\r\nthen rest.",stone.png,\r\n'
            '\r\n')
    (altun_copy / "cards.csv").write_bytes(text.encode("utf-8"))
    game = load_game(altun_copy)
    assert [c.name for c in game.cards] == ["Plaza", "Stone"]
    assert game.cards[0].fields["flavour"] == "Stone, lime and sweat"
    assert game.cards[1].text == "Draw 3 cards,\r\nthen rest." or game.cards[1].text == "Draw 3 cards,\nthen rest."
    assert game.cards[1].row == 3


def test_special_characters_print_as_written(altun_copy, tmp_path):
    toml = altun_copy / "game.toml"   # the generic rulebook: Altun Ha's own names cards this deck lacks
    toml.write_text(toml.read_text(encoding="utf-8").replace('rulebook = "rules.md.j2"', ""), encoding="utf-8")
    (altun_copy / "cards.csv").write_text(
        'name,type,count,value,text,art\n'
        'A <b> & "Q",trade,1,,"Use <u>this</u> & say ""hi""",\n'
        'Żółw Ærø,bid,1,1,Ça marche: naïve façade,\n', encoding="utf-8")
    assert run("build", altun_copy, "--out", tmp_path).exit_code == 0
    for name in ("cards.pdf", "rules.pdf"):   # the card faces and the rulebook's card table
        with pdfplumber.open(tmp_path / "altun-ha" / name) as doc:
            text = " ".join(page.extract_text() for page in doc.pages)
        assert '<b>' in text and '&' in text and '"Q"' in text, name
        assert '<u>this</u>' in text and '"hi"' in text, name      # a tag kitgen does not read (<i> it does)
        assert "Żółw Ærø" in text and "façade" in text, name


def test_missing_art_warns_and_draws_a_placeholder(altun_copy, tmp_path):
    (altun_copy / "art" / "plaza.png").unlink()
    result = run("build", altun_copy, "--out", tmp_path)
    assert result.exit_code == 0
    assert "Warning:" in result.output and "plaza.png" in result.output
    man = json.loads((tmp_path / "altun-ha" / "manifest.json").read_text())
    plaza = next(c for c in man["cards"] if c["name"] == "Plaza")
    words = words_by_page(tmp_path / "altun-ha" / "cards.pdf")
    assert found_in(words[plaza["front"]["page"]], "missing", plaza["front"]["box"])


def test_validate_checks_without_rendering(altun_copy, tmp_path):
    result = run("validate", altun_copy)
    assert result.exit_code == 0
    assert "80 cards" in result.output and "OK" in result.output
    assert not any(altun_copy.glob("**/*.pdf"))


def test_new_writes_a_starter_that_builds(tmp_path):
    folder = tmp_path / "my-game"
    result = run("new", folder)
    assert result.exit_code == 0, result.output
    assert (folder / "game.toml").is_file() and (folder / "cards.csv").is_file()
    game = load_game(folder)
    build = run("build", folder, "--out", tmp_path / "out")
    assert build.exit_code == 0, build.output
    assert "Warning" not in build.output
    man = json.loads((tmp_path / "out" / game.slug / "manifest.json").read_text())
    assert len(man["cards"]) == game.deck_size == sum(c.count for c in game.cards)
    words = words_by_page(tmp_path / "out" / game.slug / "cards.pdf")
    for c in man["cards"]:
        assert found_in(words[c["front"]["page"]], c["name"].split()[0], c["front"]["box"])
    assert run("new", folder).exit_code == 2    # refuses to overwrite


def test_titles_with_accents_or_other_scripts_get_distinct_folders():
    from kitgen.data.values import slugify

    assert slugify("Über Spiel") == "uber-spiel"
    assert slugify("Altun Ha: the Game!") == "altun-ha-the-game"
    greek, russian = slugify("Ωμέγα Παιχνίδι"), slugify("Жук и Ко")
    assert greek != russian and "game" not in (greek, russian)


def test_a_game_read_again_gets_tables_of_its_own_and_every_edit(altun_copy):
    """game.toml parsed once per text: each reading still reads the file and gets its own tables."""
    first = load_game(altun_copy)
    first.raw["title"] = "Changed in memory"
    first.raw["types"].clear()
    again = load_game(altun_copy)
    assert again.title == first.title and again.raw["title"] == first.title
    assert again.raw["types"] and again.raw is not first.raw
    toml = altun_copy / "game.toml"
    text = toml.read_text(encoding="utf-8")
    toml.write_text(text.replace(f'title = "{first.title}"', 'title = "Edited Title"', 1), encoding="utf-8")
    assert load_game(altun_copy).title == "Edited Title"
    toml.write_text(text, encoding="utf-8")
    assert load_game(altun_copy).title == first.title
    toml.write_text(text + "\n[[[broken\n", encoding="utf-8")
    for _ in range(2):                       # a refused text is refused at every reading
        with pytest.raises(GameDataError, match="bad TOML"):
            load_game(altun_copy)
