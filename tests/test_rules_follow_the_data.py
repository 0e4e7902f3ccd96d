"""Altun Ha's rulebook and aids follow game.toml: every ruling and every rule number flipped, the kit
rendered, and the text of rules.pdf and aids.pdf read back with PDFium for the new wording and the
absence of the old (the simulator's round cap, in [simulation], too).

Four renders cover every flip: the defaults; FLIPPED, every ruling at its other option and every
rule number changed; LADDER, the tie ladder kept with the points deciding at the highest tie and other
numbers (a God worth less, so the examples change) and a bid of no cards read as no bid card; SINGLE, one card to bid, farm and build, and one
to draw.  The phrases below are those the rules govern, under each option and number.
"""

from __future__ import annotations

import tomllib

import pytest
import tomli_w

from kitgen.data.game import load_game
from kitgen.render.rulebook import render_rulebook
from kitgen.units import paper_size
from tests.conftest import REPO, aids_pdf, copy_builtin
from tests.pdfium_read import page_texts

DEFAULTS = tomllib.loads((REPO / "kitgen" / "games" / "altun-ha" / "game.toml").read_text(encoding="utf-8"))
RULINGS = DEFAULTS["rulings"]
PAD_ROUNDS = next(c["rounds"] for c in DEFAULTS["components"] if c["kind"] == "score-pad")

FLIPPED_RULES = {"hand_size": 6, "population_start": 4, "population_growth": 2, "draw": 3, "hand_limit": 7,
                 "god_value": 9, "max_bid_cards": 3, "max_farm_cards": 3, "max_build_cards": 3,
                 "famine_penalty": 17, "no_build_penalty": 6}
LADDER_RULES = {"god_value": 5, "famine_penalty": 12, "no_build_penalty": 4}
SINGLE_RULES = {"max_bid_cards": 1, "max_farm_cards": 1, "max_build_cards": 1, "draw": 1}


def other(name: str):
    """The option of a ruling that is not its default (the first such, for a choice of several)."""
    default = RULINGS[name]["default"]
    if isinstance(default, bool):
        return not default
    return next(value for value in RULINGS[name]["options"] if value != default)


FLIPS = {
    "defaults": ({}, {}, DEFAULTS["simulation"]["round_cap"]),
    "flipped": ({name: other(name) for name in RULINGS}, FLIPPED_RULES, 150),
    "ladder": ({"points_decide": "highest_tie", "empty_bid": "no_bid_card"}, LADDER_RULES, 200),
    "single": ({}, SINGLE_RULES, 200),
}


def flat(texts: list[str]) -> str:
    return " ".join(" ".join(texts).split())


@pytest.fixture(scope="module")
def kits(tmp_path_factory, altun_kit) -> dict[str, dict]:
    """Each flip's rulings, rules and round cap, and the text of its rules.pdf and aids.pdf.

    The defaults are read from the run's shared Altun Ha kit (built by ``kitgen build`` with default
    options, on letter paper); the flips are rendered here from a changed copy of the game."""
    out = {"defaults": {"rulings": {key: spec["default"] for key, spec in RULINGS.items()},
                        "rules": DEFAULTS["rules"],
                        "rules_pdf": flat(page_texts(altun_kit / "rules.pdf")),
                        "aids_pdf": flat(page_texts(altun_kit / "aids.pdf"))}}
    for name, (rulings, rules, cap) in FLIPS.items():
        if name == "defaults":
            continue
        folder = copy_builtin("altun-ha", tmp_path_factory.mktemp(name) / "altun-ha")
        data = tomllib.loads((folder / "game.toml").read_text(encoding="utf-8"))
        for key, value in rulings.items():
            data["rulings"][key]["default"] = value
        data["rules"].update(rules)
        data["simulation"]["round_cap"] = cap
        (folder / "game.toml").write_text(tomli_w.dumps(data), encoding="utf-8")
        game = load_game(folder)
        chosen = {key: spec["default"] for key, spec in data["rulings"].items()}
        out[name] = {"rulings": chosen, "rules": data["rules"],
                     "rules_pdf": flat(page_texts(render_rulebook(game, paper_size("letter")))),
                     "aids_pdf": flat(page_texts(aids_pdf(game, "letter")))}
    return out


