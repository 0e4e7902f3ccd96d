"""kitgen export --target: the files each print shop takes, read back with pypdf, Ghostscript and Pillow."""

from __future__ import annotations

import io
import os
import shutil
import subprocess

import numpy as np
import pytest
from PIL import Image, ImageCms
from pypdf import PdfReader

from kitgen.data.builtin import builtin_dirs
from tests.conftest import csv_cards, run, small_game

POKER_W, POKER_H = 180.0, 252.0          # 2.5 x 3.5 in, in points
EIGHTH = 9.0                             # 1/8 in


@pytest.fixture(scope="module")
def dtc(tmp_path_factory):
    """Altun Ha exported once for DriveThruCards."""
    out = tmp_path_factory.mktemp("dtc")
    result = run("export", "altun-ha", "--target", "dtc", "--out", out)
    assert result.exit_code == 0, result.output
    return out / "altun-ha" / "dtc", result.output


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """A small game with a black back, exported once for each image shop."""
    base = tmp_path_factory.mktemp("small")
    game = small_game(base / "g", [("Gather", "action", 2, "1", "Draw 2 cards."), ("Wood", "resource", 3, "", "")])
    toml = (game / "game.toml").read_text(encoding="utf-8").replace('color = "#264653"\naccent',
                                                                    'color = "#000000"\naccent')
    (game / "game.toml").write_text(toml, encoding="utf-8")
    outputs = {}
    for target in ("tgc", "mpc", "ppg", "dtc"):
        result = run("export", game, "--target", target, "--out", base / "out")
        assert result.exit_code == 0, result.output
        outputs[target] = result.output
    return game, base / "out" / "export-test", outputs


def test_dtc_pdf_is_pdf_x1a_with_output_intent_and_boxes(dtc):
    folder, _ = dtc
    pdf = folder / "altun-ha.pdf"
    assert pdf.read_bytes().startswith(b"%PDF-1.4")
    reader = PdfReader(pdf)
    info = reader.trailer["/Info"].get_object()
    assert info["/GTS_PDFXVersion"] == "PDF/X-1:2003" and info["/GTS_PDFXConformance"] == "PDF/X-1a:2003"
    assert info["/Trapped"] == "/False" and info["/Title"]
    intents = reader.trailer["/Root"]["/OutputIntents"]
    assert len(intents) == 1
    intent = intents[0].get_object()
    assert intent["/S"] == "/GTS_PDFX" and intent["/OutputConditionIdentifier"] == "FOGRA39"
    icc = intent["/DestOutputProfile"].get_object()
    assert icc["/N"] == 4
    profile = ImageCms.ImageCmsProfile(io.BytesIO(icc.get_data()))
    assert profile.profile.xcolor_space.strip() == "CMYK" and profile.profile.device_class == "prtr"
    for page in reader.pages:
        assert [float(v) for v in page.trimbox] == pytest.approx([EIGHTH, EIGHTH, EIGHTH + POKER_W,
                                                                  EIGHTH + POKER_H])
        assert [float(v) for v in page.bleedbox] == pytest.approx([0, 0, POKER_W + 2 * EIGHTH, POKER_H + 2 * EIGHTH])
        assert [float(v) for v in page.mediabox] == [float(v) for v in page.bleedbox]
        assert "/Group" not in page


def test_dtc_pdf_holds_only_cmyk_opaque_images_and_no_unembedded_font(dtc):
    folder, _ = dtc
    data = (folder / "altun-ha.pdf").read_bytes()
    reader = PdfReader(io.BytesIO(data))
    for page in reader.pages:
        resources = page["/Resources"]
        assert "/ExtGState" not in resources and "/ColorSpace" not in resources
        fonts = resources.get("/Font")
        assert not fonts or len(fonts.get_object()) == 0
        xobjects = resources["/XObject"]
        assert len(xobjects) == 1
        for xo in xobjects.values():
            xo = xo.get_object()
            assert xo["/Subtype"] == "/Image" and xo["/ColorSpace"] == "/DeviceCMYK"
            assert "/SMask" not in xo and "/Mask" not in xo
            assert (xo["/Width"], xo["/Height"]) == (825, 1125)
        content = page.get_contents().get_data()
        for operator in (b" rg", b" RG", b" gs", b" cs", b" k\n"):
            assert operator not in content
    assert b"/DeviceRGB" not in data and b"/SMask" not in data


