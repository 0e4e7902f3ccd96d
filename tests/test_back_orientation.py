"""One physical card whatever the flip: a card turned over like a book's page shows its back the right
way up in long-edge, short-edge and gutterfold sheets, turned grids or not.

The back of the test deck carries one dark square in its top-left corner. Each
back is found on its rendered page, carried through the sheet to the front's
side of the paper (as the flip or the fold puts it there), and named by the
corner of the card it lies behind, in the card's own frame.  Turned over about
its long edge, a card shows the top-left of its back behind the top-right of
its front.
"""

from __future__ import annotations

import json
import math

import pypdfium2 as pdfium
import pytest

from kitgen.layout.duplex import back_turn
from tests.conftest import run

MARKED_BACK = """
[layouts.marked]
size = "poker"

[layouts.marked.boxes.ground]
kind = "rect"
bleed = true
fill = "#ffffff"

[layouts.marked.boxes.mark]
kind = "rect"
x = "0mm"
y = "0mm"
w = "30%"
h = "25%"
fill = "#000000"
"""

# (extra build options, what the sheet should be)
CASES = {
    "long": (["--duplex", "long"], "upright"),
    "short": (["--duplex", "short"], "upright"),
    "none": (["--duplex", "none"], "upright"),
    "long-turned": (["--duplex", "long", "--bleed", "3"], "turned"),
    "short-turned": (["--duplex", "short", "--bleed", "3"], "turned"),
    "gutterfold-vertical": (["--layout", "gutterfold"], "vertical fold"),
    "gutterfold-across": (["--layout", "gutterfold", "--card-size", "mini"], "horizontal fold"),
}


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    folder = tmp_path_factory.mktemp("marked") / "marked"
    folder.mkdir()
    (folder / "game.toml").write_text('title = "Marked"\ncard_size = "poker"\n[back]\ntitle = "Marked"\n'
                                      'layout = "marked"\n' + MARKED_BACK, encoding="utf-8")
    (folder / "cards.csv").write_text("name,count\nOne,3\n", encoding="utf-8")
    return folder


@pytest.fixture(scope="module", params=sorted(CASES))
def built(request, game, tmp_path_factory):
    options, kind = CASES[request.param]
    out = tmp_path_factory.mktemp(request.param)
    result = run("build", game, "--out", out, *options)
    assert result.exit_code == 0, result.output
    kit = out / "marked"
    manifest = json.loads((kit / "manifest.json").read_text(encoding="utf-8"))
    return request.param, kind, manifest, (kit / "cards.pdf").read_bytes()


def _dark_corner(image, box, page_height: float, scale: float) -> tuple[int, int]:
    """Which corner of ``box`` (x0, y0, x1, y1 in points) the dark square is in: (+1 right or -1
    left, +1 up or -1 down), on the page as drawn."""
    x0, y0, x1, y1 = box
    best = None
    for sx in (-1, 1):
        for sy in (-1, 1):
            px = (x0 + (0.15 if sx < 0 else 0.85) * (x1 - x0)) * scale
            py = (page_height - (y0 + (0.15 if sy < 0 else 0.85) * (y1 - y0))) * scale
            value = sum(image.getpixel((int(px), int(py)))[:3])
            if best is None or value < best[0]:
                best = (value, (sx, sy))
    assert best[0] < 100, "no dark square found in the back"
    return best[1]


def _through(point, manifest, kind):
    """Where a point of the backs page lies on the fronts page's side of the paper."""
    x, y = point
    width, height = manifest["page_size"]
    if manifest["layout"] == "gutterfold":
        fold = manifest["fold"]
        return (2 * fold["at"] - x, y) if fold["vertical"] else (x, 2 * fold["at"] - y)
    if manifest["duplex"] == "short":
        return x, height - y
    return width - x, y


def _own_frame(direction, rotation: int):
    """A direction on the page, in the frame of a card drawn turned ``rotation`` degrees (counter-clockwise)."""
    a = math.radians(-rotation)
    dx, dy = direction
    return round(dx * math.cos(a) - dy * math.sin(a)), round(dx * math.sin(a) + dy * math.cos(a))


def test_every_back_lies_behind_its_front_as_a_card_turned_over_like_a_page(built):
    name, kind, manifest, pdf = built
    doc = pdfium.PdfDocument(pdf)
    scale = 2.0
    pages = {}
    turned = manifest["cards_turned"]
    assert turned == (kind == "turned")
    if manifest["layout"] == "gutterfold":
        assert manifest["fold"]["vertical"] == (kind == "vertical fold")
    for card in manifest["cards"]:
        back, front = card["back"], card["front"]
        if back["page"] not in pages:
            pages[back["page"]] = doc[back["page"] - 1].render(scale=scale).to_pil().convert("RGB")
        corner = _dark_corner(pages[back["page"]], back["box"], manifest["page_size"][1], scale)
        bx0, by0, bx1, by1 = back["box"]
        cx, cy = (bx0 + bx1) / 2, (by0 + by1) / 2
        # the dark corner's direction from the back's centre, carried through the paper
        tx, ty = _through((cx + corner[0], cy + corner[1]), manifest, kind)
        fx, fy = _through((cx, cy), manifest, kind)
        direction = (round(tx - fx), round(ty - fy))
        fbox = front["box"]
        assert (fx, fy) == pytest.approx(((fbox[0] + fbox[2]) / 2, (fbox[1] + fbox[3]) / 2), abs=0.5)
        assert _own_frame(direction, front.get("rotation", 0)) == (1, 1), (name, card)
    doc.close()


def _turn(degrees: int):
    a = math.radians(degrees)
    return ((round(math.cos(a)), -round(math.sin(a))), (round(math.sin(a)), round(math.cos(a))))


def _times(m, n):
    return tuple(tuple(sum(m[i][k] * n[k][j] for k in range(2)) for j in range(2)) for i in range(2))


def _relation(manifest, card) -> tuple:
    """The map from the back's own frame to the front's own frame, from the manifest's rotations."""
    if manifest["layout"] == "gutterfold":
        mirror = ((-1, 0), (0, 1)) if manifest["fold"]["vertical"] else ((1, 0), (0, -1))
    else:
        mirror = ((1, 0), (0, -1)) if manifest["duplex"] == "short" else ((-1, 0), (0, 1))
    seen = _times(mirror, _turn(card["back"].get("rotation", 0)))
    return _times(_turn(-card["front"].get("rotation", 0)), seen)


def test_the_manifest_rotations_pair_front_and_back_alike_in_every_mode(built):
    name, kind, manifest, _ = built
    # upright cards in a long-edge sheet: the back's right lies behind the front's left, up behind up
    for card in manifest["cards"]:
        assert _relation(manifest, card) == ((-1, 0), (0, 1)), (name, card)
    if manifest.get("duplex") == "short":
        assert all(card["back"]["rotation"] in (90, 180) for card in manifest["cards"])


@pytest.mark.parametrize("flip", ["long", "short"])
@pytest.mark.parametrize("rotation", [0, 90])
def test_back_turn_pairs_turned_and_upright_cards_alike_in_both_flips(flip, rotation):
    mirror = ((-1, 0), (0, 1)) if flip == "long" else ((1, 0), (0, -1))
    relation = _times(_turn(-rotation), _times(mirror, _turn(back_turn(rotation, flip))))
    assert relation == ((-1, 0), (0, 1))
