"""Finding art files for cards, backs and components.

An art value names a file in the game's ``art/`` folder: ``goblin.png``, a
path inside it (``monsters/goblin.png``), a name without its ending
(``goblin``, tried as .png, .jpg and .jpeg), or a web address, whose last part
(``https://example.org/art/goblin.png`` -> ``goblin.png``) is looked for in
``art/`` since kitgen does not download.  Names match ignoring case when no
file has the exact name.  A missing file is not fatal: it is reported once as
a warning naming the file looked for, and the renderer draws a placeholder.
"""

from __future__ import annotations

import re
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

from kitgen.errors import GameDataError

ART_SUFFIXES = (".png", ".jpg", ".jpeg")
OTHER_IMAGES = (".gif", ".webp", ".svg", ".bmp", ".tif", ".tiff", ".heic", ".avif", ".psd")
_URL = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*://|www\.)")


def art_name(value: str) -> str:
    """The name an art value gives inside ``art/``: a web address's last part, '\\' read as '/'."""
    if _URL.match(value):
        path = urllib.parse.urlsplit(value if "://" in value else "http://" + value).path
        return urllib.parse.unquote(path.rstrip("/").rsplit("/", 1)[-1])
    return value.replace("\\", "/")


@dataclass
class ArtLibrary:
    """Resolves art names of one game and collects warnings about missing files."""

    art_dir: Path
    warnings: list[str] = field(default_factory=list)
    _seen: dict[str, Path | None] = field(default_factory=dict)
    _by_lower: dict[str, Path] | None = None

    @classmethod
    def for_game(cls, game) -> "ArtLibrary":
        return cls(game.art_dir)

    def find(self, name: str, where: str) -> Path | None:
        """The art file's path, or None (with a warning, once per name) when it is missing."""
        if not name:
            return None
        if name in self._seen:
            return self._seen[name]
        from kitgen.data.paths import contained, relative

        suffix = relative(name, where).suffix.lower()
        if suffix in OTHER_IMAGES:
            raise GameDataError(f"art {name!r} must be a PNG or JPEG file", file=where)
        wanted = [name] if suffix in ART_SUFFIXES else [name + s for s in ART_SUFFIXES]
        found = next((p for p in (self._lookup(w) for w in wanted) if p is not None), None)
        if found is not None:
            contained(self.art_dir, str(found.relative_to(self.art_dir)), where)   # a symlink may point out
        else:
            looked = repr(name) + ("" if len(wanted) == 1 else " (as .png, .jpg or .jpeg)")
            self.warnings.append(f"{where}: art file {looked} not found in {self.art_dir.name}/; "
                                 "drawing a placeholder")
        self._seen[name] = found
        return found

    def _lookup(self, name: str) -> Path | None:
        """``art_dir/name`` if it is a file, else the file whose name differs only in case."""
        exact = self.art_dir / name
        if exact.is_file():
            return exact
        if self._by_lower is None:
            self._by_lower = {}
            if self.art_dir.is_dir():
                for p in sorted(self.art_dir.rglob("*")):
                    if p.is_file():
                        self._by_lower.setdefault(p.relative_to(self.art_dir).as_posix().lower(), p)
        return self._by_lower.get(name.lower())
