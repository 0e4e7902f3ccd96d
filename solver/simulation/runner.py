"""Playing many games of any engine: one game's record, local parallel runs, and the Dask path.

Each game's randomness comes from ``random.Random(f"{seed}/{index}")`` alone (and its
players' from ``f"{seed}/{index}/players"``), so a game plays the same whichever worker runs
it, and records are gathered in index order: the same seed gives the same results for any
number of workers or machines.

Policies are cycled over the seats, and the cycle turns by one seat from each game to the
next, so a mix puts every policy in every seat equally often: the seats are the state's own
(``State.seats()``, for rules that deal the first seat at random, with a card that makes
its holder start, say), else the players' order.  A game still running after the engine's
round cap is stopped there and recorded as ended by the "cap" (not an end the rules know),
its win shared by the highest scores; so is a game the engine stopped itself with ``end =
"cap"`` (a safeguard of its own, such as a cap on the turns of a round that can last forever).
"""

from __future__ import annotations

import gc
import random
from dataclasses import dataclass
from typing import Any, Callable

from kitgen.errors import KitgenError, OptionError, WorkerFailed
from kitgen.outputs.workers import run_tasks, usable_cores
from solver.engine import CAP, TERMINAL, shares, winners
from solver.engines import get_engine
from solver.lookahead import LOOKAHEAD, lookahead_player

CHUNK = 25


@dataclass(frozen=True)
class Spec:
    """What to play: the engine (its key) and its rules, the number of players, their policies
    (cycled over the players), the seed."""

    engine: str
    rules: Any
    players: int
    policies: tuple[str, ...]
    seed: int


def seat_policies(spec: Spec, index: int, seats: list[int] | None = None) -> list[str]:
    """The policy of each player of game ``index``, whose seats are ``seats`` (each player's, 0 first to
    act; None: the players' order): the mix cycled over the seats, turned by one seat a game."""
    names = spec.policies
    seats = range(spec.players) if seats is None else seats
    return [names[(seat + index) % len(names)] for seat in seats]


def make_player(engine, spec: Spec, name: str, rng: random.Random):
    """A player of the policy ``name``: the engine's own, or the lookahead player of any engine."""
    if name.split(":")[0] == LOOKAHEAD:
        return lookahead_player(engine, spec.rules, name, rng)
    return engine.policies[name](rng)


def new_game(spec: Spec, index: int, engine=None):
    """Game ``index`` of a run, set up, with its players (who share one generator, seeded apart from the
    game's so that they never change its chance events)."""
    engine = engine or get_engine(spec.engine)
    state = engine.new_game(spec.rules, spec.players, random.Random(f"{spec.seed}/{index}"))
    names = seat_policies(spec, index, state.seats() if hasattr(state, "seats") else None)
    rng = random.Random(f"{spec.seed}/{index}/players")
    return state, [make_player(engine, spec, name, rng) for name in names], names


def play_out(state, players, cap: int) -> tuple[list[tuple[int, ...]], bool]:
    """Play ``state`` to its end (or ``cap`` rounds); the leaders by score after each round, and whether
    the cap stopped it."""
    leaders: list[tuple[int, ...]] = []
    last = state.round
    if last > cap:
        return leaders, True
    current, apply = state.current_player, state.apply_action
    while True:
        p = current()
        if p == TERMINAL:
            break
        apply(players[p].choose(state, p))
        if state.round != last:
            leaders += [tuple(winners(state.scores()))] * (state.round - last)
            last = state.round
            if last > cap:
                return leaders, True
    leaders.append(tuple(winners(state.scores())))
    return leaders, False


def play_game(spec: Spec, index: int, engine=None):
    """Game ``index`` played to its end: (state, leaders by round, stopped by the cap, policy of each player)."""
    engine = engine or get_engine(spec.engine)
    state, players, names = new_game(spec, index, engine)
    leaders, capped = play_out(state, players, engine.round_cap(spec.rules))
    return state, leaders, capped, names


def record(spec: Spec, state, leaders, capped: bool, names: list[str], engine=None) -> dict:
    """The figures of one finished game, by seat (seat 1 plays first in round 1), and the engine's own."""
    engine = engine or get_engine(spec.engine)
    n = spec.players
    capped = capped or state.end == CAP      # the engine's own safeguard (a turn cap) stopped it
    seat_of = state.seats() if hasattr(state, "seats") else list(range(n))
    player_at = sorted(range(n), key=lambda p: seat_of[p])
    scores = state.scores()
    wins = shares(scores) if capped else state.returns()
    won = {p for p in range(n) if wins[p] > 0}
    # the round from which the eventual winners always were among the leaders
    clear = len(leaders)
    for r in range(len(leaders) - 1, -1, -1):
        if won & set(leaders[r]):
            clear = r + 1
        else:
            break
    changes, previous = 0, None
    for top in leaders:
        if len(top) == 1:
            if previous is not None and top[0] != previous:
                changes += 1
            previous = top[0]
    return {
        "rounds": min(state.round, engine.round_cap(spec.rules)) if capped else state.round,
        "end": CAP if capped else state.end,
        "seats": [{"policy": names[p], "score": scores[p], "win": wins[p]} for p in player_at],
        "lead_changes": changes,
        "clear_round": clear,
        "figures": engine.figures(state),
    }


