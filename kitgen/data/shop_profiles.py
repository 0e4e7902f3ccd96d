"""Print-shop profiles: what a shop takes, as data.

A profile names a shop and says what its card files must be: the card sizes
it prints (each with its bleed, safe zone and, for image files, exact pixel
size), the resolution, the file format and colour space, one file per card or
per deck, the order of faces and backs, and limits such as total ink and the
PDF/X version.  kitgen's own profiles live in ``kitgen/data/shops/*.toml``
(``tgc``, ``mpc``, ``dtc``, ``ppg``); a game folder may add its own as
``shops/NAME.toml``, and ``--target`` also takes the path of a profile file.

A profile file::

    shop = "My Shop"
    format = "png"              # png, jpg or pdf
    colour = "rgb"              # rgb or cmyk
    dpi = 300
    files = "per-card"          # per-card (images) or per-deck (one PDF)
    order = "faces-then-backs"  # or back-then-face, face-then-back (alternating pages of a PDF)
    ink_limit = 240             # cmyk: most total ink, in percent
    pdfx = "PDF/X-1a:2003"      # pdf: the PDF/X version asked for
    [sizes.poker]               # a card size kitgen knows, or WxH in mm
    pixels = [825, 1125]        # the image size with bleed (images)
    bleed = "0.125in"           # each side; 36px, 3mm, 0.125in
    safe = "0.125in"            # inside the trim
    exact = true                # false: at least this bleed
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from kitgen.errors import GameDataError, OptionError
from kitgen.units import Size, card_size, to_mm, to_points

FORMATS = ("png", "jpg", "pdf")
COLOURS = ("rgb", "cmyk")
FILES = ("per-card", "per-deck")
ORDERS = ("faces-then-backs", "back-then-face", "face-then-back")
PDFX = ("PDF/X-1a:2003",)
KEYS = {"shop", "url", "sources", "read", "format", "colour", "dpi", "files", "order", "ink_limit", "pdfx",
        "notes", "sizes"}
SIZE_KEYS = {"pixels", "bleed", "safe", "exact"}
MAX_PROFILE_BYTES = 64 * 1024
MAX_SIZES = 50
_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
_PX = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*px\s*$")
SIZE_TOLERANCE_MM = 0.05     # a card size matches a shop's when both sides agree this closely


@dataclass(frozen=True)
class ShopSize:
    """One card size a shop prints: trim, bleed and safe zone in points."""

    name: str
    width: float
    height: float
    bleed: float
    safe: float
    exact: bool = True
    pixels: tuple[int, int] | None = None    # the shop's own figure, when it publishes one

    def image_pixels(self, dpi: int) -> tuple[int, int]:
        """The image size with bleed at ``dpi``."""
        if self.pixels:
            return self.pixels
        return (round((self.width + 2 * self.bleed) / 72 * dpi), round((self.height + 2 * self.bleed) / 72 * dpi))

    def matches(self, card: Size) -> bool:
        return (abs(to_mm(card.width) - to_mm(self.width)) <= SIZE_TOLERANCE_MM
                and abs(to_mm(card.height) - to_mm(self.height)) <= SIZE_TOLERANCE_MM)

    def describe(self) -> str:
        return f"{self.name} ({to_mm(self.width):g} x {to_mm(self.height):g} mm)"


@dataclass(frozen=True)
class ShopProfile:
    key: str
    shop: str
    format: str
    colour: str
    dpi: int
    files: str
    order: str
    sizes: tuple[ShopSize, ...]
    ink_limit: int | None = None
    pdfx: str | None = None
    url: str = ""
    sources: tuple[str, ...] = ()
    read: str = ""
    notes: tuple[str, ...] = ()

    def size_for(self, card: Size) -> ShopSize | None:
        return next((s for s in self.sizes if s.matches(card)), None)

    def sizes_text(self) -> str:
        names = [s.describe() for s in self.sizes]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def builtin_names() -> list[str]:
    return sorted(p.name[:-5] for p in resources.files("kitgen.data.shops").iterdir() if p.name.endswith(".toml"))


def load_profile(target: str, game=None, option: str = "--target") -> ShopProfile:
    """The profile ``target`` names: a game's ``shops/NAME.toml``, one of kitgen's, or a profile file's path."""
    from kitgen.data.files import decode_text, open_inside, parse_toml, read_bytes

    text = str(target).strip()
    if _NAME.match(text):
        if game is not None and not game.builtin and (game.root / "shops" / f"{text}.toml").exists():
            where = f"shops/{text}.toml"
            raw = open_inside(game.root, where, where, limit=MAX_PROFILE_BYTES)
            return parse_profile(parse_toml(decode_text(raw, where), where), text, where)
        if text in builtin_names():
            where = f"kitgen's {text} profile"
            raw = resources.files("kitgen.data.shops").joinpath(f"{text}.toml").read_bytes()
            return parse_profile(parse_toml(raw.decode("utf-8"), where), text, where)
    if text.endswith(".toml") and Path(text).exists():
        raw = read_bytes(Path(text), text, limit=MAX_PROFILE_BYTES)
        return parse_profile(parse_toml(decode_text(raw, text), text), Path(text).stem, text)
    raise OptionError(option, f"unknown print shop {text!r}; use one of {', '.join(builtin_names())}, a profile "
                      "in the game folder's shops/ folder, or the path of a profile .toml file")


