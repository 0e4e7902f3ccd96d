"""Every mistake in a game folder or an option: one clear line, exit status 2, nothing written."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.conftest import run


def write(path: Path, text: str, *, bom: bool = False, crlf: bool = False) -> None:
    if crlf:
        text = text.replace("\n", "\r\n")
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))


def set_csv(folder: Path, text: str) -> None:
    write(folder / "cards.csv", text)


def assert_user_error(result, *needles: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    for needle in needles:
        assert needle in lines[0], lines[0]


HEADER = "name,type,count,value,text,art\n"


def previous_kit(altun_kit: Path, out: Path) -> Path:
    """A kit already in the output folder: a copy of the Altun Ha kit the test run builds once."""
    return shutil.copytree(altun_kit, out / "altun-ha")


@pytest.mark.parametrize("csv_text, needles", [
    ("title,type,count\nPlaza,bid,1\n", ["cards.csv", "row 1", "no column for the card names", "title, type"]),
    (HEADER + "Plaza,bid,2,1,,\n,bid,1,2,,\n", ["row 3", "column 'name'", "missing card name"]),
    (HEADER + "Plaza,bid,two,1,,\n", ["row 2", "column 'count'", "'two'"]),
    (HEADER + "Plaza,bid,-1,1,,\n", ["row 2", "column 'count'", "not a whole number (0 leaves the row out"]),
    (HEADER + "Plaza,bid,1.5,1,,\n", ["row 2", "column 'count'"]),
    (HEADER + "Plaza,bid,99999999999999999,1,,\n", ["row 2", "column 'count'", "more than 10,000"]),
    (HEADER + "Plaza,bid,²,1,,\n", ["row 2", "column 'count'"]),
    (HEADER + "Plaza,bid,1,1,,../../../etc/passwd.png\n", ["row 2", "column 'art'", "outside the game folder"]),
    (HEADER + "Plaza,bid,1,1,,/etc/x.png\n", ["row 2", "column 'art'", "relative"]),
    (HEADER, ["cards.csv", "no cards"]),
    (HEADER + 'Plaza,bid,2,1,"Lay it first,\nBase,bid,1,2,,\n', ["cards.csv", "row 2", "never closed"]),
    ("", ["cards.csv", "empty sheet"]),
])
def test_bad_cards_csv(altun_copy, tmp_path, csv_text, needles):
    set_csv(altun_copy, csv_text)
    out = tmp_path / "out"
    assert_user_error(run("build", altun_copy, "--out", out), *needles)
    assert not out.exists()
    assert_user_error(run("validate", altun_copy), *needles)


def test_csv_not_utf8(altun_copy):
    (altun_copy / "cards.csv").write_bytes(HEADER.encode() + "Fa\xe7ade,bid,1,5,,\n".encode("cp1252"))
    assert_user_error(run("validate", altun_copy), "cards.csv", "not UTF-8", "CSV UTF-8")


def test_missing_files(altun_copy, tmp_path):
    (altun_copy / "cards.csv").unlink()
    assert_user_error(run("build", altun_copy, "--out", tmp_path), "cards.csv", "file not found")
    (altun_copy / "game.toml").unlink()
    assert_user_error(run("build", altun_copy, "--out", tmp_path), "game.toml", "file not found")
    assert_user_error(run("build", tmp_path / "nowhere"), "no game folder or built-in game", "altun-ha")


def test_unreadable_file(altun_copy, tmp_path):
    if os.geteuid() == 0:   # root reads everything: make the path a folder instead
        (altun_copy / "cards.csv").unlink()
        (altun_copy / "cards.csv").mkdir()
        assert_user_error(run("validate", altun_copy), "cards.csv", "folder")
    else:
        (altun_copy / "cards.csv").chmod(0)
        assert_user_error(run("validate", altun_copy), "cards.csv", "cannot read")


@pytest.mark.parametrize("edit, needles", [
    (lambda t: t.replace('title = "Altun Ha"', 'title = "Altun Ha'), ["game.toml", "bad TOML", "line"]),
    (lambda t: t.replace('title = "Altun Ha"\n', ''), ["game.toml", "missing required key 'title'"]),
    (lambda t: t.replace('color = "#a0522d"', 'color = "brown"', 1), ["game.toml", "types.bid.color", "brown"]),
    (lambda t: t + '\ncolour = "#ffffff"\n', ["game.toml", "unknown key 'colour'"]),
    (lambda t: t.replace('card_size = "poker"', 'card_size = "huge"'), ["card_size", "unknown card size"]),
    (lambda t: t.replace('card_size = "poker"', 'card_size = "300x400"'), ["card_size", "does not fit"]),
    (lambda t: t.replace('rulebook = "rules.md.j2"', 'rulebook = "../../secret.j2"'),
     ["game.toml", "outside the game folder"]),
])
def test_bad_game_toml(altun_copy, tmp_path, edit, needles):
    toml = altun_copy / "game.toml"
    toml.write_text(edit(toml.read_text(encoding="utf-8")), encoding="utf-8")
    out = tmp_path / "out"
    assert_user_error(run("build", altun_copy, "--out", out), *needles)
    assert not out.exists()


def test_a_bad_card_size_in_game_toml_is_refused_even_when_the_build_names_another(altun_copy, tmp_path):
    toml = altun_copy / "game.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('card_size = "poker"', 'card_size = "huge"'),
                    encoding="utf-8")
    assert_user_error(run("build", altun_copy, "--out", tmp_path / "out", "--card-size", "mini"),
                      "game.toml: 'card_size'", "unknown card size 'huge'")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("args, needles", [
    (["--card-size", "200x300"], ["--card-size", "does not fit on letter"]),
    (["--card-size", "big"], ["--card-size", "unknown card size"]),
    (["--bleed", "-1"], ["--bleed", "0 mm or more"]),
    (["--back-offset", "1"], ["--back-offset", "two numbers"]),
    (["--paper", "a3"], ["--paper"]),
    (["--duplex", "both"], ["--duplex"]),
    (["--bleed", "nan"], ["--bleed", "0 mm or more"]),
    (["--bleed", "50"], ["--bleed", "up to 10 mm"]),
    (["--back-offset", "nan,0"], ["--back-offset", "within"]),
    (["--back-offset", "1000,0"], ["--back-offset", "within"]),
    (["--card-size", "0.01x0.01"], ["--card-size", "at least 10 mm"]),
    (["--layout", "gutterfold", "--duplex", "short"], ["--duplex", "does not apply"]),
    (["--layout", "gutterfold", "--back-offset", "1,1"], ["--back-offset", "does not apply"]),
    (["--paper"], ["--paper", "requires an argument"]),
])
def test_bad_options(tmp_path, args, needles):
    assert_user_error(run("build", "altun-ha", "--out", tmp_path / "out", *args), *needles)
    assert not (tmp_path / "out").exists()


def test_output_folder_that_cannot_be_written(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert_user_error(run("build", "altun-ha", "--out", blocker), "--out", "cannot")


def test_text_too_long_names_the_card(altun_copy, tmp_path):
    set_csv(altun_copy, HEADER + "Plaza,bid,1,1,," + "\n" +
            'Stone,trade,1,,"' + "Draw three cards and then do a great many other things. " * 30 + '",\n')
    assert_user_error(run("build", altun_copy, "--out", tmp_path / "out"),
                      "row 3", "'Stone'", "does not fit")
    assert not (tmp_path / "out").exists()
    assert_user_error(run("validate", altun_copy), "row 3", "'Stone'", "does not fit")


@pytest.mark.parametrize("csv_row, toml_edit, needles", [
    ("Plaza,bid,1,1234567890123,,", None, ["row 2", "column 'value'", "box 'corner_value'", "needs 16.0 mm"]),
    ("Plaza,bid,1,1,,", ('label = "Bid"', 'label = "' + "Bid card of the great temple " * 3 + '"'),
     ["types.bid.label", "too long"]),
    ("Plaza,bid,1,1,,", ('subtitle = "Belize, 200 BC - 900 AD"', 'subtitle = "' + "Belize " * 30 + '"'),
     ["key 'back.subtitle'", "too long"]),
])
def test_text_that_cannot_fit_its_place_is_refused(altun_copy, tmp_path, csv_row, toml_edit, needles):
    set_csv(altun_copy, HEADER + csv_row + "\n")
    toml = altun_copy / "game.toml"
    text = toml.read_text(encoding="utf-8").replace('rulebook = "rules.md.j2"', "")
    if toml_edit:
        assert toml_edit[0] in text
        text = text.replace(*toml_edit)
    toml.write_text(text, encoding="utf-8")
    assert_user_error(run("build", altun_copy, "--out", tmp_path / "out"), *needles)
    assert_user_error(run("validate", altun_copy), *needles)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("old, new, key", [
    ('title = "Altun Ha"', 'title = "Altun Ha 中"', "key 'title'"),
    ('label = "Trade"', 'label = "Trade 🎲"', "key 'types.trade.label'"),
    ('name = "Calendar"', 'name = "Calendar 中"', "key 'components[1].name'"),
])
def test_game_toml_text_the_font_lacks_names_the_key(altun_copy, tmp_path, old, new, key):
    toml = altun_copy / "game.toml"
    text = toml.read_text(encoding="utf-8")
    assert old in text
    toml.write_text(text.replace(old, new, 1), encoding="utf-8")
    for args in (["build", altun_copy, "--out", tmp_path / "out"], ["validate", altun_copy]):
        assert_user_error(run(*args), "game.toml", key, "no glyph")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("edit, needles", [
    (('rulebook = "rules.md.j2"', 'rulebook = "nope.md.j2"'), ["nope.md.j2", "not found"]),
    (("# Setup", "# Setup {% if %}"), ["rules.md.j2", "line"]),
])
def test_validate_checks_the_rulebook_template(altun_copy, edit, needles):
    if edit[0].startswith("rulebook"):
        target = altun_copy / "game.toml"
    else:
        target = altun_copy / "templates" / "rules.md.j2"
    text = target.read_text(encoding="utf-8")
    assert edit[0] in text
    target.write_text(text.replace(*edit, 1), encoding="utf-8")
    assert_user_error(run("validate", altun_copy), *needles)


def test_glyph_the_font_lacks_is_a_clear_error(altun_copy, tmp_path):
    set_csv(altun_copy, HEADER + "Plaza,bid,1,1,Roll a die 🧿 now,\n")       # an emoji without a built-in twin
    assert_user_error(run("build", altun_copy, "--out", tmp_path / "out"),
                      "row 2", "column 'text'", "U+1F9FF", '[icons] "🧿" = "')


def test_failed_build_keeps_the_previous_kit(altun_copy, altun_kit, tmp_path):
    out = tmp_path / "out"
    kit = previous_kit(altun_kit, out)
    before = {p.name: p.read_bytes() for p in kit.iterdir()}
    set_csv(altun_copy, HEADER + "Plaza,bid,x,1,,\n")
    assert_user_error(run("build", altun_copy, "--out", out), "column 'count'")
    assert {p.name: p.read_bytes() for p in kit.iterdir()} == before


def test_failure_while_writing_keeps_the_previous_kit(altun_copy, altun_kit, tmp_path, monkeypatch):
    from kitgen.outputs import files

    out = tmp_path / "out"
    kit = previous_kit(altun_kit, out)
    before = {p.name: p.read_bytes() for p in kit.iterdir()}

    def full_disk(a, b):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files, "_exchange", full_disk)
    assert_user_error(run("build", altun_copy, "--out", out, "--paper", "a4"), "--out", "No space left on device")
    monkeypatch.undo()
    assert {p.name: p.read_bytes() for p in kit.iterdir()} == before
    assert sorted(p.name for p in out.iterdir()) == ["altun-ha"]       # no stray staging folder either


def test_a_folder_in_the_way_of_an_output_file_is_replaced_with_the_kit(altun_kit, tmp_path):
    out = tmp_path / "out"
    kit = previous_kit(altun_kit, out)
    (kit / "rules.pdf").unlink()
    (kit / "rules.pdf").mkdir()
    result = run("build", "altun-ha", "--out", out, "--paper", "a4")
    assert result.exit_code == 0, result.output
    assert (kit / "rules.pdf").is_file() and (kit / "rules.pdf").read_bytes().startswith(b"%PDF")
