"""One call that plays a run of any engine (and optionally a variant on the same seeds) and sums it up.

It returns data (:class:`SimulationResult`: the summary of balance.json, the variant's and
the comparison rows); writing balance.json and drawing balance.pdf is
:mod:`kitgen.outputs.balance`'s.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from kitgen.errors import OptionError
from solver.engines import engine_of
from solver.simulation.runner import Spec, run_games
from solver.simulation.stats import compare, summarize
from solver.simulation.variants import read_variant


@dataclass
class SimulationResult:
    summary: dict
    variant: dict | None = None
    variant_name: str = ""
    rows: list[dict] = field(default_factory=list)
    seconds: float = 0.0
    games_played: int = 0
    slug: str = ""
    title: str = ""

    @property
    def games_per_second(self) -> float:
        return self.games_played / self.seconds if self.seconds > 0 else 0.0

    def balance_json(self) -> bytes:
        """balance.json: the baseline's figures, and the variant's with the comparison rows."""
        data: dict[str, Any] = {"baseline": self.summary}
        if self.variant is not None:
            data["variant"] = {"name": self.variant_name, **self.variant}
            data["comparison"] = self.rows or None
        return (json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False) + "\n").encode("utf-8")


def parse_policies(text: str, engine) -> tuple[str, ...]:
    """Policy names separated by commas: the engine's own, or ``lookahead`` (``lookahead:N``: N playouts
    a decision)."""
    from solver.lookahead import LOOKAHEAD, parse_budget

    accepted = [*engine.policies, LOOKAHEAD]
    names = tuple(n.strip().lower() for n in text.split(",") if n.strip())
    if not names:
        raise OptionError("--policy", f"give at least one policy name ({', '.join(accepted)})")
    for name in names:
        if name.split(":")[0] == LOOKAHEAD:
            parse_budget(name, "--policy")
        elif name not in engine.policies:
            raise OptionError("--policy", f"unknown policy {name!r}; accepted: {', '.join(accepted)}")
    return names


def default_policy(engine) -> str:
    """Every simple player of the engine: its ``default_policy`` when it names one, else greedy first and
    random last."""
    if getattr(engine, "default_policy", None):
        return engine.default_policy
    names = [n for n in engine.policies if n not in ("greedy", "random")]
    return ",".join(["greedy", *names, "random"])


def check_players(engine, rules, players: int, option: str) -> None:
    problem = engine.players_problem(rules, players) if hasattr(engine, "players_problem") else ""
    if not problem:
        low, high = engine.player_range(rules)
        if not low <= players <= high:
            problem = f"must be from {low} to {high}, not {players}"
    if problem:
        raise OptionError(option, problem)


def simulate(game: str, games: int = 1000, players: int = 4, policy: str | None = None, seed: int = 0,
             settings: dict[str, Any] | None = None, compare_file: Path | None = None,
             workers: int | None = None, cluster: str | None = None,
             progress: Callable[[int], None] | None = None) -> SimulationResult:
    """Play ``games`` games of ``game`` (a built-in name or a folder whose game.toml names an engine);
    ``policy`` None plays every simple player of the engine (see :func:`default_policy`)."""
    from kitgen.data.game import load_game

    data = load_game(game)
    engine = engine_of(data)
    if games < 1:
        raise OptionError("--games", f"must be at least 1, not {games}")
    names = parse_policies(policy if policy is not None else default_policy(engine), engine)
    base = engine.rules(data, settings or {}, "--set")
    check_players(engine, base, players, "--players")
    spec = Spec(engine.key, base, players, names, seed)
    if compare_file is not None:  # check the variant before playing anything
        name, variant_settings = read_variant(Path(compare_file))
        variant_rules = engine.rules(data, {**(settings or {}), **variant_settings}, f"--compare {compare_file}")
        check_players(engine, variant_rules, players, f"--players (with --compare {compare_file})")
    started = time.perf_counter()
    summary = summarize(run_games(spec, games, workers, cluster, progress), spec)
    result = SimulationResult(summary=summary, games_played=games, slug=data.slug, title=data.title)
    if compare_file is not None:
        vspec = Spec(engine.key, variant_rules, players, names, seed)
        result.variant = summarize(run_games(vspec, games, workers, cluster, progress), vspec)
        result.variant_name = name
        result.rows = compare(summary, result.variant)
        result.games_played += games
    result.seconds = time.perf_counter() - started
    return result
