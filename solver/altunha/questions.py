"""Altun Ha's solver questions through the protocol: the Priest King's Farm and Build.

A position is a hand, the Population and the temple tops (and, for the playout advice,
the number of players); :func:`read_position` checks it as ``kitgen solve`` always has, so
every message names the option a player typed (``--hand``, ``--population``, ``--temples``).
The answers are the turn solver's (:mod:`solver.altunha.solve`), worded by
:mod:`solver.altunha.explain`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from kitgen.errors import KitgenError, OptionError
from solver.altunha.cards import Deck
from solver.altunha.parse import PLAY_HELP, parse_play, question_fields
from solver.altunha.solve import Question, question

PLAYERS = 4      # the table of a position asked about with --advise, unless it says otherwise
TURN_NUMBERS = ("god_value", "max_farm_cards", "max_build_cards", "famine_penalty", "no_build_penalty")

FIELDS = [
    {"name": "hand", "label": "hand", "kind": "cards", "required": True, "example": "Stage,Stairs,God",
     "help": "Comma-separated cards: names from the deck (any case, accents optional), a digit 1..8 for the "
             "Bid card of that value, or God for any God card."},
    {"name": "population", "label": "Population level", "kind": "number", "short": "p", "required": True,
     "example": "7", "min": 1, "max": 1000, "default": 7, "help": "Population level this turn (1 or more)."},
    {"name": "temples", "label": "temple tops", "kind": "numbers", "min": 1, "max": 8, "default": [],
     "example": "2,3", "help": "Comma-separated top values (1..8) of the temples on the table, in table order. "
                               "Omit for none."},
    {"name": "players", "label": "players", "kind": "number", "min": 2, "max": 16, "default": PLAYERS,
     "example": "4", "help": "Players at the table, for --advise (the others' hands are dealt at random)."},
]


@dataclass(frozen=True)
class Position:
    """A checked question (hand, Population, temples, rules), the deck it is asked with, the players."""

    question: Question
    deck: Deck
    players: int = PLAYERS


def position_fields() -> list[dict]:
    return [dict(f) for f in FIELDS]


def question_rules(game, settings: dict, option: str = "--rule"):
    """The rules of a solver question: the game's, with rule numbers and rulings changed (the solver
    has no round cap, and plays the deck as it is)."""
    from solver.altunha.rules import with_settings
    from solver.altunha.sim.variants import setup_from_game

    setup = setup_from_game(game)
    return replace(setup, rules=with_settings(setup.rules, settings, option))


def read_position(raw, rules) -> Position:
    """A position from ``{"hand": [...], "population": n, "temples": [...], "players": n}``, checked as
    ``kitgen solve`` always has."""
    if not isinstance(raw, dict):
        return question_fields(raw)      # its message says what is expected
    data = dict(raw)
    players = data.pop("players", None)
    hand, population, temples, _ = question_fields(data, ("players",))
    q = question(hand, population, temples, rules.rules, rules.deck)
    most = rules.max_players
    if players is None:
        players = min(PLAYERS, most)
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= most:
        raise OptionError("--players", f"must be from 2 to {most}, not {players!r}")
    return Position(q, rules.deck, players)


def solve(position: Position, rules) -> dict:
    """The best play with everything the page draws: the temples after it, the next best play and why."""
    from solver.altunha.explain import answer_lines, play_text
    from solver.altunha.rules import BUILT, RULE_TEXT, temples_after, worth
    from solver.altunha.solve import explain_turn

    q, deck = position.question, position.deck
    answer = explain_turn(q.hand, q.population, q.temples, q.rules, deck=deck)
    plan, runner = answer.plan, answer.runner_up
    paid_in_value = plan.farm and not any(deck[n].type == "trade" for n in plan.farm)
    return {
        "question": {"hand": list(q.hand), "population": q.population, "temples": list(q.temples)},
        "best": [play_text(plan, deck)],
        "plan": plan.to_json(),
        "play": play_text(plan, deck),
        "farm_value": sum(worth(deck.kind_of(n), q.rules) for n in plan.farm) if paid_in_value else None,
        "temples_after": temples_after(q.temples, plan.build) if plan.outcome == BUILT else list(q.temples),
        "next_best": runner.to_json() if runner else None,
        "next_play": play_text(runner, deck) if runner else None,
        "why": RULE_TEXT[answer.decided_by] if runner else "it is the only possible play",
        "lines": answer_lines(answer, deck),
        "json": plan.to_json(),
    }


def answer_json(position: Position, rules) -> dict:
    """What ``kitgen solve --json`` prints: the best play alone (no runner-up to look for)."""
    from solver.altunha import solve as solve_module

    q = position.question
    return solve_module.solve_turn(q.hand, q.population, q.temples, q.rules, deck=position.deck).to_json()


def all_best(position: Position, rules) -> dict:
    """Every optimal play, preferred first (``--all``)."""
    from solver.altunha.explain import play_text, points_text
    from solver.altunha.solve import all_optimal_plans

    q = position.question
    plans = all_optimal_plans(q.hand, q.population, q.temples, q.rules, deck=position.deck)
    lines = [f"{len(plans)} optimal play{'s' if len(plans) != 1 else ''}, {points_text(plans[0].points)} "
             f"({plans[0].outcome.replace('_', ' ')}), preferred first:"]
    lines += [f"  {i}. {play_text(plan, position.deck)}" for i, plan in enumerate(plans, start=1)]
    return {"plays": [p.to_json() for p in plans], "best": [play_text(p, position.deck) for p in plans],
            "lines": lines, "json": [p.to_json() for p in plans]}


def check(position: Position, play: str, rules) -> dict:
    """A proposed play (``farm ...; build ...``) judged: legal or not and why, its points, the gap."""
    from solver.altunha.explain import report_lines
    from solver.altunha.solve import judge_play

    q, deck = position.question, position.deck
    if not isinstance(play, str) or not play.strip():
        raise KitgenError('"play" is missing: give the play, e.g. "farm Sun God; build Stage@1, Stairs@2"')
    farm, build = parse_play(play, q.hand, q.temples, deck)
    report = judge_play(q.hand, q.population, q.temples, farm, build, q.rules, deck=deck)
    return {**report.to_json(), "lines": report_lines(report, q.population, q.temples, q.rules, deck)}


def rule_numbers(rules) -> list[dict]:
    """The rule numbers a turn uses, for the page's switches."""
    from solver.altunha.rules import NUMBERS

    return [{"name": name, "title": NUMBERS[name][2][:1].upper() + NUMBERS[name][2][1:], "kind": "number",
             "default": getattr(rules.rules, name), "min": NUMBERS[name][0], "max": NUMBERS[name][1]}
            for name in TURN_NUMBERS]