def test_dtc_total_ink_at_most_240_percent_on_every_picture_and_a_gs_rendering(dtc, tmp_path):
    folder, _ = dtc
    pdf = folder / "altun-ha.pdf"
    reader = PdfReader(pdf)
    worst = 0.0
    for xo in {id(x.get_object()): x.get_object() for p in reader.pages for x in p["/Resources"]["/XObject"].values()
               }.values():
        pixels = np.frombuffer(xo.get_data(), dtype=np.uint8).reshape(1125, 825, 4)
        worst = max(worst, float(pixels.astype(np.int32).sum(axis=2).max()) * 100 / 255)
    assert 200 < worst <= 240.0           # dark art is there, and kept at the limit
    out = tmp_path
    subprocess.run(["gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=tiff32nc", "-r150",
                    "-dFirstPage=1", "-dLastPage=2", f"-sOutputFile={out}/p%d.tif", str(pdf)], check=True)
    for name in ("p1.tif", "p2.tif"):
        with Image.open(out / name) as image:
            ink = np.asarray(image.convert("CMYK"), dtype=np.int32).sum(axis=2) * 100 / 255
        assert ink.max() <= 241.0 and ink.max() > 150


def test_dtc_pages_are_back_then_face_for_every_card_copy(dtc):
    import pypdfium2 as pdfium

    folder, _ = dtc
    deck = [name for name, count in csv_cards(builtin_dirs("altun-ha")[0]) for _ in range(count)]
    reader = PdfReader(folder / "altun-ha.pdf")
    assert len(reader.pages) == 2 * len(deck) == 160
    pictures = [next(iter(p["/Resources"]["/XObject"].values())).idnum for p in reader.pages]
    assert len(set(pictures[0::2])) == 1                     # every odd page shows the one back
    first_of = {}
    for name, face in zip(deck, pictures[1::2]):             # copies of one card share a face, cards differ
        assert first_of.setdefault(name, face) == face
    assert len(set(first_of.values())) == len(first_of) == 26 and pictures[0] not in first_of.values()
    document = pdfium.PdfDocument(str(folder / "altun-ha.pdf"))
    back, face = (np.asarray(document[i].render(scale=0.2).to_pil().convert("L")).mean() for i in (0, 1))
    assert back < 90 < 180 < face                            # the dark back first, then the light Plaza face


def test_dtc_export_passes_preflight_and_writes_proofs_and_readme(dtc, tmp_path):
    folder, output = dtc
    assert "preflight passed" in output
    result = run("preflight", folder / "altun-ha.pdf", "--target", "dtc")
    assert result.exit_code == 0, result.output
    assert sorted(os.listdir(folder)) == ["README.txt", "altun-ha.pdf", "proof-altun-ha.png",
                                          "soft-proof-altun-ha.png"]
    readme = (folder / "README.txt").read_text(encoding="utf-8")
    assert "back then face" in readme and "240%" in readme and "PDF/X-1a:2003" in readme
    with Image.open(folder / "soft-proof-altun-ha.png") as proof:
        assert proof.mode == "RGB" and proof.width > 1000


def test_soft_proof_sets_the_printed_colours_beside_the_designed_ones(small):
    from kitgen.outputs import proofs

    _, out, _ = small
    with Image.open(out / "dtc" / "soft-proof-export-test.png") as sheet:
        sheet = sheet.convert("RGB")
        cell_h = round(1125 * proofs.CELL_WIDTH / 825)
        top = proofs.HEADER
        left = sheet.crop((proofs.GAP, top, proofs.GAP + proofs.CELL_WIDTH, top + cell_h))
        x = proofs.GAP + proofs.CELL_WIDTH + proofs.GAP // 2
        right = sheet.crop((x, top, x + proofs.CELL_WIDTH, top + cell_h))
    a, b = np.asarray(left, dtype=np.int32), np.asarray(right, dtype=np.int32)
    assert 0 < np.abs(a - b).mean() < 25          # the same card, its colours shifted by the press


def test_a_card_whose_dark_art_the_ink_limit_lightens_is_named_in_a_warning(small):
    _, _, outputs = small
    warnings = [line for line in outputs["dtc"].splitlines() if line.startswith("Warning:")]
    assert any("back:" in line and "240%" in line and "soft-proof-export-test.png" in line for line in warnings)
    assert not any("01-gather" in line for line in warnings)     # a light face is left alone


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
    for target in ("tgc", "dtc"):
        result = run("export", game, "--target", target, "--out", tmp_path)
        assert result.exit_code == 0, result.output
        first, again = out / target, tmp_path / "export-test" / target
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
