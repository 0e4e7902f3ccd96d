"""A game of Temple of Inscriptions in progress, as the rules-engine protocol's State.

A round has three phases, each played by every player in turn from the round's
first player (the ``turn_order`` ruling says whether that role passes on):

1. **Draw** (chance, no decision): each player draws ``draw`` cards; a card of
   a level already built goes to the discard pile and another is drawn.  An
   empty pile is shuffled again from the discard pile, leaving out the cards of
   built levels (``empty_pile``: ``reshuffle``), or stays empty (``stop``).
2. **Swap**: each player keeps their cards or gives one card of their hand to the
   swap zone and takes one card of another kind from it.
3. **Construction**: each player summons or passes; the first to summon pays
   ``summon_cost`` (``summon_needs_treasure``: only from treasure they hold) and
   sets cards first (``summoner_sets``: at least one), then the others in turn,
   each once; a player sets construction cards of the level being built and
   jewels in pairs (``jewels_per_card``), at most ``max_cards_per_player`` in
   all, and the construction stops when the level has ``cards_per_level``.  A
   completed level pays (``scoring``), gives the summoner's point back
   (``summon_refund``), and discards the cards set and every card of that level
   in hands and the swap zone, which is refilled; otherwise the cards go back
   and the point is lost.  The round ends (``one_construction``, or the players
   are asked again for the next level).

The game ends when the last level is built ("complete").  It also ends
("stalled") when the level being built can never be completed: too few of its
cards and jewels are left in the game, or nobody can ever pay for a summons;
the rules name no such end, and the scores decide as at the end.  A player's
score is their treasure plus ``jewel_points`` for each jewel in hand; the most
points win (``ties``: more jewels, then shared).

Actions are small tuples: ``("keep",)``, ``("swap", give, take)`` (kinds),
``("summon",)``, ``("pass",)``, ``("set", cards, pairs)``.  Cards are kinds
(:data:`~solver.temple.rules.JEWEL` or a level); hands are counts by kind.
"""

from __future__ import annotations

import random
from typing import Hashable

from solver.engine import TERMINAL, IllegalMove, SharedRng, shares_of
from solver.temple.rules import JEWEL, Rules

SWAP, SUMMON, SET, OVER = "swap", "summon", "set", "over"
KEEP, PASS, CALL = ("keep",), ("pass",), ("summon",)
COMPLETE, STALLED = "complete", "stalled"


class Tables:
    """The action tuples of one rule set, made once (``swaps[give][take]``, ``sets[cards][pairs]``)."""

    def __init__(self, rules: Rules):
        kinds = rules.levels + 1
        self.swaps = [[("swap", g, t) for t in range(kinds)] for g in range(kinds)]
        most = rules.max_cards_per_player
        self.sets = [[("set", c, p) for p in range(most + 1)] for c in range(most + 1)]


_TABLES: dict[Rules, Tables] = {}


def tables_of(rules: Rules) -> Tables:
    found = _TABLES.get(rules)
    if found is None:
        found = _TABLES[rules] = Tables(rules)
    return found


