"""The ``kitgen export`` command: card PNGs, print-shop PDF, Tabletop Simulator deck, contact sheet."""

from __future__ import annotations

from pathlib import Path

import click

from kitgen.cli.kit import echo_warnings
from kitgen.cli.params import CardSizeType
from kitgen.cli.progress import DelayedBar

FORMAT_HELP = ("png: one PNG per card face and the back (300 DPI, 1/8 in bleed); "
               "print-shop: one card per page PDF with TrimBox and BleedBox, front, back, front, back; "
               "tts: Tabletop Simulator deck sheets and saved object; "
               "contact-sheet: one PNG of every face and the back, labelled.")


@click.command()
@click.argument("game")
@click.option("--format", "fmt", default=None,
              type=click.Choice(["png", "print-shop", "tts", "contact-sheet"]), help=FORMAT_HELP)
@click.option("--target", default=None, metavar="SHOP",
              help="Exactly what a print shop takes, checked by preflight: tgc (The Game Crafter), mpc "
                   "(MakePlayingCards), dtc (DriveThruCards, CMYK PDF/X-1a), ppg (PrintPlayGames), a profile "
                   "in the game's shops/ folder or the path of a profile .toml file.")
@click.option("--out", "out", type=click.Path(path_type=Path), default=Path("output"), show_default=True,
              help="Folder under which <game-slug>/ is written.")
@click.option("--card-size", type=CardSizeType(), default=None,
              help="poker, poker-eu, bridge, mini, tarot, square or WxH in mm. Default: the game's own size.")
@click.option("--bleed", default=None, metavar="LENGTH",
              help="Art past the trim line, e.g. 3mm or 0.125in (a bare number is mm). "
                   "Default: 1/8 in for png and print-shop (tts and contact-sheet show cards cut to size).")
@click.option("--dpi", type=int, default=None,
              help="Pixels per inch of the images. Default: 300 (png, tts: at most 4096 px a sheet), "
                   "100 (contact-sheet).")
@click.option("--jobs", type=click.IntRange(min=1), default=2, show_default=True,
              help="Processes that rasterise pages.")
@click.option("--base-url", default=None, metavar="URL",
              help="tts: the web folder the images will be uploaded to (default: local file URLs).")
def export(game, fmt, target, out, card_size, bleed, dpi, jobs, base_url):
    """Export GAME (a built-in name or a game folder) for print shops, virtual tabletops or a glance."""
    from kitgen.errors import OptionError
    from kitgen.outputs.exports import ExportOptions, export_game
    from kitgen.outputs.memory import memory_limit

    if (fmt is None) == (target is None):
        raise OptionError("--format/--target", "give one of them: --format for a kind of file, --target for "
                          "a print shop")
    options = ExportOptions(card_size=card_size, bleed=bleed, dpi=dpi, jobs=jobs, base_url=base_url)
    if target is not None:
        from kitgen.outputs.shop_export import export_to_shop

        with DelayedBar("Exporting") as bar, memory_limit():
            shop = export_to_shop(game, target, out, options, bar)
        echo_warnings(shop.warnings)
        click.echo(f"Exported {shop.title} ({shop.cards} cards, {shop.faces} faces) for {shop.profile.shop}: "
                   f"{shop.target} (preflight passed)")
        return
    with DelayedBar("Exporting") as bar, memory_limit():
        result = export_game(game, fmt, out, options, bar)
    echo_warnings(result.warnings)
    click.echo(f"Exported {result.title} ({result.cards} cards, {result.faces} faces) as {fmt}: "
               f"{result.target} ({len(result.files)} file{'s' if len(result.files) != 1 else ''})")
    for note in result.notes:
        click.echo(note)
