"""The solver against hostile input: an endless line in a batch file."""

from __future__ import annotations


def test_an_endless_batch_line_is_refused_before_it_is_read_whole():
    from click.testing import CliRunner

    from kitgen.cli import cli

    result = CliRunner().invoke(cli, ["solve", "--batch", "-"], input=b"\0" * (3 * 1024 * 1024))
    assert result.exit_code == 2
    assert result.output.splitlines() == ["Error: --batch: line 1 is longer than 1,048,576 bytes; "
                                          "give one JSON question per line"]
