"""Arranging card faces: the processor time of validating games, where it goes mostly to laying out
each face (fitting its texts, checking their contrast), in one process.

Run from the repository root:  python benchmarks/bench_arrange.py [--calls N] [--profile FILE]

Four games: the three built-in ones and a game made by ``kitgen new --from`` from a
sheet of 500 card types (one card each).  Each is validated once to warm up (fonts
registered, as in a long-lived process), then ``--calls`` times; every validate
arranges every card face afresh.  The script prints the CPU time (user + system of
this process) per validate.  ``--profile FILE`` writes a cProfile of
the timed calls.  To compare with another revision, extract it (``git archive REV |
tar -x -C DIR``) and run this script with ``PYTHONPATH=DIR``.
"""

from __future__ import annotations

import argparse
import cProfile
import tempfile
import time
from pathlib import Path

GAMES = ("altun-ha", "temple-of-inscriptions", "ancestral")


def five_hundred_types(folder: Path) -> Path:
    """The game ``kitgen new --from`` makes of a sheet of 500 card types."""
    from kitgen.outputs.starter import write_from_sheet

    sheet = folder.parent / "many.csv"
    sheet.write_text("Name,Type\n" + "".join(f"Card {i},Kind {i}\n" for i in range(500)), encoding="utf-8")
    write_from_sheet(folder, sheet)
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=5, help="validates timed of each game (default 5)")
    parser.add_argument("--profile", type=Path, help="write a cProfile of the timed calls here")
    args = parser.parse_args()

    import kitgen
    from kitgen.outputs.kit import validate_game

    print(f"kitgen from {Path(kitgen.__file__).parent}")
    profile = cProfile.Profile() if args.profile else None
    total = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        games: list = [(name, name) for name in GAMES]
        games.append(("500 types", five_hundred_types(Path(tmp) / "many")))
        for name, folder in games:
            validate_game(folder)
            if profile:
                profile.enable()
            start = time.process_time()
            for _ in range(args.calls):
                validate_game(folder)
            spent = (time.process_time() - start) / args.calls
            if profile:
                profile.disable()
            total += spent
            print(f"{name:>22}: {spent * 1000:8.1f} ms CPU a validate")
    print(f"{'all':>22}: {total * 1000:8.1f} ms CPU")
    if profile:
        profile.dump_stats(str(args.profile))


if __name__ == "__main__":
    main()
