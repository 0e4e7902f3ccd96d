"""The kit commands: list, new, validate, build."""

from __future__ import annotations

from pathlib import Path

import click

from kitgen.cli.params import CardSizeType, OffsetType
from kitgen.cli.progress import DelayedBar


@click.command("list")
def list_games():
    """Name the built-in games."""
    from kitgen.data.builtin import builtin_games
    from kitgen.data.game import load_game

    for slug in builtin_games():
        game = load_game(slug)
        click.echo(f"{slug:<24} {game.title} ({game.deck_size} cards, "
                   f"{game.players_text} players)")


MAX_WARNINGS = 50                # shown one a line; the rest are counted


def echo_warnings(warnings: list[str], kind: str = "Warning") -> None:
    """Each warning (or note) on a line of its own, on stderr, up to MAX_WARNINGS."""
    for warning in warnings[:MAX_WARNINGS]:
        click.echo(f"{kind}: {warning}", err=True)
    if len(warnings) > MAX_WARNINGS:
        hidden = len(warnings) - MAX_WARNINGS
        click.echo(f"{kind}: ... and {hidden} more ({len(warnings)} in all)", err=True)


@click.command()
@click.argument("game")
def validate(game):
    """Check a game's data (GAME: built-in name or folder) without rendering; list every problem."""
    from kitgen.outputs.kit import validate_game
    from kitgen.outputs.memory import memory_limit

    with memory_limit():
        report = validate_game(game)
    echo_warnings(report.warnings)
    echo_warnings(report.notes, "Note")
    for line in report.summary_lines():
        click.echo(line)


@click.command()
@click.argument("path", type=click.Path(file_okay=False, path_type=Path))
@click.option("--title", default=None, help="Title of the new game (default: from the folder name).")
@click.option("--from", "sheet", default=None, metavar="SHEET",
              help="A card sheet (.csv, .tsv or .xlsx; FILE.xlsx#Sheet for one sheet of a workbook) to build "
                   "the game around: it is copied in and its columns are mapped in game.toml.")
def new(path, title, sheet):
    """Write a game folder at PATH that builds as it is: a starter, or one around your own sheet."""
    from kitgen.outputs.starter import write_from_sheet, write_starter

    if sheet is None:
        written = write_starter(path, title)
        click.echo(f"Wrote a starter game in {path} ({len(written)} files). Build it with: kitgen build {path}")
        return
    made = write_from_sheet(path, sheet, title)
    click.echo(f"Wrote a game around {made.sheet} in {path} ({len(made.files)} files): {made.summary}.")
    click.echo(f"The sheet: {made.header}.")
    if made.workbook:
        click.echo(f"The workbook: {made.workbook}.")
    click.echo(f"Build it with: kitgen build {path}")


@click.command()
@click.argument("game")
@click.option("--out", "out", type=click.Path(path_type=Path), default=Path("output"), show_default=True,
              help="Folder under which <game-slug>/ is written.")
@click.option("--card-size", type=CardSizeType(), default=None,
              help="poker (63.5x88.9), poker-eu (63x88), bridge, mini, tarot, square or WxH in mm. "
                   "Default: the game's own size.")
@click.option("--paper", type=click.Choice(["letter", "a4"], case_sensitive=False), default="letter",
              show_default=True)
@click.option("--bleed", type=float, default=0.0, show_default=True, metavar="MM",
              help="Extend each card's background this far past the trim line.")
@click.option("--gap", type=float, default=None, metavar="MM",
              help="Space between neighbouring cards on a sheet. Default: twice the bleed (cards touch "
                   "without bleed, or are set a few mm apart where their cut marks could not print).")
@click.option("--duplex", type=click.Choice(["long", "short", "none"]), default="long", show_default=True,
              help="Where backs go: behind fronts for flip on the long or short edge, or after all fronts.")
@click.option("--back-offset", type=OffsetType(), default="0,0", show_default=True, metavar="X,Y",
              help="Shift every backs page by X,Y mm to correct a printer's misalignment.")
@click.option("--crop-marks/--no-crop-marks", default=True, show_default=True)
@click.option("--layout", type=click.Choice(["duplex", "gutterfold"]), default="duplex", show_default=True,
              help="duplex: pages of fronts, then their backs; gutterfold: fronts and backs side by side "
                   "on one page, folded along the middle (--duplex and --back-offset do not apply).")
@click.pass_context
def build(ctx, game, out, card_size, paper, bleed, gap, duplex, back_offset, crop_marks, layout):
    """Build the print-and-play kit of GAME (a built-in name or a game folder)."""
    from kitgen.errors import OptionError
    from kitgen.outputs.kit import BuildOptions, build_kit
    from kitgen.outputs.memory import memory_limit

    if layout == "gutterfold":
        for name in ("duplex", "back_offset"):
            if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE:
                option = "--" + name.replace("_", "-")
                raise OptionError(option, "does not apply to --layout gutterfold (fronts and backs share a page)")
    options = BuildOptions(card_size=card_size, paper=paper.lower(), bleed_mm=bleed, duplex=duplex,
                           back_offset_mm=back_offset, crop_marks=crop_marks, layout=layout,
                           gap_mm=gap)
    with DelayedBar("Building") as bar, memory_limit():
        result = build_kit(game, out, options, bar)
    echo_warnings(result.warnings)
    click.echo(f"Built {result.title} in {result.folder}:")
    for line in result.summary_lines():
        click.echo(f"  {line}")
