"""kitgen export --target dtc: the DriveThruCards PDF/X-1a file, read back with pypdf, pdfplumber, PDFium and
Ghostscript.

Most checks read a small deck (two faces and a black back) exported once; Altun Ha (26 faces, 80 cards)
is exported once for what needs a real game: every card's name as text, the page order, art with clear
pixels, total ink on every picture.
"""

from __future__ import annotations

import csv
import functools
import io
import os
import shutil
import subprocess

import numpy as np
import pdfplumber
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageCms
from pypdf import PdfReader, PdfWriter
from pypdf.generic import ContentStream, NameObject

from kitgen.data.builtin import builtin_dirs
from tests.conftest import csv_cards, run, small_game

POKER_W, POKER_H = 180.0, 252.0          # 2.5 x 3.5 in, in points
EIGHTH = 9.0                             # 1/8 in
COLOUR_OPERATORS = {b"rg", b"RG", b"g", b"G", b"k", b"K", b"cs", b"CS", b"sc", b"SC", b"scn", b"SCN"}
K_ONLY = (0.0, 0.0, 0.0, 1.0)


def black_back_game(folder):
    """A two-face game whose back is black (its ink is at the limit) and whose texts are kitgen's ink."""
    game = small_game(folder, [("Gather", "action", 2, "1", "Draw 2 cards."), ("Wood", "resource", 3, "", "")])
    toml = (game / "game.toml").read_text(encoding="utf-8")
    (game / "game.toml").write_text(toml.replace('color = "#264653"\naccent', 'color = "#000000"\naccent'),
                                    encoding="utf-8")
    return game


def export(game, out, *args):
    result = run("export", game, "--target", "dtc", "--out", out, *args)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def deck(tmp_path_factory):
    """The small deck exported once: (game folder, output folder, the command's output)."""
    base = tmp_path_factory.mktemp("deck")
    game = black_back_game(base / "g")
    output = export(game, base / "out")
    return game, base / "out" / "export-test" / "dtc", output


@pytest.fixture(scope="module")
def altun(tmp_path_factory):
    """Altun Ha exported once."""
    out = tmp_path_factory.mktemp("altun")
    output = export("altun-ha", out)
    return out / "altun-ha" / "dtc", output


def streams(reader):
    """(where, parsed content stream, resources) of every page and of every form they draw, each form once."""
    seen = set()
    out = []

    def visit(holder, resources, where):
        out.append((where, ContentStream(holder.get_contents() if hasattr(holder, "get_contents") else holder, reader),
                    resources))
        xobjects = (resources or {}).get("/XObject") or {}
        for name in xobjects:
            ref = xobjects.raw_get(name)
            xo = ref.get_object()
            if xo["/Subtype"] == "/Form" and ref.idnum not in seen:
                seen.add(ref.idnum)
                visit(xo, xo.get("/Resources"), f"{where} form {name}")

    for number, page in enumerate(reader.pages, start=1):
        visit(page, page.get("/Resources"), f"page {number}")
    return out


@functools.lru_cache(maxsize=4)
def parsed(pdf):
    """The file at ``pdf`` read once per module, for the tests that read it alike: (reader, its streams)."""
    reader = PdfReader(pdf)
    return reader, streams(reader)


def images(reader, found_streams=None):
    """Every image XObject the pages and their forms draw, once each: (name, the image's dictionary);
    ``found_streams``: what :func:`streams` found in ``reader``, when it is at hand."""
    found = {}
    for _, _, resources in found_streams if found_streams is not None else streams(reader):
        xobjects = (resources or {}).get("/XObject") or {}
        for name in xobjects:
            ref = xobjects.raw_get(name)
            if ref.get_object()["/Subtype"] == "/Image":
                found[ref.idnum] = (name, ref.get_object())
    return list(found.values())


def cmyk_rendering(pdf, pages, folder, dpi=72):
    """Ghostscript's CMYK rendering of ``pages`` (numbers from 1): total ink of every pixel, in percent."""
    subprocess.run(["gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=tiff32nc", f"-r{dpi}",
                    f"-sPageList={','.join(map(str, pages))}", f"-sOutputFile={folder}/p%03d.tif", str(pdf)],
                   check=True)
    out = []
    for i in range(1, len(pages) + 1):
        with Image.open(folder / f"p{i:03d}.tif") as image:
            assert image.mode == "CMYK"
            out.append(np.asarray(image, dtype=np.int32).sum(axis=2) * 100 / 255)
    return out


