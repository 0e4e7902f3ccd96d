"""Where built-in games, their templates and their art live.

In a source checkout the templates and art sit at the top of the repository
(``templates/<slug>``, ``card_art/<slug>``); an installed wheel carries copies
inside the package under ``kitgen/_data``.  Built-in game data (``game.toml``,
``cards.csv``) always lives in ``kitgen/games/<slug>``.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent.parent
GAMES_DIR = PACKAGE_DIR / "games"


def _data_root() -> Path:
    packaged = PACKAGE_DIR / "_data"
    return packaged if packaged.is_dir() else PACKAGE_DIR.parent


def builtin_games() -> list[str]:
    """Slugs of the games that ship with kitgen, sorted."""
    return sorted(p.name for p in GAMES_DIR.iterdir() if (p / "game.toml").is_file())


def builtin_dirs(slug: str) -> tuple[Path, Path, Path]:
    """(data folder, template folder, art folder) of a built-in game."""
    root = _data_root()
    return GAMES_DIR / slug, root / "templates" / slug, root / "card_art" / slug
