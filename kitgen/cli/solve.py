"""``kitgen solve [GAME]``: the exact answer to a turn question of any game whose game.toml names a rules
engine, a check of a proposed play, or the playout advice.

A position is given by options named after the engine's position fields
(``Engine.position_fields()``): ``--NAME VALUE`` (or ``--NAME=VALUE``, or a field's short
form, ``-p 7``): a number as digits, cards or numbers separated by commas, each player's
cards separated by ``;``, a flag on its own.  They reach the engine as the JSON values
``--batch`` lines and the web page give.
``kitgen solve GAME --fields`` lists them.  Without GAME the default game is asked about,
with its options as they have always been (``kitgen solve --population 7 --hand ...``).
"""

from __future__ import annotations

import json
import random
import re
import sys

import click

from kitgen.errors import KitgenError, OptionError
from solver.engine import json_answer, plain_answer

DEFAULT = "altun-ha"   # the default game (a built-in one), whose rules engine has the same key
MAX_DIGITS = 4000      # a number option longer than this is not a number a position holds
ADVICE_PLAYOUTS = 200


def _default_play_help() -> str:
    from solver.engines import get_engine

    return getattr(get_engine(DEFAULT), "play_help", "").replace("\n", " ")


@click.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
               options_metavar="[GAME] [--FIELD VALUE]... [OPTIONS]")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as one JSON object.")
@click.option("--all", "all_plans", is_flag=True,
              help="List every optimal play: every play with the most points, in the order of the answer's "
                   "stated preference (plays that differ only by identical cards count once).")
@click.option("--play", default=None, metavar="PLAY",
              help="Check a proposed play: legal or not and why, its points, its distance from the best. "
                   "For the default game: " + _default_play_help())
@click.option("--batch", type=click.File("rb"), default=None, metavar="FILE",
              help='Answer JSON Lines positions, one object of position fields a line, e.g. {"hand": [...], '
                   '"population": n, "temples": [...]}, from FILE (- for stdin, UTF-8), one --json answer per '
                   'line: output line N answers input line N, with {"error": "line N: ..."} for a line that is '
                   "not a question.")
@click.option("--rule", "rule_options", multiple=True, metavar="NAME=VALUE",
              help="Play another option of a playtest ruling or another rule number, e.g. chain=off "
                   "(no stacking two Build cards in one Build) or penalty_if_declined=on (building "
                   "nothing costs the penalty even when a card could be laid). The names are the "
                   "rulebook's rulings and game.toml's [rules], as for kitgen simulate --set. "
                   "Repeatable.")
@click.option("--advise", is_flag=True,
              help="Instead of the exact answer: each legal action's win rate from playouts (the unseen cards "
                   "dealt at random, the game played out by greedy players), with its 95% interval.")
@click.option("--playouts", type=click.IntRange(1, 100_000), default=ADVICE_PLAYOUTS, show_default=True,
              help="Playouts of each action for --advise.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of --advise's playouts.")
