"""aids.pdf of the built-in games read back: fewer pages, pieces edge to edge, score pads with a
column per player, a full-page board map, and the scale bar where a page must print at 100%."""

from __future__ import annotations

import io
import re

import pdfplumber
import pypdfium2 as pdfium
import pytest

from kitgen.data.art_files import ArtLibrary
from kitgen.data.builtin import builtin_games
from kitgen.data.game import load_game
from kitgen.layout.packing import content_area
from kitgen.layout.tiling import tile_board
from kitgen.render.aids import render_aids
from kitgen.render.aids.board import board_area
from kitgen.units import MM, paper_size
from tests.conftest import write_game
from tests.pdfium_read import strokes

# aids.pdf pages when every kind of piece had pages of its own (tokens, tiles, reference cards apart)
PAGES_BEFORE = {("altun-ha", "letter"): 3, ("altun-ha", "a4"): 3, ("temple-of-inscriptions", "letter"): 7,
                ("temple-of-inscriptions", "a4"): 8, ("ancestral", "letter"): 4, ("ancestral", "a4"): 4}


def render(game, paper: str) -> bytes:
    return render_aids(game, paper_size(paper), ArtLibrary.for_game(game))


@pytest.fixture(scope="module")
def aids():
    out = {}
    for slug in builtin_games():
        game = load_game(slug)
        for paper in ("letter", "a4"):
            out[slug, paper] = (game, render(game, paper))
    return out


def pages_of(data: bytes):
    return pdfplumber.open(io.BytesIO(data))


@pytest.mark.parametrize("key", sorted(PAGES_BEFORE), ids=["-".join(k) for k in sorted(PAGES_BEFORE)])
def test_aids_take_fewer_pages_than_when_each_kind_had_its_own(aids, key):
    _, data = aids[key]
    with pages_of(data) as pdf:
        assert len(pdf.pages) < PAGES_BEFORE[key]


def test_pieces_of_one_size_lie_edge_to_edge(aids):
    _, data = aids["temple-of-inscriptions", "letter"]
    side = 24 * MM
    doc = pdfium.PdfDocument(data)
    tiles = [(n, box[0], box[1]) for n in range(len(doc)) for box, colour, _, _ in strokes(doc[n])
             if abs(box[2] - box[0] - side) < 0.3 and abs(box[3] - box[1] - side) < 0.3 and max(colour) < 80]
    assert len(tiles) == 90
    for page, x, y in tiles:       # every treasure tile shares a whole edge (one cut) with another
        assert any(q == page and ((abs(abs(a - x) - side) < 0.1 and abs(b - y) < 0.1) or
                                  (abs(abs(b - y) - side) < 0.1 and abs(a - x) < 0.1))
                   for q, a, b in tiles), (page, x, y)


def test_a_score_pad_has_a_column_per_player(aids, tmp_path):
    game, data = aids["altun-ha", "letter"]
    with pages_of(data) as pdf:
        (pad,) = [p for p in pdf.pages if "Score pad" in p.extract_text()]
        players = re.findall(r"Player (\d+)", pad.extract_text())
    (component,) = [c for c in game.components if c.kind == "score-pad"]
    assert players == [str(n) for n in range(1, component.players + 1)]   # game.toml sets 4 of its 2-16
    folder = write_game(tmp_path / "g", dict(kind="score-pad", name="Scores", rounds=8))
    toml = folder / "game.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('players = "2-4"', 'players = "3-6"'), encoding="utf-8")
    with pages_of(render(load_game(folder), "a4")) as pdf:
        assert re.findall(r"Player (\d+)", pdf.pages[0].extract_text()) == [str(n) for n in range(1, 7)]


@pytest.mark.parametrize("paper", ["letter"])
def test_the_board_map_is_a_full_page_labelled_as_the_parts_are(aids, paper):
    game, data = aids["temple-of-inscriptions", paper]
    board = next(c for c in game.components if c.kind == "board")
    tiling = tile_board(board.width, board.height, board_area(paper_size(paper)), board.overlap)
    labels = [p.label for p in tiling.parts]
    area = content_area(paper_size(paper))
    with pages_of(data) as pdf:
        texts = [p.extract_text() for p in pdf.pages]
        part_pages = [i for i, t in enumerate(texts) if "Game board: part" in t]
        (map_index,) = [i for i, t in enumerate(texts) if "how its 4 parts go together" in t]
        assert map_index == part_pages[-1] + 1
        # each part's page names the part in large type and says where the map is, at 8 pt or more
        for i, label in zip(part_pages, labels):
            page = pdf.pages[i]
            assert any(w["text"] == label for w in page.extract_words(extra_attrs=["size"]) if w["size"] > 15)
            assert f"The map of all the parts is on page {map_index + 1}." in " ".join(texts[i].split())
            # (the board is drawn whole under a clip, and turned: its own letters do not stand upright)
            footer = [c for c in page.chars if c["top"] > page.height - area.y - 14 * MM and c["upright"]]
            assert footer and min(c["size"] for c in footer) >= 8
        page = pdf.pages[map_index]
        # the parts outlined at their real proportions, spanning most of the page
        outlines = [r for r in page.rects if r["linewidth"] > 1.0]
        assert len(outlines) == len(labels)
        ratios = sorted(round(r["width"] / r["height"], 2) for r in outlines)
        assert ratios == pytest.approx(sorted(round(p.part.w / p.part.h, 2) for p in tiling.parts), abs=0.02)
        x0, x1 = min(r["x0"] for r in outlines), max(r["x1"] for r in outlines)
        top, bottom = min(r["top"] for r in outlines), max(r["bottom"] for r in outlines)
        assert (x1 - x0) > 0.6 * area.w or (bottom - top) > 0.6 * area.h
        big = [w["text"] for w in page.extract_words(extra_attrs=["size", "upright"]) if w["size"] > 20 and w["upright"]]
        assert sorted(big) == sorted(labels)
        steps = [c for c in page.chars if c["top"] > bottom + 5]
        assert steps and min(c["size"] for c in steps) >= 8
        assert "tape" in " ".join(page.extract_text().split()).lower()


@pytest.mark.parametrize("slug", builtin_games())
def test_pages_to_print_at_actual_size_carry_the_scale_bar(aids, slug):
    _, data = aids[slug, "letter"]
    doc = pdfium.PdfDocument(data)
    for n in range(len(doc)):
        page = doc[n]
        text = page.get_textpage().get_text_range()
        actual_size = "board: part" in text or "cut along" in text
        top = page.get_height()
        bar = [box for box, _, _, _ in strokes(page) if abs(box[2] - box[0] - 50 * MM) < 0.05
               and box[3] - box[1] < 0.1 and box[1] > top - 12 * MM]
        assert bool(bar) == actual_size, (slug, n + 1)
        if actual_size:
            assert "50 mm" in text
