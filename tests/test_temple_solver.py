"""Temple of Inscriptions' construction question: the search agrees with an exhaustive reference on random
positions, its ways of completing a level play out in the rules engine, and the answers read as they should."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kitgen.data.game import load_game
from kitgen.errors import OptionError
from solver.temple import solve as temple
from solver.temple.engine import ENGINE
from solver.temple.rules import JEWEL, rules_of_game, with_settings
from solver.temple.search import C, J, O, Table, completion, outcome
from solver.temple.state import CALL, KEEP, PASS
from tests import temple_reference as ref

RULES = rules_of_game(load_game("temple-of-inscriptions"))
CLASS = {C: ref.LEVEL, J: ref.JEWEL, O: ref.OTHER}


@st.composite
def positions(draw, max_players=5):
    """A random round: hands and zone dealt from the deck (cards of built levels left out), rulings and
    objective at random; swaps still to come only with up to 4 players (the reference tries every sequence
    of them)."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    swaps = rng.random() < 0.5
    players = rng.randint(2, 4 if swaps else max_players)
    level = rng.randint(1, RULES.levels)
    pool = [k for k in range(RULES.levels + 1) if k == JEWEL or k >= level for _ in range(RULES.counts[k])]
    weights = [6 if k == level else 4 if k == JEWEL else 1 for k in pool]      # enough of the level to build
    sizes = [rng.randint(0, 6) for _ in range(players)]
    zone_size = rng.randint(0, RULES.swap_zone)
    while sum(sizes) + zone_size > len(pool):
        sizes[sizes.index(max(sizes))] -= 1
    picked = []
    while len(picked) < sum(sizes) + zone_size:
        i = rng.choices(range(len(pool)), weights)[0]
        picked.append(pool.pop(i))
        weights.pop(i)
    hands, at = [], 0
    for size in sizes:
        hands.append(tuple(picked[at:at + size].count(k) for k in range(RULES.levels + 1)))
        at += size
    zone = tuple(picked[at:].count(k) for k in range(RULES.levels + 1))
    rules = with_settings(RULES, {"scoring": rng.choice(["per_card", "per_player"]),
                                  "summon_refund": rng.choice(["true", "false"]),
                                  "summoner_sets": rng.choice(["true", "false"])})
    summoner = rng.choice([None, rng.randrange(players)])
    position = temple.Position(level, tuple(hands), zone, rng.randrange(players), summoner, swaps,
                               rng.choice(["margin", "gain"]))
    return position, rules


def reference_rules(position, rules) -> ref.Rules:
    return ref.Rules(level=position.level, need=rules.cards_per_level, most=rules.max_cards_per_player,
                     per_pair=rules.jewels_per_card, jewel_points=rules.jewel_points, cost=rules.summon_cost,
                     per_card=rules.scoring == "per_card", refund=rules.summon_refund,
                     must_set=rules.summoner_sets, margin=position.objective == "margin")


def classes(position):
    hands = tuple(temple.classes(h, position.level) for h in position.hands)
    return hands, temple.classes(position.zone, position.level)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_the_construction_played_out_agrees_with_the_exhaustive_reference(case):
    position, rules = case
    hands, _ = classes(position)
    got = outcome(Table.of(rules, position.level, position.objective), hands, position.first, position.summoner)
    gains, end = ref.best_play(reference_rules(position, rules), hands, position.first, position.summoner)
    assert got.gains == gains
    assert got.summoner == end.summoner
    # every best first decision (--all): the one played among them, each worth what the reference finds
    best = temple.all_best(position, rules)
    deciding = position.first if position.summoner is None else position.summoner
    if best["best"]:
        assert best["player"] == deciding + 1
        assert best["value"] == ref.worth(reference_rules(position, rules), gains, deciding)
        first = (CALL if got.summoner == deciding else PASS) if position.summoner is None else \
            ("set", *got.sets[deciding])
        assert temple.action_text(rules, first, position.level) in best["best"]
    assert got.completed == (end.summoner is not None and sum(c + q for c, q in end.sets) >= rules.cards_per_level)
    if end.summoner is not None:
        assert got.sets == end.sets


