"""Games per second of Ancestral's rules engine: four greedy players, 1 and 2 worker processes.

Run from the repository root:  python benchmarks/bench_ancestral.py [GAMES]
Target on a 2-core machine: at least 500 four-player greedy games per second
with two workers.  Each game is played through the engine protocol alone
(current_player, the player's choose, apply_action, is_terminal, then the
game's figures), as a generic simulator plays it.

Besides the wall-clock rate it prints the processor time the run used (this
process and its workers) and the games per processor-second: on a machine
other programs keep busy, two workers cannot have both cores.
"""

from __future__ import annotations

import multiprocessing
import random
import resource
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kitgen.data.game import load_game  # noqa: E402
from kitgen.outputs.workers import usable_cores  # noqa: E402
from solver.ancestral.engine import ENGINE  # noqa: E402

RULES = ENGINE.rules(load_game("ancestral"), {})


def processor_seconds() -> float:
    own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def play(seeds: range) -> list[str]:
    ends = []
    for seed in seeds:
        state = ENGINE.new_game(RULES, 4, random.Random(seed))
        players = [ENGINE.policies["greedy"](random.Random(seed * 4 + p)) for p in range(4)]
        while not state.is_terminal():
            p = state.current_player()
            state.apply_action(players[p].choose(state, p))
        ENGINE.figures(state)
        ends.append(state.end)
    return ends


def measure(games: int, workers: int) -> tuple[float, float, Counter]:
    chunks = [range(start, min(games, start + 250)) for start in range(0, games, 250)]
    cpu, started = processor_seconds(), time.perf_counter()
    if workers == 1:
        ends = [e for chunk in chunks for e in play(chunk)]
    else:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            ends = [e for part in pool.map(play, chunks) for e in part]
    seconds, cpu = time.perf_counter() - started, processor_seconds() - cpu
    assert len(ends) == games
    return seconds, cpu, Counter(ends)


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 5_000
    cores = usable_cores()
    print(f"Ancestral: {games} four-player games, greedy policy, {cores} core(s) available")
    for workers in sorted({1, min(2, cores)}):
        seconds, cpu, ends = measure(games, workers)
        print(f"  {workers} worker(s): {seconds:6.1f} s  {games / seconds:7.0f} games/s   "
              f"processor {cpu:6.1f} s  {games / cpu:5.0f} games per processor-second   ends: {dict(ends)}")


if __name__ == "__main__":
    main()
