"""Ancestral's rules engine: games played to the end keep the rules' invariants; each ruling switched
changes what it should; the rulings the engine plays are the game data's; the engine object answers the
protocol (players, figures, report)."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from operator import le

import pytest

from kitgen.data.game import load_game
from kitgen.errors import GameDataError, OptionError
from solver.ancestral.engine import ENGINE
from solver.ancestral.moves import ATTACK, CLEAN, DISCARD, LET, PLAY, PROTECT
from solver.ancestral.rules import CHOICES, RULINGS, SWITCHES, rules_of_game
from solver.engine import TERMINAL, IllegalMove
from tests.engine_checks import play_checked_games

GAME = load_game("ancestral")
RULES = ENGINE.rules(GAME, {})
STRONG, HOT, DRY, QUINCHA, TREE, WATER, BREEZE, HUNUC, REFERENCE = (RULES.deck.names.index(n) for n in (
    "Strong Wind", "Hot Wind", "Dry Wind", "Quincha Defense", "Tree Curtain", "Water Shield", "South Breeze",
    "Hunuc-Huar Protection", "Reference"))


def rules(**settings):
    return ENGINE.rules(GAME, {k: str(v) for k, v in settings.items()})


def snapshot(s) -> tuple:
    """Everything a move can change."""
    return (json.dumps([s.hands, s.deck, s.discard, s.seen, s.leaves, s.defense, s.in_round, s.offerings, s.left,
                        s.round, s.turns, s.round_turns, s.mover, s.starter, s.pending, s.end, s.count,
                        s.round_winners, s.round_starters, s.round_lengths]), s.rng.getstate())


def check_invariants(s) -> None:
    r, table = s.rules, s.table
    # every card where it lies, as one list compared sorted: the same multiset test as Counters, made faster
    cards = s.deck + s.discard
    for hand in s.hands:
        for k, c in enumerate(hand):
            if c:
                cards += [k] * c
    for p in range(s.players):
        cards += s.leaves[p]
        cards += [k for i, k in enumerate(table.protections) if s.defense[p] >> i & 1]
    cards.sort()
    assert cards == sorted(s.cards), "cards are conserved"
    assert all(map(le, s.seen, map(s.discard.count, range(table.kinds)))), "face-up cards are in the discard"
    for p in range(s.players):
        assert sum(s.hands[p]) <= r.hand_size and min(s.hands[p]) >= 0
        if s.in_round[p]:
            assert len(s.leaves[p]) < r.leaves_to_lose or s.end is not None
        else:
            assert not any(s.hands[p]) and not s.leaves[p] and not s.defense[p], "a player out holds nothing"
        if s.in_round[p] and not s.pending and s.end is None and (s.deck or s.discard):
            assert sum(s.hands[p]) == r.hand_size, "every hand is full between turns"
    assert s.left == sum(s.in_round) and (s.left >= 2 or s.end is not None)
    assert sum(s.offerings) == len(s.round_winners) == len(s.round_lengths)
    assert (max(s.offerings) >= r.offerings_to_win) == (s.end == "offerings")
    if s.end is None:
        assert s.in_round[s.current_player()] and s.current_player() != TERMINAL
        assert s.round == len(s.round_winners) + 1 == len(s.round_starters)
    else:
        assert s.current_player() == TERMINAL and s.legal_actions() == []


def bad_moves(s):
    """Moves the rules refuse at this point."""
    p = s.current_player()
    table = s.table
    if s.pending:
        return [(CLEAN, 1), (ATTACK, p, (1, 0, 0), 0), "play"]
    too_many = tuple(c + 1 if k == STRONG else c for k, c in enumerate(s.hands[p]))
    bad = [(ATTACK, p, (1, 0, 0), 0), (DISCARD, too_many), PLAY, (CLEAN, len(s.leaves[p]) + 1),
           (PROTECT, table.full + 1), ("attack",), None]
    if s.rules.damage_by == "kinds":
        bad.append((ATTACK, (p + 1) % s.players, (2, 0, 0), 0))
    return bad


SETTINGS = [{}, {"damage_by": "cards"}, {"hunuc_huar_by": "anyone", "new_round": "keep"},
            {"protect_many": "off", "pass_allowed": "off", "leaf_reshuffle": "off"},
            {"spare_references": "deck", "first_player": "first_seat", "round_starter": "rotate"}]


@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: ",".join(s) or "defaults")
def test_games_keep_the_invariants_of_the_rules_to_their_end(settings):
    r = rules(**settings)
    ends, rng = Counter(), random.Random(7)
    for game in range(24):
        players = 2 + game % 3
        s = ENGINE.new_game(r, players, random.Random(game))
        names = [rng.choice(["random", "greedy", "defensive"]) for _ in range(players)]
        seats = [ENGINE.policies[n](random.Random(game * 10 + p)) for p, n in enumerate(names)]
        check_invariants(s)
        step = 0
        while not s.is_terminal():
            p = s.current_player()
            action = seats[p].choose(s, p)
            if step % 17 == 0:
                assert action in s.legal_actions()
                before = snapshot(s)
                for bad in bad_moves(s):
                    with pytest.raises(IllegalMove):
                        s.apply_action(bad)
                    assert snapshot(s) == before, f"{bad!r} refused, and nothing changed"
            s.apply_action(action)
            check_invariants(s)
            step += 1
            if step > 20_000:
                raise AssertionError("the turn cap should have stopped the game")
        ends[s.end] += 1
        shares = s.returns()
        assert sum(shares) == pytest.approx(1)
        if s.end == "offerings":
            assert shares[s.offerings.index(r.offerings_to_win)] == 1
        json.dumps(ENGINE.figures(s))
    assert ends["offerings"] >= 21, ends


@pytest.fixture(scope="module")
def greedy_games() -> list:
    """Hundreds of four-player greedy games, played once for the tests that read finished games."""
    games = []
    for game in range(300):
        s = ENGINE.new_game(RULES, 4, random.Random(game))
        seats = [ENGINE.policies["greedy"](random.Random(p)) for p in range(4)]
        while not s.is_terminal():
            p = s.current_player()
            s.apply_action(seats[p].choose(s, p))
        games.append(s)
    return games


def test_hundreds_of_greedy_games_end_as_the_rules_say(greedy_games):
    ends, rounds = Counter(), Counter()
    for s in greedy_games:
        ends[s.end] += 1
        rounds[len(s.round_winners)] += 1
        assert s.count["eliminations"] == 3 * len(s.round_winners) + (4 - s.left if s.end == "cap" else 0)
        assert max(s.offerings) == RULES.offerings_to_win or s.end == "cap"
    assert ends["offerings"] >= 297, ends
    assert min(rounds) >= RULES.offerings_to_win and max(rounds) <= 4 * (RULES.offerings_to_win - 1) + 1


@pytest.mark.parametrize("settings, players", [({"offerings_to_win": "1"}, 4),
                                                ({"offerings_to_win": "2", "new_round": "keep",
                                                  "hunuc_huar_by": "anyone", "damage_by": "cards"}, 2)])
def test_the_engine_keeps_the_protocol_in_random_games(settings, players):
    # the checks every engine passes (tests/engine_checks.py), on games of one or two rounds
    assert play_checked_games(ENGINE, rules(**settings), players, games=4, seed=players) == {"offerings": 4}


def test_a_clone_is_independent_and_a_resample_keeps_what_the_player_saw():
    s = ENGINE.new_game(RULES, 4, random.Random(5))
    seats = [ENGINE.policies["random"](random.Random(p)) for p in range(4)]
    changed = 0
    for step in range(300):
        if s.is_terminal():
            break
        p = s.current_player()
        copy = s.clone()
        before = snapshot(s)
        copy.apply_action(copy.legal_actions()[-1])
        assert snapshot(s) == before
        if step % 5 == 0:
            other = s.resample(p, random.Random(step))
            check_invariants(other)
            seen, seen_again = s.observation(p), other.observation(p)
            assert seen == seen_again and json.loads(json.dumps(seen)) == seen
            assert other.hands[p] == s.hands[p] and other.defense == s.defense
            assert Counter(other.discard) - Counter(s.discard) == Counter() or \
                Counter(k for k, c in enumerate(s.seen) for _ in range(c)) <= Counter(other.discard)
            changed += any(other.hands[q] != s.hands[q] for q in range(4) if q != p)
            assert other.legal_actions() == s.legal_actions()
        s.apply_action(seats[p].choose(s, p))
    assert changed >= 20
    # what another player holds is not part of what a player sees
    seen = s.observation(0)
    assert seen["hand"] == {s.table.names[k]: c for k, c in enumerate(s.hands[0]) if c}
    assert "hands" not in seen and seen["hand_sizes"] == [sum(h) for h in s.hands]


def test_the_turn_cap_stops_a_game_and_its_win_is_shared_by_the_leaders():
    s = ENGINE.new_game(rules(turn_cap=9), 3, random.Random(1))
    seats = [ENGINE.policies["defensive"](random.Random(p)) for p in range(3)]
    while not s.is_terminal():
        p = s.current_player()
        s.apply_action(seats[p].choose(s, p))
    assert s.end == "cap" and s.turns == 9
    top = max(s.offerings)
    leaders = [p for p in range(3) if s.offerings[p] == top]
    assert s.returns() == [1 / len(leaders) if p in leaders else 0 for p in range(3)]
    assert s.scores() == [float(o) for o in s.offerings]
    with pytest.raises(IllegalMove, match="the game is over"):
        s.apply_action((DISCARD, (0,) * 9))


# --- one test a ruling: switched, it changes what it should ------------------------------------------

def arranged(r, players=3, hands=None, leaves=None, defense=None, deck=None, discard=None, mover=0):
    """A game at a chosen point: the hands (kind lists), leaves (counts), defenses (masks), deck and discard."""
    s = ENGINE.new_game(r, players, random.Random(0))
    s.hands = [[0] * 9 for _ in range(players)]
    for p, kinds in enumerate(hands or []):
        for k in kinds:
            s.hands[p][k] += 1
    s.leaves = [[BREEZE] * n for n in (leaves or [0] * players)]
    s.defense = list(defense or [0] * players)
    s.deck = list(deck if deck is not None else [STRONG] * 20)
    s.discard, s.seen = list(discard or []), [0] * 9
    s.mover = s.starter = mover
    return s


def test_spare_references_go_into_the_deck_only_when_switched():
    for setting, in_play in (("box", 0), ("deck", 2)):
        s = ENGINE.new_game(rules(spare_references=setting), 2, random.Random(3))
        assert Counter(s.cards)[REFERENCE] == in_play
    assert Counter(ENGINE.new_game(rules(spare_references="deck"), 4, random.Random(3)).cards)[REFERENCE] == 0
    # a Reference card in hand can only be discarded
    s = arranged(rules(spare_references="deck"), hands=[[REFERENCE] * 5])
    assert {a[0] for a in s.legal_actions()} == {DISCARD}


def _play_out(r, players, seed, policy="greedy"):
    s = ENGINE.new_game(r, players, random.Random(seed))
    seats = [ENGINE.policies[policy](random.Random(p)) for p in range(players)]
    while not s.is_terminal():
        p = s.current_player()
        s.apply_action(seats[p].choose(s, p))
    return s


def test_first_player_is_random_unless_the_first_seat_starts(greedy_games):
    assert {s.round_starters[0] for s in greedy_games[:30]} == {0, 1, 2, 3}
    assert {_play_out(rules(first_player="first_seat"), 4, seed).round_starters[0] for seed in range(30)} == {0}


def test_round_starter_is_the_last_winner_or_the_next_seat(greedy_games):
    for seed in range(10):
        s = greedy_games[seed]
        assert s.round_starters[1:] == s.round_winners[:len(s.round_starters) - 1]
        s = _play_out(rules(round_starter="rotate"), 4, seed)
        assert all(b == (a + 1) % 4 for a, b in zip(s.round_starters, s.round_starters[1:]))
        assert len(s.round_starters) >= 3


def test_pass_allowed_lets_a_discard_of_nothing_be_played():
    nothing = (DISCARD, (0,) * 9)
    s = arranged(rules(), hands=[[BREEZE] * 5, [STRONG] * 5, [HOT] * 5])
    assert nothing in s.legal_actions()
    s.apply_action(nothing)
    assert s.mover == 1 and s.count["passes"] == 1
    s = arranged(rules(pass_allowed="off"), hands=[[BREEZE] * 5, [STRONG] * 5, [HOT] * 5])
    assert nothing not in s.legal_actions()
    with pytest.raises(IllegalMove, match="at least one card"):
        s.apply_action(nothing)
    s.apply_action((DISCARD, tuple(int(k == BREEZE) for k in range(9))))
    assert s.mover == 1


def test_damage_by_kinds_or_by_cards():
    two_strong = (ATTACK, 1, (2, 0, 0), 0)
    s = arranged(rules(), hands=[[STRONG, STRONG, HOT]])
    assert two_strong not in s.legal_actions()
    with pytest.raises(IllegalMove, match="different kinds"):
        s.apply_action(two_strong)
    s = arranged(rules(damage_by="cards"), hands=[[STRONG, STRONG, HOT]])
    assert two_strong in s.legal_actions() and (ATTACK, 1, (2, 1, 0), 0) in s.legal_actions()
    s.apply_action(two_strong)
    assert len(s.leaves[1]) == RULES.damage[1]      # two cards: the damage of two winds


def test_protect_many_or_one_defense_a_turn():
    both = (PROTECT, 0b011)
    s = arranged(rules(), hands=[[QUINCHA, TREE, TREE]])
    s.apply_action(both)
    assert s.defense[0] == 0b011 and s.count["defenses_laid"] == 2
    s = arranged(rules(protect_many="off"), hands=[[QUINCHA, TREE, TREE]])
    assert both not in s.legal_actions() and (PROTECT, 0b010) in s.legal_actions()
    with pytest.raises(IllegalMove, match="single defense"):
        s.apply_action(both)


def test_leaf_reshuffle_takes_leaves_from_the_discard_pile_or_loses_them():
    attack = (ATTACK, 1, (1, 1, 1), 0)       # 5 leaves on an empty hut, with a deck of 2
    for setting, laid in (("on", 5), ("off", 2)):
        s = arranged(rules(leaf_reshuffle=setting), hands=[[STRONG, HOT, DRY]], deck=[WATER, WATER],
                     discard=[BREEZE] * 10)
        s.apply_action(attack)
        assert s.count["leaves_laid"] == laid and s.count["leaves_lost"] == 5 - laid
        assert s.in_round[1] == (laid < 5) and len(s.leaves[1]) == (0 if laid == 5 else laid)


def test_hunuc_huar_by_the_target_only_or_by_anyone():
    attack = (ATTACK, 1, (1, 1, 0), 0)
    hands = [[STRONG, HOT], [BREEZE] * 5, [HUNUC] + [BREEZE] * 4]
    s = arranged(rules(), hands=hands)
    s.apply_action(attack)                   # player 3's Hunuc-Huar cannot help player 2
    assert s.pending is None and len(s.leaves[1]) == 3 and s.mover == 1
    s = arranged(rules(hunuc_huar_by="anyone"), hands=hands)
    s.apply_action(attack)
    assert s.current_player() == 2 and s.legal_actions() == [PLAY, LET]
    s.apply_action(PLAY)
    assert s.leaves[1] == [] and s.count["cancelled"] == 1 and s.mover == 1
    assert sum(s.hands[2]) == 5 and s.hands[2][HUNUC] == 0      # drawn back up at once, from the deck
    assert s.discard[-1] == HUNUC and s.seen[HUNUC] == 1
    # the target decides first; letting it through passes the choice on
    hands[1] = [HUNUC] + [BREEZE] * 4
    s = arranged(rules(hunuc_huar_by="anyone"), hands=hands)
    s.apply_action(attack)
    assert s.current_player() == 1
    s.apply_action(LET)
    assert s.current_player() == 2
    s.apply_action(LET)
    assert len(s.leaves[1]) == 3 and s.mover == 1


def test_new_round_deals_again_or_keeps_the_winners_hand():
    out = (ATTACK, 1, (1, 1, 1), 0)
    for setting in ("deal", "keep"):
        s = arranged(rules(new_round=setting), players=2, hands=[[STRONG, HOT, DRY, HUNUC, TREE], [BREEZE] * 5],
                     leaves=[3, 1], defense=[0b100, 0])
        s.apply_action(out)
        kept = s.hands[0]
        assert s.round == 2 and s.offerings == [1, 0] and s.in_round == [True, True]
        assert s.leaves == [[], []] and s.defense == [0, 0] and s.mover == 0
        assert all(sum(h) == 5 for h in s.hands)
        if setting == "keep":
            assert kept[HUNUC] == 1 and kept[TREE] == 1     # the winner's hand is the one they ended with
            assert s.count["reshuffles"] == 0 and len(s.discard) > 0
        else:
            assert s.discard == [] and len(s.deck) == len(s.cards) - 10


def test_a_full_hut_puts_its_owner_out_and_swept_leaves_are_never_seen():
    s = arranged(rules(), players=3, hands=[[STRONG, HOT, DRY], [BREEZE] * 2, [BREEZE] * 5], leaves=[1, 0, 0])
    s.apply_action((ATTACK, 1, (1, 1, 1), 0))
    assert s.in_round == [True, False, True] and s.mover == 2
    s.apply_action((DISCARD, (0,) * 9))
    s.hands[0] = [0] * 9
    s.hands[0][BREEZE] = 5
    s.apply_action((CLEAN, 1))           # the leaf goes to the discard pile face down
    assert s.seen[BREEZE] == s.discard.count(BREEZE) - 1
    assert s.observation(1)["discard_face_up"]["South Breeze"] == s.seen[BREEZE]


# --- the rulings the engine plays are the data's ----------------------------------------------------

def test_every_ruling_the_engine_plays_is_in_the_game_data_with_the_options_it_plays():
    structured = {n: r for n, r in GAME.rulings.items() if not isinstance(r, str)}
    assert set(structured) == set(RULINGS)
    for name in CHOICES:
        assert set(structured[name]["options"]) == set(CHOICES[name])
    for name in SWITCHES:
        assert set(structured[name]["options"]) == {"true", "false"}
    assert {r.name for r in RULES.rulings} == set(RULINGS)


@pytest.mark.parametrize("change, words", [
    (lambda r: r.pop("leaf_reshuffle"), "[rulings] lacks the ruling 'leaf_reshuffle'"),
    (lambda r: r["new_round"].update(options={"deal": "a", "again": "b"}),
     "[rulings.new_round]: the options are deal, keep"),
    (lambda r: r.update(sudden_death={"title": "t", "seed": "s", "default": True, "reason": "r",
                                      "options": {"true": "a", "false": "b"}}),
     "[rulings.sudden_death]: no such switch in the rules engine"),
])
def test_a_ruling_missing_from_the_data_or_unknown_to_the_engine_is_refused(change, words):
    rulings = json.loads(json.dumps(GAME.rulings))
    change(rulings)
    with pytest.raises(GameDataError) as caught:
        rules_of_game(replace(GAME, rulings=rulings))
    assert words in str(caught.value) and "ancestral/game.toml" in str(caught.value)


@pytest.mark.parametrize("settings, words", [
    ({"hunuc_huar": "anyone"}, "unknown rule 'hunuc_huar' for Ancestral; accepted: hand_size"),
    ({"new_round": "shuffle"}, "new_round takes one of deal, keep, not 'shuffle'"),
    ({"pass_allowed": "maybe"}, "pass_allowed takes on or off"),
    ({"damage": "1,3,5,7"}, "only 3 kinds of wind"),
    ({"leaves_to_lose": "0"}, "leaves_to_lose takes a whole number from 1 to 50"),
    ({"hand_size": "21"}, "hand_size takes a whole number from 1 to 20, not '21'"),
])
def test_a_bad_setting_names_the_rule_and_what_it_takes(settings, words):
    with pytest.raises(OptionError) as caught:
        ENGINE.rules(GAME, settings, "--set")
    assert caught.value.option == "--set" and words in caught.value.message


def test_the_players_are_as_many_as_the_deck_can_deal():
    assert ENGINE.player_range(rules(hand_size=20)) == (2, 2)
    assert ENGINE.player_range(rules(hand_size=13)) == (2, 4)
    assert ENGINE.player_range(rules(hand_size=14)) == (2, 3)
    small = replace(GAME, cards=tuple(replace(c, count=1) for c in GAME.cards))
    with pytest.raises(GameDataError, match="ancestral/game.toml: the deck cannot deal 2 hands of 5 cards"):
        rules_of_game(small)


def test_settings_change_the_rules_and_are_listed():
    r = rules(damage="1,2,4", hunuc_huar_by="anyone", turn_cap=50)
    assert r.damage == (1, 2, 4) and r.hunuc_huar_by == "anyone" and r.turn_cap == 50
    assert r.changed == ("damage", "hunuc_huar_by", "turn_cap") and RULES.changed == ()
    assert rules(hunuc_huar_by="target").changed == ()
    assert r.as_dict()["damage"] == [1, 2, 4] and r.as_dict()["new_round"] == "deal"
    assert json.loads(json.dumps(r.as_dict())) == r.as_dict()


# --- the engine object ----------------------------------------------------------------------------

def test_the_engine_object_answers_the_protocol():
    assert (ENGINE.key, ENGINE.title) == ("ancestral", "Ancestral")
    assert ENGINE.player_range(RULES) == (2, 4)
    assert set(ENGINE.policies) == set(ENGINE.policy_help) >= {"random", "greedy", "defensive"}
    assert ENGINE.round_cap(RULES) == GAME.raw["simulation"]["round_cap"]
    fields = ENGINE.position_fields(RULES)
    assert [f["name"] for f in fields][:2] == ["players", "hand"]
    assert all(f["kind"] in ("number", "numbers", "cards", "player-cards", "choice", "flag") for f in fields)
    ENGINE.read_position({f["name"]: f["default"] for f in fields}, RULES)     # the defaults make a position
    with pytest.raises(ValueError, match="2 to 4 players"):
        ENGINE.new_game(RULES, 5, random.Random(0))


def test_the_report_quotes_its_figures(greedy_games):
    records = [ENGINE.figures(s) for s in greedy_games[:60]]
    assert json.loads(json.dumps(records)) == records
    report = ENGINE.report([{"figures": f} for f in records])
    fig = report["figures"]
    assert fig["games"] == 60 and fig["stopped_at_cap"] == 0
    rounds = sum(f["rounds"] for f in records)
    assert fig["round_won_by_its_first_player"]["n"] == rounds
    starters = sum(w == s for f in records for w, s in zip(f["round_winners"], f["round_starters"]))
    rate = starters / rounds
    assert fig["round_won_by_its_first_player"]["rate"] == round(rate, 4)
    text = " ".join(report["findings"])
    assert f"wins it {100 * rate:.1f}% of the time" in text and f"{rounds:,} rounds" in text
    assert f"{sum(f['turns'] for f in records) / 60:.1f} turns on average" in text
    assert "even share (25.0%)" in text
    table = report["tables"][0]
    assert sum(row[1] for row in table["rows"]) == rounds
    assert ENGINE.report([]) == {"figures": {"games": 0}, "tables": [], "findings": []}
    assert sum(sum(f["cancels_by_seat"]) for f in records) == sum(f["hunuc_huar_plays"] for f in records)
