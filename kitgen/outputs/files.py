"""Writing build results: deterministic PDF canvases and atomic file replacement."""

from __future__ import annotations

import os
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
    """Write every file, all or nothing.

    Each file is written to a temporary name first.  Then the files it replaces
    are moved aside and the new ones moved in; if any step fails, what was moved
    is put back, so a failed build never leaves a half-written PDF or a kit
    whose parts disagree.
    """
    ensure_dir(folder, option)
    for name in files:
        if (folder / name).is_dir():
            raise OutputError(f"{option}: {folder / name} is a folder; remove it or choose another {option}")
    staged: list[tuple[Path, Path]] = []      # (temporary file, target)
    swapped: list[tuple[Path, Path | None]] = []  # (target, the old file moved aside or None)
    try:
        for name, data in files.items():
            fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
            staged.append((Path(tmp), folder / name))
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.chmod(tmp, 0o644)
        for tmp, target in staged:
            old = None
            if target.exists():
                old = folder / f".{target.name}.{os.getpid()}.old"
                os.replace(target, old)
            swapped.append((target, old))
            os.replace(tmp, target)
    except OSError as exc:
        _roll_back(staged, swapped)
        raise OutputError(f"{option}: cannot write to {folder} ({exc.strerror})") from None
    except BaseException:
        _roll_back(staged, swapped)
        raise
    for _, old in swapped:
        if old is not None:
            old.unlink(missing_ok=True)
    return [folder / name for name in files]


def _roll_back(staged, swapped) -> None:
    """Undo a partial write_files: new files out, old files back, temporary files gone."""
    for target, old in reversed(swapped):
        if old is not None:
            os.replace(old, target)
        else:
            target.unlink(missing_ok=True)
    for tmp, _ in staged:
        tmp.unlink(missing_ok=True)
