"""Temple of Inscriptions' rules engine: whole games keep the rules' invariants, each playtest ruling changes
what it says, the rulings of the data are the engine's, and the protocol's promises hold."""

from __future__ import annotations

import json
import pickle
import random
from collections import Counter

import pytest

from kitgen.data.game import load_game
from kitgen.errors import GameDataError, OptionError
from solver.engine import TERMINAL, IllegalMove
from solver.temple import solve as temple
from solver.temple.engine import ENGINE
from solver.temple.rules import JEWEL, RULINGS, rules_of_game, with_settings
from solver.temple.state import CALL, KEEP, PASS
from tests.conftest import copy_builtin
from tests.engine_checks import play_checked_games

GAME = load_game("temple-of-inscriptions")
RULES = rules_of_game(GAME)
VARIANTS = {"scoring": ["per_card", "per_player"], "starting_hand": ["deal", "none"],
            "turn_order": ["rotate", "fixed"], "empty_pile": ["reshuffle", "stop"],
            "summoner_sets": ["true", "false"], "summon_refund": ["true", "false"],
            "summon_needs_treasure": ["true", "false"], "one_construction": ["true", "false"],
            "ties": ["jewels", "shared"]}


def fingerprint(state) -> tuple:
    return (json.dumps([state.hands, state.zone, state.pile, state.discard, state.treasure, state.known,
                        state.set_cards, state.set_pairs]),
            state.phase, state.k, state.order, state.round, state.built, state.total, state.summoner,
            state.rng.getstate())


def held(state) -> list[int]:
    """Every card on the table, pile, discard pile, swap zone and hands, as one sorted list of kinds (compared
    with another such list: the same multiset test as Counters, for less)."""
    cards = state.pile + state.discard
    for counts in [state.zone, *state.hands]:
        for kind, n in enumerate(counts):
            if n:
                cards += [kind] * n
    cards.sort()
    return cards


def expected_treasure(state, action) -> list[int] | None:
    """The treasure after ``action`` as the rulebook says, worked out here from the table (None when the
    action moves no treasure)."""
    R, p = state.R, state.current_player()
    treasure = list(state.treasure)
    if action == CALL:
        treasure[p] -= R.summon_cost
        return treasure
    if state.phase != "set":
        return None
    sets = {q: (state.set_cards[q], state.set_pairs[q]) for q in range(state.players)}
    sets[p] = action[1:]
    if sum(c + q for c, q in sets.values()) < R.cards_per_level:
        return treasure
    level = state.built + 1
    for q, (c, pairs) in sets.items():
        if c + pairs:
            treasure[q] += level * (c + pairs) if R.scoring == "per_card" else level
    if R.summon_refund:
        treasure[state.summoner] += R.summon_cost
    return treasure


def play_checked(rules, players: int, policies, rng: random.Random, cap: int = 100):
    """Play one game asking ``policies``, checking the rules' invariants after every action."""
    state = ENGINE.new_game(rules, players, rng)
    deck = sorted(rules.deck())
    last_round, last_built = 0, 0
    while not state.is_terminal() and state.round <= cap:
        p = state.current_player()
        action = policies[p].choose(state, p)
        if rng.random() < 0.05:
            actions = state.legal_actions()
            assert action in actions and len(set(actions)) == len(actions)
        if rng.random() < 0.01:              # an illegal action changes nothing
            before = fingerprint(state)
            for wrong in (("set", 99, 0), ("swap", 0, 0), "summon", (), None, ("set", 0, -1)):
                with pytest.raises(IllegalMove):
                    state.apply_action(wrong)
            assert fingerprint(state) == before
        treasure = expected_treasure(state, action) if state.phase == "set" or action == CALL else None
        state.apply_action(action)
        if treasure is not None:
            assert state.treasure == treasure
        assert state.built - last_built in (0, 1)
        last_built = state.built
        if state.round != last_round:
            last_round = state.round
            check_table(state, rules, deck)
    check_table(state, rules, deck)
    return state


def check_table(state, rules, deck: list[int]) -> None:
    assert len(state.level_rounds) == state.built
    assert state.scores() == [t + rules.jewel_points * h[JEWEL] for t, h in zip(state.treasure, state.hands)]
    assert held(state) == deck                                   # every card is somewhere
    for counts in [state.zone, *state.hands]:
        assert not any(counts[1:state.built + 1]), "a card of a built level is still in play"
    assert sum(state.zone) <= rules.swap_zone


