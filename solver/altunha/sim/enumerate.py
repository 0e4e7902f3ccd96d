"""The exact Farm + Build optimum by enumeration, fast enough for the simulator's inner loop.

Only card values matter for Farm and Build, so a hand is summarised as counts
of each Bid value, the number of God cards and whether Maize is held, and the
table as counts of temple tops.  Results are memoised on that summary.

The rule numbers, the switches and what is legal come from
:mod:`solver.altunha.rules` (the turn solver's rules model); the rules are part
of every memo key.  The ordering of plans is the turn solver's under its ``fewer_cards``
preference (the simulator's players prefer it): avoid famine whenever any Farm
is possible; then the most points; then the fewest Farm cards; then the lowest
Farm value, each card weighed by :func:`solver.altunha.rules.farm_cost` (a God
card ``max value + 1``, the feed card ``max value + 2``).  Ties then go as in
the turn solver's plan key: fewer Build cards, fewer God cards in the Build,
Farm values closer together (smaller sum of squares), then the first in
enumeration order.

Tokens: a Bid value ``v`` (1..max), :data:`GOD` or :data:`FEED`.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import accumulate, combinations_with_replacement
from typing import NamedTuple

from solver.altunha.cards import FEED as CARD_FEED
from solver.altunha.cards import GOD as CARD_GOD
from solver.altunha.rules import BUILT, FAMINE, FIELD_TYPES, Rules, build_points, can_place, farm_cost, no_build_outcome

GOD = -1
FEED = 0


class Turn(NamedTuple):
    outcome: str                      # "built" | "declined_to_build" | "unable_to_build" | "famine"
    points: int                       # the score change of the turn
    farm: tuple[int, ...]             # tokens discarded to farm
    build: tuple[tuple[int, int], ...]  # (token, value placed), in order


def _value_counts(values, tops, cap: int, r: Rules):
    """How many Bid cards of each value (at most ``cap`` of one value count) and temple tops of each
    value (those a card can still go on, at most ``max_build_cards`` of one value)."""
    top = r.max_stage
    counts = [0] * (top + 1)
    for v in values:
        if counts[v] < cap:
            counts[v] += 1
    top_counts = [0] * (top + 1)
    most = r.max_build_cards
    for t in tops:
        if t < top and top_counts[t] < most:
            top_counts[t] += 1
    return tuple(counts), tuple(top_counts)


def _without(counts, gods: int, tokens) -> tuple[tuple[int, ...], int]:
    """The Bid counts and God count left once the cards of ``tokens`` are spent (the feed card apart)."""
    left = list(counts)
    for k in tokens:
        if k == GOD:
            gods -= 1
        elif k != FEED:
            left[k] -= 1
    return tuple(left), gods


def summarise(values, gods: int, feed: bool, tops, r: Rules):
    """The memo key of a position; ``values`` are the Bid values in hand, ``tops`` the temple tops."""
    cap = r.max_farm_cards + r.max_build_cards
    counts, top_counts = _value_counts(values, tops, cap, r)
    return counts, min(gods, cap), bool(feed), top_counts


def _ceiling(population: int, r: Rules) -> int:
    """Populations above what max_farm_cards cards can pay all play alike: one memo entry for them."""
    return max(min(population, r.max_farm_cards * max(r.max_stage, r.god_value) + 1), -1)


def best_turn(values, gods: int, feed: bool, population: int, tops, r: Rules) -> Turn:
    """The optimal Farm + Build of a hand (Bid values, God count, feed card held) on a table."""
    counts, g, m, top_counts = summarise(values, gods, feed, tops, r)
    return _best_turn(counts, g, m, _ceiling(population, r), top_counts, r)


def farm_options(counts, gods, feed, population, r: Rules):
    """Every distinct legal Farm as a tuple of tokens (1..max_farm_cards cards, or the feed card alone)."""
    kinds = [v for v in range(1, r.max_stage + 1) if counts[v]]
    if gods:
        kinds.append(GOD)
    options = []
    gv = r.god_value
    if r.max_farm_cards <= 2:
        worth = [gv if k == GOD else k for k in kinds]
        for i, a in enumerate(kinds):
            if worth[i] >= population:
                options.append((a,))
        if r.max_farm_cards == 2:
            for i, a in enumerate(kinds):
                wa = worth[i]
                for j in range(i, len(kinds)):
                    if wa + worth[j] < population:
                        continue
                    if j == i and (gods if a == GOD else counts[a]) < 2:
                        continue
                    options.append((a, kinds[j]))
    else:
        have = {v: counts[v] for v in range(1, r.max_stage + 1)}
        have[GOD] = gods
        for size in range(1, r.max_farm_cards + 1):
            for combo in combinations_with_replacement(kinds, size):
                if any(combo.count(k) > have[k] for k in set(combo)):
                    continue
                if sum(gv if k == GOD else k for k in combo) >= population:
                    options.append(combo)
    if feed:
        options.append((FEED,))
    return options


def _farm_rank(farm, r: Rules):
    """(cards, value, sum of squared values) of a Farm, each card weighed by the solver's
    :func:`~solver.altunha.rules.farm_cost` (the ``fewer_cards`` preference among plays of equal points)."""
    costs = [farm_cost(CARD_GOD if k == GOD else CARD_FEED if k == FEED else k, r.max_stage) for k in farm]
    return len(farm), sum(costs), sum(c * c for c in costs)


@lru_cache(maxsize=100_000)
def _farms(counts, gods, feed, population, r: Rules) -> tuple:
    """The Farms worth trying, with what each leaves and its rank: (tokens, counts left, Gods left, rank),
    in the order of :func:`farm_options`.

    A Farm of several cards one of which feeds alone is left out: the single card
    leaves a larger hand (so a Build at least as good) and ranks better."""
    gv = r.god_value
    if r.max_farm_cards > 2:
        farms = [farm for farm in farm_options(counts, gods, feed, population, r)
                 if len(farm) == 1 or all((gv if k == GOD else k) < population for k in farm)]
    else:
        kinds = [v for v in range(1, r.max_stage + 1) if counts[v]] + ([GOD] if gods else [])
        worths = [gv if k == GOD else k for k in kinds]
        farms = [(k,) for k, w in zip(kinds, worths) if w >= population]
        if r.max_farm_cards == 2:
            for i, a in enumerate(kinds):
                wa = worths[i]
                if wa >= population:
                    continue
                if wa * 2 >= population and (gods if a == GOD else counts[a]) > 1:
                    farms.append((a, a))
                farms += [(a, kinds[j]) for j in range(i + 1, len(kinds))
                          if population - wa <= worths[j] < population]
        if feed:
            farms.append((FEED,))
    return tuple((farm, *_without(counts, gods, farm), _farm_rank(farm, r)) for farm in farms)


@lru_cache(maxsize=200_000)
def _best_turn(counts, gods, feed, population, tops, r: Rules) -> Turn:
    farms = _farms(counts, gods, feed, population, r)
    if not farms:
        return Turn(FAMINE, -r.famine_penalty, (), ())
    slots = r.max_build_cards
    if len(farms) == 1:
        farm, left, g, _ = farms[0]
        points, build, _ = _best_build(left, g, tops, slots, r)
    else:
        best_key = None
        for farm_i, left_i, g_i, (n, value, spread) in farms:
            points_i, build_i, gods_built = _best_build(left_i, g_i, tops, slots, r)
            key = (-points_i, n, value, len(build_i), gods_built, spread)
            if best_key is None or key < best_key:
                best_key, (farm, points, build, left, g) = key, (farm_i, points_i, build_i, left_i, g_i)
    if build:
        return Turn(BUILT, points, farm, build)
    values = [v for v in range(1, r.max_stage + 1) for _ in range(left[v])]
    able = can_place(values, g, [t for t in range(r.max_stage + 1) if tops[t]], r)
    return Turn(no_build_outcome(able), build_points((), able, r), farm, ())


def placements(counts, gods, tops, r: Rules):
    """Every distinct single placement: (token, value placed)."""
    out = []
    for v in range(1, r.max_stage + 1):
        if counts[v] and (v == 1 or tops[v - 1]):
            out.append((v, v))
    if gods:
        for w in range(1, r.max_stage + 1):
            if w == 1 or tops[w - 1]:
                out.append((GOD, w))
    return out


@lru_cache(maxsize=200_000)
def _best_build(counts, gods, tops, slots, r: Rules):
    """(points, placements, God cards among them) of the best Build with at most ``slots`` cards.

    ``tops`` counts the temples a card may still go on (with chain off, a temple
    started or raised in this Build is left out).  Ties go to fewer cards, then
    to fewer God cards, then to the first in the order of :func:`placements`."""
    if slots <= 1:
        return _best_placement(counts, gods, tops, r) if slots == 1 else (0, (), 0)
    best_points, best_build, best_gods, best_key = 0, (), 0, (0, 0, 0)
    for token, w in placements(counts, gods, tops, r):
        left, g = _without(counts, gods, (token,))
        new_tops = list(tops)
        if w > 1:
            new_tops[w - 1] -= 1
        if r.chain and w < r.max_stage:
            new_tops[w] = min(new_tops[w] + 1, r.max_build_cards)
        if slots == 2:
            rest_points, rest, rest_gods = _best_placement(left, g, new_tops, r)
        else:
            rest_points, rest, rest_gods = _best_build(left, g, tuple(new_tops), slots - 1, r)
        points = w + rest_points
        used_gods = rest_gods + (token == GOD)
        key = (points, -1 - len(rest), -used_gods)
        if key > best_key:
            best_points, best_build, best_gods, best_key = points, ((token, w),) + rest, used_gods, key
    return best_points, best_build, best_gods


def _best_placement(counts, gods, tops, r: Rules):
    """_best_build with one card: the highest value that can be laid, a Bid card before a God card."""
    value = next((v for v in range(r.max_stage, 0, -1) if counts[v] and (v == 1 or tops[v - 1])), 0)
    if gods:
        wild = next(w for w in range(r.max_stage, 0, -1) if w == 1 or tops[w - 1])
        if wild > value:
            return wild, ((GOD, wild),), 1
    return (value, ((value, value),), 0) if value else (0, (), 0)


def best_bid(values, gods, feed, population, tops, r: Rules, min_points: int,
             keep_feed: bool = False) -> tuple[int, ...]:
    """The greedy bid: the highest total of 1..max_bid_cards Bid/God cards (tokens) that still
    leaves a hand whose optimal turn builds at least ``min_points``; () when no bid does.  Ties go
    to the better turn, then to fewer cards."""
    cap = r.max_farm_cards + r.max_build_cards + r.max_bid_cards
    counts, top_counts = _value_counts(values, tops, cap, r)
    return _bid_of_counts(counts, min(gods, cap), bool(feed), _ceiling(population, r), top_counts, r,
                          min_points, keep_feed)


def _bid_of_counts(counts, gods, feed, population, top_counts, r: Rules, min_points, keep_feed):
    """best_bid of a hand and table summarised (counts capped, Population at its ceiling)."""
    if min_points > 1 or keep_feed:
        return _best_bid(counts, gods, feed, population, top_counts, r, min_points, keep_feed)
    # For a bid worth at least 1 point, whether it works is whether some Farm leaves a card that
    # can be laid (see _can_build), which depends on the temples only through the values that can
    # be laid: the bids passing that test are found with no optimal turn worked out, and the
    # optimal turn only chooses between several of them.
    if r.max_build_cards < 1:
        return ()
    hand, lay = _hand_bids(counts, gods, r), layable(top_counts, r)
    candidates = hand.candidates(feed, population, hand.table(lay, lay))
    return _choose_bid(candidates, counts, gods, feed, population, top_counts, r)


def _choose_bid(candidates, counts, gods, feed, population, top_counts, r: Rules) -> tuple[int, ...]:
    """The bid of several of the same total whose optimal turn scores most (then the fewest cards)."""
    if len(candidates) < 2:
        return candidates[0][2] if candidates else ()
    best, best_key = (), None
    for total, size, combo in candidates:
        left, g = _left_after(counts, gods, combo, r)
        turn = _best_turn(left, g, feed, population, top_counts, r)
        key = (total, turn.points, -size)
        if best_key is None or key > best_key:
            best, best_key = combo, key
    return best


def layable(top_counts, r: Rules) -> frozenset:
    """The tokens a card of which can be laid on a table with these temple tops: a God card, a
    value 1, and a value one above a temple's top."""
    return frozenset([GOD, 1, *(v for v in range(2, r.max_stage + 1) if top_counts[v - 1])])


