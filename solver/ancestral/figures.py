"""Ancestral's own figures of a finished game, and its section of the balance report.

:func:`figures` reads one game (rounds and turns, who started and won each
round, eliminations, leaves laid, stopped, swept and cancelled, Hunuc-Huar
plays); :func:`report` sums many games into figures, tables and findings,
each finding a sentence built from the figures it quotes.  How games end,
their length and the win rates of seats and players are the generic report's.
"""

from __future__ import annotations

import statistics
from collections import Counter

from solver.simulation.stats import mean_ci, pct, r4, wilson

def figures(state) -> dict:
    """The figures of one game (JSON-able, small)."""
    c = state.count
    won = len(state.round_winners)
    return {
        "players": state.players, "end": state.end, "turns": state.turns, "rounds": won,
        "offerings": list(state.offerings),
        "round_turns": list(state.round_lengths), "round_winners": list(state.round_winners),
        "round_starters": list(state.round_starters[:won]),
        "unfinished_round_turns": state.round_turns if state.end == "cap" else 0,
        "eliminations": c["eliminations"], "attacks": c["attacks"], "hunuc_huar_plays": c["cancelled"],
        "leaves_cancelled": c["leaves_cancelled"], "leaves_laid": c["leaves_laid"],
        "leaves_stopped": c["leaves_stopped"], "leaves_lost": c["leaves_lost"],
        "leaves_cleaned": c["leaves_cleaned"], "defenses_laid": c["defenses_laid"],
        "passes": c["passes"], "discards": c["discards"], "reshuffles": c["reshuffles"],
        "cancels_by_seat": [n for _, n in sorted(zip(state.seats(), state.cancels))],
    }


def report(records: list[dict]) -> dict:
    """Ancestral's section of balance.json from the games' figures (a record is a figures dict, or holds
    one under ``"figures"``)."""
    games = [r.get("figures", r) for r in records]
    n = len(games)
    if not n:
        return {"figures": {"games": 0}, "tables": [], "findings": []}
    round_turns = [t for g in games for t in g["round_turns"]]
    rounds = [g["rounds"] for g in games]
    capped = [g for g in games if g["end"] == "cap"]
    # who wins a round, by place in that round's turn order (1 = its first player)
    places: Counter = Counter()
    expected = 0.0
    for g in games:
        p = g["players"]
        for starter, winner in zip(g["round_starters"], g["round_winners"]):
            places[(winner - starter) % p + 1] += 1
            expected += 1 / p
    total_rounds = sum(places.values())
    starter_wins = wilson(places[1], total_rounds)
    # does the winner of a round win the next one too?
    pairs = [(a, b) for g in games for a, b in zip(g["round_winners"], g["round_winners"][1:])]
    again = wilson(sum(a == b for a, b in pairs), len(pairs))
    pair_expected = sum(1 / g["players"] for g in games for _ in g["round_winners"][1:])
    attacks = sum(g["attacks"] for g in games)
    per_game = {key: mean_ci([g[key] for g in games]) for key in (
        "turns", "rounds", "eliminations", "attacks", "hunuc_huar_plays", "leaves_cancelled", "leaves_laid",
        "leaves_stopped", "leaves_cleaned", "defenses_laid", "passes", "reshuffles")}
    out = {
        "games": n, "stopped_at_cap": len(capped),
        "per_game": per_game,
        "turns_per_round": {**mean_ci(round_turns), "median": statistics.median(round_turns) if round_turns else None,
                            "longest": max(round_turns, default=None)},
        "round_won_by_its_first_player": starter_wins,
        "round_won_by_its_first_player_if_even": r4(expected / total_rounds) if total_rounds else None,
        "round_won_again_by_last_winner": again,
        "round_won_again_by_last_winner_if_even": r4(pair_expected / len(pairs)) if pairs else None,
        "attacks_cancelled": wilson(sum(g["hunuc_huar_plays"] for g in games), attacks),
    }
    tables = [
        {"title": "Who wins a round, by place in its turn order",
         "columns": ["Place (1 = first player)", "Rounds won", "Share", "95% interval"],
         "rows": [[place, places[place], pct(s["rate"]), f"{pct(s['low'])} to {pct(s['high'])}"]
                  for place in sorted(places) for s in [wilson(places[place], total_rounds)]]},
        *_cancels_table(records),
        {"title": "Rounds per game",
         "columns": ["Rounds", "Games"],
         "rows": [[k, v] for k, v in sorted(Counter(rounds).items())]},
    ]
    even = out["round_won_by_its_first_player_if_even"]
    charts = [{"kind": "bars", "title": "Who wins a round, by place in its turn order",
               "labels": [f"place {p}" for p in sorted(places)],
               "series": [["rounds won", [wilson(places[p], total_rounds)["rate"] for p in sorted(places)]]],
               "low": [wilson(places[p], total_rounds)["low"] for p in sorted(places)],
               "high": [wilson(places[p], total_rounds)["high"] for p in sorted(places)],
               "percent": True, "ref": even, "ref_label": "an even share"}] if total_rounds else []
    turns = out["turns_per_round"]
    key_figures = [["Turns per round", f"{turns['mean']:.1f} (median {turns['median']:g}, longest {turns['longest']:,})"
                    if turns["n"] else "no round ended"],
                   ["Turns per game", f"{per_game['turns']['mean']:.1f}"]]
    compare = [["Turns per game (mean)", per_game["turns"]["mean"]],
               ["Turns per round (mean)", turns["mean"]],
               ["Round won by its first player", starter_wins["rate"]],
               ["Round won again by the last winner", again["rate"]],
               ["Attacks cancelled by a Hunuc-Huar", out["attacks_cancelled"]["rate"]],
               ["Leaves swept away a game (mean)", per_game["leaves_cleaned"]["mean"]],
               ["Defenses laid a game (mean)", per_game["defenses_laid"]["mean"]]]
    return {"figures": out, "key_figures": key_figures, "tables": tables, "charts": charts,
            "findings": _findings(out), "compare": compare, "cap_detail": _cap_detail(capped)}


