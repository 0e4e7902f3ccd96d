"""What kitgen prints, compared between a git revision and the working tree, file by file.

Run from the repository root:  python benchmarks/prints_unchanged.py [--base REV] [--only NAME ...]

It extracts REV (default: main) with ``git archive`` and builds the same games with that code and
with the working tree's: the three built-in games, the docs' example games, bench_build.py's two
1,000-card decks (kitgen's own face; an eight-box layout of its own with icons in its texts) and a
varied deck of 600 cards whose names, texts, values and art differ from card to card (long names,
long texts that take room from the art, cards without art or value).  Each is built as
``kitgen build`` writes it, and the built-in games and the examples again at another card size
with a bleed.  It prints, file by file, whether the two are byte-identical, and exits 1 if any
file differs.  ``KITGEN_NO_MEMO=1`` in the environment draws every card on its own, in both trees
that know the switch.
"""

from __future__ import annotations

import argparse
import csv
import filecmp
import os
import random
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_build import layout_game, synthetic_game  # noqa: E402
from kitgen.data.builtin import builtin_dirs  # noqa: E402

EXAMPLES = ROOT / "docs" / "examples"
WORDS = ("draw", "gain", "discard", "a card", "two coins", ":coin:", "then", "each opponent", "**once**",
         "at the end of your turn", "trash", "reveal the top card of your deck", "if you do")


def varied_game(folder: Path, cards: int = 600) -> Path:
    """A deck drawn with kitgen's own face whose cards all differ: names of 3 to 40 letters, texts from
    none to a paragraph that takes room from the art, values and corner marks or neither, art or none."""
    rng = random.Random(22)
    data, templates, art = builtin_dirs("altun-ha")
    folder.mkdir()
    (folder / "art").mkdir()
    pictures = sorted(p.name for p in art.glob("*.png") if "token" not in p.name)
    for name in pictures:
        (folder / "art" / name).write_bytes((art / name).read_bytes())
    (folder / "icons").mkdir()
    (folder / "icons" / "coin.png").write_bytes((art / "jade.png").read_bytes())
    (folder / "game.toml").write_text('title = "Varied"\n[columns]\ncorner = "mark"\n', encoding="utf-8")
    with open(folder / "cards.csv", "w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(["name", "type", "count", "value", "mark", "text", "art"])
        for i in range(cards):
            name = " ".join(rng.choice(("Jade", "Obsidian", "Sun", "Rain", "Temple", "Market", "Scribe",
                                        "Long-Forgotten", "Ceremonial", "Q"))
                            for _ in range(rng.choice((1, 1, 2, 3, 4))))
            text = " ".join(rng.choice(WORDS) for _ in range(rng.choice((0, 0, 4, 12, 24, 36))))
            value = rng.choice(("", "1", "6", "9", "12", "100"))
            mark = rng.choice(("", "", "A", "★")) if not value else ""
            out.writerow([name, rng.choice(("bid", "trade", "god")), 1, value, mark, text.capitalize(),
                          rng.choice(pictures + [""])])
    return folder


def games(work: Path) -> list[tuple[str, str, list[str]]]:
    """(name, game, extra options) of every build compared."""
    made = work / "games"
    made.mkdir()
    builds = []
    for slug in ("altun-ha", "temple-of-inscriptions", "ancestral"):
        builds += [(slug, slug, []), (f"{slug}-bridge-bleed", slug, ["--card-size", "bridge", "--bleed", "3"])]
    for example in sorted(p.name for p in EXAMPLES.iterdir() if (p / "layouts.toml").exists()):
        game = f"TREE/docs/examples/{example}"       # each tree's own: the example as that revision writes it
        builds += [(example, game, []), (f"{example}-tarot-bleed", game, ["--card-size", "tarot", "--bleed", "2"])]
    builds.append(("synthetic-1000", str(synthetic_game(made / "synthetic")), []))
    builds.append(("layout-deck-1000", str(layout_game(made / "layout-deck")), []))
    builds.append(("varied-600", str(varied_game(made / "varied")), []))
    return builds


def extract(rev: str, into: Path) -> Path:
    data = subprocess.run(["git", "archive", rev], cwd=ROOT, check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def build(tree: Path, game: str, options: list[str], out: Path) -> str:
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    game = game.replace("TREE", str(tree))
    if game.startswith(str(tree)) and not Path(game).exists():
        return "exit -\n(this revision has no such example)"
    empty = out.parent / "cwd"                      # a built-in game's name is not a folder here
    empty.mkdir(exist_ok=True)
    done = subprocess.run([sys.executable, "-m", "kitgen", "build", game, "--out", str(out), *options],
                          cwd=empty, env=env, capture_output=True, text=True)
    return f"exit {done.returncode}\n{done.stderr.replace(str(tree), 'TREE')}"


def compare(a: Path, b: Path) -> list[str]:
    """The files that differ between two folders, or are in one only."""
    names = sorted({p.relative_to(a) for p in a.rglob("*") if p.is_file()} |
                   {p.relative_to(b) for p in b.rglob("*") if p.is_file()})
    return [str(n) for n in names if not ((a / n).is_file() and (b / n).is_file() and
                                          filecmp.cmp(a / n, b / n, shallow=False))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="main", help="the git revision to compare with (default: main)")
    parser.add_argument("--only", nargs="*", help="only the builds whose names start with these")
    args = parser.parse_args()
    different = 0
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        base = extract(args.base, work / "base")
        for name, game, options in games(work):
            if args.only and not name.startswith(tuple(args.only)):
                continue
            outs = []
            for side, tree in (("base", base), ("here", ROOT)):
                out = work / side / "out" / name
                out.parent.mkdir(parents=True, exist_ok=True)
                log = build(tree, game, options, out)
                (out.parent / f"{name}.log").write_text(log, encoding="utf-8")
                outs.append((out, log))
            (a, log_a), (b, log_b) = outs
            differ = compare(a, b) + (["(messages)"] if log_a != log_b else [])
            different += bool(differ)
            failed = " (both builds failed: see the messages)" if not log_b.startswith("exit 0") else ""
            print(f"{name:36} {'same bytes' if not differ else 'DIFFERENT: ' + ', '.join(differ)}{failed}",
                  flush=True)
            if failed and not differ:
                print(f"  {log_b.strip()}")
            if log_a != log_b:
                print(f"  {args.base}: {log_a.strip()}\n  here: {log_b.strip()}")
    sys.exit(1 if different else 0)


if __name__ == "__main__":
    main()
