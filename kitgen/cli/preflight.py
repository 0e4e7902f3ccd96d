"""The ``kitgen preflight`` command: check card files against a print shop's profile."""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--target", required=True, metavar="SHOP",
              help="The shop's profile: tgc, mpc, dtc, ppg, or the path of a profile .toml file.")
def preflight(files, target):
    """Check FILE... (card images or PDFs) against what a print shop takes; list every problem, one a line."""
    from kitgen.data.shop_profiles import load_profile
    from kitgen.outputs.preflight import PreflightProblems, ShopProblem, preflight_paths

    profile = load_profile(target)
    problems = preflight_paths(list(files), profile)
    if problems:
        raise PreflightProblems([ShopProblem(line) for line in problems])
    click.echo(f"{len(files)} file{'s' if len(files) != 1 else ''} ready for {profile.shop}: no problems found")
