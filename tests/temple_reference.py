"""Exhaustive pure-Python reference for Temple of Inscriptions' construction question.

Written from the rulebook, sharing no code with :mod:`solver.temple.search`.

:func:`best_play` walks the whole construction move by move (the summons from
the first player unless the summoner is given, then the sets from the summoner)
over explicit states, and scores each end by replaying it: the treasure a
completed level pays, the summoner's point, and the worth of the jewels each
player holds at the end against what they held at the start.  Among equally
good moves a player takes the first of: pass, then summon; fewer cards set,
then fewer jewel pairs among sets of the same size.

:func:`can_complete` tries every sequence of swaps (each player in turn from the
first player keeps, or gives one card and takes one of another class from the
zone), and then adds up what each player may set.

A hand is reduced to three counts: cards of the level being built, jewels, and
any other card (no other card plays a part in this round).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import NamedTuple

LEVEL, JEWEL, OTHER = "level", "jewel", "other"
ORDER = (JEWEL, LEVEL, OTHER)


class Rules(NamedTuple):
    level: int
    need: int
    most: int
    per_pair: int
    jewel_points: int
    cost: int
    per_card: bool
    refund: bool
    must_set: bool
    margin: bool


class Hand(NamedTuple):
    level: int
    jewel: int
    other: int

    def count(self, cls: str) -> int:
        return getattr(self, cls)

    def moved(self, give: str, take: str) -> "Hand":
        counts = self._asdict()
        counts[give] -= 1
        counts[take] += 1
        return Hand(**counts)


class Node(NamedTuple):
    phase: str                    # "summon", "set", "end"
    turn: int                     # how many players have played this phase
    summoner: int | None
    sets: tuple                   # (cards, pairs) per player, in player order


def can_set(r: Rules, hand: Hand) -> int:
    return min(r.most, hand.level + hand.jewel // r.per_pair)


def seated(first: int, n: int) -> list[int]:
    return [(first + i) % n for i in range(n)]


def best_play(r: Rules, hands, first: int, summoner=None):
    """(gains, the end node) of the construction when every player plays their best in turn."""
    hands = tuple(Hand(*h[:3]) for h in hands)
    n = len(hands)

    def moves(node: Node):
        if node.phase == "summon":
            p = (first + node.turn) % n             # the seat node.turn places after the first player
            options = [("pass",)]
            if not r.must_set or can_set(r, hands[p]) > 0:
                options.append(("summon",))
            return p, options
        p = (node.summoner + node.turn) % n
        room = min(r.most, r.need - sum(map(sum, node.sets)))
        options = [("set", c, q) for c in range(hands[p].level + 1) for q in range(hands[p].jewel // r.per_pair + 1)
                   if c + q <= room and not (node.turn == 0 and r.must_set and c + q == 0)]
        options.sort(key=lambda m: (m[1] + m[2], m[2]))
        return p, options

    def after(node: Node, player: int, move) -> Node:
        phase, turn, summoner, sets = node
        if move[0] == "pass":
            return Node("end", turn, summoner, sets) if turn + 1 == n else Node(phase, turn + 1, summoner, sets)
        if move[0] == "summon":
            return Node("set", 0, player, ((0, 0),) * n)
        sets = list(sets)
        sets[player] = move[1:]
        if sum(map(sum, sets)) >= r.need or turn + 1 == n:
            return Node("end", turn, summoner, tuple(sets))
        return Node(phase, turn + 1, summoner, tuple(sets))

    def points(node: Node) -> tuple:
        treasure, jewels = [0] * n, [h.jewel for h in hands]
        if node.summoner is not None:
            treasure[node.summoner] -= r.cost
            if sum(map(sum, node.sets)) >= r.need:
                if r.refund:
                    treasure[node.summoner] += r.cost
                for p, (cards, pairs) in enumerate(node.sets):
                    if cards + pairs:
                        treasure[p] += r.level * (cards + pairs) if r.per_card else r.level
                        jewels[p] -= pairs * r.per_pair
        return tuple(treasure[p] + r.jewel_points * (jewels[p] - hands[p].jewel) for p in range(n))

    @lru_cache(maxsize=None)
    def walk(node: Node):
        if node.phase == "end":
            return points(node), node
        player, options = moves(node)
        best, most = None, None
        for move in options:
            gains, end = walk(after(node, player, move))
            value = worth(r, gains, player)
            if best is None or value > most:        # the first of equally good moves is kept
                best, most = (gains, end), value
        return best

    if summoner is not None:
        if r.must_set and can_set(r, hands[summoner]) == 0:
            return (0,) * n, Node("end", 0, None, ((0, 0),) * n)
        return walk(Node("set", 0, summoner, ((0, 0),) * n))
    return walk(Node("summon", 0, None, ((0, 0),) * n))


def worth(r: Rules, gains: tuple, player: int) -> int:
    if not r.margin:
        return gains[player]
    return gains[player] - max(g for q, g in enumerate(gains) if q != player)


def can_complete(r: Rules, hands, zone, first: int, swaps: bool, summoner=None):
    """(possible, most cards that can be set, fewest swaps of a way that completes it or None): every
    sequence of swaps is tried; after it, the players can set at most the sum of what each may set (the
    summoner, when given and bound to set a card, at least one)."""
    n = len(hands)
    order = seated(first, n)
    results = []

    def sequences(k, hands_now, zone_now, made):
        if k == n:
            results.append((hands_now, made))
            return
        p = order[k]
        sequences(k + 1, hands_now, zone_now, made)
        if not swaps:
            return
        for give, take in product(ORDER, ORDER):
            if give != take and hands_now[p].count(give) and zone_now.count(take):
                changed = list(hands_now)
                changed[p] = hands_now[p].moved(give, take)
                sequences(k + 1, tuple(changed), zone_now.moved(take, give), made + 1)

    sequences(0, tuple(Hand(*h[:3]) for h in hands), Hand(*zone), 0)
    most, fewest = 0, None
    for hands_now, made in results:
        if summoner is not None and r.must_set and can_set(r, hands_now[summoner]) == 0:
            continue
        total = min(r.need, sum(can_set(r, h) for h in hands_now))
        most = max(most, total)
        if total >= r.need and (fewest is None or made < fewest):
            fewest = made
    return fewest is not None, most, fewest