def play_out(position, rules, swaps, summoner, sets) -> int:
    """Play a way of completing the level in the rules engine, from the swaps; the levels built after it."""
    state = temple.position_state(replace(position, summoner=None), rules, random.Random(0))
    if position.swaps:
        state.phase = "swap"                 # the position's round, back at its swap phase
        actions = temple.concrete_swaps(position, swaps)
        for _ in range(position.players):
            state.apply_action(actions[state.current_player()] or KEEP)
    while state.current_player() != summoner:
        state.apply_action(PASS)
    state.apply_action(CALL)
    while state.built < position.level and state.phase == "set":
        state.apply_action(("set", *sets[state.current_player()]))
    return state.built


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_whether_the_level_can_be_completed_agrees_with_trying_every_swap(case):
    position, rules = case
    hands, zone = classes(position)
    got = completion(Table.of(rules, position.level, position.objective), hands, zone, position.first,
                     position.swaps, position.summoner)
    possible, most, fewest = ref.can_complete(reference_rules(position, rules), hands, zone, position.first,
                                              position.swaps, position.summoner)
    assert (got.possible, got.best) == (possible, most)
    if possible:
        assert sum(s is not None for s in got.swaps) == fewest
        assert position.summoner in (None, got.summoner)
        assert sum(c + q for c, q in got.sets) == rules.cards_per_level
        assert play_out(position, rules, got.swaps, got.summoner, got.sets) == position.level


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=150)
@given(positions())
def test_the_best_construction_passes_the_check_and_a_worse_set_is_named(case):
    position, rules = case
    if position.summoner is None:
        return
    hands = tuple(temple.classes(h, position.level) for h in position.hands)
    if rules.summoner_sets and Table.of(rules, position.level, "gain").capacity(hands[position.summoner]) < 1:
        return
    answer = temple.solve(position, rules)
    n = position.players
    order = [(position.summoner + i) % n for i in range(n)]
    sets = answer["outcome"]["sets"]
    play = "; ".join(f"{s['cards']}, {s['pairs']} pair" for s in (sets[p] for p in order))
    verdict = temple.check(position, play, rules)
    assert verdict["legal"] and verdict["shortfalls"] == []
    assert verdict["gains"] == answer["outcome"]["gains"]


def test_an_example_round_in_words():
    rules = RULES
    position = temple.read_position({
        "level": 3, "summoner": 1, "swapped": "on", "objective": "gain",
        "hands": "Lower Terrace x2, Temple Roof; Lower Terrace, 2 Jade Jewel; 3; Temple Roof"}, rules)
    answer = temple.solve(position, rules)
    text = "\n".join(answer["lines"])
    # everyone sets what they can: 2 + (1 + a pair) + 1 = 5 cards, paid 3 a card; the pair costs Ben 2 jewels
    assert "Player 1 summons and sets 2 Lower Terrace." in text
    assert "Player 2 sets 1 Lower Terrace and 1 pair of Jade Jewel." in text
    assert "Points this round: Player 1 +6, Player 2 +4, Player 3 +3, Player 4 +0." in text
    assert "Player 4: +0 (completed; gain +0)." in text       # sets nothing; the others build; the point back
    must = temple.solve(position, with_settings(rules, {"summoner_sets": "true"}))
    assert "  Player 4 cannot summon: no card to set." in must["lines"]
    assert answer["best"] == ["set 2 Lower Terrace"]
    # under margin, player 3 gains 3 while player 1 gains 6: he would rather not set his card
    margin = temple.solve(replace(position, objective="margin"), rules)
    assert margin["outcome"]["completed"] is False
    verdict = temple.check(position, "2 Lower Terrace; 1 Lower Terrace, 2 Jade Jewel; nothing", rules)
    assert verdict["legal"] and not verdict["completed"]
    assert verdict["shortfalls"] == [{"player": 3, "short": 3, "best": "1 Lower Terrace"}]


@pytest.mark.parametrize("play, field, message", [
    ("2 Rubble Core", "--play (part 1)", "Rubble Core is of level 2; only level 3"),
    ("2 Lower Terrace; 1 Jade Jewel", "--play (part 2)", "jewels are set 2 at a time, not 1"),
    ("1; 1; 1; 1; 1", "--play", "5 sets for 4 players"),
    ("2 Stone Fish", "--play (part 1)", "no card named 'Stone Fish'"),
])
def test_a_play_that_cannot_be_read_is_named(play, field, message):
    position = temple.read_position({"level": 3, "summoner": 1, "swapped": "on",
                                     "hands": "3, 3; 3, jewel, jewel; 3; -"}, RULES)
    with pytest.raises(OptionError) as caught:
        temple.check(position, play, RULES)
    assert caught.value.option == field and message in caught.value.message


def test_an_illegal_play_says_why():
    position = temple.read_position({"level": 3, "summoner": 1, "swapped": "on",
                                     "hands": "3, 3; 3, jewel, jewel; 3; -"}, RULES)
    assert temple.check(position, "nothing; 1 Lower Terrace", RULES)["legal"]
    must = with_settings(RULES, {"summoner_sets": "true"})
    verdict = temple.check(position, "nothing; 1 Lower Terrace", must)
    assert not verdict["legal"] and verdict["reason"] == "Player 1 summoned and must set at least one card"
    verdict = temple.check(position, "2; 2", RULES)
    assert not verdict["legal"] and verdict["reason"] == "Player 2 holds 1 Lower Terrace, not 2"