def value_text(value) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def test_the_flips_cover_every_ruling_option_and_every_rule_number(kits):
    for name, spec in RULINGS.items():
        played = {value_text(kit["rulings"][name]) for kit in kits.values()}
        assert played == set(spec["options"]), name
    for key, value in DEFAULTS["rules"].items():
        if key != "engine":
            assert any(kit["rules"][key] != value for kit in kits.values()), key
    assert any(cap != DEFAULTS["simulation"]["round_cap"] for _, _, cap in FLIPS.values())


# --- the rulings chapter: every ruling prints the option played and its own reason ----------------

@pytest.mark.parametrize("flip", list(FLIPS))
def test_each_ruling_prints_the_option_played_with_its_reason_and_not_the_others(kits, flip):
    kit = kits[flip]
    text, rules = kit["rules_pdf"], kit["rules"]
    for name, spec in RULINGS.items():
        chosen = value_text(kit["rulings"][name])
        reasons = spec["reason"] if isinstance(spec["reason"], dict) else dict.fromkeys(spec["options"],
                                                                                          spec["reason"])
        option = " ".join(spec["options"][chosen].format(**rules).split())
        reason = " ".join(reasons[chosen].format(**rules).split())
        assert f"Ruling: {option} {reason}" in text, (flip, name)
        for value, meaning in spec["options"].items():
            if value != chosen:
                assert f"(--set {name}={value}): {' '.join(meaning.format(**rules).split())}" in text
                if reasons[value] != reasons[chosen]:       # a reason of its own, which argues for that option
                    assert " ".join(reasons[value].format(**rules).split()) not in text, (flip, name, value)
        assert f"(--set {name}={chosen})" not in text


# --- every sentence a ruling or a rule number governs -------------------------------------------

