"""The exact Farm + Build optimum by enumeration, fast enough for the simulator's inner loop.

Only card values matter for Farm and Build, so a hand is summarised as counts
of each Bid value, the number of God cards and whether Maize is held, and the
table as counts of temple tops.  Results are memoised on that summary.

The rule numbers, the switches and what is legal come from
:mod:`solver.altunha.rules` (the turn solver's rules model); the rules are part
of every memo key.  The ordering of plans is the turn solver's: avoid famine
whenever any Farm is possible; then the most points; then the fewest Farm
cards; then the lowest Farm value, counting a God card as ``max value + 1``
and the feed card (Maize) as ``max value + 2``.  Ties then go as in the turn
solver's plan key: fewer Build cards, fewer God cards in the Build, Farm
values closer together (smaller sum of squares), then the first in
enumeration order.

Tokens: a Bid value ``v`` (1..max), :data:`GOD` or :data:`FEED`.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement
from typing import NamedTuple

from solver.altunha.rules import BUILT, FAMINE, Rules, build_points, can_place, no_build_outcome

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
    weight = {GOD: r.max_stage + 1, FEED: r.max_stage + 2}
    costs = [weight.get(k, k) for k in farm]
    return len(farm), sum(costs), sum(c * c for c in costs)


@lru_cache(maxsize=100_000)
def _farms(counts, gods, feed, population, r: Rules) -> tuple:
    """The Farms worth trying, with what each leaves and its rank: (tokens, counts left, Gods left, rank).

    A Farm of several cards one of which feeds alone is left out: the single card
    leaves a larger hand (so a Build at least as good) and ranks better."""
    gv = r.god_value
    out = []
    for farm in farm_options(counts, gods, feed, population, r):
        if len(farm) > 1 and any((gv if k == GOD else k) >= population for k in farm):
            continue
        out.append((farm, *_without(counts, gods, farm), _farm_rank(farm, r)))
    return tuple(out)


@lru_cache(maxsize=200_000)
def _best_turn(counts, gods, feed, population, tops, r: Rules) -> Turn:
    best = None
    best_key = None
    slots = r.max_build_cards
    for farm, left, g, (n, value, spread) in _farms(counts, gods, feed, population, r):
        points, build, gods_built = _best_build(left, g, tops, slots, r)
        key = (-points, n, value, len(build), gods_built, spread)
        if best_key is None or key < best_key:
            best_key, best = key, (farm, points, build, left, g)
    if best is None:
        return Turn(FAMINE, -r.famine_penalty, (), ())
    farm, points, build, left, g = best
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
    started or raised in this Build is left out)."""
    best_points, best_build, best_gods, best_key = 0, (), 0, (0, 0, 0)
    if slots <= 0:
        return best_points, best_build, best_gods
    for token, w in placements(counts, gods, tops, r):
        left, g = _without(counts, gods, (token,))
        new_tops = list(tops)
        if w > 1:
            new_tops[w - 1] -= 1
        if r.chain and w < r.max_stage:
            new_tops[w] = min(new_tops[w] + 1, r.max_build_cards)
        rest_points, rest, rest_gods = _best_build(left, g, tuple(new_tops), slots - 1, r)
        points = w + rest_points
        used_gods = rest_gods + (token == GOD)
        key = (points, -1 - len(rest), -used_gods)
        if key > best_key:
            best_points, best_build, best_gods, best_key = points, ((token, w),) + rest, used_gods, key
    return best_points, best_build, best_gods


def best_bid(values, gods, feed, population, tops, r: Rules, min_points: int,
             keep_feed: bool = False) -> tuple[int, ...]:
    """The greedy bid: the highest total of 1..max_bid_cards Bid/God cards (tokens) that still
    leaves a hand whose optimal turn builds at least ``min_points``; () when no bid does.  Ties go
    to the better turn, then to fewer cards."""
    cap = r.max_farm_cards + r.max_build_cards + r.max_bid_cards
    counts, top_counts = _value_counts(values, tops, cap, r)
    gods, feed, population = min(gods, cap), bool(feed), _ceiling(population, r)
    if min_points > 1 or keep_feed:
        return _best_bid(counts, gods, feed, population, top_counts, r, min_points, keep_feed)
    # For a bid worth at least 1 point, whether it works is whether some Farm leaves a card that
    # can be laid (see _can_build), which depends on the temples only through the values of the
    # hand that can be laid: the bids passing that test are found on that smaller key, and the
    # optimal turn is worked out only to choose between several of them.
    if r.max_build_cards < 1:
        return ()
    placeable = tuple([v for v in range(1, r.max_stage + 1) if counts[v] and (v == 1 or top_counts[v - 1])])
    candidates = _bid_candidates(counts, gods, feed, population, placeable, r)
    if len(candidates) < 2:
        return candidates[0][2] if candidates else ()
    best, best_key = (), None
    for total, size, combo, left, g, _ in candidates:
        turn = _best_turn(left, g, feed, population, top_counts, r)
        key = (total, turn.points, -size)
        if best_key is None or key > best_key:
            best, best_key = combo, key
    return best


