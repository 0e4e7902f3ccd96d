"""aids.pdf read back: tokens, score pad, reference cards, fonts, determinism, bad component data."""

from __future__ import annotations

import io
import re

import pdfplumber
import pytest
from PIL import Image
from pypdf import PdfReader

from kitgen.data.art_files import ArtLibrary
from kitgen.data.game import load_game
from kitgen.errors import GameDataError, RenderError
from kitgen.units import MM, paper_size
from tests.conftest import aids_pdf, write_game
from tests.pdfcheck import MARGIN, fonts_of, in_margin, unembedded_fonts


def open_pdf(data: bytes):
    return pdfplumber.open(io.BytesIO(data))


@pytest.fixture(scope="module")
def builtin():
    return load_game("altun-ha")


@pytest.fixture(scope="module")
def builtin_pdfs(altun_kit, built_kit):
    """Altun Ha's aids on each paper, as the run's shared kits hold them (a build writes what aids_pdf draws;
    --duplex does not touch the aids: the A4 kit is the one test_kit reads)."""
    a4 = built_kit("altun-ha", "--paper", "a4", "--duplex", "short")
    return {"a4": (a4 / "aids.pdf").read_bytes(), "letter": (altun_kit / "aids.pdf").read_bytes()}


def words_of(page):
    return page.extract_words(keep_blank_chars=False, use_text_flow=False)


def centre(obj):
    return (obj["x0"] + obj["x1"]) / 2, (obj["top"] + obj["bottom"]) / 2


def inside(point, box, tol=0.5):
    x, y = point
    return box["x0"] - tol <= x <= box["x1"] + tol and box["top"] - tol <= y <= box["bottom"] + tol


def square_boxes(page, side_mm, tol=0.3):
    side = side_mm * MM
    return [r for r in page.rects if abs(r["width"] - side) < tol and abs(r["height"] - side) < tol]


# --- the built-in game ----------------------------------------------------------------------

@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_page_sizes_and_everything_inside_the_printable_area(builtin_pdfs, paper):
    size = paper_size(paper)
    with open_pdf(builtin_pdfs[paper]) as pdf:
        assert len(pdf.pages) == 2          # tokens and reference cards share a page; the score pad
        for page in pdf.pages:
            assert page.width == pytest.approx(size.width, abs=0.5)
            assert page.height == pytest.approx(size.height, abs=0.5)
            assert in_margin(page) == []


def test_tokens_carry_their_text_inside_their_own_guides(builtin_pdfs):
    with open_pdf(builtin_pdfs["letter"]) as pdf:
        page = pdf.pages[0]
        guides = square_boxes(page, 34)
        # one 34 mm square guide and one 34 mm circle per token
        distinct = {(round(g["x0"]), round(g["top"])) for g in guides}
        assert len(distinct) == 2
        circles = [c for c in page.curves if abs(c["width"] - 34 * MM) < 2 and abs(c["height"] - 34 * MM) < 2]
        assert len(circles) == 2
        words = words_of(page)

        def guide_of(text):
            # the one word so written inside a token (the reference cards beside them name the Calendar too)
            (hits,) = [h for h in ([g for g in guides if inside(centre(w), g)]
                                   for w in words if w["text"] == text) if h]
            return round(hits[0]["x0"]), round(hits[0]["top"])

        assert guide_of("Calendar") == guide_of("turn") == guide_of("order")
        assert guide_of("Priest") == guide_of("King") == guide_of("won")
        assert guide_of("Calendar") != guide_of("Priest")
        # the guides do not overlap each other: they lie edge to edge, so one cut serves both
        a, b = sorted(distinct)
        assert abs(a[0] - b[0]) >= 34 * MM - 1 or abs(a[1] - b[1]) >= 34 * MM - 1


