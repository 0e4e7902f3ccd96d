"""The ``kitgen calibrate`` command: a two-page sheet that measures a duplex printer's shift."""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.option("--paper", type=click.Choice(["letter", "a4"], case_sensitive=False), default="letter",
              show_default=True)
@click.option("--duplex", type=click.Choice(["long", "short"]), default="long", show_default=True,
              help="The flip you print cards with; the back's scales sit behind the front's targets for it.")
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), default=Path("calibration.pdf"),
              show_default=True, help="The PDF to write.")
def calibrate(paper, duplex, out):
    """Write a duplex calibration sheet: print it double-sided, read the shift for --back-offset."""
    from kitgen.outputs.calibration import write_calibration

    path = write_calibration(out, paper.lower(), duplex)
    click.echo(f"Wrote {path}: print it double-sided at 100% ({duplex}-edge flip), hold the back against "
               "the light and read X,Y at the middle target; then build with --back-offset X,Y")