NO_CARD_TO_LAY = -(1 << 62)   # a bid's Farm worth when it leaves no card to lay


class HandBids:
    """One hand's Bid and God cards (Bid counts and God count), for finding the greedy bid.

    The cards are kept highest worth first, with the sums of their first
    worths, so that what a bid leaves for the Farm (the first copies of its
    tokens taken out, the lowest card that can be laid kept back) is a little
    arithmetic, done once per bid and table (:meth:`table`)."""

    def __init__(self, counts, gods, r: Rules):
        gv = r.god_value
        self.kinds = [v for v in range(1, r.max_stage + 1) if counts[v]] + ([GOD] if gods else [])
        self._capped = (tuple(min(c, r.max_bid_cards) for c in counts), min(gods, r.max_bid_cards), r)
        # highest worth first; a God card after the Bid cards of its worth (copies of a token stay together)
        self.worths, self.tokens = worths, tokens = [], []
        for v in range(r.max_stage, 0, -1):
            if gods and gv > v:
                worths += [gv] * gods
                tokens += [GOD] * gods
                gods = 0
            worths += [v] * counts[v]
            tokens += [v] * counts[v]
        worths += [gv] * gods
        tokens += [GOD] * gods
        self.prefix = [0, *accumulate(worths)]
        self._first = {t: tokens.index(t) for t in self.kinds}
        self.farm_cards, self.max_bid = r.max_farm_cards, r.max_bid_cards
        self.options = None   # the bids of _bid_options, listed when first needed
        self._tables: dict = {}

    def table(self, key, layable: frozenset) -> tuple[list[int], dict, list[int]]:
        """The positions of the cards that can be laid on a table (lowest worth first), what the bids
        leave for the Farm there (filled in as they are tried) and what each single card leaves;
        ``key`` names the table."""
        found = self._tables.get(key)
        if found is None:
            tokens = self.tokens
            lay = [i for i in range(len(tokens) - 1, -1, -1) if tokens[i] in layable]
            found = self._tables[key] = (lay, {}, self._single_farms(lay))
        return found

    def _single_farms(self, lay: list[int]) -> list[int]:
        """_farm_after of each single card (the first copy of each kind), in one pass."""
        worths, prefix, first, k = self.worths, self.prefix, self._first, self.farm_cards
        n = len(worths)
        lowest = lay[0] if lay else None
        second = lay[1] if len(lay) > 1 else None
        out = []
        for kind in self.kinds:
            taken = first[kind]
            kept = lowest if lowest != taken else second
            if kept is None:
                out.append(NO_CARD_TO_LAY)
                continue
            end, skipped = k, 0
            for x in ((taken, kept) if taken < kept else (kept, taken)):
                if x < end:
                    end += 1
                    skipped += worths[x]
            out.append(prefix[min(end, n)] - skipped)
        return out

    def candidates(self, feed: bool, population: int, table) -> tuple:
        """The bids (total, cards, tokens) of the highest total after which some Farm leaves a card to
        lay, in the order of :func:`_bid_options` (``table`` from :meth:`table`).

        Single cards are tried first: a bid holding a card that fails on its own
        fails too (it leaves less), so only bids of the cards that pass alone are tried."""
        lay, farms, singles = table
        if not lay or not self.max_bid:
            return ()
        if feed:
            passed = {k for k, farm in zip(self.kinds, singles) if farm != NO_CARD_TO_LAY}
        elif population > 0 or len(self.worths) > 2:
            passed = {k for k, farm in zip(self.kinds, singles) if farm >= population}
        else:
            return ()
        if not passed:
            return ()
        if self.options is None:
            self.options = _bid_options(*self._capped)
        found = []
        for option in self.options:
            total, size, tokens = option
            if found and total < found[0][0]:
                break
            if size == 1:
                if tokens[0] in passed:
                    found.append(option)
            elif all(k in passed for k in tokens) and self.can_build(tokens, feed, population, table):
                found.append(option)
        return tuple(found)

    def can_build(self, tokens, feed: bool, population: int, table) -> bool:
        """Whether some Farm after bidding ``tokens`` leaves a card that can be laid: then the optimal
        turn builds, as any Build scores at least 1, more than building nothing."""
        farm = table[1].get(tokens)
        if farm is None:
            farm = table[1][tokens] = self._farm_after(tokens, table[0])
        if farm == NO_CARD_TO_LAY:
            return False
        if feed:
            return True
        return farm >= population and (population > 0 or len(self.worths) - len(tokens) > 1)

    def _farm_after(self, tokens, lay: list[int]) -> int:
        """The worth of the best Farm after bidding ``tokens`` that keeps back a card to lay.

        Keeping back the lowest card that can be laid leaves the most for the
        Farm, which takes the best max_farm_cards of the other cards (the feed
        card feeds any; a lone card cannot both feed and be laid)."""
        taken: list[int] = []
        for token in tokens:
            at = self._first[token]
            while at in taken:
                at += 1
            taken.append(at)
        for kept in lay:
            if kept not in taken:
                break
        else:
            return NO_CARD_TO_LAY
        # the Farm takes the first farm_cards positions that are neither bid nor kept back
        taken.append(kept)
        taken.sort()
        end, skipped = self.farm_cards, 0
        for x in taken:
            if x < end:
                end += 1
                skipped += self.worths[x]
        return self.prefix[min(end, len(self.worths))] - skipped


