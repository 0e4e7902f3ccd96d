"""Temple of Inscriptions' own figures: one game's (:func:`figures`) and the balance report's section
(:func:`report`), whose findings are sentences built from the figures they quote."""

from __future__ import annotations

from statistics import mean

from solver.temple.state import COMPLETE, TempleState


def figures(state: TempleState) -> dict:
    """The figures of one finished game (small and JSON-able)."""
    rounds, before = [], 0
    for r in state.level_rounds:
        rounds.append(r - before)
        before = r
    return {
        "levels": state.built,
        "complete": state.end == COMPLETE,
        "level_rounds": list(state.level_rounds),      # the round in which each level was built
        "rounds_per_level": rounds,                    # rounds spent on each level
        "idle_rounds": state.idle_rounds,              # rounds in which nobody summoned
        "summons": state.summons,
        "failed_summons": state.failed,
        "summoner_points": state.summoner_gain,        # points summoners took from their constructions
        "helper_points": state.helper_gain,            # points the other setters took
        "helpers": state.helpers,                      # other players who set cards in a completed level
        "jewel_pairs": state.pairs_set,
        "swaps": state.swaps_made,
    }


def _figures_of(record: dict) -> dict:
    return record.get("figures", record)


def _pct(part: float, whole: float) -> float:
    return round(100.0 * part / whole, 1) if whole else 0.0


def report(records: list[dict]) -> dict:
    """The engine's section of balance.json: summary figures, a table by level, and findings."""
    games = [_figures_of(r) for r in records]
    n = len(games)
    if not n:
        return {"figures": {"games": 0}, "tables": [], "findings": []}
    top = max((len(g["rounds_per_level"]) for g in games), default=0)
    complete = [g for g in games if g["complete"]]
    summons = sum(g["summons"] for g in games)
    failed = sum(g["failed_summons"] for g in games)
    built = sum(g["levels"] for g in games)
    helpers = sum(g["helpers"] for g in games)
    out_figures = {
        "games": n,
        "complete_games": len(complete),
        "complete_pct": _pct(len(complete), n),
        "mean_levels": round(mean(g["levels"] for g in games), 2),
        "mean_rounds_to_complete": round(mean(g["level_rounds"][-1] for g in complete), 2) if complete else None,
        "mean_idle_rounds": round(mean(g["idle_rounds"] for g in games), 2),
        "summons": summons,
        "failed_summons": failed,
        "failed_pct": _pct(failed, summons),
        "summoner_points_per_level": round(sum(g["summoner_points"] for g in games) / built, 2) if built else None,
        "helper_points_per_helper": round(sum(g["helper_points"] for g in games) / helpers, 2) if helpers else None,
        "helpers_per_level": round(helpers / built, 2) if built else None,
        "jewel_pairs_per_game": round(sum(g["jewel_pairs"] for g in games) / n, 2),
    }
    rows = []
    for level in range(1, top + 1):
        reached = [g["rounds_per_level"][level - 1] for g in games if len(g["rounds_per_level"]) >= level]
        rows.append([level, len(reached), _pct(len(reached), n), round(mean(reached), 2) if reached else None])
    tables = [{"title": "Levels built",
               "columns": ["Level", "Games that built it", "Share of games", "Rounds spent on it (mean)"],
               "rows": [[level, f"{games_:,}", f"{share:.1f}%", "" if rounds is None else f"{rounds:.2f}"]
                        for level, games_, share, rounds in rows]}]
    f = out_figures
    key_figures = [["Temple completed", f"{f['complete_pct']:.1f}% of games"
                    + (f", after {f['mean_rounds_to_complete']:.2f} rounds on average" if complete else "")],
                   ["Summons that failed", f"{f['failed_pct']:.1f}% of {summons:,}"]]
    charts = [{"kind": "bars", "title": "Rounds spent on each level", "labels": [str(r[0]) for r in rows if r[3]],
               "series": [["mean rounds", [r[3] for r in rows if r[3]]]], "note": "games that built the level"}]
    compare = [["Temple completed (share of games)", round(len(complete) / n, 4)],
               ["Levels built (mean)", f["mean_levels"]],
               ["Rounds to complete the temple (mean)", f["mean_rounds_to_complete"]],
               ["Summons that failed (share)", round(failed / summons, 4) if summons else None],
               ["Summoner's points a completed level", f["summoner_points_per_level"]],
               ["Points of another player who set cards", f["helper_points_per_helper"]],
               ["Rounds nobody summoned (mean a game)", f["mean_idle_rounds"]]]
    return {"figures": out_figures, "key_figures": key_figures, "tables": tables, "charts": charts,
            "findings": findings(out_figures, rows), "compare": compare,
            "cap_detail": cap_detail([g for r, g in zip(records, games) if r.get("end") == "cap"])}


def cap_detail(capped: list[dict]) -> str:
    """What the games stopped at the round cap were doing (the words after "the round cap; ")."""
    if not capped:
        return ""
    summons = sum(g["summons"] for g in capped)
    failed = sum(g["failed_summons"] for g in capped)
    return (f"they had built {round(mean(g['levels'] for g in capped), 2)} levels on average, and "
            f"{_pct(failed, summons)}% of their {summons} summons had failed")


def findings(f: dict, rows: list[list]) -> list[str]:
    """Sentences, each built from the figures it quotes."""
    out = []
    if f["complete_games"]:
        out.append(f"The temple was completed in {f['complete_pct']}% of the {f['games']} games, after "
                   f"{f['mean_rounds_to_complete']} rounds on average.")
    else:
        out.append(f"The temple was never completed in {f['games']} games; on average {f['mean_levels']} "
                   f"levels were built.")
    timed = [r for r in rows if r[3] is not None]
    if timed:
        slow = max(timed, key=lambda r: r[3])
        out.append(f"Level {slow[0]} took longest: {slow[3]} rounds on average in the {slow[1]} games "
                   f"that built it.")
    if f["summons"]:
        out.append(f"{f['failed_pct']}% of the {f['summons']} summons failed, each costing its summoner "
                   f"the point paid.")
    if f["summoner_points_per_level"] is not None and f["helper_points_per_helper"] is not None:
        out.append(f"A summoner took {f['summoner_points_per_level']} points from each completed level, "
                   f"another player who set cards {f['helper_points_per_helper']} "
                   f"({f['helpers_per_level']} such players a level).")
    out.append(f"Nobody summoned in {f['mean_idle_rounds']} rounds of a game on average.")
    return out
