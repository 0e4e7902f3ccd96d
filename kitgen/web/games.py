"""The games a server shows: each named as the user typed it, with its folders and a URL key.

The key is the game's slug (``altun-ha``), made unique when two served folders
share one.  :meth:`ServedGame.file` is the only way a request reaches a file of
a game folder, and it refuses every path that leaves the folder, after
symlinks are followed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from kitgen.data.game import load_game
from kitgen.data.paths import resolve_game_dirs
from kitgen.data.values import slugify
from kitgen.errors import KitgenError


@dataclass(frozen=True)
class ServedGame:
    key: str            # in URLs: /game/<key>/
    argument: str       # as given on the command line: messages name files the same way as the CLI
    title: str
    root: Path          # the folder holding game.toml
    template_dir: Path
    art_dir: Path
    builtin: bool

    @property
    def watched(self) -> tuple[Path, ...]:
        """The folders whose changes rebuild the game (a built-in game keeps three apart)."""
        folders = []
        for folder in (self.root, self.template_dir, self.art_dir):
            folder = folder.resolve()
            if folder.is_dir() and not any(folder.is_relative_to(f) for f in folders):
                folders.append(folder)
        return tuple(folders)

    def file(self, relative: str) -> Path | None:
        """The file ``relative`` of the game folder, or None when it is not one.

        None for absolute paths, ``..`` anywhere, hidden names, anything that
        leaves the folder once symlinks are followed, and what is not a file.
        """
        path = PurePosixPath(relative)
        if not relative or "\\" in relative or "\x00" in relative or path.is_absolute() \
                or any(part in ("..", ".") or part.startswith(".") for part in path.parts):
            return None
        for base in self.watched:
            target = (base / path).resolve()
            if target.is_relative_to(base) and target.is_file():
                return target
        return None


def served_games(arguments: list[str]) -> list[ServedGame]:
    """Find each game and give it a unique key.

    A game that does not exist raises its KitgenError; a game folder with a
    mistake in it is served all the same (its page shows the error until it is
    fixed), under its folder's name.
    """
    games, keys = [], set()
    for argument in arguments:
        data_dir, template_dir, art_dir, builtin = resolve_game_dirs(argument)
        try:
            game = load_game(argument)
            slug, title = game.slug, game.title
        except KitgenError:
            slug, title = slugify(data_dir.resolve().name) or "game", data_dir.resolve().name
        key, n = slug, 2
        while key in keys:
            key, n = f"{slug}-{n}", n + 1
        keys.add(key)
        games.append(ServedGame(key=key, argument=str(argument), title=title, root=data_dir.resolve(),
                                template_dir=template_dir, art_dir=art_dir, builtin=builtin))
    return games