# --- the file says what it is ----------------------------------------------------------------------

def test_the_pdf_carries_the_pdf_x1a_markers_the_output_intent_and_boxes(deck):
    _, folder, _ = deck
    pdf = folder / "export-test.pdf"
    assert pdf.read_bytes().startswith(b"%PDF-1.4")
    reader = PdfReader(pdf)
    info = reader.trailer["/Info"].get_object()
    assert info["/GTS_PDFXVersion"] == "PDF/X-1:2003" and info["/GTS_PDFXConformance"] == "PDF/X-1a:2003"
    assert info["/Trapped"] == "/False" and info["/Title"] and info["/CreationDate"] == info["/ModDate"]
    assert len(reader.trailer["/ID"]) == 2
    intents = reader.trailer["/Root"]["/OutputIntents"]
    assert len(intents) == 1
    intent = intents[0].get_object()
    assert intent["/S"] == "/GTS_PDFX" and intent["/OutputConditionIdentifier"] == "FOGRA39"
    icc = intent["/DestOutputProfile"].get_object()
    assert icc["/N"] == 4
    profile = ImageCms.ImageCmsProfile(io.BytesIO(icc.get_data()))
    assert profile.profile.xcolor_space.strip() == "CMYK" and profile.profile.device_class == "prtr"
    assert len(reader.pages) == 2 * (2 + 3)
    for page in reader.pages:
        assert [float(v) for v in page.trimbox] == pytest.approx([EIGHTH, EIGHTH, EIGHTH + POKER_W,
                                                                  EIGHTH + POKER_H])
        assert [float(v) for v in page.bleedbox] == pytest.approx([0, 0, POKER_W + 2 * EIGHTH, POKER_H + 2 * EIGHTH])
        assert [float(v) for v in page.mediabox] == [float(v) for v in page.bleedbox]
        assert "/Group" not in page


# --- vector drawing: text, fonts, colours -----------------------------------------------------------

def first_faces() -> dict[str, int]:
    """Altun Ha's card names and the page (from 1) of each one's first face: every copy is a back, then a face."""
    first, page = {}, 0
    for name, count in csv_cards(builtin_dirs("altun-ha")[0]):
        first[name] = page + 2
        page += 2 * count
    return first


def test_every_card_name_is_text_on_its_face_page(altun):
    folder, _ = altun
    document = pdfium.PdfDocument(str(folder / "altun-ha.pdf"))
    try:
        assert len(document) == 160
        assert "Altun Ha" in document[0].get_textpage().get_text_range()
        faces = first_faces()
        assert len(faces) == 26
        for name, page in faces.items():
            text = " ".join(document[page - 1].get_textpage().get_text_range().split())
            assert name in text, (name, text[:60])
    finally:
        document.close()


def test_every_font_is_embedded_as_a_subset(altun):
    folder, _ = altun
    fonts = {}
    for _, _, resources in parsed(folder / "altun-ha.pdf")[1]:
        for name, ref in ((resources or {}).get("/Font") or {}).items():
            font = ref.get_object()
            descriptor = font["/FontDescriptor"].get_object()
            fonts[str(font["/BaseFont"])] = any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))
    assert fonts and all(fonts.values()), fonts
    assert all(name[1:7].isupper() and name[7] == "+" for name in fonts)       # ABCDEF+Name: a subset
    assert any("Bold" in name for name in fonts) and any("Bold" not in name for name in fonts)
    listed = subprocess.run(["pdffonts", str(folder / "altun-ha.pdf")], capture_output=True, text=True,
                            check=True).stdout.splitlines()[2:]
    assert len(listed) == len(fonts) and all(line.split()[-5:-3] == ["yes", "yes"] for line in listed)