# each ruling: [(flips, file, phrases printed there, phrases never printed there)]
GOVERNED = {
    "calendar_clockwise": [
        (["defaults", "ladder", "single"], "rules_pdf",
         ["The Calendar token itself moves the other way", "passes it to the player on their right"],
         ["moves the same way", "on their left (clockwise)"]),
        (["flipped"], "rules_pdf",
         ["The Calendar token itself moves the same way, clockwise: see phase 1.",
          "passes it to the player on their left (clockwise)"],
         ["moves the other way", "to the player on their right"]),
        (["defaults", "ladder", "single"], "aids_pdf", ["passes the Calendar token to the right."], ["to the left"]),
        (["flipped"], "aids_pdf", ["passes the Calendar token to the left (clockwise)."], ["to the right"]),
    ],
    "empty_deck_ends": [
        (["defaults"], "rules_pdf", ["nobody draws any more cards until cards are discarded again; the game goes on",
                                     "The game has only one ending: famine."],
         ["the game ends at once (Playtest", "two endings"]),
        (["flipped"], "rules_pdf",
         ["If a card is to be drawn, here or by a Trade card, and the deck and the discard pile are both empty, "
          "the game ends at once", "The game has two endings: famine, and a card to be drawn when the deck",
          "in a famine, or when the deck and discard pile run out"],
         ["the game goes on (Playtest", "only one ending"]),
        (["defaults"], "aids_pdf", [], ["the game ends. 4 Trade"]),
        (["flipped"], "aids_pdf", ["A card due and none in the deck or the discard pile: the game ends."], []),
    ],
    "special_is_trade": [
        (["defaults"], "rules_pdf", ["Using them does not count as your one Trade card for the round"],
         ["counts as your one Trade card"]),
        (["flipped"], "rules_pdf",
         ["Using either of them counts as your one Trade card for the round: a player who played a Trade card in "
          "this phase cannot reveal Jade or feed with Maize, and one who revealed Jade cannot feed with Maize"],
         ["does not count as your one Trade card"]),
        (["defaults"], "aids_pdf", ["each may play 1 Trade card."], ["counts as that card"]),
        (["flipped"], "aids_pdf", ["each may play 1 Trade card; revealing Jade or feeding with Maize counts as "
                                   "that card."], []),
    ],
    "tie_drop": [
        (["defaults", "ladder"], "rules_pdf", ["they drop out together and the next lower total wins"],
         ["the one of them with fewer points wins"]),
        (["flipped"], "rules_pdf", ["If two or more players made the highest total, the one of them with fewer "
                                    "points wins"], ["drop out together", "Example: Bids of"]),
        (["defaults", "ladder"], "aids_pdf", ["tied totals drop out, the next lower wins;"], ["tied: fewer points."]),
        (["flipped"], "aids_pdf", ["Highest total wins; tied: fewer points."], ["drop out"]),
    ],
    "points_decide": [
        (["defaults"], "rules_pdf", ["the player with fewer points wins among those tied at the lowest total"],
         ["for the highest total (Playtest"]),
        (["ladder"], "rules_pdf", ["the player with fewer points wins among those tied for the highest total"],
         ["at the lowest total (Playtest"]),
        (["defaults"], "aids_pdf", ["all tied: fewer points at the lowest total."], ["among the highest"]),
        (["ladder"], "aids_pdf", ["all tied: fewer points among the highest."], ["at the lowest total"]),
    ],
    "empty_bid": [
        (["defaults"], "rules_pdf", ["a player who bid no cards has a total of 0, which counts like any other total",
                                     "Example: Nobody bids a card"],
         ["a player who bid no cards never wins", "has bid no card, and is never the next lower bid"]),
        (["flipped"], "rules_pdf", ["a player who bid no cards never wins",
                                    "or if nobody bid any card, nobody wins"],
         ["counts like any other total", "Example: Nobody bids a card", "has bid no card, and is never"]),
        (["ladder"], "rules_pdf", ["a player who bid no cards has bid no card, and is never the next lower bid",
                                   "; when nobody bid a card, among everyone."],
         ["counts like any other total", "a player who bid no cards never wins"]),
        (["defaults"], "aids_pdf", ["no cards = 0)"], ["never wins", "never the next lower bid"]),
        (["flipped"], "aids_pdf", ["no cards never wins)"], ["no cards = 0", "never the next lower bid"]),
        (["ladder"], "aids_pdf", ["no cards: never the next lower bid)"], ["no cards = 0", "never wins"]),
    ],
    "feed_alone": [
        (["defaults"], "rules_pdf", ["the Maize Trade card on its own, which feeds any Population, however high "
                                     "(Playtest"], ["it may go with other Bid or God cards"]),
        (["flipped"], "rules_pdf", ["the Maize Trade card, which feeds any Population, however high; it may go "
                                    "with other Bid or God cards, up to 3 cards in all, which add nothing"],
         ["Trade card on its own, which feeds"]),
        (["defaults"], "aids_pdf", ["worth at least the Population, or Maize alone."], ["other cards may go"]),
        (["flipped"], "aids_pdf", ["worth at least the Population, or Maize (other cards may go with it)."],
         ["Maize alone"]),
    ],
    "chain": [
        (["defaults"], "rules_pdf", ["The second card may go on a temple started or raised by the first card",
                                     "by chaining"], ["as they stood when the Build began ("]),
        (["flipped"], "rules_pdf", ["Both cards are placed on the temples as they stood when the Build began"],
         ["by chaining", "same Build: for example"]),
        (["defaults"], "aids_pdf", ["v goes on v-1)."], ["not on a card of this Build"]),
        (["flipped"], "aids_pdf", ["v goes on v-1, not on a card of this Build)."], []),
    ],
    "penalty_if_declined": [
        (["defaults"], "rules_pdf", ["a Priest King who cannot lay any card loses 7 points; one who could lay a "
                                     "card but chooses not to scores nothing"],
         ["lays no card at all, whether unable"]),
        (["flipped"], "rules_pdf", ["a Priest King who lays no card at all, whether unable or unwilling, loses 6 "
                                    "points instead"], ["chooses not to scores nothing"]),
        (["defaults"], "aids_pdf", ["-7 if none could be placed."], ["none was placed"]),
        (["flipped"], "aids_pdf", ["-6 if none was placed."], ["could be placed"]),
    ],
    "negative_scores": [
        (["defaults"], "rules_pdf", ["Scores can go below zero (Playtest",
                                     "they lose 3 and you gain 3, even if that takes their score below zero"],
         ["never more than they have"]),
        (["flipped"], "rules_pdf", ["A score never goes below zero (Playtest",
                                    "they lose 3 and you gain 3, but never more than they have: a score stops at 0"],
         ["even if that takes their score below zero", "Scores can go below zero (Playtest"]),
        (["defaults"], "aids_pdf", ["Scores: may go below 0."], ["never below"]),
        (["flipped"], "aids_pdf", ["Scores: never below 0; a loss stops at 0."], ["may go below"]),
    ],
    "end_tie": [
        (["defaults"], "rules_pdf", ["Players tied for the most points share the victory (Playtest"],
         ["then clockwise (Playtest"]),
        (["flipped"], "rules_pdf", ["Of the players tied for the most points, the first in turn order wins: the "
                                    "Calendar holder, then clockwise (Playtest"], ["share the victory (Playtest"]),
        (["defaults"], "aids_pdf", ["Most points win; a tie is shared."], ["first in turn order"]),
        (["flipped"], "aids_pdf", ["Most points win; tied: the first in turn order wins."], ["a tie is shared"]),
    ],
}

