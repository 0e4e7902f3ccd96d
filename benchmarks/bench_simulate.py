"""Games per second of `kitgen simulate` for four greedy players, with 1 and 2 workers.

Run from the repository root:  python benchmarks/bench_simulate.py [GAMES]
Target on a 2-core machine: at least 1,000 four-player greedy games per second
with two workers, under the rulebook's rulings (the games end in famines).
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.altunha.sim.enumerate import clear_caches  # noqa: E402
from solver.altunha.sim.runner import Spec, default_workers, run_games  # noqa: E402
from solver.altunha.sim.stats import how_games_ended  # noqa: E402
from solver.altunha.sim.variants import load_setup  # noqa: E402


def measure(games: int, workers: int) -> tuple[float, dict[str, int]]:
    """Seconds taken, and how many games ended each way."""
    spec = Spec(load_setup(), 4, ("greedy",), 2024)
    clear_caches()  # forked workers would otherwise start with the caches an earlier run filled
    started = time.perf_counter()
    records = run_games(spec, games, workers=workers)
    seconds = time.perf_counter() - started
    assert len(records) == games
    return seconds, dict(Counter(r["end"] for r in records))


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    cores = default_workers()
    print(f"{games} four-player games, greedy policy, {cores} core(s) available")
    results = {}
    for workers in sorted({1, min(2, cores)}):
        seconds, ends = measure(games, workers)
        results[workers] = seconds
        print(f"  {workers} worker(s): {seconds:6.1f} s  {games / seconds:7.0f} games/s")
    if 2 in results:
        speedup = results[1] / results[2]
        print(f"  speed-up from 1 to 2 workers: {speedup:.2f}x ({100 * speedup / 2:.0f}% of linear)")
    print(f"  {how_games_ended(ends)}")
    best = games / min(results.values())
    print(f"  best rate {best:.0f} games/s (target: at least 1,000 with 2 workers)")


if __name__ == "__main__":
    main()
