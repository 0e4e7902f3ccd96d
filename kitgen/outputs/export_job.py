"""What every export needs: the game loaded and checked, the card size, bleed and DPI."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from kitgen.errors import OptionError
from kitgen.units import Size, card_size, inch, to_mm, to_points

DPI_RANGE = (36, 1200)
DEFAULT_JOBS = 2
MAX_IMAGE_SIDE = 20_000         # pixels on either side of one card image
MAX_IMAGE_PIXELS = 89_478_485   # Pillow's own limit before it warns of a decompression bomb
URL_SCHEMES = ("http", "https", "file")


@dataclass(frozen=True)
class ExportOptions:
    card_size: str | None = None       # None: the game's own card size
    bleed: str | float | None = None   # a length ("3mm", "0.125in"; a number is mm); None: the format's default
    dpi: int | None = None             # None: the format's default
    jobs: int = DEFAULT_JOBS           # processes that rasterise pages
    base_url: str | None = None        # tts: where the sheet images will be hosted (default: local file URLs)


@dataclass
class ExportJob:
    """A loaded, checked game and the sizes one export draws it at (points)."""

    game: object
    card: Size
    bleed: float
    dpi: int
    jobs: int
    art: object
    source: str
    options: ExportOptions
    progress: Callable[[int, int], None] | None = None    # told (pages done, pages in all) as pages rasterise
    notes: list[str] = field(default_factory=list)       # what the export says besides warnings (pages written)

    def painter(self, bleed: float | None = None):
        from kitgen.render.card import CardPainter

        return CardPainter(self.game, self.card.width, self.card.height,
                           self.bleed if bleed is None else bleed, self.art, self.source)

    def pixels(self, points: float, dpi: float | None = None) -> int:
        """A length in points as whole pixels at the export's DPI."""
        return max(1, round(points / 72.0 * (dpi or self.dpi)))

    @property
    def deck_size(self) -> int:
        return sum(card.count for card in self.game.cards)


def parse_bleed(value, default: float) -> float:
    """The bleed in points from an option value (None gives ``default``)."""
    if value is None:
        return default
    try:
        points = to_points(value)
    except ValueError as exc:
        raise OptionError("--bleed", str(exc)) from None
    if points > inch(0.5) + 1e-9:
        raise OptionError("--bleed", f"{to_mm(points):g} mm is more than the 12.7 mm (1/2 in) a print "
                          "needs; print shops ask for 3 mm or 1/8 in")
    return points


def parse_dpi(value, default: int) -> int:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError("--dpi", f"{value!r} is not a whole number of dots per inch")
    lo, hi = DPI_RANGE
    if not lo <= value <= hi:
        raise OptionError("--dpi", f"{value} is outside {lo}..{hi}; 300 suits print, 100 a screen")
    return value


def parse_base_url(value: str | None) -> str | None:
    """The ``--base-url`` option: an http://, https:// or file:// address of a folder, or None."""
    if value is None:
        return None
    from urllib.parse import urlsplit

    text = str(value).strip()
    parts = urlsplit(text)
    scheme = parts.scheme.lower()
    if (scheme not in URL_SCHEMES or any(ch.isspace() for ch in text)
            or (scheme != "file" and not parts.netloc) or (scheme == "file" and not parts.path)):
        raise OptionError("--base-url", f"{value!r} is not a web address; give the folder the images "
                          "will be uploaded to, starting with https://, http:// or file://")
    return text


def check_image_size(job: ExportJob) -> None:
    """Refuse card images too large to write or to open (one card with its bleed at the DPI)."""
    w = job.pixels(job.card.width + 2 * job.bleed)
    h = job.pixels(job.card.height + 2 * job.bleed)
    if max(w, h) <= MAX_IMAGE_SIDE and w * h <= MAX_IMAGE_PIXELS:
        return
    # the largest DPI that keeps both limits, rounded down
    per_dot_w, per_dot_h = w / job.dpi, h / job.dpi
    fits = min(MAX_IMAGE_SIDE / max(per_dot_w, per_dot_h), (MAX_IMAGE_PIXELS / (per_dot_w * per_dot_h)) ** 0.5)
    hint = (f"use --dpi {int(fits)} or less" if fits >= DPI_RANGE[0]
            else "use a smaller --card-size")
    bleed = f" with {to_mm(job.bleed):.1f} mm bleed" if job.bleed else ""
    raise OptionError("--card-size/--dpi", f"a {to_mm(job.card.width):g} x {to_mm(job.card.height):g} mm "
                      f"card{bleed} at {job.dpi} DPI is a {w} x {h} px image; one image may be at most "
                      f"{MAX_IMAGE_SIDE} px a side and {MAX_IMAGE_PIXELS / 1e6:.0f} megapixels; {hint}")


def prepare(game_or_path: str | Path, options: ExportOptions, default_bleed: float,
            default_dpi: int, full_size_images: bool = False, check_cards: bool = True) -> ExportJob:
    """Check the options, load the game and check every card draws, before anything is rendered.

    ``full_size_images``: the format writes each card as an image at the full
    DPI (rather than shrinking it to fit a sheet), so its pixel size is capped.
    ``check_cards=False`` leaves the cards to be checked as they are drawn (the served preview draws
    only the cards that changed).
    """
    from kitgen.data.art_files import ArtLibrary
    from kitgen.data.game import load_game
    from kitgen.outputs.kit import _csv_label

    bleed = parse_bleed(options.bleed, default_bleed)
    dpi = parse_dpi(options.dpi, default_dpi)
    if isinstance(options.jobs, bool) or not isinstance(options.jobs, int) or options.jobs < 1:
        raise OptionError("--jobs", f"{options.jobs!r} is not a number of processes (1 or more)")
    parse_base_url(options.base_url)
    game = load_game(game_or_path)
    size = card_size(options.card_size or game.card_size)      # the game's was checked as it loaded
    job = ExportJob(game=game, card=size, bleed=bleed, dpi=dpi, jobs=options.jobs,
                    art=ArtLibrary.for_game(game), source=_csv_label(game_or_path, game), options=options)
    if full_size_images:
        check_image_size(job)
    if check_cards:
        painter = job.painter()
        for card in game.cards:
            painter.check(card)
    return job
