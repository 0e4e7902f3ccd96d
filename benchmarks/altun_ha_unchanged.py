"""Altun Ha's answers and figures, compared between a git revision and the working tree.

Run from the repository root:  python benchmarks/altun_ha_unchanged.py [--base REV] [--games N]

It extracts REV (default: main) with ``git archive``, runs the same commands
with that code and with the working tree's (``kitgen solve`` questions, checks,
batches and errors; ``kitgen simulate`` runs over several seeds, player counts,
policy mixes, --set changes and a --compare variant; every game's rounds, end
and scores), and prints, output by output, whether they are byte-identical.

balance.json changed shape when the report became the same for every engine: a
file in the other shape is compared figure by figure instead (every figure of
the older file looked up in the newer, see :func:`figures`), and its findings as
sentences; the script says which comparison it made.  A command an older revision
refuses (a ruling it does not know yet) is recorded as its error and compared as such.
It exits 1 if anything differs.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

VARIANT = "name = \"bigger start\"\npopulation_start = 3\ntie_drop = false\n"

# (name, arguments after `kitgen simulate altun-ha`); N is replaced by --games
SIMULATIONS = [
    ("greedy-4p-seed0", ["-p", "4", "--policy", "greedy", "--seed", "0"]),
    ("mix-3p-seed7", ["-p", "3", "--seed", "7"]),
    ("random-2p-seed1", ["-p", "2", "--policy", "random", "--seed", "1"]),
    ("closer-greedy-5p-cap12", ["-p", "5", "--policy", "closer,greedy", "--seed", "3", "--set", "round_cap=12"]),
    ("rulings-4p-seed5", ["-p", "4", "--seed", "5", "--set", "chain=off", "--set", "empty_bid=never_wins",
                          "--set", "count.Jade=0", "--set", "amount.Obsidian=8"]),
    ("cautious-random-6p-empty-deck", ["-p", "6", "--policy", "cautious,random", "--seed", "11",
                                       "--set", "empty_deck_ends=on", "--set", "calendar_clockwise=on"]),
    ("compare-4p-seed9", ["-p", "4", "--seed", "9", "--compare", "VARIANT"]),
]

SOLVES = [
    ("best", ["--population", "7", "--hand", "Stage,Stairs,Sun God", "--temples", "2,3"]),
    ("best-json", ["--population", "7", "--hand", "Stage,Stairs,Sun God", "--temples", "2,3", "--json"]),
    ("famine", ["--population", "30", "--hand", "1,2,3"]),
    ("all", ["--population", "5", "--hand", "1,2,3,4,God", "--temples", "1,2", "--all"]),
    ("all-json", ["--population", "5", "--hand", "1,2,3,4,God", "--temples", "1,2", "--all", "--json"]),
    ("play", ["--population", "7", "--hand", "Stage,Stairs,Sun God", "--temples", "2,3",
              "--play", "farm Sun God; build Stage@1"]),
    ("play-json", ["--population", "4", "--hand", "1,2,3,4", "--play", "farm 4; build 1@new, 2@1", "--json"]),
    ("play-illegal", ["--population", "4", "--hand", "1,2,3,4", "--play", "farm 1; build 2@new"]),
    ("rule", ["--population", "6", "--hand", "1,2,6,Maize", "--rule", "chain=off",
              "--rule", "penalty_if_declined=on"]),
    ("bad-card", ["--population", "6", "--hand", "Stagee"]),
    ("bad-rule", ["--population", "6", "--hand", "1", "--rule", "chain=maybe"]),
    ("batch", ["--batch", "BATCH"]),
]
BATCH = "\n".join([
    json.dumps({"hand": ["Stage", "Stairs", "Sun God"], "population": 7, "temples": [2, 3]}),
    json.dumps({"hand": [1, 2, 3], "population": 2}),
    "not json",
    json.dumps({"hand": ["Maize", "1"], "population": 12, "temples": []}),
]) + "\n"

# every game of these runs: (rounds, end, scores and wins by seat)
GAMES_SNIPPET = r"""
import json, sys
players, policy, seed, games = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
try:
    from solver.simulation.runner import Spec, run_games
    from solver.engines import get_engine
    from kitgen.data.game import load_game
    engine = get_engine("altun-ha")
    rules = engine.rules(load_game("altun-ha"), {}, "--set")
    records = run_games(Spec("altun-ha", rules, players, tuple(policy.split(",")), seed), games, workers=1)
except ImportError:
    from solver.altunha.sim.runner import Spec, run_games
    from solver.altunha.sim.variants import load_setup
    records = run_games(Spec(load_setup(), players, tuple(policy.split(",")), seed), games, workers=1)
out = [[r["rounds"], r["end"], [s["score"] for s in r["seats"]], [s["win"] for s in r["seats"]],
        [s["policy"] for s in r["seats"]]] for r in records]
