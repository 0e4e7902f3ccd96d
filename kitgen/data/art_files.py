"""Finding art files for cards, backs and components.

An art value names a file in the game's ``art/`` folder: ``goblin.png``, a
path inside it (``monsters/goblin.png``), a name without its ending
(``goblin``, tried as .png, .jpg and .jpeg), a picture in another format
(``goblin.svg``, drawn from its export ``goblin.png`` or ``.jpg``), or a web address, whose last part
(``https://example.org/art/goblin.png`` -> ``goblin.png``) is looked for in
``art/`` since kitgen does not download.  Names match ignoring case when no
file has the exact name.  A missing file is not fatal: it is reported once as
a warning naming the file looked for, and the renderer draws a placeholder.

Every file found is checked once, when the game loads (so ``kitgen validate``
catches it too): it must lie inside the game folder after symlinks, be a
regular file, and decode fully with Pillow as a PNG or JPEG of at most
:data:`MAX_ART_PIXELS` pixels.  Anything else is an error naming the file and
the row or key that uses it, before anything is drawn.
"""

from __future__ import annotations

import io
import re
import urllib.parse
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, UnidentifiedImageError

from kitgen.data.files import look, read_regular
from kitgen.data.paths import inside, relative
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
    """Resolves art names of one game, checks each file found once, and collects warnings about
    missing files.

    ``root`` is the folder no art may lead out of (the game folder; for a
    built-in game, its art folder).
    """

    art_dir: Path
    root: Path | None = None
    warnings: list[str] = field(default_factory=list)
    _seen: dict[str, Path | None] = field(default_factory=dict)
    _failed: dict[str, GameDataError] = field(default_factory=dict)   # raised again as the same problem
    _by_lower: dict[str, Path] | None = None
    _folders: dict[Path, Path] = field(default_factory=dict, compare=False, repr=False)  # real root, art_dir

    @classmethod
    def for_game(cls, game) -> "ArtLibrary":
        """The game's own library: the one that checked its art as the game loaded, when there is one."""
        library = getattr(game, "art", None)
        return library if isinstance(library, ArtLibrary) else cls(game.art_dir, game.art_root)

    def find(self, name: str, where: str) -> Path | None:
        """The real path of the art file (checked to be a PNG or JPEG that decodes), or None (with a
        warning, once per name) when it is missing."""
        if not name:
            return None
        if name in self._seen:
            return self._seen[name]
        if name in self._failed:
            raise self._failed[name]
        try:
            found = self._find(name, where)
        except GameDataError as exc:
            self._failed[name] = exc
            raise
        self._seen[name] = found
        return found

    def _find(self, name: str, where: str) -> Path | None:
        suffix = relative(name, where).suffix.lower()
        other = suffix in OTHER_IMAGES        # "dragon.svg": its PNG or JPEG export, dragon.png, is drawn
        stem = name[:-len(suffix)] if other else name
        wanted = [name] if suffix in ART_SUFFIXES else [stem + s for s in ART_SUFFIXES]
        found = next((p for p in (self._lookup(w, f"{where}: art file {w!r}") for w in wanted) if p is not None),
                     None)
        if found is not None:
            found = inside(self.root or self.art_dir, found.relative_to(self.art_dir).as_posix(), where,
                           base=self.art_dir, folders=self._folders)
            check_image(found, where)
        elif other and self._lookup(name, f"{where}: art file {name!r}") is not None:
            raise GameDataError(f"art {name!r} is a {suffix[1:].upper()} file; kitgen draws PNG or JPEG art: export "
                                f"it as {stem}.png into {self.art_dir.name}/ (the sheet may go on naming "
                                f"{name!r})", file=where)
        else:
            looked = repr(name) + ("" if len(wanted) == 1 else " (as .png, .jpg or .jpeg)")
            if other:
                looked = f"{name!r} (as {stem}.png, .jpg or .jpeg: kitgen draws PNG or JPEG art)"
            self.warnings.append(f"{where}: art file {looked} not found in {self.art_dir.name}/; "
                                 "drawing a placeholder")
        return found

    def _lookup(self, name: str, where: str) -> Path | None:
        """``art_dir/name`` if it is there, else the file whose name differs only in case."""
        exact = self.art_dir / name
        if look(exact, where, follow=False) is not None:
            return exact            # even a folder, a FIFO or a broken symlink: the check says what is wrong
        if self._by_lower is None:
            self._by_lower = {}
            if self.art_dir.is_dir():
                for p in sorted(self.art_dir.rglob("*")):
                    if p.is_file():
                        self._by_lower.setdefault(p.relative_to(self.art_dir).as_posix().lower(), p)
        return self._by_lower.get(name.lower())


