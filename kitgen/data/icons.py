"""Icons a game's text may show: ``:coin:``, and any text game.toml's ``[icons]`` maps to one.

An icon is a picture of the game folder's ``icons/`` (``icons/coin.png``,
``.jpg``, ``.jpeg`` or ``.svg``), else one of kitgen's built-in icons
(:data:`BUILTIN`, drawn from game-icons.net, listed with their authors in
``kitgen/icons/icons.toml``): a game's own icon wins over a built-in one of
the same name.  Every file is found inside the game folder once symlinks are
followed (:func:`kitgen.data.paths.inside`) and checked as it is found: a PNG
or JPEG decodes, an SVG passes :mod:`kitgen.data.svg_files`.

``[icons]`` maps the characters a sheet already uses to icons::

    [icons]
    "[Meat]" = "meat"      # a token the designer types
    "⚡" = "energy"         # an emoji
    "+1a" = "action"       # an icons/action.svg of the game's own

and every emoji with a built-in twin (⚡ energy, ❤ heart, 🪙 coin...) is that
icon without a line.  :class:`IconTokens` turns such text into ``:name:``
before rich text is read, in every text the cards and the rulebook print.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from functools import lru_cache
from pathlib import Path

from kitgen.errors import GameDataError

ICON_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg")
BUILTIN = Path(__file__).resolve().parent.parent / "icons"
MAX_ICON_KEYS = 500          # entries of [icons]
MAX_KEY = 40                 # characters of one [icons] key
NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_SKIN = "\U0001F3FB-\U0001F3FF"
_TRAIL = f"[\uFE0F\uFE0E{_SKIN}]*"     # what may follow an emoji: a presentation selector, a skin tone


@lru_cache(maxsize=1)
def builtin_icons() -> dict[str, dict]:
    """name -> {source, author, licence, shows, emoji} of kitgen's built-in icons."""
    return tomllib.loads((BUILTIN / "icons.toml").read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def emoji_twins() -> dict[str, str]:
    """An emoji (without its presentation selector) -> the built-in icon drawn for it."""
    return {strip_emoji(e): name for name, info in builtin_icons().items() for e in info["emoji"]}


def strip_emoji(text: str) -> str:
    """``text`` without emoji presentation selectors and skin tones (👊🏾 is 👊)."""
    return re.sub(f"[\uFE0F\uFE0E{_SKIN}]", "", text)


def is_emoji(ch: str) -> bool:
    """Whether a character is a pictograph that fonts for text lack (emoji, dingbats, symbols)."""
    cp = ord(ch)
    return (0x1F000 <= cp <= 0x1FAFF or 0x2600 <= cp <= 0x27BF or 0x2B00 <= cp <= 0x2BFF
            or 0x2300 <= cp <= 0x23FF or unicodedata.category(ch) == "So" and cp > 0x2000)


class IconTokens:
    """Text that stands for an icon: ``[icons]`` keys and emoji with a built-in twin, longest first."""

    def __init__(self, table: dict[str, str] | None = None):
        self.table = dict(table or {})
        keys = {strip_emoji(k): v for k, v in self.table.items()}
        merged = {**emoji_twins(), **keys}
        self.names = merged
        parts = []
        for key in sorted(merged, key=len, reverse=True):
            pattern = re.escape(key)
            if key and is_emoji(key[-1]):
                pattern += _TRAIL
            parts.append(pattern)
        self.pattern = re.compile("|".join(parts)) if parts else None

    def substitute(self, text: str) -> str:
        """``text`` with every token made ``:name:``."""
        if self.pattern is None or not text:
            return text
        return self.pattern.sub(lambda m: f":{self.names[strip_emoji(m.group())]}:", text)

    def used(self, text: str) -> set[str]:
        """The icon names the tokens of ``text`` stand for."""
        if self.pattern is None or not text:
            return set()
        return {self.names[strip_emoji(m.group())] for m in self.pattern.finditer(text)}


def icon_table(data: dict, where: str) -> dict[str, str]:
    """game.toml's ``[icons]``: text -> icon name, checked (the names are looked up by :func:`check_tokens`)."""
    table = data.get("icons", {})
    if not isinstance(table, dict):
        raise GameDataError("'icons' must be a table such as [icons] \"[Meat]\" = \"meat\"", file=where)
    if len(table) > MAX_ICON_KEYS:
        raise GameDataError(f"[icons] has {len(table):,} entries; at most {MAX_ICON_KEYS}", file=where)
    out = {}
    for key, value in table.items():
        line = f"[icons] {key!r} = {value!r}"
        if not key.strip() or len(key) > MAX_KEY:
            raise GameDataError(f"{line}: a key is the text the sheet writes, 1 to {MAX_KEY} characters", file=where)
        if not isinstance(value, str) or not NAME.fullmatch(value.strip().strip(":")):
            raise GameDataError(f"{line}: the value names an icon, like \"meat\" (icons/meat.svg or .png, or a "
                                "built-in icon)", file=where)
        if "\\" in key or "*" in key:
            raise GameDataError(f"{line}: a key may not hold \\ or * (they mark escapes, bold and italic)",
                                file=where)
        out[key] = value.strip().strip(":")
    return out


class IconLibrary:
    """Finds the icons of one game folder (each name looked up once): its own ``icons/`` first, then
    kitgen's built-in set; each file inside the game folder once symlinks are followed, and checked to
    be a picture that decodes or an SVG within bounds."""

    def __init__(self, root: Path | None):
        self.root = root
        self.folder = root / "icons" if root is not None else None
        self._found: dict[str, Path | None] = {}
        self.builtin_used: set[str] = set()

    def own_names(self) -> list[str]:
        if self.folder is None or not self.folder.is_dir():
            return []
        try:
            return sorted(p.stem for p in self.folder.iterdir() if p.suffix.lower() in ICON_SUFFIXES and p.is_file())
        except OSError:              # a folder that cannot be listed: the message names no icons
            return []

    def names(self) -> list[str]:
        return sorted(set(self.own_names()) | set(builtin_icons()))

    def has(self, name: str, where: str) -> bool:
        try:
            self.find(name, where)
        except GameDataError:
            return False
        return True

    def missing(self, name: str, where: str) -> bool:
        """Whether the game has no icon ``name`` at all (neither its own nor a built-in one); a file that
        is there but broken is still an error, named at ``where``."""
        try:
            self.find(name, where)
        except GameDataError:
            if name in self._found:           # looked for and not found
                return True
            raise
        return False

    def find(self, name: str, where: str) -> Path:
        """The file of icon ``name``, or an error naming ``where`` the icon was asked for."""
        if name not in self._found:
            from kitgen.data.art_files import check_image
            from kitgen.data.files import look
            from kitgen.data.paths import check_folder, inside
            from kitgen.data.svg_files import check_svg

            found = None
            if self.root is not None:
                check_folder(self.root, self.folder, where)
                for suffix in ICON_SUFFIXES:
                    path = inside(self.root, f"icons/{name}{suffix}", where)
                    if look(path, f"{where}: icon file 'icons/{name}{suffix}'", follow=False) is not None:
                        if suffix == ".svg":      # even a folder or a FIFO: the check says what is wrong
                            check_svg(path, where)
                        else:
                            check_image(path, where, "icon file")
                        found = path
                        break
            if found is None and name in builtin_icons():
                found = BUILTIN / f"{name}.svg"
            self._found[name] = found
        path = self._found[name]
        if path is None:
            own = ", ".join(self.own_names()) or "none"
            raise GameDataError(f"no icon ':{name}:': icons/{name}.png (or .svg) is not in the game folder (its "
                                f"icons: {own}) and kitgen has no built-in icon of that name (see docs/layouts.md); "
                                "write \\: for a colon that starts no icon", file=where)
        if path.parent == BUILTIN:
            self.builtin_used.add(name)
        return path


_NAMED_OR_ESCAPED = re.compile(r"\\.|:([A-Za-z][A-Za-z0-9_-]*):", re.S)


def escape_missing(text: str, missing) -> tuple[str, list[str]]:
    """``text`` with every ``:name:`` for which ``missing(name)`` holds escaped (``\\:name:``), so it prints
    as written, and those names: an icon not drawn yet is like art not drawn yet, a warning."""
    names: list[str] = []

    def escape(m: re.Match) -> str:
        name = m.group(1)
        if name is None or not missing(name):
            return m.group()
        names.append(name)
        return "\\" + m.group()

    return (_NAMED_OR_ESCAPED.sub(escape, text) if ":" in text else text), names


@lru_cache(maxsize=64)
def tokens_for(items: tuple[tuple[str, str], ...]) -> IconTokens:
    """The tokens of an ``[icons]`` table (as sorted items), made once per table."""
    return IconTokens(dict(items))


def check_tokens(table: dict[str, str], library: IconLibrary, where: str) -> None:
    """Every ``[icons]`` line names an icon the game has or kitgen ships."""
    for key, name in table.items():
        library.find(name, f"{where}, [icons] {key!r} = {name!r}")


def emoji_advice(ch: str) -> str:
    """What to write in game.toml so the emoji ``ch`` prints as an icon."""
    twin = emoji_twins().get(strip_emoji(ch))
    name = twin or _suggest(ch)
    return f"add the line [icons] \"{ch}\" = \"{name}\" to game.toml (an icon of icons/ or a built-in one" + (
        f"; \"{twin}\" is kitgen's" if twin else ", see docs/layouts.md") + ")"


def _suggest(ch: str) -> str:
    try:
        words = unicodedata.name(strip_emoji(ch) or ch).lower().split()
    except ValueError:
        return "NAME"
    for word in words:
        if word in builtin_icons():
            return word
    return "-".join(words[-2:]) if words else "NAME"


_NAMED = re.compile(r":([A-Za-z][A-Za-z0-9_-]*):")


def builtin_icons_used(game) -> list[str]:
    """The built-in icons a game's cards, layouts and rulebook may print (those its own icons/ does not
    replace): named as ``:name:`` or by ``[icons]`` and emoji in its sheet, game.toml or layouts."""
    texts = [cell for card in game.cards for cell in (card.fields.cell(i) for i in range(len(game.sheet.columns.names)))
             ] if game.sheet is not None else [card.text for card in game.cards]
    texts += [str(setting.source) for layout in game.layouts.values() for box in layout.boxes
              for setting in box.settings.values() if isinstance(setting.source, str)]
    texts += [v for v in _strings(game.raw)]
    names = set(game.icon_map.values())
    for text in texts:
        names |= set(_NAMED.findall(text)) | game.tokens.used(text)
    for layout in game.layouts.values():            # an icons box names its icons bare: "coin coin"
        for box in layout.boxes:
            content = box.settings.get("content")
            if box.kind == "icons" and content is not None and isinstance(content.source, str):
                names |= set(re.findall(r"[A-Za-z][A-Za-z0-9_-]*", content.source))
    library = IconLibrary(None if game.builtin else game.root)
    own = set(library.own_names())
    return sorted(n for n in names if n in builtin_icons() and n not in own)


def _strings(data) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for v in data.values() for s in _strings(v)]
    if isinstance(data, list):
        return [s for v in data for s in _strings(v)]
    return []


def credits_text(names: list[str]) -> str:
    """One paragraph crediting the built-in icons ``names``: each author's icons, and the licence."""
    by_author: dict[str, list[str]] = {}
    for name in names:
        by_author.setdefault(builtin_icons()[name]["author"], []).append(name)
    parts = [f"{', '.join(icons)} by {author}" for author, icons in sorted(by_author.items())]
    cc0 = sorted(n for n in names if builtin_icons()[n]["licence"] == "CC0")
    licence = "licensed under CC BY 3.0 (creativecommons.org/licenses/by/3.0)"
    if cc0:
        licence += f"; {', '.join(cc0)} under CC0"
    return f"Icons from game-icons.net: {'; '.join(parts)}; {licence}, recoloured."
