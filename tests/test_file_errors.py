"""What the file system answers about a user's path is one Error line naming the path and what it is, for
every command that takes one (the hostile game folders cover what a game folder holds)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from kitgen.data import files
from tests.conftest import copy_builtin, run_guarded

LONG = "a" * 300                 # one name longer than the 255 bytes a file system takes
LOOP = "is a loop of symbolic links"
TOO_LONG = "has a name too long for the file system"


def _one_error(result) -> str:
    lines = result.output.splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and lines[0].startswith("Error: "), result.output
    assert "Traceback" not in result.output
    return lines[0]


@pytest.fixture
def loop(tmp_path) -> Path:
    link = tmp_path / "loop"
    link.symlink_to("loop")
    return link


def test_the_game_given_on_the_command_line(loop, tmp_path):
    assert _one_error(run_guarded("validate", loop)) == f"Error: {loop}: {LOOP} (a link that leads back to " \
                                                         "itself, or a chain too long to follow)"
    assert TOO_LONG in _one_error(run_guarded("build", tmp_path / LONG))


def test_output_paths(tmp_path):
    assert "cannot create folder" in _one_error(run_guarded("build", "altun-ha", "--out", tmp_path / LONG / "x"))
    assert _one_error(run_guarded("calibrate", "--out", tmp_path / LONG)).startswith("Error: --out: ")
    assert not any(tmp_path.iterdir())


def test_kitgen_new_paths(loop, tmp_path):
    assert _one_error(run_guarded("new", loop)).startswith(f"Error: PATH {loop}: {LOOP}")
    assert _one_error(run_guarded("new", tmp_path / LONG)).endswith(TOO_LONG + " (at most 255 bytes a name, "
                                                                   "4,096 a path)")
    assert _one_error(run_guarded("new", tmp_path / "game", "--from", loop)).startswith(
        f"Error: --from {loop}: {LOOP}")
    assert not (tmp_path / "game").exists()


def test_a_file_kitgen_may_not_read(tmp_path, monkeypatch):
    """Tests run as root here, where no mode keeps a file from being read: the system's answer is made up."""
    game = copy_builtin("altun-ha", tmp_path / "game")
    locked = os.path.realpath(game / "art" / "plaza.png")
    opened = os.open

    def refusing(path, *args, **kwargs):
        if os.fspath(path) == locked:
            raise PermissionError(errno.EACCES, "Permission denied", path)
        return opened(path, *args, **kwargs)

    monkeypatch.setattr(files.os, "open", refusing)
    line = _one_error(run_guarded("validate", game))
    assert line.endswith("art file 'plaza.png': cannot be read: permission denied"), line
    assert "cards.csv, row 2, column 'art'" in line


@pytest.mark.parametrize(("code", "words"), [
    (errno.ELOOP, LOOP), (errno.ENAMETOOLONG, TOO_LONG), (errno.EACCES, "cannot be read: permission denied"),
    (errno.EISDIR, "is a folder, expected a file"), (errno.ENOENT, "file not found"),
    (errno.EIO, "cannot be read (Input/output error)"),
])
def test_each_answer_in_words(code, words, monkeypatch):
    def answer(path, *args, **kwargs):
        raise OSError(code, os.strerror(code), path)

    monkeypatch.setattr(files.os, "stat", answer)
    if code in (errno.ENOENT,):
        assert files.look("x", "where") is None             # nothing there is no error: the caller says
        return
    with pytest.raises(files.GameDataError) as caught:
        files.look("x", "art file 'x.png'")
    assert str(caught.value) == f"art file 'x.png': {words}" or str(caught.value).startswith(
        f"art file 'x.png': {words} (")
