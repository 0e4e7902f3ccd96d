"""Exact answers to Ancestral's turn question, for playtesters.

A position (:class:`Position`) is what the player whose turn it is knows, plus,
as in a rule check, which other players hold a Hunuc-Huar: their own hand,
every hut's leaves and defenses.  You are player 1; players 2, 3... follow in
turn order, to your left; only the players still in the round are given.

:func:`solve` lists every legal action with its effect and ranks them by the
game's measure (:mod:`.measure`: a player out first, then the most leaves in
other huts, then the most leaves spared, the most defenses discarded, the
fewest cards); :func:`check` judges a proposed play against the best;
:func:`position_state` deals the unseen cards at random into a State whose
turn it is (for a player that looks ahead).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from kitgen.errors import OptionError
from solver.ancestral.deck import SPECIAL
from solver.ancestral.measure import FIELDS_TEXT, KEY_FIELDS, MEASURE, Effect, effect, key
from solver.ancestral.moves import (
    ATTACK,
    DISCARD,
    PROTECT,
    Table,
    action_text,
    defense_text,
    leaves_text,
    parse_play,
    read_cards,
    table_for,
    turn_actions,
    turn_problem,
)
from solver.ancestral.rules import Rules, circulating, max_players
from solver.ancestral.state import State, new_game

OPTIMAL_FIELDS = 5     # the measure's fields; the rest of the key breaks ties
SHOWN = 8              # actions listed in the answer's lines
EXAMPLE_HAND = ("Strong Wind", "Hot Wind", "Quincha Defense", "South Breeze", "Hunuc-Huar Protection")


@dataclass(frozen=True)
class Position:
    """A turn to answer: the hand of player 1 (counts by kind) and every hut, in turn order."""

    players: int
    hand: tuple[int, ...]
    leaves: tuple[int, ...]
    defense: tuple[int, ...]          # bit masks of the kinds of protection in each hut
    holders: frozenset                # the other seats (from 0) holding a Hunuc-Huar


def position_fields(rules: Rules) -> list[dict]:
    """The fields of a position as data, for the command line's options and the web form."""
    deck = rules.deck
    most = max_players(rules)
    names = list(deck.names)
    protections = [deck.names[k] for k in deck.protections]
    special = _special_name(rules)
    example = [n for n in EXAMPLE_HAND if n in names][:rules.hand_size]
    return [
        {"name": "players", "label": "Players in the round", "kind": "number", "min": 2, "max": most,
         "default": most, "help": "You are player 1; players 2, 3... follow you in turn order, to your left."},
        {"name": "hand", "label": "Your hand", "kind": "cards", "choices": names, "default": example,
         "min": 0, "max": rules.hand_size,
         "help": f"Up to {rules.hand_size} cards, e.g. Strong Wind, Hot Wind, South Breeze."},
        {"name": "leaves", "label": "Leaves in each hut", "kind": "numbers", "min": 0,
         "max": rules.leaves_to_lose - 1, "default": [0] * most, "example": "0,3,1,0",
         "help": f"One number a player, yours first: 0 to {rules.leaves_to_lose - 1} (a hut with "
                 f"{rules.leaves_to_lose} is out)."},
        {"name": "defenses", "label": "Defenses in each hut", "kind": "player-cards", "choices": protections,
         "default": [[] for _ in range(most)],
         "help": "One list a player, yours first; at most one of each kind in a hut. As text: lists "
                 "separated by ';', e.g. 'Quincha Defense; ; Tree Curtain, Water Shield'."},
        {"name": "hunuc", "label": f"Players holding a {special}", "kind": "numbers", "min": 2, "max": most,
         "default": [], "example": "2,4", "card": special,
         "help": f"As in a rule check: the other players who could cancel an attack with a {special}."},
    ]


def _special_name(rules: Rules) -> str:
    specials = rules.deck.of(SPECIAL)
    return rules.deck.names[specials[0]] if specials else "Hunuc-Huar"