# each rule number: [(file, its sentence under the defaults, the same sentence in FLIPPED)]
NUMBERS = {
    "hand_size": [("rules_pdf", "Deal 5 cards to each player", "Deal 6 cards to each player")],
    "population_start": [("rules_pdf", "Write a Population of 2 on the score pad", "Write a Population of 4 on the "
                          "score pad"), ("rules_pdf", "In the first round it becomes 3.", "In the first round it "
                                         "becomes 6.")],
    "population_growth": [("rules_pdf", "The Population rises by 1.", "The Population rises by 2."),
                          ("aids_pdf", "Population rises by 1.", "Population rises by 2.")],
    "draw": [("rules_pdf", "every player draws 2 cards", "every player draws 3 cards"),
             ("aids_pdf", "everyone draws 2 cards.", "everyone draws 3 cards.")],
    "hand_limit": [("rules_pdf", "more than 5 cards in hand discards cards of their own choice until they hold 5.",
                    "more than 7 cards in hand discards cards of their own choice until they hold 7."),
                   ("aids_pdf", "discards down to 5 cards.", "discards down to 7 cards.")],
    "god_value": [("rules_pdf", "a God card counts as a Bid card of value 7", "a God card counts as a Bid card of "
                   "value 9"), ("rules_pdf", "counting 7 each", "counting 9 each"),
                  ("aids_pdf", "(God = 7;", "(God = 9;")],
    "max_bid_cards": [("rules_pdf", "chooses 0, 1 or 2 cards", "chooses 0 to 3 cards"),
                      ("aids_pdf", "reveals 0-2 Bid cards", "reveals 0-3 Bid cards")],
    "max_farm_cards": [("rules_pdf", "1 or 2 Bid cards whose values add up to", "1, 2 or 3 Bid cards whose values "
                        "add up to"), ("rules_pdf", "2 cards are worth 16 at most", "3 cards are worth 27 at most"),
                       ("aids_pdf", "discards 1-2 Bid cards", "discards 1-3 Bid cards")],
    "max_build_cards": [("rules_pdf", "may lay up to 2 cards (Bid", "may lay up to 3 cards (Bid"),
                        ("aids_pdf", "may place up to 2 cards on temples", "may place up to 3 cards on temples")],
    "famine_penalty": [("rules_pdf", "loses 13 points and the game ends at once", "loses 17 points and the game "
                        "ends at once"), ("rules_pdf", "such as famine_penalty=13", "such as famine_penalty=17"),
                       ("aids_pdf", "Famine: -13 and the game ends.", "Famine: -17 and the game ends.")],
    "no_build_penalty": [("rules_pdf", "Building nothing: a Priest King unable to lay any card loses 7 points",
                          "Building nothing: the Priest King loses 6 points"),
                         ("aids_pdf", "-7 if none could be placed.", "-6 if none was placed.")],
    "round_cap": [("rules_pdf", "after 200 rounds", "after 150 rounds")],
}

# one card to bid, farm, build and draw: the sentences in the singular, the examples left out
SINGLE = (["chooses 0 or 1 cards", "1 Bid card whose value is at least the Population", "may lay up to 1 card (Bid",
           "every player draws 1 card from", "1 card is worth 8 at most", "everyone draws 1 card.",
           "reveals 0 or 1 Bid cards", "discards 1 Bid card worth at least the Population",
           "may place up to 1 card on temples"],
          ["0, 1 or", "Example: Bids of", "Example: a Farm and a Build", "up to 2 cards", "0-1", "1-1"])


def test_every_ruling_and_rule_number_has_its_sentences_here():
    assert set(GOVERNED) == set(RULINGS)
    assert set(NUMBERS) == {key for key in DEFAULTS["rules"] if key != "engine"} | {"round_cap"}
    for name, entries in GOVERNED.items():       # both files, under every option
        for where in ("rules_pdf", "aids_pdf"):
            flips = {flip for fs, w, _, _ in entries if w == where for flip in fs}
            assert {value_text(FLIPS[f][0].get(name, RULINGS[name]["default"])) for f in flips} == \
                set(RULINGS[name]["options"]), (name, where)


