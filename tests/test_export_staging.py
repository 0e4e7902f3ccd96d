"""Atomic writes: an interrupted or failed swap keeps the previous export folder or kit files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kitgen.outputs import files
from kitgen.outputs.files import OutputError, replace_folder, write_files


def _interrupt_move(monkeypatch, failure: BaseException, at: int = 2) -> list:
    """Make the ``at``-th os.replace call of the atomic writes raise ``failure``."""
    calls = []
    real = os.replace

    def replace(src, dst):
        calls.append((Path(src), Path(dst)))
        if len(calls) == at:
            raise failure
        return real(src, dst)

    monkeypatch.setattr(files.os, "replace", replace)
    return calls


def _contents(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir()}


@pytest.fixture
def previous(tmp_path) -> Path:
    target = tmp_path / "out" / "png"
    replace_folder(target, {"old.png": b"old bytes", "back.png": b"old back"})
    return target


def test_ctrl_c_between_the_two_moves_puts_the_old_folder_back(previous, monkeypatch):
    calls = _interrupt_move(monkeypatch, KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        replace_folder(previous, {"new.png": b"new bytes"})
    assert len(calls) == 3          # old aside, new in (interrupted), old back
    assert calls[0][0] == previous and calls[1][1] == previous
    assert _contents(previous) == {"old.png": b"old bytes", "back.png": b"old back"}
    assert not [p for p in previous.parent.iterdir() if p.name.startswith(".")]


def test_an_os_error_between_the_two_moves_puts_the_old_folder_back(previous, monkeypatch):
    _interrupt_move(monkeypatch, PermissionError(13, "Permission denied"))
    with pytest.raises(OutputError, match="--out: cannot write"):
        replace_folder(previous, {"new.png": b"new bytes"})
    assert _contents(previous) == {"old.png": b"old bytes", "back.png": b"old back"}
    assert not [p for p in previous.parent.iterdir() if p.name.startswith(".")]


def test_ctrl_c_after_the_swap_keeps_the_new_folder(previous, monkeypatch):
    real = os.replace
    done = []

    def replace(src, dst):
        real(src, dst)
        done.append(dst)
        if len(done) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(files.os, "replace", replace)
    with pytest.raises(KeyboardInterrupt):
        replace_folder(previous, {"new.png": b"new bytes"})
    assert _contents(previous) == {"new.png": b"new bytes"}
    assert not [p for p in previous.parent.iterdir() if p.name.startswith(".")]


def test_ctrl_c_between_two_kit_files_puts_every_old_file_back(tmp_path, monkeypatch):
    kit = tmp_path / "kit"
    write_files(kit, {"cards.pdf": b"old cards", "rules.pdf": b"old rules", "notes.txt": b"mine"})
    calls = _interrupt_move(monkeypatch, KeyboardInterrupt(), at=4)   # cards.pdf is in, rules.pdf aside
    with pytest.raises(KeyboardInterrupt):
        write_files(kit, {"cards.pdf": b"new cards", "rules.pdf": b"new rules"})
    assert len(calls) == 6          # two set aside, one in, one interrupted, two put back
    assert _contents(kit) == {"cards.pdf": b"old cards", "rules.pdf": b"old rules", "notes.txt": b"mine"}
