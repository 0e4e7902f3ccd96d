"""Boards and areas read back from aids.pdf: parts on pages, seams and targets, labels where declared, errors."""

from __future__ import annotations

import io

import pdfplumber
import pytest

from kitgen.data.game import load_game
from kitgen.errors import GameDataError
from kitgen.layout.areas import place_areas
from kitgen.layout.tiling import tile_board
from kitgen.render.aids.board import board_area
from kitgen.units import MM, mm, paper_size
from tests.conftest import aids_pdf, run, write_game

RED = (0.7529411764705882, 0.2235294117647059, 0.16862745098039217)

BOARD = dict(kind="board", name="Map", size="380x240mm", text="The Map", areas=[
    dict(label="West {n}", size="40x30mm", count=2, gap="5mm", x="20mm", y="60mm"),
    dict(label="East", shape="circle", size="40mm", x="320mm", y="150mm"),
])


@pytest.fixture(scope="module")
def board_game(tmp_path_factory):
    return load_game(write_game(tmp_path_factory.mktemp("b") / "g", BOARD))


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_board_parts_print_on_their_pages_with_labels_where_declared(board_game, paper):
    board = board_game.components[0]
    tiling = tile_board(board.width, board.height, board_area(paper_size(paper)), board.overlap)
    assert not tiling.rotated and len(tiling.parts) == 2
    spaces = {s.label: s for s in place_areas(board.areas, board.width, board.height)}
    with pdfplumber.open(io.BytesIO(aids_pdf(board_game, paper))) as pdf:
        assert len(pdf.pages) == 3              # the two parts, then the map of how they go together
        assert "Map: how its 2 parts go together" in pdf.pages[2].extract_text()
        seen = {}
        for part, page in zip(tiling.parts, pdf.pages):
            assert page.width == pytest.approx(paper_size(paper).width, abs=0.5)
            text = page.extract_text()
            assert f"part {part.label} of 2" in text
            words = page.extract_words()
            for label, space in spaces.items():
                cx, cy = space.rect.center
                inside = part.part.contains_point(cx, cy)
                px, py = part.to_page(cx, cy)
                first = label.split()[0]
                hits = [w for w in words if w["text"] == first and abs((w["x0"] + w["x1"]) / 2 - px) < space.rect.w / 2
                        and page.height - w["bottom"] < py + space.rect.h / 2
                        and page.height - w["top"] > py - space.rect.h / 2]
                # the whole board is drawn under a clip to the part's window, so every label
                # sits where the tiling maps it; those inside the part are the ones seen
                assert hits, (part.label, label)
                assert part.window.contains_point(px, py) == inside, (part.label, label)
                if inside:
                    seen[label] = seen.get(label, 0) + 1
        assert seen == {"West 1": 1, "West 2": 1, "East": 1}


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_seam_targets_and_trim_line_match_the_tiling(board_game, paper):
    board = board_game.components[0]
    tiling = tile_board(board.width, board.height, board_area(paper_size(paper)), board.overlap)
    left, right = tiling.parts
    with pdfplumber.open(io.BytesIO(aids_pdf(board_game, paper))) as pdf:
        for part, page in zip(tiling.parts, pdf.pages):
            targets = [c for c in page.curves if c.get("stroking_color") and
                       tuple(round(v, 3) for v in c["stroking_color"]) == tuple(round(v, 3) for v in RED)
                       and c["width"] > 15]
            centres = sorted({(round((c["x0"] + c["x1"]) / 2, 1), round(page.height - (c["top"] + c["bottom"]) / 2, 1))
                              for c in targets})
            expected = sorted({tuple(round(v, 1) for v in part.to_page(m.x, m.y)) for m in tiling.marks})
            assert len(centres) == len(expected)
            assert [v for c in centres for v in c] == pytest.approx([v for e in expected for v in e], abs=0.2)
        # the seam is at the right page's left edge, overlap away from the left page's right edge
        seam_on_left = left.to_page(tiling.marks[0].x, 0)[0]
        assert left.window.x1 - seam_on_left == pytest.approx(board.overlap)
        assert right.to_page(tiling.marks[0].x, 0)[0] == pytest.approx(right.window.x)
        # the right part is trimmed along its left edge: a dashed vertical line there
        page = pdf.pages[1]
        dashed = [ln for ln in page.lines if abs(ln["x0"] - right.window.x) < 0.3 and abs(ln["x1"] - ln["x0"]) < 0.1
                  and ln["height"] > right.window.h - 1 and ln.get("dash") and ln["dash"][0]]
        assert dashed


