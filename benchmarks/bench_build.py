"""Build speed: the whole Altun Ha kit against protograf, and a synthetic 1,000-card deck.

Run from the repository root:  python benchmarks/bench_build.py [--pairs N] [--no-protograf]

Every build runs as a fresh process, start-up included.

1. Side by side: `kitgen build altun-ha` (80 cards, rulebook and aids) against
   protograf 0.5.2 building a bare 80-card deck (benchmarks/protograf_deck.py).
   The two run in turn, A B A B ..., after one warm-up run each (both then
   run from byte-code caches, as installed packages do); the script
   prints both medians and the median of the pairwise ratios kitgen/protograf
   (pairing keeps the ratio honest when the machine's speed drifts).
   protograf is installed only in this benchmark's own virtual environment,
   benchmarks/.venv-protograf (git-ignored), created on first use.
2. The Altun Ha kit alone (best of 5: time, peak memory, kit size), a
   synthetic 1,000-card deck drawn with kitgen's own face (best of 3: time,
   peak memory), and a deck of 1,000 different cards drawn with an eight-box
   layout of its own whose texts hold icons (best of 3).
"""

from __future__ import annotations

import argparse
import csv
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from kitgen.data.builtin import builtin_dirs  # noqa: E402

PROTOGRAF = "protograf==0.5.2"
PROTOGRAF_VENV = REPO / "benchmarks" / ".venv-protograf"
PROTOGRAF_DECK = REPO / "benchmarks" / "protograf_deck.py"


def kitgen_cmd() -> list[str]:
    """The kitgen of the Python running this script (its venv's script), else the one on PATH."""
    beside = Path(sys.executable).with_name("kitgen")
    exe = str(beside) if beside.exists() else shutil.which("kitgen")
    return [exe] if exe else [sys.executable, "-c", "from kitgen.cli import main; main()"]


# Both tools run from byte-code caches, as installed packages do (pip compiles them at install;
# an editable install writes them on its first run unless PYTHONDONTWRITEBYTECODE is set).
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run(cmd: list[str], what: str) -> tuple[float, float, float]:
    """Run ``cmd`` as a fresh process: wall seconds, CPU seconds (user + system), peak memory in MB."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=REPO, env=CHILD_ENV, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    stderr = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    proc.stderr.close()
    if proc.returncode != 0:
        sys.exit(f"{what} failed (exit {proc.returncode}): {stderr.decode(errors='replace').strip()}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def best_of(cmd: list[str], what: str, repeat: int) -> tuple[float, float, float]:
    """As :func:`run`, over ``repeat`` fresh processes: the best wall and CPU times, the largest peak
    memory (CPU time is what to compare when other work shares the machine)."""
    runs = [run(cmd, what) for _ in range(repeat)]
    return min(r[0] for r in runs), min(r[1] for r in runs), max(r[2] for r in runs)


def protograf_python() -> Path:
    """The Python of the benchmark's own protograf environment, made on first use."""
    python = PROTOGRAF_VENV / "bin" / "python"
    if not python.exists():
        print(f"first run: installing {PROTOGRAF} into {PROTOGRAF_VENV.relative_to(REPO)} "
              "(the benchmark's own environment, not a kitgen dependency) ...", flush=True)
        venv.create(PROTOGRAF_VENV, with_pip=True)
        pip = subprocess.run([str(python), "-m", "pip", "install", "-q", PROTOGRAF],
                             capture_output=True, text=True)
        if pip.returncode != 0:
            shutil.rmtree(PROTOGRAF_VENV, ignore_errors=True)
            sys.exit(f"could not install {PROTOGRAF}: {pip.stderr.strip()[-500:]}\n"
                     "(run again with --no-protograf for kitgen's own figures)")
    version = subprocess.run([str(python), "-c", "import importlib.metadata as m; print(m.version('protograf'))"],
                             capture_output=True, text=True).stdout.strip()
    if f"protograf=={version}" != PROTOGRAF:
        sys.exit(f"{PROTOGRAF_VENV.relative_to(REPO)} holds protograf {version or '(none)'}, not {PROTOGRAF}; "
                 "delete that folder and run again")
    return python


def side_by_side(tmp: Path, pairs: int) -> None:
    """kitgen's whole Altun Ha kit (A) against protograf's bare 80-card deck (B), in turn."""
    python = protograf_python()
    (tmp / "protograf").mkdir()
    a_cmd = [*kitgen_cmd(), "build", "altun-ha", "--out", str(tmp / "side")]
    b_cmd = [str(python), str(PROTOGRAF_DECK), "-d", str(tmp / "protograf")]
    run(a_cmd, "kitgen build altun-ha")            # warm-up: byte-code caches, font caches
    run(b_cmd, "the protograf deck")
    a_runs, b_runs = [], []
    for _ in range(pairs):
        a_runs.append(run(a_cmd, "kitgen build altun-ha"))
        b_runs.append(run(b_cmd, "the protograf deck"))
    med = statistics.median
    print(f"side by side, {pairs} pairs in turn (A B A B ...), fresh processes, medians:")
    print(f"  A kitgen, Altun Ha kit (80 cards + rulebook + aids): {med(r[0] for r in a_runs):.2f} s wall, "
          f"{med(r[1] for r in a_runs):.2f} s CPU")
    print(f"  B protograf 0.5.2, bare 80-card deck:               {med(r[0] for r in b_runs):.2f} s wall, "
          f"{med(r[1] for r in b_runs):.2f} s CPU")
    wall = med(a[0] / b[0] for a, b in zip(a_runs, b_runs))
    cpu = med(a[1] / b[1] for a, b in zip(a_runs, b_runs))
    print(f"  ratio A/B, median of pairs: {wall:.2f} wall, {cpu:.2f} CPU (target: <= 0.50)")


