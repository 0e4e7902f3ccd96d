"""Build speed: the whole Altun Ha kit and a synthetic 1,000-card deck.

Run from the repository root:  python benchmarks/bench_build.py
Each build runs as a fresh `kitgen build` process (start-up included), best of
several runs; peak memory is the child's maximum resident set size.
"""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from kitgen.data.builtin import builtin_dirs  # noqa: E402


def kitgen_cmd() -> list[str]:
    exe = shutil.which("kitgen")
    return [exe] if exe else [sys.executable, "-c", "from kitgen.cli import main; main()"]


# Runs one command and prints its peak resident memory in KiB (its own children only).
_MEASURE = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:]); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.exit(r.returncode)")


def timed_build(game: str, out: Path, repeat: int) -> tuple[float, float]:
    """Best wall time in seconds and peak memory in MB over `repeat` fresh processes."""
    best, peak = float("inf"), 0.0
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", _MEASURE, *kitgen_cmd(), "build", game, "--out", str(out)],
                              capture_output=True, text=True, cwd=REPO)
        elapsed = time.perf_counter() - start
        if proc.returncode != 0:
            sys.exit(f"build of {game} failed: {proc.stderr.strip()}")
        best = min(best, elapsed)
        peak = max(peak, int(proc.stdout.strip().splitlines()[-1]) / 1024)
    return best, peak


def synthetic_game(folder: Path, cards: int = 1000, copies: int = 4) -> Path:
    """A game of `cards` cards: cards/copies kinds with text, values and the Altun Ha art."""
    data, templates, art = builtin_dirs("altun-ha")
    shutil.copytree(data, folder)
    shutil.copytree(art, folder / "art", ignore=shutil.ignore_patterns("*.py"))
    shutil.copytree(templates, folder / "templates")
    toml = (folder / "game.toml").read_text(encoding="utf-8")
    (folder / "game.toml").write_text(toml.replace('title = "Altun Ha"', 'title = "Synthetic"'), encoding="utf-8")
    pictures = sorted(p.name for p in (folder / "art").glob("*.png") if "token" not in p.name)
    with open(folder / "cards.csv", "w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(["name", "type", "count", "value", "text", "art"])
        for i in range(cards // copies):
            kind = ("bid", "trade", "god")[i % 3]
            out.writerow([f"Card {i + 1:03d}", kind, copies, (i % 8) + 1 if kind != "trade" else "",
                          f"Effect number {i + 1}: draw {i % 4 + 1} cards, then discard one." if kind != "bid" else "",
                          pictures[i % len(pictures)]])
    return folder


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        altun_s, altun_mb = timed_build("altun-ha", tmp / "out", repeat=5)
        kit = tmp / "out" / "altun-ha"
        size_mb = sum(p.stat().st_size for p in kit.iterdir()) / 1e6
        game = synthetic_game(tmp / "synthetic")
        big_s, big_mb = timed_build(str(game), tmp / "out", repeat=3)
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    print(f"Altun Ha kit (80 cards + rulebook + aids), end to end: {altun_s:.2f} s, "
          f"{80 / altun_s:.0f} cards/s, peak {altun_mb:.0f} MB, kit size {size_mb:.2f} MB "
          f"(targets: < 1.5 s, < 3 MB)")
    print(f"synthetic 1,000-card deck, end to end:  {big_s:.2f} s, {1000 / big_s:.0f} cards/s, "
          f"peak {big_mb:.0f} MB (targets: < 5 s, < 400 MB)")


if __name__ == "__main__":
    main()
