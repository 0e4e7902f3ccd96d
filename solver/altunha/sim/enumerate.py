"""The exact Farm + Build optimum by enumeration, fast enough for the simulator's inner loop.

Only card values matter for Farm and Build, so a hand is summarised as counts
of each Bid value, the number of God cards and whether Maize is held, and the
table as counts of temple tops.  Results are memoised on that summary.

The ordering of plans is the turn solver's: avoid famine whenever any Farm is
possible; then the most points; then the fewest Farm cards; then the lowest
Farm value, counting a God card as ``max value + 1`` and Maize as
``max value + 2``.  Ties then go as in the turn solver's plan key: fewer
Build cards, fewer God cards in the Build, Farm values closer together
(smaller sum of squares), then the first in enumeration order.

Tokens: a Bid value ``v`` (1..max), :data:`GOD` or :data:`MAIZE`.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations_with_replacement
from typing import NamedTuple

GOD = -1
MAIZE = 0


class Config(NamedTuple):
    """The rule numbers Farm and Build depend on."""

    max_value: int = 8
    god_value: int = 7
    max_farm: int = 2
    max_build: int = 2
    famine_penalty: int = 13
    no_build_penalty: int = 7
    chain: bool = True


class Turn(NamedTuple):
    outcome: str                      # "built" | "unable_to_build" | "famine"
    points: int                       # the score change of the turn
    farm: tuple[int, ...]             # tokens discarded to farm
    build: tuple[tuple[int, int], ...]  # (token, value placed), in order


def _value_counts(values: list[int], tops: list[int], cap: int, cfg: Config):
    """How many Bid cards of each value (at most ``cap`` of one value count) and temple tops of each
    value (those a card can still go on, at most ``max_build`` of one value)."""
    counts = [0] * (cfg.max_value + 1)
    for v in values:
        if counts[v] < cap:
            counts[v] += 1
    top_counts = [0] * (cfg.max_value + 1)
    for t in tops:
        if t < cfg.max_value and top_counts[t] < cfg.max_build:
            top_counts[t] += 1
    return tuple(counts), tuple(top_counts)


def summarise(values: list[int], gods: int, maize: bool, tops: list[int], cfg: Config):
    """The memo key of a position; ``values`` are the Bid values in hand, ``tops`` the temple tops."""
    cap = cfg.max_farm + cfg.max_build
    counts, top_counts = _value_counts(values, tops, cap, cfg)
    return counts, min(gods, cap), bool(maize), top_counts


def best_turn(values, gods, maize, population, tops, cfg: Config = Config()) -> Turn:
    """The optimal Farm + Build of a hand (Bid values, God count, Maize held) on a table."""
    counts, g, m, top_counts = summarise(values, gods, maize, tops, cfg)
    ceiling = cfg.max_farm * max(cfg.max_value, cfg.god_value) + 1
    return _best_turn(counts, g, m, max(min(population, ceiling), -1), top_counts, cfg)


def can_feed(values, gods, maize, population, cfg: Config = Config()) -> bool:
    """Whether any legal Farm exists (Maize, or 1..max_farm cards worth at least the Population)."""
    if maize:
        return True
    pool = sorted(list(values) + [cfg.god_value] * gods, reverse=True)[:cfg.max_farm]
    return bool(pool) and sum(pool) >= population


def farm_options(counts, gods, maize, population, cfg: Config):
    """Every distinct legal Farm as a tuple of tokens (1..max_farm cards, or Maize alone)."""
    kinds = [v for v in range(1, cfg.max_value + 1) if counts[v]]
    if gods:
        kinds.append(GOD)
    options = []
    if cfg.max_farm <= 2:
        gv = cfg.god_value
        worth = [gv if k == GOD else k for k in kinds]
        for i, a in enumerate(kinds):
            if worth[i] >= population:
                options.append((a,))
        if cfg.max_farm == 2:
            for i, a in enumerate(kinds):
                wa = worth[i]
                for j in range(i, len(kinds)):
                    if wa + worth[j] < population:
                        continue
                    if j == i and (gods if a == GOD else counts[a]) < 2:
                        continue
                    options.append((a, kinds[j]))
    else:
        have = {v: counts[v] for v in range(1, cfg.max_value + 1)}
        have[GOD] = gods
        for size in range(1, cfg.max_farm + 1):
            for combo in combinations_with_replacement(kinds, size):
                if any(combo.count(k) > have[k] for k in set(combo)):
                    continue
                if sum(cfg.god_value if k == GOD else k for k in combo) >= population:
                    options.append(combo)
    if maize:
        options.append((MAIZE,))
    return options


def _farm_rank(farm, cfg: Config):
    weight = {GOD: cfg.max_value + 1, MAIZE: cfg.max_value + 2}
    costs = [weight.get(k, k) for k in farm]
    return len(farm), sum(costs), sum(c * c for c in costs)


@lru_cache(maxsize=200_000)
def _best_turn(counts, gods, maize, population, tops, cfg: Config) -> Turn:
    best = None
    best_key = None
    for farm in farm_options(counts, gods, maize, population, cfg):
        left = list(counts)
        g = gods
        for k in farm:
            if k == GOD:
                g -= 1
            elif k != MAIZE:
                left[k] -= 1
        points, build = _best_build(tuple(left), g, tops, cfg.max_build, cfg)
        n, value, spread = _farm_rank(farm, cfg)
        key = (-points, n, value, len(build), sum(1 for t, _ in build if t == GOD), spread)
        if best_key is None or key < best_key:
            best_key, best = key, (farm, points, build)
    if best is None:
        return Turn("famine", -cfg.famine_penalty, (), ())
    farm, points, build = best
    if not build:
        return Turn("unable_to_build", -cfg.no_build_penalty, farm, ())
    return Turn("built", points, farm, build)


def placements(counts, gods, tops, cfg: Config):
    """Every distinct single placement: (token, value placed)."""
    out = []
    for v in range(1, cfg.max_value + 1):
        if counts[v] and (v == 1 or tops[v - 1]):
            out.append((v, v))
    if gods:
        for w in range(1, cfg.max_value + 1):
            if w == 1 or tops[w - 1]:
                out.append((GOD, w))
    return out


@lru_cache(maxsize=200_000)
def _best_build(counts, gods, tops, slots, cfg: Config):
    """(points, placements) of the best Build with at most ``slots`` cards.

    ``tops`` counts the temples a card may still go on (with chain off, a temple
    started or raised in this Build is left out)."""
    best_points, best_build, best_key = 0, (), (0, 0, 0)
    if slots <= 0:
        return best_points, best_build
    for token, w in placements(counts, gods, tops, cfg):
        left = list(counts)
        g = gods
        if token == GOD:
            g -= 1
        else:
            left[token] -= 1
        new_tops = list(tops)
        if w > 1:
            new_tops[w - 1] -= 1
        if cfg.chain and w < cfg.max_value:
            new_tops[w] = min(new_tops[w] + 1, cfg.max_build)
        rest_points, rest = _best_build(tuple(left), g, tuple(new_tops), slots - 1, cfg)
        build = ((token, w),) + rest
        points = w + rest_points
        key = (points, -len(build), -sum(1 for t, _ in build if t == GOD))
        if key > best_key:
            best_points, best_build, best_key = points, build, key
    return best_points, best_build


def best_bid(values, gods, maize, population, tops, cfg: Config, max_bid: int, min_points: int,
             keep_maize: bool = False) -> tuple[int, ...]:
    """The greedy bid: the highest total of 1..max_bid Bid/God cards (tokens) that still leaves a
    hand whose optimal turn builds at least ``min_points``; () when no bid does.  Ties go to the
    better turn, then to fewer cards."""
    cap = cfg.max_farm + cfg.max_build + max_bid
    counts, top_counts = _value_counts(values, tops, cap, cfg)
    ceiling = cfg.max_farm * max(cfg.max_value, cfg.god_value) + 1
    return _best_bid(counts, min(gods, cap), bool(maize), max(min(population, ceiling), -1),
                     top_counts, cfg, max_bid, min_points, keep_maize)


@lru_cache(maxsize=200_000)
def _best_bid(counts, gods, maize, population, tops, cfg, max_bid, min_points, keep_maize):
    kinds = [v for v in range(1, cfg.max_value + 1) if counts[v]] + ([GOD] if gods else [])
    options = []
    for size in range(1, max_bid + 1):
        for combo in combinations_with_replacement(kinds, size):
            if any(combo.count(k) > (gods if k == GOD else counts[k]) for k in set(combo)):
                continue
            options.append((sum(cfg.god_value if k == GOD else k for k in combo), combo))
    options.sort(key=lambda o: -o[0])
    best, best_key = (), None
    cap = cfg.max_farm + cfg.max_build
    for total, combo in options:
        if best_key is not None and total < best_key[0]:
            break
        left = list(counts)
        g = gods
        for k in combo:
            if k == GOD:
                g -= 1
            else:
                left[k] -= 1
        left = tuple(min(c, cap) for c in left)
        g = min(g, cap)
        turn = None
        if keep_maize:
            turn = _best_turn(left, g, False, population, tops, cfg)
            if turn.outcome == "famine":
                turn = None
        if turn is None:
            turn = _best_turn(left, g, maize, population, tops, cfg)
        if turn.outcome != "built" or turn.points < min_points:
            continue
        key = (total, turn.points, -len(combo))
        if best_key is None or key > best_key:
            best, best_key = combo, key
    return best


def clear_caches():
    """Forget every memoised turn, build and bid (for timings that start cold)."""
    for cached in (_best_turn, _best_build, _best_bid):
        cached.cache_clear()
