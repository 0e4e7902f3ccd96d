"""Cards arranged with what earlier cards worked out (rendered templates, places, fitted texts, whole
boxes) come out exactly as each card arranged alone, by a painter that has seen no other card."""

from __future__ import annotations

import csv
import io
import random
import shutil

import pytest

from kitgen.data.art_files import ArtLibrary
from kitgen.data.builtin import builtin_games
from kitgen.data.game import load_game
from kitgen.errors import KitgenError
from kitgen.layout.known import Known, Question, Read, Reads
from kitgen.outputs.kit import BuildOptions, card_sheet_layout
from kitgen.render.card import CardPainter
from kitgen.render.sheets import render_card_sheets
from kitgen.settings import switch
from kitgen.units import card_size, paper_size
from tests.conftest import REPO, run
from tests.sheets import game_folder, layout_box

KITCHEN = REPO / "docs" / "examples" / "kitchen-rivals"


def _painter(game):
    size = card_size(game.card_size)
    return CardPainter(game, size.width, size.height, 0.0, ArtLibrary.for_game(game), "cards")


def _look(painter, card) -> tuple:
    """Everything drawn for the card's face, or the problem it has."""
    try:
        drawn = painter._face(card)
    except KitgenError as exc:                    # one problem met on many cards is named after the first
        return ("problem", getattr(exc, "same_as", None) or str(exc))
    return tuple((d.signature(), d.inner, d.where, d.text.height if d.text else None) for d in drawn)


def _same_as_alone(folder, sample: int = 60):
    game = load_game(folder)
    shared = _painter(game)
    together = {card.row: _look(shared, card) for card in game.cards}
    rng = random.Random(3)
    checked = rng.sample(game.cards, min(sample, len(game.cards)))
    for card in checked:
        alone = _painter(game)
        alone._caps = shared._caps                 # the deck's common title sizes, as the shared painter found them
        assert _look(alone, card) == together[card.row], f"row {card.row}"
    return together


