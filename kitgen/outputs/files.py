"""Atomic writes: files into a folder, or a whole folder swapped in, all or nothing.

Both ways stage the new content in a hidden folder beside the target, then
move it in with ``os.replace``, setting aside what it replaces.  If any step
fails, an error or Ctrl-C included, what was moved in is taken out and what
was set aside is put back, so a build or export is never left half-written;
once every new part is in place the write counts as done.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from kitgen.errors import KitgenError


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


def write_files(folder: Path, files: dict[str, bytes], option: str = "--out") -> list[Path]:
    """Write every file into ``folder`` (other files there stay), all or nothing.

    A failed build never leaves a half-written PDF or a kit whose parts disagree.
    """
    ensure_dir(folder, option)
    for name in files:
        if (folder / name).is_dir():
            raise OutputError(f"{option}: {folder / name} is a folder; remove it or choose another {option}")
    _publish(folder, files, option)
    return [folder / name for name in files]


def replace_folder(target: Path, files: dict[str, bytes | dict], option: str = "--out") -> list[Path]:
    """Make ``target`` a folder holding exactly ``files`` (a dict value is a folder of files),
    swapped in whole for what was there.

    If writing fails, ``target`` keeps its old contents.  Files from an earlier
    export that the new one does not make (a renamed card) do not linger.
    """
    parent = ensure_dir(target.parent, option)
    if target.exists() and not target.is_dir():
        raise OutputError(f"{option}: {target} exists and is not a folder; move it away")
    _publish(parent, {target.name: files}, option)
    return [target / name for name in files]


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
    staging = Path(tempfile.mkdtemp(prefix=".kitgen-", suffix=".tmp", dir=parent))
    aside = staging / ".replaced"
    moved: list[tuple[Path, Path | None]] = []      # (target, what it replaced, now set aside)
    keep_staging = False
    try:
        aside.mkdir()
        for name, content in entries.items():
            _stage(staging / name, content)
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
