"""Art in the PDFs: drawn as reportlab's drawImage drew it, PNG rows copied as they are,
named by content so that a game's output does not depend on where its folder lives."""

from __future__ import annotations

import io
import random
import struct
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops
from pypdf import PdfReader

from kitgen.errors import RenderError
from kitgen.render.canvas import canvas_bytes, new_canvas
from kitgen.render.images import draw_image
from tests.conftest import copy_builtin, run

BOX = (20, 30, 170, 110)        # x, y, width, height in points: art shrinks in one axis, grows in the other


def _picture(mode: str, size=(90, 140)) -> Image.Image:
    """A busy picture (noise over stripes) with a transparent hole, so resampling and masks show."""
    rng = random.Random(7)
    rgb = Image.new("RGB", size)
    rgb.putdata([((x * 7) % 256, (y * 5) % 256, rng.randrange(256)) for y in range(size[1]) for x in range(size[0])])
    alpha = Image.new("L", size, 255)
    alpha.paste(0, (20, 30, 60, 80))
    alpha.paste(128, (60, 80, 80, 120))
    if mode in ("RGBA", "LA"):
        im = rgb.convert(mode[:-1])
        im.putalpha(alpha)
        return im
    if mode.startswith("P"):
        colours = int(mode[1:] or 256)
        im = rgb.quantize(colours, dither=Image.Dither.NONE)
        return im
    return rgb.convert(mode)


def _save(im: Image.Image, path: Path, **kw) -> Path:
    im.save(path, **kw)
    return path


def _kinds(folder: Path) -> dict[str, Path]:
    """One file of every kind of art a game may bring."""
    kinds = {
        "rgb": _save(_picture("RGB"), folder / "rgb.png"),
        "grey": _save(_picture("L"), folder / "grey.png"),
        "palette": _save(_picture("P"), folder / "palette.png"),
        "palette-16": _save(_picture("P16"), folder / "palette16.png", bits=4),
        "palette-one-clear": _save(_picture("P"), folder / "clear1.png", transparency=0),
        "palette-alphas": _save(_picture("P"), folder / "alphas.png",
                                transparency=bytes(range(0, 256, 4)) + b"\x80\x00"),
        "rgba": _save(_picture("RGBA"), folder / "rgba.png"),
        "grey-alpha": _save(_picture("LA"), folder / "la.png"),
        "rgb-keyed": _save(_picture("RGB"), folder / "keyed.png", transparency=(0, 0, 0)),
        "interlaced": _save(_picture("RGB"), folder / "interlaced.png", interlace=1),
        "rgb-16": _save(_picture("RGB").convert("I;16"), folder / "sixteen.png"),
        "jpeg": _save(_picture("RGB"), folder / "photo.jpg", quality=80),
        "jpeg-grey": _save(_picture("L"), folder / "grey.jpg", quality=80),
    }
    assert kinds["palette-16"].read_bytes()[24] == 4, "the small palette is written with 4 bits a pixel"
    return kinds


def _raster(pdf: bytes, scale: float) -> Image.Image:
    page = pdfium.PdfDocument(pdf)[0]
    return page.render(scale=scale).to_pil().convert("RGB")


def _page(draw) -> bytes:
    canvas = new_canvas((220, 180), "art")
    canvas.setFillColorRGB(0.2, 0.6, 0.3)
    canvas.rect(0, 0, 220, 180, fill=1, stroke=0)       # a background the transparent parts show
    draw(canvas)
    return canvas_bytes(canvas)


@pytest.fixture(scope="module")
def kinds(tmp_path_factory) -> dict[str, Path]:
    return _kinds(tmp_path_factory.mktemp("art"))


@pytest.mark.parametrize("kind", ["rgb", "grey", "palette", "palette-16", "palette-one-clear", "palette-alphas",
                                  "rgba", "grey-alpha", "rgb-keyed", "interlaced", "rgb-16", "jpeg", "jpeg-grey"])
