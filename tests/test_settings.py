"""The settings kitgen reads from the environment are checked as options are, take effect where they are
used, and are documented; the memory limit holds and says what ran out."""

from __future__ import annotations

import os
import resource
import struct
import subprocess
import sys
import zlib

import pytest

from kitgen.errors import LimitError, OptionError
from kitgen.outputs.memory import memory_limit
from kitgen.settings import SETTINGS, number, switch
from tests.conftest import REPO, copy_builtin, run_guarded

BAD = ["abc", "-1", "nan", "inf", "1e999", "3 s", "\u0663", "0x10"]      # \u0663: an Arabic-Indic three


@pytest.mark.parametrize("name", sorted(SETTINGS))
@pytest.mark.parametrize("value", BAD)
def test_a_bad_setting_is_one_line_naming_it(name, value, monkeypatch, tmp_path):
    monkeypatch.setenv(name, value)
    result = run_guarded("validate", "altun-ha")
    assert result.exit_code == 2, result.output
    lines = result.output.splitlines()
    wanted = "0 or 1 (" if SETTINGS[name].switch else "a number of "
    assert len(lines) == 1 and lines[0].startswith(f"Error: {name}: {value!r} is not {wanted}"), result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("value", ["2", "0.5", "yes"])
def test_a_switch_is_0_or_1(value, monkeypatch):
    monkeypatch.setenv("KITGEN_NO_MEMO", value)
    with pytest.raises(OptionError) as caught:
        switch("KITGEN_NO_MEMO")
    assert caught.value.option == "KITGEN_NO_MEMO" and caught.value.message.startswith(f"{value!r} is not 0 or 1 (")
    for on, value in ((False, "0"), (True, "1"), (True, " 1.0 "), (False, "")):
        monkeypatch.setenv("KITGEN_NO_MEMO", value)
        assert switch("KITGEN_NO_MEMO") is on


def test_a_bad_setting_stops_a_build_before_it_writes(monkeypatch, tmp_path):
    monkeypatch.setenv("KITGEN_LOCK_WAIT", "abc")
    result = run_guarded("build", "altun-ha", "--out", tmp_path / "out")
    assert result.output.splitlines() == ["Error: KITGEN_LOCK_WAIT: 'abc' is not a number of seconds from 0 to 3,600 "
                                          "(how long a second build waits for the kit folder; unset it for 3)"]
    assert not (tmp_path / "out").exists()


def test_settings_are_read_where_they_are_used(monkeypatch):
    for name, setting in SETTINGS.items():
        monkeypatch.delenv(name, raising=False)
        assert number(name) == setting.default
        monkeypatch.setenv(name, f" {setting.high!r} ")
        assert number(name) == setting.high
        monkeypatch.setenv(name, "")                      # empty: as if unset
        assert number(name) == setting.default
    monkeypatch.setenv("KITGEN_PROGRESS_DELAY", repr(SETTINGS["KITGEN_PROGRESS_DELAY"].high * 2))
    with pytest.raises(OptionError) as caught:
        number("KITGEN_PROGRESS_DELAY")
    assert caught.value.option == "KITGEN_PROGRESS_DELAY"


def test_the_readme_documents_every_setting():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("### A game folder from someone else", 1)[1].split("\n### ", 1)[0]
    assert sorted(name for name in SETTINGS if f"`{name}`" not in section) == []
    found = {word.strip("`,.;()") for word in section.split() if word.strip("`,.;()").startswith("KITGEN_")}
    assert found <= set(SETTINGS), "the README names a setting kitgen does not read"


def test_every_environment_variable_kitgen_reads_is_a_checked_setting():
    """No module reads os.environ but through kitgen.settings."""
    readers = []
    for folder in ("kitgen", "solver"):
        for path in sorted((REPO / folder).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            if ("os.environ" in text or "getenv(" in text) and path.name != "settings.py":
                readers.append(str(path.relative_to(REPO)))
    assert readers == []


# --- the memory limit --------------------------------------------------------------------------

def test_running_out_under_the_limit_is_one_error_and_the_limit_is_put_back():
    before = resource.getrlimit(resource.RLIMIT_AS)
    with pytest.raises(LimitError, match=r"^out of memory: the work needed more than the 64 MB kitgen allows "
                                         r"itself \(KITGEN_MEMORY_MB\)"):
        with memory_limit(64):
            bytearray(512 * 2 ** 20)
    assert resource.getrlimit(resource.RLIMIT_AS) == before
    assert len(bytearray(512 * 2 ** 20)) == 512 * 2 ** 20      # the room is back


def test_a_tighter_limit_already_set_is_kept():
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with memory_limit(4096):
        outer = resource.getrlimit(resource.RLIMIT_AS)[0]
        with memory_limit(100_000):
            assert resource.getrlimit(resource.RLIMIT_AS)[0] == outer
        assert outer != resource.RLIM_INFINITY and outer < 2 ** 40
    assert resource.getrlimit(resource.RLIMIT_AS) == (soft, hard)


def _big_png(side: int) -> bytes:
    """A black RGB picture of ``side`` x ``side`` pixels: some kilobytes on disk, side * side * 4 bytes decoded."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    packer = zlib.compressobj(9)
    rows = b"".join(packer.compress(b"\x00" * (1 + 3 * side)) for _ in range(side)) + packer.flush()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", rows) + chunk(b"IEND", b""))


def test_a_build_out_of_memory_is_one_line(tmp_path, monkeypatch):
    """A picture within kitgen's bounds (40 megapixels) that takes 160 MB to decode, under a limit of 100 MB:
    one line, in validate and in build.  In a process of its own: the limit is the process's (the check that
    the game is sound with room enough runs in this process: no limit is reached there)."""
    game = copy_builtin("altun-ha", tmp_path / "game")
    (game / "art" / "plaza.png").write_bytes(_big_png(6300))
    env = {**os.environ, "KITGEN_MEMORY_MB": "100"}
    for command in (["validate", str(game)], ["build", str(game), "--out", str(tmp_path / "out")]):
        done = subprocess.run([sys.executable, "-m", "kitgen", *command], capture_output=True, text=True, env=env,
                              cwd=tmp_path, timeout=120)
        assert done.returncode == 2, done.stderr
        assert done.stderr.splitlines() == ["Error: out of memory: the work needed more than the 100 MB kitgen "
                                            "allows itself (KITGEN_MEMORY_MB); a game that asks for so much is more "
                                            "likely a mistake, or set KITGEN_MEMORY_MB higher"]
    assert not (tmp_path / "out").exists()
    monkeypatch.setenv("KITGEN_MEMORY_MB", "1000")
    done = run_guarded("validate", game)
    assert done.exit_code == 0, done.output              # with room enough, the same game is sound