@lru_cache(maxsize=10_000)
def _bid_options(counts, gods, r: Rules) -> tuple:
    """Every distinct bid of 1..max_bid_cards Bid/God cards of a hand with these counts (capped at
    max_bid_cards), highest total first, in enumeration order within a total: (total, cards, tokens)."""
    gv = r.god_value
    kinds = [v for v in range(1, r.max_stage + 1) if counts[v]] + ([GOD] if gods else [])
    worths = [gv if k == GOD else k for k in kinds]
    options = [(w, 1, (k,)) for k, w in zip(kinds, worths)] if r.max_bid_cards else []
    if r.max_bid_cards >= 2:
        for i, a in enumerate(kinds):
            if (gods if a == GOD else counts[a]) > 1:
                options.append((2 * worths[i], 2, (a, a)))
            for j in range(i + 1, len(kinds)):
                options.append((worths[i] + worths[j], 2, (a, kinds[j])))
    for size in range(3, r.max_bid_cards + 1):
        for combo in combinations_with_replacement(kinds, size):
            if len(set(combo)) < size and \
                    any(combo.count(k) > (gods if k == GOD else counts[k]) for k in set(combo)):
                continue
            options.append((sum(gv if k == GOD else k for k in combo), size, combo))
    options.sort(key=lambda o: -o[0])
    return tuple(options)