def read_position(raw: dict[str, Any], rules: Rules) -> Position:
    """A position checked from its fields (text or JSON values); a mistake is an OptionError naming the field."""
    fields = {f["name"]: f for f in position_fields(rules)}
    for name in raw:
        if name not in fields:
            raise OptionError(str(name), f"no such field of an Ancestral position; the fields are {', '.join(fields)}")
    value = {name: raw.get(name, f["default"]) for name, f in fields.items()}
    deck, table = rules.deck, table_for(rules)
    players = _number("players", value["players"], fields["players"])
    hand_counts = _card_list("hand", value["hand"], table)
    if sum(hand_counts.values()) > rules.hand_size:
        raise OptionError("hand", f"a hand holds at most {rules.hand_size} cards, not {sum(hand_counts.values())}")
    hand = tuple(hand_counts.get(k, 0) for k in range(deck.size))
    leaves = _per_player("leaves", value["leaves"], players, fields["leaves"])
    defense = _defenses(value["defenses"], players, table)
    holders = set()
    for p in _numbers("hunuc", value["hunuc"], fields["hunuc"]):
        if p > players:
            raise OptionError("hunuc", f"player {p} is not in a round of {players} players")
        holders.add(p - 1)
    position = Position(players, hand, tuple(leaves), tuple(defense), frozenset(holders))
    _check_cards(position, rules, table)
    return position


def _number(name: str, raw: Any, field: dict) -> int:
    text = str(raw).strip()
    if isinstance(raw, bool) or not text.lstrip("+").isdigit() or not text.isascii() or len(text) > 6 or \
            not field["min"] <= int(text) <= field["max"]:
        raise OptionError(name, f"takes a whole number from {field['min']} to {field['max']}, not {raw!r}")
    return int(text)


def _numbers(name: str, raw: Any, field: dict) -> list[int]:
    """Whole numbers given as a list or as text separated by commas, each within the field's bounds."""
    if raw is None:
        return []
    items = raw.split(",") if isinstance(raw, str) else raw
    if not isinstance(items, (list, tuple)) or len(items) > 100:
        raise OptionError(name, f"give whole numbers separated by commas, e.g. {field['example']}")
    items = [item for item in items if not (isinstance(item, str) and not item.strip())]
    return [_number(name, item, field) for item in items]


def _per_player(name: str, raw: Any, players: int, field: dict) -> list[int]:
    """One number a player (yours first); players not given have 0, players beyond the round none."""
    numbers = _numbers(name, raw, field)
    for p, n in enumerate(numbers[players:], start=players + 1):
        if n:
            raise OptionError(name, f"player {p} is not in a round of {players} players")
    return (numbers + [0] * players)[:players]


def _card_list(name: str, raw: Any, table: Table) -> dict[int, int]:
    if raw is None:
        return {}
    if isinstance(raw, (list, tuple)):
        if not all(isinstance(item, str) for item in raw):
            raise OptionError(name, "give card names, e.g. Strong Wind, Hot Wind")
        raw = ", ".join(raw)
    if not isinstance(raw, str):
        raise OptionError(name, "give card names, e.g. Strong Wind, Hot Wind")
    if not raw.strip():
        return {}
    if len(raw) > 2000:
        raise OptionError(name, f"{len(raw):,} characters is far too long for a list of cards")
    return read_cards(raw, table, name)


def _defenses(raw: Any, players: int, table: Table) -> list[int]:
    if isinstance(raw, str):
        raw = raw.split(";")
    if raw is None:
        raw = []
    if not isinstance(raw, (list, tuple)):
        raise OptionError("defenses", "give one list of defenses a player, yours first")
    lists = list(raw)
    for p, extra in enumerate(lists[players:], start=players + 1):
        if _card_list("defenses", extra, table):
            raise OptionError("defenses", f"player {p} is not in a round of {players} players")
    masks = []
    for p in range(players):
        counts = _card_list("defenses", lists[p] if p < len(lists) else [], table)
        mask = 0
        for k, c in counts.items():
            who = "your hut" if p == 0 else f"player {p + 1}'s hut"
            if k not in table.protections:
                raise OptionError("defenses", f"{table.names[k]} in {who} is not a defense "
                                              f"({', '.join(table.names[k] for k in table.protections)})")
            if c > 1:
                raise OptionError("defenses", f"{who} holds {c} {table.names[k]}: at most one of each kind")
            mask |= 1 << table.protections.index(k)
        masks.append(mask)
    return masks


