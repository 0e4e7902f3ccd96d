"""Reading card sheets: a 10,000-row XLSX validated by `kitgen validate`, and the XLSX readers compared.

Run from the repository root:  python benchmarks/bench_sheets.py  (--million: only the last figures)
needs openpyxl (the test extra) to write the workbook and to time it as a reader.

Prints:
- `kitgen validate` of a game whose card sheet is a 10,000-row XLSX (a fresh
  process, start-up included; best of several runs), against the target of 3 s,
  and the same pinned to one core (validate checks half of a large deck in a
  second process where there is a second core), and a sheet whose every rules
  text is its own (each text is fitted to its box, where the first sheet's 7
  texts are fitted once each);
- reading the same sheet alone: kitgen's reader (its own reading of the workbook's XML
  within bounds, then python-calamine on the plain workbook written from it),
  python-calamine alone, and openpyxl (read-only);
- reading a million cells of text (the workbook at kitgen's bounds of tests/xlsx_hostile.py):
  kitgen's reader, its bounded reading alone with the fast path for plain rows and strings
  and with expat alone, and python-calamine alone; CPU seconds, best of 3.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

ROWS = 10_000
TARGET_S = 3.0


def kitgen_cmd() -> list[str]:
    exe = shutil.which("kitgen")
    return [exe] if exe else [sys.executable, "-c", "from kitgen.cli import main; main()"]


WORDS = "gain lose draw discard attack defend trade build swap reveal each player card token point turn".split()


def write_workbook(path: Path, rows: int = ROWS, distinct_texts: bool = False) -> None:
    """A sheet as a designer keeps one: name, type, quantity, cost, rules text, art, colour, notes.

    Quantities of 1 to 3 (mostly 1) make some 17,500 cards, within kitgen's bound of 20,000.  The
    rules texts are 7 sentences over and over, or (``distinct_texts``) each card's own, of 4 to 30
    words: a text is fitted to its box once, so distinct texts cost more."""
    import openpyxl

    rng = random.Random(1)
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Deck"
    sheet.append(["Name", "Type", "Qty", "Cost", "Rules Text", "Art", "Colour", "Flavour", "Tags", "Notes"])
    for i in range(rows):
        text = (" ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 30))).capitalize() + f" ({i})."
                if distinct_texts else f"Deal {i % 7} damage. Draw a card, then discard one.")
        sheet.append([f"Card {i}", rng.choice(["Spell", "Unit", "Item"]), rng.choice((1, 1, 2, 3)),
                      float(rng.randint(0, 9)), text,
                      "", rng.choice(["#2F5DA8", "#C4473680", None]), "A line of flavour", "fire, ice", None])
    book.save(path)


def best_of(repeat: int, run, clock=time.perf_counter) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = clock()
        run()
        best = min(best, clock() - start)
    return best


def million_cells() -> None:
    import io

    import python_calamine

    from kitgen.data.xlsx import read_xlsx, rewrite
    from tests.xlsx_hostile import million_cells_of_text

    data = million_cells_of_text()

    def cpu(run) -> float:
        return best_of(3, run, time.process_time)

    whole = cpu(lambda: read_xlsx(data, "cards.xlsx", None))
    fast = cpu(lambda: rewrite(data, "cards.xlsx", None, True))
    full = cpu(lambda: rewrite(data, "cards.xlsx", None, False))
    alone = cpu(lambda: python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(data))
                .get_sheet_by_index(0).to_python())
    print("a million cells of text (100,000 rows of 10 shared strings), CPU seconds, best of 3:")
    print(f"  kitgen's reader, all told:                    {whole:.2f} s ({whole / alone:.1f}x python-calamine)")
    print(f"  its bounded reading, fast path:               {fast:.2f} s")
    print(f"  its bounded reading, expat alone:             {full:.2f} s ({full / fast:.1f}x the fast path)")
    print(f"  python-calamine alone:                        {alone:.2f} s")


def main() -> None:
    import openpyxl
    import python_calamine

    from kitgen.data.sheet import read_sheet
    from kitgen.outputs.workers import usable_cores

    with tempfile.TemporaryDirectory() as tmp:
        folder, distinct = Path(tmp) / "big", Path(tmp) / "distinct"
        for game, texts in ((folder, False), (distinct, True)):
            game.mkdir()
            write_workbook(game / "cards.xlsx", distinct_texts=texts)
            (game / "game.toml").write_text('title = "Big"\ndata = "cards.xlsx"\n[columns]\ntext = "Rules Text"\n'
                                            'value = "Cost"\n', encoding="utf-8")
        book = folder / "cards.xlsx"

        def validate(game: Path = folder, one_core: bool = False):
            pin = (lambda: os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})) if one_core else None
            proc = subprocess.run([*kitgen_cmd(), "validate", str(game)], capture_output=True, text=True, cwd=REPO,
                                  preexec_fn=pin)
            if proc.returncode != 0:
                sys.exit(f"validate failed: {proc.stderr.strip()}")

        cores = usable_cores()
        validate_s = best_of(3, validate)
        one_core_s = best_of(3, lambda: validate(one_core=True)) if cores > 1 else None
        distinct_s = best_of(2, lambda: validate(distinct))

        def calamine():
            python_calamine.CalamineWorkbook.from_path(str(book)).get_sheet_by_index(0).to_python()

        def pyxl():
            wb = openpyxl.load_workbook(book, read_only=True, data_only=True)
            list(wb.worksheets[0].iter_rows(values_only=True))
            wb.close()

        kitgen_s = best_of(3, lambda: read_sheet(book, "cards.xlsx"))
        calamine_s = best_of(3, calamine)
        openpyxl_s = best_of(3, pyxl)

    print(f"kitgen validate, {ROWS:,}-row XLSX (fresh process, {cores} cores): {validate_s:.2f} s "
          f"(target < {TARGET_S:.0f} s: {'met' if validate_s < TARGET_S else 'MISSED'})")
    if one_core_s is not None:
        print(f"  the same on one core (no second process):  {one_core_s:.2f} s")
    print(f"  with every card's rules text its own:        {distinct_s:.2f} s")
    print("reading the sheet alone, best of 3:")
    print(f"  kitgen's reader (bounded XML, then calamine): {kitgen_s:.3f} s")
    print(f"  python-calamine alone:                        {calamine_s:.3f} s")
    print(f"  openpyxl, read-only:                          {openpyxl_s:.3f} s "
          f"({openpyxl_s / calamine_s:.1f}x python-calamine)")


if __name__ == "__main__":
    if sys.argv[1:] == ["--million"]:
        million_cells()
    else:
        main()
        million_cells()
