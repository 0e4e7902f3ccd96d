"""``kitgen simulate``: play many games of any game whose game.toml names a rules engine, and write a
balance report."""

from __future__ import annotations

import sys
from pathlib import Path

import click


@click.command()
@click.argument("game", default="altun-ha")
@click.option("--games", "-n", type=int, default=1000, show_default=True, help="Games to play.")
@click.option("--players", "-p", type=int, default=4, show_default=True,
              help="Players per game, as many as the game's rules allow.")
@click.option("--policy", default=None, metavar="NAME[,NAME...]",
              help="Players' policies, cycled over the seats and turned by one seat a game: the simple players "
                   "of the game's rules engine (default: the engine's own mix, for Altun Ha greedy,cautious,closer; "
                   "random is a baseline to name; an unknown name lists them) or lookahead (lookahead:N: N "
                   "playouts a decision).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed; game i uses seed/i, so results do not depend on the number of workers.")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE",
              help="Change a rule number or pick another option of a playtest ruling for this run "
                   "(repeatable), e.g. population_start=3, empty_bid=never_wins, count.Jade=0, "
                   "amount.Obsidian=8, round_cap=100. The rulings and their options are listed in the "
                   "rulebook.")
@click.option("--compare", "compare_file", type=click.Path(path_type=Path), default=None,
              metavar="VARIANT.toml", help="Also play a variant (KEY = VALUE lines, a file of at most 1 MB) "
                                             "on the same seeds and report the differences side by side.")
@click.option("--workers", "-j", type=int, default=None, help="Local processes (default: all cores).")
@click.option("--cluster", default=None, metavar="ADDRESS",
              help="Send the games to a Dask scheduler (needs the 'cluster' extra), e.g. tcp://host:8786.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("output"),
              show_default=True, help="Folder under which <game-slug>/balance.json and balance.pdf go.")
@click.option("--progress/--no-progress", default=None,
              help="Show a progress bar (default: on long runs when stderr is a terminal).")
def simulate(game, games, players, policy, seed, sets, compare_file, workers, cluster, out, progress):
    """Play GAME (default altun-ha) many times and report its balance.

    Writes balance.json (every figure) and balance.pdf (charts) under --out.
    """
    from kitgen.outputs.balance import write_balance
    from solver.engine import split_settings
    from solver.simulation.simulate import simulate as run

    settings = split_settings(sets, "--set")
    total = games * (2 if compare_file else 1)
    if progress is None:
        progress = total >= 2000 and sys.stderr.isatty()
    if progress:
        with click.progressbar(length=total, label="Playing", file=sys.stderr) as bar:
            result = run(game, games, players, policy, seed, settings, compare_file, workers, cluster, bar.update)
    else:
        result = run(game, games, players, policy, seed, settings, compare_file, workers, cluster)
    files = write_balance(result, out)
    s = result.summary
    for summary in (s, result.variant):
        if summary is not None and summary["warning"]:
            click.echo(summary["warning"] if summary is s else
                       f"Variant '{result.variant_name}': {summary['warning']}")
    click.echo(f"Played {result.games_played} games in {result.seconds:.1f} s "
               f"({result.games_per_second:.0f} games/s).")
    for line in _summary_lines(s):
        click.echo(line)
    if result.variant is not None:
        click.echo(f"\nVariant '{result.variant_name}' against the baseline (same seeds):")
        click.echo(f"  {'figure':<36} {'baseline':>10} {'variant':>10} {'change':>10}")
        for row in result.rows:
            click.echo(f"  {row['figure']:<36} {_cell(row['baseline']):>10} {_cell(row['variant']):>10} "
                       f"{_cell(row['difference']):>10}")
    click.echo("\nFindings:")
    for line in [*s["findings"], *s["engine_report"]["findings"]]:
        click.echo(f"  - {line}")
    for path in files:
        click.echo(f"Wrote {path}")


def _cell(v):
    if v is None:
        return "n/a"
    return f"{v:.3f}" if isinstance(v, float) else str(v)


def _pct(w):
    return "n/a" if w["rate"] is None else f"{100 * w['rate']:.1f}% [{100 * w['low']:.1f}, {100 * w['high']:.1f}]"


def _summary_lines(s):
    b = s["balance"]
    yield f"Game length: {s['length']['mean']:.1f} rounds (sd {s['length']['sd']:.1f}, " \
          f"median {s['length']['median']}, {s['length']['min']}-{s['length']['max']})"
    yield "How games ended: " + "; ".join(f"{s['end_words'].get(how, how)} {e['count']} ({_pct(e)})"
                                           for how, e in s["ends"].items())
    yield "Win rate by seat: " + ", ".join(f"{i + 1}: {_pct(w)}" for i, w in enumerate(s["win_rate_by_seat"]))
    yield "Win rate by policy: " + ", ".join(f"{k}: {_pct(w)}" for k, w in s["win_rate_by_policy"].items())
    yield f"Seat gap {100 * b['seat_gap']:.1f} points; lead changes {b['lead_changes']['mean']:.2f}/game; " \
          f"winner clear from {100 * b['decisiveness']['mean']:.0f}% of the game"
    for label, value in s["engine_report"]["key_figures"]:
        yield f"{label}: {value}"
