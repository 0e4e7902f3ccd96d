"""Where a game's files are: a built-in slug or a folder, and paths that must stay inside it."""

from __future__ import annotations

import re
from pathlib import Path

from kitgen.data import builtin
from kitgen.errors import GameDataError


def _refuse_absolute(name: str, where: str) -> Path:
    rel = Path(name)
    if rel.is_absolute() or name.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", name):
        raise GameDataError(f"path {name!r} must be relative to the game folder", file=where)
    return rel


def relative(name: str, where: str) -> Path:
    """``name`` as a relative path, refusing absolute ones and any ``..`` (checked as written,
    without looking at the disk; :func:`contained` also follows symlinks)."""
    rel = _refuse_absolute(name, where)
    if ".." in rel.parts:
        raise GameDataError(f"path {name!r} reaches outside the game folder", file=where)
    return rel


def contained(base: Path, name: str, where: str) -> Path:
    """``base/name``, refusing absolute paths and ``..`` or symlinks that reach outside ``base``."""
    target = (base / _refuse_absolute(name, where)).resolve()
    if not target.is_relative_to(base.resolve()):
        raise GameDataError(f"path {name!r} reaches outside the game folder", file=where)
    return target


def resolve_game_dirs(game_or_path: str | Path) -> tuple[Path, Path, Path, bool]:
    """(data folder, template folder, art folder, built-in?) for a slug or a folder."""
    text = str(game_or_path)
    path = Path(text)
    if path.is_dir():
        return path, path / "templates", path / "art", False
    if text in builtin.builtin_games():
        data, templates, art = builtin.builtin_dirs(text)
        return data, templates, art, True
    if path.exists():
        raise GameDataError(f"{text} is not a folder; give a game folder holding game.toml and its card sheet")
    names = ", ".join(builtin.builtin_games())
    raise GameDataError(f"no game folder or built-in game named {text!r} (built-in games: {names})")