def _check_cards(position: Position, rules: Rules, table: Table) -> None:
    """The cards a position shows, and the hands it implies, fit in the deck."""
    available = Counter(circulating(rules, position.players))
    shown = Counter({k: c for k, c in enumerate(position.hand) if c})
    for mask in position.defense:
        for i, k in enumerate(table.protections):
            if mask >> i & 1:
                shown[k] += 1
    for k, c in shown.items():
        if c > available[k]:
            raise OptionError("hand" if position.hand[k] else "defenses",
                              f"the position shows {c} {table.names[k]} but the game is played with {available[k]}")
    specials = sum(available[k] for k in table.specials) - sum(shown[k] for k in table.specials)
    if len(position.holders) > specials:
        name = _special_name(rules)
        marked = len(position.holders)
        raise OptionError("hunuc",
                          f"{marked} player{' is' if marked == 1 else 's are'} marked as holding a {name}, but "
                          f"only {specials} {name} {'is' if specials == 1 else 'are'} left once your hand is counted")
    needed = sum(position.leaves) + (position.players - 1) * rules.hand_size
    spare = sum(available.values()) - sum(shown.values())
    if needed > spare:
        raise OptionError("players", f"the other hands and the leaves take {needed} cards, but only {spare} are "
                                     "left once your hand and the defenses are counted")


# --- the answer ------------------------------------------------------------------------------

def ranked(position: Position, rules: Rules) -> list[tuple[tuple, Any, Effect]]:
    """Every legal action with its effect, best first: (key, action, effect)."""
    return list(_ranked(position, rules))


@lru_cache(maxsize=16)      # an answer, the best actions and a play's check of one position rank it once
def _ranked(position: Position, rules: Rules) -> tuple:
    table = table_for(rules)
    actions = turn_actions(table, position.hand, 0, [True] * position.players, position.defense, position.leaves[0])
    out = []
    for order, action in enumerate(actions):
        e = effect(table, 0, position.defense, position.leaves, action, position.holders)
        out.append((key(e, order), action, e))
    out.sort(key=lambda x: x[0])
    return tuple(out)


def effect_text(table: Table, action, e: Effect) -> str:
    """What an action does, in words."""
    if action[0] == ATTACK:
        target = action[1]
        if e.cancelled_by:
            who = " or ".join(f"player {q + 1}" for q in e.cancelled_by)
            return f"cancelled by the Hunuc-Huar of {who}: nothing happens"
        parts = []
        if e.broken:
            parts.append(f"{e.broken} defense{'s' if e.broken != 1 else ''} discarded")
        parts.append(f"{leaves_text(e.enter)} enter{'s' if e.enter == 1 else ''}")
        if e.out:
            parts.append(f"player {target + 1} is out of the round")
        else:
            parts.append(f"player {target + 1}'s hut holds {leaves_text(e.fullest)}")
        return ", ".join(parts)
    if action[0] == PROTECT:
        return f"{e.spared} defense{'s' if e.spared != 1 else ''} laid in your hut"
    if action[0] == DISCARD:
        return "no effect" if not e.cards else f"{e.cards} card{'s' if e.cards != 1 else ''} discarded, no effect"
    return f"{leaves_text(e.spared)} swept from your hut"


def _entry(table: Table, action, e: Effect, rank: int) -> dict:
    return {"rank": rank, "action": action_text(table, action), "effect": effect_text(table, action, e),
            "out": bool(e.out), "enter": e.enter, "spared": e.spared, "broken": e.broken, "cards": e.cards,
            "cancelled_by": [q + 1 for q in e.cancelled_by]}


