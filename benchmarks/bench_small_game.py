"""The fixed cost of a small game's validate and build, per call, in one process.

Run from the repository root:  python benchmarks/bench_small_game.py [--calls N]

Two games: one card type with one card (the smallest game the tests write) and
the starter game (``kitgen new``).  Each is validated and built twice to warm
up (fonts registered, caches filled, as in a long-lived process: the test
suite, the web server), then ``--calls`` times; the script prints the CPU time
(user + system of this process) per call.  To compare with another revision,
extract it (``git archive REV | tar -x -C DIR``) and run this script with
``PYTHONPATH=DIR``; run the two in turn, as the machine's speed drifts.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path


def one_card_game(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "game.toml").write_text('title = "Test Game"\nplayers = "2-4"\ncard_size = "poker"\n\n'
                                      '[types.plain]\nlabel = "Plain"\ncolor = "#336699"\n', encoding="utf-8")
    (folder / "cards.csv").write_text("name,type,count\nOne,plain,2\n", encoding="utf-8")
    return folder


def per_call(what, calls: int) -> float:
    what(0)
    what(1)
    start = time.process_time()
    for i in range(calls):
        what(i)
    return (time.process_time() - start) / calls * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=60, help="calls timed of each (default 60)")
    args = parser.parse_args()

    import kitgen
    from kitgen.outputs.kit import build_kit, validate_game
    from kitgen.outputs.starter import write_starter

    print(f"kitgen from {Path(kitgen.__file__).parent}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        starter = tmp / "starter"
        write_starter(starter, "Export Test")
        for name, game in (("one card", one_card_game(tmp / "one")), ("starter", starter)):
            check = per_call(lambda i: validate_game(game), args.calls)
            build = per_call(lambda i: build_kit(game, tmp / f"out{i % 3}"), args.calls)
            print(f"{name:>9}: validate {check:6.2f} ms CPU a call, build {build:6.2f} ms CPU a call")


if __name__ == "__main__":
    main()
