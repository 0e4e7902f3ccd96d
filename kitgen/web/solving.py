"""The solver behind the JSON API and the solver page, for any game whose game.toml names a rules engine:
the same checks and answers as ``kitgen solve``.

A question is a JSON object of the engine's position fields (the objects ``kitgen solve
--batch`` reads, e.g. ``{"hand": [...], "players": n}``),
plus ``game`` (a served game's key), ``rules`` (an object of ``--rule`` switches such as
``{"chain": "off"}``), and ``play`` for a check.  Every mistake raises
:class:`kitgen.errors.KitgenError` with the message the command line prints.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from kitgen.errors import KitgenError, OptionError

REQUEST_KEYS = ("game", "rules", "play", "playouts", "seed")
MAX_PLAYOUTS = 1000          # playouts of each action the page may ask advice of
ADVICE_PLAYOUTS = 100


@lru_cache(maxsize=64)
def _loaded(argument: str):
    """(game, engine) of a served game, read once (see :func:`forget_decks`)."""
    from kitgen.data.game import load_game
    from solver.engines import engine_of

    game = load_game(argument)
    return game, engine_of(game)


def engine_game(argument: str):
    return _loaded(argument)


def has_engine(argument: str) -> bool:
    """Whether the solver and simulator can play a game: its game.toml names a known rules engine, whose
    rules read the game without a mistake."""
    try:
        game, engine = _loaded(argument)
        engine.rules(game, {}, "--set")
    except KitgenError:
        return False
    return True


def forget_decks() -> None:
    """Read games afresh on the next question (a served game folder has changed): the games loaded here,
    and what each engine keeps of the games it read."""
    from solver.engines import ENGINES, get_engine

    _loaded.cache_clear()
    for key in ENGINES:
        engine = get_engine(key)
        if hasattr(engine, "forget_games"):
            engine.forget_games()


@dataclass(frozen=True)
class Request:
    """A checked question: the engine, the rules, the position, and the play to check (if any)."""

    engine: Any
    rules: Any
    position: Any
    game: str
    play: str | None
    playouts: int = ADVICE_PLAYOUTS
    seed: int = 0
    fields: dict | None = None     # the position's fields as the request gave them


def _game_of(data: dict, games: dict[str, str]) -> str:
    key = data.get("game")
    if key is None:
        key = next(iter(games), None)
    if not isinstance(key, str) or key not in games:
        raise KitgenError(f'"game": {key!r} is not a served game whose rules engine the solver plays '
                          f"(served: {', '.join(games) or 'none'})")
    return games[key]


def question_rules(game, engine, switches) -> Any:
    """The rules of a question: the game's, with the ``rules`` object's switches (as ``--rule`` takes them)."""
    if switches is None:
        switches = {}
    if not isinstance(switches, dict):
        raise KitgenError('"rules" must be an object of rule switches, e.g. {"chain": "off"}')
    settings = {name: _switch_text(value) for name, value in switches.items()}
    if hasattr(engine, "question_rules"):
        return engine.question_rules(game, settings, "--rule")
    return engine.rules(game, settings, "--rule")


def read_request(data, games: dict[str, str], with_play: bool = False, advice: bool = False) -> Request:
    """The question in ``data``; ``games`` maps the served solver games' keys to their arguments."""
    if not isinstance(data, dict):
        raise KitgenError("expected an object of the position's fields, with \"game\" naming a served game")
    argument = _game_of(data, games)
    game, engine = _loaded(argument)
    rules = question_rules(game, engine, data.get("rules"))
    fields = {k: v for k, v in data.items() if k not in REQUEST_KEYS}
    position = engine.read_position(fields, rules)
    play = data.get("play") if with_play else None
    if with_play and (not isinstance(play, str) or not play.strip()):
        example = f", e.g. {engine.play_example!r}" if getattr(engine, "play_example", "") else ""
        raise KitgenError(f'"play" is missing: give the play{example}')
    playouts, seed = ADVICE_PLAYOUTS, 0
    if advice:
        playouts, seed = data.get("playouts", ADVICE_PLAYOUTS), data.get("seed", 0)
        if isinstance(playouts, bool) or not isinstance(playouts, int) or not 1 <= playouts <= MAX_PLAYOUTS:
            raise OptionError("--playouts", f"the page plays 1 to {MAX_PLAYOUTS} playouts of each action, "
                                            f"not {playouts!r}")
        if isinstance(seed, bool) or not isinstance(seed, int) or abs(seed) > 2 ** 63:
            raise OptionError("--seed", f"{seed!r} is not a whole number")
    return Request(engine, rules, position, argument, play, playouts, seed, fields)


