"""The simple players of Temple of Inscriptions (each made with its own seeded ``random.Random``).

* ``random``      - any legal action, uniformly.
* ``greedy``      - takes the level's cards (else a jewel) from the swap zone; summons when it can set a
  card and the cards it cannot see make the level likely; sets every card of the level it holds, and
  jewel pairs when they pay at least what the jewels are worth or finish the level at a profit.
* ``cooperative`` - builds whatever it costs: takes the level's cards, summons whenever it can set a
  card, sets everything it can, jewels included.
* ``rival``       - plays as greedy, but as a helper it sets cards only when it takes at least as much
  as every other player who set cards: it never builds for a player who earns more from it.

They read the engine's own fields (hands by kind, the swap zone, the level); see
:mod:`solver.temple.state`.
"""

from __future__ import annotations

import random

from solver.temple.rules import JEWEL
from solver.temple.state import CALL, KEEP, PASS, SUMMON, SWAP, TempleState

HELP = {
    "random": "any legal action, uniformly at random",
    "greedy": "swaps for the level's cards, summons when the level looks likely, sets what pays it",
    "cooperative": "swaps for the level's cards, summons whenever it can set a card, sets everything it can",
    "rival": "as greedy, but never sets cards that earn another player more than itself",
}


class RandomPlayer:
    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, state: TempleState, player: int):
        actions = state.legal_actions()
        return actions[self.rng.randrange(len(actions))] if len(actions) > 1 else actions[0]


class GreedyPlayer:
    """See the module's docstring; ``rival`` and ``cooperative`` change two of its decisions."""

    cooperate = False      # summon whenever possible, set every card and pair
    rival = False          # as a helper, set nothing that earns another player more

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, state: TempleState, player: int):
        phase = state.phase
        if phase == SWAP:
            return self.swap(state, player)
        if phase == SUMMON:
            return self.summon(state, player)
        return self.set(state, player)

    def swap(self, s: TempleState, p: int):
        hand, zone, level = s.hands[p], s.zone, s.built + 1
        far = next((k for k in range(s.kinds - 1, level, -1) if hand[k]), 0)   # the highest card above the level
        if zone[level]:
            if far:
                return s.T.swaps[far][level]
            if hand[JEWEL] % s.R.jewels_per_card and hand[JEWEL] and (self.cooperate or level > s.R.jewel_points):
                return s.T.swaps[JEWEL][level]                                   # an odd jewel for a stone
        if zone[JEWEL] and far > level + 1:
            return s.T.swaps[far][JEWEL]
        return KEEP

    def summon(self, s: TempleState, p: int):
        if not s.may_summon(p):
            return PASS
        R, level, hand = s.R, s.built + 1, s.hands[p]
        mine = min(R.max_cards_per_player, hand[level] + hand[JEWEL] // R.jewels_per_card)
        if self.cooperate:
            return CALL if mine else PASS
        if not mine:
            return PASS
        # the level's cards and jewels this player cannot see, shared between the other hands and the pile
        others = sum(map(sum, s.hands)) - sum(hand)
        unseen_cards = others + len(s.pile)
        if not unseen_cards:
            return CALL if mine >= R.cards_per_level else PASS
        share = others / unseen_cards
        stones = R.counts[level] - hand[level] - s.zone[level]
        jewels = R.counts[JEWEL] - hand[JEWEL] - s.zone[JEWEL] - s.discard.count(JEWEL)
        expected = share * (stones + jewels / (2 * R.jewels_per_card))
        return CALL if mine + expected >= R.cards_per_level else PASS

    def set(self, s: TempleState, p: int):
        R, level, hand = s.R, s.built + 1, s.hands[p]
        room = min(R.max_cards_per_player, R.cards_per_level - s.total)
        cards = min(hand[level], room)
        pairs_held = hand[JEWEL] // R.jewels_per_card
        pairs = 0
        if self.cooperate:
            pairs = min(pairs_held, room - cards)
        else:
            worth = R.jewels_per_card * R.jewel_points              # what a pair is worth kept to the end
            pay = level if R.scoring == "per_card" else (level if not cards else 0)
            if pay >= worth:
                pairs = min(pairs_held, room - cards)
            elif s.total + cards + pairs_held >= R.cards_per_level and pairs_held >= room - cards:
                needed = R.cards_per_level - s.total - cards          # pairs that finish the level now
                gain = (level * (cards + needed) if R.scoring == "per_card" else level) - needed * worth
                if 0 < needed <= room - cards and gain > 0:
                    pairs = needed
        if p == s.summoner and R.summoner_sets and not cards + pairs:
            pairs = 1                                                 # a summoner with no stone sets a pair
        if self.rival and p != s.summoner and cards + pairs:
            mine = cards + pairs if R.scoring == "per_card" else 1
            best = max(((c + q) if R.scoring == "per_card" else 1)
                       for c, q in zip(s.set_cards, s.set_pairs) if c + q) if s.total else 0
            if mine < best:
                cards = pairs = 0
        return s.T.sets[cards][pairs]


class CooperativePlayer(GreedyPlayer):
    cooperate = True


class RivalPlayer(GreedyPlayer):
    rival = True


POLICIES = {"random": RandomPlayer, "greedy": GreedyPlayer, "cooperative": CooperativePlayer,
            "rival": RivalPlayer}