@pytest.mark.parametrize("which", ["deck", "altun"])
def test_no_rgb_and_no_transparency_in_any_content_stream_or_image(which, request):
    fixture = request.getfixturevalue(which)
    folder = fixture[1] if which == "deck" else fixture[0]
    pdf = next(folder.glob("*.pdf"))
    reader, found_streams = parsed(pdf)
    for where, content, resources in found_streams:
        used = {op for _, op in content.operations if op in COLOUR_OPERATORS}
        assert used <= {b"k", b"K"}, (where, used)
        for key in ("/ExtGState", "/ColorSpace", "/Shading", "/Pattern"):
            assert key not in (resources or {}), (where, key)
    found = images(reader, found_streams)
    if which == "altun":
        assert len(found) == 26 + 1                       # each art file once (the back's too)
    for name, image in found:
        assert image["/ColorSpace"] == "/DeviceCMYK", name
        assert "/SMask" not in image
        mask = image.get("/Mask")
        if mask is not None:                              # the art's clear pixels: a stencil, not transparency
            mask = mask.get_object()
            assert bool(mask["/ImageMask"]) and mask["/BitsPerComponent"] == 1 and "/ColorSpace" not in mask
    assert b"/DeviceRGB" not in pdf.read_bytes() and b"/SMask" not in pdf.read_bytes()
    listed = subprocess.run(["pdfimages", "-list", str(pdf)], capture_output=True, text=True,
                            check=True).stdout.splitlines()[2:]
    assert {line.split()[5] for line in listed} <= {"cmyk", "-"}


def text_by_colour(page) -> dict[tuple, str]:
    """A pdfplumber page's characters, joined, by their fill colour."""
    colours: dict[tuple, str] = {}
    for char in page.chars:
        key = tuple(char["non_stroking_color"])
        colours[key] = colours.get(key, "") + char["text"]
    return colours


def test_black_text_prints_in_black_ink_alone_and_coloured_text_keeps_its_colour(deck, altun):
    with pdfplumber.open(deck[1] / "export-test.pdf", pages=[1, 2]) as pdf:
        back, face = (text_by_colour(page) for page in pdf.pages)
    assert face[K_ONLY] == "GatherDraw 2 cards."            # kitgen's ink #2b2420: black ink alone
    assert back[(0.0, 0.0, 0.0, 0.0)] == "Export Test"     # the back's white title: no ink at all
    folder, _ = altun
    faces = first_faces()
    with pdfplumber.open(folder / "altun-ha.pdf", pages=[faces["Plaza"], faces["Stone"]]) as pdf:
        for page, printed in zip(pdf.pages, ["Plaza", "StoneDraw 3 cards."]):
            colours = text_by_colour(page)
            assert colours[K_ONLY] == printed, colours
            assert [c for c in colours if sum(c[:3]) > 0]     # the value and the type keep their card's colour


def test_total_ink_is_at_most_240_percent_on_a_ghostscript_rendering(deck, altun, tmp_path):
    (tmp_path / "deck").mkdir()
    inks = cmyk_rendering(deck[1] / "export-test.pdf", [1, 2, 6], tmp_path / "deck")
    assert 238 <= inks[0].max() <= 240.0              # the black back: rich black, at the limit
    assert max(ink.max() for ink in inks[1:]) <= 240.0
    folder, _ = altun
    (tmp_path / "altun").mkdir()
    inks = cmyk_rendering(folder / "altun-ha.pdf", [1] + list(first_faces().values()), tmp_path / "altun")
    worst = max(float(ink.max()) for ink in inks)
    assert 200 < worst <= 240.0                       # dark art is there, and kept at the limit


# --- the deck as the shop takes it ---------------------------------------------------------------------

def test_pages_are_back_then_face_for_every_card_copy(altun):
    folder, _ = altun
    deck = [name for name, count in csv_cards(builtin_dirs("altun-ha")[0]) for _ in range(count)]
    reader = parsed(folder / "altun-ha.pdf")[0]
    drawn = []
    for page in reader.pages:
        xobjects = page["/Resources"]["/XObject"]
        assert len(xobjects) == 1
        drawn.append(xobjects.raw_get(next(iter(xobjects))).idnum)
    assert len(set(drawn[0::2])) == 1                     # every odd page draws the one back
    first_of = {}
    for name, face in zip(deck, drawn[1::2]):             # copies of one card share a face, cards differ
        assert first_of.setdefault(name, face) == face
    assert len(set(first_of.values())) == len(first_of) == 26 and drawn[0] not in first_of.values()
    document = pdfium.PdfDocument(str(folder / "altun-ha.pdf"))
    back, face = (np.asarray(document[i].render(scale=0.2).to_pil().convert("L")).mean() for i in (0, 1))
    document.close()
    assert back < 90 < 150 < face                            # the dark back first, then the light Plaza face