def _switch_text(value) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, (int, str)):
        return str(value)
    raise KitgenError(f'"rules": {value!r} is not a rule value; give on/off or a whole number')


def solve(r: Request):
    """The answer ``kitgen solve --json`` prints."""
    from solver.engine import json_answer

    return json_answer(r.engine, r.position, r.rules)


def all_best(r: Request):
    """What ``kitgen solve --all --json`` prints: every optimal play, preferred first."""
    if not hasattr(r.engine, "all_best"):
        raise OptionError("--all", f"{r.engine.title}'s solver gives one best play")
    answer = r.engine.all_best(r.position, r.rules)
    return answer["json"] if "json" in answer else {k: v for k, v in answer.items() if k != "lines"}


def check(r: Request) -> dict:
    """What ``kitgen solve --play PLAY --json`` prints, and the verdict as the command's text lines."""
    return r.engine.check(r.position, r.play, r.rules)


def explain(r: Request) -> dict:
    """The engine's whole answer: the best play, the text lines and what the page draws."""
    return r.engine.solve(r.position, r.rules)


def advise(r: Request) -> list[dict]:
    """What ``kitgen solve --advise --json`` prints: each legal action's win rate from playouts."""
    from solver.lookahead import advise as playout_advice

    rng = random.Random(r.seed)
    state = r.engine.position_state(r.position, r.rules, rng)
    return playout_advice(r.engine, r.rules, state, r.playouts, rng)


def rule_switches(argument: str) -> list[dict]:
    """What the page offers to switch, with the values the game plays by.

    The rulings are the game's own list, in the order the rulebook prints them
    (game.toml ``[rulings.<name>]``: title, options and what each means); then the rule
    numbers the engine's questions use.  Every value is sent back as ``--rule`` takes it.
    """
    from kitgen.data.rulings import parse_rulings, value_text

    game, engine = _loaded(argument)
    rules = question_rules(game, engine, {})
    values = engine.rule_values(rules) if hasattr(engine, "rule_values") else {}
    known = {name: value for name, value in values.items() if isinstance(name, str)}
    rulings = []
    for r in parse_rulings(game.rulings, argument):
        current = known.get(r.name, r.default)
        rulings.append({"name": r.name, "title": r.title, "kind": "bool" if r.kind is bool else "choice",
                        "default": value_text(current), "reason": _filled(r.reason_for(current), known),
                        "options": [{"value": value, "text": _filled(text, known)} for value, text in r.options]})
    numbers = engine.rule_numbers(rules) if hasattr(engine, "rule_numbers") else []
    return rulings + [dict(n) for n in numbers]


def _filled(text: str, values: dict) -> str:
    """An option's text with the rule numbers it quotes ({famine_penalty}) filled in."""
    try:
        return text.format(**values)
    except (KeyError, IndexError, ValueError):
        return text


def page_data(argument: str) -> dict:
    """What the solver page needs of a game's engine: its position fields, its actions and words."""
    from solver.engine import fields_of
    from solver.lookahead import playout_words

    game, engine = _loaded(argument)
    fields = fields_of(engine, question_rules(game, engine, {}))
    return {"engine": engine.key, "title": engine.title, "fields": fields,
            "all": hasattr(engine, "all_best"), "advice": hasattr(engine, "position_state"),
            "play_help": getattr(engine, "play_help", ""), "view": bool(getattr(engine, "web_view", None)),
            "view_style": bool(getattr(engine, "web_style", None)), "playouts": playout_words(engine)}


def simulator_data(argument: str) -> dict:
    """What the simulator page needs: the engine's policies (and the lookahead player) and players."""
    from solver.lookahead import LOOKAHEAD
    from solver.simulation.simulate import default_policy

    game, engine = _loaded(argument)
    rules = engine.rules(game, {}, "--set")
    low, high = engine.player_range(rules)
    helps = dict(getattr(engine, "policy_help", {}))
    helps[LOOKAHEAD] = "looks ahead: plays each choice out many times with greedy players, keeps the best"
    return {"policies": [{"name": n, "help": helps.get(n, "")} for n in [*engine.policies, LOOKAHEAD]],
            "default_policy": default_policy(engine), "min_players": low, "max_players": high,
            "players": min(max(4, low), high)}
