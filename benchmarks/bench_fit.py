"""Card arrangement and text fitting: the processor time of whole builds whose cost is mostly fitting.

Run from the repository root:  python benchmarks/bench_fit.py [--repeat N] [--keep DIR]

Builds, each as a fresh process (start-up included), the three built-in games
and the two 1,000-card decks of bench_build.py (the synthetic deck drawn with
kitgen's own face, and 1,000 different cards with an eight-box layout whose
texts hold icons), and prints the least CPU time (user + system) of ``--repeat``
runs of each.  ``--keep DIR`` leaves every build's files in DIR/<name>/, so two
versions of kitgen can be compared file by file (``cmp``, ``diff -r``): a
change to fitting must leave every file byte-identical.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_build import CHILD_ENV, kitgen_cmd, layout_game, synthetic_game  # noqa: E402

GAMES = ("altun-ha", "temple-of-inscriptions", "ancestral")


def cpu_of(cmd: list[str]) -> float:
    """CPU seconds (user + system) of ``cmd`` run to the end as a fresh process; it must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(cmd, cwd=REPO, env=CHILD_ENV, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    if done.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip()}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each build; the least CPU is shown")
    parser.add_argument("--keep", type=Path, help="leave each build's files in this folder")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        out = args.keep.resolve() if args.keep else tmp / "out"
        builds = [(game, game) for game in GAMES]
        builds.append(("synthetic-1000", str(synthetic_game(tmp / "synthetic-1000"))))
        builds.append(("layout-deck-1000", str(layout_game(tmp / "layout-deck-1000"))))
        for name, source in builds:
            cpu = min(cpu_of([*kitgen_cmd(), "build", source, "--out", str(out)]) for _ in range(args.repeat))
            print(f"{name:24s} {cpu:6.2f} s CPU (least of {args.repeat})", flush=True)


if __name__ == "__main__":
    os.chdir(REPO)
    main()
