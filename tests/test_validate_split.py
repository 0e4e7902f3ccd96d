"""`kitgen validate` of a large deck checks half the cards in a forked process: the same lines come
out, in the same order, as when one process checks every card.

The forked path runs only in a process without other threads, so the split runs in a fresh
process (a test worker has threads of its own); the lines are compared with a run made here,
where the cards are checked in this process.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from kitgen.outputs import card_checks
from tests.conftest import REPO, run
from tests.sheets import game_folder, layout_box

SCRIPT = """
import json, sys
from click.testing import CliRunner
from kitgen.cli import cli
from kitgen.outputs import card_checks, workers

card_checks.SPLIT_FROM = 100
workers.usable_cores = lambda: 2
forked = []
started = workers.Beside.__init__

def recording(self, func, *args):
    started(self, func, *args)
    forked.append(self.process is not None)

workers.Beside.__init__ = recording
results = []
for folder in sys.argv[1:]:
    forked.clear()
    result = CliRunner().invoke(cli, ["validate", folder])
    results.append({"exit_code": result.exit_code, "output": result.output, "forked": list(forked)})
print(json.dumps(results))
"""

ROWS = 400


def _deck(tmp_path, broken: bool):
    lines = ["Name,Qty,Shift,Text,Key,Secret,Spare"]
    for i in range(ROWS):
        name, text = f"Card {i}", "Draw a card."
        if broken and i in (30, 250, 390):
            name = "A name far too long to fit on the two lines of any card title " * 3   # one problem, 3 cards
        if broken and i in (40, 300):
            text = "Gain ᚢ."                                                   # a glyph the font lacks, two rows
        if broken and i == 260:
            name = "Card ᚠ"
        shift = "0.5" if i in (220, 230) else "12"      # a warning first met in the second half, once
        lines.append(f"{name},1,{shift},{text},{'Secret' if i > 300 else ''},hidden,x")
    folder = game_folder(tmp_path / "g", "\n".join(lines) + "\n", toml='face = "plain"\n')
    (folder / "layouts.toml").write_text(
        layout_box("plain", "title", "{{ name }}", x="5mm", y="5mm", w="100% - 10mm", h="12mm", size="12pt", lines=2)
        + layout_box("plain", "text", "{{ text }}{% if key %} {{ fields[key] }}{% endif %}", x="5mm", y="20mm",
                     w="100% - 10mm", h="30mm", size="9pt")
        + layout_box("plain", "shift", "{{ shift }}", x="{{ shift }}mm", y="60mm", w="10mm", h="5mm", size="7pt",
                     lines=1), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def split_runs(tmp_path_factory) -> dict[bool, tuple]:
    """Each deck (broken or not) and what validate said of it with the check split: both decks checked in
    one fresh process, one after the other."""
    folders = {broken: _deck(tmp_path_factory.mktemp(f"deck-{broken}"), broken) for broken in (True, False)}
    process = subprocess.run([sys.executable, "-c", SCRIPT, *(str(f) for f in folders.values())],
                             capture_output=True, text=True, cwd=REPO, timeout=120)
    assert process.returncode == 0, process.stderr
    return {broken: (folder, split) for (broken, folder), split in zip(folders.items(), json.loads(process.stdout))}


@pytest.mark.parametrize("broken", [True, False])
def test_a_split_check_gives_the_lines_of_one_process(split_runs, monkeypatch, broken):
    folder, split = split_runs[broken]
    assert split["forked"] == [True]
    monkeypatch.setattr(card_checks, "SPLIT_FROM", 10 ** 9)
    alone = run("validate", folder)
    assert (split["exit_code"], split["output"]) == (alone.exit_code, alone.output)
    lines = alone.output.splitlines()
    if broken:
        assert alone.exit_code == 2
        assert [line.split(", ")[1] for line in lines if line.startswith("Error:")] == \
            ["row 32", "row 42", "row 262", "row 302"]   # the long name once (its first card), each glyph's row
    else:
        assert alone.exit_code == 0
        warning = next(line for line in lines if "safe zone" in line)
        assert "(row 222," in warning                    # met first in the second half of the deck
        note = next(line for line in lines if line.startswith("Note:"))
        assert "Spare" in note and "Secret" not in note  # read (by a name in a cell) by late cards only
