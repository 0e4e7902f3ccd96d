"""Ancestral's simple players, each a ``choose(state, player)`` over the engine's own state.

* ``random``: any legal move: one of the actions the hand allows (Attack,
  Protect, Clean, Discard), each as likely, then one of its forms at random;
  plays a Hunuc-Huar half the time.
* ``greedy``: the best action by the game's measure (:mod:`.measure`), not
  knowing who holds a Hunuc-Huar; when that is to pass, it discards the cards
  it cannot use this turn (Reference cards, defenses it cannot lay, breezes
  beyond its leaves) to draw others; plays a Hunuc-Huar when an attack on its
  own hut would let a leaf in.
* ``defensive``: sweeps its hut clean, then lays every defense it can, and
  only then plays as greedy does; plays a Hunuc-Huar against every attack on
  its own hut.

The greedy choice is made without listing every legal action (the
simulator's inner loop); the tests check it against the measure of the full
list.
"""

from __future__ import annotations

import random

from solver.ancestral.deck import REFERENCE
from solver.ancestral.moves import ATTACK, CLEAN, DISCARD, LET, PLAY, PROTECT, others

POLICY_HELP = {
    "random": "any legal move: Attack, Protect, Clean or Discard as likely as each other, then any form of it",
    "greedy": "the best action by the game's measure (a player out, then leaves in, spared, defenses broken, "
              "fewest cards), else discards what it cannot use; plays Hunuc-Huar when a leaf would enter its hut",
    "defensive": "sweeps its hut, then lays every defense it can, then plays as greedy; plays Hunuc-Huar "
                 "against every attack on it",
}


class Random:
    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, state, player: int):
        rng = self.rng
        if state.pending:
            return PLAY if rng.random() < 0.5 else LET
        table, hand = state.table, state.hands[player]
        choices = []
        plays = table.plays_held(hand)
        targets = others(player, state.in_round)
        if plays and targets:
            choices.append(ATTACK)
        free = table.mask_held(hand) & ~state.defense[player]
        if free:
            choices.append(PROTECT)
        most_clean = min(table.breezes_held(hand), len(state.leaves[player]))
        if most_clean:
            choices.append(CLEAN)
        choices.append(DISCARD)
        kind = rng.choice(choices)
        if kind == ATTACK:
            t = rng.choice(targets)
            winds, damage, _ = rng.choice(plays)
            mask = state.defense[t]
            hit = rng.choice(table.hits[(mask, min(damage, table.popcount[mask]))])
            return (ATTACK, t, winds, hit)
        if kind == PROTECT:
            bits = [1 << i for i in range(len(table.protections)) if free >> i & 1]
            if not state.rules.protect_many:
                return (PROTECT, rng.choice(bits))
            while True:
                mask = sum(b for b in bits if rng.random() < 0.5)
                if mask:
                    return (PROTECT, mask)
        if kind == CLEAN:
            return (CLEAN, rng.randint(1, most_clean))
        while True:
            counts = tuple(sum(rng.random() < 0.5 for _ in range(c)) for c in hand)
            if any(counts) or state.rules.pass_allowed or not any(hand):
                return (DISCARD, counts)


def best_turn(state, player: int):
    """The best action of ``player``'s turn by the game's measure, nobody taken to hold a Hunuc-Huar,
    ties going to the first in the list of legal actions (see :func:`solver.ancestral.moves.turn_actions`)."""
    table, hand = state.table, state.hands[player]
    lose, popcount, hits = table.lose, table.popcount, table.hits
    best, best_key = None, None
    plays = table.plays_held(hand)
    if plays:
        defense, leaves = state.defense, state.leaves
        for t in others(player, state.in_round):
            mask = defense[t]
            held = popcount[mask]
            before = len(leaves[t])
            room = lose - before
            for winds, damage, cards in plays:
                used = damage if damage < held else held
                enter = damage - used
                if enter > room:
                    enter = room
                k = (before + enter >= lose, enter, 0, used, -cards, before + enter)
                if best_key is None or k > best_key:
                    best_key, best = k, (ATTACK, t, winds, hits[(mask, used)][0])
    if best_key is not None and (best_key[0] or best_key[1]):
        return best
    free = table.mask_held(hand) & ~state.defense[player]
    if free:
        mask = free if state.rules.protect_many else free & -free
        laid = popcount[mask]
        k = (False, 0, laid, 0, -laid, 0)
        if best_key is None or k > best_key:
            best_key, best = k, (PROTECT, mask)
    most_clean = min(table.breezes_held(hand), len(state.leaves[player]))
    if most_clean:
        k = (False, 0, most_clean, 0, -most_clean, 0)
        if best_key is None or k > best_key:
            best_key, best = k, (CLEAN, most_clean)
    if best_key is None or best_key[:4] == (False, 0, 0, 0) and best_key[4] < -int(not state.rules.pass_allowed):
        return None        # no action does anything: a Discard is the best
    return best


class Greedy:
    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, state, player: int):
        if state.pending:
            return PLAY if _leaves_would_enter(state) else LET
        return best_turn(state, player) or dead_discard(state, player)


def _leaves_would_enter(state) -> bool:
    """Whether the attack waiting for an answer targets the player answering and would lay a leaf."""
    attacker, target, damage, hit, winds, answering, i = state.pending
    return answering[i] == target and damage > state.table.popcount[hit]


def dead_discard(state, player: int):
    """A Discard of the cards a hand cannot use this turn, to draw others: Reference cards, defenses of a kind
    already in the hut (and second copies of the others), breeze cards beyond the leaves in the hut; a pass
    when there are none (or, when passing is not allowed, one card of the first kind held)."""
    table, hand = state.table, state.hands[player]
    counts = [0] * table.kinds
    for k, role in enumerate(state.rules.deck.roles):
        if role == REFERENCE:
            counts[k] = hand[k]
    laid = state.defense[player]
    for i, k in enumerate(table.protections):
        counts[k] = hand[k] if laid >> i & 1 else max(0, hand[k] - 1)
    room = len(state.leaves[player])
    for k in table.breezes:
        counts[k] = max(0, hand[k] - room)
        room = max(0, room - hand[k])
    if not any(counts) and not state.rules.pass_allowed and any(hand):
        counts[next(k for k, c in enumerate(hand) if c)] = 1
    return (DISCARD, tuple(counts))


class Defensive:
    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, state, player: int):
        if state.pending:
            attacker, target, *_, answering, i = state.pending
            return PLAY if answering[i] == target else LET
        table, hand = state.table, state.hands[player]
        most_clean = min(table.breezes_held(hand), len(state.leaves[player]))
        if most_clean:
            return (CLEAN, most_clean)
        free = table.mask_held(hand) & ~state.defense[player]
        if free:
            return (PROTECT, free if state.rules.protect_many else free & -free)
        return best_turn(state, player) or dead_discard(state, player)


POLICIES = {"random": Random, "greedy": Greedy, "defensive": Defensive}