class TempleState(SharedRng):
    """One game of Temple of Inscriptions (see the module's docstring for the rules played)."""

    def __init__(self, rules: Rules, players: int, rng: random.Random, *, deal: bool = True):
        if not 2 <= players:
            raise ValueError(f"Temple of Inscriptions takes at least 2 players, not {players}")
        self.R = rules
        self.T = tables_of(rules)
        self.players = players
        self.rng = rng
        self.round = 0
        self.end: str | None = None
        kinds = rules.levels + 1
        self.kinds = kinds
        self.hands = [[0] * kinds for _ in range(players)]
        self.zone = [0] * kinds
        self.pile: list[int] = []
        self.discard: list[int] = []
        self.built = 0
        self.treasure = [rules.start_treasure] * players
        self.first = 0
        self.first_seat = 0                       # the first player of round 1 (seat 0)
        self.phase = SWAP
        self.order: list[int] = []
        self.k = 0
        self.summoner: int | None = None
        self.set_cards = [0] * players
        self.set_pairs = [0] * players
        self.total = 0
        self.known = [[0] * kinds for _ in range(players)]   # cards everyone knows a player holds
        # figures of the game
        self.level_rounds: list[int] = []        # the round in which each level was built
        self.summons = 0
        self.failed = 0
        self.idle_rounds = 0                     # rounds in which nobody summoned
        self.summoner_gain = 0                   # points summoners took from their own constructions
        self.helper_gain = 0                     # points the other setters took
        self.helpers = 0                         # other players who set cards in completed constructions
        self.pairs_set = 0                       # jewel pairs used in completed constructions
        self.swaps_made = 0
        self._summoned_this_round = False
        if deal:
            self._setup()

    # --- setup and chance ---------------------------------------------------------------

    def _setup(self) -> None:
        R = self.R
        self.pile = R.deck()
        self.rng.shuffle(self.pile)
        if R.starting_hand == "deal":
            for p in range(self.players):
                for _ in range(R.hand_size):
                    kind = self._draw_one()
                    if kind is None:
                        break
                    self.hands[p][kind] += 1
        for _ in range(R.swap_zone):
            kind = self._draw_one()
            if kind is None:
                break
            self.zone[kind] += 1
        self.first = self.first_seat = self.rng.randrange(self.players)
        self._start_round()

    def _draw_one(self) -> int | None:
        """The top card of the pile, discarding cards of built levels; None when no card is left."""
        pile, built = self.pile, self.built
        while True:
            if not pile:
                if self.R.empty_pile != "reshuffle" or not self._reshuffle():
                    return None
            kind = pile.pop()
            if kind and kind <= built:
                self.discard.append(kind)
                continue
            return kind

    def _reshuffle(self) -> bool:
        """The discard pile's cards of levels not built become the pile, shuffled; False when there are none."""
        built = self.built
        keep = [k for k in self.discard if not k or k > built]
        if not keep:
            return False
        self.discard = [k for k in self.discard if k and k <= built]
        self.rng.shuffle(keep)
        self.pile.extend(keep)
        return True

    def _start_round(self) -> None:
        self.round += 1
        self._summoned_this_round = False
        n, first, draw = self.players, self.first, self.R.draw
        order = [(first + i) % n for i in range(n)]
        for p in order:
            hand = self.hands[p]
            for _ in range(draw):
                kind = self._draw_one()
                if kind is None:
                    break
                hand[kind] += 1
        self.phase, self.order, self.k = SWAP, order, 0

    # --- the protocol -------------------------------------------------------------------

    @property
    def level(self) -> int:
        """The level being built: the lowest not built yet."""
        return self.built + 1

    def current_player(self) -> int:
        return TERMINAL if self.end is not None else self.order[self.k]

    def is_terminal(self) -> bool:
        return self.end is not None

    def capacity(self, player: int) -> int:
        """The most cards ``player`` may set now (construction cards and jewel pairs, within both limits)."""
        hand = self.hands[player]
        R = self.R
        return min(hand[self.built + 1] + hand[JEWEL] // R.jewels_per_card, R.max_cards_per_player,
                   R.cards_per_level - self.total)

    def may_summon(self, player: int) -> bool:
        R = self.R
        if R.summon_needs_treasure and self.treasure[player] < R.summon_cost:
            return False
        if R.summoner_sets:
            hand = self.hands[player]
            return hand[self.built + 1] > 0 or hand[JEWEL] >= R.jewels_per_card
        return True

    def legal_actions(self) -> list[Hashable]:
        if self.end is not None:
            return []
        p = self.order[self.k]
        phase = self.phase
        if phase == SWAP:
            hand, zone, swaps = self.hands[p], self.zone, self.T.swaps
            takes = [t for t in range(self.kinds) if zone[t]]
            out = [KEEP]
            if takes:
                for g in range(self.kinds):
                    if hand[g]:
                        row = swaps[g]
                        out += [row[t] for t in takes if t != g]   # a list, not a generator: a third faster
            return out
        if phase == SUMMON:
            return [PASS, CALL] if self.may_summon(p) else [PASS]
        hand, R, sets = self.hands[p], self.R, self.T.sets
        room = min(R.max_cards_per_player, R.cards_per_level - self.total)
        cards = min(hand[self.built + 1], room)
        pairs = min(hand[JEWEL] // R.jewels_per_card, room)
        least = 1 if (p == self.summoner and R.summoner_sets) else 0
        return [sets[c][t - c] for t in range(least, min(room, cards + pairs) + 1)
                for c in range(min(cards, t), max(0, t - pairs) - 1, -1)]

    def apply_action(self, action: Hashable) -> None:
        if self.end is not None:
            raise IllegalMove("the game is over")
        p = self.order[self.k]
        phase = self.phase
        try:
            tag = action[0]
        except (TypeError, IndexError, KeyError):
            raise IllegalMove(f"player {p + 1}: {action!r} is not an action") from None
        if phase == SWAP:
            if action == KEEP:
                self._next_swap()
                return
            if tag != "swap" or len(action) != 3:
                raise IllegalMove(f"player {p + 1}: the swap phase takes keep or swap, not {action!r}")
            give, take = action[1], action[2]
            hand, zone = self.hands[p], self.zone
            if not (isinstance(give, int) and isinstance(take, int) and 0 <= give < self.kinds
                    and 0 <= take < self.kinds) or give == take or not hand[give] or not zone[take]:
                raise IllegalMove(f"player {p + 1}: cannot swap {action!r} (the hand must hold the card given "
                                  f"and the swap zone the other card taken)")
            hand[give] -= 1
            zone[give] += 1
            zone[take] -= 1
            hand[take] += 1
            known = self.known[p]
            if known[give]:
                known[give] -= 1
            known[take] += 1
            self.swaps_made += 1
            self._next_swap()
            return
        if phase == SUMMON:
            if action == PASS:
                self.k += 1
                if self.k == self.players:
                    if not self._summoned_this_round:
                        self.idle_rounds += 1
                    self._end_round()
                return
            if action != CALL:
                raise IllegalMove(f"player {p + 1}: the construction phase takes summon or pass, not {action!r}")
            if not self.may_summon(p):
                raise IllegalMove(f"player {p + 1} cannot summon: "
                                  + ("no treasure to pay with" if self.R.summon_needs_treasure
                                     and self.treasure[p] < self.R.summon_cost
                                     else f"no card to set for level {self.level}"))
            self._summon(p)
            return
        # SET
        if tag != "set" or len(action) != 3 or not self._may_set(p, action):
            raise IllegalMove(f"player {p + 1}: cannot set {action!r} for level {self.level}: "
                              f"{self._set_problem(p, action)}")
        cards, pairs = action[1], action[2]
        self.set_cards[p], self.set_pairs[p] = cards, pairs
        self.total += cards + pairs
        if cards or pairs:
            known = self.known[p]
            level = self.built + 1
            known[level] = max(known[level], cards)
            known[JEWEL] = max(known[JEWEL], pairs * self.R.jewels_per_card)
        if self.total >= self.R.cards_per_level:
            self._complete()
            return
        self.k += 1
        if self.k == self.players:
            self._fail()

    def _may_set(self, p: int, action: tuple) -> bool:
        """Whether ``action`` (tagged "set", of length 3) is among ``legal_actions()``, without listing them: a
        playout's every set is checked.  Anything but a tuple of two ints is compared with the list."""
        cards, pairs = action[1], action[2]
        if type(action) is not tuple or type(cards) is not int or type(pairs) is not int:
            return action in self.legal_actions()
        hand, R = self.hands[p], self.R
        room = min(R.max_cards_per_player, R.cards_per_level - self.total)
        least = 1 if (p == self.summoner and R.summoner_sets) else 0
        return (0 <= cards <= hand[self.built + 1] and 0 <= pairs <= hand[JEWEL] // R.jewels_per_card
                and least <= cards + pairs <= room)

    def _set_problem(self, p: int, action) -> str:
        R = self.R
        if not (len(action) == 3 and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0
                                          for x in action[1:])):
            return "a set is ('set', construction cards, jewel pairs)"
        cards, pairs = action[1], action[2]
        hand = self.hands[p]
        if cards > hand[self.level]:
            return f"the hand holds {hand[self.level]} {R.names[self.level]}"
        if pairs * R.jewels_per_card > hand[JEWEL]:
            return f"the hand holds {hand[JEWEL]} {R.jewel_name}"
        if cards + pairs > R.max_cards_per_player:
            return f"a player sets at most {R.max_cards_per_player} cards"
        if cards + pairs > R.cards_per_level - self.total:
            return f"the level needs only {R.cards_per_level - self.total} more"
        return "the summoner must set at least one card"

    def _next_swap(self) -> None:
        self.k += 1
        if self.k == self.players:
            self.phase, self.k = SUMMON, 0

    def _summon(self, p: int) -> None:
        R = self.R
        self.treasure[p] -= R.summon_cost
        self.summons += 1
        self._summoned_this_round = True
        self.summoner = p
        n = self.players
        self.phase, self.order, self.k = SET, [(p + i) % n for i in range(n)], 0
        self.set_cards = [0] * n
        self.set_pairs = [0] * n
        self.total = 0

    def _complete(self) -> None:
        R = self.R
        level = self.built + 1
        per_card = R.scoring == "per_card"
        jpc = R.jewels_per_card
        summoner = self.summoner
        hands, discard = self.hands, self.discard
        for q in range(self.players):
            cards, pairs = self.set_cards[q], self.set_pairs[q]
            if cards or pairs:
                gain = level * (cards + pairs) if per_card else level
                self.treasure[q] += gain
                if q == summoner:
                    self.summoner_gain += gain
                else:
                    self.helper_gain += gain
                    self.helpers += 1
                hand = hands[q]
                if pairs:
                    hand[JEWEL] -= pairs * jpc
                    discard.extend([JEWEL] * (pairs * jpc))
                    known = self.known[q]
                    known[JEWEL] = max(0, known[JEWEL] - pairs * jpc)
                    self.pairs_set += pairs
        if R.summon_refund:
            self.treasure[summoner] += R.summon_cost
        for q in range(self.players):     # every card of the level still held, set or not, is discarded
            left = hands[q][level]
            if left:
                discard.extend([level] * left)
                hands[q][level] = 0
            self.known[q][level] = 0
        removed = self.zone[level]
        if removed:
            discard.extend([level] * removed)
            self.zone[level] = 0
        self.built = level
        self.level_rounds.append(self.round)
        self.summoner = None
        self.total = 0
        if level >= R.levels:
            self.end = COMPLETE
            return
        for _ in range(removed):
            kind = self._draw_one()
            if kind is None:
                break
            self.zone[kind] += 1
        if R.one_construction:
            self._end_round()
        else:
            n = self.players
            self.phase, self.order, self.k = SUMMON, [(self.first + i) % n for i in range(n)], 0

    def _fail(self) -> None:
        self.failed += 1                          # the cards set stay in the hands; the point paid is lost
        self.summoner = None
        self.total = 0
        self._end_round()

    def _end_round(self) -> None:
        if self.R.turn_order == "rotate":
            self.first = (self.first + 1) % self.players
        if self._stalled():
            self.end = STALLED
            return
        self._start_round()

    def _stalled(self) -> bool:
        """Whether the level being built can never be completed (see the module's docstring)."""
        R = self.R
        if R.summon_needs_treasure and R.summon_cost and max(self.treasure) < R.summon_cost:
            return True
        if self.players * R.max_cards_per_player < R.cards_per_level:
            return True
        level = self.built + 1
        cards = self.zone[level] + sum(h[level] for h in self.hands) + self.pile.count(level)
        jewels = self.zone[JEWEL] + sum(h[JEWEL] for h in self.hands) + self.pile.count(JEWEL)
        if R.empty_pile == "reshuffle":
            jewels += self.discard.count(JEWEL)
        if cards + jewels // R.jewels_per_card >= R.cards_per_level:
            return False
        return True

    # --- scores and the end ---------------------------------------------------------------

    def scores(self) -> list[float]:
        points = self.R.jewel_points
        return [t + points * h[JEWEL] for t, h in zip(self.treasure, self.hands)]

    def winners(self) -> list[int]:
        scores = self.scores()
        top = max(scores)
        best = [p for p, s in enumerate(scores) if s == top]
        if len(best) > 1 and self.R.ties == "jewels":
            most = max(self.hands[p][JEWEL] for p in best)
            best = [p for p in best if self.hands[p][JEWEL] == most]
        return best

    def returns(self) -> list[float]:
        return shares_of(self.winners(), self.players)

    def seats(self) -> list[int]:
        """Each player's seat: 0 is the first player of round 1, then clockwise."""
        return [(p - self.first_seat) % self.players for p in range(self.players)]

    # --- copies and what a player sees ------------------------------------------------------

    def clone(self) -> "TempleState":
        other = self._copy()
        self.lend_rng(other)
        return other

    def _copy(self) -> "TempleState":
        """A copy of the table, its generator still to be given (``clone`` lends it, ``resample`` deals anew)."""
        other = TempleState.__new__(TempleState)
        other.__dict__.update(self.__dict__)
        other._rng_lent = None
        other.hands = [list(h) for h in self.hands]
        other.known = [list(h) for h in self.known]
        other.zone = list(self.zone)
        other.pile = list(self.pile)
        other.discard = list(self.discard)
        other.treasure = list(self.treasure)
        other.order = list(self.order)
        other.set_cards = list(self.set_cards)
        other.set_pairs = list(self.set_pairs)
        other.level_rounds = list(self.level_rounds)
        return other

    def names(self, counts) -> list[str]:
        """Card names of a count list (kind order)."""
        names, out = self.R.names, []
        for kind, n in enumerate(counts):
            if n > 0:   # a kind's copies in one step, not one comprehension turn each
                out += [names[kind]] * n
        return out

    def observation(self, player: int) -> dict:
        R = self.R
        return {
            "player": player,
            "round": self.round,
            "phase": self.phase if self.end is None else OVER,
            "level": min(self.built + 1, R.levels),
            "built": self.built,
            "first_player": self.first,
            "current_player": self.current_player(),
            "hand": self.names(self.hands[player]),
            "hand_sizes": [sum(h) for h in self.hands],
            "known_cards": [self.names(k) for k in self.known],
            "swap_zone": self.names(self.zone),
            "treasure": list(self.treasure),
            "draw_pile": len(self.pile),
            "discard_pile": self.names([self.discard.count(kind) for kind in range(self.kinds)]),
            "summoner": self.summoner,
            "set": [{"cards": c, "pairs": p} for c, p in zip(self.set_cards, self.set_pairs)]
            if self.phase == SET else [],
            "end": self.end,
        }

    def resample(self, player: int, rng: random.Random) -> "TempleState":
        """A clone in which the other players' cards that nobody has seen and the draw pile are dealt again
        with ``rng``: each player keeps the cards everyone knows they hold and their hand size, and no hand
        gets a card of a built level."""
        other = self._copy()
        other.own_rng(random.Random(rng.getrandbits(64)))     # its own: its clones may share it
        built = other.built
        pool: list[int] = list(other.pile)
        hidden: dict[int, int] = {}
        for q in range(other.players):
            if q == player:
                continue
            hand, known = other.hands[q], other.known[q]
            hidden[q] = 0
            for kind in range(other.kinds):
                unseen = hand[kind] - min(known[kind], hand[kind])
                if unseen:
                    pool.extend([kind] * unseen)
                    hand[kind] -= unseen
                    hidden[q] += unseen
        rng.shuffle(pool)
        playable = [k for k in pool if not k or k > built]
        dead = [k for k in pool if k and k <= built]
        for q, count in hidden.items():
            hand = other.hands[q]
            for _ in range(count):
                hand[playable.pop()] += 1
        other.pile = playable + dead
        rng.shuffle(other.pile)
        return other

    # --- words ---------------------------------------------------------------------------------

    def action_text(self, action: Hashable) -> str:
        return action_text(self.R, action, self.built + 1)


def action_text(rules: Rules, action, level: int) -> str:
    """An action in the rulebook's words."""
    names = rules.names
    tag = action[0] if isinstance(action, tuple) and action else None
    if action == KEEP:
        return "keep your cards (no swap)"
    if tag == "swap" and len(action) == 3:
        return f"swap: give {names[action[1]]}, take {names[action[2]]} from the swap zone"
    if action == CALL:
        return f"summon the builders for level {level} (pay {rules.summon_cost} point)"
    if action == PASS:
        return "pass (do not summon)"
    if tag == "set" and len(action) == 3:
        return "set " + set_words(rules, level, action[1], action[2])
    return repr(action)


def set_words(rules: Rules, level: int, cards: int, pairs: int) -> str:
    """``2 Lower Terrace and 1 pair of Jade Jewel`` (``nothing`` for no card)."""
    parts = []
    if cards:
        parts.append(f"{cards} {rules.names[level]}")
    if pairs:
        parts.append(f"{pairs} {'pair' if pairs == 1 else 'pairs'} of {rules.jewel_name}"
                     if rules.jewels_per_card == 2 else f"{pairs * rules.jewels_per_card} {rules.jewel_name}")
    return " and ".join(parts) or "nothing"
