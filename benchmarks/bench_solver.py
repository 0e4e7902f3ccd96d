"""Benchmark the Altun Ha turn solver: CP-SAT against the simulator's enumeration, and --batch.

Run from the repository root:  python benchmarks/bench_solver.py [--positions 1000] [--seed 1]

Positions are realistic: hands of 3..12 cards dealt from the real deck,
0..6 temples, Population 3..16.  Prints the median and p95 milliseconds per
solve for CP-SAT and for the simulator's exhaustive enumeration (with its
memo tables emptied before each position, so every answer is computed), and
their ratio, then times `kitgen solve --batch` on the same positions end to
end (a fresh process).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.altunha.cards import load_deck  # noqa: E402
from solver.altunha.rules import Rules, hand_counts  # noqa: E402
from solver.altunha.sim.enumerate import best_turn, clear_caches  # noqa: E402
from solver.altunha.solve import solve_turn  # noqa: E402


def positions(count: int, seed: int):
    deck = load_deck()
    pool = [c.name for c in deck.cards for _ in range(c.count)]
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        hand = sorted(rng.sample(pool, rng.randint(3, 12)), key=deck.sort_key)
        temples = [rng.randint(1, 8) for _ in range(rng.randint(0, 6))]
        out.append((hand, rng.randint(3, 16), temples))
    return out


def timed(fn, cases):
    times, answers = [], []
    for hand, population, temples in cases:
        start = time.perf_counter()
        answers.append(fn(hand, population, temples))
        times.append((time.perf_counter() - start) * 1000)
    return times, answers


def summary(times):
    return statistics.median(times), statistics.quantiles(times, n=20, method="inclusive")[-1]


def enumerated(hand, population, temples, rules, deck):
    clear_caches()
    return best_turn(*hand_counts(hand, deck), population, temples, rules)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    cases = positions(args.positions, args.seed)
    rules, deck = Rules.from_game(), load_deck()

    solve_turn(*cases[0], rules)  # load OR-Tools before timing
    cp_times, cp_plans = timed(lambda h, p, t: solve_turn(h, p, t, rules), cases)
    ref_times, ref_turns = timed(lambda h, p, t: enumerated(h, p, t, rules, deck), cases)
    agree = sum((a.outcome, a.points) == (b.outcome, b.points) for a, b in zip(cp_plans, ref_turns))

    cp_med, cp_p95 = summary(cp_times)
    ref_med, ref_p95 = summary(ref_times)
    print(f"{len(cases)} positions (hands 3-12 cards, 0-6 temples, Population 3-16), seed {args.seed}")
    print(f"  CP-SAT     median {cp_med:6.3f} ms   p95 {cp_p95:6.3f} ms per solve")
    print(f"  enumerated median {ref_med:6.3f} ms   p95 {ref_p95:6.3f} ms per solve")
    print(f"  ratio CP-SAT / enumerated: median {cp_med / ref_med:.1f}x, p95 {cp_p95 / ref_p95:.1f}x")
    print(f"  same outcome and points: {agree}/{len(cases)}")

    with tempfile.TemporaryDirectory() as tmp:
        batch = Path(tmp) / "positions.jsonl"
        batch.write_text("".join(json.dumps({"hand": h, "population": p, "temples": t}) + "\n"
                                 for h, p, t in cases), encoding="utf-8")
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", "from kitgen.cli import main; main()",
                               "solve", "--batch", str(batch)], cwd=ROOT, capture_output=True,
                              text=True, check=True)
        elapsed = time.perf_counter() - start
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    same = sum(a["points"] == p.points for a, p in zip(answers, cp_plans))
    print(f"  kitgen solve --batch: {len(answers)} answers in {elapsed:.2f} s end to end "
          f"({same} matching the in-process points)")


if __name__ == "__main__":
    main()
