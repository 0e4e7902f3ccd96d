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


CUT = (0.231, 0.2, 0.173)      # the dark cut outline of every piece


def test_aids_pages_in_order_with_every_piece_inside_the_page(kit):
    out, _ = kit
    letter = paper_size("letter")
    tiling = tile_board(400 * MM, 260 * MM, board_area(letter), 10 * MM)
    parts = len(tiling.parts)
    with pdfplumber.open(out / "aids.pdf") as pdf:
        texts = [" ".join(p.extract_text().split()) for p in pdf.pages]
        assert [i for i, t in enumerate(texts) if "Island: part" in t] == list(range(parts))
        assert f"Island: how its {parts} parts go together" in texts[parts]     # the map follows the parts
        # pieces go beside the board parts first, then on pages of their own after the map
        shared = [i for i, t in enumerate(texts) if i > parts and "cut along the solid outlines" in t]
        assert shared == list(range(parts + 1, parts + 1 + len(shared)))
        assert sum("Score sheet" in t for t in texts) == 1
        assert len(pdf.pages) == parts + 1 + len(shared) + 1
        area = content_area(letter)
        words = Counter()
        pieces = []
        for i, page in enumerate(pdf.pages):
            if i == parts:
                continue                         # the map shows the board, not the pieces
            window = tiling.parts[i].window if i < parts else None
            for w in page.extract_words():
                cx, cy = (w["x0"] + w["x1"]) / 2, page.height - (w["top"] + w["bottom"]) / 2
                if w["top"] > 15 * MM and not (window and window.contains_point(cx, cy)):
                    words[w["text"]] += 1
            for o in page.rects + page.curves:
                if o["width"] > 15 * MM and o.get("stroking_color") and \
                        tuple(round(v, 3) for v in o["stroking_color"]) == CUT:
                    box = (i, o["x0"], page.height - o["bottom"], o["x1"], page.height - o["top"])
                    pieces.append(box)
                    if window:                   # beside the board part, never on it
                        assert box[3] <= window.x + 0.5 or box[1] >= window.x1 - 0.5 or \
                            box[4] <= window.y + 0.5 or box[2] >= window.y1 - 0.5
        assert words["Slot"] == 8 and words["Camp"] == 2          # two mats with four slots each
        assert words["Reef"] == 7
        assert words["Move:"] == 2                                # the two reference cards
        shells = [b for b in pieces if abs(b[3] - b[1] - 18 * MM) < 0.5]
        assert len(shells) == 18
        assert len(pieces) == 2 + 7 + 18 + 2                      # mats, reefs, shells, reference cards
        for n, (pg, x0, y0, x1, y1) in enumerate(pieces):
            assert x0 >= area.x - 0.5 and x1 <= area.x1 + 0.5 and y0 >= area.y - 0.5 and y1 <= area.y1 + 0.5
            for pg2, a0, b0, a1, b1 in pieces[n + 1:]:
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
