"""XLSX workbooks built to exhaust kitgen, each read in a process whose address space is limited to 1 GB.

Every workbook of tests/xlsx_hostile.py's ``REFUSED`` (a cell at XFD99999 before A2, rows under
another prefix, a sheet that declares 1,000 bytes and holds 3 GiB, damaged archives, shared
strings that expand to gigabytes...) must end ``kitgen validate`` and ``kitgen build`` in one
``Error:`` line naming the workbook, exit status 2, leave the previous kit as it was, and never
take 512 MB; workbooks at kitgen's bounds (a million cells of text) must read in less.  A
workbook with one byte changed, anywhere, reads or is a clear error.  The cases run in one
helper process (tests/xlsx_hostile.py), each in a child of its own under ``RLIMIT_AS``, so an
over-allocation fails the case, never the machine; a case still running after a minute is
stopped as hung.  Times are reported, never asserted.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.xlsx_hostile import ALARM, COMMITTED, READ, REFUSED

PEAK_MB = 512
HOSTILE = Path(__file__).resolve().parent / "hostile"


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict:
    work = tmp_path_factory.mktemp("xlsx-bounds")
    process = subprocess.run([sys.executable, "-m", "tests.xlsx_hostile", str(work)], cwd=REPO, capture_output=True,
                             text=True, timeout=20 * ALARM)
    assert process.returncode == 0, process.stderr[-3000:]
    return json.loads((work / "results.json").read_text(encoding="utf-8"))


def _ended(result: dict) -> str:
    return f"killed by signal {result['signal']}" if result["signal"] else result.get("crash", "")


@pytest.mark.parametrize("name", list(REFUSED))
def test_a_hostile_workbook_is_one_line_naming_it_in_bounded_memory(name, results):
    result, expect = results[name], REFUSED[name][1]
    assert result["signal"] is None and "crash" not in result, _ended(result)
    for command in ("validate", "build"):
        code, output, exception = result[command]
        lines = output.splitlines()
        assert code == 2, f"{command}: exit {code}, {exception}\n{output[:2000]}"
        assert len(lines) == 1 and lines[0].startswith("Error: "), f"{command}: {output[:2000]}"
        assert "cards.xlsx" in lines[0] and expect in lines[0], f"{command}: {lines[0]}"
    assert result["kit_untouched"]
    assert result["peak_mb"] < PEAK_MB, f"{result['peak_mb']:.0f} MB"


@pytest.mark.parametrize("name", list(READ))
def test_a_workbook_at_the_bounds_reads_in_less_than_512_mb(name, results):
    result = results[name]
    assert result["signal"] is None and "crash" not in result, _ended(result)
    assert result["rows"] == READ[name][1]
    assert result["peak_mb"] < PEAK_MB, f"{result['peak_mb']:.0f} MB"


def test_a_workbook_with_any_byte_changed_reads_or_is_a_clear_error(results):
    result = results["fuzz"]
    assert result["signal"] is None and "crash" not in result, _ended(result)
    assert result["tried"] > 1000
    assert result["not_kitgen_errors"] == []


@pytest.mark.parametrize("name", COMMITTED)
def test_the_committed_hostile_folders_hold_what_the_builders_make(name):
    folder, (make, expect) = HOSTILE / name, REFUSED[name]
    assert (folder / "cards.xlsx").read_bytes() == make()
    assert (folder / "expect.txt").read_text(encoding="utf-8").strip() == expect
    data = "cards.xlsx#Chart" if name.endswith("chart-sheet") else "cards.xlsx"
    assert (folder / "game.toml.top").read_text(encoding="utf-8") == f'title = "Hostile"\ndata = "{data}"\n'