@lru_cache(maxsize=100_000)
def _hand_bids(counts, gods, r: Rules) -> HandBids:
    return HandBids(counts, gods, r)


def _left_after(counts, gods, tokens, r: Rules):
    """The Bid counts and God count a bid leaves, capped as in a turn."""
    left, g = _without(counts, gods, tokens)
    cap = r.max_farm_cards + r.max_build_cards
    if max(left) > cap or g > cap:
        left, g = tuple(min(c, cap) for c in left), min(g, cap)
    return left, g


def _works(left, g, feed, population, tops, r: Rules, min_points, keep_feed) -> Turn | None:
    """The turn after a bid, when it builds at least ``min_points`` (else None)."""
    turn = None
    if keep_feed:
        turn = _best_turn(left, g, False, population, tops, r)
        if turn.outcome == FAMINE:
            turn = None
    if turn is None:
        turn = _best_turn(left, g, feed, population, tops, r)
    return turn if turn.outcome == BUILT and turn.points >= min_points else None


@lru_cache(maxsize=200_000)
def _best_bid(counts, gods, feed, population, tops, r: Rules, min_points, keep_feed):
    best, best_key = (), None
    for total, size, combo in _bid_options(tuple(min(c, r.max_bid_cards) for c in counts),
                                           min(gods, r.max_bid_cards), r):
        if best_key is not None and total < best_key[0]:
            break
        left, g = _left_after(counts, gods, combo, r)
        turn = _works(left, g, feed, population, tops, r, min_points, keep_feed)
        if turn is None:
            continue
        key = (total, turn.points, -size)
        if best_key is None or key > best_key:
            best, best_key = combo, key
    return best