def test_score_pad_has_players_rounds_and_the_prefilled_track(builtin, builtin_pdfs):
    with open_pdf(builtin_pdfs["letter"]) as pdf:
        page = pdf.pages[1]
        words = words_of(page)
        (header,) = [w for w in words if w["text"] == "Population"]
        (total,) = [w for w in words if w["text"] == "Total"]
        column = [w for w in words if header["bottom"] < w["top"] < total["top"] and re.fullmatch(r"\d+", w["text"])
                  and abs(centre(w)[0] - centre(header)[0]) < 10]
        column.sort(key=lambda w: w["top"])
        (pad,) = [c for c in builtin.components if c.kind == "score-pad"]
        assert pad.rounds == 17          # game.toml: the 99th percentile of the simulated games' length
        assert [int(w["text"]) for w in column] == list(range(3, 3 + 17))   # 3, 4, 5 ... down 17 rounds
        (round_head,) = [w for w in words if w["text"] == "Round"]
        rounds = sorted((w for w in words if re.fullmatch(r"\d+", w["text"])
                         and abs(centre(w)[0] - centre(round_head)[0]) < 10
                         and round_head["bottom"] < w["top"] < total["top"]),
                        key=lambda w: w["top"])
        assert [int(w["text"]) for w in rounds] == list(range(1, 18))
        # every round's number and its track value sit on the same row
        for r, t in zip(rounds, column):
            assert abs(centre(r)[1] - centre(t)[1]) < 1
        text = page.extract_text()
        players = re.findall(r"Player (\d+)", text)
        assert players == [str(i) for i in range(1, pad.players + 1)]   # the columns game.toml asks for
        assert total["top"] > rounds[-1]["bottom"]
        # under the table, what its rounds cover
        note = [w for w in words if w["top"] > total["bottom"] + 3 * MM]
        assert " ".join(w["text"] for w in note).startswith("17 rounds: 99 in 100 simulated games")
        # rows are tall enough to write in
        assert centre(rounds[1])[1] - centre(rounds[0])[1] >= 9 * MM


def test_reference_cards_count_size_and_shared_cut_lines(builtin_pdfs):
    with open_pdf(builtin_pdfs["letter"]) as pdf:
        page = pdf.pages[0]            # with the tokens
        text = page.extract_text()
        assert text.count("A round of Altun Ha") == 4
        assert text.count("8 Cycle:") == 4
        cards = [r for r in page.rects if abs(r["width"] - 63.5 * MM) < 0.3 and abs(r["height"] - 88.9 * MM) < 0.3]
        boxes = sorted({(round(r["x0"], 1), round(r["top"], 1), round(r["x1"], 1), round(r["bottom"], 1))
                        for r in cards})
        assert len(boxes) == 4
        rule = min(ln["top"] for ln in page.lines if ln["width"] > page.width - 2 * MARGIN - 1)  # under the heading
        assert all(b[1] > rule for b in boxes)
        # edge to edge: every card shares a cut line with a neighbour, and none overlap
        for i, a in enumerate(boxes):
            shares = [b for b in boxes if b != a and ((abs(a[2] - b[0]) < 0.2 or abs(b[2] - a[0]) < 0.2)
                                                      and a[1] == b[1] or (abs(a[3] - b[1]) < 0.2
                                                                           or abs(b[3] - a[1]) < 0.2) and a[0] == b[0])]
            assert shares, a
            for b in boxes[i + 1:]:
                assert not (a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5)
        # body text is readable: no character smaller than 5.5 pt
        body = [ch for ch in page.chars if any(b[1] + 12 * MM < ch["top"] < b[3] and b[0] < ch["x0"] < b[2]
                                               for b in boxes)]
        assert body and min(ch["size"] for ch in body) >= 5.5


def test_all_fonts_embedded(builtin_pdfs):
    assert len(fonts_of(builtin_pdfs["a4"])) >= 3   # regular, bold, italic at least
    assert unembedded_fonts(builtin_pdfs["a4"]) == []


def test_two_renders_are_byte_identical(builtin, builtin_pdfs):
    assert aids_pdf(builtin) == builtin_pdfs["letter"]


# --- other games: art, kinds, denominations -----------------------------------------------

def test_missing_art_is_a_warning_and_a_placeholder(tmp_path):
    game = load_game(write_game(tmp_path / "g", dict(kind="token", name="Star", size="30mm", art="star.png")))
    art = ArtLibrary.for_game(game)
    data = aids_pdf(game, art=art)
    assert len(art.warnings) == 1 and "star.png" in art.warnings[0] and "Star" in art.warnings[0]
    with open_pdf(data) as pdf:
        assert "star.png" in pdf.pages[0].extract_text()
        assert not pdf.pages[0].images


def test_present_art_is_drawn_inside_the_piece_and_embedded_once(tmp_path):
    folder = write_game(tmp_path / "g", dict(kind="token", name="Star", size="30mm", count=5, art="star.png"))
    (folder / "art").mkdir()
    Image.new("RGBA", (64, 64), (200, 40, 40, 255)).save(folder / "art" / "star.png")
    game = load_game(folder)
    art = ArtLibrary.for_game(game)
    data = aids_pdf(game, art=art)
    assert art.warnings == []
    with open_pdf(data) as pdf:
        page = pdf.pages[0]
        assert len(page.images) == 5
        guides = square_boxes(page, 30)
        for im in page.images:
            assert any(inside(centre(im), g) for g in guides)
            assert im["x1"] - im["x0"] < 30 * MM
    reader = PdfReader(io.BytesIO(data))
    images = set()

    def collect(resources):
        for _, x in ((resources or {}).get("/XObject") or {}).items():
            obj = x.get_object()
            if obj.get("/Subtype") == "/Image":
                images.add(x.idnum)
            elif obj.get("/Subtype") == "/Form":
                collect(obj.get("/Resources"))

    for p in reader.pages:
        collect(p.get("/Resources"))
    assert len(images) == 1


