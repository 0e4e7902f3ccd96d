"""Ancestral's turn answers: they agree with an exhaustive reference on random positions; plays are read
back from their own words; mistakes in a position or a play are one clear message naming the field."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kitgen.data.game import load_game
from kitgen.errors import OptionError
from solver.ancestral.engine import ENGINE
from solver.ancestral.measure import effect, key
from solver.ancestral.moves import ATTACK, DISCARD, action_text, parse_play, table_for
from solver.ancestral.policies import best_turn
from solver.ancestral.solve import OPTIMAL_FIELDS, Position, complete, ranked
from tests import ancestral_reference as ref

RULES = ENGINE.rules(load_game("ancestral"), {})
VARIANTS = [RULES] + [ENGINE.rules(load_game("ancestral"), s) for s in (
    {"damage_by": "cards"}, {"protect_many": "off", "pass_allowed": "off"}, {"hunuc_huar_by": "anyone"},
    {"damage": "1,2,4", "leaves_to_lose": "7", "hand_size": "7"})]
POSITIONS_PER_EXAMPLE = 4      # each example checks this many positions: thousands in all


def random_position(rng: random.Random, rules) -> Position:
    """A position of real cards: a hand, leaves and defenses drawn from what the game is played with."""
    table = table_for(rules)
    players = rng.randint(2, 4)
    pool = [k for k, c in enumerate(rules.deck.counts) if rules.deck.roles[k] != "reference" for _ in range(c)]
    rng.shuffle(pool)
    hand = [0] * table.kinds
    for k in pool[:rng.randint(0, rules.hand_size)]:
        hand[k] += 1
    leaves = tuple(rng.randint(0, rules.leaves_to_lose - 1) for _ in range(players))
    defense = tuple(rng.randint(0, table.full) for _ in range(players))
    holders = frozenset(p for p in range(1, players) if rng.random() < 0.3)
    return Position(players, tuple(hand), leaves, defense, holders)


def _reference_view(position: Position, rules):
    table = table_for(rules)
    defenses = [{k for i, k in enumerate(table.protections) if mask >> i & 1} for mask in position.defense]
    return list(position.hand), list(position.leaves), defenses, set(position.holders)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_every_action_and_the_best_agree_with_the_exhaustive_reference(seed):
    rng = random.Random(seed)
    for _ in range(POSITIONS_PER_EXAMPLE):
        rules = rng.choice(VARIANTS)
        position = random_position(rng, rules)
        view = _reference_view(position, rules)
        expected = ref.all_actions(rules, *view)
        found = ranked(position, rules)
        # the same legal actions, each with the same effect
        assert {a: (int(e.out), e.enter, e.spared, e.broken, e.cards) for _, a, e in found} == expected
        top, best = ref.best(rules, *view, found=expected)
        assert ref.rank(expected[found[0][1]]) == top
        answer = ENGINE.solve(position, rules)
        assert set(answer["best"]) == {action_text(table_for(rules), a) for a in best}
        assert set(ENGINE.all_best(position, rules)["best"]) == set(answer["best"])
        assert json.loads(json.dumps(answer)) == answer


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_every_action_is_read_back_from_its_words_and_checked_as_the_answer_ranks_it(seed):
    rng = random.Random(seed)
    rules = rng.choice(VARIANTS)
    position = random_position(rng, rules)
    table = table_for(rules)
    found = ranked(position, rules)
    best_key = found[0][0][:OPTIMAL_FIELDS]
    for k, action, _ in rng.sample(found, min(6, len(found))):
        text = action_text(table, action)
        assert complete(parse_play(text, table, position.players), position, table, "play") == action
        verdict = ENGINE.check(position, text, rules)
        assert verdict["legal"] and verdict["optimal"] == (k[:OPTIMAL_FIELDS] == best_key)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_the_greedy_player_makes_the_best_play_of_the_measure(seed):
    # in a game's own positions, with nobody's Hunuc-Huar known: the greedy player's quick choice is the
    # answer's best, except that where the best is a Discard it discards what it cannot use
    rng = random.Random(seed)
    rules = rng.choice(VARIANTS)
    state = ENGINE.new_game(rules, rng.randint(2, 4), random.Random(seed))
    players = [ENGINE.policies["random"](random.Random(seed + p)) for p in range(state.players)]
    for _ in range(rng.randint(0, 60)):
        if state.is_terminal():
            break
        p = state.current_player()
        state.apply_action(players[p].choose(state, p))
    if state.is_terminal() or state.pending:
        return
    p = state.mover
    seats = [q for q in range(p, p + state.players) if state.in_round[q % state.players]]
    seats = [q % state.players for q in seats]
    # the position seen from the player whose turn it is, the others in turn order
    position = Position(len(seats), tuple(state.hands[p]), tuple(len(state.leaves[q]) for q in seats),
                        tuple(state.defense[q] for q in seats), frozenset())
    found = ranked(position, rules)
    choice = best_turn(state, p)
    if found[0][1][0] == DISCARD:
        assert choice is None
        return
    mine = effect(state.table, p, state.defense, [len(x) for x in state.leaves], choice)
    assert key(mine, 0)[:OPTIMAL_FIELDS] == found[0][0][:OPTIMAL_FIELDS]
    # and among equals, the first listed: attacks from the player's left, then fewer winds
    seen_as = (ATTACK, seats.index(choice[1]), *choice[2:]) if choice[0] == ATTACK else choice
    assert seen_as == found[0][1]


# --- positions and plays as people give them ----------------------------------------------------

def test_a_position_is_read_from_text_fields_and_answered():
    position = ENGINE.read_position({"players": "3", "hand": "strong wind, hot, 2 south breeze",
                                     "leaves": "2, 3", "defenses": "; water shield; quincha, tree",
                                     "hunuc": "3"}, RULES)
    assert position.players == 3 and position.leaves == (2, 3, 0) and position.holders == {2}
    answer = ENGINE.solve(position, RULES)
    # player 2 (3 leaves, a Water Shield) goes out to two kinds of wind; player 3 would cancel the attack
    assert answer["best"] == ["Attack player 2 with Strong Wind + Hot Wind (3 leaves), discarding Water Shield"]
    assert answer["lines"][2].startswith("Best: Attack player 2")
    assert "player 2 is out of the round" in answer["lines"][2]
    on_three = [a for a in answer["actions"] if a["action"].startswith("Attack player 3")]
    assert on_three and all(a["cancelled_by"] == [3] and a["enter"] == 0 for a in on_three)
    verdict = ENGINE.check(position, "clean with 2 south breeze", RULES)
    assert verdict["legal"] and not verdict["optimal"]
    assert verdict["lines"][1] == "It is not the best: the best play puts a player out of the round " \
                                  "(this play puts nobody out)."
    state = ENGINE.position_state(position, RULES, random.Random(3))
    assert state.current_player() == 0 and state.hands[0] == list(position.hand)
    assert [len(x) for x in state.leaves] == [2, 3, 0] and state.defense == list(position.defense)
    assert sum(state.hands[2][k] for k in state.table.specials) >= 1
    assert sum(state.hands[1][k] for k in state.table.specials) == 0
    dealt = Counter(k for hand in state.hands for k, c in enumerate(hand) for _ in range(c))
    dealt.update(state.deck)
    dealt.update(k for leaves in state.leaves for k in leaves)
    dealt.update(k for mask in state.defense for i, k in enumerate(state.table.protections) if mask >> i & 1)
    assert dealt == Counter(state.cards) and all(sum(h) == RULES.hand_size for h in state.hands[1:])


@pytest.mark.parametrize("raw, field, words", [
    ({"players": "5"}, "players", "from 2 to 4"),
    ({"hand": "Strong Wind, Gale"}, "hand", "unknown card 'Gale'"),
    ({"hand": "6 Strong Wind"}, "hand", "at most 5 cards"),
    ({"hand": "Strong Wind", "defenses": ["", "Strong Wind"]}, "defenses", "Strong Wind in player 2's hut is not a defense"),
    ({"defenses": "; Tree Curtain, tree"}, "defenses", "holds 2 Tree Curtain"),
    ({"players": "2", "leaves": [0, 0, 1]}, "leaves", "player 3 is not in a round of 2"),
    ({"leaves": "0,5"}, "leaves", "from 0 to 4"),
    ({"hunuc": "maybe"}, "hunuc", "from 2 to 4"),
    ({"hunuc": [1]}, "hunuc", "from 2 to 4"),
    ({"players": "3", "hunuc": [4]}, "hunuc", "player 4 is not in a round of 3"),
    ({"hand": "5 Hunuc-Huar", "hunuc": [2]}, "hunuc", "only 0 Hunuc-Huar Protection are left"),
    ({"colour": "red"}, "colour", "no such field"),
])
def test_a_mistake_in_a_position_names_its_field(raw, field, words):
    with pytest.raises(OptionError) as caught:
        ENGINE.read_position(raw, RULES)
    assert caught.value.option == field and words in caught.value.message


@pytest.mark.parametrize("play, words", [
    ("", "give a play"),
    ("jump 2", "starts with one of attack"),
    ("attack with Strong Wind", "names a player and its winds"),
    ("attack 7 with Strong Wind", "is not a player: name one from 1 to 3"),
    ("attack 2 with Quincha Defense", "Quincha Defense is not a wind"),
    ("attack 2 with Strong Wind + Blizzard", "unknown card 'Blizzard'"),
    ("protect with South Breeze", "South Breeze is not a defense"),
    ("protect with 2 Tree Curtain", "of different kinds"),
    ("clean with Hot Wind", "Hot Wind does not clean"),
    ("attack 3 with Strong Wind", "say which, e.g. 'discarding Quincha Defense' or 'discarding Tree Curtain'"),
])
def test_a_play_that_cannot_be_read_is_one_clear_message(play, words):
    position = ENGINE.read_position({"players": "3", "hand": "Strong Wind, Hot Wind",
                                     "defenses": ";;Quincha Defense, Tree Curtain"}, RULES)
    with pytest.raises(OptionError) as caught:
        ENGINE.check(position, play, RULES)
    assert caught.value.option == "--play" and words in caught.value.message


@pytest.mark.parametrize("play, reason", [
    ("attack 2 with Dry Wind", "the play uses 1 Dry Wind but the hand holds none"),
    ("clean with 1 South Breeze", "Clean plays 1 South Breeze but the hand holds none"),
    ("attack 1 with Strong Wind", "cannot attack their own hut"),
    ("pass", ""),
])
def test_a_play_that_reads_is_judged_legal_or_not_with_the_reason(play, reason):
    position = ENGINE.read_position({"players": "3", "hand": "Strong Wind, Hot Wind"}, RULES)
    verdict = ENGINE.check(position, play, RULES)
    assert verdict["legal"] == (not reason)
    if reason:
        assert reason in verdict["reason"] and verdict["lines"][0].startswith("Illegal play:")
        assert verdict["lines"][1].startswith("Best play: Attack player 2 with Strong Wind + Hot Wind")