@lru_cache(maxsize=100_000)
def _bid_options(counts, gods, r: Rules) -> tuple:
    """Every distinct bid of 1..max_bid_cards Bid/God cards, highest total first (in enumeration order
    within a total): (total, cards, tokens, counts left, Gods left, the highest worths left), what is
    left capped as in a turn."""
    kinds = [v for v in range(1, r.max_stage + 1) if counts[v]] + ([GOD] if gods else [])
    options = []
    gv = r.god_value
    cap = r.max_farm_cards + r.max_build_cards
    for size in range(1, r.max_bid_cards + 1):
        for combo in combinations_with_replacement(kinds, size):
            if len(set(combo)) < size and \
                    any(combo.count(k) > (gods if k == GOD else counts[k]) for k in set(combo)):
                continue
            left, g = _without(counts, gods, combo)
            if max(left) > cap or g > cap:
                left, g = tuple(min(c, cap) for c in left), min(g, cap)
            options.append((sum(gv if k == GOD else k for k in combo), size, combo, left, g,
                            _top_worths(left, g, r.max_farm_cards + 1, r)))
    options.sort(key=lambda o: -o[0])
    return tuple(options)


def _top_worths(counts, gods: int, n: int, r: Rules) -> list[int]:
    """The ``n`` highest worths of a hand (a God card counts god_value), highest first."""
    out, gv = [], r.god_value
    for v in range(r.max_stage, 0, -1):
        while gods and gv >= v and len(out) < n:
            out.append(gv)
            gods -= 1
        c = counts[v]
        while c and len(out) < n:
            out.append(v)
            c -= 1
        if len(out) >= n:
            return out
    return out + [gv] * min(gods, n - len(out))


def _can_build(counts, gods, feed, population, placeable, top, r: Rules) -> bool:
    """Whether some Farm leaves a card that can be laid: then the optimal turn builds, as any Build
    scores at least 1, more than building nothing.

    That is: some card that can be laid (a God, or a Bid value in ``placeable``) can be kept
    back while the rest still feeds, i.e. its best max_farm_cards cards are worth the Population.
    ``top`` holds the max_farm_cards + 1 highest worths of the hand."""
    keep = ([r.god_value] if gods else []) + [v for v in placeable if counts[v]]
    if not keep:
        return False
    if feed:
        return True
    k = r.max_farm_cards
    best = sum(top[:k])
    kth = top[k - 1] if len(top) >= k else 0      # keeping back a card this high costs the Farm...
    after = top[k] if len(top) > k else 0         # ...which then takes the next card instead
    cards = sum(counts) + gods
    for v in keep:
        if (best - v + after if v >= kth else best) >= population and (population > 0 or cards > 1):
            return True
    return False


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
def _bid_candidates(counts, gods, feed, population, placeable, r: Rules) -> tuple:
    """The bid options of the highest total after which some Farm leaves a card to lay."""
    options = _bid_options(counts, gods, r)
    # the test only gets harder as a bid takes more cards: a bid holding a card that fails on its
    # own fails too, and when every single card fails, so does every bid
    failed = {combo[0] for total, size, combo, left, g, top in options
              if size == 1 and not _can_build(left, g, feed, population, placeable, top, r)}
    if len(failed) == (sum(1 for v in counts[1:] if v) + (gods > 0)):
        return ()
    found = []
    for option in options:
        total, size, combo, left, g, top = option
        if found and total < found[0][0]:
            break
        if any(k in failed for k in combo) or \
                size > 1 and not _can_build(left, g, feed, population, placeable, top, r):
            continue
        found.append(option)
    return tuple(found)


@lru_cache(maxsize=200_000)
def _best_bid(counts, gods, feed, population, tops, r: Rules, min_points, keep_feed):
    best, best_key = (), None
    for total, size, combo, left, g, _ in _bid_options(counts, gods, r):
        if best_key is not None and total < best_key[0]:
            break
        turn = _works(left, g, feed, population, tops, r, min_points, keep_feed)
        if turn is None:
            continue
        key = (total, turn.points, -size)
        if best_key is None or key > best_key:
            best, best_key = combo, key
    return best


def clear_caches():
    """Forget every memoised turn, build and bid (for timings that start cold)."""
    for cached in (_farms, _best_turn, _best_build, _bid_options, _bid_candidates, _best_bid):
        cached.cache_clear()