class TableKey(NamedTuple):
    """The temple tops as the enumerator sees them (see :meth:`Planner.table`)."""

    code: int                    # top_counts packed in one int, for memo keys
    top_counts: tuple[int, ...]  # temples of each top value a card can still go on (capped)
    layable: frozenset           # the tokens a card of which can be laid on this table
    lay_code: int                # a hand's code & lay_code: its cards of those tokens


def count_bits(deck_size: int) -> int:
    """The bits of one count in a hand's code: one byte when the deck is smaller than 256 cards
    (unpacked by int.to_bytes)."""
    return 8 if deck_size < 256 else deck_size.bit_length()


class Planner:
    """The enumerator's answers for one rule set, memoised on small int keys.

    A hand's Bid, God and feed cards are packed into one int, a count of
    ``bits`` bits per token (see :meth:`weight`: a hand's code is the sum of
    its cards' weights), and the temple tops into another (:meth:`table`);
    with the Population at its ceiling they key memo tables that answer the
    same as :func:`best_turn` and :func:`best_bid`.

    Counts are not capped as in those functions' keys: cards beyond what a
    turn or a bid can use change nothing, so the answers are the same."""

    LIMIT = 300_000   # entries a memo table holds before it starts again (bounded memory on long runs)

    def __init__(self, r: Rules, deck_size: int):
        self.bits = bits = count_bits(deck_size)
        self.r = r
        self.digit = (1 << bits) - 1
        self.feed_shift = bits * (r.max_stage + 1)
        self.cards_mask = (1 << self.feed_shift) - 1   # a code's Bid and God cards, without the feed card
        self.ceiling = _ceiling(1 << 62, r)            # Populations above it play alike (see _ceiling)
        self._tables: dict[tuple, TableKey] = {}
        self._turns: dict[tuple, Turn] = {}
        self._bids: dict[tuple, tuple] = {}
        self._candidates: dict[tuple, tuple] = {}
        self._hands: dict[int, HandBids] = {}

    def weight(self, kind) -> int:
        """What a card of this kind of the rules model adds to a hand's code (0: it plays no part)."""
        if kind == CARD_GOD:
            return 1
        if kind == CARD_FEED:
            return 1 << self.feed_shift
        if isinstance(kind, int) and 1 <= kind <= self.r.max_stage:
            return 1 << (self.bits * kind)
        return 0

    def without_feed(self, code: int) -> int:
        """The code of the same hand with the feed card left out (it may not be used)."""
        return code & self.cards_mask

    def unpack(self, code: int) -> tuple[tuple[int, ...], int, bool]:
        """(Bid counts by value, God count, feed card held) of a code."""
        stage = self.r.max_stage
        if self.bits == 8:
            digits = code.to_bytes(stage + 2, "little")
            return (0, *digits[1:stage + 1]), digits[0], digits[stage + 1] > 0
        counts = [0] * (stage + 1)
        for v in range(1, stage + 1):
            counts[v] = (code >> (self.bits * v)) & self.digit
        return tuple(counts), code & self.digit, code > self.cards_mask

    def table(self, tops: tuple[int, ...]) -> TableKey:
        """The enumerator's view of a table with these temple tops (memoised)."""
        found = self._tables.get(tops)
        if found is None:
            top_counts = _value_counts((), tops, 0, self.r)[1]
            code = sum(c << (4 * t) for t, c in enumerate(top_counts))
            lay = layable(top_counts, self.r)
            found = TableKey(code, top_counts, lay, sum(self.digit * self.weight(CARD_GOD if t == GOD else t)
                                                        for t in lay))
            self._remember(self._tables, tops, found)
        return found

    def turn(self, code: int, population: int, table: TableKey) -> Turn:
        """:func:`best_turn` of the hand ``code`` on ``table``."""
        if not -1 <= population <= self.ceiling:   # see _ceiling
            population = max(min(population, self.ceiling), -1)
        key = (code, population, table.code)
        found = self._turns.get(key)
        if found is None:
            counts, gods, feed = self.unpack(code)
            found = _best_turn.__wrapped__(counts, gods, feed, population, table.top_counts, self.r)
            self._remember(self._turns, key, found)
        return found

    def bid(self, code: int, population: int, table: TableKey, min_points: int = 1,
            keep_feed: bool = False) -> tuple[int, ...]:
        """:func:`best_bid` of the hand ``code`` on ``table``."""
        if not -1 <= population <= self.ceiling:   # see _ceiling
            population = max(min(population, self.ceiling), -1)
        if min_points > 1 or keep_feed:
            key = (code, population, table.code, min_points, keep_feed)
            found = self._bids.get(key)
            if found is None:
                counts, gods, feed = self.unpack(code)
                found = _best_bid(counts, gods, feed, population, table.top_counts, self.r, min_points,
                                  keep_feed)
                self._remember(self._bids, key, found)
            return found
        if self.r.max_build_cards < 1:
            return ()
        # the candidates depend on the table only through which of the hand's cards can be laid
        key = (code, population, code & table.lay_code)
        candidates = self._candidates.get(key)
        if candidates is None:
            cards = code & self.cards_mask
            hand = self._hands.get(cards)
            if hand is None:
                hand = HandBids(*self.unpack(cards)[:2], self.r)
                self._remember(self._hands, cards, hand)
            candidates = hand.candidates(code > self.cards_mask, population,
                                         hand.table(code & table.lay_code, table.layable))
            self._remember(self._candidates, key, candidates)
        if len(candidates) < 2:
            return candidates[0][2] if candidates else ()
        counts, gods, feed = self.unpack(code)
        return _choose_bid(candidates, counts, gods, feed, population, table.top_counts, self.r)

    def _remember(self, memo: dict, key, value):
        if len(memo) >= self.LIMIT:
            memo.clear()
        memo[key] = value

    def clear(self):
        for memo in (self._tables, self._turns, self._bids, self._candidates, self._hands):
            memo.clear()


