"""The game's measure of one action: what it does this turn, and which action is best.

The effect of an action (:class:`Effect`): whether it puts a player out of
the round, the leaves that enter another hut, the leaves the player's own hut
is spared (leaves swept by Clean, defenses laid by Protect, each worth one
leaf), the defenses it discards from another hut, and the cards it spends.
An attack that a Hunuc-Huar can cancel (its holders are known, as in a rule
check: each is taken to play it) does nothing but spend its winds.

The best action (:func:`key`, smaller is better) is, in this order:

1. the one that puts a player out of the round;
2. then the one that lets the most leaves into other huts;
3. then the one that spares the player's own hut the most leaves;
4. then the one that discards the most defenses from other huts;
5. then the one that spends the fewest cards;
6. then the attack on the hut left fullest;
7. then the first in the list of legal actions (attacks from the player on the left, fewer winds first).
"""

from __future__ import annotations

from typing import NamedTuple

from solver.ancestral.moves import ATTACK, CLEAN, DISCARD, PROTECT, Table

FIELDS_TEXT = {
    "out": "it puts a player out of the round",
    "enter": "it lets more leaves into other huts",
    "spared": "it spares your hut more leaves (swept, or stopped by defenses laid)",
    "broken": "it discards more defenses from other huts",
    "cards": "it spends fewer cards",
    "fullest": "tie-break: it attacks the hut left fullest",
    "order": "tie-break: it comes first in the list of actions",
}
MEASURE = ("The best action puts a player out of the round if one can; then lets the most leaves into other huts; "
           "then spares your own hut the most leaves (each leaf swept or defense laid counts one); then discards "
           "the most defenses from other huts; then spends the fewest cards. An attack that a Hunuc-Huar can "
           "cancel counts for nothing but its winds.")


class Effect(NamedTuple):
    out: int              # 1 when the action puts a player out of the round
    enter: int            # leaves that enter another hut
    spared: int           # leaves swept from the player's hut, or defenses laid in it
    broken: int           # defenses discarded from another hut
    cards: int            # cards the action spends from the hand
    fullest: int          # leaves in the attacked hut afterwards (0 for other actions)
    cancelled_by: tuple   # seats whose Hunuc-Huar can cancel the attack


def effect(table: Table, me: int, defense, leaves, action, holders=frozenset()) -> Effect:
    """What ``action`` by player ``me`` does, given each hut's defenses (bit masks) and leaf counts and the
    seats holding a Hunuc-Huar (``holders``)."""
    kind = action[0]
    if kind == ATTACK:
        _, t, winds, hit = action
        damage, cards = table.damage[winds]
        by = cancellers(table, me, t, holders)
        if by:
            return Effect(0, 0, 0, 0, cards, leaves[t], by)
        broken = table.popcount[hit]
        enter = min(damage - broken, table.lose - leaves[t])
        return Effect(int(leaves[t] + enter >= table.lose), enter, 0, broken, cards, leaves[t] + enter, ())
    if kind == PROTECT:
        laid = table.popcount[action[1]]
        return Effect(0, 0, laid, 0, laid, 0, ())
    if kind == CLEAN:
        return Effect(0, 0, action[1], 0, action[1], 0, ())
    if kind == DISCARD:
        return Effect(0, 0, 0, 0, sum(action[1]), 0, ())
    return Effect(0, 0, 0, 0, 0, 0, ())


def cancellers(table: Table, me: int, target: int, holders) -> tuple:
    """The seats that may cancel ``me``'s attack on ``target`` with the Hunuc-Huar they hold."""
    if table.rules.hunuc_huar_by == "target":
        return (target,) if target in holders else ()
    return tuple(sorted(q for q in holders if q != me))


def key(e: Effect, order: int) -> tuple:
    """The measure's order (smaller is better); ``order`` is the action's place in the list of legal actions."""
    return (-e.out, -e.enter, -e.spared, -e.broken, e.cards, -e.fullest, order)


KEY_FIELDS = ("out", "enter", "spared", "broken", "cards", "fullest", "order")