@click.option("--fields", "list_fields", is_flag=True, help="List GAME's position fields (its options) and stop.")
@click.pass_context
def solve(ctx, as_json, all_plans, play, batch, rule_options, advise, playouts, seed, list_fields):
    """Find the best play of a turn of GAME (default altun-ha), exactly.

    \b
    Examples:
      kitgen solve --population 7 --hand Stage,Stairs,"Sun God" --temples 2,3
      kitgen solve GAME --fields
    """
    from kitgen.data.game import load_game
    from solver.engine import fields_of, split_settings
    from solver.engines import engine_of

    args = list(ctx.args)
    game = args.pop(0) if args and not args[0].startswith("-") else DEFAULT
    data = load_game(game)
    engine = engine_of(data)
    settings = split_settings(rule_options, "--rule")
    rules = engine.question_rules(data, settings, "--rule") if hasattr(engine, "question_rules") else \
        engine.rules(data, settings, "--rule")
    fields = fields_of(engine, rules)
    if list_fields:
        for line in field_lines(fields):
            click.echo(line)
        return
    given = read_field_options(args, fields, engine.title)
    if batch is not None:
        used = [f"--{name}" for name in given] + [name for name, value in (("--play", play), ("--all", all_plans),
                                                                           ("--advise", advise)) if value]
        if used:
            raise OptionError("--batch", f"cannot be combined with {', '.join(used)}; each line gives its own "
                                         "position")
        _run_batch(batch, engine, rules)
        return
    for field in fields:
        if field.get("required") and field["name"] not in given:
            example = f", e.g. --{field['name']} {field['example']}" if field.get("example") else ""
            raise OptionError(f"--{field['name']}", f"missing: give the {field['label']}{example}")
    if play is not None and all_plans:
        raise OptionError("--play", "cannot be combined with --all")
    if advise and (play is not None or all_plans):
        raise OptionError("--advise", f"cannot be combined with {'--play' if play is not None else '--all'}")
    if all_plans and not hasattr(engine, "all_best"):
        raise OptionError("--all", f"{engine.title}'s solver gives one best play; --all is not for it")
    position = engine.read_position(given, rules)
    if advise:
        _advise(engine, rules, position, playouts, seed, as_json)
    elif play is not None:
        _emit(engine.check(position, play, rules), as_json)
    elif all_plans:
        _emit(engine.all_best(position, rules), as_json)
    elif as_json:
        click.echo(_json(json_answer(engine, position, rules)))
    else:
        _emit(engine.solve(position, rules), False)


def field_lines(fields: list[dict]) -> list[str]:
    """The position fields as the options they are, each with its kind and help."""
    lines = []
    for f in fields:
        short = f"-{f['short']}, " if f.get("short") else ""
        kind = {"number": "N", "cards": "CARDS", "player-cards": "CARDS;CARDS;...", "numbers": "N,N,...",
                "choice": "|".join(map(str, f.get("choices", []))) or "CHOICE", "flag": ""}.get(f["kind"], "VALUE")
        bounds = f" ({f['min']} to {f['max']})" if "min" in f and "max" in f else ""
        needed = " Required." if f.get("required") else f" Default: {_text(f['default'])}." if "default" in f else ""
        lines.append(f"{short}--{f['name']} {kind}".rstrip() + f"  {f.get('help', f['label'])}{bounds}{needed}")
    return lines


def _text(value) -> str:
    if isinstance(value, list):
        return ",".join(map(str, value)) or "none"
    return str(value)


def read_field_options(args: list[str], fields: list[dict], title: str) -> dict:
    """The position fields given as options (``--NAME VALUE``, ``--NAME=VALUE``, ``-S VALUE``, a flag alone):
    numbers as whole numbers, flags as true or false, everything else as the text typed."""
    by_name = {f["name"]: f for f in fields}
    by_short = {f["short"]: f for f in fields if f.get("short")}
    given: dict = {}
    i = 0
    while i < len(args):
        token = args[i]
        i += 1
        if token.startswith("--"):
            name, eq, value = token[2:].partition("=")
            field = by_name.get(name.replace("-", "_")) or by_name.get(name)
        elif token.startswith("-") and len(token) >= 2:
            field, value = by_short.get(token[1]), token[2:]
            name, eq = token[1], bool(value)
        else:
            raise OptionError("GAME", f"unexpected argument {token!r}: give GAME first, then the position's "
                                      "options (kitgen solve GAME --fields lists them)")
        if field is None:
            accepted = ", ".join(f"--{f['name']}" for f in fields)
            raise OptionError(token.split("=")[0], f"no such option; the position of {title} takes {accepted} "
                                                   "(see kitgen solve GAME --fields)")
        option = f"--{field['name']}"
        if field["kind"] == "flag":
            given[field["name"]] = _flag(value, option) if eq else True
            continue
        if not eq:
            if i >= len(args):
                raise OptionError(option, "needs a value")
            value = args[i]
            i += 1
        given[field["name"]] = _value(field, value, option)
    return given