def test_hundreds_of_games_keep_the_rules_and_end():
    rng = random.Random(2026)
    ends = Counter()
    for game in range(500):
        settings = {name: rng.choice(values) for name, values in VARIANTS.items() if rng.random() < 0.3}
        rules = with_settings(RULES, settings)
        players = rng.randint(2, 5)
        names = [rng.choice(["random", "greedy", "cooperative", "greedy", "rival" if game % 10 == 0 else "random"])
                 for _ in range(players)]
        policies = [ENGINE.policies[name](random.Random(rng.random())) for name in names]
        state = play_checked(rules, players, policies, random.Random(game))
        ends[state.end] += 1
        if state.is_terminal():
            assert state.current_player() == TERMINAL and state.legal_actions() == []
            assert sum(state.returns()) == pytest.approx(1.0)
            if state.end == "complete":
                assert state.built == rules.levels and state.level_rounds == sorted(state.level_rounds)
    assert ends["complete"] > 400 and set(ends) <= {"complete", "stalled", None}


@pytest.mark.parametrize("settings, players", [({}, 4), ({"scoring": "per_player", "one_construction": "false",
                                                     "summoner_sets": "true", "empty_pile": "stop"}, 2)])
def test_the_engine_keeps_the_protocol_in_random_games(settings, players):
    # the checks every engine passes (tests/engine_checks.py)
    ends = play_checked_games(ENGINE, with_settings(RULES, settings), players, games=4, seed=players)
    assert sum(ends.values()) == 4 and set(ends) <= {"complete", "stalled"}


def test_the_same_seed_plays_the_same_game():
    def play(seed):
        state = ENGINE.new_game(RULES, 4, random.Random(seed))
        players = [ENGINE.policies["random"](random.Random(p)) for p in range(4)]
        moves = []
        while not state.is_terminal():
            action = players[state.current_player()].choose(state, state.current_player())
            moves.append(action)
            state.apply_action(action)
        return moves, state.scores(), state.end

    assert play(7) == play(7)
    assert play(7) != play(8)


def construction(level=3, hands="3, 3; 3, 3; 3", zone="", summoner=None, first=1, **settings):
    """A game at the construction of ``level`` (every player holding the starting treasure)."""
    rules = with_settings(RULES, settings) if settings else RULES
    position = temple.read_position({"level": level, "hands": hands, "zone": zone, "first": first,
                                     "summoner": summoner or 0}, rules)
    return temple.position_state(position, rules, random.Random(3)), rules


def build(state, sets):
    """Player 1 summons; then each player sets the given (cards, pairs) in turn."""
    state.apply_action(CALL)
    for cards, pairs in sets:
        if state.phase != "set":
            break
        state.apply_action(("set", cards, pairs))


@pytest.mark.parametrize("scoring, paid", [("per_card", [6, 6, 3]), ("per_player", [3, 3, 3])])
def test_scoring_pays_the_level_for_each_card_or_once(scoring, paid):
    state, rules = construction(scoring=scoring)
    build(state, [(2, 0), (2, 0), (1, 0)])
    assert state.built == 3
    assert [t - rules.start_treasure for t in state.treasure] == paid


@pytest.mark.parametrize("refund, summoner_net", [("true", 6), ("false", 5)])
def test_the_summoners_point_comes_back_only_with_the_refund(refund, summoner_net):
    state, rules = construction(summon_refund=refund)
    build(state, [(2, 0), (2, 0), (1, 0)])
    assert state.treasure[0] - rules.start_treasure == summoner_net
    failed, rules = construction(summon_refund=refund)
    build(failed, [(2, 0), (1, 0), (0, 0)])                 # 3 of 5: the level stays unbuilt
    assert failed.built == 2 and failed.treasure[0] == rules.start_treasure - 1
    assert [h[3] for h in failed.hands] == [2, 2, 1]         # the cards set went back


