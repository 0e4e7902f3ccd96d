"""The exact answers to the construction question, by exhaustive search (no OR-Tools).

For one round at the level being built, every player's cards come in three
classes: the level's construction cards (``C``), jewels (``J``) and the others
(``O``, which play no part in this construction).  A player is ``(c, j, o)``,
the swap zone too.

:func:`completion` answers whether the level can be completed this round, every
player co-operating: with the swaps still to come (each player, in turn from the
round's first player, may give one card to the zone and take one of another
class), the most cards the players can then set, and a way with the fewest
swaps, by a small dynamic programme over the zone's contents.

:func:`outcome` plays the construction with every hand open, each player doing
what is best for them: the summons in turn from the first player (unless the
summoner is given; pass, or summon when the player can set a card if the
summoner must), then the sets from the summoner, ``(cards, pairs)`` within the
limits, until the level has its cards.  A player's **gain**: the treasure a
completed level pays them (``scoring``), less the summoner's point when it is
lost (``summon_refund``), less ``jewel_points`` for each jewel set in a completed
level.  The **objective** is a switch: ``gain`` (their own gain) or ``margin``
(their gain less the best gain of another player).  From the last decision back,
each player takes the action with the highest objective, and among equal ones
the first of: pass before summon; fewer cards set before more, and for the same
number fewer jewel pairs.  It is exact: memoised backward induction over every
action.
"""

from __future__ import annotations

from dataclasses import dataclass

C, J, O = 0, 1, 2                     # the classes of card in one round
CLASS_ORDER = (J, C, O)               # the order swaps are tried in, for the class given and taken
GAIN, MARGIN = "gain", "margin"
OBJECTIVES = (MARGIN, GAIN)


