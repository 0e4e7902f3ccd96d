"""Where a game's files are, and the one check every path a game names goes through.

A game folder may come from a stranger, so nothing it names may lead out of
it.  :func:`inside` is that check: the name is refused as written when it is
absolute, climbs with ``..`` or holds a control character, and then the path
is resolved with every symlink followed, at every level, and must land inside
the real path of the folder it is allowed to read (the game folder; for a
built-in game, the package folder holding that kind of file).  A folder that
is itself a symlink to ``/`` therefore does not become a new root, and
``/proc/self/...`` or a chain of symlinks leads nowhere the check does not
see.  :func:`kitgen.data.files.open_inside` reads through it.

The folder may change between the check and the read (``kitgen serve``
reads a folder for hours while its owner edits it): the read opens the
resolved path with ``O_NOFOLLOW``, and :func:`opened_inside` then asks the
system where the opened file really is, so a folder on the way swapped for a
symlink after the check is caught too (on systems that say, such as Linux's
``/proc``).
"""

from __future__ import annotations

import os
import re
import stat
import unicodedata
from pathlib import Path

from kitgen.data import builtin
from kitgen.errors import GameDataError

_DRIVE = re.compile(r"^[A-Za-z]:")
SETTLE_TRIES = 8        # times a path is followed again when a symlink on the way changes meanwhile


def control_character(text: str) -> str | None:
    """The first control or invisible formatting character of ``text`` as 'U+XXXX', or None."""
    if text.isascii() and text.isprintable():
        return None
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp"):
            return f"U+{ord(ch):04X}"
    return None


def relative(name: str, where: str) -> Path:
    """``name`` as a relative path, refusing what no game may name (checked as written, without the disk):
    absolute paths, ``..``, control characters (a NUL, a newline, a right-to-left mark...)."""
    if not isinstance(name, str) or not name:
        raise GameDataError(f"path {name!r} is empty", file=where)
    bad = control_character(name)
    if bad:
        raise GameDataError(f"path {name!r} holds the control character {bad}; rename the file", file=where)
    text = name.replace("\\", "/")
    if text.startswith("/") or _DRIVE.match(text):
        raise GameDataError(f"path {name!r} must be relative to the game folder", file=where)
    if ".." in text.split("/"):
        raise GameDataError(f"path {name!r} reaches outside the game folder", file=where)
    return Path(text)


def real(folder: Path, where: str | None = None) -> Path:
    """The real path of ``folder`` (or of a file), every symlink followed.

    A symlink on the way may be replaced while it is followed: the system says a name is a
    symlink, then, asked where it leads, that it is none (or that it is gone), and
    ``os.path.realpath`` raises.  The path is then followed again; one that is still changing
    after :data:`SETTLE_TRIES` tries is a :class:`GameDataError` naming ``where`` (default: the path).
    """
    for _ in range(SETTLE_TRIES):
        try:
            return Path(os.path.realpath(folder))
        except OSError as exc:
            problem = exc.strerror or str(exc)
    raise GameDataError(f"{folder} kept changing while its symlinks were followed ({problem}); "
                        "try again once it has settled", file=where)


def within(path: Path, folder: Path) -> bool:
    """Whether the real path ``path`` is ``folder`` or lies under it (both already resolved)."""
    return path.is_relative_to(folder)


def file_within(path: Path, folder: Path) -> Path | None:
    """The real path of ``path`` when it is a regular file inside the real path of ``folder``, or None
    (for what a program wrote in a folder of its own: a path kept since may lead elsewhere now)."""
    target = real(path)
    return target if within(target, real(folder)) and target.is_file() else None


def opened_inside(fd: int, boundary: Path) -> bool:
    """Whether the file open as ``fd`` lies inside the real path ``boundary``, by the path the system
    gives for the open file (so whatever was swapped after the check, this is the file read).
    True where the system cannot say (no ``/proc``)."""
    try:
        opened = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return True
    return within(Path(opened), boundary)


def inside(root: Path, name: str | Path, where: str, base: Path | None = None,
           folders: dict[Path, Path] | None = None) -> Path:
    """The real path of ``base/name`` (``base`` defaults to ``root``), refused unless it lies inside
    the real path of ``root`` once every symlink on the way is followed.

    The path need not exist: a missing file keeps its place inside ``root`` and the
    reader says it is missing.  ``folders`` keeps the real paths of ``root`` and ``base`` for a reader
    that checks many names against the same two folders in one reading of a game (the art of every
    card); ``base/name`` itself is followed anew every time.
    """
    rel = relative(str(name), where)
    boundary = _real_kept(root, where, folders)
    start = _real_kept(base, where, folders) if base is not None else boundary
    target = real(start / rel, where)
    if not within(target, boundary):
        shown = str(name) if base is None or base == root else f"{Path(base).name}/{name}"
        raise GameDataError(f"path {shown!r} leads outside the game folder (to {target}); "
                            "a game reads only files inside its own folder", file=where)
    return target


def _real_kept(folder: Path, where: str, kept: dict[Path, Path] | None) -> Path:
    """:func:`real` of ``folder``, found once for the dictionary ``kept`` (followed each time without it)."""
    if kept is None:
        return real(folder, where)
    if folder not in kept:
        kept[folder] = real(folder, where)
    return kept[folder]


def check_folder(root: Path, folder: Path, where: str) -> None:
    """Refuse a sub-folder of the game (templates/, art/, icons/...) that is a symlink leading out of it."""
    if os.path.lexists(folder):
        inside(root, folder.name, where)


def resolve_game_dirs(game_or_path: str | Path) -> tuple[Path, Path, Path, bool]:
    """(data folder, template folder, art folder, built-in?) for a slug or a folder."""
    text = str(game_or_path)
    bad = control_character(text)
    if bad:
        raise GameDataError(f"the game {text!r} holds the control character {bad}; give a folder or a game name")
    from kitgen.data.files import look

    path = Path(text)
    info = look(path, text)
    if info is not None and stat.S_ISDIR(info.st_mode):
        return path, path / "templates", path / "art", False
    if text in builtin.builtin_games():
        data, templates, art = builtin.builtin_dirs(text)
        return data, templates, art, True
    if info is not None:
        raise GameDataError(f"{text} is not a folder; give a game folder holding game.toml and its card sheet")
    names = ", ".join(builtin.builtin_games())
    raise GameDataError(f"no game folder or built-in game named {text!r} (built-in games: {names})")