def test_every_kind_of_art_rasterises_exactly_as_reportlab_drew_it(kinds, kind):
    path = kinds[kind]
    ours = _page(lambda c: draw_image(c, path, *BOX))
    theirs = _page(lambda c: c.drawImage(str(path), *BOX, mask="auto"))
    for scale in (0.7, 3.0):
        a, b = _raster(ours, scale), _raster(theirs, scale)
        assert a.size == b.size
        assert ImageChops.difference(a, b).getbbox() is None, f"{kind} differs at scale {scale}"
    # and the picture is really there: not the bare background
    assert ImageChops.difference(_raster(ours, 1.0), _raster(_page(lambda c: None), 1.0)).getbbox() is not None


def _idat(path: Path) -> bytes:
    data, pos, rows = path.read_bytes(), 8, []
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IDAT":
            rows.append(data[pos + 8:pos + 8 + length])
        pos += 12 + length
    return b"".join(rows)


def _images(pdf: bytes) -> list:
    reader = PdfReader(io.BytesIO(pdf))
    found = []

    def collect(resources):
        for ref in ((resources or {}).get("/XObject") or {}).values():
            obj = ref.get_object()
            if obj.get("/Subtype") == "/Image":
                found.append(obj)
            elif obj.get("/Subtype") == "/Form":
                collect(obj.get("/Resources"))

    for page in reader.pages:
        collect(page.get("/Resources"))
    return found


@pytest.mark.parametrize("kind", ["rgb", "grey", "palette", "palette-16", "palette-one-clear"])
def test_png_rows_go_into_the_pdf_as_they_are_in_the_file(kinds, kind):
    pdf = _page(lambda c: draw_image(c, kinds[kind], *BOX))
    (image,) = _images(pdf)
    assert image._data == _idat(kinds[kind])                  # the stream is the file's own compressed rows
    parms = image["/DecodeParms"][0]
    assert parms["/Predictor"] == 15 and parms["/Columns"] == 90


def test_the_same_picture_drawn_twice_from_two_files_is_stored_once(kinds, tmp_path):
    twin = tmp_path / "twin.png"
    twin.write_bytes(kinds["palette-one-clear"].read_bytes())
    pdf = _page(lambda c: (draw_image(c, kinds["palette-one-clear"], *BOX), draw_image(c, twin, 0, 0, 50, 50)))
    assert len(_images(pdf)) == 1
    assert "/SMask" in _images(pdf)[0]                        # the clear palette entry became a soft mask


def test_a_damaged_png_is_refused_with_its_name(kinds, tmp_path):
    damaged = tmp_path / "damaged.png"
    data = bytearray(kinds["palette"].read_bytes())
    data[60] ^= 0xFF                                           # inside a chunk: its checksum no longer matches
    damaged.write_bytes(bytes(data))
    with pytest.raises(RenderError, match="damaged.png: cannot read this art file"):
        _page(lambda c: draw_image(c, damaged, *BOX))


def test_the_same_game_in_two_folders_builds_byte_identical_files(tmp_path, altun_kit):
    # the built-in game's folders (built once per run, in a fresh process) and a copy of them in a folder of
    # another name, elsewhere
    copy = copy_builtin("altun-ha", tmp_path / "two" / "elsewhere" / "my-copy")
    result = run("build", copy, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    for name in ("cards.pdf", "aids.pdf", "rules.pdf", "manifest.json"):
        a = (altun_kit / name).read_bytes()
        b = (tmp_path / "out" / "altun-ha" / name).read_bytes()
        assert a == b, name
    assert len(_images((altun_kit / "cards.pdf").read_bytes())) > 20


def test_pictures_with_the_same_transparency_share_one_soft_mask(tmp_path):
    paths = []
    for flip in (False, True):
        im = _picture("P255")
        if flip:
            im = im.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
        im = im.point(lambda i: i + 1)          # index 0 is left for the clear hole alone
        im.paste(0, (10, 10, 40, 50))
        paths.append(_save(im, tmp_path / f"framed-{flip}.png", transparency=0))
    pdf = _page(lambda c: [draw_image(c, p, 10 + 100 * i, 20, 90, 140) for i, p in enumerate(paths)])
    first, second = _images(pdf)
    assert first.raw_get("/SMask").idnum == second.raw_get("/SMask").idnum
    assert first.indirect_reference.idnum != second.indirect_reference.idnum
