"""`kitgen solve`: the best Farm and Build play of an Altun Ha turn."""

from __future__ import annotations

import json
import sys

import click

from kitgen.errors import KitgenError, OptionError
from solver.altunha.parse import PLAY_HELP


@click.command()
@click.option("--population", "-p", type=int, default=None, metavar="N",
              help="Population level this turn (1 or more).")
@click.option("--hand", default=None, metavar="CARDS",
              help="Comma-separated cards: names from the deck (any case, accents optional), "
                   "a digit 1..8 for the Bid card of that value, or God for any God card.")
@click.option("--temples", default="", metavar="TOPS",
              help="Comma-separated top values (1..8) of the temples on the table, in table "
                   "order. Omit for none.")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as one JSON object.")
@click.option("--all", "all_plans", is_flag=True,
              help="List every optimal play (plays that differ only by identical cards count once).")
@click.option("--play", default=None, metavar="PLAY",
              help="Check a proposed play: legal or not and why, its points, its distance from "
                   "the best. " + PLAY_HELP.replace("\n", " "))
@click.option("--batch", type=click.File("rb"), default=None, metavar="FILE",
              help='Answer JSON Lines {"hand": [...], "population": n, "temples": [...]} from FILE '
                   "(- for stdin, UTF-8), one --json answer per line: output line N answers "
                   'input line N, with {"error": "line N: ..."} for a line that is not a question.')
@click.option("--rule", "rule_options", multiple=True, metavar="NAME=VALUE",
              help="Play another option of a playtest ruling or another rule number, e.g. chain=off "
                   "(no stacking two Build cards in one Build) or penalty_if_declined=on (building "
                   "nothing costs the penalty even when a card could be laid). The names are the "
                   "rulebook's rulings and game.toml's [rules], as for kitgen simulate --set. "
                   "Repeatable.")
def solve(population, hand, temples, as_json, all_plans, play, batch, rule_options):
    """Find the best Farm and Build play of an Altun Ha turn.

    \b
    Example:
      kitgen solve --population 7 --hand Stage,Stairs,"Sun God" --temples 2,3
    """
    from solver.altunha.parse import parse_rules

    rules = parse_rules(rule_options)
    if batch is not None:
        given = [name for name, value in (("--hand", hand), ("--population", population),
                                          ("--play", play), ("--all", all_plans)) if value]
        if given:
            raise OptionError("--batch", f"cannot be combined with {', '.join(given)}; "
                                         "each line gives its own hand and population")
        _run_batch(batch, rules)
        return
    if hand is None:
        raise OptionError("--hand", "missing: give the hand, e.g. --hand Stage,Stairs,God")
    if population is None:
        raise OptionError("--population", "missing: give the Population level, e.g. --population 7")
    if play is not None and all_plans:
        raise OptionError("--play", "cannot be combined with --all")
    if play is not None:
        _check(hand, population, temples, play, rules, as_json)
    elif all_plans:
        _all(hand, population, temples, rules, as_json)
    else:
        _best(hand, population, temples, rules, as_json)


def _emit(obj) -> None:
    click.echo(json.dumps(obj, ensure_ascii=False))


def _best(hand, population, temples, rules, as_json):
    from solver.altunha.explain import answer_lines
    from solver.altunha.solve import explain_turn, solve_turn

    if as_json:
        _emit(solve_turn(hand, population, temples, rules).to_json())
        return
    click.echo("\n".join(answer_lines(explain_turn(hand, population, temples, rules))))


def _all(hand, population, temples, rules, as_json):
    from solver.altunha.explain import play_text, points_text
    from solver.altunha.solve import all_optimal_plans

    plans = all_optimal_plans(hand, population, temples, rules)
    if as_json:
        _emit([p.to_json() for p in plans])
        return
    click.echo(f"{len(plans)} optimal play{'s' if len(plans) != 1 else ''}, "
               f"{points_text(plans[0].points)} ({plans[0].outcome.replace('_', ' ')}), "
               "preferred first:")
    for i, plan in enumerate(plans, start=1):
        click.echo(f"  {i}. {play_text(plan)}")


def _check(hand, population, temples, play, rules, as_json):
    from solver.altunha.explain import report_lines
    from solver.altunha.parse import parse_play
    from solver.altunha.solve import judge_play, question

    q = question(hand, population, temples, rules)
    farm, build = parse_play(play, q.hand, q.temples)
    report = judge_play(q.hand, q.population, q.temples, farm, build, rules)
    if as_json:
        _emit(report.to_json())
        return
    click.echo("\n".join(report_lines(report, q.population, q.temples, rules)))


def _batch_text(number: int, raw: bytes) -> str:
    """One input line as text; a line that is not UTF-8 or is blank is a mistake on that line."""
    try:
        text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
    except UnicodeDecodeError as exc:
        raise KitgenError(f"not UTF-8 text (byte {exc.start + 1} of the line); save the file "
                          "as UTF-8") from None
    if not text.strip():
        raise KitgenError("blank line; give one question per line (every line gets one answer)")
    return text


def _batch_question(line: str):
    from solver.altunha.parse import question_fields

    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise KitgenError(f"not JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise KitgenError("not a question (JSON nested too deeply)") from None
    return question_fields(data)


def _batch_answer(number: int, raw: bytes, rules) -> tuple[dict, bool]:
    """The answer object for one line, and whether the solver failed on it (a bug, not the input)."""
    from solver.altunha.solve import question, solve_turn

    try:
        q = question(*_batch_question(_batch_text(number, raw)), rules)
    except KitgenError as exc:
        return {"error": f"line {number}: {exc}"}, False
    except (ValueError, TypeError) as exc:  # values the checks above did not foresee
        return {"error": f"line {number}: cannot read the question ({exc})"}, False
    try:
        return solve_turn(q.hand, q.population, q.temples, q.rules).to_json(), False
    except KitgenError as exc:
        return {"error": f"line {number}: {exc}"}, False
    except Exception as exc:  # a solver bug: say so on stderr, answer the other lines, exit 1
        message = f"line {number}: internal error, please report it: {type(exc).__name__}: {exc}"
        click.echo(message, err=True)
        return {"error": message}, True


MAX_LINE_BYTES = 1024 * 1024     # one question is a few hundred bytes


def _batch_lines(stream):
    """(number, bytes) of each line, refusing a line longer than MAX_LINE_BYTES (``/dev/zero`` has one
    endless line) before reading it whole."""
    number = 0
    while True:
        raw = stream.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        number += 1
        if len(raw) > MAX_LINE_BYTES:
            raise OptionError("--batch", f"line {number} is longer than {MAX_LINE_BYTES:,} bytes; "
                                         "give one JSON question per line")
        yield number, raw


def _run_batch(stream, rules):
    broken = False
    for number, raw in _batch_lines(stream):
        answer, failed = _batch_answer(number, raw, rules)
        broken |= failed
        _emit(answer)
    sys.stdout.flush()
    if broken:
        raise SystemExit(1)