def parse_profile(data: dict, key: str, where: str) -> ShopProfile:
    """A checked :class:`ShopProfile` from a profile file's table; a mistake names the file and key."""
    def fail(message: str, column: str | None = None):
        raise GameDataError(message, file=where, column=column)

    unknown = sorted(set(data) - KEYS)
    if unknown:
        fail(f"unknown key {unknown[0]!r}; a profile has {', '.join(sorted(KEYS))}")
    shop = _text(data, "shop", where, required=True)
    fmt = _choice(data, "format", FORMATS, where)
    colour = _choice(data, "colour", COLOURS, where)
    files = _choice(data, "files", FILES, where)
    order = _choice(data, "order", ORDERS, where, default="faces-then-backs")
    dpi = data.get("dpi", 300)
    if isinstance(dpi, bool) or not isinstance(dpi, int) or not 72 <= dpi <= 1200:
        fail(f"{dpi!r} is not a resolution of 72 to 1200 dots per inch", "dpi")
    if (fmt == "pdf") != (files == "per-deck"):
        fail("a pdf is written one per deck (files = \"per-deck\"); png and jpg one per card (\"per-card\")",
             "files")
    if colour == "cmyk" and fmt != "pdf":
        fail("kitgen writes CMYK only as a PDF/X file; use format = \"pdf\"", "colour")
    ink = data.get("ink_limit")
    if ink is not None and (isinstance(ink, bool) or not isinstance(ink, int) or not 100 <= ink <= 400):
        fail(f"{ink!r} is not a total ink limit of 100 to 400 (percent)", "ink_limit")
    if ink is not None and colour != "cmyk":
        fail("a total ink limit applies to CMYK files; set colour = \"cmyk\" or leave it out", "ink_limit")
    pdfx = data.get("pdfx")
    if pdfx is not None and pdfx not in PDFX:
        fail(f"{pdfx!r} is not a PDF/X version kitgen writes; use {', '.join(PDFX)}", "pdfx")
    if (pdfx is not None) != (colour == "cmyk"):
        fail("kitgen writes CMYK files as PDF/X-1a:2003 and RGB files without PDF/X; set pdfx and colour "
             "together", "pdfx")
    sizes_table = data.get("sizes")
    if not isinstance(sizes_table, dict) or not sizes_table:
        fail("a profile needs at least one card size, such as [sizes.poker]", "sizes")
    if len(sizes_table) > MAX_SIZES:
        fail(f"{len(sizes_table)} card sizes; a profile has at most {MAX_SIZES}", "sizes")
    sizes = tuple(_size(name, value, dpi, fmt, where) for name, value in sizes_table.items())
    return ShopProfile(key=key, shop=shop, format=fmt, colour=colour, dpi=dpi, files=files, order=order,
                       sizes=sizes, ink_limit=ink, pdfx=pdfx, url=_text(data, "url", where),
                       sources=_texts(data, "sources", where), read=_text(data, "read", where),
                       notes=_texts(data, "notes", where))