def _cap_detail(capped: list[dict]) -> str:
    """What the games stopped at the cap were doing (the words after "not an end the rules name; ")."""
    if not capped:
        return ""
    rounds = statistics.fmean(g["rounds"] for g in capped)
    turns = statistics.fmean(g["unfinished_round_turns"] for g in capped)
    return (f"they had finished {rounds:.1f} rounds on average, and the round under way had lasted {turns:,.0f} "
            f"turns")


def _cancels_table(records: list[dict]) -> list[dict]:
    """The share of games won by each player by how many attacks they cancelled with a Hunuc-Huar, ranked
    within their game (1: the most; players with as many share the better rank); none for figures alone
    (records of the simulator hold the seats that say who won)."""
    wins: Counter = Counter()
    seats: Counter = Counter()
    for record in records:
        if "seats" not in record:
            return []
        cancels = record["figures"]["cancels_by_seat"]
        for seat, mine in zip(record["seats"], cancels):
            rank = 1 + sum(other > mine for other in cancels)
            seats[rank] += 1
            wins[rank] += seat["win"]
    rows = []
    for rank in sorted(seats):
        w = wilson(wins[rank], seats[rank])
        rows.append([rank, f"{seats[rank]:,}", pct(w["rate"]), f"{pct(w['low'])} to {pct(w['high'])}"])
    return [{"title": "Games won, by the attacks a player cancelled with a Hunuc-Huar",
             "columns": ["Rank in the game (1 = most cancelled)", "Players", "Won", "95% interval"], "rows": rows}]


def _findings(f: dict) -> list[str]:
    g, per = f["games"], f["per_game"]
    lines = [f"A game lasts {per['rounds']['mean']:.2f} rounds and {per['turns']['mean']:.1f} turns on average "
             f"({g:,} games); a round lasts {f['turns_per_round']['mean']:.1f} turns on average (median "
             f"{f['turns_per_round']['median']:g}, longest {f['turns_per_round']['longest']:,})."
             if f["turns_per_round"]["n"] else f"No round of the {g:,} games came to an end."]
    if f["stopped_at_cap"]:
        capped = f["stopped_at_cap"]
        lines.append(f"{capped:,} of {g:,} games {'was' if capped == 1 else 'were'} still running at the simulator's "
                     f"cap and {'was' if capped == 1 else 'were'} stopped there.")
    for name, what, counted in (
            ("round_won_by_its_first_player", "The first player of a round wins it", "rounds"),
            ("round_won_again_by_last_winner", "The winner of a round wins the next one too", "pairs of rounds")):
        s, even = f[name], f[f"{name}_if_even"]
        if s["n"]:
            verdict = ("more often than" if s["low"] > even else "less often than" if s["high"] < even
                       else "about as often as")
            lines.append(f"{what} {pct(s['rate'])} of the time (95% interval {pct(s['low'])} to "
                         f"{pct(s['high'])}, {s['n']:,} {counted}): {verdict} an even share ({pct(even)}).")
    c = f["attacks_cancelled"]
    if c["n"]:
        lines.append(f"Hunuc-Huar cancels {pct(c['rate'])} of attacks ({per['hunuc_huar_plays']['mean']:.2f} a game), "
                     f"turning away {per['leaves_cancelled']['mean']:.1f} leaves of damage a game, against "
                     f"{per['leaves_laid']['mean']:.1f} leaves laid, {per['leaves_stopped']['mean']:.1f} stopped by "
                     f"defenses and {per['leaves_cleaned']['mean']:.1f} swept away.")
    return lines
