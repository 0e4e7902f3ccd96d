"""Games per second of `kitgen simulate` for four greedy players, with 1 and 2 workers.

Run from the repository root:  python benchmarks/bench_simulate.py [GAMES]
Target on a 2-core machine: at least 1,000 four-player greedy games per second
with two workers, under the rulebook's rulings (the games end in famines).

Besides the wall-clock rate it prints the processor time the run used (this
process and its workers) and the games per processor-second: on a machine other
programs keep busy, two workers cannot have both cores, and the processor time
shows what the simulator itself costs.
"""

from __future__ import annotations

import resource
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kitgen.outputs.workers import usable_cores  # noqa: E402
from solver.altunha.sim.enumerate import clear_caches  # noqa: E402
from solver.altunha.sim.runner import Spec, run_games  # noqa: E402
from solver.altunha.sim.stats import how_games_ended  # noqa: E402
from solver.altunha.sim.variants import load_setup  # noqa: E402


def processor_seconds() -> float:
    """User and system time of this process and of its finished workers."""
    own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def measure(games: int, workers: int) -> tuple[float, float, dict[str, int]]:
    """Wall seconds, processor seconds, and how many games ended each way."""
    spec = Spec(load_setup(), 4, ("greedy",), 2024)
    clear_caches()  # forked workers would otherwise start with the caches an earlier run filled
    cpu, started = processor_seconds(), time.perf_counter()
    records = run_games(spec, games, workers=workers)
    seconds, cpu = time.perf_counter() - started, processor_seconds() - cpu
    assert len(records) == games
    return seconds, cpu, dict(Counter(r["end"] for r in records))


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    cores = usable_cores()
    print(f"{games} four-player games, greedy policy, {cores} core(s) available")
    results = {}
    for workers in sorted({1, min(2, cores)}):
        seconds, cpu, ends = measure(games, workers)
        results[workers] = seconds
        print(f"  {workers} worker(s): {seconds:6.1f} s  {games / seconds:7.0f} games/s   "
              f"processor {cpu:6.1f} s  {games / cpu:5.0f} games per processor-second")
    if 2 in results:
        speedup = results[1] / results[2]
        print(f"  speed-up from 1 to 2 workers: {speedup:.2f}x ({100 * speedup / 2:.0f}% of linear)")
    print(f"  {how_games_ended(ends)}")
    best = games / min(results.values())
    print(f"  best rate {best:.0f} games/s (target: at least 1,000 with 2 workers)")


if __name__ == "__main__":
    main()
