"""Playing many games: one game's record, local parallel runs, and the Dask path.

Each game's randomness comes from ``random.Random(f"{seed}/{index}")`` alone,
so a game plays the same whichever worker runs it, and records are gathered
in index order: the same seed gives the same results for any number of
workers or machines.
"""

from __future__ import annotations

import gc
import random
from dataclasses import dataclass
from typing import Callable

from kitgen.errors import KitgenError, OptionError, WorkerFailed
from kitgen.outputs.workers import run_tasks, usable_cores
from solver.altunha.sim.engine import Game
from solver.altunha.sim.policies import make_policy
from solver.altunha.sim.variants import Setup

CHUNK = 25


@dataclass(frozen=True)
class Spec:
    """What to play: the setup (rules, deck, round cap), the number of players, their policies
    (cycled over players), the seed."""

    setup: Setup
    players: int
    policies: tuple[str, ...]
    seed: int


def play_game(spec: Spec, index: int, check=None) -> Game:
    rng = random.Random(f"{spec.seed}/{index}")
    game = Game(spec.setup, spec.players, rng)
    policies = [make_policy(spec.policies[p % len(spec.policies)]) for p in range(spec.players)]
    return game.play(policies, check)


def record(spec: Spec, game: Game) -> dict:
    """The figures of one finished game, by seat (seat 1 holds the Calendar in round 1)."""
    n = game.n
    step = 1 if game.R.calendar_clockwise else -1
    first = (game.dealt_calendar + step) % n
    seat_of = [(p - first) % n for p in range(n)]
    player_at = sorted(range(n), key=lambda p: seat_of[p])
    winners = set(game.winners)
    seats = []
    for p in player_at:
        seats.append({"policy": spec.policies[p % len(spec.policies)], "score": game.scores[p],
                      "win": (1.0 / len(winners)) if p in winners else 0.0,
                      "points": [game.points[p][s] for s in spec.setup.sources]})
    # the round from which the eventual winners always were among the leaders
    clear = len(game.leaders)
    for r in range(len(game.leaders) - 1, -1, -1):
        if winners & set(game.leaders[r]):
            clear = r + 1
        else:
            break
    changes, previous = 0, None
    for leaders in game.leaders:
        if len(leaders) == 1:
            if previous is not None and leaders[0] != previous:
                changes += 1
            previous = leaders[0]
    famine = game.end == "famine"
    decisive = False
    if famine:
        undone = list(game.scores)
        undone[game.famine_by] -= game.points[game.famine_by]["famine"]
        top = max(undone)
        decisive = {p for p, s in enumerate(undone) if s == top} != winners
    return {
        "rounds": game.round,
        "end": game.end,
        "dealt_calendar_seat": seat_of[game.dealt_calendar],
        "seats": seats,
        "trades": [(name, seat_of[p]) for name, p in game.trade_plays],
        "king_rounds": game.king_rounds,
        "empty_rounds": game.empty_rounds,
        "no_build": game.no_build,
        "declined": game.declined,
        "build_rounds": game.build_rounds,
        "reasons": dict(sorted(game.reasons.items())),
        "max_no_king_streak": game.max_no_king_streak,
        "lead_changes": changes,
        "clear_round": clear,
        "famine_seat": seat_of[game.famine_by] if famine else None,
        "famine_margin": game.famine_margin if famine else None,
        "famine_winner": bool(famine and game.famine_by in winners),
        "famine_empty_bid": bool(famine and game.famine_empty_bid),
        "famine_decisive": decisive,
        "final_population": game.population,
    }


def play_chunk(spec: Spec, start: int, stop: int) -> list[dict]:
    return [record(spec, play_game(spec, i)) for i in range(start, stop)]


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
