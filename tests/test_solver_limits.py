"""The solver and simulator against hostile input: an endless line in a batch file, a device or FIFO as a
variant file, digits of other scripts, games that do not declare Altun Ha's rules, worker processes that
die or fail, and Ctrl-C."""

from __future__ import annotations

import json
import os
import time

import pytest
from click.testing import CliRunner

from kitgen.cli import cli
from tests.conftest import run


def test_an_endless_batch_line_is_refused_before_it_is_read_whole():
    result = CliRunner().invoke(cli, ["solve", "--batch", "-"], input=b"\0" * (3 * 1024 * 1024))
    assert result.exit_code == 2
    assert result.output.splitlines() == ["Error: --batch: line 1 is longer than 1,048,576 bytes; "
                                          "give one JSON question per line"]


def _fifo(tmp_path):
    os.mkfifo(tmp_path / "variant.toml")
    return tmp_path / "variant.toml", "is a named pipe (FIFO), not a file"


def _large(tmp_path):
    path = tmp_path / "variant.toml"
    path.write_bytes(b"# " + b"x" * (1024 * 1024 - 2) + b"\n")         # one byte over 1 MB
    return path, "the file is 1,048,577 bytes; kitgen reads files of at most 1 MB"


@pytest.mark.parametrize("make", [
    lambda tmp_path: ("/dev/zero", "is a device, not a file"),
    _fifo,
    lambda tmp_path: (tmp_path, "is a folder, expected a file"),
    _large,
    lambda tmp_path: (tmp_path / "none.toml", "file not found"),
], ids=["dev-zero", "fifo", "folder", "over-1-MB", "missing"])
def test_compare_reads_only_a_regular_file_of_at_most_1_mb(tmp_path, make):
    path, problem = make(tmp_path)
    out = tmp_path / "out"
    start = time.monotonic()
    result = run("simulate", "-n", "5", "-j", "1", "--compare", path, "--out", out)
    assert time.monotonic() - start < 5
    assert result.exit_code == 2
    assert result.output.splitlines() == [f"Error: --compare: {path}: {problem}"]
    assert not out.exists()


def test_a_variant_file_of_exactly_1_mb_is_read(tmp_path):
    line = b"famine_penalty = 30\n"
    path = tmp_path / "padded.toml"
    path.write_bytes(b"# " + b"x" * (1024 * 1024 - 3 - len(line)) + b"\n" + line)
    assert path.stat().st_size == 1024 * 1024
    result = run("simulate", "-n", "5", "-j", "1", "--compare", path, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "out" / "altun-ha" / "balance.json").read_text(encoding="utf-8"))
    assert data["variant"]["name"] == "padded" and data["variant"]["rules"]["famine_penalty"] == 30
