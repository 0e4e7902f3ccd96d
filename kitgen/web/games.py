"""The games a server shows: each named as the user typed it, with its folders and a URL key.

The key is the game's slug (``my-game``), made unique when two served folders
share one.  A game folder is pinned when the server starts: its real path then
is the only place its files come from, for as long as the server runs.
:meth:`ServedGame.open` is the only way a request reaches a file of a game
folder; it opens through the same check as a build
(:func:`kitgen.data.paths.inside` and :func:`kitgen.data.files.open_regular`),
at the time of each request, so a sub-folder that is (or becomes) a symlink out
of the folder, or the folder itself swapped for a symlink, hands out nothing.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path, PurePath, PurePosixPath

from kitgen.data.files import open_regular
from kitgen.data.game import load_game
from kitgen.data.paths import inside, real, resolve_game_dirs, within
from kitgen.data.values import slugify
from kitgen.errors import KitgenError


@dataclass(frozen=True)
class ServedGame:
    key: str            # in URLs: /game/<key>/
    argument: str       # as given on the command line: messages name files the same way as the CLI
    title: str
    root: Path          # the real path of the folder holding game.toml, when the server started
    template_dir: Path
    art_dir: Path
    builtin: bool

    @property
    def folders(self) -> tuple[Path, ...]:
        """The folders the game's files come from, and whose changes rebuild it: the game folder
        (its templates/, art/, icons/ and fonts/ are inside it); a built-in game's data, templates
        and art are three folders of the package."""
        if not self.builtin:
            return (self.root,)
        folders: list[Path] = []
        for folder in (self.root, self.template_dir, self.art_dir):
            folder = real(folder)
            if folder.is_dir() and not any(within(folder, f) for f in folders):
                folders.append(folder)
        return tuple(folders)

    def moved(self) -> str | None:
        """Why the game folder cannot be served any more, or None: its path now leads somewhere else
        than when the server started (the folder was swapped for a symlink, or for another folder's)."""
        if self.builtin:
            return None
        try:
            now = real(Path(self.argument))
        except KitgenError as exc:          # a symlink on the way keeps changing
            return str(exc)
        if now == self.root and os.path.isdir(now):
            return None
        if not os.path.isdir(now):
            return (f"{self.argument} is no longer a folder (kitgen serve started with {self.root}); put it "
                    "back, or restart kitgen serve to serve what is there now")
        return (f"{self.argument} now leads to {now}, not to the folder kitgen serve started with "
                f"({self.root}); restart kitgen serve to serve what is there now")

    def open(self, relative: str) -> int | None:
        """The file ``relative`` of the game folder, open for reading (the caller closes it), or None
        when it is not one.

        None for absolute paths, ``..``, backslashes, hidden names (asked for, or reached through
        a symlink), control characters, anything that leads out of the folder once every symlink
        is followed (now, not when the server started), a folder that moved (:meth:`moved`) or
        holds no game.toml, and what is not a regular file.  The file is checked once open: what
        is read is what was checked.
        """
        if not relative or "\\" in relative or _hidden(PurePosixPath(relative)) or self.moved() is not None:
            return None
        if not self.builtin and not (self.root / "game.toml").is_file():
            return None                     # not a game folder (any more): nothing of it is handed out
        for folder in self.folders:
            try:
                target = inside(folder, relative, relative)
                # the folder itself is still where it was, and no symlink led to a hidden name
                if within(target, folder) and not _hidden(target.relative_to(folder)):
                    return open_regular(target, relative, boundary=folder)
            except KitgenError:             # outside, missing, not a file, or changing while followed
                continue
        return None


def _hidden(path: PurePath) -> bool:
    """Whether a name on ``path`` is hidden (.git, .env...): such files are never handed out."""
    return any(part.startswith(".") for part in path.parts)


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
            slug, title = slugify(real(data_dir).name) or "game", real(data_dir).name
        key, n = slug, 2
        while key in keys:
            key, n = f"{slug}-{n}", n + 1
        keys.add(key)
        games.append(ServedGame(key=key, argument=str(argument), title=title, root=real(data_dir),
                                template_dir=template_dir, art_dir=art_dir, builtin=builtin))
    return games
