"""Replacing a whole output folder at once, so an export is never left half-written."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from kitgen.outputs.files import OutputError, ensure_dir


def replace_folder(target: Path, files: dict[str, bytes], option: str = "--out") -> list[Path]:
    """Write ``files`` into a hidden sibling folder, then swap it in for ``target``.

    If writing fails, ``target`` keeps its old contents.  Files from an earlier
    export that the new one does not make (a renamed card) do not linger.
    """
    parent = ensure_dir(target.parent, option)
    staged = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".tmp", dir=parent))
    old = None
    try:
        for name, data in files.items():
            path = staged / name
            with open(path, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.chmod(path, 0o644)
        os.chmod(staged, 0o755)
        if target.exists():
            if not target.is_dir():
                raise OutputError(f"{option}: {target} exists and is not a folder; move it away")
            old = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".old", dir=parent))
            os.replace(target, old / target.name)
        os.replace(staged, target)
    except OSError as exc:
        shutil.rmtree(staged, ignore_errors=True)
        _put_back(old, target)
        raise OutputError(f"{option}: cannot write to {parent} ({exc.strerror})") from None
    except BaseException:
        # Ctrl-C between the two moves: the old folder goes back before it is cleaned up
        shutil.rmtree(staged, ignore_errors=True)
        _put_back(old, target)
        raise
    finally:
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    return [target / name for name in files]


def _put_back(old: Path | None, target: Path) -> None:
    """Move the set-aside folder back to ``target`` if the new one never arrived."""
    if old is not None and (old / target.name).exists() and not target.exists():
        os.replace(old / target.name, target)
