"""The Engine of Temple of Inscriptions, as the rules-engine registry names it
(``solver.temple.engine:ENGINE``, key ``temple-of-inscriptions``)."""

from __future__ import annotations

import random
from pathlib import Path

from solver.temple import figures as _figures
from solver.temple import solve as _solve
from solver.temple.policies import HELP, POLICIES
from solver.temple.rules import Rules, rules_of_game, with_settings
from solver.temple.state import COMPLETE, STALLED, TempleState


class TempleEngine:
    key = "temple-of-inscriptions"
    title = "Temple of Inscriptions"
    ends = {COMPLETE: "with the temple complete",
            STALLED: "stalled (the level out of reach of the cards and treasure left)"}
    policies = POLICIES
    policy_help = HELP
    play_help = ("the cards each player sets, in turn from the summoner, separated by ';', e.g. "
                 "'2 Lower Terrace; 1 Lower Terrace, 2 Jade Jewel; nothing'")
    play_example = "2 Foundation Stone; 1 Foundation Stone, 2 Jade Jewel; nothing"
    web_view = Path(__file__).resolve().parent / "web" / "solver_view.js"   # its drawing on the solver page

    def rules(self, game, settings: dict[str, str], option: str = "--set") -> Rules:
        rules = rules_of_game(game)
        return with_settings(rules, settings, option) if settings else rules

    def player_range(self, rules: Rules) -> tuple[int, int]:
        return max(2, rules.players_min), max(2, rules.players_max)

    def new_game(self, rules: Rules, players: int, rng: random.Random) -> TempleState:
        low, high = self.player_range(rules)
        if not low <= players <= high:
            raise ValueError(f"Temple of Inscriptions takes {low} to {high} players, not {players}")
        return TempleState(rules, players, rng)

    def round_cap(self, rules: Rules) -> int:
        return rules.round_cap

    def clear_caches(self) -> None:
        """Forget the action tables made for each rule set (to time a cold start)."""
        from solver.temple.state import _TABLES

        _TABLES.clear()

    def rule_values(self, rules: Rules) -> dict:
        return rules.values()

    def changed_rules(self, rules: Rules) -> list[str]:
        return list(rules.changed)

    def rule_numbers(self, rules: Rules) -> list[dict]:
        """The rule numbers a construction's answer depends on, for the solver page's switches."""
        from solver.temple.rules import NUMBERS

        names = ("cards_per_level", "max_cards_per_player", "jewels_per_card", "summon_cost", "jewel_points")
        return [{"name": name, "title": NUMBERS[name][2][:1].upper() + NUMBERS[name][2][1:], "kind": "number",
                 "default": getattr(rules, name), "min": NUMBERS[name][0], "max": NUMBERS[name][1]}
                for name in names]

    def figures(self, state: TempleState) -> dict:
        return _figures.figures(state)

    def report(self, records: list[dict]) -> dict:
        return _figures.report(records)

    def position_fields(self) -> list[dict]:
        return _solve.position_fields()

    def read_position(self, raw: dict, rules: Rules):
        return _solve.read_position(raw, rules)

    def solve(self, position, rules: Rules) -> dict:
        return _solve.solve(position, rules)

    def check(self, position, play: str, rules: Rules) -> dict:
        return _solve.check(position, play, rules)

    def all_best(self, position, rules: Rules) -> dict:
        return _solve.all_best(position, rules)

    def position_state(self, position, rules: Rules, rng: random.Random) -> TempleState:
        return _solve.position_state(position, rules, rng)


ENGINE = TempleEngine()
