"""Reading a user's files: only regular files inside the game folder, never more than a cap, and text as UTF-8.

:func:`open_inside` is how every file a game names is read (game.toml, the
card sheet, templates and what they include, art, icons, fonts): the path is
checked by :func:`kitgen.data.paths.inside`, then read by :func:`read_regular`,
which opens it (:func:`open_regular`) without following a symlink and without
waiting (a FIFO would block a plain open), checks once more that the file it
opened lies inside the folder (:func:`kitgen.data.paths.opened_inside`), and
refuses anything but a regular file: a FIFO, a device, a socket or a folder is
named as such.  A game folder may come from someone else, so no file is read
past :data:`MAX_FILE_BYTES`.
:func:`read_toml` reads game.toml and layouts.toml through it, within the
bounds of :mod:`kitgen.data.limits` on nesting.

Whatever the file system answers when kitgen looks at a user's path goes
through :func:`os_problem`, which says in words what the path is (a loop of
symbolic links, a name too long, a folder, no permission): :func:`look` asks
whether something is there, :func:`read_regular` reads it, and the outputs
report the folders they cannot write the same way.  None of them lets an
``OSError`` through.
"""

from __future__ import annotations

import errno
import os
import stat
import threading
import tomllib
from pathlib import Path
from typing import Any

from kitgen.data.gc_pause import gc_paused
from kitgen.data.limits import check_dotted_keys, check_toml_depth, deep_toml_place
from kitgen.data.paths import inside, opened_inside, real
from kitgen.errors import GameDataError, LimitError

MAX_FILE_BYTES = 64 * 1024 * 1024     # a card sheet of 100,000 rows is a few megabytes
MAX_TOML_BYTES = 4 * 1024 * 1024      # game.toml describes a game; its cards live in the sheet
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
_KINDS = ((stat.S_ISDIR, "is a folder, expected a file"), (stat.S_ISFIFO, "is a named pipe (FIFO), not a file"),
          (stat.S_ISCHR, "is a device, not a file"), (stat.S_ISBLK, "is a device, not a file"),
          (stat.S_ISSOCK, "is a socket, not a file"))


_PROBLEMS = {
    errno.ENOENT: "file not found",
    errno.ENOTDIR: "file not found (a part of its path is a file, not a folder)",
    errno.EISDIR: "is a folder, expected a file",
    errno.ELOOP: "is a loop of symbolic links (a link that leads back to itself, or a chain too long to follow)",
    errno.ENAMETOOLONG: "has a name too long for the file system (at most 255 bytes a name, 4,096 a path)",
    errno.EACCES: "cannot be {done}: permission denied",
    errno.EPERM: "cannot be {done}: not permitted",
    errno.EROFS: "cannot be {done}: the file system is read-only",
    errno.ENOSPC: "cannot be {done}: the disk is full",
    errno.ENXIO: "is a device or socket with nothing behind it",
}


def os_problem(exc: OSError, done: str = "read") -> str:
    """What an ``OSError`` says about the path it was raised for, in words ("is a loop of symbolic
    links", "cannot be read: permission denied"); ``done``: what kitgen was doing ("read", "written")."""
    text = _PROBLEMS.get(exc.errno)
    if text is None:
        return f"cannot be {done} ({exc.strerror or type(exc).__name__})"
    return text.format(done=done)


def look(path: Path | str, where: str, follow: bool = True) -> os.stat_result | None:
    """What is at ``path`` (``follow``: through a symlink there; else the link itself), or None when
    nothing is (or the path leads through a file); a path that cannot be looked at (a loop of links,
    a name too long, no permission) is a :class:`GameDataError` naming ``where``."""
    try:
        return os.stat(path) if follow else os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise GameDataError(os_problem(exc), file=where) from None
    except ValueError:                     # a NUL in the path: no file can have that name
        return None