def test_denominations_tiles_and_a_turned_mat(tmp_path):
    game = load_game(write_game(
        tmp_path / "g",
        dict(kind="token", name="Coin", size="20mm", color="#d4a017",
             denominations=[dict(text="1", count=3), dict(text="5", count=2, color="#8a8a8a")]),
        dict(kind="tile", name="Hex", shape="hexagon", size="40mm", count=2, text="Field"),
        dict(kind="mat", name="Player mat", size="240x150mm", text="Player mat", subtitle="keep your cards here")))
    coin, hex_tile, mat = game.components
    assert [f.count for f in coin.faces] == [3, 2] and coin.count == 5
    assert hex_tile.height == pytest.approx(40 * MM * 3 ** 0.5 / 2)
    with open_pdf(aids_pdf(game)) as pdf:
        words = [w["text"] for page in pdf.pages for w in words_of(page) if w["top"] > 15 * MM]  # below headings
        assert words.count("1") == 3 and words.count("5") == 2
        assert words.count("Field") == 2
        # the mat is wider than letter, so it is printed turned: its subtitle reads up the page
        turned = [c for page in pdf.pages for c in page.chars if not c["upright"] and "Oblique" in c["fontname"]]
        turned.sort(key=lambda c: -c["top"])
        assert "".join(c["text"] for c in turned).replace(" ", "") == "keepyourcardshere"
        for page in pdf.pages:
            assert in_margin(page) == []


def test_score_pad_without_track_and_custom_columns(tmp_path):
    game = load_game(write_game(tmp_path / "g", dict(kind="score-pad", name="Scores", rounds=6, players=3, count=2)))
    with open_pdf(aids_pdf(game, "a4")) as pdf:
        assert len(pdf.pages) == 2
        text = pdf.pages[0].extract_text()
        assert re.findall(r"Player (\d)", text) == ["1", "2", "3"]
        assert "Population" not in text


def test_no_components_gives_one_explaining_page(tmp_path):
    with open_pdf(aids_pdf(load_game(write_game(tmp_path / "g")))) as pdf:
        assert len(pdf.pages) == 1
        assert "no table aids" in pdf.pages[0].extract_text()


def test_reference_text_that_cannot_fit_names_the_component(tmp_path):
    long_line = "This line goes on and on " * 30
    game = load_game(write_game(tmp_path / "g", dict(kind="reference", name="Crib", size="mini",
                                                     lines=[long_line, long_line])))
    with pytest.raises(RenderError, match=r"game\.toml: component 'Crib' \(reference\): the lines do not fit"):
        aids_pdf(game)


def test_reference_cards_follow_the_game_card_size(tmp_path):
    game = load_game(write_game(tmp_path / "g", dict(kind="reference", name="Crib", count=7,
                                                     lines=["1 Draw: take a card.", "2 Play: play a card."]),
                                card_size="bridge"))
    with open_pdf(aids_pdf(game, "a4")) as pdf:
        per_page = [p.extract_text().count("1 Draw:") for p in pdf.pages]
        # bridge cards (57.15 x 88.9 mm) edge to edge on A4: 3 across the 200 mm, 3 down the 277 mm
        assert per_page == [7]
        cards = [r for r in pdf.pages[0].rects
                 if abs(r["width"] - 57.15 * MM) < 0.3 and abs(r["height"] - 88.9 * MM) < 0.3]
        assert len({(round(r["x0"], 1), round(r["top"], 1)) for r in cards}) == 7


# --- bad component data ---------------------------------------------------------------------