def test_the_export_passes_preflight_and_writes_proofs_and_readme(altun):
    folder, output = altun
    assert "preflight passed" in output
    result = run("preflight", folder / "altun-ha.pdf", "--target", "dtc")
    assert result.exit_code == 0, result.output
    assert sorted(os.listdir(folder)) == ["README.txt", "altun-ha.pdf", "proof-altun-ha.png",
                                          "soft-proof-altun-ha.png"]
    readme = (folder / "README.txt").read_text(encoding="utf-8")
    assert "back then face" in readme and "240%" in readme and "PDF/X-1a:2003" in readme
    assert "black ink only" in readme
    assert os.path.getsize(folder / "altun-ha.pdf") < 1_500_000      # vectors and the art once, not 27 pictures
    with Image.open(folder / "soft-proof-altun-ha.png") as proof:
        assert proof.mode == "RGB" and proof.width > 1000


def test_soft_proof_sets_the_printed_colours_beside_the_designed_ones(deck):
    from kitgen.outputs import proofs

    _, folder, _ = deck
    with Image.open(folder / "soft-proof-export-test.png") as sheet:
        sheet = sheet.convert("RGB")
        cell_h = round(1125 * proofs.CELL_WIDTH / 825)
        top = proofs.HEADER
        left = sheet.crop((proofs.GAP, top, proofs.GAP + proofs.CELL_WIDTH, top + cell_h))
        x = proofs.GAP + proofs.CELL_WIDTH + proofs.GAP // 2
        right = sheet.crop((x, top, x + proofs.CELL_WIDTH, top + cell_h))
    a, b = np.asarray(left, dtype=np.int32), np.asarray(right, dtype=np.int32)
    assert 0 < np.abs(a - b).mean() < 25          # the same card, its colours shifted by the press


def test_a_card_whose_dark_parts_the_ink_limit_lightens_is_named_in_a_warning(deck):
    _, _, output = deck
    warnings = [line for line in output.splitlines() if line.startswith("Warning:")]
    assert any("back:" in line and "240%" in line and "soft-proof-export-test.png" in line for line in warnings)
    assert not any("01-gather" in line for line in warnings)     # a light face is left alone


def test_the_same_game_gives_byte_identical_files(deck, tmp_path):
    game, first, _ = deck
    export(game, tmp_path)
    again = tmp_path / "export-test" / "dtc"
    names = sorted(p.name for p in first.iterdir())
    assert names == sorted(p.name for p in again.iterdir())
    for name in names:
        assert (first / name).read_bytes() == (again / name).read_bytes(), name


# --- what PDF/X-1a cannot hold, and what preflight finds in the real file ----------------------------

def with_layout(game, layout: str):
    """``game`` with its faces drawn by the layout ``layout`` (TOML of [layouts.mine], extending kitgen's)."""
    toml = (game / "game.toml").read_text(encoding="utf-8")
    (game / "game.toml").write_text('face = "mine"\n' + toml, encoding="utf-8")
    (game / "layouts.toml").write_text('[layouts.mine]\nextends = "kitgen"\n\n' + layout, encoding="utf-8")
    return game


