"""Atomic writes: a whole folder swapped in at once, or files into a folder all or nothing.

**A folder swapped in** (:func:`replace_folder`: the kit of ``kitgen build``,
the ``png/`` and ``tts/`` exports).  The new content is written into a fresh
hidden sibling, ``.<name>.kitgen-<pid>-<random>.new``, every file flushed to
disk, and then exchanged with the target folder in one step:
``renameat2(RENAME_EXCHANGE)`` on Linux (``renamex_np(RENAME_SWAP)`` on
macOS), or a plain rename when there is no target yet.  The invariant: *at
every instant the target path is either the whole old folder or the whole
new one*, because the only step that changes what it names is a single
system call that the kernel performs entirely or not at all.  A kill -9 at
any instant therefore leaves, at worst, a hidden sibling (the new folder not
yet swapped in, or the old one not yet deleted), which the next write to the
same target deletes.  Where the file system cannot exchange (some network
file systems; other systems), the old folder is first renamed to a hidden
``.old`` sibling and the new one renamed in: between those two renames the
target is briefly absent, and the next write puts the ``.old`` folder back
before anything else (so a kill leaves the old kit, once recovered).

The kit folder also holds what other commands wrote there (exports, a
balance report, a designer's own notes); ``keep_others`` carries those into
the new folder as hard links (copies where the file system has none), so a
rebuild keeps them.

**Files into a folder** (:func:`write_files`: single files such as
``print-shop.pdf``; folders of files written by scripts): each file is
staged beside its target and moved in with ``os.replace``; if a step fails,
Ctrl-C included, what was moved in is taken out and what was set aside is
put back.

Ctrl-C while either is written only marks a stop (:mod:`kitgen.outputs.interrupts`),
checked before anything is committed.  Two runs writing the same kit are kept
apart by :mod:`kitgen.outputs.kit_lock`.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import errno
import os
import secrets
import shutil
import stat
import sys
import tempfile
from pathlib import Path

from kitgen.errors import KitgenError
from kitgen.outputs.interrupts import check_stop, deferred_interrupts

MARK = ".kitgen-"            # in the names of staged and set-aside entries, and of the lock


class OutputError(KitgenError):
    """The output folder cannot be created or written."""


def ensure_dir(folder: Path, option: str = "--out") -> Path:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{option}: cannot create folder {folder} ({exc.strerror})") from None
    if not os.access(folder, os.W_OK):
        raise OutputError(f"{option}: folder {folder} is not writable")
    return folder


# --- a folder swapped in --------------------------------------------------------

def replace_folder(target: Path, files: dict[str, bytes | dict], option: str = "--out",
                   keep_others: bool = False) -> list[Path]:
    """Make ``target`` a folder holding ``files`` (a dict value is a folder of files), swapped in whole.

    ``keep_others``: entries of the old folder that ``files`` does not name
    are carried over (an export beside the kit); otherwise they go (a renamed
    card's PNG does not linger).  Until the swap, ``target`` keeps its old
    contents whatever happens; after it, the new.
    """
    target = Path(target)
    parent = ensure_dir(target.parent, option)
    if os.path.lexists(target) and not target.is_dir():
        raise OutputError(f"{option}: {target} exists and is not a folder; move it away")
    with deferred_interrupts():
        clean_leftovers(target)
        staged = parent / _sibling(target.name, "new")
        try:
            try:
                _stage(staged, files)
                if keep_others and target.is_dir():
                    for entry in sorted(os.listdir(target)):
                        if entry not in files and MARK not in entry:
                            _link_tree(target / entry, staged / entry)
                _fsync_dir(staged)
                check_stop()           # Ctrl-C while staging: the old folder stays
                swap_in(staged, target)
            except OSError as exc:
                raise OutputError(f"{option}: cannot write to {parent} ({exc.strerror})") from None
        finally:
            _remove(staged)            # the new folder not swapped in, or the old one swapped out
    return [target / name for name in files]


def swap_in(staged: Path, target: Path) -> None:
    """Put the complete folder ``staged`` at ``target`` in one step; the old folder is left at ``staged``."""
    if not os.path.lexists(target):
        os.rename(staged, target)
    elif not _exchange(staged, target):
        aside = target.parent / _sibling(target.name, "old")
        os.rename(target, aside)   # from here until the next rename, `target` is absent:
        try:                       # clean_leftovers() puts `aside` back if a kill lands here
            os.rename(staged, target)
        except BaseException:
            os.rename(aside, target)
            raise
        os.rename(aside, staged)
    _fsync_dir(target.parent)


def clean_leftovers(target: Path) -> None:
    """Delete what interrupted writes to ``target`` left beside and inside it; first, if ``target`` is
    missing, put back an old folder set aside by the two-rename swap."""
    parent = target.parent
    if not parent.is_dir():
        return
    prefix = f".{target.name}{MARK}"
    leftovers = sorted(p for p in parent.iterdir() if p.name.startswith(prefix) and not p.name.endswith("lock"))
    if not os.path.lexists(target):
        old = [p for p in leftovers if p.name.endswith(".old")]
        if old:
            os.rename(old[-1], target)
            leftovers.remove(old[-1])
    for path in leftovers:
        _remove(path)
    if target.is_dir() and not target.is_symlink():
        for path in target.iterdir():      # files staged inside the folder by write_files
            if MARK in path.name and path.name.startswith(".") and not path.name.endswith("lock"):
                _remove(path)


def _sibling(name: str, kind: str) -> str:
    return f".{name}{MARK}{os.getpid()}-{secrets.token_hex(4)}.{kind}"


def _libc():
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
    except OSError:
        return None


_LIBC = _libc()
_AT_FDCWD = -100
_RENAME_EXCHANGE = 2       # Linux renameat2 flag
_RENAME_SWAP = 2           # macOS renamex_np flag
_NO_EXCHANGE = {errno.EINVAL, errno.ENOSYS, getattr(errno, "ENOTSUP", errno.EINVAL),
                getattr(errno, "EOPNOTSUPP", errno.EINVAL)}
exchange_available = True  # set False after the file system refused once (and by tests of the fallback)


def _exchange(a: Path, b: Path) -> bool:
    """Swap the names ``a`` and ``b`` atomically; False when this system or file system cannot."""
    global exchange_available
    if not exchange_available or _LIBC is None:
        return False
    if sys.platform.startswith("linux") and hasattr(_LIBC, "renameat2"):
        result = _LIBC.renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    elif sys.platform == "darwin" and hasattr(_LIBC, "renamex_np"):
        result = _LIBC.renamex_np(os.fsencode(a), os.fsencode(b), _RENAME_SWAP)
    else:
        return False
    if result == 0:
        return True
    code = ctypes.get_errno()
    if code in _NO_EXCHANGE:
        exchange_available = False
        return False
    raise OSError(code, os.strerror(code), str(b))


def _link_tree(source: Path, dest: Path) -> None:
    """``source`` (a file, folder or symlink) at ``dest``: folders made anew, files hard-linked (copied
    where the file system cannot link)."""
    info = os.lstat(source)
    if stat.S_ISLNK(info.st_mode):
        os.symlink(os.readlink(source), dest)
    elif stat.S_ISDIR(info.st_mode):
        os.mkdir(dest)
        for entry in sorted(os.listdir(source)):
            _link_tree(source / entry, dest / entry)
    elif stat.S_ISREG(info.st_mode):
        try:
            os.link(source, dest)
        except OSError:
            shutil.copy2(source, dest)


def _remove(path: Path) -> None:
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


# --- files into a folder -------------------------------------------------------------

def write_files(folder: Path, files: dict[str, bytes], option: str = "--out") -> list[Path]:
    """Write every file into ``folder`` (other files there stay), all or nothing.

    A failed write never leaves a half-written file or a set of files whose parts disagree.
    """
    ensure_dir(folder, option)
    for name in files:
        if os.path.isdir(folder / name):
            raise OutputError(f"{option}: {folder / name} is a folder; remove it or choose another {option}")
    _publish(folder, files, option)
    return [folder / name for name in files]


def _write(path: Path, data: bytes) -> None:
    with open(path, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.chmod(path, 0o644)


def _stage(path: Path, content: bytes | dict) -> None:
    """Write ``content`` at ``path``: bytes a file, a dict a folder of such entries."""
    if isinstance(content, dict):
        path.mkdir()
        for name, data in content.items():
            _stage(path / name, data)
        os.chmod(path, 0o755)
    else:
        _write(path, content)


def _publish(parent: Path, entries: dict[str, bytes | dict], option: str) -> None:
    """Put each entry in ``parent`` under its name: bytes are a file, a dict a folder of files."""
    with deferred_interrupts():
        _publish_now(parent, entries, option)


def _publish_now(parent: Path, entries: dict[str, bytes | dict], option: str) -> None:
    staging = Path(tempfile.mkdtemp(prefix=MARK, suffix=".tmp", dir=parent))
    aside = staging / ".replaced"
    moved: list[tuple[Path, Path | None]] = []      # (target, what it replaced, now set aside)
    keep_staging = False
    try:
        aside.mkdir()
        for name, content in entries.items():
            _stage(staging / name, content)
        check_stop()
        for name in entries:
            target, old = parent / name, None
            if os.path.lexists(target):
                old = aside / name
                os.replace(target, old)
            moved.append((target, old))
            os.replace(staging / name, target)
    except BaseException as exc:
        if any(os.path.lexists(staging / name) for name in entries):   # not all in: undo
            keep_staging = True          # if putting back fails, the old files stay in `aside`
            _put_back(staging, moved)
            keep_staging = False
        if isinstance(exc, OSError):
            raise OutputError(f"{option}: cannot write to {parent} ({exc.strerror})") from None
        raise
    finally:
        if not keep_staging:
            shutil.rmtree(staging, ignore_errors=True)


def _put_back(staging: Path, moved: list[tuple[Path, Path | None]]) -> None:
    """Undo a partial publish: every new entry that arrived out, every old one back in place."""
    for target, old in reversed(moved):
        if not os.path.lexists(staging / target.name):      # the new one arrived
            if target.is_dir() and not target.is_symlink():
                shutil.rmtree(target)
            else:
                target.unlink()
        if old is not None:
            os.replace(old, target)
