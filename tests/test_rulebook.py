"""The rulebook engine and Altun Ha's rulebook, read back from the PDF."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pdfplumber
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pypdf import PdfReader

from kitgen.data.game import load_game
from kitgen.errors import GameDataError, KitgenError, RenderError
from kitgen.layout import stack_diagram as geometry
from kitgen.render.rulebook import markup, render_rulebook
from kitgen.units import paper_size, to_mm
from tests.pdfcheck import unembedded_fonts
from tests.pdfium_read import page_texts

REPO = Path(__file__).resolve().parent.parent
GAME_DATA = REPO / "kitgen" / "games" / "altun-ha"
TEMPLATE = REPO / "templates" / "altun-ha" / "rules.md.j2"
A4, LETTER = paper_size("a4"), paper_size("letter")



def make_game(tmp_path: Path, template: str | None = None, csv=None, toml=None, name="rules.md.j2"):
    """A copy of the Altun Ha folder with its own templates/ folder, edited as asked."""
    folder = tmp_path / "game"
    shutil.copytree(GAME_DATA, folder)
    (folder / "templates").mkdir()
    text = TEMPLATE.read_text(encoding="utf-8") if template is None else template
    (folder / "templates" / name).write_text(text, encoding="utf-8")
    if csv:
        path = folder / "cards.csv"
        path.write_text(csv(path.read_text(encoding="utf-8")), encoding="utf-8")
    if toml:
        path = folder / "game.toml"
        path.write_text(toml(path.read_text(encoding="utf-8")), encoding="utf-8")
    return load_game(folder)




def card_list_row(text: str, name: str, next_cell: str = r"\S") -> list[str]:
    """The cells after ``name`` on its last row in the text (the full card list ends the book)."""
    rows = [line for line in text.splitlines() if re.match(rf"{re.escape(name)} (?={next_cell})", line)]
    assert rows, f"no row for {name}"
    return rows[-1][len(name):].split()


@pytest.fixture(scope="module")
def builtin_pdfs(altun_kit, built_kit) -> dict[str, bytes]:
    """Altun Ha's rulebook on each paper, as the run's shared kits hold it (a build writes what render_rulebook
    draws with the game's own art; --duplex does not touch the rulebook: the A4 kit is the one test_kit reads)."""
    a4 = built_kit("altun-ha", "--paper", "a4", "--duplex", "short")
    return {"a4": (a4 / "rules.pdf").read_bytes(), "letter": (altun_kit / "rules.pdf").read_bytes()}


@pytest.fixture(scope="module")
def builtin_a4(builtin_pdfs) -> bytes:
    return builtin_pdfs["a4"]


@pytest.fixture(scope="module")
def builtin_pages(builtin_a4) -> list[str]:
    return page_texts(builtin_a4)


@pytest.fixture(scope="module")
def builtin_text(builtin_pages) -> str:
    return "\n".join(builtin_pages)


# --- the Altun Ha rulebook ---------------------------------------------------------

def test_every_card_name_appears(builtin_text):
    game = load_game("altun-ha")
    for card in game.cards:
        assert card.name in builtin_text, card.name


def test_card_list_matches_the_data(builtin_text):
    game = load_game("altun-ha")
    for card in game.cards:
        if card.type == "trade":       # listed once, in the chapter on Trade cards (no type column there)
            cells = card_list_row(builtin_text, card.name, str(card.count))
            assert cells[0] == str(card.count), (card.name, cells)
            continue
        label = game.types[card.type].label
        cells = card_list_row(builtin_text, card.name, re.escape(label))
        assert " ".join(cells).startswith(f"{label} {card.count} "), (card.name, cells)
    assert f"The deck: {game.deck_size} cards, " in builtin_text


def test_no_card_is_listed_in_two_tables(builtin_text):
    game = load_game("altun-ha")
    for card in game.cards:
        rows = [line for line in builtin_text.splitlines() if re.match(rf"{re.escape(card.name)} (Bid|Trade|Maya God|\d)", line)]
        assert len(rows) == 1, (card.name, rows)


MARKUP = 'Draw <b>3</b> & say "ha" *now* # - 1. [x]'
LATIN = "Gagnez 5 points, élan où ñ."


@pytest.fixture(scope="module")
def edited(tmp_path_factory):
    """Altun Ha with a card count, two card texts and two rule numbers changed, rendered once (A4).

    Each edit shows in its own part of the book (card tables, two cards' text, the phases that
    name the numbers); the tests below check one edit each.
    """
    game = make_game(tmp_path_factory.mktemp("edited"),
                     csv=lambda t: t.replace("Stairs,bid,9,4", "Stairs,bid,17,4")
                     .replace("Draw 3 cards.", f'"{MARKUP.replace(chr(34), chr(34) * 2)}"')
                     .replace("Gain 5 points.", f'"{LATIN}"'),
                     toml=lambda t: t.replace("famine_penalty = 13", "famine_penalty = 11")
                     .replace("hand_limit = 5", "hand_limit = 6"))
    return game, page_texts(render_rulebook(game, A4))


def test_card_table_follows_a_changed_count(edited):
    text = "\n".join(edited[1])
    assert card_list_row(text, "Stairs")[:3] == ["Bid", "17", "4"]
    assert "The deck: 88 cards, " in text                # 80 + 8
    assert re.search(r"^88 Cards one shared deck: 70 Bid", text, re.M)


def test_rule_numbers_follow_game_toml(edited):
    text = " ".join(" ".join(edited[1]).split())
    assert "loses 11 points and the game ends at once" in text
    assert "13 points" not in text
    assert "more than 6 cards in hand" in text


def ruling_line(name: str, key: str, value: str | None):
    """A game.toml edit: the line ``key = ...`` of ruling ``name`` becomes ``key = value`` (None: goes)."""
    def edit(text: str) -> str:
        start = text.index(f"[rulings.{name}]")
        end = text.index("[rulings.", start + 1)
        line = "" if value is None else f"{key} = {value}\n"
        block = re.sub(rf"^{key} = .*\n", line.replace("\\", "\\\\"), text[start:end], flags=re.M)
        return text[:start] + block + text[end:]
    return edit


def ruling_default(name: str, value: str):
    return ruling_line(name, "default", value)


def test_the_text_follows_the_rulings_defaults(builtin_text, tmp_path):
    flat = " ".join(builtin_text.split())
    assert "a player who bid no cards has a total of 0, which counts like any other total" in flat
    assert "Example: Nobody bids a card" in flat and "by chaining" in flat
    edit = ruling_default("chain", "false")
    game = make_game(tmp_path, toml=lambda t: ruling_default("empty_bid", '"never_wins"')(edit(t)))
    text = " ".join(" ".join(page_texts(render_rulebook(game, A4))).split())
    assert "Both cards are placed on the temples as they stood when the Build began" in text
    assert "Ruling: Both cards go on the temples as they stood when the Build began." in text
    assert "(--set chain=true)" in text and "(--set chain=false)" not in text
    assert "by chaining" not in text
    assert "a player who bid no cards never wins" in text and "Example: Nobody bids a card" not in text
    assert "(--set empty_bid=counts)" in text and "(--set empty_bid=no_bid_card)" in text


def test_the_literal_reading_of_a_bid_of_no_cards(tmp_path):
    game = make_game(tmp_path, toml=ruling_default("empty_bid", '"no_bid_card"'))
    text = " ".join(" ".join(page_texts(render_rulebook(game, A4))).split())
    assert "a player who bid no cards has bid no card, and is never the next lower bid" in text
    assert "when nobody bid a card, among everyone" in text
    assert "If there is no next lowest bid card the player with fewer Scoring Points wins." in text
    assert "(--set empty_bid=counts)" in text and "(--set empty_bid=never_wins)" in text


def test_every_ruling_is_printed_once_with_its_switch(builtin_text):
    """The rulings of game.toml, the rulebook and the switches the solver and simulator read agree."""
    from solver.altunha.rules import RULINGS

    game = load_game("altun-ha")
    flat = " ".join(builtin_text.split())
    assert list(game.rulings) == list(RULINGS)
    for number, (name, ruling) in enumerate(game.rulings.items(), start=1):
        assert flat.count(f"Playtest ruling {number}: {ruling['title']}") == 1
        assert f'The original rules: "{" ".join(ruling["seed"].split())}"' in flat
        others = [v for v in ruling["options"] if v != str(ruling["default"]).lower()]
        for value in others:
            assert flat.count(f"(--set {name}={value})") == 1, (name, value)
    printed = set(re.findall(r"\(--set (\w+)=", flat))
    assert printed == set(RULINGS)
    numbers = [int(n) for n in re.findall(r"Playtest ruling (\d+): ", flat)]
    assert numbers == list(range(1, len(RULINGS) + 1))
    # the main text refers to rulings by their numbers
    assert f"({_see('tie_drop')})" in flat and f"({_see('penalty_if_declined')})" in flat
    assert "stopped at the round cap" in flat and "200 rounds" in flat


def _see(name: str) -> str:
    return f"Playtest ruling {list(load_game('altun-ha').rulings).index(name) + 1}"


def reason_table(name: str, lines: str | None):
    """A game.toml edit: the table [rulings.<name>.reason] holds ``lines`` instead (None: goes)."""
    def edit(text: str) -> str:
        start = text.index(f"[rulings.{name}.reason]")
        end = text.index("\n\n", start) + 1
        return text[:start] + ("" if lines is None else f"[rulings.{name}.reason]\n{lines}") + text[end:]
    return edit


def test_a_ruling_table_must_be_complete(tmp_path):
    with pytest.raises(GameDataError, match=r"'rulings.chain': missing key 'reason'"):
        make_game(tmp_path, toml=reason_table("chain", None))


@pytest.mark.parametrize("lines, message", [
    ('true = "Laid one after the other."\n', r"'rulings.chain.reason': no reason for option 'false'"),
    ('true = "a"\nfalse = "b"\nsometimes = "c"\n', r"'rulings.chain.reason': 'sometimes' is none of its options"),
    ('true = "a"\nfalse = 3\n', r"'rulings.chain.reason' must be a text, or a table of one text for each option"),
])
def test_a_reason_is_given_for_every_option(tmp_path, lines, message):
    with pytest.raises(GameDataError, match=message):
        make_game(tmp_path, toml=reason_table("chain", lines))


def test_a_reason_may_hold_for_every_option(tmp_path):
    neutral = "Both readings are playable; playtesting will tell."
    game = make_game(tmp_path, toml=lambda t: ruling_default("chain", "false")(reason_table("chain", None)(t))
                     .replace("[rulings.chain.options]", f'reason = "{neutral}"\n[rulings.chain.options]'))
    text = " ".join(" ".join(page_texts(render_rulebook(game, A4))).split())
    assert f"Ruling: Both cards go on the temples as they stood when the Build began. {neutral}" in text


def test_a_ruling_default_must_be_one_of_its_options(tmp_path):
    with pytest.raises(GameDataError, match=r"'rulings.points_decide.default' = 'middle' is none of its options"):
        make_game(tmp_path, toml=ruling_default("points_decide", '"middle"'))


def test_chapters_for_the_eight_phases(builtin_text):
    for number, phase in enumerate(["Calendar", "Population", "Draw", "Trade", "Bid", "Farm", "Build",
                                    "Cycle"], start=1):
        assert re.search(rf"^{number}\. {phase}$", builtin_text, re.M), phase
    for chapter in ["Overview", "Components", "Setup", "Scoring", "End of the game", "The Trade cards",
                    "Example: a Farm and a Build", "Playtest rulings"]:
        assert re.search(rf"^{re.escape(chapter)}$", builtin_text, re.M), chapter


def test_page_numbers_and_length(builtin_pages):
    pages = builtin_pages
    assert len(pages) >= 3
    for number, text in enumerate(pages, start=1):
        assert f"Page {number} of {len(pages)}" in text


def test_worked_example_draws_temples_before_and_after(builtin_a4, builtin_pages):
    numbers = [i for i, text in enumerate(builtin_pages) if "BEFORE" in text]
    assert numbers, "no before/after temple diagram"
    with pdfplumber.open(io.BytesIO(builtin_a4)) as pdf:
        page = pdf.pages[numbers[0]]
        words = page.extract_words()
        after = [w for w in words if w["text"] == "AFTER"][0]
        # the diagram's "after" panel shows the new Stairs (4) on temple B and marks the new cards
        right = [w["text"] for w in words if w["x0"] > after["x0"] - 60 and abs(w["top"] - after["top"]) < 120]
        assert right.count("NEW") == 2
        assert "Stairs" in right and "Stage" in right
        outlines = [c for c in page.curves if 19 < to_mm(c["width"]) < 22 and 26 < to_mm(c["height"]) < 29]
        assert len(outlines) >= 10     # rounded card outlines, about 20 x 27 mm each


def test_heading_hierarchy_and_body_size(builtin_a4):
    with pdfplumber.open(io.BytesIO(builtin_a4)) as pdf:
        chars = pdf.pages[0].chars
    def size_of(word):
        text = "".join(c["text"] for c in chars)
        i = text.index(word)
        return round(chars[i]["size"], 1)
    assert size_of("Overview") > size_of("The three kinds of card") > size_of("Altun Ha was a Maya")
    assert 10 <= size_of("Altun Ha was a Maya") <= 10.5


@pytest.mark.parametrize("paper,size_mm", [("a4", (210.0, 297.0)), ("letter", (215.9, 279.4))])
def test_paper_sizes(builtin_pdfs, paper, size_mm):
    reader = PdfReader(io.BytesIO(builtin_pdfs[paper]))
    for page in reader.pages:
        box = page.mediabox
        assert to_mm(float(box.width)) == pytest.approx(size_mm[0], abs=0.2)
        assert to_mm(float(box.height)) == pytest.approx(size_mm[1], abs=0.2)


def test_all_fonts_embedded(builtin_a4):
    assert unembedded_fonts(builtin_a4) == []


def test_two_renders_are_byte_identical(builtin_a4):
    assert render_rulebook(load_game("altun-ha"), A4) == builtin_a4


# --- the default template -----------------------------------------------------------

def test_default_template_for_a_game_without_rulebook(tmp_path):
    game = make_game(tmp_path, toml=lambda t: t.replace('rulebook = "rules.md.j2"\n', ""))
    assert game.rulebook == ""
    pages = page_texts(render_rulebook(game, LETTER))
    text = "\n".join(pages)
    assert "Write your rules here" in text
    assert card_list_row(text, "Plaza")[:2] == ["13", "1"]    # Bid table: count, value
    assert "Page 1 of" in pages[0]


# --- untrusted templates -------------------------------------------------------------

def test_include_outside_the_template_folder_is_refused(tmp_path):
    (tmp_path / "x").write_text("secret", encoding="utf-8")
    game = make_game(tmp_path, template="# Rules\n{% include \"../../x\" %}\n")
    with pytest.raises(GameDataError) as info:
        render_rulebook(game, A4)
    message = str(info.value)
    assert "rules.md.j2, line 2" in message and "outside the game folder" in message
    assert "secret" not in message


def test_include_inside_the_folder_works(tmp_path):
    game = make_game(tmp_path, template="# Rules\n{% include \"part.md.j2\" %}\n")
    (game.template_dir / "part.md.j2").write_text("Included text about {{ game.title }}.\n", encoding="utf-8")
    assert "Included text about Altun Ha." in page_texts(render_rulebook(game, A4))[0]


def test_symlink_out_of_the_folder_is_refused(tmp_path):
    (tmp_path / "outside.txt").write_text("secret", encoding="utf-8")
    game = make_game(tmp_path, template="# Rules\n\n{% include \"link.md\" %}\n")
    (game.template_dir / "link.md").symlink_to(tmp_path / "outside.txt")
    with pytest.raises(GameDataError, match="leads outside the game folder"):
        render_rulebook(game, A4)


@pytest.mark.parametrize("expression", [
    "''.__class__.__mro__",
    "cards.__class__.__subclasses__()",
    "game.__class__",
])
def test_sandbox_refuses_python_internals(tmp_path, expression):
    game = make_game(tmp_path, template="# Rules\n\nText.\n{{ " + expression + " }}\n")
    with pytest.raises(KitgenError) as info:
        render_rulebook(game, A4)
    assert "rules.md.j2, line 4" in str(info.value)


def test_template_cannot_mutate_the_data(tmp_path):
    game = make_game(tmp_path, template="# Rules\n{{ cards.append(1) }}\n")
    with pytest.raises(GameDataError, match="line 2: not allowed"):
        render_rulebook(game, A4)


def test_syntax_error_names_file_and_line(tmp_path):
    game = make_game(tmp_path, template="# Rules\n\n{% if %}\nText\n")
    with pytest.raises(GameDataError) as info:
        render_rulebook(game, A4)
    assert re.search(r"templates/rules\.md\.j2, line 3: template syntax error", str(info.value))


def test_undefined_variable_names_file_and_line(tmp_path):
    game = make_game(tmp_path, template="# Rules\n\nThe score is {{ game.no_such_thing }}.\n")
    with pytest.raises(GameDataError) as info:
        render_rulebook(game, A4)
    assert "rules.md.j2, line 3: undefined in template" in str(info.value)
    assert "no_such_thing" in str(info.value)


def test_missing_template_is_named(tmp_path):
    game = make_game(tmp_path, template="x", name="other.md.j2")
    with pytest.raises(GameDataError, match="'rules.md.j2' not found"):
        render_rulebook(game, A4)


def test_bad_temple_diagram_names_the_line(tmp_path):
    game = make_game(tmp_path, template="# Rules\n\n{{ temple_diagram([[1, 9]]) }}\n")
    with pytest.raises(GameDataError, match=r"line 3: temple_diagram\(before\): temple 1 has value 9"):
        render_rulebook(game, A4)


def test_a_box_longer_than_a_page_flows_on(tmp_path):
    words = " ".join(f"w{i}" for i in range(2500))
    game = make_game(tmp_path, template=f"# Rules\n\n::: ruling 1: Long\n{words}\n:::\n")
    pages = page_texts(render_rulebook(game, A4))
    assert len(pages) >= 2
    flat = " ".join(" ".join(pages).split())
    assert "Playtest ruling 1: Long" in flat and "w0 w1" in flat and "w2499" in flat


def test_unclosed_box_is_reported(tmp_path):
    game = make_game(tmp_path, template="# Rules\n\n::: ruling Open\nText\n")
    with pytest.raises(GameDataError, match="never closed"):
        render_rulebook(game, A4)


# --- card text printed as written ----------------------------------------------------

def test_markup_characters_in_card_text_print_literally(edited):
    game, pages = edited
    assert game.cards[8].text == MARKUP
    text = "\n".join(pages)
    assert MARKUP in " ".join(text.split())


def test_emoji_in_card_text_is_a_clear_error(tmp_path):
    game = make_game(tmp_path, csv=lambda t: t.replace("Gain 5 points.", "Gain 5 points \U0001F389"))
    with pytest.raises(RenderError) as info:
        render_rulebook(game, A4)
    message = str(info.value)
    assert "Obsidian" in message and "U+1F389" in message and "\n" not in message


def test_latin_letters_beyond_ascii_print(edited):
    game, pages = edited
    assert [c.text for c in game.cards if c.name == "Obsidian"] == [LATIN]
    assert LATIN in "\n".join(pages)


# --- the pieces on their own ----------------------------------------------------------

@given(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ue000")))
def test_escaped_values_read_back_as_written(text):
    escaped = markup.escape_value(text)
    assert markup.plain(escaped) == text
    blocks = markup.parse(escaped, [], "t") if escaped.strip() else []
    assert all(isinstance(b, markup.Paragraph) for b in blocks)
    for ch in "<>":
        assert ch not in markup.to_para(escaped)


def test_markup_blocks():
    text = "# Title\n\nOne\ntwo.\n\n- a\n\n- b\n1. c\n\n::: ruling 2: Ties\nBody **bold**\n:::\n"
    blocks = markup.parse(text, [], "t")
    assert blocks[0] == markup.Heading(1, "Title")
    assert blocks[1] == markup.Paragraph("One two.")
    assert blocks[2] == markup.ListBlock(("a", "b"), False, 1)
    assert blocks[3] == markup.ListBlock(("c",), True, 1)
    assert blocks[4] == markup.Box("ruling", "2: Ties", (markup.Paragraph("Body **bold**"),))
    assert markup.to_para("Body **bold** & *it*") == "Body <b>bold</b> &amp; <i>it</i>"


def test_temple_geometry_keeps_every_value_visible():
    layout = geometry.panel_layout([2, 4, 1])
    by_temple: dict[int, list] = {}
    for card in layout.cards:
        by_temple.setdefault(card.stack, []).append(card)
    assert [len(v) for v in by_temple.values()] == [2, 4, 1]
    for cards in by_temple.values():
        for lower, upper in zip(cards, cards[1:]):
            assert upper.y - lower.y >= 15          # the value band (15 pt) below the next card shows
            assert upper.x > lower.x
    boxes = layout.stacks
    for left, right in zip(boxes, boxes[1:]):
        assert left.x + left.width < right.x        # temples never overlap
    assert layout.width == pytest.approx(boxes[-1].x + boxes[-1].width)
    top = max(c.y + c.height for c in layout.cards)
    assert top == pytest.approx(layout.height)


def test_the_cover_gives_the_seeds_player_count_and_how_far_it_stretches(builtin_pages):
    # The seed says "2-4+ players"; game.toml says {min = 2, usual = 4, max = 16}
    assert "2-4+ (up to 16) players" in builtin_pages[0]


def test_a_usual_player_count_outside_min_and_max_is_refused(tmp_path):
    with pytest.raises(GameDataError, match="1 <= min <= usual <= max"):
        make_game(tmp_path, toml=lambda t: t.replace("usual = 4, max = 16", "usual = 20, max = 16"))


def test_players_without_usual_read_as_a_plain_range(tmp_path):
    game = make_game(tmp_path, toml=lambda t: t.replace("usual = 4, ", ""))
    assert game.players_text == "2-16"
    with pytest.raises(GameDataError, match="unknown key 'best'"):
        make_game(tmp_path / "b", toml=lambda t: t.replace("usual = 4", "best = 4"))


def test_a_paragraph_breaks_its_lines_once_per_width_and_again_once_split_drops_them(monkeypatch):
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph as PlainParagraph

    from kitgen.render import fonts
    from kitgen.render.paragraphs import Paragraph

    fonts.register()
    style = ParagraphStyle("t", fontName=fonts.REGULAR, fontSize=10, leading=12)
    text = "Each player draws three cards and passes one to the left. " * 8
    widths = (300, 300, 200, 200, 300)
    plain = [PlainParagraph(text, style).wrap(width, 500) for width in widths]     # reportlab's own sizes
    breaks = []
    plain_break = PlainParagraph.breakLines
    monkeypatch.setattr(PlainParagraph, "breakLines", lambda self, at: breaks.append(at) or plain_break(self, at))
    para = Paragraph(text, style)
    assert [para.wrap(width, 500) for width in widths] == plain and plain[0][1] < plain[2][1]
    assert len(breaks) == 3                                   # at 300, at 200, at 300 again
    assert para.split(300, 5) == []                           # no room for two lines: the lines are dropped
    assert para.wrap(300, 500) == plain[0] and len(breaks) == 4


def test_a_shared_paragraph_is_parsed_once_per_style_and_breaks_its_lines_as_a_fresh_one(monkeypatch):
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph as PlainParagraph
    from reportlab.platypus import paraparser

    from kitgen.render import fonts
    from kitgen.render.paragraphs import Paragraph

    fonts.register()
    style = ParagraphStyle("shared-test", fontName=fonts.REGULAR, fontSize=10, leading=12, textTransform="uppercase")
    other = ParagraphStyle("shared-test-2", parent=style, fontName=fonts.BOLD)
    text = "Each player <b>draws three</b> cards &amp; passes <i>one</i> to the left. " * 6
    plain = PlainParagraph(text, style)
    parses = []
    parse = paraparser.ParaParser.parse
    monkeypatch.setattr(paraparser.ParaParser, "parse", lambda self, *a: parses.append(1) or parse(self, *a))
    first, second = Paragraph(text, style, shared=True), Paragraph(text, style, shared=True)
    assert len(parses) == 1                                         # the second took the first's parse
    Paragraph(text, other, shared=True)
    assert len(parses) == 2                                         # another style: parsed again
    assert first.frags is not second.frags and first.frags[0] is not second.frags[0]
    assert [f.__dict__ for f in first.frags] == [f.__dict__ for f in plain.frags]
    assert first.frags[0].text.startswith("EACH PLAYER")            # transformed once, not twice
    sizes = [first.wrap(w, 500) for w in (300, 150)]
    assert sizes == [plain.wrap(w, 500) for w in (300, 150)] == [second.wrap(w, 500) for w in (300, 150)]
    parts = first.split(150, 60)                                     # a split paragraph's parts are plain ones
    assert len(parts) == 2 and [p.wrap(150, 500)[1] for p in parts][0] <= 60
    def lines(para):
        return [[dict(w.__dict__) for w in line.words] for line in para.blPara.lines]

    assert len(lines(plain)) > 3 and lines(second) == lines(plain)     # the same lines, word for word
