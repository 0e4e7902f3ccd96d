"""Finding art files for cards, backs and components.

A missing art file is not fatal: it is reported once as a warning and the
renderer draws a placeholder in its place.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from kitgen.errors import GameDataError

ART_SUFFIXES = (".png", ".jpg", ".jpeg")


@dataclass
class ArtLibrary:
    """Resolves art names of one game and collects warnings about missing files."""

    art_dir: Path
    warnings: list[str] = field(default_factory=list)
    _seen: dict[str, Path | None] = field(default_factory=dict)

    @classmethod
    def for_game(cls, game) -> "ArtLibrary":
        return cls(game.art_dir)

    def find(self, name: str, where: str) -> Path | None:
        """The art file's path, or None (with a warning, once per name) when it is missing."""
        if not name:
            return None
        if name in self._seen:
            return self._seen[name]
        from kitgen.data.paths import contained

        path = contained(self.art_dir, name, where)
        if path.suffix.lower() not in ART_SUFFIXES:
            raise GameDataError(f"art {name!r} must be a PNG or JPEG file", file=where)
        found = path if path.is_file() else None
        if found is None:
            self.warnings.append(f"{where}: art file {name!r} not found in {self.art_dir.name}/; "
                                 "drawing a placeholder")
        self._seen[name] = found
        return found