def solve(position: Position, rules: Rules) -> dict:
    """Every legal action with its effect, and the best by the game's measure, with the lines that explain it."""
    table = table_for(rules)
    found = ranked(position, rules)
    best_key = found[0][0][:OPTIMAL_FIELDS]
    # every action's words are written once, for its entry, and read from there by the lines below
    entries = [_entry(table, a, e, i + 1) for i, (_, a, e) in enumerate(found)]
    best = [entries[i]["action"] for i, (k, _, _) in enumerate(found) if k[:OPTIMAL_FIELDS] == best_key]
    lines = position_lines(position, rules)
    first = found[0]
    lines.append(f"Best: {entries[0]['action']}: {entries[0]['effect']}.")
    if len(best) > 1:
        lines.append(f"{len(best) - 1} other action{'s are' if len(best) > 2 else ' is'} as good by the measure: "
                     + "; ".join(best[1:4]) + ("; ..." if len(best) > 4 else "."))
    worse = [i for i, (k, _, _) in enumerate(found) if k[:OPTIMAL_FIELDS] != best_key]
    if worse:
        field = _deciding(first[0], found[worse[0]][0])
        lines.append(f"Next best: {entries[worse[0]]['action']}: {entries[worse[0]]['effect']}.")
        lines.append(f"Why the best comes first: {FIELDS_TEXT[field]}.")
    else:
        lines.append("Why: every legal action is as good as it by the measure.")
    kinds = Counter(a[0] for _, a, _ in found)
    lines.append(f"{len(found)} legal actions: {kinds[ATTACK]} attacks, {kinds[PROTECT]} Protect, "
                 f"{kinds[2]} Clean, {kinds[DISCARD]} Discard.")
    for entry in entries[:SHOWN]:
        lines.append(f"  {entry['rank']}. {entry['action']}: {entry['effect']}")
    if len(entries) > SHOWN:
        lines.append(f"  ... and {len(entries) - SHOWN} more (fewer leaves, or more cards spent).")
    lines.append(f"Measure: {MEASURE}")
    return {"lines": lines, "best": best, "measure": MEASURE,
            "actions": entries, "changed_rules": list(rules.changed)}


def all_best(position: Position, rules: Rules) -> dict:
    """Every action that is best by the game's measure (``--all``), in the order :func:`solve` ranks them."""
    table = table_for(rules)
    found = ranked(position, rules)
    best_key = found[0][0][:OPTIMAL_FIELDS]
    best = [_entry(table, a, e, i + 1) for i, (k, a, e) in enumerate(found) if k[:OPTIMAL_FIELDS] == best_key]
    lines = [f"{len(best)} best action{'s' if len(best) != 1 else ''} by the measure, of {len(found)} legal:"]
    lines += [f"  {entry['action']}: {entry['effect']}" for entry in best]
    return {"lines": lines, "best": [entry["action"] for entry in best], "actions": best}


def _deciding(best: tuple, other: tuple) -> str:
    for name, a, b in zip(KEY_FIELDS, best, other):
        if a != b:
            return name
    return "order"


def position_lines(position: Position, rules: Rules) -> list[str]:
    table = table_for(rules)
    hand = ", ".join(table.names[k] for k, c in enumerate(position.hand) for _ in range(c)) or "(empty)"
    huts = []
    for p in range(position.players):
        who = "you" if p == 0 else f"player {p + 1}"
        text = f"{who}: {leaves_text(position.leaves[p])}, {defense_text(table, position.defense[p])}"
        if p in position.holders:
            text += f", holds a {_special_name(rules)}"
        huts.append(text)
    lines = [f"Your hand: {hand}", f"Huts: {'; '.join(huts)}"]
    if rules.changed:
        lines.append(f"Rules changed: {', '.join(rules.changed)}")
    return lines