# the rule fields the enumerator reads (here and through the rules model's can_place, build_points and
# farm_cost): rule sets alike in these get the same answers, so they share one Planner and memo keys
ENUMERATED = ("max_stage", "god_value", "max_bid_cards", "max_farm_cards", "max_build_cards",
              "famine_penalty", "no_build_penalty", "penalty_if_declined", "chain")

_PLANNERS: dict[tuple, Planner] = {}


def planner_for(r: Rules, deck_size: int) -> Planner:
    """The one Planner in this process of the rule sets alike in what the enumerator reads and of decks
    whose counts take as many bits.

    A variant that changes only other rules or the deck's make-up (a ruling on bids or the end, the
    starting Population, a card's count) plays on the answers the baseline's games found, instead of
    finding them again (a run's first games spend most of their time filling the memo tables).  The
    Planner's rules are those fields on neutral other values, the same object whichever rule set asks
    first, so its answers (and the memo keys of the functions it calls) never depend on the order."""
    key = (tuple(getattr(r, f) for f in ENUMERATED), count_bits(deck_size))
    found = _PLANNERS.get(key)
    if found is None:
        neutral = {f: t() for f, t in FIELD_TYPES.items() if f not in ENUMERATED}
        found = _PLANNERS[key] = Planner(r.with_options(**neutral), deck_size)
    return found


def clear_caches():
    """Forget every memoised turn, build and bid (for timings that start cold)."""
    for cached in (_farms, _best_turn, _best_build, _bid_options, _hand_bids, _best_bid):
        cached.cache_clear()
    for planner in _PLANNERS.values():
        planner.clear()
