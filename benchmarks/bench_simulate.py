"""Games per second of `kitgen simulate` for each registered engine (four greedy players, 1 and 2
workers), and the lookahead player's seconds a decision.

Run from the repository root:  python benchmarks/bench_simulate.py [GAMES] [--lookahead-games N]
Targets on a 2-core machine, with two workers: Altun Ha at least 1,000 four-player greedy
games a second, every other engine at least 500; the lookahead player at most 0.5 s a
decision at its default budget.

Besides the wall-clock rate it prints the processor time the run used (this process and its
workers) and the games per processor-second: on a machine other programs keep busy, two
workers cannot have both cores, and the processor time shows what the simulator itself costs.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kitgen.data.builtin import builtin_games  # noqa: E402
from kitgen.data.game import load_game  # noqa: E402
from kitgen.outputs.workers import usable_cores  # noqa: E402
from solver.engines import ENGINES, engine_key, get_engine  # noqa: E402
from solver.simulation.runner import Spec, run_games  # noqa: E402
from solver.lookahead import default_playouts  # noqa: E402
from solver.simulation.stats import end_words, how_games_ended  # noqa: E402

TARGET = {"altun-ha": 1000}
OTHERS = 500


def processor_seconds() -> float:
    """User and system time of this process and of its finished workers."""
    own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def games_of_engines() -> dict[str, str]:
    """A built-in game for each registered engine (by the key its game.toml names)."""
    out = {}
    for slug in builtin_games():
        key = engine_key(load_game(slug))
        if key in ENGINES and key not in out:
            out[key] = slug
    return out


def clear_caches(key: str) -> None:
    """Forked workers would otherwise start with the caches an earlier run filled."""
    engine = get_engine(key)
    if hasattr(engine, "clear_caches"):
        engine.clear_caches()


def measure(spec: Spec, games: int, workers: int) -> tuple[float, float, dict[str, int]]:
    """Wall seconds, processor seconds, and how many games ended each way."""
    clear_caches(spec.engine)
    cpu, started = processor_seconds(), time.perf_counter()
    records = run_games(spec, games, workers=workers)
    seconds, cpu = time.perf_counter() - started, processor_seconds() - cpu
    assert len(records) == games
    return seconds, cpu, dict(Counter(r["end"] for r in records))


def bench_engine(key: str, slug: str, games: int, cores: int) -> None:
    engine = get_engine(key)
    spec = Spec(key, engine.rules(load_game(slug), {}, "--set"), 4, ("greedy",), 2024)
    print(f"{engine.title} ({key}): {games} four-player games, greedy policy")
    results = {}
    for workers in sorted({1, min(2, cores)}):
        seconds, cpu, ends = measure(spec, games, workers)
        results[workers] = seconds
        print(f"  {workers} worker(s): {seconds:6.1f} s  {games / seconds:7.0f} games/s   "
              f"processor {cpu:6.1f} s  {games / cpu:5.0f} games per processor-second")
    if 2 in results:
        speedup = results[1] / results[2]
        print(f"  speed-up from 1 to 2 workers: {speedup:.2f}x ({100 * speedup / 2:.0f}% of linear)")
    print(f"  {how_games_ended(ends, end_words(engine))}")
    best = games / min(results.values())
    print(f"  best rate {best:.0f} games/s (target: at least {TARGET.get(key, OTHERS):,} with 2 workers)")


def bench_lookahead(key: str, slug: str, games: int) -> None:
    """Seconds a decision of the lookahead player at its default budget: every decision with more than one
    action that it makes in ``games`` whole four-player games against three greedy players (the lookahead
    player in a different seat each game), in processor time."""
    from solver.simulation.runner import new_game

    engine = get_engine(key)
    spec = Spec(key, engine.rules(load_game(slug), {}, "--set"), 4, ("lookahead", "greedy", "greedy", "greedy"), 7)
    seconds = []
    for index in range(games):
        state, players, names = new_game(spec, index)
        while not state.is_terminal():
            p = state.current_player()
            if names[p] == "lookahead" and len(state.legal_actions()) > 1:
                started = time.process_time()
                action = players[p].choose(state, p)
                seconds.append(time.process_time() - started)
            else:
                action = players[p].choose(state, p)
            state.apply_action(action)
    seconds.sort()
    mean = sum(seconds) / len(seconds)
    print(f"  lookahead ({default_playouts(engine)} playouts a decision): {mean:.3f} s a decision on average, median "
          f"{seconds[len(seconds) // 2]:.3f} s, slowest {seconds[-1]:.3f} s, over the {len(seconds)} decisions "
          f"of {games} whole games (processor time; target: at most 0.5 s)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=10_000)
    parser.add_argument("--lookahead-games", type=int, default=2, metavar="N",
                        help="whole games whose lookahead decisions are timed for each engine (0: none)")
    parser.add_argument("--engine", action="append", help="only this engine (repeatable)")
    options = parser.parse_args()
    cores = usable_cores()
    print(f"{cores} core(s) available")
    for key, slug in games_of_engines().items():
        if options.engine and key not in options.engine:
            continue
        bench_engine(key, slug, options.games, cores)
        if options.lookahead_games:
            bench_lookahead(key, slug, options.lookahead_games)


if __name__ == "__main__":
    main()