def _value(field: dict, text: str, option: str):
    """An option's text as the JSON value of its field: a whole number, a list of card names (a list of
    lists, one a player, separated by ';'), a list of whole numbers; a choice as it stands."""
    kind, example = field["kind"], field.get("example", "")
    if kind == "number":
        return _number(text, option)
    if kind == "cards":
        return _items(text, option, example)
    if kind == "player-cards":
        return [_items(part, option, example) for part in text.split(";")]
    if kind == "numbers":
        numbers = []
        for n, item in enumerate(_items(text, option, example), start=1):
            if not re.fullmatch(r"[+-]?[0-9]+", item) or len(item) > MAX_DIGITS:
                raise OptionError(option, f"item {n}: {item!r} is not a whole number; give whole numbers "
                                          f"separated by commas{', e.g. ' + example if example else ''}")
            numbers.append(int(item))
        return numbers
    return text


def _items(text: str, option: str, example: str) -> list[str]:
    """Comma-separated text as its items; empty text is no item."""
    if not text.strip():
        return []
    items = [item.strip() for item in text.split(",")]
    for n, item in enumerate(items, start=1):
        if not item:
            raise OptionError(option, f"item {n} of {len(items)} is empty; separate items with single commas"
                                      f"{', e.g. ' + example if example else ''}")
    return items


def _number(text: str, option: str) -> int:
    text = text.strip()
    if not re.fullmatch(r"[+-]?[0-9]+", text) or len(text) > MAX_DIGITS:
        raise OptionError(option, f"{text!r} is not a whole number")
    return int(text)


def _flag(text: str, option: str) -> bool:
    from solver.engine import on_off

    if on_off(text) is None:
        raise OptionError(option, f"takes on or off, not {text!r}")
    return on_off(text)


def _json(obj) -> str:
    return json.dumps(obj, ensure_ascii=False)


def _emit(answer: dict, as_json: bool) -> None:
    click.echo(_json(plain_answer(answer)) if as_json else "\n".join(answer["lines"]))


def _advise(engine, rules, position, playouts: int, seed: int, as_json: bool) -> None:
    from solver.lookahead import advise, playout_words

    rng = random.Random(seed)
    state = engine.position_state(position, rules, rng)
    rows = advise(engine, rules, state, playouts, rng)
    if as_json:
        click.echo(_json(rows))
        return
    click.echo(f"Win rate of each legal action over {playouts} playouts (unseen cards dealt at random, "
               f"{playout_words(engine)}; seed {seed}), best first:")
    for row in rows:
        click.echo(f"  {100 * row['rate']:5.1f}% [{100 * row['low']:.1f}, {100 * row['high']:.1f}]  {row['text']}")


# --- --batch ---------------------------------------------------------------------------------

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


def _batch_position(line: str):
    try:
        return json.loads(line)
    except json.JSONDecodeError as exc:
        raise KitgenError(f"not JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise KitgenError("not a question (JSON nested too deeply)") from None


def _batch_answer(number: int, raw: bytes, engine, rules) -> tuple[dict, bool]:
    """The answer object for one line, and whether the solver failed on it (a bug, not the input)."""
    try:
        position = engine.read_position(_batch_position(_batch_text(number, raw)), rules)
    except KitgenError as exc:
        return {"error": f"line {number}: {exc}"}, False
    except (ValueError, TypeError) as exc:  # values the checks above did not foresee
        return {"error": f"line {number}: cannot read the question ({exc})"}, False
    try:
        return json_answer(engine, position, rules), False
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


def _run_batch(stream, engine, rules):
    broken = False
    for number, raw in _batch_lines(stream):
        answer, failed = _batch_answer(number, raw, engine, rules)
        broken |= failed
        click.echo(_json(answer))
    sys.stdout.flush()
    if broken:
        raise SystemExit(1)
