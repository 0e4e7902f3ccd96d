"""kitgen export: bad options and paths give one Error line and exit 2, and write nothing."""

from __future__ import annotations

import pytest

from kitgen.errors import OptionError
from kitgen.outputs.exports import ExportOptions, export_game
from tests.conftest import run, small_game


@pytest.mark.parametrize("args, message", [
    (["--dpi", "10"], "--dpi: 10 is outside 36..1200"),
    (["--bleed", "lots"], "--bleed: 'lots' is not a length"),
    (["--bleed", "20mm"], "--bleed: 20 mm is more than"),
    (["--card-size", "0x10"], "card size '0x10'"),
])
def test_bad_options_are_named(tmp_path, args, message):
    game = small_game(tmp_path / "g")
    result = run("export", game, "--format", "png", "--out", tmp_path / "out", *args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("fmt, args, message", [
    ("tts", ["--bleed", "3mm"], "--bleed: tts images show cards cut to their trim size"),
    ("contact-sheet", ["--bleed", "0"], "--bleed: contact-sheet images show cards cut"),
    ("print-shop", ["--dpi", "300"], "--dpi: the print-shop PDF is vector"),
    ("png", ["--base-url", "https://example.org"], "--base-url: only the tts format"),
])
def test_options_a_format_would_ignore_are_refused(tmp_path, fmt, args, message):
    result = run("export", "altun-ha", "--format", fmt, "--out", tmp_path, *args)
    assert result.exit_code == 2 and message in result.output
    assert not any(tmp_path.iterdir())


def test_unknown_format_is_refused_by_the_command_and_the_library(tmp_path):
    result = run("export", "altun-ha", "--format", "jpeg", "--out", tmp_path)
    assert result.exit_code == 2 and "'jpeg' is not one of" in result.output
    with pytest.raises(OptionError, match="--format: unknown format 'jpeg'"):
        export_game("altun-ha", "jpeg", tmp_path)


def test_unknown_game_and_unwritable_output(tmp_path):
    result = run("export", tmp_path / "missing", "--format", "tts", "--out", tmp_path / "out")
    assert result.exit_code == 2 and result.output.startswith("Error: ")
    game = small_game(tmp_path / "g")
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = run("export", game, "--format", "print-shop", "--out", blocker)
    assert result.exit_code == 2 and result.output.startswith("Error: --out:")


def test_library_call_returns_what_it_wrote(tmp_path):
    game = small_game(tmp_path / "g")
    result = export_game(game, "print-shop", tmp_path / "out", ExportOptions(bleed=0))
    assert result.files == [tmp_path / "out" / "export-test" / "print-shop.pdf"]
    assert result.cards == 20 and result.faces == 5
    assert result.files[0].read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize("args, message", [
    # 1000 x 1000 mm with 1/8 in bleed at 300 DPI would be 11886 px square (141 megapixels)
    (["--card-size", "1000x1000"], "--card-size/--dpi: a 1000 x 1000 mm card with 3.2 mm bleed "
                                   "at 300 DPI is a 11886 x 11886 px image"),
    (["--card-size", "300x300", "--dpi", "1200"], "at 1200 DPI is a 14473 x 14473 px image"),
    (["--dpi", "1201"], "--dpi: 1201 is outside 36..1200"),
])
def test_card_images_too_large_to_write_or_open_are_refused(tmp_path, args, message):
    game = small_game(tmp_path / "g")
    result = run("export", game, "--format", "png", "--out", tmp_path / "out", *args)
    assert result.exit_code == 2, result.output
    assert result.output.startswith("Error: ") and message in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "out").exists()


def test_the_suggested_dpi_for_a_large_card_is_accepted_and_one_more_is_not(tmp_path):
    from kitgen.outputs.export_job import MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE, check_image_size, prepare

    game = small_game(tmp_path / "g")
    with pytest.raises(OptionError, match=r"use --dpi (\d+) or less") as info:
        prepare(game, ExportOptions(card_size="1000x1000"), 9.0, 300, full_size_images=True)
    suggested = int(info.value.args[0].rsplit("--dpi ", 1)[1].split()[0])
    job = prepare(game, ExportOptions(card_size="1000x1000", dpi=suggested), 9.0, 300, full_size_images=True)
    w, h = job.pixels(job.card.width + 18), job.pixels(job.card.height + 18)
    assert max(w, h) <= MAX_IMAGE_SIDE and w * h <= MAX_IMAGE_PIXELS
    job.dpi = suggested + 1
    with pytest.raises(OptionError, match="--card-size/--dpi"):
        check_image_size(job)


def test_formats_that_shrink_large_cards_to_a_sheet_are_not_capped(tmp_path):
    # tts sheets and the contact sheet scale faces down themselves; only the checks differ
    from kitgen.outputs.export_job import prepare

    game = small_game(tmp_path / "g")
    job = prepare(game, ExportOptions(card_size="1000x1000"), 0.0, 300)
    assert job.dpi == 300


@pytest.mark.parametrize("url", ["notaurl", "example.org/decks", "ftp://example.org/decks", "https://",
                                 "http:///decks", "https://example.org/my decks", "file://", ""])
def test_a_base_url_must_be_a_web_or_file_address(tmp_path, url):
    result = run("export", "altun-ha", "--format", "tts", "--out", tmp_path, "--base-url", url)
    assert result.exit_code == 2, result.output
    assert result.output.startswith("Error: --base-url: ") and "https://" in result.output
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("url", ["https://example.org/decks/", "http://localhost:8000", "file:///srv/decks"])
def test_web_and_file_base_urls_are_accepted(url):
    from kitgen.outputs.export_job import parse_base_url

    assert parse_base_url(url) == url
