"""kitgen preflight: every problem of a set of broken files, one line each; hostile files in one Error line."""

from __future__ import annotations

import functools
import io
import struct
import zlib

import pytest
from PIL import Image
from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, NameObject, RectangleObject

from kitgen.outputs import cmyk
from kitgen.outputs.pdfx import PdfxPage, pdfx_pdf
from tests.conftest import run

W, H, B = 180.0, 252.0, 9.0                  # a poker card and 1/8 in bleed, in points
GREY = (60, 40, 40, 30)                      # 66% ink


@functools.lru_cache(maxsize=None)
def card_pdf(*pictures) -> bytes:
    """A PDF/X-1a file as kitgen writes it, one page for each CMYK colour given, 825 x 1125 px (each file
    written once: four of the broken files start from the same good one)."""
    images = {str(i): Image.new("CMYK", (825, 1125), colour) for i, colour in enumerate(pictures)}
    return pdfx_pdf(images, [PdfxPage(str(i)) for i in range(len(pictures))], (W + 2 * B, H + 2 * B),
                    (B, B, B + W, B + H), "test deck", cmyk.profile_bytes(), cmyk.CONDITION, cmyk.CONDITION_TEXT)


def changed(data: bytes, content: bytes = b"", font: bool = False, bleed_box=None) -> bytes:
    """``data`` with ``content`` drawn over page 1, a standard font that is not embedded, or another BleedBox."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    page = writer.pages[0]
    if content:
        stream = DecodedStreamObject()
        stream.set_data(content)
        page[NameObject("/Contents")] = ArrayObject([page.raw_get("/Contents"), writer._add_object(stream)])
    if font:
        helvetica = DictionaryObject({NameObject("/Type"): NameObject("/Font"),
                                      NameObject("/Subtype"): NameObject("/Type1"),
                                      NameObject("/BaseFont"): NameObject("/Helvetica")})
        resources = page["/Resources"]
        resources[NameObject("/Font")] = DictionaryObject({NameObject("/F9"): helvetica})
    if bleed_box is not None:
        page.bleedbox = RectangleObject(bleed_box)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk, its length and checksum right."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(size, mode="RGB", dpi=300) -> bytes:
    out = io.BytesIO()
    Image.new(mode, size, (120, 60, 30) if mode == "RGB" else 0).save(out, "PNG", dpi=(dpi, dpi))
    return out.getvalue()


@pytest.fixture(scope="module")
def broken(tmp_path_factory):
    folder = tmp_path_factory.mktemp("broken")
    files = {
        "good.pdf": card_pdf(GREY, GREY),
        "ink.pdf": card_pdf((255, 255, 255, 255), GREY),
        "rgb.pdf": changed(card_pdf(GREY, GREY), b"q 1 0 0 rg 60 60 40 40 re f Q"),
        "edge.pdf": changed(card_pdf(GREY, GREY), b"BT 0 0 0 1 k /F9 9 Tf 12 120 Td (Edge) Tj ET", font=True),
        "nobleed.pdf": changed(card_pdf(GREY, GREY), bleed_box=(B, B, B + W, B + H)),
        "good.png": png((825, 1125)),
        "wrong.png": png((800, 1100)),
        "cut.png": png((750, 1050)),
    }
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return folder


def lines_of(result) -> list[str]:
    return [line.removeprefix("Error: ") for line in result.output.strip().splitlines()]


def test_a_good_cmyk_pdf_passes(broken):
    result = run("preflight", broken / "good.pdf", "--target", "dtc")
    assert result.exit_code == 0, result.output
    assert "no problems" in result.output


def test_every_problem_of_every_broken_pdf_is_one_line_in_one_run(broken):
    names = ["ink.pdf", "rgb.pdf", "edge.pdf", "nobleed.pdf", "good.pdf"]
    result = run("preflight", *[broken / n for n in names], "--target", "dtc")
    assert result.exit_code == 2
    lines = lines_of(result)
    expected = [
        (f"{broken / 'ink.pdf'}: page 1: total ink up to 400% (the highest 1% of the page from 400%); "
         "DriveThruCards allows 240%"),
        f"{broken / 'rgb.pdf'}: page 1: RGB colour (operator rg); DriveThruCards takes DeviceCMYK only",
        f"{broken / 'edge.pdf'}: page 1: font Helvetica is not embedded; PDF/X-1a:2003 embeds every font",
        (f"{broken / 'nobleed.pdf'}: page 1: no bleed; DriveThruCards asks 3.2 mm on every side (BleedBox past "
         "the TrimBox, art reaching it)"),
    ]
    edge = [line for line in lines if "text 'Edge'" in line]    # drawn 3 pt (1.06 mm) inside the cut
    assert len(edge) == 1 and edge[0].startswith(f"{broken / 'edge.pdf'}: page 1: text 'Edge' reaches ")
    assert edge[0].endswith(" mm from the cut; DriveThruCards asks text 3.2 mm inside it (the safe zone)")
    assert 1.0 <= float(edge[0].split(" reaches ")[1].split()[0]) <= 1.5    # the E's side bearing adds a little
    assert sorted(line for line in lines if line not in edge) == sorted(expected)


def test_rgb_images_for_a_cmyk_shop_are_named(broken):
    result = run("preflight", broken / "good.png", "--target", "dtc")
    assert result.exit_code == 2
    assert lines_of(result) == [f"{broken / 'good.png'}: format PNG; DriveThruCards takes PDF files",
                                f"{broken / 'good.png'}: colour space RGB; DriveThruCards takes CMYK only"]


def test_wrong_sizes_and_missing_bleed_of_images(broken):
    result = run("preflight", broken / "good.png", broken / "wrong.png", broken / "cut.png", "--target", "tgc")
    assert result.exit_code == 2
    takes = ("825 x 1125 px (poker with 3.2 mm bleed) or 750 x 1125 px (bridge with 3.2 mm bleed)")
    assert lines_of(result) == [
        f"{broken / 'wrong.png'}: size 800 x 1100 px; The Game Crafter takes {takes} at 300 dpi",
        f"{broken / 'cut.png'}: no bleed: 750 x 1050 px is the poker card cut to size; The Game Crafter asks {takes}",
    ]


def test_resolution_and_cmyk_images_for_an_rgb_shop(tmp_path):
    path = tmp_path / "low.png"
    path.write_bytes(png((825, 1125), dpi=72))
    tif = tmp_path / "ink.tif"
    Image.new("CMYK", (825, 1125), (200, 200, 200, 200)).save(tif, dpi=(300, 300))
    result = run("preflight", path, tif, "--target", "tgc")
    assert result.exit_code == 2
    assert lines_of(result) == [
        f"{path}: resolution 72 x 72 dpi; The Game Crafter asks 300 dpi",
        f"{tif}: format TIF; The Game Crafter takes PNG files",
        f"{tif}: colour space CMYK; The Game Crafter takes RGB only",
    ]


def test_page_count_and_order_of_a_deck(tmp_path):
    odd = tmp_path / "odd.pdf"
    odd.write_bytes(card_pdf(GREY, GREY, GREY))
    swapped = tmp_path / "swapped.pdf"                    # faces first: the backs (all alike) on even pages
    swapped.write_bytes(card_pdf((10, 0, 0, 0), GREY, (0, 10, 0, 0), GREY, (0, 0, 10, 0), GREY))
    result = run("preflight", odd, swapped, "--target", "dtc")
    assert result.exit_code == 2
    assert lines_of(result) == [
        f"{odd}: 3 pages, an odd number; DriveThruCards takes a back and a face for every card",
        (f"{swapped}: page order: the backs are on the even pages; DriveThruCards asks back then face (page 1 is "
         "the back of card 1)"),
    ]


@pytest.mark.parametrize("name, data, message", [
    ("noise.pdf", b"%PDF-1.4\n" + bytes(range(256)) * 4, "cannot read this PDF; it is damaged or not a PDF"),
    ("noise.bin", bytes(range(256)), "not a PNG, JPEG, TIFF or PDF file"),
    ("bomb.png", b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 100_000, 100_000, 8, 2, 0, 0, 0))
     + chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + chunk(b"IEND", b""),
     "the image has more pixels than kitgen opens (89 megapixels)"),
])
def test_a_hostile_file_is_one_error_line(tmp_path, name, data, message):
    path = tmp_path / name
    path.write_bytes(data)
    result = run("preflight", path, "--target", "dtc")
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [f"Error: {path}: {message}"]


def test_a_pdf_of_too_many_pages_is_refused_before_it_is_rendered(tmp_path):
    from reportlab.pdfgen.canvas import Canvas

    path = tmp_path / "long.pdf"
    canvas = Canvas(str(path), pagesize=(198, 270), invariant=1)
    for _ in range(2001):
        canvas.showPage()
    canvas.save()
    result = run("preflight", path, "--target", "dtc")
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"Error: {path}: 2001 pages; kitgen checks PDFs of at most 2000 pages"]


def test_a_pdf_whose_trailer_lost_its_catalog_is_read_page_by_page(tmp_path, broken):
    """The page count said in the page tree is read from the catalog pypdf finds, not only from the trailer's
    /Root: a file pypdf can repair is read page by page, as it was before that count was read (and refused
    there, where PDFium cannot follow the repair)."""
    path = tmp_path / "repaired.pdf"
    path.write_bytes((broken / "good.pdf").read_bytes().replace(b"/Root", b"/Roox"))
    assert len(PdfReader(path, strict=False).pages) == len(PdfReader(broken / "good.pdf").pages)
    result = run("preflight", path, "--target", "dtc")
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [f"Error: {path}: cannot read this PDF's pages; it is damaged"]


def test_an_unknown_target_and_a_bad_profile_file(tmp_path):
    path = tmp_path / "a.png"
    path.write_bytes(png((825, 1125)))
    result = run("preflight", path, "--target", "nowhere")
    assert result.exit_code == 2 and result.output.startswith("Error: --target: unknown print shop 'nowhere'")
    profile = tmp_path / "mine.toml"
    profile.write_text('shop = "Mine"\nformat = "png"\ncolour = "rgb"\nfiles = "per-card"\n[sizes.poker]\n'
                       'pixels = [800, 1200]\n', encoding="utf-8")
    result = run("preflight", path, "--target", profile)
    assert result.exit_code == 2
    assert result.output.strip() == (f"Error: {profile}, column 'sizes.poker.pixels': 800 x 1200 px is not the "
                                     "card with its bleed at 300 dpi (800 x 1100 px)")