def position_state(position: Position, rules, rng: random.Random):
    """The position as a game in progress at the Priest King's turn: he holds the hand; the other
    players, the deck and the temples' cards are dealt at random from the rest (every score 0)."""
    from solver.altunha.sim.engine import Game
    from solver.altunha.sim.state import FARMING, AltunHaState

    q = position.question
    setup = replace(rules, deck=position.deck, rules=q.rules)
    game = Game(setup, position.players, rng)
    table = game.table
    free = sorted(range(table.size))
    rng.shuffle(free)

    def take(match) -> int:
        for i, card in enumerate(free):
            if match(card):
                return free.pop(i)
        return free.pop()

    hand = [take(lambda c, name=name: table.name[c] == name) for name in q.hand]
    temples = [[(take(lambda c, v=v: table.kind[c] == 0 and table.value[c] == v), v) for v in range(1, top + 1)]
               for top in q.temples]
    game.hands = [hand] + [[free.pop() for _ in range(min(setup.rules.hand_limit, len(free)))]
                           for _ in range(position.players - 1)]
    game.temples = temples
    game.deck, game.discard = free, []
    game.population, game.round, game.phase = q.population, 1, "Bid"
    game.calendar = game.dealt_calendar = 0
    game.priest_king = 0
    state = AltunHaState(game, start=False)
    state.round, state.kind, state.player = 1, FARMING, 0
    return state


def play_help() -> str:
    return PLAY_HELP