def test_a_board_that_fits_one_page_is_printed_whole(tmp_path):
    game = load_game(write_game(tmp_path / "g", dict(kind="board", name="Small board", size="180x120mm", count=2)))
    with pdfplumber.open(io.BytesIO(aids_pdf(game, "letter"))) as pdf:
        assert len(pdf.pages) == 2                           # one page per copy
        for page in pdf.pages:
            assert "cut along the solid outline" in page.extract_text()
            assert not [c for c in page.curves if c["width"] > 15]   # no targets


def test_mat_areas_print_inside_the_mat(tmp_path):
    game = load_game(write_game(tmp_path / "g", dict(kind="mat", name="Hut", size="190x110mm", areas=[
        dict(label="Leaf {n}", size="30x45mm", count=5, gap="5mm", y="20mm", label_at="center"),
        dict(labels=["Wall", "Roof"], size="60x20mm", count=2, gap="10mm", y="75mm"),
    ])))
    mat = game.components[0]
    spaces = place_areas(mat.areas, mat.width, mat.height)
    assert [s.label for s in spaces] == ["Leaf 1", "Leaf 2", "Leaf 3", "Leaf 4", "Leaf 5", "Wall", "Roof"]
    # centred across: the row of leaves is symmetric about the middle of the mat
    assert spaces[0].rect.x == pytest.approx(mat.width - spaces[4].rect.x1)
    assert mat.height - spaces[0].rect.y1 == pytest.approx(mm(20))
    with pdfplumber.open(io.BytesIO(aids_pdf(game, "letter"))) as pdf:
        page = pdf.pages[0]
        words = page.extract_words()
        leaves = [w for w in words if w["text"] == "Leaf"]
        assert len(leaves) == 5
        assert {w["text"] for w in words} >= {"Wall", "Roof", "Hut"}
        mat_box = [r for r in page.rects if abs(r["width"] - 190 * MM) < 1 and abs(r["height"] - 110 * MM) < 1]
        assert mat_box
        box = mat_box[0]
        for w in leaves:
            assert box["x0"] < w["x0"] and w["x1"] < box["x1"] and box["top"] < w["top"] < box["bottom"]


def test_bottom_up_order_and_taper(tmp_path):
    game = load_game(write_game(tmp_path / "g", dict(kind="board", name="Pyramid", size="200x200mm", areas=[
        dict(label="Level {n}", size="150x20mm", count=4, columns=1, taper="20mm", order="bottom-up", y="30mm"),
    ])))
    board = game.components[0]
    spaces = place_areas(board.areas, board.width, board.height)
    by_label = {s.label: s.rect for s in spaces}
    assert by_label["Level 1"].y < by_label["Level 2"].y < by_label["Level 4"].y     # 1 at the bottom
    assert [by_label[f"Level {n}"].w for n in range(1, 5)] == pytest.approx([mm(150), mm(130), mm(110), mm(90)])
    for r in by_label.values():
        assert r.center[0] == pytest.approx(board.width / 2)


BOARD_300 = dict(kind="board", name="B", size="300x200mm")


@pytest.mark.parametrize("entry, message", [
    (dict(kind="board", name="B"), "missing 'size'"),
    (dict(kind="board", name="B", size="300mm"), "must give width and height"),
    (dict(BOARD_300, overlap="80mm"), "between 3 and 40 mm"),
    (dict(BOARD_300, shape="circle"), "unknown key 'shape'"),
    (dict(BOARD_300, areas=[dict(label="X", size="50x50mm", x="280mm")]), "area 1 (X): space 1"),
    (dict(BOARD_300, areas=[dict(label="X", shape="star", size="5mm")]), "unknown shape 'star'"),
    (dict(BOARD_300, areas=[dict(labels=["a"], count=2, size="20x20mm")]), "'labels' gives 1 texts for 2 spaces"),
    (dict(BOARD_300, areas=[dict(label="X", shape="circle", size="20x20mm")]), "a circle takes one length"),
    (dict(BOARD_300, areas=[dict(label="X", size="20x20mm", x="left")]), "'x'"),
    (dict(kind="mat", name="M", size="100x80mm", areas=[dict(label="X", size="20x20mm", colour="#000000")]),
     "unknown key 'colour'"),
    (dict(kind="token", name="T", areas=[dict(label="X", size="20x20mm")]), "unknown key 'areas'"),
])
def test_bad_board_and_area_data_names_the_component(tmp_path, entry, message):
    folder = write_game(tmp_path / "g", entry)
    with pytest.raises(GameDataError) as err:
        load_game(folder)
    text = str(err.value)
    assert "game.toml" in text and message in text
    assert "component 'B' (board)" in text or "component 'M' (mat)" in text or "component 'T' (token)" in text


