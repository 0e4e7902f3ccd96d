"""Export speed: the 80-card Altun Ha deck as PNGs at 300 DPI, with 1 and 2 processes, and the other formats.

Run from the repository root:  python benchmarks/bench_export.py
Each export runs as a fresh `kitgen export` process (start-up included), best
of several runs.  Target: PNG export at 300 DPI under 15 s on 2 cores.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def kitgen_cmd() -> list[str]:
    exe = shutil.which("kitgen")
    return [exe] if exe else [sys.executable, "-c", "from kitgen.cli import main; main()"]


# Runs one command and prints the CPU seconds it and its children used.
_MEASURE = ("import resource, subprocess, sys; r = subprocess.run(sys.argv[1:]); "
            "u = resource.getrusage(resource.RUSAGE_CHILDREN); print(u.ru_utime + u.ru_stime); "
            "sys.exit(r.returncode)")


def timed_export(fmt: str, out: Path, repeat: int, *args: str) -> tuple[float, float]:
    """Best wall time over `repeat` fresh processes, and the CPU seconds of that run."""
    best = (float("inf"), 0.0)
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", _MEASURE, *kitgen_cmd(), "export", "altun-ha",
                               "--format", fmt, "--out", str(out), *args],
                              capture_output=True, text=True, cwd=REPO)
        elapsed = time.perf_counter() - start
        if proc.returncode != 0:
            sys.exit(f"export {fmt} failed: {proc.stderr.strip()}")
        best = min(best, (elapsed, float(proc.stdout.strip().splitlines()[-1])))
    return best


def main() -> None:
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        for jobs in (1, 2):
            seconds, cpu = timed_export("png", out, 3, "--dpi", "300", "--jobs", str(jobs))
            files = sorted((out / "altun-ha" / "png").iterdir())
            size_mb = sum(p.stat().st_size for p in files) / 1e6
            print(f"PNG export, 80-card Altun Ha deck ({len(files)} images, {size_mb:.1f} MB) at 300 DPI, "
                  f"{jobs} process{'es' if jobs > 1 else ''}: {seconds:.2f} s, {cpu:.2f} CPU s "
                  "(target: < 15 s with 2)")
        for fmt in ("print-shop", "tts", "contact-sheet"):
            print(f"{fmt} export: {timed_export(fmt, out, 3)[0]:.2f} s")


if __name__ == "__main__":
    main()