def test_a_completed_level_discards_its_cards_everywhere_and_refills_the_zone():
    state, rules = construction(hands="3, 3, 3; 3, jewel, jewel, jewel; 3, 4", zone="3, 5")
    build(state, [(3, 0), (1, 1)])
    assert state.built == 3 and state.end is None
    assert all(h[3] == 0 for h in state.hands) and state.zone[3] == 0
    assert state.hands[1][JEWEL] == 1                        # the pair set went to the discard pile
    assert sum(state.zone) == 2 and state.discard.count(JEWEL) == 2


@pytest.mark.parametrize("value", ["true", "false"])
def test_the_summoner_must_set_a_card_only_under_the_ruling(value):
    state, rules = construction(hands="4; 3, 3; 3, 3", summoner_sets=value)
    assert state.legal_actions() == ([PASS] if value == "true" else [PASS, CALL])
    ready, _ = construction(summoner_sets=value)
    ready.apply_action(CALL)
    assert (("set", 0, 0) in ready.legal_actions()) == (value == "false")


@pytest.mark.parametrize("value", ["true", "false"])
def test_summoning_without_treasure(value):
    state, rules = construction(summon_needs_treasure=value)
    state.treasure[0] = 0
    assert (CALL in state.legal_actions()) == (value == "false")
    if value == "false":
        state.apply_action(CALL)
        assert state.treasure[0] == -rules.summon_cost


@pytest.mark.parametrize("value", ["true", "false"])
def test_one_construction_a_round_or_the_next_level_at_once(value):
    state, _ = construction(hands="3, 3, 3, 4, 4, 4; 3, 3, 4, 4; 4", one_construction=value)
    build(state, [(3, 0), (2, 0)])
    assert state.built == 3
    if value == "true":
        assert (state.round, state.phase) == (2, "swap")
    else:
        assert (state.round, state.phase, state.current_player()) == (1, "summon", 0)
        build(state, [(3, 0), (2, 0)])
        assert state.built == 4 and state.round == 1


@pytest.mark.parametrize("value", ["reshuffle", "stop"])
def test_an_empty_draw_pile_is_refilled_from_the_discard_pile_or_not(value):
    state, rules = construction(hands="3; 3; 3", zone="3, 3", empty_pile=value)
    state.pile = []
    state.discard = [1, 2, JEWEL, JEWEL, 5]                  # built levels 1-2 stay out of a new pile
    for _ in range(3):
        state.apply_action(PASS)                              # nobody summons: the next round draws
    drawn = sum(map(sum, state.hands)) - 3
    if value == "reshuffle":
        assert drawn == 3 and sorted(state.discard) == [1, 2]
    else:
        assert drawn == 0 and len(state.discard) == 5


@pytest.mark.parametrize("value", ["deal", "none"])
def test_the_starting_hand_is_dealt_or_not(value):
    rules = with_settings(RULES, {"starting_hand": value})
    state = ENGINE.new_game(rules, 4, random.Random(1))
    assert [sum(h) for h in state.hands] == [rules.draw + (rules.hand_size if value == "deal" else 0)] * 4


@pytest.mark.parametrize("value", ["rotate", "fixed"])
def test_the_first_player_passes_on_or_stays(value):
    rules = with_settings(RULES, {"turn_order": value})
    state = ENGINE.new_game(rules, 4, random.Random(1))
    firsts, players = {}, [ENGINE.policies["greedy"](random.Random(p)) for p in range(4)]
    while not state.is_terminal() and state.round <= 6:
        firsts.setdefault(state.round, state.first)
        state.apply_action(players[state.current_player()].choose(state, state.current_player()))
    steps = {(firsts[r + 1] - firsts[r]) % 4 for r in range(1, 6)}
    assert steps == ({1} if value == "rotate" else {0})
    assert state.seats()[firsts[1]] == 0


@pytest.mark.parametrize("value, shares", [("jewels", [0.0, 1.0, 0.0]), ("shared", [0.5, 0.5, 0.0])])
def test_a_tie_goes_to_more_jewels_or_is_shared(value, shares):
    state, _ = construction(hands="-; -; -", ties=value)
    state.treasure = [10, 8, 3]
    state.hands[1][JEWEL] = 2
    state.end = "complete"
    assert state.scores() == [10, 10, 3]
    assert state.returns() == shares


