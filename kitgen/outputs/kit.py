"""Building a whole kit: cards.pdf, rules.pdf, aids.pdf and manifest.json."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from kitgen.data.art_files import ArtLibrary
from kitgen.data.game import load_game, printed_text
from kitgen.data.model import Game
from kitgen.data.problems import Problems
from kitgen.data.values import right_to_left
from kitgen.errors import GameDataError, KitgenError, LayoutError, LimitError, OptionError, RenderError
from kitgen.layout.duplex import DUPLEX_MODES, duplex_layout
from kitgen.layout.gutterfold import gutterfold_layout
from kitgen.layout.sheet import sheet_layout
from kitgen.outputs.page_count import check_kit_pages
from kitgen.outputs.progress import Report, Steps
from kitgen.units import Size, card_size, mm, paper_size, to_mm

MAX_BLEED_MM = 10.0          # more is no longer bleed but a frame
MAX_BACK_OFFSET_MM = 10.0    # printers drift by a few millimetres; more would push backs off the page
MAX_GAP_MM = 20.0            # between cards on a sheet; more wastes paper to no purpose
LAYOUTS = ("duplex", "gutterfold")
# Card sheets of fewer pages (one sheet, fronts and backs) draw the rulebook in this process instead of a forked
# one: they take less time than the fork's own cost (its copied pages, its cold caches: some 25 ms of processor
# time a build, more than a small game's whole rulebook), so the second core saved little and spent more
BESIDE_FROM_PAGES = 3


@dataclass(frozen=True)
class BuildOptions:
    card_size: str | None = None          # None: the game's own card size
    paper: str = "letter"
    bleed_mm: float = 0.0
    duplex: str = "long"
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    crop_marks: bool = True
    layout: str = "duplex"                # or "gutterfold": backs beside their fronts, folded over
    gap_mm: float | None = None           # between neighbouring cards; None: twice the bleed


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
    notes: list[str] = field(default_factory=list)   # worth knowing, not wrong: e.g. columns nothing uses

    def summary_lines(self) -> list[str]:
        game, sheet = self.game, self.game.sheet
        lines = [f"{game.title}: {len(game.cards)} kinds of card, {game.deck_size} cards, "
                 f"{len(game.components)} components: OK"]
        if sheet is not None:
            rows = f"rows {sheet.rows[0][0]}-{sheet.rows[-1][0]}" if sheet.rows else "no rows"
            if sheet.header_line == f"header on row {sheet.header_row}":
                lines.append(f"  {sheet.file}: {sheet.format}, header on row {sheet.header_row}, cards on {rows}")
            else:
                lines.append(f"  {sheet.file}: {sheet.format}, cards on {rows}; {sheet.header_line}")
        return lines


def validate_game(game_or_path: str | Path) -> ValidationReport:
    """Check all that can be checked without drawing: the data, the card size, art files,
    glyphs, and that every name and text fits its box at the game's card size.

    Every problem found is raised at once: the problem itself when there is one,
    else a :class:`~kitgen.errors.ProblemList` naming each on a line.  The
    rulebook template is checked once the cards are free of problems (a card
    left out for a bad row would make it fail too).
    """
    report, problems = _collect(game_or_path)
    problems.raise_all()
    return report


def _collect(game_or_path, game: Game | None = None,
             problems: Problems | None = None) -> tuple[ValidationReport | None, Problems]:
    """What validation found: its report (None when it could not go on) and every problem.

    ``game``: the game already read into ``problems`` (a build's), checked on from there instead of
    being read a second time."""
    problems = problems if problems is not None else Problems(collect=True)
    try:
        if game is None:
            game = load_game(game_or_path, problems)
        return _validate(game_or_path, game, problems), problems
    except KitgenError as exc:          # one that nothing can be checked past (game.toml, the sheet's header)
        problems.keep(exc)
        return None, problems


def _validate(game_or_path, game: Game, problems: Problems) -> ValidationReport:
    from kitgen.outputs.card_checks import check_cards
    from kitgen.render.aids.surface_fit import outer_texts
    from kitgen.render.card import CardPainter
    from kitgen.render.rulebook import check_rulebook

    toml = _label(game_or_path, game, "game.toml")
    size = card_size(game.card_size)
    found = len(problems.found)
    with problems.check():        # what build checks with its default options: the card fits the paper...
        paper = paper_size(BuildOptions.paper)
        layout = card_sheet_layout(BuildOptions(), paper, size, f"{toml}: card_size")
        check_kit_pages(game, layout, paper, size, toml)   # ... and the kit's pages are within bounds
    if any(isinstance(p, LimitError) for p in problems.found[found:]):
        return ValidationReport(game, list(game.warnings), [])    # too large to draw: its cards are not checked
    art = ArtLibrary.for_game(game)
    source = _csv_label(game_or_path, game)
    with problems.check():
        check_printed_glyphs(game_or_path, game)
    painter = CardPainter(game, size.width, size.height, 0.0, art, source)
    check_cards(painter, problems)
    for component in game.components:
        if getattr(component, "areas", ()):
            with problems.check():
                outer_texts(component)      # captions and labels that would leave their piece
    notes = list(game.sheet.notes)
    if not problems.found:                  # a rulebook naming a card left out would only repeat them
        check_rulebook(game)                # also marks the columns the rulebook reads
        notes += _unused_note(game)
    return ValidationReport(game, list(game.warnings) + art.warnings + painter.warnings, notes)


def _unused_note(game: Game) -> list[str]:
    """A note naming the columns that no card field and nothing in the rulebook reads."""
    full, empty = game.unused_columns()
    if not full and not empty:
        return []
    empty_part = f"{len(empty)} {'column is' if len(empty) == 1 else 'columns are'} empty in every row"
    if not full:
        return [f"{game.sheet.file}: {empty_part} and not used"]
    more = f" ({empty_part} too)" if empty else ""
    return [f"{game.sheet.file}: {'this column is' if len(full) == 1 else 'these columns are'} not used on the "
            f"cards or in the rulebook: {', '.join(full)}{more}; map one with [columns] in game.toml, "
            "or use it in the rulebook as card.fields[\"header\"]"]


def _count_problems(game_or_path, first: KitgenError, problems: Problems) -> KitgenError:
    """``first``, its message telling how many more of ``problems`` (all that ``kitgen validate`` lists)
    there are."""
    more = sum(1 for p in problems.found if str(p) != str(first))
    if more:
        first.args = (f"{first} (and {more} more {'problem' if more == 1 else 'problems'}: "
                      f"`kitgen validate {game_or_path}` lists them all)",)
    return first


def check_printed_glyphs(game_or_path, game: Game) -> None:
    """Refuse game.toml text the font cannot print, naming the key (cards are checked per row)."""
    from kitgen.render import fonts

    toml = _label(game_or_path, game, "game.toml")
    for key, text in printed_text(game.raw):
        where = f"{toml}, key '{key}'"
        for font in (fonts.BOLD, fonts.REGULAR):     # titles and labels print in bold, the rest in regular
            fonts.check_glyphs(text, where, font)
        rtl = right_to_left(text)
        if rtl:
            raise GameDataError(rtl, file=where)


def _label(game_or_path, game: Game, name: str) -> str:
    """How messages name a file of the game: as the user wrote the game, then the file."""
    return f"{game_or_path}/{name}" if game.builtin else str(game.root / name)


def _csv_label(game_or_path, game: Game) -> str:
    """How messages name the card sheet: its file, and the sheet of a workbook."""
    return game.sheet.file if game.sheet is not None else _label(game_or_path, game, "cards.csv")


def build_kit(game_or_path: str | Path, out: str | Path = "output",
              options: BuildOptions = BuildOptions(), progress: Report | None = None) -> BuildResult:
    """Render every part of the kit in memory, then write them all atomically.

    The first problem stops the build; its message says how many more
    :func:`validate_game` would list.  The game is read once, collecting: a
    problem found as it is read is the first a build reports, and validation's
    other checks go on from the game read (not read again) to count the rest.
    A problem met while drawing is counted by validating the game already read.
    Nothing is counted where validate stops at the same problem: one that
    reading the game raised where no collecting goes on (a mistake in a layout),
    or a limit.  ``progress(done, total)`` is told of every page of cards drawn
    and every other part made.
    """
    _check_options(options)
    problems = Problems(collect=True)
    try:
        game = load_game(game_or_path, problems)
    except KitgenError as exc:
        if not problems.found:          # raised where validate stops reading too: nothing to count
            raise
        problems.keep(exc)
        game = None
    if problems.found:
        _stop_at_first(game_or_path, game, problems)
    try:
        return _build(game_or_path, game, out, options, progress)
    except LimitError:
        raise
    except (GameDataError, RenderError) as exc:
        raise _count_problems(game_or_path, exc, _collect(game_or_path, game)[1]) from None


def _stop_at_first(game_or_path, game: Game | None, problems: Problems) -> None:
    """Raise the first of the problems found reading the game (what reading that stops at the first
    would have raised), counting the rest with validation's other checks of ``game`` when it was read."""
    first = problems.found[0]
    if isinstance(first, LimitError) or not isinstance(first, (GameDataError, RenderError)):
        raise first                         # stops the build at once: nothing more is checked to count
    if game is not None:
        _collect(game_or_path, game, problems)
    raise _count_problems(game_or_path, first, problems) from None


def _check_options(options: BuildOptions) -> None:
    if options.duplex not in DUPLEX_MODES:
        raise OptionError("--duplex", f"unknown mode {options.duplex!r}; use long, short or none")
    if options.layout not in LAYOUTS:
        raise OptionError("--layout", f"unknown layout {options.layout!r}; use duplex or gutterfold")
    if not (math.isfinite(options.bleed_mm) and 0 <= options.bleed_mm <= MAX_BLEED_MM):
        raise OptionError("--bleed", f"bleed must be 0 mm or more, up to {MAX_BLEED_MM:g} mm, "
                          f"not {options.bleed_mm:g}")
    if options.gap_mm is not None and not (math.isfinite(options.gap_mm) and 0 <= options.gap_mm <= MAX_GAP_MM):
        raise OptionError("--gap", f"the gap must be 0 mm or more, up to {MAX_GAP_MM:g} mm, not {options.gap_mm:g}")
    if options.gap_mm is not None and options.gap_mm < 2 * options.bleed_mm:
        raise OptionError("--gap", f"{options.gap_mm:g} mm is less than twice the {options.bleed_mm:g} mm bleed; "
                          f"use --gap {2 * options.bleed_mm:g} or more so neighbouring bleeds do not overlap")
    if not all(math.isfinite(v) and abs(v) <= MAX_BACK_OFFSET_MM for v in options.back_offset_mm):
        raise OptionError("--back-offset", f"each shift must be within ±{MAX_BACK_OFFSET_MM:g} mm, not "
                          + ",".join(f"{v:g}" for v in options.back_offset_mm))


def _build(game_or_path, game: Game, out, options: BuildOptions, progress: Report | None = None) -> BuildResult:
    from kitgen.outputs.files import replace_folder
    from kitgen.outputs.kit_lock import kit_lock
    from kitgen.outputs.manifest import manifest_bytes, sheet_manifest
    from kitgen.outputs.workers import Beside
    from kitgen.render.aids import render_aids
    from kitgen.render.rulebook import render_rulebook
    from kitgen.render.sheets import render_card_sheets

    check_printed_glyphs(game_or_path, game)
    paper = paper_size(options.paper)
    size_option = "--card-size" if options.card_size else f"{_label(game_or_path, game, 'game.toml')}: card_size"
    size = card_size(options.card_size or game.card_size)      # the game's was checked as it loaded
    art = ArtLibrary.for_game(game)
    layout = card_sheet_layout(options, paper, size, size_option)
    layout_warnings = sheet_warnings(layout, options.paper)
    pages = check_kit_pages(game, layout, paper, size, _label(game_or_path, game, "game.toml"))
    steps = Steps(progress, pages["cards.pdf"] + 3)
    folder = Path(out) / game.slug
    with kit_lock(folder, f"kitgen build {game_or_path}"):
        # on the second core, where there is one, unless the cards are one sheet (see BESIDE_FROM_PAGES)
        rulebook = Beside(render_rulebook, game, paper, art) if pages["cards.pdf"] >= BESIDE_FROM_PAGES else None
        try:
            sheets = render_card_sheets(game, layout, art, _csv_label(game_or_path, game), steps.advance)
            aids = render_aids(game, paper, art)
            steps.advance()
            rules = rulebook.result() if rulebook is not None else render_rulebook(game, paper, art)
            steps.advance()
        finally:
            if rulebook is not None:
                rulebook.stop()
        manifest = manifest_bytes(sheet_manifest(game, layout, sheets.placements, sheets.pages, options.paper))
        files = {"cards.pdf": sheets.pdf, "rules.pdf": rules, "aids.pdf": aids, "manifest.json": manifest}
        written = replace_folder(folder, files, keep_others=True)
        steps.advance()
    return BuildResult(title=game.title, folder=folder, files=written,
                       pages={"cards.pdf": sheets.pages, "rules.pdf": _page_count(rules),
                              "aids.pdf": _page_count(aids)},
                       cards=len(sheets.placements),
                       warnings=list(game.warnings) + art.warnings + sheets.warnings + layout_warnings)


def card_sheet_layout(options: BuildOptions, paper: Size, card: Size, size_option: str):
    """The duplex or gutterfold layout ``options`` ask for; a card too large for the paper is
    refused naming ``size_option``, where its size came from."""
    bleed = mm(options.bleed_mm)
    gap = None if options.gap_mm is None else mm(options.gap_mm)
    try:
        if options.layout == "gutterfold":
            return gutterfold_layout(paper, card, bleed, options.crop_marks, paper_name=options.paper, gap=gap)
        sheet = sheet_layout(paper, card, bleed, options.crop_marks, paper_name=options.paper, gap=gap)
    except LayoutError as exc:
        hint = "; use --layout duplex or a smaller card" if options.layout == "gutterfold" else ""
        raise OptionError(size_option, f"{exc}{hint}") from None
    offset = (mm(options.back_offset_mm[0]), mm(options.back_offset_mm[1]))
    return duplex_layout(sheet, options.duplex, offset)


def sheet_warnings(layout, paper_name: str) -> list[str]:
    """What a build says of its card sheets: that no page has room for the scale bar, if none has."""
    if layout.sheet.scale_bar is not None or getattr(layout, "back_scale_bar", None) is not None:
        return []
    size = f"{to_mm(layout.card.width):g} x {to_mm(layout.card.height):g} mm"
    return [f"cards.pdf: no page has room for the 50 mm scale bar beside these cards on {paper_name}; "
            f"to check that it printed at actual size, measure a card between its cuts: {size}"]


def _page_count(pdf: bytes) -> int:
    """Pages of a PDF we wrote ourselves (reportlab writes one /Type /Page object per page)."""
    return len(re.findall(rb"/Type\s*/Page(?![A-Za-z])", pdf))