def mat_with_area(**area) -> dict:
    """A 100 x 100 mm mat named M with one area."""
    return dict(kind="mat", name="M", size="100x100mm", areas=[area])


@pytest.mark.parametrize("area, message", [
    # the group touches the top edge: its caption would print above the mat
    (dict(label="Pile", size="30x30mm", y="0mm", caption="Caption"),
     "area 1: caption 'Caption' reaches past the top edge of the 100 x 100 mm mat"),
    # wider than the whole mat even at the smallest size
    (dict(label="Pile", size="30x30mm", y="40mm", caption="A very long caption " * 6),
     "area 1: caption 'A very long caption"),
    (dict(label="Top", size="30x30mm", y="0mm", label_at="above"),
     "area 1: label above space 1 'Top' reaches past the top edge"),
    (dict(label="Low", size="30x30mm", y="70mm", label_at="below"),
     "area 1: label below space 1 'Low' reaches past the bottom edge"),
    (dict(label="Rather a long label under a small space", size="10x10mm", x="0mm", label_at="below"),
     "is wider than the"),
])
def test_texts_outside_the_spaces_that_leave_the_mat_are_refused(tmp_path, area, message):
    folder = write_game(tmp_path / "g", mat_with_area(**area))
    with pytest.raises(GameDataError, match="game.toml: component 'M' \\(mat\\): area 1") as err:
        aids_pdf(load_game(folder), "letter")
    assert message in str(err.value)
    for args in (["build", folder, "--out", tmp_path / "out"], ["validate", folder]):
        result = run(*args)
        assert result.exit_code == 2 and result.output.startswith("Error: ") and message in result.output
        assert "Traceback" not in result.output


def mat_frame(page) -> dict:
    frames = [r for r in page.rects if abs(r["width"] - 100 * MM) < 1 and abs(r["height"] - 100 * MM) < 1]
    assert frames
    return frames[0]


def test_a_caption_wider_than_its_group_shrinks_to_stay_on_the_mat(tmp_path):
    caption = "Discard pile, face up, newest on top"
    folder = write_game(tmp_path / "g", mat_with_area(label="Pile", size="30x30mm", x="5mm", y="40mm", caption=caption))
    with pdfplumber.open(io.BytesIO(aids_pdf(load_game(folder), "letter"))) as pdf:
        page = pdf.pages[0]
        box = mat_frame(page)
        words = [w for w in page.extract_words() if w["text"] in caption.split()]
        line = [w for w in words if abs(w["top"] - words[0]["top"]) < 1]
        assert " ".join(w["text"] for w in line) == caption
        for w in line:          # every letter on the mat, and the line above the group's top (40 mm down)
            assert box["x0"] <= w["x0"] and w["x1"] <= box["x1"]
            assert w["bottom"] < box["top"] + 40 * MM
        size = line[0]["bottom"] - line[0]["top"]
        assert size < 9.5                       # shrunk from the mat's caption size to fit
        centre = (line[0]["x0"] + line[-1]["x1"]) / 2
        assert centre == pytest.approx(box["x0"] + 20 * MM, abs=1.0)   # still centred on the group


def test_labels_above_and_below_print_next_to_their_space_inside_the_mat(tmp_path):
    folder = write_game(tmp_path / "g", mat_with_area(labels=["Upper", "Lower"], size="30x20mm", count=2, columns=1,
                                                      gap="15mm", y="20mm", label_at="above"))
    with pdfplumber.open(io.BytesIO(aids_pdf(load_game(folder), "letter"))) as pdf:
        page = pdf.pages[0]
        box = mat_frame(page)
        for name, space_top in (("Upper", 20), ("Lower", 55)):
            (w,) = [w for w in page.extract_words() if w["text"] == name]
            assert box["top"] + (space_top - 6) * MM < w["top"] and w["bottom"] < box["top"] + space_top * MM
            assert w["x0"] + w["x1"] == pytest.approx(box["x0"] + box["x1"], abs=1.0)   # centred like the space


def test_text_box_and_edges_crossed():
    from kitgen.layout.areas import centred_room, edges_crossed, text_box
    from kitgen.layout.geometry import Rect

    box = text_box(50, 90, 40, 8, -2)
    assert box == Rect(30, 88, 40, 10)
    assert edges_crossed(box, 100, 100) == []
    assert edges_crossed(box, 100, 95) == ["top"]
    assert edges_crossed(text_box(10, 1, 40, 8, -2), 100, 100) == ["bottom", "left"]
    assert edges_crossed(text_box(95, 50, 20, 8, -2), 100, 100) == ["right"]
    assert centred_room(20, 100, 2) == 36 and centred_room(70, 100) == 60 and centred_room(0, 100, 1) == 0