@dataclass(frozen=True)
class Table:
    """What the search needs of the rules and the round."""

    level: int
    need: int                  # cards_per_level
    most: int                  # max_cards_per_player
    per_pair: int              # jewels_per_card
    jewel_points: int
    cost: int                  # summon_cost
    per_card: bool             # scoring == "per_card"
    refund: bool               # summon_refund
    must_set: bool             # summoner_sets
    objective: str

    @classmethod
    def of(cls, rules, level: int, objective: str) -> "Table":
        return cls(level=level, need=rules.cards_per_level, most=rules.max_cards_per_player,
                   per_pair=rules.jewels_per_card, jewel_points=rules.jewel_points, cost=rules.summon_cost,
                   per_card=rules.scoring == "per_card", refund=rules.summon_refund,
                   must_set=rules.summoner_sets, objective=objective)

    def capacity(self, hand) -> int:
        return min(self.most, hand[C] + hand[J] // self.per_pair)

    def value(self, gains, player: int) -> int:
        if self.objective == GAIN:
            return gains[player]
        return gains[player] - max(g for q, g in enumerate(gains) if q != player)


@dataclass(frozen=True)
class Outcome:
    """The construction played out: the summoner (None when nobody summons), each player's set (cards,
    pairs), whether the level was completed, and each player's gain."""

    summoner: int | None
    sets: tuple
    completed: bool
    gains: tuple


def set_options(t: Table, hand, total: int, summoner: bool) -> list[tuple[int, int]]:
    """A player's sets in the order of preference among equals: fewer cards first, then fewer pairs."""
    room = min(t.most, t.need - total)
    cards, pairs = min(hand[C], room), min(hand[J] // t.per_pair, room)
    least = 1 if summoner and t.must_set else 0
    return [(c, n - c) for n in range(least, min(room, cards + pairs) + 1)
            for c in range(min(cards, n), max(0, n - pairs) - 1, -1)]


def swap_options(hand, zone) -> list[tuple[int, int] | None]:
    return [None] + [(g, k) for g in CLASS_ORDER if hand[g] for k in CLASS_ORDER if k != g and zone[k]]


class Search:
    """Backward induction over the rest of a round (see the module's docstring)."""

    def __init__(self, t: Table, first: int, players: int):
        self.t, self.first, self.n = t, first, players
        self.zero = (0,) * players
        self._sets: dict = {}
        self._summons: dict = {}

    # the construction, from the summoner
    def construction(self, hands, summoner: int, base) -> tuple[tuple, bool, tuple]:
        """(sets by player, completed, gains) when ``summoner`` has summoned; ``base`` are the gains so far."""
        margin = self.t.objective == MARGIN       # a player's own gain does not hang on the others' base
        key = (hands, summoner, base if margin else None)
        found = self._sets.get(key)
        if found is None:
            found = self._sets[key] = Construction(self.t, hands, summoner, base if margin else self.zero).play()
        if margin:
            return found
        sets, completed, gains = found
        return sets, completed, tuple(g + b for g, b in zip(gains, base))

    def settable(self, hands) -> tuple:
        """Hands of (c, j) cut to what can be set: at most ``most`` cards and ``most`` pairs (the same
        choices, so the same answers, for fewer distinct hands)."""
        t = self.t
        return tuple((min(c, t.most), min(j // t.per_pair, t.most) * t.per_pair) for c, j, *_ in hands)

    def gains(self, order, chosen, completed: bool, base) -> tuple:
        """Each player's gain when the players in ``order`` set ``chosen`` (the summoner first)."""
        t = self.t
        gains = list(base)
        summoner = order[0]
        gains[summoner] -= t.cost
        if completed:
            if t.refund:
                gains[summoner] += t.cost
            for p, (c, pairs) in zip(order, chosen):
                if c or pairs:
                    gains[p] += t.level * (c + pairs) if t.per_card else t.level
                    gains[p] -= pairs * t.per_pair * t.jewel_points
        return tuple(gains)

    # the summons, from the first player
    def summons(self, hands, base, forced: int | None = None) -> Outcome:
        if forced is not None:
            if self.t.must_set and self.t.capacity(hands[forced]) < 1:      # no card to set: cannot summon
                return Outcome(None, ((0, 0),) * self.n, False, tuple(base))
            sets, completed, gains = self.construction(hands, forced, base)
            return Outcome(forced, sets, completed, gains)
        key = (hands, base)
        found = self._summons.get(key)
        if found is None:
            order = [(self.first + i) % self.n for i in range(self.n)]
            found = self._summons[key] = self._summon(hands, base, order, 0)
        return found

    def _summon(self, hands, base, order, k: int) -> Outcome:
        if k == len(order):
            return Outcome(None, ((0, 0),) * self.n, False, tuple(base))
        p = order[k]
        result = self._summon(hands, base, order, k + 1)            # pass
        if not self.t.must_set or self.t.capacity(hands[p]) >= 1:
            sets, completed, gains = self.construction(hands, p, base)
            if self.t.value(gains, p) > self.t.value(result.gains, p):
                result = Outcome(p, sets, completed, gains)
        return result


NONE = -10 ** 9      # the best gain among no players


class Construction:
    """The sets of one construction, from the summoner: backward induction in which what the later players
    choose depends only on the cards set so far and the best gain of the earlier players, completed or not
    (memoised on those)."""

    def __init__(self, t: Table, hands, summoner: int, base):
        n = len(hands)
        self.t, self.n = t, n
        self.order = [(summoner + i) % n for i in range(n)]
        self.hands = [hands[p] for p in self.order]
        self.base = [base[p] for p in self.order]
        # the best base gain of the players from position k on (who set nothing once the level is complete)
        self.after = [max(self.base[k:], default=NONE) for k in range(n + 1)]
        self.memo: dict = {}
        self._options: dict = {}

    def play(self) -> tuple[tuple, bool, tuple]:
        chosen, completed, _ = self.tail(0, 0, NONE, NONE)
        sets = [(0, 0)] * self.n
        for p, s in zip(self.order, chosen):
            sets[p] = s
        gains = list(self.base)
        for k, s in enumerate(chosen):
            gains[k] = self.won(k, s) if completed else self.lost(k)
        out = [0] * self.n
        for k, p in enumerate(self.order):
            out[p] = gains[k]
        return tuple(sets), completed, tuple(out)

    def won(self, k: int, option) -> int:
        """Player k's gain (k in the order from the summoner) when the level is completed."""
        t = self.t
        c, pairs = option
        gain = self.base[k]
        if c or pairs:
            gain += (t.level * (c + pairs) if t.per_card else t.level) - pairs * t.per_pair * t.jewel_points
        if k == 0 and not t.refund:
            gain -= t.cost
        return gain

    def lost(self, k: int) -> int:
        return self.base[k] - (self.t.cost if k == 0 else 0)

    def tail(self, k: int, total: int, won: int, lost: int):
        """(the sets of players k.., completed, the best gain among them) when the earlier players have set
        ``total`` cards and the best gain among them is ``won`` if the level is completed, ``lost`` if not."""
        key = (k, total, won, lost)
        found = self.memo.get(key)
        if found is None:
            best = None
            for option, score, rest, completed, mine, rest_best in self.scored(k, total, won, lost):
                if best is None or score > best[0]:
                    best = (score, (option,) + rest, completed, max(mine, rest_best))
            found = self.memo[key] = best[1:]
        return found

    def scored(self, k: int, total: int, won: int, lost: int) -> list[tuple]:
        """Player k's options, in the order of preference among equals, each with (option, its objective,
        the later players' sets, completed, player k's gain, the best gain of the later players)."""
        t = self.t
        margin = t.objective == MARGIN
        need, last = t.need, k + 1 == self.n
        mine_lost = self.lost(k)
        out = []
        for option in self.options(k, total):
            mine_won = self.won(k, option)
            now = total + option[0] + option[1]
            if now >= need:
                rest, completed, rest_best = (), True, self.after[k + 1]
            elif last:
                rest, completed, rest_best = (), False, NONE
            elif margin:
                rest, completed, rest_best = self.tail(k + 1, now, max(won, mine_won), max(lost, mine_lost))
            else:                           # what the others gain does not matter: one memo for any
                rest, completed, rest_best = self.tail(k + 1, now, NONE, NONE)
            mine = mine_won if completed else mine_lost
            score = mine - max(won if completed else lost, rest_best) if margin else mine
            out.append((option, score, rest, completed, mine, rest_best))
        return out

    def options(self, k: int, total: int) -> list[tuple[int, int]]:
        key = (k, total)
        found = self._options.get(key)
        if found is None:
            found = self._options[key] = set_options(self.t, self.hands[k], total, k == 0)
        return found


def outcome(t: Table, hands, first: int, summoner: int | None = None) -> Outcome:
    """The construction played out by players who each play for ``t.objective`` (``hands`` as (c, j, ...)
    counts; ``summoner`` is the player who summoned, None when the summons are still to come)."""
    search = Search(t, first, len(hands))
    return search.summons(search.settable(hands), (0,) * len(hands), summoner)


@dataclass(frozen=True)
class Completion:
    """Whether every player together can complete the level this round, and how: the swaps (by player),
    the summoner and the sets (cards, pairs) by player.  ``best`` is the most cards that can be set."""

    possible: bool
    best: int
    swaps: tuple
    summoner: int | None
    sets: tuple


def completion(t: Table, hands, zone, first: int, swaps: bool, summoner: int | None = None) -> Completion:
    """Can the level be completed this round? The way with the fewest swaps (among equals the first found,
    trying for each player in turn: keep, then swaps by the class given, J, C, O, and taken, in the same
    order), the construction cards set before jewel pairs (:func:`allocate`)."""
    n = len(hands)
    order = [(first + i) % n for i in range(n)]
    # states after the players so far: zone -> (room set, summoner able) -> (swaps made, moves)
    start = {tuple(zone): {(0, summoner is None or not t.must_set): (0, ())}}
    layer = start
    for p in order:
        nxt: dict = {}
        for z, table in layer.items():
            for (room, able), (made, moves) in table.items():
                options = swap_options(hands[p], z) if swaps else [None]
                for option in options:
                    hand, zz = list(hands[p]), list(z)
                    if option is not None:
                        give, take = option
                        hand[give] -= 1
                        zz[give] += 1
                        zz[take] -= 1
                        hand[take] += 1
                    cap = t.capacity(hand)
                    state = (min(t.need, room + cap), able or (p == summoner and cap >= 1))
                    entry = (made + (option is not None), moves + ((p, option, tuple(hand)),))
                    slot = nxt.setdefault(tuple(zz), {})
                    if state not in slot or entry[0] < slot[state][0]:
                        slot[state] = entry
        layer = nxt
    best, found = 0, None
    for z, table in layer.items():
        for (room, able), entry in table.items():
            if able:
                best = max(best, room)
                if room >= t.need and (found is None or entry[0] < found[0]):
                    found = entry
    if found is None:
        return Completion(False, best, (), None, ())
    moves = {p: option for p, option, _ in found[1]}
    after = {p: hand for p, _, hand in found[1]}
    if summoner is None:
        summoner = next(p for p in order if (t.capacity(after[p]) >= 1 or not t.must_set))
    return Completion(True, t.need, tuple(moves[p] for p in range(n)), summoner,
                      allocate(t, [after[p] for p in range(n)], summoner))


def allocate(t: Table, hands, summoner: int) -> tuple:
    """The cards each player sets to complete the level: construction cards first, in turn from the
    summoner, then jewel pairs; a summoner who must set a card and would set none takes one from the last
    player who set one."""
    n = len(hands)
    order = [(summoner + i) % n for i in range(n)]
    cards, pairs, left = [0] * n, [0] * n, t.need
    for p in order:
        cards[p] = min(hands[p][C], t.most, left)
        left -= cards[p]
    for p in order:
        pairs[p] = min(hands[p][J] // t.per_pair, t.most - cards[p], left)
        left -= pairs[p]
    if t.must_set and not cards[summoner] + pairs[summoner]:
        giver = next(p for p in reversed(order) if cards[p] + pairs[p])
        if pairs[giver]:
            pairs[giver] -= 1
        else:
            cards[giver] -= 1
        if hands[summoner][C]:
            cards[summoner] = 1
        else:
            pairs[summoner] = 1
    return tuple(zip(cards, pairs))
