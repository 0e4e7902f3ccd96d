"""The solver behind the JSON API and the solver page: the same checks and answers as ``kitgen solve``.

A question is the JSON object ``kitgen solve --batch`` reads
(``{"hand": [...], "population": n, "temples": [...]}``, checked by
:func:`solver.altunha.parse.question_fields`), plus ``rules`` (an object of
``--rule`` switches such as ``{"chain": "off"}``, read by
:func:`solver.altunha.parse.parse_rules`) and ``game``.  Every mistake raises
:class:`kitgen.errors.KitgenError` with the message the command line prints.
"""

from __future__ import annotations

from dataclasses import dataclass

from kitgen.errors import KitgenError

ALTUN_HA_TYPES = frozenset({"bid", "trade", "god"})


def uses_altunha_rules(argument: str) -> bool:
    """Whether the solver and simulator can play a game: it declares Altun Ha's rules (game.toml
    ``[rules] engine = "altun-ha"``) and its cards are Altun Ha's Bid, Trade and God cards."""
    from kitgen.data.game import load_game
    from solver.altunha.rules import declares_altunha

    try:
        game = load_game(argument)
    except KitgenError:
        return False
    bids = [c for c in game.cards if c.type == "bid"]
    return declares_altunha(game.rules) and set(game.types) == ALTUN_HA_TYPES and bool(bids) \
        and all(c.numeric_value for c in bids)


def forget_decks() -> None:
    """Read games afresh on the next question (a served game folder has changed).

    The solver keeps each game's data, deck and rules once read; a served folder
    changes under it.
    """
    from solver.altunha import rules
    from solver.altunha.cards import game_data, load_deck

    for cached in (game_data, load_deck, rules._rules_of_game):
        cached.cache_clear()


@dataclass(frozen=True)
class Request:
    """A checked question: the hand, Population and temples as typed, the rules and the game."""

    hand: list
    population: object
    temples: list
    rules: object
    game: str
    play: str | None


def read_request(data, games: dict[str, str], with_play: bool = False) -> Request:
    """The question in ``data``; ``games`` maps the served solver games' keys to their arguments."""
    from solver.altunha.parse import parse_rules, question_fields
    from solver.altunha.rules import Rules

    extra = ("rules", "game", "play") if with_play else ("rules", "game")
    hand, population, temples, switches, key, *play = question_fields(data, extra)
    if key is None:
        key = "altun-ha" if "altun-ha" in games else next(iter(games), "altun-ha")
    if not isinstance(key, str) or key not in games:
        raise KitgenError(f'"game": {key!r} is not a served game that uses the rules of Altun Ha '
                          f"(served: {', '.join(games) or 'none'})")
    game = games[key]
    if switches is None:
        switches = {}
    if not isinstance(switches, dict):
        raise KitgenError('"rules" must be an object of rule switches, e.g. {"chain": "off"}')
    base = Rules.from_game(game)
    rules = parse_rules([f"{name}={_switch_text(value)}" for name, value in switches.items()], base)
    text = play[0] if with_play else None
    if with_play and (not isinstance(text, str) or not text.strip()):
        raise KitgenError('"play" is missing: give the play, e.g. "farm Sun God; build Stage@1, Stairs@2"')
    return Request(hand, population, temples, rules, game, text)


def _switch_text(value) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, (int, str)):
        return str(value)
    raise KitgenError(f'"rules": {value!r} is not a rule value; give on/off or a whole number')


def solve(r: Request) -> dict:
    """The answer ``kitgen solve --json`` prints."""
    from solver.altunha.solve import solve_turn

    return solve_turn(r.hand, r.population, r.temples, r.rules, r.game).to_json()


def all_best(r: Request) -> list[dict]:
    """What ``kitgen solve --all --json`` prints: every optimal play, preferred first."""
    from solver.altunha.solve import all_optimal_plans

    return [p.to_json() for p in all_optimal_plans(r.hand, r.population, r.temples, r.rules, r.game)]


def check(r: Request) -> dict:
    """What ``kitgen solve --play PLAY --json`` prints, and the verdict as the command's text lines."""
    from solver.altunha.cards import load_deck
    from solver.altunha.explain import report_lines
    from solver.altunha.parse import parse_play
    from solver.altunha.solve import judge_play, question

    deck = load_deck(r.game)
    q = question(r.hand, r.population, r.temples, r.rules, deck)
    farm, build = parse_play(r.play, q.hand, q.temples, deck)
    report = judge_play(q.hand, q.population, q.temples, farm, build, q.rules, r.game)
    return {**report.to_json(), "lines": report_lines(report, q.population, q.temples, q.rules, deck)}


def explain(r: Request) -> dict:
    """The best play with what the page draws: the temples after it, the next best play and why."""
    from solver.altunha.cards import load_deck
    from solver.altunha.explain import answer_lines, play_text
    from solver.altunha.rules import BUILT, RULE_TEXT, temples_after, worth
    from solver.altunha.solve import explain_turn

    deck = load_deck(r.game)
    answer = explain_turn(r.hand, r.population, r.temples, r.rules, r.game)
    q, plan = answer.question, answer.plan
    runner = answer.runner_up
    paid_in_value = plan.farm and not any(deck[n].type == "trade" for n in plan.farm)
    farm_total = sum(worth(deck.kind_of(n), q.rules) for n in plan.farm) if paid_in_value else None
    return {
        "question": {"hand": list(q.hand), "population": q.population, "temples": list(q.temples)},
        "best": plan.to_json(),
        "play": play_text(plan, deck),
        "farm_value": farm_total,
        "temples_after": temples_after(q.temples, plan.build) if plan.outcome == BUILT else list(q.temples),
        "next_best": runner.to_json() if runner else None,
        "next_play": play_text(runner, deck) if runner else None,
        "why": RULE_TEXT[answer.decided_by] if runner else "it is the only possible play",
        "lines": answer_lines(answer, deck),
    }


TURN_NUMBERS = ("god_value", "max_farm_cards", "max_build_cards", "famine_penalty", "no_build_penalty")


def rule_switches(game: str) -> list[dict]:
    """What the page offers to switch, with the values ``game`` plays by.

    The rulings are the game's own list, in the order the rulebook prints them
    (game.toml ``[rulings.<name>]``: title, options and what each means); then
    the rule numbers a turn uses.  Every value is sent back as ``--rule`` takes it.
    """
    from kitgen.data.rulings import value_text
    from solver.altunha.rules import NUMBERS, Rules

    rules = Rules.from_game(game)
    rulings = [{"name": r.name, "title": r.title, "kind": "bool" if r.kind is bool else "choice",
                "default": value_text(getattr(rules, r.name)), "reason": r.reason,
                "options": [{"value": value, "text": text.format(**rules.as_dict())} for value, text in r.options]}
               for r in rules.rulings]
    numbers = [{"name": name, "title": NUMBERS[name][2][:1].upper() + NUMBERS[name][2][1:], "kind": "number",
                "default": getattr(rules, name), "min": NUMBERS[name][0], "max": NUMBERS[name][1]}
               for name in TURN_NUMBERS]
    return rulings + numbers