print(json.dumps(out))
"""
GAME_RUNS = [("greedy-4p", ["4", "greedy", "2024"]), ("mix-5p", ["5", "greedy,cautious,closer,random", "6"]),
             ("random-3p", ["3", "random", "8"])]


def extract(rev: str, into: Path) -> Path:
    data = subprocess.run(["git", "archive", rev], cwd=ROOT, check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def run(tree: Path, args: list[str], cwd: Path) -> tuple[int, bytes]:
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    done = subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True)
    return done.returncode, done.stdout + b"\n--- stderr ---\n" + done.stderr


def record(tree: Path, out: Path, games: int) -> None:
    out.mkdir(parents=True)
    (out / "variant.toml").write_text(VARIANT)
    (out / "batch.jsonl").write_text(BATCH)
    for name, args in SIMULATIONS:
        args = [str(out / "variant.toml") if a == "VARIANT" else a for a in args]
        code, text = run(tree, ["-m", "kitgen", "simulate", "altun-ha", "-n", str(games), "-j", "1", *args,
                                "--out", str(out / name)], out)
        if code:        # an older revision may not know a ruling: the failure is the output compared
            (out / f"{name}.failed.txt").write_bytes(f"exit {code}\n".encode() + text)
    for name, args in SOLVES:
        args = [str(out / "batch.jsonl") if a == "BATCH" else a for a in args]
        code, text = run(tree, ["-m", "kitgen", "solve", *args], out)
        (out / f"solve-{name}.txt").write_bytes(f"exit {code}\n".encode() + text)
    for name, args in GAME_RUNS:
        code, text = run(tree, ["-c", GAMES_SNIPPET, *args, str(games)], out)
        if code:
            raise SystemExit(f"{tree}: the games of {name} failed:\n{text.decode()}")
        (out / f"games-{name}.json").write_bytes(text.split(b"\n--- stderr ---\n")[0])


# where a figure of the older balance.json is in the newer one (the engine's own figures are looked
# up in its section, engine_report.figures, which figures() reads as if it were the summary itself)
MOVED = {("balance", "dealt_calendar_seat"): ("dealt_calendar_seat",),
         ("balance", "dealt_calendar_seat_win"): ("dealt_calendar_seat_win",)}
COMPARISON_LABELS = {"Famine ends the game": "Games ended in a famine"}
NEW_KEYS = ("engine", "seating", "end_words")     # figures the newer shape adds


def figures(data, path=()):
    """Every figure of a balance.json (the lists of findings apart) as {path: value}; the comparison rows
    by their label; an engine's own figures (engine_report.figures) under the paths of the summary."""
    if isinstance(data, dict):
        out = {}
        for key, value in data.items():
            if key in ("findings", "engine_report") or (not path[1:] and key in NEW_KEYS):
                continue
            if key == "comparison" and isinstance(value, list):
                for row in value:
                    label = COMPARISON_LABELS.get(row["figure"], row["figure"])
                    out.update(figures({k: v for k, v in row.items() if k != "figure"}, path + (key, label)))
                continue
            out.update(figures(value, path + (key,)))
        if isinstance(data.get("engine_report"), dict):
            out.update(figures(data["engine_report"].get("figures", {}), path))
        return out
    return {path: data}


def sentences(data) -> list[str]:
    """Every finding of a balance.json (and of its engine section), in order."""
    found = []
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "findings":
                found += value
            elif isinstance(value, dict):
                found += sentences(value)
    return found


def compare_balance(old: bytes, new: bytes) -> tuple[list[str], list[str]]:
    """(differences, notes): a figure or finding of ``old`` missing or changed in ``new`` is a difference;
    what ``new`` adds is a note."""
    if old == new:
        return [], []
    a, b = json.loads(old), json.loads(new)
    fa, fb = figures(a), figures(b)
    for key in list(fa):
        for old_path, new_path in MOVED.items():
            if key[1:1 + len(old_path)] == old_path:
                fa[(key[0], *new_path, *key[1 + len(old_path):])] = fa.pop(key)
    problems = [f"{'/'.join(map(str, k))}: {fa[k]!r} became {fb.get(k, 'missing')!r}"
                for k in fa if fb.get(k, "missing") != fa[k]]
    sa, sb = sentences(a), sentences(b)
    problems += [f"finding no longer made: {s}" for s in sa if s not in sb]
    notes = [f"new figure {'/'.join(map(str, k))}" for k in fb if k not in fa]
    notes += [f"new finding: {s}" for s in sb if s not in sa]
    return problems, notes


def compare_folders(base: Path, new: Path, verbose: bool) -> int:
    different = 0
    for path in sorted(base.rglob("*")):
        if path.is_dir() or path.suffix == ".pdf" or path.name in ("variant.toml", "batch.jsonl"):
            continue
        rel = path.relative_to(base)
        old_bytes = path.read_bytes()
        new_bytes = (new / rel).read_bytes() if (new / rel).exists() else b""
        if path.name == "balance.json":
            problems, notes = compare_balance(old_bytes, new_bytes)
            print(f"{rel}: " + ("byte-identical" if old_bytes == new_bytes else "DIFFERENT" if problems else
                                f"every figure and finding the same, in the new shape ({len(notes)} additions)"))
            different += len(problems)
            for line in problems[:20] + (notes if verbose else []):
                print(f"    {line}")
            continue
        same = old_bytes == new_bytes
        different += not same
        print(f"{rel}: {'byte-identical' if same else 'DIFFERENT'}")
    for path in sorted(new.rglob("*")):
        rel = path.relative_to(new)
        if path.is_file() and path.suffix != ".pdf" and not (base / rel).exists():
            different += 1
            print(f"{rel}: only in the working tree")
    print("all the same" if not different else f"{different} difference(s)")
    return 1 if different else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="main", help="the git revision to compare with (default: main)")
    parser.add_argument("--games", type=int, default=300, help="games of each simulation (default: 300)")
    parser.add_argument("--verbose", action="store_true", help="also list what the newer balance.json adds")
    parser.add_argument("--record", type=Path, metavar="DIR", help="only record the working tree's outputs in DIR")
    parser.add_argument("--recorded", type=Path, metavar="DIR",
                        help="compare with outputs recorded in DIR (by --record) instead of a revision's")
    options = parser.parse_args()
    if options.record:
        record(ROOT, options.record, options.games)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        base = options.recorded
        if base is None:
            base = tmp / "base"
            record(extract(options.base, tmp / "base-tree"), base, options.games)
        record(ROOT, tmp / "new", options.games)
        return compare_folders(base, tmp / "new", options.verbose)


if __name__ == "__main__":
    sys.exit(main())