def test_kitchen_cards_that_vary_in_every_column_are_arranged_as_alone(tmp_path):
    folder = shutil.copytree(KITCHEN, tmp_path / "game")
    with open(folder / "cards.csv", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    head, body = rows[0], rows[1:]
    rng = random.Random(5)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(head)
    names = ["Stew", "Tart", "A Family Recipe Notebook Of The Old Harbour Inn", "Skewers Of The Long Market Road"]
    for i in range(300):
        row = list(rng.choice(body))
        row[0] = f"{rng.choice(names)} {i}"              # one line, two lines (a fallback), every length
        row[8] = " ".join(["Gain 1 :favor:."] * rng.randint(0, 12))   # no text to a long one that shrinks
        row[2] = rng.choice(["", "1", "4", "9"])          # the time disc shown or not
        row[10] = rng.choice(["", "#2f5da8", "#c44536aa"])
        writer.writerow(row)
    (folder / "cards.csv").write_text(out.getvalue(), encoding="utf-8")
    looks = _same_as_alone(folder, sample=80)
    fine = [look for look in looks.values() if look[0] != "problem"]
    assert len(set(fine)) == len(fine) > 200                          # every card its own look


def test_built_in_face_with_values_texts_and_colours_is_arranged_as_alone(tmp_path):
    rng = random.Random(11)
    lines = ["Name,Type,Value,Text,Colour"]
    for i in range(300):
        text = rng.choice(["", "Draw a card.", "Deal 2 damage, then draw a card and discard one. " * rng.randint(1, 6)])
        lines.append(f"Card {'x' * rng.randint(0, 30)} {i},{rng.choice(['Spell', 'Unit'])},"
                     f"{rng.choice(['', '3', '6', '12'])},\"{text}\",{rng.choice(['', '#2F5DA8', '#C4473680'])}")
    folder = game_folder(tmp_path / "g", "\n".join(lines) + "\n")
    looks = _same_as_alone(folder)
    problems = [look for look in looks.values() if look[0] == "problem"]
    assert len(problems) < len(looks)


def test_a_layout_whose_places_hang_on_templates_and_type_sizes_is_arranged_as_alone(tmp_path):
    folder = game_folder(tmp_path / "g", "Name,Qty,Shift,Text\n" + "".join(
        f"{'Long ' * (i % 7)}Name {i},1,{(i * 7) % 11},{'word ' * (i % 13)}\n" for i in range(200)),
        toml='face = "tall"\n')
    (folder / "layouts.toml").write_text(
        '[layouts.tall.vars]\ngap = "{{ (shift | int) }}mm"\n'
        + layout_box("tall", "title", "{{ name }}", x="4mm + gap", w="100% - 8mm - gap", size="14pt", min_size="5pt")
        + layout_box("tall", "under", "{{ text }}", x="title.x", y="title.y + title.size * 2", w="title.w",
                     h="100% - title.y - title.size * 2 - 4mm", size="9pt", min_size="6pt"), encoding="utf-8")
    looks = _same_as_alone(folder, sample=80)
    tops = {look[1][0][1].y for look in looks.values() if look[0] != "problem" and len(look) > 1}
    assert len(tops) > 3                      # the lower box moves with the title's type size


def test_a_value_is_known_only_after_the_same_answers():
    known, asked = Known(), []
    side, size = Question("var", "side"), Question("size", "title")

    def answers(table):
        def answer(question):
            asked.append(question)
            return table[question]
        return answer

    reads = (Read(side, "pad"), Read(size, 12.0), Read(side, "pad"))
    known.add("title.x", reads, 42.0)
    assert known.find("title.x", answers({side: "pad", size: 12.0})) == (42.0, reads[:2])   # a read twice: asked once
    assert known.find("title.x", answers({side: "badge + pad", size: 12.0})) is None
    asked.clear()
    assert known.find("title.x", answers({side: "pad", size: 11.0})) is None
    assert asked == [side, size]
    asked.clear()
    assert known.find("title.x", answers({side: "other"})) is None
    assert asked == [side]                                          # nothing asked past the first new answer
    known.add("panel.x", (), 9.0)
    assert known.find("panel.x", answers({})) == (9.0, ())
    assert known.find("panel.y", answers({})) is None


def test_reads_are_noted_for_the_value_being_worked_out_and_added_to_the_one_around_it():
    reads, box, lines = Reads(), Read(Question("setting", "title", "x"), "4mm"), Read(Question("size", "title"), 9.0)
    reads.note(box)                                  # outside every recording: noted nowhere
    with reads.recording() as outer:
        reads.note(box)
        with reads.recording() as inner:
            reads.note(lines)
        assert inner == [lines] and outer == [box]   # the inner value's reads are its own...
        reads.add(tuple(inner))                      # ...until the caller adds them to the value around it
        with reads.recording(keep=False) as nowhere:
            reads.note(lines)
        assert nowhere is None
        try:
            with reads.recording():
                raise ValueError
        except ValueError:
            pass
        reads.note(box)                              # the outer list is back after an error inside
    assert outer == [box, lines, box] and reads.current is None


@pytest.fixture(scope="module")
def deck(tmp_path_factory):
    """A deck of 120 cards and how each looks, drawn in order by one painter (the same for every order tried)."""
    lines = ["Name,Type,Value,Text"] + [f"N{i} {'w' * (i % 40)},{'AB'[i % 2]},{i % 5 or ''},{'t ' * (i % 90)}"
                                         for i in range(120)]
    folder = game_folder(tmp_path_factory.mktemp("deck") / "g", "\n".join(lines) + "\n")
    game = load_game(folder)
    straight = _painter(game)
    return game, {card.row: _look(straight, card) for card in game.cards}


@pytest.mark.parametrize("seed", range(3))
def test_random_orders_of_the_same_deck_look_the_same(deck, seed):
    game, straight = deck
    first = {card.row: _look(_painter(game), card) for card in game.cards[:1]}
    painter = _painter(game)
    shuffled = list(game.cards)
    random.Random(seed).shuffle(shuffled)
    mixed = {card.row: _look(painter, card) for card in shuffled}
    assert mixed == straight
    assert first[game.cards[0].row] == mixed[game.cards[0].row]


def _random_layout(rng: random.Random, folder):
    """A layout whose boxes hang on each other, on templates and on type sizes, sometimes in a circle."""
    names = [f"b{i}" for i in range(rng.randint(2, 4))]
    lines = ["[layouts.f.vars]", rng.choice(['g = "{{ c1 }}"', 'g = "2mm"']),
             rng.choice(['k = "{{ \'b0.size\' if c2 == \'x\' else \'3mm\' }}"', 'k = "3mm"'])]
    for i, b in enumerate(names):
        o = rng.choice(names[:i] + names[i + 1:])
        pick = {
            "content": ["{{ name }}", "{{ text }}", "{{ c2 }} {{ name }}", "{{ text }} {{ vars.g }}"],
            "x": ["4mm", "g", "{{ c3 }}", f"{o}.x", "k", "{{ '1mm' if vars.k == '3mm' else '2mm' }}"],
            "y": [f"{5 + 15 * i}mm", f"{o}.bottom + 1mm", f"{o}.y + {o}.size * 1.5",
                  "{{ '%dmm' % (5 + 15 * " + str(i) + ") }}"],
            "w": ["40mm", "100% - 8mm - g", f"{o}.w", "{{ c4 }}", "50%"],
            "h": ["8mm", "12mm", "{{ c5 }}", f"{o}.size * 2", "20%"],
            "size": ["9pt", "12pt", f"min(14pt, {o}.h / 2)", "{{ c6 }}", "40%", f"max(7pt, {o}.size)"],
            "min_size": ["6pt", "{{ c7 }}", None], "lines": [1, 2, 3, None], "padding": ["1mm", "5%", "{{ c3 }}", None],
            "when": ["{{ c2 }}", "{{ text }}", None, None], "same_size": [True, None, None],
            "bold": ["{{ c2 == 'x' }}", None, None],
        }
        chosen = {key: rng.choice(options) for key, options in pick.items()}
        lines.append(layout_box("f", b, **{key: value for key, value in chosen.items() if value is not None}))
        fallbacks = ['[{ w = "100% - 2mm" }, { lines = 4, floor = "4pt", min_size = "4pt" }]',
                     '[{ vars = { g = "{{ c1 }}" }, w = "{{ c4 }}" }]', '[{ size = "20pt" }, { vars = { g = "0mm" } }]']
        if rng.random() < .5:
            lines.append("fallback = " + rng.choice(fallbacks))
    lines.append(layout_box("f", "row", rng.choice(["coin star", "{{ 'coin ' * (c2 | length + 1) }}"]), kind="icons",
                            y=f"{rng.choice(names)}.bottom", h="{{ c5 }}",
                            direction=rng.choice(["down", "{{ 'down' if c2 == 'x' else 'across' }}"])))
    (folder / "layouts.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    words = ["Draw", "a", "card", "Gain", "two", "coins", "then", "discard", "extraordinarily", "x"]
    rows = ["Name,Qty,Text,C1,C2,C3,C4,C5,C6,C7"]
    for _ in range(rng.randint(15, 30)):
        rows.append(",".join([" ".join(rng.choice(words) for _ in range(rng.randint(1, 6))), "1",
                              " ".join(rng.choice(words) for _ in range(rng.choice([0, 3, 10, 30]))),
                              rng.choice(["1mm", "2mm", "0mm"]), rng.choice(["x", "y", ""]),
                              rng.choice(["2mm", "10%"]), rng.choice(["40mm", "b0.w", "60%"]),
                              rng.choice(["8mm", "25%"]), rng.choice(["9pt", "14pt"]), rng.choice(["6pt", "8pt"])]))
    (folder / "cards.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")


@pytest.mark.parametrize("seed", range(12))
def test_random_layouts_look_and_fail_the_same_with_and_without_earlier_cards(tmp_path, seed):
    rng = random.Random(seed)
    folder = game_folder(tmp_path / "g", "Name\nx\n", toml='face = "f"\n')
    _random_layout(rng, folder)
    game = load_game(folder)
    shared = _painter(game)
    try:                          # the deck's common sizes first: a problem there is the deck's, not a card's
        shared.common_sizes(game.face_of(game.cards[0]))
    except KitgenError:
        pass
    together = [(_look(shared, card), _look_back(shared, card)) for card in game.cards]
    for card, got in zip(game.cards, together):
        alone = _painter(game)
        alone._caps = shared._caps
        assert (_look(alone, card), _look_back(alone, card)) == got, f"seed {seed}, row {card.row}"


def _look_back(painter, card) -> tuple:
    try:
        return tuple(d.signature() for d in painter._back(card))
    except KitgenError as exc:
        return ("problem", str(exc))


def _layout_game(tmp_path, sheet: str, boxes: str):
    folder = game_folder(tmp_path / "g", sheet, toml='face = "f"\n')
    (folder / "layouts.toml").write_text(boxes, encoding="utf-8")
    return folder


def _problems(folder) -> list[str]:
    result = run("validate", folder)
    assert "Traceback" not in result.output
    return [line for line in result.output.splitlines() if line.startswith("Error:")]


def test_a_column_named_game_is_read_on_every_card(tmp_path):
    folder = _layout_game(tmp_path, "Name,Game\nAlpha,Base\nBeta,Expansion\nGamma,\n",
                          layout_box("f", "set", "{{ game }}", y="30mm"))
    game = load_game(folder)
    painter = _painter(game)
    sets = [[d.content for d in painter._face(card) if d.box.name == "set"] for card in game.cards]
    assert sets == [["Base"], ["Expansion"], []]


def test_a_glyph_the_font_lacks_is_told_before_another_box_overflows(tmp_path):
    folder = _layout_game(tmp_path, "Name,Text\nA中 one," + "word " * 60 + "\n",
                          layout_box("f", "a", "{{ name }}", size="b.size")
                          + layout_box("f", "b", "{{ text }}", y="20mm", h="8mm", size="9pt", lines=1))
    problems = _problems(folder)
    assert len(problems) == 1 and "no glyph for '中'" in problems[0] and "column 'Name'" in problems[0]


def test_a_text_sized_after_a_hidden_box_is_set_at_no_size_without_a_crash(tmp_path):
    folder = _layout_game(tmp_path, "Name,Text\nAlpha,\nBeta,hello\n",
                          layout_box("f", "a", "{{ name }}", size="b.size")
                          + layout_box("f", "b", "{{ text }}", y="30mm", h="8mm"))
    assert _problems(folder) == []
    assert run("validate", folder).exit_code == 0


def test_a_circle_through_a_type_size_is_told_the_same_on_every_card(tmp_path):
    folder = _layout_game(tmp_path, "Name,C\nAlpha,\nBeta,y\nGamma,y\n",
                          layout_box("f", "a", "{{ name }}", h="b.size * 2")
                          + layout_box("f", "b", "{{ name }}", y="30mm", when="{{ c }}", size="min(14pt, a.h / 2)"))
    circles = [line for line in _problems(folder) if "in a circle" in line]
    assert len(circles) == 1, circles                       # Beta's and Gamma's circle: one problem, told once
    assert "row 3" in circles[0] and "in a circle: a.h -> b.size -> a.h" in circles[0]


EXAMPLES = sorted(str(p) for p in (REPO / "docs" / "examples").iterdir() if (p / "game.toml").exists())


@pytest.mark.parametrize("game", builtin_games() + EXAMPLES)
def test_cards_drawn_each_on_its_own_print_the_same_bytes(game, monkeypatch, built_kit):
    """KITGEN_NO_MEMO=1 works every card out alone (nothing shared between cards): the card sheets are
    the same file."""
    loaded = load_game(game)
    options = BuildOptions()
    layout = card_sheet_layout(options, paper_size(options.paper), card_size(loaded.card_size), "--card-size")

    def sheets() -> bytes:
        return render_card_sheets(loaded, layout, ArtLibrary.for_game(loaded), "cards.csv").pdf
    if game in builtin_games() and not switch("KITGEN_NO_MEMO"):
        shared = (built_kit(game) / "cards.pdf").read_bytes()    # the run's kit: its sheets drawn sharing
    else:
        monkeypatch.delenv("KITGEN_NO_MEMO", raising=False)
        shared = sheets()
    monkeypatch.setenv("KITGEN_NO_MEMO", "1")
    assert sheets() == shared


def test_the_switch_shares_nothing_between_cards(monkeypatch):
    game = load_game(KITCHEN)
    monkeypatch.delenv("KITGEN_NO_MEMO", raising=False)
    shared = _painter(game)
    looks = [_look(shared, card) for card in game.cards]
    assert shared._known and shared.fitted_texts and shared.rendered        # what the cards shared
    monkeypatch.setenv("KITGEN_NO_MEMO", "1")
    alone = _painter(game)
    assert [_look(alone, card) for card in game.cards] == looks
    assert not alone._known and not alone.fitted_texts and not alone.rendered

