"""The built-in game's art: reproducible from its script, complete, and of the promised shapes."""

from __future__ import annotations

import csv
import io
import tomllib
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from kitgen.render import art_toolkit as ak

ROOT = Path(__file__).resolve().parents[1]
ART = ROOT / "card_art" / "altun-ha"
BID_FILES = ["plaza.png", "base.png", "stage.png", "stairs.png", "facade.png", "steps.png",
             "platform.png", "altar.png"]
TOKENS = ["calendar-token.png", "priest-king-token.png"]


def _read_folder(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.png"))}


@pytest.fixture(scope="module")
def referenced() -> set[str]:
    """Art names in the built-in game's cards.csv and game.toml, read straight from the files."""
    data = ROOT / "kitgen" / "games" / "altun-ha"
    with open(data / "cards.csv", newline="", encoding="utf-8") as fh:
        names = {row["art"].strip() for row in csv.DictReader(fh) if row.get("art", "").strip()}
    toml = tomllib.loads((data / "game.toml").read_text(encoding="utf-8"))
    names.add(toml["back"]["art"])
    for component in toml.get("components", []):
        for entry in [component, *component.get("denominations", [])]:
            if entry.get("art"):
                names.add(entry["art"])
    return names


def _image(name: str) -> Image.Image:
    im = Image.open(ART / name)
    im.load()
    return im


# --- reproducible --------------------------------------------------------------

def _pixels(data: bytes) -> bytes:
    with Image.open(io.BytesIO(data)) as im:
        return im.convert("RGBA").tobytes()


def test_the_script_writes_the_committed_files_byte_for_byte(drawn_art):
    # one run in a fresh process equals the run that made the committed files: the art is
    # current and the script deterministic (its hash seed, set order and time do not matter)
    drawn = drawn_art("altun-ha")
    committed = _read_folder(ART)
    assert len(drawn) == 29
    assert sorted(committed) == sorted(drawn)
    changed = [name for name in drawn if drawn[name] != committed[name]]
    redrawn = [name for name in changed if _pixels(drawn[name]) != _pixels(committed[name])]
    assert changed == [], f"rerun make_art.py: committed files differ for {changed} (in pixels: {redrawn})"


# --- complete --------------------------------------------------------------------

def test_every_referenced_art_file_exists_and_nothing_else(referenced):
    on_disk = {p.name for p in ART.glob("*.png")}
    assert "back.png" in referenced and set(TOKENS) <= referenced
    assert referenced - on_disk == set()
    assert on_disk - referenced == set()


def test_folder_is_small():
    total = sum(p.stat().st_size for p in ART.glob("*.png"))
    assert total < 1_500_000


# --- shapes ----------------------------------------------------------------------

def test_card_art_is_landscape_four_by_three_with_transparent_corners(referenced):
    card_art = sorted(referenced - {"back.png", *TOKENS})
    assert len(card_art) == 26
    for name in card_art:
        im = _image(name)
        assert im.size == (800, 600), name
        assert im.mode == "P" and im.info.get("transparency") == 0, name
        rgba = im.convert("RGBA")
        assert rgba.getpixel((0, 0))[3] == 0 and rgba.getpixel((799, 599))[3] == 0, name
        assert rgba.getpixel((400, 300))[3] == 255, name
        # few colours keep the files small
        assert len(im.getcolors(256)) <= 48, name


def test_back_is_the_picture_inside_the_frame_and_the_same_either_way_up():
    im = _image("back.png").convert("RGBA")
    w, h = im.size
    assert (w, h) == (750 - 2 * 46, 1050 - 2 * 46)      # a poker back less the frame the layout draws
    assert im.getchannel("A").getextrema() == (255, 255)
    turned = im.transpose(Image.Transpose.ROTATE_180)
    assert ImageChops.difference(im, turned).getbbox() is None
    # not trivially symmetric: the top and the middle differ
    assert im.crop((0, 0, w, h // 3)).getcolors(4096) != im.crop((0, h // 3, w, 2 * h // 3)).getcolors(4096)
    # no frame of its own: its corners are the back's colour, which the layout's frame surrounds
    toml = tomllib.loads((ROOT / "kitgen" / "games" / "altun-ha" / "game.toml").read_text(encoding="utf-8"))
    colour = tuple(int(toml["back"]["color"][i:i + 2], 16) for i in (1, 3, 5))
    for corner in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1), (0, h // 4), (w - 1, h // 4)):
        assert im.getpixel(corner)[:3] == colour, corner


def test_back_leaves_a_calm_band_for_the_title():
    im = _image("back.png").convert("RGB")
    band = im.crop((34, 354, 624, 604))      # the middle of the picture, where the title's band lies
    assert len(band.getcolors(16)) == 1


def test_tokens_are_square_and_drawn_inside_the_inscribed_circle():
    for name in TOKENS:
        im = _image(name).convert("RGBA")
        w, h = im.size
        assert w == h == 400, name
        alpha = im.getchannel("A")
        r = w / 2
        for x, y in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1), (int(r + r * 0.75), int(r + r * 0.75))):
            assert alpha.getpixel((x, y)) == 0, (name, x, y)
        assert alpha.getpixel((w // 2, h // 2)) == 255
        x0, y0, x1, y1 = alpha.getbbox()
        assert x0 >= 0.05 * w and y0 >= 0.05 * h and x1 <= 0.95 * w and y1 <= 0.95 * h


# --- the bid pictures mark their stage ---------------------------------------------

def _highlight_rows(im: Image.Image, x: int) -> list[int]:
    """Rows of column x painted in the highlight terracotta."""
    rgb = im.convert("RGB")
    target = ak.rgb("#a0522d")
    return [y for y in range(40, 480)
            if sum(abs(a - b) for a, b in zip(rgb.getpixel((x, y)), target)) < 40]


def test_bid_pictures_differ_from_each_other():
    images = [_image(name).convert("RGB") for name in BID_FILES]
    for i in range(len(images)):
        for j in range(i + 1, len(images)):
            assert ImageChops.difference(images[i], images[j]).getbbox() is not None, (i, j)


def test_the_marked_tier_climbs_with_the_stage():
    centres = []
    for name in BID_FILES:
        rows = _highlight_rows(_image(name), 320)
        assert 25 <= len(rows) <= 60, name  # exactly one tier (about 48 px) is marked
        centres.append(sum(rows) / len(rows))
    assert all(a - b > 40 for a, b in zip(centres, centres[1:])), centres


def test_bid_pictures_show_the_stage_as_bar_and_dot_numerals():
    # count the separate terracotta marks inside the numeral cartouche (top left)
    for stage, name in enumerate(BID_FILES, start=1):
        rgb = _image(name).convert("RGB").crop((60, 66, 178, 184))
        mask = Image.new("1", rgb.size, 0)
        target = ak.rgb("#a0522d")
        for y in range(rgb.height):
            for x in range(rgb.width):
                if sum(abs(a - b) for a, b in zip(rgb.getpixel((x, y)), target)) < 40:
                    mask.putpixel((x, y), 1)
        marks = _count_blobs(mask)
        bars, dots = divmod(stage, 5)
        assert marks == bars + dots, (name, marks)


def _count_blobs(mask: Image.Image) -> int:
    w, h = mask.size
    seen = set()
    blobs = 0
    for y in range(h):
        for x in range(w):
            if mask.getpixel((x, y)) and (x, y) not in seen:
                blobs += 1
                stack = [(x, y)]
                seen.add((x, y))
                while stack:
                    cx, cy = stack.pop()
                    for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                        if 0 <= nx < w and 0 <= ny < h and (nx, ny) not in seen and mask.getpixel((nx, ny)):
                            seen.add((nx, ny))
                            stack.append((nx, ny))
    return blobs


# --- the toolkit ---------------------------------------------------------------------

def test_stepped_pyramid_stacks_narrowing_tiers():
    tiers = ak.stepped_pyramid(100, 200, 160, 40, 4, 80)
    assert len(tiers) == 4
    assert tiers[0][3] == 200 and abs(tiers[-1][1] - 120) < 1e-9
    widths = [x1 - x0 for x0, _, x1, _ in tiers]
    assert widths[0] == 160 and abs(widths[-1] - 40) < 1e-9
    assert all(a > b for a, b in zip(widths, widths[1:]))
    assert all(abs(lower[1] - upper[3]) < 1e-9 for lower, upper in zip(tiers, tiers[1:]))
    assert all(abs((x0 + x1) / 2 - 100) < 1e-9 for x0, _, x1, _ in tiers)


def test_tally_uses_dots_for_ones_and_bars_for_fives():
    kinds = [kind for kind, _ in ak.tally(8, 0, 0, 10)]
    assert kinds.count("dot") == 3 and kinds.count("bar") == 1
    assert [kind for kind, _ in ak.tally(5, 0, 0, 10)] == ["bar"]
    with pytest.raises(ValueError):
        ak.tally(0, 0, 0, 10)


def test_noise_repeats_for_a_seed_and_stays_in_range():
    a, b, c = ak.Noise("seed"), ak.Noise("seed"), ak.Noise("other")
    xs = [a.random() for _ in range(200)]
    assert xs == [b.random() for _ in range(200)]
    assert xs != [c.random() for _ in range(200)]
    assert all(0.0 <= x < 1.0 for x in xs)
    assert 0.4 < sum(xs) / len(xs) < 0.6


@pytest.mark.parametrize("size", [(40, 30), (41, 31)])
def test_half_turn_symmetric_pictures_look_the_same_upside_down(size):
    s = ak.Sketch(*size, background="#ffffff", scale=1)
    s.polygon([(0, 0), (size[0] * 0.7, 2), (5, size[1] * 0.45)], "#aa0000")
    s.rect((30, 3, 38, 8), "#00aa00")
    im = ak.half_turn_symmetric(s.image())
    assert im.tobytes() == im.transpose(Image.Transpose.ROTATE_180).tobytes()
    assert im.getpixel((1, 1))[:3] == (170, 0, 0)


def test_to_palette_marks_clear_pixels_transparent_and_keeps_the_rest():
    s = ak.Sketch(60, 40)
    s.rect((10, 10, 50, 30), "#2a7f62")
    pal = ak.to_palette(s.image(), colors=8, matte="#ffffff")
    assert pal.mode == "P" and pal.info["transparency"] == 0
    rgba = pal.convert("RGBA")
    assert rgba.getpixel((2, 2))[3] == 0
    assert rgba.getpixel((30, 20)) == (0x2A, 0x7F, 0x62, 255)
    assert ak.png_bytes(pal) == ak.png_bytes(ak.to_palette(s.image(), colors=8, matte="#ffffff"))


@pytest.mark.parametrize("translucent", [False, True], ids=["opaque-or-clear", "translucent"])
def test_a_sketch_is_reduced_as_pillow_reduces_it_with_its_edges_averaged_over_clear_pixels(translucent):
    s = ak.Sketch(30, 20)
    s.circle(15, 10, 7.3, "#a0522d", ak.INK, 1.7)            # edges that fall inside supersampled pixels
    layer = s.layer()
    layer.polygon([(0, 0), (29.6, 3.3), (4.2, 19.5)], (40, 90, 200, 120) if translucent else "#2a7f62")
    clip = s.layer()
    clip.rect((3.3, 2.2, 24.7, 17.9), "#000000", radius=3)
    s.paste(layer, clip)
    assert s.opaque_or_clear is not translucent
    image = s.image()
    assert image.tobytes() == s.canvas.reduce(3).tobytes()        # Pillow's own premultiplied average
    alphas = {value for value, count in enumerate(image.getchannel("A").histogram()) if count}
    assert 0 in alphas and 255 in alphas and len(alphas) > 3       # clear, opaque and edges between
    assert image.getpixel((16, 13)) == (0xA0, 0x52, 0x2D, 255)              # inside the circle, below the layer


def test_a_new_sketch_and_its_layers_are_clear_black_until_drawn_on():
    # made after large images were drawn on and freed, so reused memory would show
    for _ in range(3):
        used = ak.Sketch(400, 300, "#a0522d")
        used.circle(200, 150, 120, "#2a7f62")
        del used
    sketch = ak.Sketch(400, 300)
    for fresh in (sketch, sketch.layer()):
        assert fresh.canvas.size == (1200, 900) and fresh.canvas.mode == "RGBA"
        assert fresh.canvas.getextrema() == ((0, 0),) * 4
    assert ak.Sketch(4, 3, "#a0522d").canvas.getextrema() == ((0xA0, 0xA0), (0x52, 0x52), (0x2D, 0x2D), (255, 255))


@pytest.mark.parametrize("clipped", [False, True], ids=["whole", "clipped"])
def test_pasting_an_opaque_or_clear_layer_gives_what_compositing_it_gives(clipped):
    s = ak.Sketch(30, 20)
    s.circle(15, 10, 7.3, (160, 82, 45, 90))             # translucent pixels below, and clear ones
    layer = s.layer()
    layer.polygon([(0, 0), (29.6, 3.3), (4.2, 19.5)], "#2a7f62", ak.INK, 1.3)
    clip = s.layer()
    clip.rect((3.3, 2.2, 24.7, 17.9), "#000000", radius=3)
    top = layer.canvas.copy()
    if clipped:
        top.putalpha(ImageChops.multiply(top.getchannel("A"), clip.canvas.getchannel("A")))
    expected = Image.alpha_composite(s.canvas, top)
    s.paste(layer, clip if clipped else None)
    assert s.canvas.tobytes() == expected.tobytes()
    assert {(0, 0, 0, 0), (160, 82, 45, 90), (42, 127, 98, 255)} <= set(s.canvas.get_flattened_data())   # clear, below, on top
