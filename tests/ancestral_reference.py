"""Exhaustive pure-Python reference for Ancestral's turn answers.

It enumerates every sub-multiset of the hand and asks of each what it can be:
an attack on each other player (all winds, of different kinds or not as the
ruling says, with each subset of the target's defenses it could discard), a
Protect (all defenses, of kinds not in the hut), a Clean (all breezes, no
more than the leaves) or a Discard (anything).  It works out each one's
effect from the rule numbers and ranks them by the measure.  It shares no
code with the engine's moves, measure or solver: from the engine it takes
only the Rules object (numbers, switches, the deck's roles) and the names of
the action kinds, so that actions can be compared.
"""

from __future__ import annotations

from itertools import combinations, product

from solver.ancestral.moves import ATTACK, CLEAN, DISCARD, PROTECT


def _kinds(rules, role):
    return [k for k, r in enumerate(rules.deck.roles) if r == role]


def all_actions(rules, hand, leaves, defenses, holders):
    """{action: (out, enter, spared, broken, cards)} for player 0's turn.

    ``hand`` counts cards by kind; ``leaves`` counts each player's leaves; ``defenses`` lists each player's
    kinds of protection as sets; ``holders`` are the seats holding a Hunuc-Huar."""
    winds, protections = _kinds(rules, "wind"), _kinds(rules, "protection")
    breezes = _kinds(rules, "breeze")
    players = len(leaves)
    found = {}
    for take in product(*(range(c + 1) for c in hand)):
        cards = sum(take)
        used = {k: c for k, c in enumerate(take) if c}
        # a Discard of anything; a pass only when the ruling allows it (or nothing is held)
        if cards or rules.pass_allowed or not any(hand):
            found[(DISCARD, tuple(take))] = (0, 0, 0, 0, cards)
        if not cards:
            continue
        if all(k in winds for k in used):
            if rules.damage_by == "kinds":
                ok = all(c == 1 for c in used.values()) and len(used) <= len(rules.damage)
                damage = rules.damage[len(used) - 1] if ok else None
            else:
                ok = cards <= len(rules.damage)
                damage = rules.damage[cards - 1] if ok else None
            if ok:
                for t in range(1, players):
                    if rules.hunuc_huar_by == "target":
                        cancelled = t in holders
                    else:
                        cancelled = any(q != 0 for q in holders)
                    have = sorted(defenses[t])
                    stopped = min(damage, len(have))
                    for hit in combinations(have, stopped):
                        mask = sum(1 << protections.index(k) for k in hit)
                        action = (ATTACK, t, tuple(take[k] for k in winds), mask)
                        if cancelled:
                            found[action] = (0, 0, 0, 0, cards)
                        else:
                            enter = min(damage - stopped, rules.leaves_to_lose - leaves[t])
                            out = int(leaves[t] + enter >= rules.leaves_to_lose)
                            found[action] = (out, enter, 0, stopped, cards)
        if all(k in protections for k in used) and all(c == 1 for c in used.values()) \
                and not set(used) & set(defenses[0]) and (rules.protect_many or cards == 1):
            mask = sum(1 << protections.index(k) for k in used)
            found[(PROTECT, mask)] = (0, 0, cards, 0, cards)
        if all(k in breezes for k in used) and cards <= leaves[0]:
            # which breeze cards are spent does not matter: one action per number of cards
            found[(CLEAN, cards)] = (0, 0, cards, 0, cards)
    return found


def rank(value) -> tuple:
    """The measure's order, smaller first: a player out, most leaves in, most spared, most broken, fewest cards."""
    out, enter, spared, broken, cards = value
    return (-out, -enter, -spared, -broken, cards)


def best(rules, hand, leaves, defenses, holders, found=None):
    """(the best rank, the set of actions that reach it); ``found``: :func:`all_actions` of this position,
    when the caller has it already."""
    found = all_actions(rules, hand, leaves, defenses, holders) if found is None else found
    top = min(rank(v) for v in found.values())
    return top, {a for a, v in found.items() if rank(v) == top}
