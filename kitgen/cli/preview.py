"""The ``kitgen preview`` command: one card as a PNG with its boxes outlined and named, and what each
text box was fitted to."""

from __future__ import annotations

from pathlib import Path

import click

from kitgen.cli.kit import echo_warnings
from kitgen.cli.params import CardSizeType


@click.command()
@click.argument("game")
@click.argument("card")
@click.option("--back", is_flag=True, help="The card's back instead of its face.")
@click.option("--out", "out", type=click.Path(path_type=Path), default=Path("output"), show_default=True,
              help="Folder under which <game-slug>/preview-<card>.png is written.")
@click.option("--card-size", type=CardSizeType(), default=None,
              help="poker, poker-eu, bridge, mini, tarot, square or WxH in mm. Default: the game's own size.")
@click.option("--dpi", type=click.IntRange(min=30, max=1200), default=150, show_default=True,
              help="Pixels per inch of the picture.")
@click.option("--outline/--no-outline", default=True, show_default=True,
              help="Outline and name every box over the card.")
def preview(game, card, back, out, card_size, dpi, outline):
    """Draw CARD of GAME (its name, or its row in the card sheet) as a PNG, each box outlined and named,
    and say what each text box was fitted to."""
    from kitgen.outputs.card_preview import write_preview
    from kitgen.outputs.memory import memory_limit

    with memory_limit():
        shown = write_preview(game, card, out, back, dpi, outline, card_size)
    echo_warnings(shown.warnings)
    side = "back" if back else "face"
    click.echo(f"Wrote the {side} of {shown.card.name!r} (row {shown.card.row}): {shown.path}")
    for note in shown.notes:
        click.echo(f"  {note.describe()}")
        for warning in note.warnings:
            click.echo(f"    warning: {warning}")
