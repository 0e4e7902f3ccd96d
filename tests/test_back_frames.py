"""Card backs keep their frame at least 3 mm inside the cut at every card size: the built-in games'
backs read back from the rendered page, and a raster frame too near the cut warned of by validate
and build."""

from __future__ import annotations

import dataclasses
import re

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops, ImageDraw

from kitgen.data.builtin import builtin_games
from kitgen.outputs.card_pages import CardPage, card_pages_pdf
from kitgen.outputs.export_job import ExportOptions, prepare
from kitgen.units import CARD_SIZES_MM, MM, card_size
from tests.conftest import run

SCALE = 8.0            # pixels per point: 0.044 mm a pixel


def _accent(game) -> tuple[int, int, int]:
    text = game.back.accent.lstrip("#")
    return tuple(int(text[i:i + 2], 16) for i in (0, 2, 4))


def _accent_mask(image: Image.Image, colour) -> Image.Image:
    """White where the image is within 40 of ``colour`` in every channel, black elsewhere."""
    r, g, b = ImageChops.difference(image, Image.new("RGB", image.size, colour)).split()
    return ImageChops.lighter(ImageChops.lighter(r, g), b).point(lambda v: 255 if v <= 40 else 0)


@pytest.fixture(scope="module", params=builtin_games())
def backs(request):
    """Each named size -> (where the game's back shows its accent colour, validate's warnings)."""
    out = {}
    loaded = prepare(request.param, ExportOptions(), 0.0, 100, check_cards=False)
    for size in sorted(CARD_SIZES_MM):       # the game loaded once: prepare with --card-size makes this job
        job = dataclasses.replace(loaded, card=card_size(size), options=ExportOptions(card_size=size))
        painter = job.painter(0.0)
        for card in job.game.cards:                 # what prepare checks, by a painter whose warnings are kept
            painter.check(card)
        pdf = card_pages_pdf(job, [CardPage(job.game.cards[0], back=True)], "back", "test", bleed=0.0, boxes=False)
        doc = pdfium.PdfDocument(pdf)
        image = doc[0].render(scale=SCALE).to_pil().convert("RGB")
        doc.close()
        out[size] = (_accent_mask(image, _accent(job.game)), painter.warnings)
    return request.param, out


def test_every_back_keeps_its_frame_3_mm_inside_the_cut_at_every_size(backs):
    game, sizes = backs
    for size, (mask, warnings) in sizes.items():
        w, h = mask.size
        # the frame runs round the card: from the middle of each side inwards, the first pixel of the
        # accent colour is the frame's outer edge
        firsts = []
        for line in (mask.crop((0, h // 2, w // 4, h // 2 + 1)),
                     mask.crop((w - w // 4, h // 2, w, h // 2 + 1)).transpose(Image.Transpose.FLIP_LEFT_RIGHT),
                     mask.crop((w // 2, 0, w // 2 + 1, h // 4)).transpose(Image.Transpose.ROTATE_90),
                     mask.crop((w // 2, h - h // 4, w // 2 + 1, h)).transpose(Image.Transpose.ROTATE_270)):
            box = line.getbbox()
            assert box is not None, (game, size, "no frame")
            firsts.append(box[0] / SCALE / MM)
        assert all(3.0 <= d <= 4.5 for d in firsts), (game, size, firsts)
        # and nothing of the accent colour (the frame, the art's lines) comes nearer the cut anywhere
        edge = int(3.0 * MM * SCALE)
        for band in ((0, 0, w, edge), (0, h - edge, w, h), (0, 0, edge, h), (w - edge, 0, w, h)):
            assert mask.crop(band).getbbox() is None, (game, size, band)
        assert not warnings, (game, size, warnings)


FULL_CARD_BACK = """
[back]
title = "Framed"
art = "framed.png"
layout = "full-art"

[layouts.full-art]
size = "poker"

[layouts.full-art.boxes.art]
kind = "image"
content = "{{ back.art }}"
fit = "cover"
bleed = true
"""


def framed_picture(path, inset_px: int = 45) -> None:
    """A poker-shaped back picture (750 x 1050) with a gold frame drawn ``inset_px`` in from its edges."""
    image = Image.new("RGB", (750, 1050), (45, 58, 46))
    ImageDraw.Draw(image).rounded_rectangle((inset_px, inset_px, 749 - inset_px, 1049 - inset_px), radius=28,
                                            outline=(217, 180, 90), width=8)
    image.save(path)


def framed_game(folder, card_size: str):
    folder.mkdir(parents=True)
    (folder / "art").mkdir()
    framed_picture(folder / "art" / "framed.png")
    (folder / "game.toml").write_text(f'title = "Framed"\ncard_size = "{card_size}"\n' + FULL_CARD_BACK,
                                      encoding="utf-8")
    (folder / "cards.csv").write_text("name,count\nOne,2\n", encoding="utf-8")
    return folder


def test_a_raster_frame_nearer_the_cut_than_the_safe_zone_is_warned_of_by_validate_and_build(tmp_path):
    # at poker size the picture fits the card exactly: its frame lies 3.8 mm in, inside the safe zone
    poker = run("validate", framed_game(tmp_path / "poker", "poker"))
    assert poker.exit_code == 0, poker.output
    assert "Warning" not in poker.output
    # on a mini card (41 x 63 mm) the picture is scaled to the card's height, 45 mm wide, and cropped
    # 2 mm each side: its frame, 45 px of 750 (2.7 mm) in, lands 0.7 mm from the cut
    mini = framed_game(tmp_path / "mini", "mini")
    result = run("validate", mini)
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.output.splitlines() if line.startswith("Warning: ")]
    assert any("layout 'full-art', box 'art'" in w and re.search(r"the frame drawn in its picture 'framed.png' "
               r"lies 0\.[67] mm", w) and "nearer than the safe zone (3 mm)" in w for w in warnings), warnings
    assert any("'framed.png' is cropped to fill the box" in w and "41 x 63 mm" in w for w in warnings), warnings
    built = run("build", mini, "--out", tmp_path / "out")
    assert built.exit_code == 0
    assert any("the frame drawn in its picture 'framed.png'" in line for line in built.output.splitlines()
               if line.startswith("Warning: "))
    # and at poker size, built as bridge cards, the same
    bridge = run("build", tmp_path / "poker", "--out", tmp_path / "out2", "--card-size", "bridge")
    assert any("the frame drawn in its picture 'framed.png'" in line for line in bridge.output.splitlines())


def test_a_picture_without_a_frame_is_not_taken_for_one(tmp_path):
    folder = framed_game(tmp_path / "plain", "mini")
    image = Image.new("RGB", (750, 1050))
    for y in range(1050):                                    # a soft gradient, as a painted picture
        image.paste((40 + y // 20, 90, 160 - y // 10), (0, y, 750, y + 1))
    image.save(folder / "art" / "framed.png")
    result = run("validate", folder)
    assert result.exit_code == 0
    assert "the frame drawn" not in result.output
