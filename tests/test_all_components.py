"""A made-up game that uses every component kind, built with `kitgen build` and read back."""

from __future__ import annotations

import json
from collections import Counter

import pdfplumber
import pytest

from kitgen.data.components import KINDS
from kitgen.layout.packing import content_area
from kitgen.layout.tiling import tile_board
from kitgen.render.aids.board import board_area
from kitgen.units import MM, paper_size
from tests.conftest import run, write_game

COMPONENTS = [
    dict(kind="board", name="Island", size="400x260mm", text="The Island", areas=[
        dict(label="Harbour {n}", shape="card", count=2, gap="6mm", x="30mm", y="40mm"),
        dict(label="Well", shape="circle", size="40mm", x="300mm", y="180mm"),
    ]),
    dict(kind="mat", name="Camp", size="180x100mm", count=2, areas=[
        dict(label="Slot {n}", size="30x40mm", count=4, gap="4mm", y="30mm"),
    ]),
    dict(kind="token", name="Shell", size="18mm",
         denominations=[dict(text="1", count=12), dict(text="3", count=6, color="#aa5533")]),
    dict(kind="tile", name="Reef", shape="hexagon", size="36mm", count=7, text="Reef"),
    dict(kind="score-pad", name="Score sheet", rounds=10),
    dict(kind="reference", name="Aid", title="A turn", count=2,
         lines=["1 Move: play a card.", "2 Fish: take a shell."]),
]


@pytest.fixture(scope="module")
def kit(tmp_path_factory):
    root = tmp_path_factory.mktemp("every")
    folder = write_game(root / "every-piece", *COMPONENTS)
    (folder / "cards.csv").write_text("name,type,count,value\nSail,plain,6,1\nOar,plain,4,2\n", encoding="utf-8")
    result = run("build", folder, "--out", root / "out")
    assert result.exit_code == 0, result.output
    return root / "out" / "test-game", folder


def test_the_game_uses_every_kind():
    kinds = {component["kind"] for component in COMPONENTS}
    assert "board" in KINDS and kinds == set(KINDS)


def test_kit_files_and_card_counts(kit):
    out, _ = kit
    assert sorted(p.name for p in out.iterdir()) == ["aids.pdf", "cards.pdf", "manifest.json", "rules.pdf"]
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert Counter(c["name"] for c in manifest["cards"]) == {"Sail": 6, "Oar": 4}


def test_aids_pages_in_order_with_every_piece_inside_the_page(kit):
    out, _ = kit
    letter = paper_size("letter")
    tiling = tile_board(400 * MM, 260 * MM, board_area(letter), 10 * MM)
    parts = len(tiling.parts)
    with pdfplumber.open(out / "aids.pdf") as pdf:
        texts = [" ".join(p.extract_text().split()) for p in pdf.pages]
        assert all("Island: part" in t for t in texts[:parts])
        assert sum("Island: part" in t for t in texts) == parts
        pieces = [i for i, t in enumerate(texts) if "cut along the solid outlines" in t]
        assert pieces and pieces[0] == parts
        assert sum("Score sheet" in t for t in texts) == 1
        assert sum("Aid: cut along the crop marks" in t for t in texts) == 1
        assert len(pdf.pages) == parts + len(pieces) + 2
        area = content_area(letter)
        words = Counter()
        outlines = []
        for i in pieces:
            page = pdf.pages[i]
            words.update(w["text"] for w in page.extract_words() if w["top"] > 15 * MM)
            # the light square guides around tokens and hexagons, and the mats' outlines
            for r in page.rects:
                if r["width"] > 15 * MM:
                    outlines.append((i, r["x0"], page.height - r["bottom"], r["x1"], page.height - r["top"]))
        assert words["Slot"] == 8 and words["Camp"] == 2          # two mats with four slots each
        assert words["Reef"] == 7
        assert words["1"] == 12 + 2 and words["3"] == 6 + 2       # shells, plus the slot numbers 1 and 3 per mat
        for n, (pg, x0, y0, x1, y1) in enumerate(outlines):
            assert x0 >= area.x - 0.5 and x1 <= area.x1 + 0.5 and y0 >= area.y - 0.5 and y1 <= area.y1 + 0.5
        # pieces do not overlap: compare the outer boxes (mats' inner frames lie inside their own box)
        outer = [o for o in outlines if not any(o is not p and p[0] == o[0] and p[1] <= o[1] + 0.1 and
                                                p[2] <= o[2] + 0.1 and p[3] >= o[3] - 0.1 and
                                                p[4] >= o[4] - 0.1 for p in outlines)]
        for n, (pg, x0, y0, x1, y1) in enumerate(outer):
            for pg2, a0, b0, a1, b1 in outer[n + 1:]:
                assert pg != pg2 or not (x0 < a1 - 0.5 and a0 < x1 - 0.5 and y0 < b1 - 0.5 and b0 < y1 - 0.5)
        # the board's labels are printed on its parts
        board_words = Counter(w["text"] for p in pdf.pages[:parts] for w in p.extract_words())
        assert board_words["Harbour"] >= 2 and board_words["Well"] >= 1


def test_rulebook_lists_every_component(kit):
    out, _ = kit
    with pdfplumber.open(out / "rules.pdf") as pdf:
        text = " ".join(" ".join(p.extract_text().split()) for p in pdf.pages)
    for name in ("Island", "Camp", "Shell", "Reef", "Score sheet", "Aid"):
        assert name in text
    assert "rect board, 400 x 260 mm" in text
