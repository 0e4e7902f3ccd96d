"""Atomic writes: a folder swapped in whole, files written all or nothing, leftovers cleaned, the lock."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from kitgen.outputs import files
from kitgen.outputs import kit_lock as kit_lock_module
from kitgen.outputs.files import OutputError, clean_leftovers, replace_folder, write_files
from kitgen.outputs.kit_lock import kit_lock

OLD = {"cards.pdf": b"old cards", "rules.pdf": b"old rules"}
NEW = {"cards.pdf": b"new cards", "rules.pdf": b"new rules"}


def _contents(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


def _hidden(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


@pytest.fixture
def kit(tmp_path) -> Path:
    target = tmp_path / "out" / "game"
    replace_folder(target, OLD)
    return target


@pytest.fixture(params=["exchange", "two renames"])
def swap_mode(request, monkeypatch):
    """Both ways of swapping: the atomic exchange, and the two-rename fallback of other file systems."""
    if request.param == "two renames":
        monkeypatch.setattr(files, "exchange_available", False)
    return request.param


def test_the_new_folder_replaces_the_old_and_nothing_is_left_beside_it(kit, swap_mode):
    inode = kit.stat().st_ino
    replace_folder(kit, NEW)
    assert _contents(kit) == NEW
    assert kit.stat().st_ino != inode               # a new folder, not the old one rewritten
    assert _hidden(kit.parent) == []


def test_ctrl_c_while_staging_keeps_the_old_folder(kit, swap_mode, monkeypatch):
    real = files._write

    def write(path, data):
        if path.name == "rules.pdf":
            raise KeyboardInterrupt
        real(path, data)

    monkeypatch.setattr(files, "_write", write)
    with pytest.raises(KeyboardInterrupt):
        replace_folder(kit, NEW)
    assert _contents(kit) == OLD
    assert _hidden(kit.parent) == []


def test_ctrl_c_between_the_two_renames_puts_the_old_folder_back(kit, monkeypatch):
    monkeypatch.setattr(files, "exchange_available", False)
    real, calls = os.rename, []

    def rename(src, dst):
        calls.append((Path(src).name, Path(dst).name))
        if len(calls) == 2:                          # old aside done; the new one's move is interrupted
            raise KeyboardInterrupt
        real(src, dst)

    monkeypatch.setattr(files.os, "rename", rename)
    with pytest.raises(KeyboardInterrupt):
        replace_folder(kit, NEW)
    assert calls[0][0] == "game" and calls[0][1].endswith(".old") and calls[2] == (calls[0][1], "game")
    assert _contents(kit) == OLD
    assert _hidden(kit.parent) == []


def test_a_kill_between_the_two_renames_is_undone_by_the_next_write(kit):
    """The state a kill -9 leaves inside the fallback swap: the kit absent, the old one set aside
    and the new one staged.  The next write first puts the old kit back."""
    parent = kit.parent
    os.rename(kit, parent / ".game.kitgen-999-abcd.old")
    replace_folder(parent / ".game.kitgen-999-abcd.new", NEW)
    clean_leftovers(kit)
    assert _contents(kit) == OLD
    assert _hidden(parent) == []


def test_an_os_error_in_the_swap_keeps_the_old_folder(kit, swap_mode, monkeypatch):
    def refuse(*args):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(files.os, "rename", refuse)
    monkeypatch.setattr(files, "_exchange", lambda a, b: refuse())
    with pytest.raises(OutputError, match="--out: cannot write"):
        replace_folder(kit, NEW)
    assert _contents(kit) == OLD
    assert _hidden(kit.parent) == []


def test_other_entries_are_carried_over_as_hard_links(kit):
    (kit / "print-shop.pdf").write_bytes(b"an export")
    (kit / "png").mkdir()
    (kit / "png" / "a.png").write_bytes(b"a card")
    before = (kit / "png" / "a.png").stat().st_ino
    replace_folder(kit, NEW, keep_others=True)
    assert _contents(kit) == {**NEW, "print-shop.pdf": b"an export"}
    assert (kit / "png" / "a.png").read_bytes() == b"a card"
    assert (kit / "png" / "a.png").stat().st_ino == before     # linked, not copied


def test_leftovers_of_interrupted_writes_are_cleaned_by_the_next(kit):
    parent = kit.parent
    (parent / ".game.kitgen-1-aa.new").mkdir()
    (parent / ".game.kitgen-1-aa.new" / "cards.pdf").write_bytes(b"half")
    (parent / ".game.kitgen-2-bb.old").mkdir()
    (kit / ".kitgen-x1y2.tmp").mkdir()                       # staged by an interrupted write_files
    (kit / ".png.kitgen-3-cc.new").mkdir()                   # an interrupted png export
    (parent / ".other.kitgen-4-dd.new").mkdir()              # another game's: not ours to clean
    replace_folder(kit, NEW, keep_others=True)
    assert _hidden(parent) == [".other.kitgen-4-dd.new"]
    assert _hidden(kit) == []
    assert _contents(kit) == NEW


def test_ctrl_c_between_two_files_puts_every_old_file_back(tmp_path, monkeypatch):
    folder = tmp_path / "art"
    write_files(folder, {"a.png": b"old a", "b.png": b"old b", "notes.txt": b"mine"})
    real, calls = os.replace, []

    def replace(src, dst):
        calls.append(dst)
        if len(calls) == 4:                          # a.png is in, b.png set aside
            raise KeyboardInterrupt
        real(src, dst)

    monkeypatch.setattr(files.os, "replace", replace)
    with pytest.raises(KeyboardInterrupt):
        write_files(folder, {"a.png": b"new a", "b.png": b"new b"})
    assert _contents(folder) == {"a.png": b"old a", "b.png": b"old b", "notes.txt": b"mine"}
    assert _hidden(folder) == []


# --- the lock ----------------------------------------------------------------------

class Clock:
    """The lock's clock: time passes only as the lock sleeps, so a wait is measured in the lock's own steps,
    not in how busy the machine is."""

    def __init__(self):
        self.now, self.sleeps = 0.0, []

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def test_a_second_writer_waits_then_fails_naming_the_holder(kit, monkeypatch):
    clock = Clock()
    with kit_lock(kit, "kitgen build first-game"):
        monkeypatch.setattr(kit_lock_module, "time", SimpleNamespace(monotonic=clock.monotonic, sleep=clock.sleep,
                                                                     strftime=time.strftime))
        with pytest.raises(OutputError) as info:
            with kit_lock(kit, "kitgen build second", wait=0.3):
                pass
        monkeypatch.undo()
    message = str(info.value)
    assert message.startswith("--out: ") and str(kit) in message
    assert f"pid {os.getpid()}, kitgen build first-game" in message
    # it tried again every 0.05 s until its 0.3 s were up, then gave up: no sooner, no later
    assert set(clock.sleeps) == {0.05} and 0.3 <= clock.now < 0.35
    with kit_lock(kit, "kitgen build third", wait=0):          # free again once the first let go
        pass
    assert _hidden(kit.parent) == []


def test_the_lock_is_released_when_its_holder_is_killed(kit):
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from pathlib import Path; from kitgen.outputs.kit_lock import kit_lock\n"
         "with kit_lock(Path(sys.argv[1]), 'kitgen build held'):\n    print('held', flush=True); time.sleep(60)",
         str(kit)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(OutputError, match="kitgen build held"):
            with kit_lock(kit, "kitgen build mine", wait=0.1):
                pass
        holder.kill()
        holder.wait()
        with kit_lock(kit, "kitgen build mine", wait=0):     # free as soon as its holder has ended
            replace_folder(kit, NEW)
    finally:
        holder.kill()
        holder.stdout.close()
    assert _contents(kit) == NEW


def test_a_file_where_the_folder_should_be_is_refused(tmp_path):
    (tmp_path / "game").write_text("not a folder")
    with pytest.raises(OutputError, match="exists and is not a folder"):
        replace_folder(tmp_path / "game", NEW)
