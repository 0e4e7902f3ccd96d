"""kitgen export --target: the files each image shop takes, read back with Pillow; the options and profiles
of every target."""

from __future__ import annotations

import os
import shutil

import pytest
from PIL import Image

from tests.conftest import run, small_game


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """A small game exported once for each image shop (DriveThruCards' PDF/X-1a file is tested in
    test_shop_pdfx.py)."""
    base = tmp_path_factory.mktemp("small")
    game = small_game(base / "g", [("Gather", "action", 2, "1", "Draw 2 cards."), ("Wood", "resource", 3, "", "")])
    outputs = {}
    for target in ("tgc", "mpc", "ppg"):
        result = run("export", game, "--target", target, "--out", base / "out")
        assert result.exit_code == 0, result.output
        outputs[target] = result.output
    return game, base / "out" / "export-test", outputs


@pytest.mark.parametrize("target, size", [("tgc", (825, 1125)), ("mpc", (822, 1122)), ("ppg", (797, 1097))])
def test_image_shops_get_rgb_pngs_of_their_exact_pixel_size(small, target, size):
    _, out, outputs = small
    folder = out / target / "export-test"
    assert sorted(os.listdir(folder)) == ["01-gather-x2.png", "02-wood-x3.png", "back.png"]
    for name in os.listdir(folder):
        with Image.open(folder / name) as image:
            assert image.format == "PNG" and image.mode == "RGB" and image.size == size
            assert [round(v) for v in image.info["dpi"]] == [300, 300]
            assert "srgb" in image.info or "icc_profile" in image.info
    assert (out / target / "proof-export-test.png").exists()
    assert "preflight passed" in outputs[target]
    result = run("preflight", *sorted(folder.iterdir()), "--target", target)
    assert result.exit_code == 0, result.output


def test_ppg_bleed_is_2_mm_each_side(small):
    _, out, _ = small
    with Image.open(out / "ppg" / "export-test" / "back.png") as image:
        w, h = image.size
    assert (w - 750) / 2 == pytest.approx(2 / 25.4 * 300, abs=0.6)
    assert (h - 1050) / 2 == pytest.approx(2 / 25.4 * 300, abs=0.6)


def test_same_game_and_profile_give_byte_identical_files(small, tmp_path):
    game, out, _ = small
    result = run("export", game, "--target", "tgc", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    first, again = out / "tgc", tmp_path / "export-test" / "tgc"
    names = sorted(str(p.relative_to(first)) for p in first.rglob("*") if p.is_file())
    assert names == sorted(str(p.relative_to(again)) for p in again.rglob("*") if p.is_file())
    for name in names:
        assert (first / name).read_bytes() == (again / name).read_bytes(), name


def test_a_card_size_the_shop_does_not_print_is_refused_in_one_line(small, tmp_path):
    game, _, _ = small
    result = run("export", game, "--target", "tgc", "--card-size", "tarot", "--out", tmp_path)
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "Error: --card-size: The Game Crafter prints poker (63.5 x 88.9 mm) and bridge (57.15 x 88.9 mm) cards, "
        "not 70 x 120 mm; export with --card-size poker or add the size to a profile of your own"]
    assert not (tmp_path / "export-test").exists()


@pytest.mark.parametrize("args, option", [(["--target", "tgc", "--bleed", "3mm"], "--bleed"),
                                          (["--target", "tgc", "--dpi", "600"], "--dpi"),
                                          (["--target", "tgc", "--format", "png"], "--format/--target"),
                                          ([], "--format/--target"),
                                          (["--target", "kinkos"], "--target")])
def test_options_that_clash_with_a_target_are_refused(small, tmp_path, args, option):
    game, _, _ = small
    result = run("export", game, *args, "--out", tmp_path)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: {option}: "), result.output


def test_a_game_may_bring_its_own_profile(small, tmp_path):
    game, _, _ = small
    mine = tmp_path / "g"
    shutil.copytree(game, mine)
    (mine / "shops").mkdir()
    (mine / "shops" / "local.toml").write_text(
        'shop = "Corner Print"\nformat = "jpg"\ncolour = "rgb"\ndpi = 200\nfiles = "per-card"\n'
        '[sizes.poker]\nbleed = "3mm"\nsafe = "4mm"\n', encoding="utf-8")
    result = run("export", mine, "--target", "local", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "out" / "export-test" / "local" / "export-test"
    with Image.open(folder / "back.jpg") as image:
        assert image.format == "JPEG" and image.size == (round((63.5 + 6) / 25.4 * 200), round((88.9 + 6) / 25.4 * 200))
    (mine / "shops" / "local.toml").write_text('shop = "Corner Print"\nformat = "gif"\n', encoding="utf-8")
    result = run("export", mine, "--target", "local", "--out", tmp_path / "out2")
    assert result.exit_code == 2
    assert result.output.strip() == ("Error: shops/local.toml, column 'format': 'gif' is not one of png, jpg, pdf")


def test_every_deck_is_its_own_set_of_shop_files(tmp_path):
    from kitgen.data.game import load_game
    from kitgen.outputs.shop_export import decks

    game = small_game(tmp_path / "g", [("Red", "action", 2, 1, "Fly."), ("Grotto", "resource", 1, "", "Dig.")])
    with open(game / "game.toml", "a", encoding="utf-8") as fh:
        fh.write('\n[decks.dragons]\ntypes = ["action"]\n[decks.caves]\ntypes = ["resource"]\n')
    assert [(d.name, [c.name for c in d.cards]) for d in decks(load_game(game))] == [
        ("export-test-dragons", ["Red"]), ("export-test-caves", ["Grotto"])]
    result = run("export", game, "--target", "tgc", "--out", tmp_path / "out", "--jobs", "1")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "out" / "export-test" / "tgc"
    for deck, face in (("dragons", "01-red-x2.png"), ("caves", "01-grotto-x1.png")):
        assert sorted(p.name for p in (folder / f"export-test-{deck}").iterdir()) == [face, "back.png"]
        assert (folder / f"proof-export-test-{deck}.png").exists()
    assert "export-test-dragons/" in (folder / "README.txt").read_text(encoding="utf-8")