@pytest.fixture(scope="module")
def tricky(tmp_path_factory):
    """A deck exported once whose cards hold what PDF/X-1a cannot, or what needs a word: Gather is plain;
    Wood's art fades out over its whole width (translucency); Stone has a translucent veil; Clay's art is a
    small disc with an anti-aliased edge, drawn large (a clean cut, at too low a resolution); a band of art
    runs across Gather's top into the bleed."""
    from PIL import ImageDraw

    base = tmp_path_factory.mktemp("tricky")
    game = small_game(base / "g", [("Gather", "action", 1, "1", "Draw 2 cards.")])
    with open(game / "cards.csv", "w", newline="", encoding="utf-8") as fh:
        rows = csv.writer(fh)
        rows.writerow(["name", "type", "count", "value", "text", "art"])
        rows.writerows([("Gather", "action", 1, "1", "Draw 2 cards.", ""),
                        ("Wood", "resource", 1, "", "Soft edges.", "wood.png"),
                        ("Stone", "resource", 1, "", "Half seen.", ""),
                        ("Clay", "resource", 1, "", "A clean cut.", "clay.png")])
    with_layout(game, '[layouts.mine.boxes.veil]\nkind = "rect"\nwhen = "{{ name == \'Stone\' }}"\n'
                      'x = "10mm"\ny = "10mm"\nw = "20mm"\nh = "20mm"\nfill = "#ffffff80"\n\n'
                      '[layouts.mine.boxes.band]\nkind = "image"\nwhen = "{{ name == \'Gather\' }}"\n'
                      'content = "band.png"\nbleed = true\nfit = "cover"\nx = "0mm"\ny = "0mm"\nw = "100%"\n'
                      'h = "12mm"\n')
    band = Image.linear_gradient("L").resize((400, 64)).convert("RGB")       # a band across Gather's top
    band.save(game / "art" / "band.png")
    wood = Image.new("RGBA", (60, 40), (40, 120, 60, 255))
    wood.putalpha(Image.linear_gradient("L").rotate(90).resize((60, 40)))      # fading out: translucency
    wood.save(game / "art" / "wood.png")
    disc = Image.new("L", (480, 320), 0)
    ImageDraw.Draw(disc).ellipse((80, 0, 400, 320), fill=255)
    clay = Image.new("RGBA", (60, 40), (150, 70, 40, 255))
    clay.putalpha(disc.resize((60, 40), Image.Resampling.BOX))                 # a disc, its edge anti-aliased
    clay.save(game / "art" / "clay.png")
    output = export(game, base / "out")
    return base / "out" / "export-test" / "dtc" / "export-test.pdf", output


def test_cards_drawn_with_transparency_are_flattened_to_pictures_and_named(tricky):
    pdf, output = tricky
    warnings = [line for line in output.splitlines() if line.startswith("Warning:")]
    assert ("Warning: export-test: 02-wood-x1 is drawn with the soft edges of wood.png, which PDF/X-1a:2003 cannot "
            "hold: it prints from a 300 dpi CMYK picture, text as pixels in four inks; without the transparency a "
            "card prints as text") in warnings
    assert any(line.startswith("Warning: export-test: 03-stone-x1 is drawn with a translucent colour, ")
               for line in warnings), warnings
    assert not any(("01-gather" in line or "04-clay" in line) and "drawn with" in line for line in warnings)
    reader = PdfReader(pdf)
    document = pdfium.PdfDocument(str(pdf))
    try:
        texts = [document[i].get_textpage().get_text_range() for i in range(len(document))]
    finally:
        document.close()
    assert "Export Test" in texts[0] and "Gather" in texts[1] and "Clay" in texts[7]      # the others stay text
    for number in (3, 5):                                               # Wood's and Stone's faces: pictures
        assert texts[number] == ""
        xobjects = reader.pages[number]["/Resources"]["/XObject"]
        picture = xobjects[next(iter(xobjects))]
        assert picture["/Subtype"] == "/Image" and (picture["/Width"], picture["/Height"]) == (825, 1125)
        assert picture["/ColorSpace"] == "/DeviceCMYK"
    for where, _, resources in streams(reader):
        assert "/ExtGState" not in (resources or {}), where
    assert b"/SMask" not in pdf.read_bytes()
    result = run("preflight", pdf, "--target", "dtc")
    assert result.exit_code == 0, result.output


def test_art_carried_into_the_bleed_is_its_edge_pixels_stretched(tricky):
    import pypdfium2.raw as pdfium_c

    pdf, output = tricky
    assert "(preflight passed)" in output                      # no stretched strip taken for a 8 dpi picture
    document = pdfium.PdfDocument(str(pdf))
    try:                                                       # Gather's face; bounds in the card's form
        placed = [(obj.get_px_size(), obj.get_bounds()) for obj in
                  document[1].get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=4)]
    finally:
        document.close()
    (band_px, band), = [(px, box) for px, box in placed if min(px) > 1]
    assert band[3] == pytest.approx(POKER_H, abs=0.01)          # the band's top is the card's top edge
    strips = [box for px, box in placed if px == (band_px[0], 1)]     # one row of the band's pixels each
    assert len(strips) == len(placed) - 1 >= 1
    top = [box for box in strips if box[1] == pytest.approx(band[3], abs=0.01)]
    assert len(top) == 1 and top[0][3] - top[0][1] == pytest.approx(EIGHTH, abs=0.01)   # over the bleed
    assert top[0][0] == pytest.approx(band[0], abs=0.01) and top[0][2] == pytest.approx(band[2], abs=0.01)