def test_every_ruling_the_engine_reads_is_in_the_data_and_no_other():
    tables = [name for name, spec in GAME.rulings.items() if isinstance(spec, dict)]
    assert sorted(tables) == sorted(RULINGS) == sorted(VARIANTS)
    for name in RULINGS:
        assert getattr(RULES, name) == GAME.rulings[name]["default"]


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace("rulings.ties", "rulings.draws"), "[rulings] lacks the ruling 'ties'"),
    (lambda t: t + '\n[rulings.speed]\ntitle = "S"\nseed = "s"\ndefault = true\nreason = "r"\n'
                   '[rulings.speed.options]\ntrue = "a"\nfalse = "b"\n', "[rulings.speed]: no such switch"),
    (lambda t: t.replace('shared = "The tied', 'split = "The tied'), "[rulings.ties]: the options are jewels, shared"),
    (lambda t: t.replace("jewel_points = 1", "jewel_points = 1\nspeed = 2"), "unknown rule 'speed'"),
])
def test_a_game_whose_rulings_differ_from_the_engines_is_refused(tmp_path, edit, message):
    folder = copy_builtin("temple-of-inscriptions", tmp_path / "game")
    toml = folder / "game.toml"
    toml.write_text(edit(toml.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(GameDataError) as caught:
        ENGINE.rules(load_game(folder), {}, "--set")
    assert message in str(caught.value)


@pytest.mark.parametrize("settings, message", [
    ({"speed": "2"}, "unknown key 'speed'; accepted keys: levels,"),
    ({"scoring": "per_level"}, "scoring takes one of per_card, per_player, not 'per_level'"),
    ({"one_construction": "maybe"}, "one_construction takes true or false"),
    ({"levels": "10"}, "levels takes a whole number from 1 to 9"),
    ({"count.Moonstone": "3"}, "no card named 'Moonstone'"),
    ({"count.Jade Jewel": "0", **{f"count.{n}": "0" for n in RULES.names[1:]}}, "the deck would hold no cards"),
])
def test_a_bad_setting_is_named(settings, message):
    with pytest.raises(OptionError) as caught:
        ENGINE.rules(GAME, settings, "--set")
    assert caught.value.option == "--set" and message in caught.value.message


def test_settings_change_the_numbers_the_deck_and_the_cap():
    rules = ENGINE.rules(GAME, {"levels": "4", "count.jade jewel": "2", "round_cap": "50", "draw": "3"}, "--set")
    assert (rules.levels, rules.counts[JEWEL], rules.round_cap, rules.draw) == (4, 2, 50, 3)
    assert len(rules.deck()) == 4 * 7 + 2 and ENGINE.changed_rules(rules) == ["levels", "count.Jade Jewel",
                                                                               "round_cap", "draw"]
    state = ENGINE.new_game(rules, 3, random.Random(4))
    players = [ENGINE.policies["cooperative"](random.Random(p)) for p in range(3)]
    while not state.is_terminal():
        state.apply_action(players[state.current_player()].choose(state, state.current_player()))
    assert state.end == "complete" and state.built == 4


def test_what_a_player_sees_and_a_redeal_of_what_they_do_not():
    state = ENGINE.new_game(RULES, 4, random.Random(9))
    players = [ENGINE.policies["greedy"](random.Random(p)) for p in range(4)]
    for _ in range(40):                                        # into the game: swaps, failed sets revealed
        state.apply_action(players[state.current_player()].choose(state, state.current_player()))
    seen = state.observation(2)
    json.dumps(seen)
    assert seen["hand"] == state.names(state.hands[2]) and "hands" not in seen
    other = state.resample(2, random.Random(1))
    assert other.observation(2) == seen                        # nothing player 3 can see has changed
    assert held(other) == held(state)
    for q in range(4):
        assert all(other.hands[q][k] >= state.known[q][k] for k in range(other.kinds))
        assert not any(other.hands[q][1:other.built + 1])
    assert any(other.hands[q] != state.hands[q] for q in (0, 1, 3)) or other.pile != state.pile
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert fingerprint(state) != fingerprint(copy) and state.observation(2) == seen


def test_actions_in_the_rulebooks_words():
    state, _ = construction()
    assert state.action_text(CALL) == "summon the builders for level 3 (pay 1 point)"
    assert state.action_text(PASS) == "pass (do not summon)"
    assert state.action_text(KEEP) == "keep your cards (no swap)"
    assert state.action_text(("swap", 9, 0)) == "swap: give Temple Roof, take Jade Jewel from the swap zone"
    assert state.action_text(("set", 2, 1)) == "set 2 Lower Terrace and 1 pair of Jade Jewel"
    assert state.action_text(("set", 0, 0)) == "set nothing"


def test_the_report_quotes_the_figures_of_the_games():
    records = []
    for seed in range(30):
        state = ENGINE.new_game(RULES, 4, random.Random(seed))
        players = [ENGINE.policies["greedy"](random.Random(p)) for p in range(4)]
        while not state.is_terminal():
            state.apply_action(players[state.current_player()].choose(state, state.current_player()))
        figures = ENGINE.figures(state)
        assert sum(figures["rounds_per_level"]) == figures["level_rounds"][-1] <= state.round
        assert figures["summons"] == figures["failed_summons"] + figures["levels"]
        records.append({"figures": figures})
    report = ENGINE.report(records)
    json.dumps(report)
    f = report["figures"]
    assert f["games"] == 30 and f["complete_games"] == sum(r["figures"]["complete"] for r in records)
    rounds = sum(r["figures"]["level_rounds"][-1] for r in records) / 30
    assert f["mean_rounds_to_complete"] == round(rounds, 2)
    assert report["tables"][0]["rows"][0][:3] == [1, "30", "100.0%"]
    assert f"after {f['mean_rounds_to_complete']} rounds on average" in report["findings"][0]
    assert report["cap_detail"] == ""
    stuck = ENGINE.new_game(with_settings(RULES, {"count.Foundation Stone": "4", "count.Jade Jewel": "0"}), 2,
                            random.Random(1))                      # 4 cards of level 1: it is never built
    players = [ENGINE.policies["greedy"](random.Random(p)) for p in range(2)]
    while not stuck.is_terminal():
        stuck.apply_action(players[stuck.current_player()].choose(stuck, stuck.current_player()))
    assert stuck.end == "stalled" and stuck.built == 0 and stuck.round == 1
    capped = ENGINE.report(records + [{"end": "cap", "figures": ENGINE.figures(stuck)}])
    assert capped["cap_detail"] == "they had built 0 levels on average, and 0.0% of their 0 summons had failed"


def _copy_of(rng: random.Random) -> random.Random:
    copy = random.Random()
    copy.setstate(rng.getstate())
    return copy


@pytest.mark.parametrize("owned", [False, True], ids=["a game's generator", "a resampled world's own"])
def test_a_clone_draws_what_a_copy_of_the_generator_would_whichever_side_draws_first(owned):
    # clone() lends a generator that only the states hold until one side draws (solver.engine.SharedRng), and
    # copies one handed in from outside at once: every side must still draw the numbers of a copy taken at the
    # clone, and the original keeps its generator object
    given = random.Random(4)
    state = ENGINE.new_game(RULES, 3, given)
    if owned:
        state = state.resample(0, random.Random(9))
        given = state.rng
    snapshot = _copy_of(given)
    first, second = state.clone(), state.clone()
    assert (first._rng is given) == owned                    # lent, not copied, only where no one else draws
    grand = first.clone()                                    # a clone of a clone
    pickled = pickle.loads(pickle.dumps(second))
    draws = [snapshot.random() for _ in range(3)]
    assert [state.rng.random() for _ in range(3)] == draws and state.rng is given   # the original draws first
    for other in (first, second, grand, pickled):
        assert other.rng is not given and [other.rng.random() for _ in range(3)] == draws
    snapshot = _copy_of(given)
    third = state.clone()
    ahead = [third.rng.random() for _ in range(2)]           # the clone draws first
    assert ahead == [state.rng.random() for _ in range(2)] == [snapshot.random() for _ in range(2)]
    assert state.rng is given and state.resample(0, random.Random(1)).rng is not given
    if not owned:                                            # a game's generator, drawn from outside the states
        snapshot = _copy_of(given)
        fourth = state.clone()
        given.random()
        assert [fourth.rng.random() for _ in range(2)] == [snapshot.random() for _ in range(2)]
