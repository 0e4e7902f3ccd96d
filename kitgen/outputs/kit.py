"""Building a whole kit: cards.pdf, rules.pdf, aids.pdf and manifest.json."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from kitgen.data.art_files import ArtLibrary
from kitgen.data.game import load_game, printed_text
from kitgen.data.model import Game
from kitgen.errors import LayoutError, OptionError
from kitgen.layout.duplex import DUPLEX_MODES, duplex_layout
from kitgen.layout.gutterfold import gutterfold_layout
from kitgen.layout.sheet import sheet_layout
from kitgen.units import Size, card_size, mm, paper_size

MAX_BLEED_MM = 10.0          # more is no longer bleed but a frame
MAX_BACK_OFFSET_MM = 10.0    # printers drift by a few millimetres; more would push backs off the page
LAYOUTS = ("duplex", "gutterfold")


@dataclass(frozen=True)
class BuildOptions:
    card_size: str | None = None          # None: the game's own card size
    paper: str = "letter"
    bleed_mm: float = 0.0
    duplex: str = "long"
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    crop_marks: bool = True
    layout: str = "duplex"                # or "gutterfold": backs beside their fronts, folded over


@dataclass
class BuildResult:
    title: str
    folder: Path
    files: list[Path]
    pages: dict[str, int]
    cards: int
    warnings: list[str] = field(default_factory=list)

    def summary_lines(self) -> list[str]:
        lines = []
        for path in self.files:
            pages = self.pages.get(path.name)
            extra = f"{pages} pages" if pages is not None else f"{self.cards} cards listed"
            if path.name == "cards.pdf":
                extra += f", {self.cards} cards"
            lines.append(f"{path}  ({extra})")
        return lines


@dataclass
class ValidationReport:
    game: Game
    warnings: list[str]


def validate_game(game_or_path: str | Path) -> ValidationReport:
    """Check all that can be checked without drawing: the data, the card size, art files,
    glyphs, and that every name and text fits its box at the game's card size."""
    from kitgen.render.aids.surface_fit import outer_texts
    from kitgen.render.card import CardPainter
    from kitgen.render.rulebook import check_rulebook

    game = load_game(game_or_path)
    size = card_size(game.card_size, f"{_label(game_or_path, game, 'game.toml')}: card_size")
    art = ArtLibrary.for_game(game)
    source = _csv_label(game_or_path, game)
    check_printed_glyphs(game_or_path, game)
    painter = CardPainter(game, size.width, size.height, 0.0, art, source)
    for card in game.cards:
        painter.check(card)
        if card.art:
            art.find(card.art, f"{source}, row {card.row}, column 'art'")
    if game.back.art:
        art.find(game.back.art, "game.toml, [back] art")
    for component in game.components:
        if getattr(component, "areas", ()):
            outer_texts(component)      # captions and labels that would leave their piece
    check_rulebook(game)
    return ValidationReport(game, art.warnings)


def check_printed_glyphs(game_or_path, game: Game) -> None:
    """Refuse game.toml text the font cannot print, naming the key (cards are checked per row)."""
    from kitgen.render import fonts

    toml = _label(game_or_path, game, "game.toml")
    for key, text in printed_text(game.raw):
        fonts.check_glyphs(text, f"{toml}, key '{key}'")


def _label(game_or_path, game: Game, name: str) -> str:
    """How messages name a file of the game: as the user wrote the game, then the file."""
    return f"{game_or_path}/{name}" if game.builtin else str(game.root / name)


def _csv_label(game_or_path, game: Game) -> str:
    return _label(game_or_path, game, "cards.csv")


def build_kit(game_or_path: str | Path, out: str | Path = "output",
              options: BuildOptions = BuildOptions()) -> BuildResult:
    """Render every part of the kit in memory, then write them all atomically."""
    from kitgen.outputs.files import write_files
    from kitgen.outputs.manifest import manifest_bytes, sheet_manifest
    from kitgen.render.aids import render_aids
    from kitgen.render.rulebook import render_rulebook
    from kitgen.render.sheets import render_card_sheets

    if options.duplex not in DUPLEX_MODES:
        raise OptionError("--duplex", f"unknown mode {options.duplex!r}; use long, short or none")
    if options.layout not in LAYOUTS:
        raise OptionError("--layout", f"unknown layout {options.layout!r}; use duplex or gutterfold")
    if not (math.isfinite(options.bleed_mm) and 0 <= options.bleed_mm <= MAX_BLEED_MM):
        raise OptionError("--bleed", f"bleed must be 0 mm or more, up to {MAX_BLEED_MM:g} mm, "
                          f"not {options.bleed_mm:g}")
    if not all(math.isfinite(v) and abs(v) <= MAX_BACK_OFFSET_MM for v in options.back_offset_mm):
        raise OptionError("--back-offset", f"each shift must be within ±{MAX_BACK_OFFSET_MM:g} mm, not "
                          + ",".join(f"{v:g}" for v in options.back_offset_mm))
    game = load_game(game_or_path)
    check_printed_glyphs(game_or_path, game)
    paper = paper_size(options.paper)
    size_option = "--card-size" if options.card_size else f"{_label(game_or_path, game, 'game.toml')}: card_size"
    size = card_size(options.card_size or game.card_size, size_option)
    art = ArtLibrary.for_game(game)
    layout = card_sheet_layout(options, paper, size, size_option)
    sheets = render_card_sheets(game, layout, art, _csv_label(game_or_path, game))
    rules = render_rulebook(game, paper)
    aids = render_aids(game, paper, art)
    manifest = manifest_bytes(sheet_manifest(game, layout, sheets.placements, sheets.pages, options.paper))
    folder = Path(out) / game.slug
    files = {"cards.pdf": sheets.pdf, "rules.pdf": rules, "aids.pdf": aids, "manifest.json": manifest}
    written = write_files(folder, files)
    return BuildResult(title=game.title, folder=folder, files=written,
                       pages={"cards.pdf": sheets.pages, "rules.pdf": _page_count(rules),
                              "aids.pdf": _page_count(aids)},
                       cards=len(sheets.placements), warnings=list(art.warnings))


def card_sheet_layout(options: BuildOptions, paper: Size, card: Size, size_option: str):
    """The duplex or gutterfold layout ``options`` ask for; a card too large for the paper is
    refused naming ``size_option``, where its size came from."""
    bleed = mm(options.bleed_mm)
    try:
        if options.layout == "gutterfold":
            return gutterfold_layout(paper, card, bleed, options.crop_marks, paper_name=options.paper)
        sheet = sheet_layout(paper, card, bleed, options.crop_marks, paper_name=options.paper)
    except LayoutError as exc:
        hint = "; use --layout duplex or a smaller card" if options.layout == "gutterfold" else ""
        raise OptionError(size_option, f"{exc}{hint}") from None
    offset = (mm(options.back_offset_mm[0]), mm(options.back_offset_mm[1]))
    return duplex_layout(sheet, options.duplex, offset)


def _page_count(pdf: bytes) -> int:
    """Pages of a PDF we wrote ourselves (reportlab writes one /Type /Page object per page)."""
    return len(re.findall(rb"/Type\s*/Page(?![A-Za-z])", pdf))
