"""Altun Ha behind the rules-engine protocol (:mod:`solver.engine`): ``ENGINE``, found by the key "altun-ha".

The rules object is the simulator's :class:`~solver.altunha.sim.variants.Setup` (rule
numbers, rulings, the deck and the round cap); a game is an
:class:`~solver.altunha.sim.state.AltunHaState`; the simple players are the policies of
:mod:`solver.altunha.sim.policies`; the figures and the report are
:mod:`solver.altunha.sim.report`'s; the solver questions are :mod:`solver.altunha.questions`'.
"""

from __future__ import annotations

import random
from functools import cached_property
from pathlib import Path
from typing import Any


class AltunHa:
    key = "altun-ha"
    title = "Altun Ha"
    ends = {"famine": "in a famine", "empty_deck": "when the deck and discard pile ran out"}
    # the Calendar is dealt at random: seat 1 is whoever holds it first (State.seats() says who), and
    # the simulator turns a policy mix over those seats
    default_policy = "greedy,cautious,closer"   # the random player is a baseline, named with --policy

    # --- rules and games ---------------------------------------------------------------

    def rules(self, game, settings: dict[str, Any], option: str = "--set"):
        from solver.altunha.sim.variants import setup_from_game, with_settings_of

        return with_settings_of(setup_from_game(game), settings, option)

    def player_range(self, rules) -> tuple[int, int]:
        return 2, rules.max_players

    def players_problem(self, rules, players: int) -> str:
        """Why a number of players cannot play with these rules ("" when it can)."""
        most = rules.max_players
        if 2 <= players <= most:
            return ""
        return (f"must be from 2 to {most} (the deck of {rules.deck.size} cards deals {rules.rules.hand_size} "
                f"to each player), not {players}")

    def new_game(self, rules, players: int, rng: random.Random):
        from solver.altunha.sim.engine import Game
        from solver.altunha.sim.state import AltunHaState

        return AltunHaState(Game(rules, players, rng))

    @cached_property
    def policies(self) -> dict:
        from solver.altunha.sim.policies import POLICIES, player_factory

        return {name: player_factory(name) for name in POLICIES}

    @property
    def policy_help(self) -> dict[str, str]:
        from solver.altunha.sim.policies import HELP

        return dict(HELP)

    def round_cap(self, rules) -> int:
        return rules.round_cap

    def clear_caches(self) -> None:
        """Forget the enumerator's memoised turns and bids (for timings that start cold)."""
        from solver.altunha.sim.enumerate import clear_caches

        clear_caches()

    def rule_values(self, rules) -> dict:
        return rules.as_dict()

    def changed_rules(self, rules) -> list[str]:
        return list(rules.changed)

    # --- figures ---------------------------------------------------------------------------

    def figures(self, state) -> dict:
        from solver.altunha.sim.report import figures

        return figures(state)

    def report(self, records: list[dict]) -> dict:
        from solver.altunha.sim.report import report

        return report(records)


    # --- solver questions (solver/altunha/questions.py) ---------------------------------------

    def position_fields(self) -> list[dict]:
        from solver.altunha.questions import position_fields

        return position_fields()

    def question_rules(self, game, settings: dict[str, Any], option: str = "--rule"):
        from solver.altunha.questions import question_rules

        return question_rules(game, settings, option)

    def read_position(self, raw: dict, rules):
        from solver.altunha.questions import read_position

        return read_position(raw, rules)

    def solve(self, position, rules) -> dict:
        from solver.altunha.questions import solve

        return solve(position, rules)

    def all_best(self, position, rules) -> dict:
        from solver.altunha.questions import all_best

        return all_best(position, rules)

    def check(self, position, play: str, rules) -> dict:
        from solver.altunha.questions import check

        return check(position, play, rules)

    def position_state(self, position, rules, rng: random.Random):
        from solver.altunha.questions import position_state

        return position_state(position, rules, rng)

    def rule_numbers(self, rules) -> list[dict]:
        from solver.altunha.questions import rule_numbers

        return rule_numbers(rules)

    play_example = "farm Sun God; build Stage@1, Stairs@2"
    web_view = Path(__file__).resolve().parent / "web" / "solver_view.js"   # its drawing on the solver page
    web_style = Path(__file__).resolve().parent / "web" / "solver_view.css"  # and its look

    def forget_games(self) -> None:
        """Read game folders afresh (a served folder has changed): the data, decks and rules kept of them."""
        from solver.altunha import rules
        from solver.altunha.cards import game_data, load_deck

        for cached in (game_data, load_deck, rules._rules_of_game):
            cached.cache_clear()

    @property
    def play_help(self) -> str:
        from solver.altunha.questions import play_help

        return play_help()


ENGINE = AltunHa()
