"""Games per second of `kitgen simulate` for four greedy players, with 1 and 2 workers.

Run from the repository root:  python benchmarks/bench_simulate.py [GAMES]
Target on a 2-core machine: 10,000 four-player games in under 60 s, and two
workers within 10 % of twice the speed of one.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.altunha.sim.enumerate import clear_caches  # noqa: E402
from solver.altunha.sim.runner import Spec, default_workers, run_games  # noqa: E402
from solver.altunha.sim.stats import how_games_ended  # noqa: E402
from solver.altunha.sim.variants import load_rules  # noqa: E402


def measure(games: int, workers: int) -> tuple[float, dict[str, int]]:
    """Seconds taken, and how many games ended each way."""
    spec = Spec(load_rules(), 4, ("greedy",), 2024)
    clear_caches()  # forked workers would otherwise start with the caches an earlier run filled
    started = time.perf_counter()
    records = run_games(spec, games, workers=workers)
    seconds = time.perf_counter() - started
    assert len(records) == games
    ends: dict[str, int] = {}
    for r in records:
        ends[r["end"]] = ends.get(r["end"], 0) + 1
    return seconds, ends


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
    line = how_games_ended(ends)
    if "famine" not in ends:
        line += " (none by famine: these are timings of games the simulator cut off)"
    print(f"  {line}")
    best = min(results.values())
    print(f"  10,000 games would take {best * 10_000 / games:.1f} s at the best rate (target < 60 s)")


if __name__ == "__main__":
    main()
