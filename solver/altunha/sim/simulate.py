"""One call that plays a run (and optionally a variant on the same seeds) and writes the report."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from kitgen.errors import OptionError
from kitgen.outputs.files import write_files
from solver.altunha.sim.policies import parse_policies
from solver.altunha.sim.runner import Spec, run_games
from solver.altunha.sim.stats import compare, summarize
from solver.altunha.sim.variants import read_variant, setup_from_game, with_settings_of


@dataclass
class SimulationResult:
    summary: dict
    variant: dict | None = None
    variant_name: str = ""
    rows: list[dict] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    seconds: float = 0.0
    games_played: int = 0

    @property
    def games_per_second(self) -> float:
        return self.games_played / self.seconds if self.seconds > 0 else 0.0


def balance_json(summary: dict, variant: dict | None = None, name: str = "", rows=None) -> bytes:
    data: dict[str, Any] = {"baseline": summary}
    if variant is not None:
        data["variant"] = {"name": name, **variant}
        data["comparison"] = rows
    return (json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False) + "\n").encode("utf-8")


def check_players(players: int, setup, option: str) -> None:
    """2 players or more ("2-4+"), as many as the deck can deal a starting hand to."""
    most = setup.max_players
    if not 2 <= players <= most:
        raise OptionError(option, f"must be from 2 to {most} (the deck of {setup.deck.size} cards deals "
                                  f"{setup.rules.hand_size} to each player), not {players}")


def simulate(game: str = "altun-ha", games: int = 1000, players: int = 4, policy: str = "greedy",
             seed: int = 0, settings: dict[str, Any] | None = None, compare_file: Path | None = None,
             workers: int | None = None, cluster: str | None = None, out: Path | None = Path("output"),
             progress: Callable[[int], None] | None = None) -> SimulationResult:
    """Play ``games`` games and write balance.json and balance.pdf into ``out/<slug>/`` (None: write nothing)."""
    from kitgen.data.game import load_game

    data = load_game(game)
    if games < 1:
        raise OptionError("--games", f"must be at least 1, not {games}")
    names = parse_policies(policy)
    base = with_settings_of(setup_from_game(data), settings or {}, "--set")
    check_players(players, base, "--players")
    spec = Spec(base, players, names, seed)
    if compare_file is not None:  # check the variant before playing anything
        name, variant_settings = read_variant(Path(compare_file))
        variant_setup = with_settings_of(base, variant_settings, f"--compare {compare_file}")
        check_players(players, variant_setup, f"--players (with --compare {compare_file})")
    started = time.perf_counter()
    summary = summarize(run_games(spec, games, workers, cluster, progress), spec)
    result = SimulationResult(summary=summary, games_played=games)
    if compare_file is not None:
        vspec = Spec(variant_setup, players, names, seed)
        result.variant = summarize(run_games(vspec, games, workers, cluster, progress), vspec)
        result.variant_name = name
        result.rows = compare(summary, result.variant)
        result.games_played += games
    result.seconds = time.perf_counter() - started
    if out is not None:
        from kitgen.render.balance_report import render_report

        files = {"balance.json": balance_json(summary, result.variant, result.variant_name, result.rows or None),
                 "balance.pdf": render_report(summary, result.variant, result.variant_name, result.rows or None,
                                              data.title)}
        result.files = write_files(Path(out) / data.slug, files)
    return result