def altun_ha_art(folder: Path) -> list[str]:
    """Altun Ha's art copied into ``folder/art``; the names of its card pictures (not the tokens')."""
    shutil.copytree(builtin_dirs("altun-ha")[2], folder / "art", ignore=shutil.ignore_patterns("*.py"))
    return sorted(p.name for p in (folder / "art").glob("*.png") if "token" not in p.name)


def synthetic_game(folder: Path, cards: int = 1000, copies: int = 4) -> Path:
    """A game of `cards` cards: cards/copies kinds with text, values and the Altun Ha art."""
    data, templates, _ = builtin_dirs("altun-ha")
    shutil.copytree(data, folder)
    pictures = altun_ha_art(folder)
    shutil.copytree(templates, folder / "templates")
    toml = (folder / "game.toml").read_text(encoding="utf-8")
    toml = toml.replace('rulebook = "rules.md.j2"', "")      # the plain rulebook: Altun Ha's names its own cards
    (folder / "game.toml").write_text(toml.replace('title = "Altun Ha"', 'title = "Synthetic"'), encoding="utf-8")
    with open(folder / "cards.csv", "w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(["name", "type", "count", "value", "text", "art"])
        for i in range(cards // copies):
            kind = ("bid", "trade", "god")[i % 3]
            out.writerow([f"Card {i + 1:03d}", kind, copies, (i % 8) + 1 if kind != "trade" else "",
                          f"Effect number {i + 1}: draw {i % 4 + 1} cards, then discard one." if kind != "bid" else "",
                          pictures[i % len(pictures)]])
    return folder


LAYOUTS = REPO / "benchmarks" / "layout_deck.toml"   # eight boxes; the rules text holds icons


def layout_game(folder: Path, cards: int = 1000) -> Path:
    """A deck of ``cards`` different cards, drawn with the layout of LAYOUTS: eight boxes, icons in the rules."""
    from PIL import Image, ImageDraw

    folder.mkdir()
    pictures = altun_ha_art(folder)
    (folder / "icons").mkdir()
    for name, colour in (("coin", (214, 162, 58)), ("star", (60, 120, 200))):
        icon = Image.new("RGBA", (48, 48), (0, 0, 0, 0))
        ImageDraw.Draw(icon).ellipse((4, 4, 44, 44), fill=colour + (255,))
        icon.save(folder / "icons" / f"{name}.png")
    (folder / "game.toml").write_text('title = "Layout Bench"\nface = "bench"\n', encoding="utf-8")
    shutil.copyfile(LAYOUTS, folder / "layouts.toml")
    colours = ("#2f5da8", "#c44736", "#3f8f45", "#7a3b69", "#b8692a")
    with open(folder / "cards.csv", "w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(["name", "cost", "colour", "faction", "rules", "art"])
        for i in range(cards):
            out.writerow([f"Card number {i + 1}" + (" of the long name" if i % 7 == 0 else ""), i % 9,
                          colours[i % 5], ("North", "South", "East", "West")[i % 4],
                          f"Gain {i % 4 + 1} :coin:. **Then** draw {i % 3 + 1} cards; an opponent loses 1 :star:"
                          + (" and discards a card of their choice." if i % 2 else "."),
                          pictures[i % len(pictures)]])
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=9, help="A/B pairs of the side-by-side run (default 9)")
    parser.add_argument("--no-protograf", action="store_true", help="skip the side-by-side run")
    args = parser.parse_args()
    try:
        import _rl_accel  # noqa: F401
        accel = "with its C accelerator (rl_accel)"
    except ImportError:
        accel = "WITHOUT its C accelerator (pip install rl_accel)"
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, reportlab {accel}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        if not args.no_protograf:
            side_by_side(tmp, args.pairs)
        build = [*kitgen_cmd(), "build"]
        altun_s, altun_cpu, altun_mb = best_of([*build, "altun-ha", "--out", str(tmp / "out")], "kitgen build altun-ha", 5)
        kit = tmp / "out" / "altun-ha"
        size_mb = sum(p.stat().st_size for p in kit.iterdir()) / 1e6
        game = synthetic_game(tmp / "synthetic")
        big_s, big_cpu, big_mb = best_of([*build, str(game), "--out", str(tmp / "out")], "the synthetic build", 3)
        deck = layout_game(tmp / "layout-deck")
        lay_s, lay_cpu, lay_mb = best_of([*build, str(deck), "--out", str(tmp / "out")], "the layout deck's build", 3)
    print(f"Altun Ha kit (80 cards + rulebook + aids), end to end: {altun_s:.2f} s ({altun_cpu:.2f} s CPU), "
          f"{80 / altun_s:.0f} cards/s, peak {altun_mb:.0f} MB, kit size {size_mb:.2f} MB "
          f"(targets: < 1.5 s, < 3 MB)")
    print(f"synthetic 1,000-card deck, end to end:  {big_s:.2f} s ({big_cpu:.2f} s CPU), {1000 / big_s:.0f} cards/s, "
          f"peak {big_mb:.0f} MB (targets: < 5 s, < 400 MB)")
    print(f"1,000 different cards, an eight-box layout with icons in its text, end to end: {lay_s:.2f} s "
          f"({lay_cpu:.2f} s CPU), "
          f"{1000 / lay_s:.0f} cards/s, peak {lay_mb:.0f} MB (targets: < 5 s, < 400 MB)")


if __name__ == "__main__":
    main()
