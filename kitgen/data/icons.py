"""Icons a game's text may show: ``:coin:`` is the picture ``icons/coin.png`` of its game folder."""

from __future__ import annotations

from pathlib import Path

from kitgen.errors import GameDataError

ICON_SUFFIXES = (".png", ".jpg", ".jpeg")


class IconLibrary:
    """Finds the icon files of one game folder (each name looked up once), inside the game folder
    once symlinks are followed, each checked to be a picture that decodes."""

    def __init__(self, root: Path | None):
        self.root = root
        self.folder = root / "icons" if root is not None else None
        self._found: dict[str, Path | None] = {}

    def names(self) -> list[str]:
        if self.folder is None or not self.folder.is_dir():
            return []
        try:
            return sorted(p.stem for p in self.folder.iterdir() if p.suffix.lower() in ICON_SUFFIXES and p.is_file())
        except OSError:              # a folder that cannot be listed: the message names no icons
            return []

    def find(self, name: str, where: str) -> Path:
        """The file of icon ``name``, or an error naming ``where`` the icon was asked for."""
        if name not in self._found:
            from kitgen.data.art_files import check_image
            from kitgen.data.files import look
            from kitgen.data.paths import check_folder, inside

            found = None
            if self.root is not None:
                check_folder(self.root, self.folder, where)
                for suffix in ICON_SUFFIXES:
                    path = inside(self.root, f"icons/{name}{suffix}", where)
                    if look(path, f"{where}: icon file 'icons/{name}{suffix}'", follow=False) is not None:
                        check_image(path, where, "icon file")   # even a folder or a FIFO: the check says what
                        found = path
                        break
            self._found[name] = found
        path = self._found[name]
        if path is None:
            known = ", ".join(self.names()) or "none"
            raise GameDataError(f"no icon ':{name}:': icons/{name}.png is not in the game folder "
                                f"(its icons: {known}); write \\: for a colon that starts no icon", file=where)
        return path