@pytest.mark.parametrize("name, flips, where, present, absent",
                         [(name, *entry) for name, entries in GOVERNED.items() for entry in entries],
                         ids=[f"{name}-{'+'.join(e[0])}-{e[1]}" for name, es in GOVERNED.items() for e in es])
def test_every_sentence_a_ruling_governs_follows_it(kits, name, flips, where, present, absent):
    for flip in flips:
        text = kits[flip][where]
        for phrase in present:
            assert phrase in text, (flip, where, phrase)
        for phrase in absent:
            assert phrase not in text, (flip, where, phrase, text[max(0, text.find(phrase) - 80):][:200])


@pytest.mark.parametrize("name", list(NUMBERS))
def test_every_sentence_a_rule_number_governs_follows_it(kits, name):
    for where, default, flipped in NUMBERS[name]:
        assert default in kits["defaults"][where] and default not in kits["flipped"][where], (name, default)
        assert flipped in kits["flipped"][where] and flipped not in kits["defaults"][where], (name, flipped)


def test_one_card_to_bid_farm_build_and_draw_is_said_in_the_singular(kits):
    present, absent = SINGLE
    text = kits["single"]["rules_pdf"] + " " + kits["single"]["aids_pdf"]
    for phrase in present:
        assert phrase in text, phrase
    for phrase in absent:
        assert phrase not in text, phrase
    ladder = kits["ladder"]["aids_pdf"]          # other numbers on the reference card
    assert "(God = 5;" in ladder and "Famine: -12 and" in ladder and "-4 if none could be placed." in ladder


# --- the worked examples are computed from the rules --------------------------------------------

def test_the_bid_example_is_worked_from_the_god_value(kits):
    assert ("Example: Bids of 9, 9, 7 and nothing Ana bids Façade and Stairs (5 + 4 = 9), Ben bids Platform and "
            "Base (7 + 2 = 9), Cy bids a God card (7)") in kits["defaults"]["rules_pdf"]
    # a God worth 5: the pairs tie at 7 above it
    ladder = kits["ladder"]["rules_pdf"]
    assert ("Example: Bids of 7, 7, 5 and nothing Ana bids Stairs and Stage (4 + 3 = 7), Ben bids Façade and Base "
            "(5 + 2 = 7), Cy bids a God card (5) and Dee bids nothing. The two totals of 7 tie and drop out. The next "
            "lower total, 5, was made by Cy alone") in ladder


def test_the_farm_example_is_worked_from_the_god_value(kits):
    default = kits["defaults"]["rules_pdf"]
    assert ("The Population is 7 and you have just become the Priest King. Your hand is Stage (3), Stairs (4) and "
            "the Sun God.") in default
    assert "as a Bid card it is worth 7, which is at least the Population of 7." in default
    flipped = kits["flipped"]["rules_pdf"]        # a God worth 9 still pays the Population of 7
    assert "as a Bid card it is worth 9, which is at least the Population of 7." in flipped
    assert "worth 7, which is at least the Population of 7" not in flipped
    assert "by chaining" not in flipped
    ladder = kits["ladder"]["rules_pdf"]          # a God worth 5 pays only a Population of 5
    assert "The Population is 5 and you have just become the Priest King." in ladder
    assert "as a Bid card it is worth 5, which is at least the Population of 5." in ladder
    assert "Feeding the city with Stage and Stairs (3 + 4 = 7) also works" in ladder
    assert "Neither Bid card alone is worth the Population of 5." in ladder


def test_the_score_pad_counts_the_population_from_the_rules(kits):
    def rows(first: int, step: int) -> str:      # round, then the Population pre-filled in its row
        return " ".join(f"{r} {first + step * (r - 1)}" for r in range(1, PAD_ROUNDS + 1))
    assert f"Round Population Player 1 Player 2 Player 3 Player 4 {rows(3, 1)} Total" in kits["defaults"]["aids_pdf"]
    flipped = kits["flipped"]["aids_pdf"]       # Population 4, rising by 2: 6 after the first round's growth
    assert f"Round Population Player 1 Player 2 Player 3 Player 4 {rows(6, 2)} Total" in flipped
    assert rows(3, 1) not in flipped