def play_chunk(spec: Spec, start: int, stop: int) -> list[dict]:
    engine = get_engine(spec.engine)
    return [record(spec, *play_game(spec, i, engine), engine) for i in range(start, stop)]


def _play_chunk_frozen(spec: Spec, start: int, stop: int) -> list[dict]:
    """play_chunk with the cyclic collector paused, then move every object alive into its
    permanent generation.

    The records and the move caches only grow over a run and a game leaves no
    reference cycles behind (reference counting frees all of it), so the
    cyclic collector need not scan them again and again (that took about a
    tenth of a run's time) nor run while the games are played."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        out = play_chunk(spec, start, stop)
    finally:
        if was_enabled:
            gc.enable()
    gc.freeze()
    return out


def _play_worker_chunk(spec: Spec, bounds: tuple[int, int]) -> list[dict]:
    """In a worker process: one chunk.  The spec reached the worker once, as it started, so every
    chunk plays with the same rules objects, the keys of the move caches (not an unpickled copy each)."""
    return _play_chunk_frozen(spec, *bounds)


def _chunks(games: int, size: int = CHUNK):
    return [(start, min(start + size, games)) for start in range(0, games, size)]


def _pool_chunks(games: int, workers: int) -> list[tuple[int, int]]:
    """Chunks for a pool of workers: large ones first, as every chunk's result costs the parent
    process about a millisecond of waking up, shrinking to CHUNK games (fewer on short runs) so
    that the workers finish together."""
    least = max(1, min(CHUNK, games // (workers * 4)))
    out, start = [], 0
    while start < games:
        size = min(max(least, (games - start) // (workers * 4)), games - start)
        out.append((start, start + size))
        start += size
    return out


def run_games(spec: Spec, games: int, workers: int | None = None, cluster: str | None = None,
              progress: Callable[[int], None] | None = None) -> list[dict]:
    """Records of games 0..games-1, in order; ``progress(n)`` is told of every n games done."""
    if games < 1:
        raise OptionError("--games", f"must be at least 1, not {games}")
    if cluster:
        return _run_dask(spec, games, cluster, progress)
    workers = usable_cores() if workers is None else workers
    if workers < 1:
        raise OptionError("--workers", f"must be at least 1, not {workers}")
    out: list[dict] = []
    if workers == 1 or games == 1:
        chunks = _chunks(games, max(1, min(CHUNK, games // (workers * 4) or 1)))
        frozen_before = gc.get_freeze_count()
        try:
            for start, stop in chunks:
                out.extend(_play_chunk_frozen(spec, start, stop))
                if progress:
                    progress(stop - start)
        finally:
            if not frozen_before:  # leave a caller's own frozen objects as they were
                gc.unfreeze()
        return out
    chunks = _pool_chunks(games, workers)
    parts: list = [None] * len(chunks)

    def done(index: int, part: list[dict]) -> None:
        parts[index] = part
        if progress:
            progress(chunks[index][1] - chunks[index][0])

    was_enabled = gc.isenabled()
    gc.disable()   # the records hold no reference cycles: no need to scan them as they arrive
    try:
        run_tasks(_play_worker_chunk, spec, chunks, min(workers, len(chunks)), done,
                  died="a process playing games stopped unexpectedly (out of memory, or killed?); "
                       "try fewer --workers",
                  failed=lambda bounds, reason: f"playing games {bounds[0]}-{bounds[1] - 1} failed: {reason}")
    finally:
        if was_enabled:
            gc.enable()
    for part in parts:
        out.extend(part)
    return out


def _run_dask(spec: Spec, games: int, address: str, progress) -> list[dict]:
    try:
        from dask.distributed import Client
    except ImportError:
        raise OptionError("--cluster", "needs Dask: pip install 'kitgen[cluster]'") from None
    try:
        client = Client(address, timeout="10s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise OptionError("--cluster", f"cannot reach a Dask scheduler at {address} ({exc})") from None
    try:
        chunks = _chunks(games)
        futures = [client.submit(play_chunk, spec, a, b, pure=False) for a, b in chunks]
        out: list[dict] = []
        for (start, stop), future in zip(chunks, futures):
            try:
                out.extend(future.result())
            except KitgenError:
                raise
            except Exception as exc:   # a worker that died (KilledWorker), lost its scheduler, or failed
                reason = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
                raise WorkerFailed(f"playing games {start}-{stop - 1} on the Dask cluster at {address} "
                                   f"failed: {reason}") from None
            if progress:
                progress(stop - start)
        return out
    finally:
        client.close()