def test_art_with_an_anti_aliased_edge_is_cut_out_and_low_resolution_art_resampled(tricky):
    pdf, output = tricky
    (name, clay), = [(n, image) for n, image in images(PdfReader(pdf))
                     if "/Mask" in image and image["/Width"] > 100]
    assert clay["/ColorSpace"] == "/DeviceCMYK"
    mask = clay["/Mask"].get_object()
    assert bool(mask["/ImageMask"]) and mask["/Width"] == 4 * clay["/Width"]    # the cut drawn 4 times finer
    bits = Image.frombytes("1", (mask["/Width"], mask["/Height"]), mask.get_data())
    clear = np.asarray(bits, dtype=bool)                      # a set bit hides the picture: outside the disc
    h, w = clear.shape
    assert clear[h // 2, 2] and clear[2, 2] and not clear[h // 2, w // 2]
    # the disc fills the art's height: its cut at the middle row spans a circle's width, 2/3 of the art's
    inside = np.flatnonzero(~clear[h // 2])
    assert abs((inside[-1] - inside[0] + 1) / w - 2 / 3) < 0.02
    lines = [line for line in output.splitlines() if line.startswith("Warning: export-test: clay.png prints at ")]
    assert len(lines) == 1 and "(04-clay-x1), under the 300 dpi DriveThruCards asks" in lines[0], output
    assert float(lines[0].split(" prints at ")[1].split()[0]) < 100          # 60 px over about 5 cm
    import pypdfium2.raw as pdfium_c

    document = pdfium.PdfDocument(str(pdf))
    try:
        placed = [obj for obj in document[7].get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=4)
                  if obj.get_px_size()[0] > 100]
        left, bottom, right, top = placed[0].get_bounds()
        assert 300 <= placed[0].get_px_size()[0] / ((right - left) / 72) < 301      # resampled to 300 dpi
    finally:
        document.close()


def test_text_in_the_cut_margin_of_the_real_file_stops_the_export(tmp_path):
    game = with_layout(black_back_game(tmp_path / "g"), '[layouts.mine.boxes.title]\nx = "1.5mm"\n'
                                                              'align = "left"\n')
    result = run("export", game, "--target", "dtc", "--out", tmp_path / "out")
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert any(line.startswith("Error: export-test.pdf: page 2 (and 1 more page alike): text 'Gather' reaches ")
               and line.endswith("mm from the cut; DriveThruCards asks text 3.2 mm inside it (the safe zone)")
               for line in lines), lines
    assert not (tmp_path / "out" / "export-test").exists()


def test_preflight_finds_a_font_the_real_file_does_not_embed(deck, tmp_path):
    _, folder, _ = deck
    writer = PdfWriter(clone_from=PdfReader(folder / "export-test.pdf"))
    stripped = None
    for _, _, resources in streams(writer):
        for ref in ((resources or {}).get("/Font") or {}).values():
            font = ref.get_object()
            descriptor = font["/FontDescriptor"].get_object()
            if "Bold" not in str(font["/BaseFont"]) and "/FontFile2" in descriptor:   # fonts are shared
                del descriptor[NameObject("/FontFile2")]
                stripped = str(font["/BaseFont"])[1:]
    assert stripped
    path = tmp_path / "stripped.pdf"
    with open(path, "wb") as fh:
        writer.write(fh)
    result = run("preflight", path, "--target", "dtc")
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert f"Error: {path}: page 2: font {stripped} is not embedded; PDF/X-1a:2003 embeds every font" in lines


def test_ghostscript_reads_the_file_and_qpdf_finds_nothing_wrong(deck, tmp_path):
    _, folder, _ = deck
    pdf = folder / "export-test.pdf"
    checked = subprocess.run(["qpdf", "--check", str(pdf)], capture_output=True, text=True)
    assert checked.returncode == 0 and "No syntax or stream encoding errors found" in checked.stdout
    done = subprocess.run(["gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-dPDFSTOPONERROR", "-dPDFSTOPONWARNING",
                           "-sDEVICE=nullpage", str(pdf)], capture_output=True, text=True)
    assert done.returncode == 0 and not done.stdout.strip() and not done.stderr.strip(), done.stdout + done.stderr
    assert shutil.which("pdffonts")