def _size(name: str, value, dpi: int, fmt: str, where: str) -> ShopSize:
    column = f"sizes.{name}"
    if not isinstance(value, dict):
        raise GameDataError("a card size is a table with bleed, safe and pixels", file=where, column=column)
    unknown = sorted(set(value) - SIZE_KEYS)
    if unknown:
        raise GameDataError(f"unknown key {unknown[0]!r}; a card size has {', '.join(sorted(SIZE_KEYS))}",
                            file=where, column=column)
    try:
        trim = card_size(name, column)
    except OptionError as exc:
        raise GameDataError(exc.message, file=where, column=column) from None
    exact = value.get("exact", True)
    if not isinstance(exact, bool):
        raise GameDataError(f"{exact!r} is not true or false", file=where, column=f"{column}.exact")
    pixels = value.get("pixels")
    if pixels is not None:
        if (not isinstance(pixels, list) or len(pixels) != 2
                or not all(isinstance(p, int) and not isinstance(p, bool) and 1 <= p <= 20_000 for p in pixels)):
            raise GameDataError("pixels is two whole numbers, width and height, such as [825, 1125]",
                                file=where, column=f"{column}.pixels")
        pixels = (pixels[0], pixels[1])
    bleed = _length(value.get("bleed"), dpi, where, f"{column}.bleed", pixels, trim)
    safe = _length(value.get("safe", 0), dpi, where, f"{column}.safe")
    if 2 * safe >= min(trim.width, trim.height):
        raise GameDataError("the safe zone leaves nothing of the card", file=where, column=f"{column}.safe")
    if pixels is not None:
        want = (round((trim.width + 2 * bleed) / 72 * dpi), round((trim.height + 2 * bleed) / 72 * dpi))
        if want != pixels:
            raise GameDataError(f"{pixels[0]} x {pixels[1]} px is not the card with its bleed at {dpi} dpi "
                                f"({want[0]} x {want[1]} px)", file=where, column=f"{column}.pixels")
    return ShopSize(name=name, width=trim.width, height=trim.height, bleed=bleed, safe=safe, exact=exact,
                    pixels=pixels)


def _length(value, dpi: int, where: str, column: str, pixels=None, trim=None) -> float:
    if value is None:
        if pixels is None:
            raise GameDataError("give the bleed (such as \"0.125in\" or \"3mm\") or the pixels",
                                file=where, column=column)
        return (pixels[0] / dpi * 72 - trim.width) / 2
    if isinstance(value, str) and _PX.match(value):
        points = float(_PX.match(value).group(1)) / dpi * 72
    else:
        try:
            points = to_points(value)
        except ValueError as exc:
            raise GameDataError(f"{exc}; write a length such as 3mm, 0.125in or 36px", file=where,
                                column=column) from None
    if not 0 <= points <= 72:
        raise GameDataError(f"{value!r} is not a length of 0 to 1 in", file=where, column=column)
    return points


def _choice(data: dict, key: str, options: tuple, where: str, default: str | None = None) -> str:
    value = data.get(key, default)
    if value not in options:
        raise GameDataError(f"{value!r} is not one of {', '.join(options)}", file=where, column=key)
    return value


def _text(data: dict, key: str, where: str, required: bool = False) -> str:
    value = data.get(key, None if required else "")
    if not isinstance(value, str) or (required and not value.strip()) or len(value) > 500:
        raise GameDataError("expected a text of at most 500 characters", file=where, column=key)
    return value


def _texts(data: dict, key: str, where: str) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or len(value) > 20 or not all(isinstance(v, str) and len(v) <= 500
                                                                  for v in value):
        raise GameDataError("expected a list of at most 20 texts", file=where, column=key)
    return tuple(value)