BAD = [
    (dict(kind="spinner", name="Wheel"), r"component 'Wheel': unknown kind 'spinner'"),
    (dict(kind="token", name="Coin", colour="#ffffff"), r"component 'Coin' \(token\): unknown key 'colour'"),
    (dict(kind="token", name="Coin", size="big"), r"component 'Coin' \(token\): 'size': 'big' is not a length"),
    (dict(kind="token", name="Coin", count=-2), r"component 'Coin' \(token\): 'count' = -2 must be at least 1"),
    (dict(kind="token", name="Coin", size="300mm"),
     r"component 'Coin' \(token\): size 300 x 300 mm is larger than the printable area"),
    (dict(kind="mat", name="Mat", size="250x260mm"), r"component 'Mat' \(mat\): size 250 x 260 mm is larger"),
    (dict(kind="mat", name="Mat", size="250mm"),
     r"component 'Mat' \(mat\): 'size' = '250mm' must give width and height"),
    (dict(kind="token", name="Coin", shape="star"), r"component 'Coin' \(token\): unknown shape 'star'"),
    (dict(kind="token", name="Coin", color="red"), r"component 'Coin' \(token\): 'color' = 'red' is not a colour"),
    (dict(kind="token", name="Coin", art="../../etc/passwd.png"), r"reaches outside the game folder"),
    (dict(kind="score-pad", name="Pad", rounds=0), r"component 'Pad' \(score-pad\): 'rounds' = 0 must be at least 1"),
    (dict(kind="reference", name="Crib", lines=[]), r"component 'Crib' \(reference\): 'lines' must be a list"),
    (dict(kind="reference", name="Crib", lines=["a"], size="huge"), r"component 'Crib' \(reference\): 'size' = 'huge'"),
    (dict(kind="token", name="Coin", denominations=[dict(text="1", value=1)]), r"denomination 1: unknown key 'value'"),
    (dict(kind="reference", name="Crib", lines=["ok", "Famine: -{{ rules.famine_penalty"]),
     r"component 'Crib' \(reference\): 'lines' line 2: template syntax error"),
    (dict(kind="reference", name="Crib", lines=["Famine: -{{ rules.famine_penalty }}"]),
     r"component 'Crib' \(reference\): 'lines' line 1: undefined in template: .*famine_penalty"),
    (dict(kind="token", name="Coin", subtitle="{{ ''.__class__ }}"),
     r"component 'Coin' \(token\): 'subtitle': not allowed in a template: access to attribute '__class__'"),
    (dict(kind="score-pad", name="Pad", track_start="{{ 'three' }}"),
     r"component 'Pad' \(score-pad\): 'track_start' = .* gives 'three', not a whole number"),
    (dict(kind="reference", name="Crib", lines=["{% if false %}never{% endif %}"]),
     r"component 'Crib' \(reference\): 'lines' line 1 gives no text once filled in from the rules"),
]


@pytest.mark.parametrize("entry,message", BAD, ids=[m[:40] for _, m in BAD])
def test_bad_component_data_names_game_toml_and_the_component(tmp_path, entry, message):
    folder = write_game(tmp_path / "g", entry)
    with pytest.raises(GameDataError) as info:
        load_game(folder)
    text = str(info.value)
    assert text.startswith(str(folder / "game.toml") + ": "), text
    assert re.search(message, text), text
    assert "\n" not in text


def test_component_texts_and_numbers_follow_the_rules_and_rulings(tmp_path):
    import tomli_w
    folder = write_game(tmp_path / "g",
                        dict(kind="reference", name="Crib", lines=[
                            "Famine: -{{ rules.famine_penalty }} points.",
                            "Pass the token {{ 'left' if rulings.turn.default else 'right' }}."]),
                        dict(kind="score-pad", name="Pad", rounds=4, track="Level",
                             track_start="{{ rules.start + rules.step }}", track_step="{{ rules.step }}"))
    import tomllib
    toml = tomllib.loads((folder / "game.toml").read_text(encoding="utf-8"))
    toml["rules"] = {"famine_penalty": 9, "start": 4, "step": 3}
    toml["rulings"] = {"turn": {"title": "Turn", "seed": "To the right.", "default": True, "reason": "Tested.",
                                "options": {"true": "Left.", "false": "Right."}}}
    (folder / "game.toml").write_text(tomli_w.dumps(toml), encoding="utf-8")
    with open_pdf(aids_pdf(load_game(folder), "a4")) as pdf:
        text = " ".join(" ".join(page.extract_text() for page in pdf.pages).split())
    assert "Famine: -9 points." in text and "Pass the token left." in text
    assert "{{" not in text and "rules." not in text
    assert re.search(r"\b7\b.*\b10\b.*\b13\b.*\b16\b", text), text   # Level 4 + 3, then up by 3 a round


def test_duplicate_component_names_are_refused(tmp_path):
    folder = write_game(tmp_path / "g", dict(kind="token", name="Coin"), dict(kind="tile", name="coin"))
    with pytest.raises(GameDataError, match="component 'coin' \\(tile\\): another component has the same name"):
        load_game(folder)