def open_inside(root: Path, name: str | Path, where: str, base: Path | None = None,
                limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of ``base/name`` (``base`` defaults to ``root``), a regular file inside the real path
    of ``root``; anything else is a :class:`GameDataError` naming ``where`` (the key or row)."""
    folders: dict[Path, Path] = {}          # the real path of root, followed once for the check and the read
    target = inside(root, name, where, base, folders)
    return read_regular(target, where, limit, boundary=folders[root])


def read_bytes(path: Path, where: str, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file at ``path`` (symlinks followed), for files the user names directly."""
    return read_regular(real(path, where), where, limit)


def read_regular(path: Path, where: str, limit: int = MAX_FILE_BYTES, boundary: Path | None = None) -> bytes:
    """The bytes of the regular file at ``path`` (already resolved: a symlink there is refused),
    or a :class:`GameDataError` naming ``where`` (missing, a folder, a FIFO, a device, too large...).

    ``boundary``: the real path of the folder ``path`` was checked against; the file once open must
    still lie inside it (a folder on the way may have been swapped for a symlink since the check).
    """
    fd = open_regular(path, where, limit, boundary)
    try:
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise GameDataError(f"the file grew past {_size(limit)} while being read", file=where)
        return b"".join(chunks)
    except OSError as exc:
        raise GameDataError(os_problem(exc), file=where) from None
    finally:
        os.close(fd)


def open_regular(path: Path, where: str, limit: int = MAX_FILE_BYTES, boundary: Path | None = None) -> int:
    """The file descriptor of the regular file at ``path``, open for reading, after the checks of
    :func:`read_regular` (the caller reads it and closes it); a :class:`GameDataError` naming ``where``
    when it is not one."""
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as exc:
        raise GameDataError(os_problem(exc), file=where) from None
    try:
        if boundary is not None and not opened_inside(fd, boundary):
            raise GameDataError("leads outside the game folder (a folder on the way was changed while it was "
                                "read); a game reads only files inside its own folder", file=where)
        info = os.fstat(fd)
        for test, message in _KINDS:
            if test(info.st_mode):
                raise GameDataError(message, file=where)
        if not stat.S_ISREG(info.st_mode):
            raise GameDataError("is not a regular file", file=where)
        if info.st_size > limit:
            raise GameDataError(f"the file is {_size(info.st_size, limit)}; kitgen reads files of at most "
                                f"{_size(limit)}", file=where)
        return fd
    except OSError as exc:
        os.close(fd)
        raise GameDataError(os_problem(exc), file=where) from None
    except BaseException:
        os.close(fd)
        raise


def _size(n: int, limit: int | None = None) -> str:
    """A size as people read it (1.05 MB); in bytes where it would read the same as ``limit``."""
    text = f"{n / 2**20:.3g} MB" if n >= 2**20 else f"{n / 1024:.3g} kB" if n >= 1024 else f"{n} bytes"
    return f"{n:,} bytes" if limit is not None and text == _size(limit) else text


def decode_text(raw: bytes, where: str) -> str:
    """UTF-8 text, with or without a byte-order mark (UTF-16 too, when a byte-order mark says so)."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):      # "Unicode text" as some spreadsheet programs save it
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError:
            raise GameDataError("not valid UTF-16 text although it starts like UTF-16; save it as UTF-8 "
                                "(\"CSV UTF-8\" in spreadsheet programs)", file=where) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise GameDataError(
            f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start}); "
            "save it as UTF-8 (\"CSV UTF-8\" in spreadsheet programs)", file=where) from None


def read_toml(root: Path, name: str, where: str) -> dict[str, Any]:
    """The TOML file ``name`` of the game folder ``root`` (game.toml, layouts.toml), read through
    :func:`open_inside`; bad TOML, or TOML nested deeper than kitgen reads, names ``where``."""
    return parse_toml(decode_text(open_inside(root, name, where, limit=MAX_TOML_BYTES), where), where)


# TOML texts are parsed once per process for the same text: at most KEPT_TOMLS texts of KEPT_TOML_BYTES
# in all (one text as long as that may be kept alone), the oldest forgotten first.  Their tables take
# some seven times the text's size.
KEPT_TOML_BYTES = 4 * 1024 * 1024
KEPT_TOMLS = 16
_parsed: dict[str, dict[str, Any]] = {}
_parsed_size = 0                # characters of the texts kept in _parsed
_parsed_lock = threading.Lock()


def parse_toml(text: str, where: str) -> dict[str, Any]:
    """TOML text from a user's file, within the bounds of :mod:`kitgen.data.limits` on nesting; bad
    TOML, or TOML nested deeper than kitgen reads, is a :class:`GameDataError` naming ``where``.

    The tables of a text parsed and accepted before are kept by the text itself (a game is read
    again by every build; the file is still read each time): each caller gets its own copy."""
    global _parsed_size
    kept = _parsed.get(text)
    if kept is not None:
        with gc_paused():            # as parsing below: tables, lists and strings
            return copy_toml(kept)
    data = _parse_toml(text, where)
    if len(text) <= KEPT_TOML_BYTES:
        with _parsed_lock:
            if text not in _parsed:             # another thread may have parsed it meanwhile
                while _parsed and (len(_parsed) >= KEPT_TOMLS or _parsed_size + len(text) > KEPT_TOML_BYTES):
                    oldest = next(iter(_parsed))
                    del _parsed[oldest]
                    _parsed_size -= len(oldest)
                with gc_paused():
                    _parsed[text] = copy_toml(data)
                _parsed_size += len(text)
    return data


def copy_toml(value: Any) -> Any:
    """A copy of parsed TOML as deep as ``copy.deepcopy``'s: its tables and arrays are new, the rest
    (text, numbers, booleans, dates and times) is immutable and shared; several times faster."""
    if type(value) is dict:
        return {key: copy_toml(item) for key, item in value.items()}
    if type(value) is list:
        return [copy_toml(item) for item in value]
    return value


def _parse_toml(text: str, where: str) -> dict[str, Any]:
    check_dotted_keys(text, where)
    try:
        with gc_paused():            # tables, lists and strings: nothing a cycle could hold
            data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise GameDataError(f"bad TOML: {exc}", file=where) from None
    except RecursionError:          # the parser recurses once per level of arrays and inline tables
        raise LimitError(deep_toml_place(text), file=where) from None
    check_toml_depth(data, where)
    return data
