"""Ancestral's rules engine, as the protocol's one Engine object: :data:`ENGINE`.

Everything the generic tools (simulator, balance report, lookahead player,
``kitgen solve`` and ``kitgen simulate``, the web pages) ask of a game goes
through it; nothing here imports them.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from solver.ancestral import figures as _figures
from solver.ancestral import solve as _solve
from solver.ancestral.policies import POLICIES, POLICY_HELP
from solver.ancestral.rules import Rules, max_players, rules_of_game, with_settings
from solver.ancestral.state import State, new_game


class AncestralEngine:
    key = "ancestral"
    title = "Ancestral"
    ends = {"offerings": "with the offerings won"}
    playout_rounds = 1           # the lookahead player plays out the round under way: who wins it
    playouts = 600               # and, as such playouts are short, plays more of them
    policies = POLICIES
    policy_help = POLICY_HELP
    play_help = ("one action in the rulebook's words: 'attack 2 with Strong Wind + Hot Wind' (', discarding "
                 "Quincha Defense' when the attack discards some of several defenses), 'protect with Quincha "
                 "Defense', 'clean with 2 South Breeze', 'discard Reference' or 'pass'")
    play_example = "attack 2 with Strong Wind + Hot Wind"
    web_view = Path(__file__).resolve().parent / "web" / "solver_view.js"   # its drawing on the solver page
    web_style = Path(__file__).resolve().parent / "web" / "solver_view.css"  # and its huts' look

    def rules(self, game, settings: dict[str, str] | None = None, option: str = "--set") -> Rules:
        """The rules of ``game`` (a loaded kitgen Game) with ``--set NAME=VALUE`` settings applied."""
        return with_settings(rules_of_game(game), settings or {}, option)

    def player_range(self, rules: Rules) -> tuple[int, int]:
        return rules.players_min, max_players(rules)

    def new_game(self, rules: Rules, players: int, rng: random.Random) -> State:
        return new_game(rules, players, rng)

    def round_cap(self, rules: Rules) -> int:
        """The simulator's cap in rounds.  A round itself can last forever (defenses and breezes undo every
        attack), so the engine also stops a game at ``turn_cap`` turns, as ``end = "cap"``: the generic
        tools count it as stopped at the cap, never as an end of the rules."""
        return rules.round_cap

    def clear_caches(self) -> None:
        """Forget the tables of plays made for each rule set (to time a cold start)."""
        from solver.ancestral.moves import table_for

        table_for.cache_clear()

    def cap_text(self, rules: Rules) -> str:
        return f"{rules.round_cap:,} rounds or {rules.turn_cap:,} turns"

    def rule_values(self, rules: Rules) -> dict:
        return rules.as_dict()

    def changed_rules(self, rules: Rules) -> list[str]:
        return list(rules.changed)

    def figures(self, state: State) -> dict:
        return _figures.figures(state)

    def report(self, records: list[dict]) -> dict:
        return _figures.report(records)

    # --- the solver's questions -------------------------------------------------------------

    def position_fields(self, rules: Rules | None = None) -> list[dict]:
        return _solve.position_fields(rules or default_rules())

    def read_position(self, raw: dict[str, Any], rules: Rules) -> _solve.Position:
        return _solve.read_position(raw, rules)

    def solve(self, position: _solve.Position, rules: Rules) -> dict:
        return _solve.solve(position, rules)

    def check(self, position: _solve.Position, play: str, rules: Rules) -> dict:
        return _solve.check(position, play, rules)

    def all_best(self, position: _solve.Position, rules: Rules) -> dict:
        return _solve.all_best(position, rules)

    def position_state(self, position: _solve.Position, rules: Rules, rng: random.Random) -> State:
        return _solve.position_state(position, rules, rng)


def default_rules() -> Rules:
    """The rules of the built-in game, under its rulings' defaults."""
    from kitgen.data.game import load_game

    return rules_of_game(load_game("ancestral"))


ENGINE = AncestralEngine()
