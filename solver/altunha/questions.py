"""Altun Ha's solver questions through the protocol: the Priest King's Farm and Build, and the rest of
the round (``question``: who wins the bid, who wins the game, when a Trade card is played).

The turn question's position is a hand, the Population and the temple tops (with the preference
among plays of equal points, whether a Trade card was played, and for the playout advice the
number of players); :func:`read_position` checks it as ``kitgen solve`` always has, so every
message names the option a player typed (``--hand``, ``--population``, ``--temples``).  Its
answers are the turn solver's (:mod:`solver.altunha.solve`), explained by
:mod:`solver.altunha.turn_answer`; the round's questions are :mod:`solver.altunha.round_questions`'.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from kitgen.errors import KitgenError, OptionError
from solver.altunha.cards import Deck
from solver.altunha.parse import PLAY_HELP, question_fields
from solver.altunha.rules import DEFAULT_PREFERENCE, PREFERENCES, check_preference
from solver.altunha.solve import Question, question

PLAYERS = 4      # the table of a position asked about with --advise, unless it says otherwise
TURN_NUMBERS = ("god_value", "max_farm_cards", "max_build_cards", "famine_penalty", "no_build_penalty")
TURN, BID, END, TRADE = "turn", "bid", "end", "trade"
QUESTIONS = {
    TURN: "the Priest King's Farm and Build",
    BID: "who wins the bid",
    END: "who wins the game, and what a tie gives",
    TRADE: "when each Trade card may be played, and what it does",
}

FIELDS = [
    {"name": "question", "label": "question", "kind": "choice", "choices": list(QUESTIONS), "default": TURN,
     "example": "bid", "help": "What to ask: " + "; ".join(f"{k}: {v}" for k, v in QUESTIONS.items()) + "."},
    {"name": "hand", "label": "hand", "kind": "cards", "example": "Stage,Stairs,God",
     "help": "Comma-separated cards: names from the deck (any case, accents optional), a digit 1..8 for the "
             "Bid card of that value, or God for any God card. Required for the turn question; for the trade "
             "question, the Trade cards asked about (default: all of them)."},
    {"name": "population", "label": "Population level", "kind": "number", "short": "p",
     "example": "7", "min": 1, "max": 1000,
     "help": "Population level this turn (1 or more). Required for the turn question."},
    {"name": "temples", "label": "temple tops", "kind": "numbers", "min": 1, "max": 8, "default": [],
     "example": "2,3", "help": "Comma-separated top values (1..8) of the temples on the table, in table order. "
                               "Omit for none."},
    {"name": "prefer", "label": "order of plays of equal points", "kind": "choice", "choices": list(PREFERENCES),
     "default": DEFAULT_PREFERENCE, "example": "fewer_cards",
     "help": "Which of the plays with the most points (all optimal by the rules) is shown first: a preference, "
             "not a rule. " + " ".join(f"{k}: {v.format(feed='Maize')}." for k, v in PREFERENCES.items())},
    {"name": "traded", "label": "played a Trade card this round", "kind": "flag", "default": False,
     "help": "You have played a Trade card this round (or revealed Jade): under special_is_trade you may not "
             "also feed with Maize."},
    {"name": "players", "label": "players", "kind": "number", "min": 2, "max": 16, "default": PLAYERS,
     "example": "4", "help": "Players at the table, for --advise (the others' hands are dealt at random)."},
    {"name": "bids", "label": "bids", "kind": "player-cards", "example": "Stairs,Facade;Platform,Plaza;God;",
     "help": "The bid question: each player's bid, players in turn order (clockwise) separated by ';', an empty "
             "bid for no cards; Jade in a bid is revealed with it."},
    {"name": "scores", "label": "scores", "kind": "numbers", "min": -100000, "max": 100000, "example": "3,5,2,8",
     "help": "The bid and end questions: each player's points, in the same order (default: 0 each)."},
    {"name": "traders", "label": "players who played a Trade card", "kind": "numbers", "min": 1, "max": 16,
     "default": [], "example": "2",
     "help": "The bid question: the players (numbered from 1) who played a Trade card this round; under "
             "special_is_trade they may not also reveal Jade."},
    {"name": "king", "label": "Priest King who cannot feed", "kind": "number", "min": 0, "max": 16, "example": "2",
     "help": "The end question: the Priest King (numbered from 1) who cannot feed the people; 0 when the game "
             "ends because the deck and the discard pile ran out (under empty_deck_ends)."},
    {"name": "calendar", "label": "Calendar holder", "kind": "number", "min": 1, "max": 16, "default": 1,
     "example": "3", "help": "The end question: the player holding the Calendar token, first in turn order."},
]
TURN_KEYS = ("hand", "population", "temples", "prefer", "traded", "players")
KEYS = {TURN: TURN_KEYS, BID: ("bids", "scores", "traders"), END: ("scores", "king", "calendar"),
        TRADE: ("hand",)}


@dataclass(frozen=True)
class Position:
    """A checked question: the turn question (hand, Population, temples, rules) or one of the round's
    (``kind`` bid, end or trade, ``round`` its checked data), the deck it is asked with, the players."""

    question: Question | None
    deck: Deck
    players: int = PLAYERS
    kind: str = TURN
    round: object = None


def position_fields() -> list[dict]:
    return [dict(f) for f in FIELDS]


def question_rules(game, settings: dict, option: str = "--rule"):
    """The rules of a solver question: the game's, with rule numbers and rulings changed (the solver
    has no round cap, and plays the deck as it is)."""
    from solver.altunha.rules import with_settings
    from solver.altunha.sim.variants import setup_from_game

    setup = setup_from_game(game)
    return replace(setup, rules=with_settings(setup.rules, settings, option))


def _kind(data: dict) -> str:
    kind = data.pop("question", TURN)
    if kind not in QUESTIONS:
        raise OptionError("--question", f"takes one of {', '.join(QUESTIONS)}, not {kind!r}")
    unused = [k for k in data if k not in KEYS[kind] and k in {f["name"] for f in FIELDS}]
    if unused:
        users = [q for q, keys in KEYS.items() if unused[0] in keys]
        raise OptionError(f"--{unused[0]}", f"is not part of the {kind} question (it is for --question "
                                            f"{' or '.join(users)})")
    return kind


def read_position(raw, rules) -> Position:
    """A position from ``{"hand": [...], "population": n, "temples": [...], "players": n}`` (the turn
    question, checked as ``kitgen solve`` always has) or from ``{"question": "bid", ...}``."""
    from solver.altunha.round_questions import read_round

    if not isinstance(raw, dict):
        return question_fields(raw)      # its message says what is expected
    data = dict(raw)
    kind = _kind(data)
    if kind != TURN:
        return Position(None, rules.deck, kind=kind, round=read_round(kind, data, rules))
    players = data.pop("players", None)
    prefer = data.pop("prefer", DEFAULT_PREFERENCE)
    traded = data.pop("traded", False)
    for key, example in (("hand", "Stage,Stairs,God"), ("population", "7")):
        if key not in data:
            raise OptionError(f"--{key}", f"missing: give the {dict((f['name'], f['label']) for f in FIELDS)[key]}"
                                          f", e.g. --{key} {example}")
    if not isinstance(traded, bool):
        raise OptionError("--traded", f"takes true or false, not {traded!r}")
    if not isinstance(prefer, str):
        raise OptionError("--prefer", f"takes one of {', '.join(PREFERENCES)}, not {prefer!r}")
    hand, population, temples, _ = question_fields(data, ("players",))
    q = question(hand, population, temples, rules.rules, rules.deck, check_preference(prefer.strip()), traded)
    most = rules.max_players
    if players is None:
        players = min(PLAYERS, most)
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= most:
        raise OptionError("--players", f"must be from 2 to {most}, not {players!r}")
    return Position(q, rules.deck, players)


def _turn_only(position: Position, option: str) -> None:
    if position.kind != TURN:
        raise OptionError(option, f"is for the Farm and Build question, not the {position.kind} question")


def solve(position: Position, rules) -> dict:
    """The answer with everything the page draws: for the turn question the best play with its reasons,
    the temples after it, the best play with another Farm, the rulings used."""
    from solver.altunha.round_questions import answer_round
    from solver.altunha.turn_answer import answer

    if position.kind != TURN:
        return answer_round(position.kind, position.round, rules)
    return answer(position.question, position.deck)


def all_best(position: Position, rules) -> dict:
    """Every play with the most points, in the preference's order (``--all``)."""
    from solver.altunha.explain import play_text
    from solver.altunha.reasons import play_words, points_text
    from solver.altunha.solve import optimal_plans
    from solver.altunha.turn_answer import preference_entry

    _turn_only(position, "--all")
    q = position.question
    plans = optimal_plans(q, position.deck)
    pref = preference_entry(q, position.deck)
    lines = [f"{len(plans)} optimal play{'s' if len(plans) != 1 else ''}, {points_text(plans[0].points)} each "
             f"({plans[0].outcome.replace('_', ' ')}): every play with the most points is optimal by the rules.",
             f"In the order of the preference {pref['name']} ({pref['text']}), a preference, not a rule:"]
    lines += [f"  {i}. {play_words(plan, q.temples, position.deck)}   (--play \"{play_text(plan, position.deck)}\")"
              for i, plan in enumerate(plans, start=1)]
    return {"plays": [p.to_json() for p in plans], "best": [play_text(p, position.deck) for p in plans],
            "words": [play_words(p, q.temples, position.deck) for p in plans], "preference": pref,
            "lines": lines, "json": [p.to_json() for p in plans]}


def check(position: Position, play: str, rules) -> dict:
    """A proposed play (``farm ...; build ...``) judged: legal or not and why, its points beside the best."""
    from solver.altunha.turn_answer import check as check_turn

    _turn_only(position, "--play")
    if not isinstance(play, str) or not play.strip():
        raise KitgenError('"play" is missing: give the play, e.g. "farm Sun God; build Stage@1, Stairs@2"')
    return check_turn(position.question, play, position.deck)


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

    _turn_only(position, "--advise")
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