def check(position: Position, play: str, rules: Rules, option: str = "--play") -> dict:
    """Whether a proposed play (text) is legal here, why, and how far it is from the best."""
    table = table_for(rules)
    action = complete(parse_play(play, table, position.players, option), position, table, option)
    found = ranked(position, rules)
    first = found[0]
    best = [a for k, a, _ in found if k[:OPTIMAL_FIELDS] == first[0][:OPTIMAL_FIELDS]]
    best_line = f"Best play: {action_text(table, first[1])}: {effect_text(table, first[1], first[2])}."
    problem = turn_problem(table, position.hand, 0, [True] * position.players, position.defense,
                           position.leaves[0], action)
    if problem:
        return {"legal": False, "reason": problem, "play": play, "optimal": False,
                "best": [action_text(table, a) for a in best], "lines": [f"Illegal play: {problem}.", best_line]}
    mine = next(x for x in found if x[1] == action)
    optimal = mine[0][:OPTIMAL_FIELDS] == first[0][:OPTIMAL_FIELDS]
    lines = [f"Legal play: {action_text(table, action)}: {effect_text(table, action, mine[2])}."]
    if optimal:
        lines.append("It is a best play by the measure.")
    else:
        field = _deciding(first[0], mine[0])
        lines.append(f"It is not the best: the best play {FIELDS_TEXT[field].removeprefix('it ')} "
                     f"({_gap(field, first[2], mine[2])}).")
    lines.append(best_line)
    return {"legal": True, "reason": "", "play": action_text(table, action), "optimal": optimal,
            "effect": _entry(table, action, mine[2], found.index(mine) + 1),
            "best": [action_text(table, a) for a in best], "lines": lines}


def _gap(field: str, best: Effect, mine: Effect) -> str:
    a, b = getattr(best, field), getattr(mine, field)
    if field == "out":
        return "this play puts nobody out"
    nouns = {"enter": "leaves in", "spared": "leaves spared", "broken": "defenses discarded", "cards": "cards spent",
             "fullest": "leaves in the hut attacked"}
    return f"{a} {nouns[field]} against {b}"


def complete(action, position: Position, table: Table, option: str):
    """An attack written without the defenses it discards: filled in when the attack discards every one
    (or none); when the attacker must choose, a clear error."""
    if action[0] != ATTACK or action[2] not in table.damage or not 0 <= action[1] < position.players:
        return action
    _, t, winds, hit = action
    mask = position.defense[t]
    used = min(table.damage[winds][0], table.popcount[mask])
    choices = table.hits[(mask, used)]
    if hit == 0 and used:
        if len(choices) == 1:
            return (ATTACK, t, winds, choices[0])
        options = " or ".join(f"'discarding {defense_text(table, c)}'" for c in choices)
        raise OptionError(option, f"the attack discards {used} of player {t + 1}'s defenses "
                                  f"({defense_text(table, mask)}): say which, e.g. {options}")
    return action


def position_state(position: Position, rules: Rules, rng: random.Random) -> State:
    """The position as a State on player 1's turn (seat 0): the cards player 1 cannot see dealt at random,
    each player marked as holding a Hunuc-Huar given one, the others none."""
    table = table_for(rules)
    state = new_game(rules, position.players, random.Random(rng.getrandbits(64)))
    pool = Counter(circulating(rules, position.players))
    pool.subtract({k: c for k, c in enumerate(position.hand) if c})
    for mask in position.defense:
        for i, k in enumerate(table.protections):
            if mask >> i & 1:
                pool[k] -= 1
    specials = [k for k in table.specials for _ in range(pool[k])]
    plain = [k for k, c in pool.items() if k not in table.specials for _ in range(c)]
    rng.shuffle(specials)
    rng.shuffle(plain)
    n, size = position.players, rules.hand_size
    hands = [list(position.hand)] + [[0] * table.kinds for _ in range(n - 1)]
    for p in sorted(position.holders):
        hands[p][specials.pop()] += 1
    for p in range(1, n):
        if p not in position.holders:
            for k in plain[:size]:
                hands[p][k] += 1
            del plain[:size]
    rest = plain + specials
    rng.shuffle(rest)
    for p in sorted(position.holders):
        need = size - sum(hands[p])
        for k in rest[:need]:
            hands[p][k] += 1
        del rest[:need]
    leaves = []
    for p in range(n):
        leaves.append(rest[:position.leaves[p]])
        del rest[:position.leaves[p]]
    state.hands, state.leaves, state.defense = hands, leaves, list(position.defense)
    state.deck, state.discard, state.seen = rest, [], [0] * table.kinds
    state.starter = state.mover = 0
    state.round_starters = [0]
    return state