@pytest.mark.parametrize("raw, field, message", [
    ({"hands": "3; 3", "level": 12}, "level", "from 1 to 9"),
    ({"hands": "3"}, "hands", "1 hand given; the game takes 2 to 5 players"),
    ({"hands": "1; 3", "level": 3}, "hands (player 1)", "Foundation Stone is of level 1, already built"),
    ({"hands": "3 x8; 3"}, "hands", "9 Lower Terrace in the hands and the swap zone, but the deck holds 7"),
    ({"hands": "3; 3", "zone": "4, 5, 6, 7"}, "zone", "at most 3 cards"),
    ({"hands": "3; 3", "summoner": 3}, "summoner", "from 0 to 2"),
    ({"hands": "3; 3", "objective": "glory"}, "objective", "margin, gain"),
    ({"hands": "3; 3", "speed": 1}, "speed", "no such field"),
    ({"hands": [["3"], 5]}, "hands (player 2)", "give card names, not 5"),
    ({"hands": ["3", ["3"] * 100]}, "hands (player 2)", "100 cards; the whole deck holds 75"),
    ({"hands": "3; " + "Lower Terrace" * 100 + " x2"}, "hands (player 2)", "is not a card name (1303 characters)"),
])
def test_a_position_with_a_mistake_names_the_field(raw, field, message):
    with pytest.raises(OptionError) as caught:
        temple.read_position(raw, RULES)
    assert caught.value.option == field and message in caught.value.message


def test_a_summoner_without_a_card_is_a_mistake_only_when_the_summoner_must_set_one():
    raw = {"hands": "3; 8", "level": 3, "summoner": 2}
    assert temple.read_position(raw, RULES).summoner == 1
    with pytest.raises(OptionError) as caught:
        temple.read_position(raw, with_settings(RULES, {"summoner_sets": "true"}))
    assert caught.value.option == "summoner" and "no card to set for level 3" in caught.value.message


def test_the_position_as_a_state_asks_the_right_player_and_hides_nothing_it_was_told():
    position = temple.read_position({"level": 4, "hands": "4, 4; jewel; 9", "zone": "4", "first": 2,
                                     "summoner": 1, "swapped": "on"}, RULES)
    state = temple.position_state(position, RULES, random.Random(5))
    assert state.current_player() == 0 and state.phase == "set"
    assert state.treasure == [RULES.start_treasure - RULES.summon_cost] + [RULES.start_treasure] * 2
    assert [state.hands[p][4] for p in range(3)] == [2, 0, 0] and state.zone[4] == 1
    # every card of the deck is somewhere: levels 1-3 discarded, the rest in the hands, zone and pile
    for kind in range(RULES.levels + 1):
        where = state.pile.count(kind) + state.discard.count(kind) + state.zone[kind] \
            + sum(h[kind] for h in state.hands)
        assert where == RULES.counts[kind]
    assert all(k == JEWEL or k >= 4 for k in state.pile)
    asking = temple.position_state(replace(position, summoner=None), RULES, random.Random(5))
    assert asking.current_player() == 1 and asking.phase == "summon"


def test_the_position_fields_are_what_read_position_takes():
    fields = ENGINE.position_fields()
    assert len({f["name"] for f in fields}) == len(fields)
    assert {f["kind"] for f in fields} <= {"number", "cards", "player-cards", "choice", "flag"}
    # as the command line gives them: numbers as numbers, a flag as true or false, the rest as typed
    given = {"level": 2, "hands": "Rubble Core x2, Jade Jewel; 2, jewel; Temple Roof", "zone": "Rubble Core",
             "first": 3, "summoner": 0, "swapped": True, "objective": "gain"}
    assert set(given) == {f["name"] for f in fields}
    position = ENGINE.read_position(given, RULES)
    assert (position.level, position.first, position.summoner, position.swaps) == (2, 2, None, False)
    assert [h[2] for h in position.hands] == [2, 1, 0] and position.zone[2] == 1
    answer = ENGINE.solve(position, RULES)
    assert answer["player"] == 3 and answer["best"] == ["pass (do not summon)"]
    # 2 + 1 Rubble Core and no pair of jewels: 3 of the 5 cards, so no summons pays
    assert "Can level 2 be completed this round? No: at most 3 of the 5 cards can be set." in answer["lines"]
    assert "Asked in turn from player 3, nobody summons: it serves no one." in answer["lines"]
    defaults = ENGINE.read_position({"hands": [["Foundation Stone"], []]}, RULES)
    assert (defaults.level, defaults.first, defaults.summoner, defaults.swaps, defaults.objective) == \
        (1, 0, None, True, "margin")