# --- checking a file ------------------------------------------------------------

MAX_ART_PIXELS = 40_000_000    # 40 megapixels: a 6,300 x 6,300 picture, 1,200 DPI over a tarot card
Image.MAX_IMAGE_PIXELS = MAX_ART_PIXELS   # Pillow's decompression-bomb guard, set on purpose for any reader
_OTHER_FORMATS = ((b"GIF8", "a GIF image"), (b"RIFF", "a WebP or other RIFF file"), (b"BM", "a BMP image"),
                  (b"II*\0", "a TIFF image"), (b"MM\0*", "a TIFF image"), (b"%PDF", "a PDF document"),
                  (b"PK\3\4", "a zip archive"))
_checked: dict[tuple, str | None] = {}


def check_image(path: Path, where: str, what: str = "art file") -> None:
    """Open and fully decode the picture at ``path`` once (per content on disk) with Pillow; a damaged,
    empty or non-image file, another format, or more pixels than :data:`MAX_ART_PIXELS` raise a
    :class:`GameDataError` naming ``where`` and the file (``what``: an art file, an icon file)."""
    label = f"{where}: {what} {path.name!r}"
    info = look(path, label)
    if info is None:
        raise GameDataError("file not found", file=label)
    key = (str(path), info.st_mtime_ns, info.st_size, info.st_ino)
    if key not in _checked:
        _checked[key] = _problem(read_regular(path, label))
    problem = _checked[key]
    if problem:
        raise GameDataError(f"{what} {path.name!r} {problem}", file=where)


def _problem(data: bytes) -> str | None:
    """What is wrong with image file bytes, or None when they decode as a PNG or JPEG."""
    if not data:
        return "is empty; save the picture again as PNG or JPEG"
    head = data[:512].lstrip()
    if head[:5].lower() in (b"<?xml", b"<svg ") or b"<svg" in head.lower():
        return "is an SVG drawing, not a PNG or JPEG; export it as PNG"
    for magic, kind in _OTHER_FORMATS:
        if data.startswith(magic):
            return f"is {kind}, not a PNG or JPEG; save it as PNG"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data), formats=("PNG", "JPEG")) as im:
                width, height = im.size
                if width * height > MAX_ART_PIXELS:
                    return _too_large(width, height)
                im.load()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        return (f"has more than the {MAX_ART_PIXELS:,} pixels kitgen opens (about 6,300 x 6,300); "
                "make it smaller")
    except UnidentifiedImageError:
        if data.startswith((b"\x89PNG", b"\xff\xd8")):
            return "is damaged and cannot be decoded (it is cut short); save the picture again"
        return "is not a PNG or JPEG image (text, or another format named like one?); save it as PNG"
    except MemoryError:            # out of memory is not a damaged file
        raise
    except Exception as exc:     # Pillow's many errors for a file cut short or damaged
        reason = str(exc).strip() or type(exc).__name__
        return f"is damaged and cannot be decoded ({reason[:120]}); save the picture again"
    return None


def _too_large(width: int, height: int) -> str:
    return (f"is {width:,} x {height:,} pixels, more than the {MAX_ART_PIXELS:,} pixels kitgen opens "
            "(about 6,300 x 6,300); make it smaller")
