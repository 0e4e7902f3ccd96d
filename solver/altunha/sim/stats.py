"""Balance figures from game records: rates with Wilson intervals, means with normal intervals.

Everything here is computed from the ordered records alone (no timings), so
the same games give byte-identical ``balance.json``.
"""

from __future__ import annotations

import math
from statistics import median

from solver.altunha.sim.engine import SOURCES

Z = 1.959963984540054  # 95 %
ENDS = ("famine", "stalemate", "stall", "timeout", "empty_deck")
CUTOFFS = ("stalemate", "stall", "timeout")  # ends the simulator imposes, not the rules
ENDED = {"famine": "in a famine", "stalemate": "at the stalemate cut-off", "stall": "at the stall cut-off",
         "timeout": "at the round limit", "empty_deck": "when the deck ran out"}
TRADE_CARDS = ("Stone", "Salt", "Maize", "Cocoa", "Ceramics", "Honey", "Feathers", "Textiles",
               "Pyrite", "Obsidian", "Jade", "Codex")


def wilson(successes: float, n: int, z: float = Z) -> dict:
    """A rate with its Wilson score interval (successes may be fractional for shared wins)."""
    if n <= 0:
        return {"rate": None, "low": None, "high": None, "n": 0}
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return {"rate": _r(p), "low": _r(max(0.0, centre - half)), "high": _r(min(1.0, centre + half)), "n": n}


def mean_ci(values: list[float]) -> dict:
    n = len(values)
    if n == 0:
        return {"mean": None, "low": None, "high": None, "sd": None, "n": 0}
    m = sum(values) / n
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = Z * sd / math.sqrt(n) if n > 1 else 0.0
    return {"mean": _r(m), "low": _r(m - half), "high": _r(m + half), "sd": _r(sd), "n": n}


def _r(x: float) -> float:
    return round(x, 4)


def histogram(values: list[int]) -> dict[str, int]:
    out: dict[int, int] = {}
    for v in values:
        out[v] = out.get(v, 0) + 1
    return {str(k): out[k] for k in sorted(out)}


def binned(values: list[int], width: int = 5) -> dict[str, int]:
    out: dict[int, int] = {}
    for v in values:
        b = math.floor(v / width) * width
        out[b] = out.get(b, 0) + 1
    return {f"{k}..{k + width - 1}": out[k] for k in sorted(out)}


def percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    if not s:
        return 0
    k = (len(s) - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    return _r(s[lo] + (s[hi] - s[lo]) * (k - lo))


def summarize(records: list[dict], spec) -> dict:
    """Every figure of the balance report, as plain JSON-ready data."""
    n = len(records)
    players = spec.players
    rounds = [r["rounds"] for r in records]
    ends = {e: sum(1 for r in records if r["end"] == e) for e in ENDS}
    famines = [r for r in records if r["end"] == "famine"]
    seat_wins = [sum(r["seats"][s]["win"] for r in records) for s in range(players)]
    by_seat = [wilson(seat_wins[s], n) for s in range(players)]
    rates = [b["rate"] for b in by_seat]
    policies: dict[str, list[float]] = {}
    for r in records:
        for seat in r["seats"]:
            policies.setdefault(seat["policy"], []).append(seat["win"])
    by_policy = {name: wilson(sum(w), len(w)) for name, w in sorted(policies.items())}
    points = {src: mean_ci([seat["points"][i] for r in records for seat in r["seats"]])
              for i, src in enumerate(SOURCES)}
    trades = {}
    for card in TRADE_CARDS:
        plays, wins, players_of = 0, 0.0, 0
        for r in records:
            seats = {seat for name, seat in r["trades"] if name == card}
            plays += sum(1 for name, _ in r["trades"] if name == card)
            # each player of the card counts once per game (a card may come round again after a
            # reshuffle), with his share of the win, as in the seat and policy rates
            players_of += len(seats)
            wins += sum(r["seats"][seat]["win"] for seat in seats)
        trades[card] = {"plays": plays, "per_game": _r(plays / n), "players": players_of,
                        "player_won": wilson(wins, players_of)}
    king_rounds = sum(r["king_rounds"] for r in records)
    reasons: dict[str, int] = {}
    for r in records:
        for k, v in r["reasons"].items():
            reasons[k] = reasons.get(k, 0) + v
    all_rounds = sum(reasons.values())
    scores = [seat["score"] for r in records for seat in r["seats"]]
    win_scores = [max(s["score"] for s in r["seats"]) for r in records]
    margins = []
    for r in records:
        ranked = sorted((s["score"] for s in r["seats"]), reverse=True)
        margins.append(ranked[0] - ranked[1])
    loops = [r for r in records if r["max_no_king_streak"] >= 3]
    exploit = [r for r in famines if r["famine_winner"]]
    fair = 1.0 / players
    gap = (max(rates) - min(rates)) if n else 0.0
    summary = {
        "games": n,
        "players": players,
        "policies": list(spec.policies),
        "seed": spec.seed,
        "rules": spec.rules.as_dict(),
        "changed_rules": list(spec.rules.changed),
        "ends": {e: {"count": ends[e], **wilson(ends[e], n)} for e in ENDS},
        "length": {**mean_ci(rounds), "median": median(rounds), "p10": percentile(rounds, 0.1),
                   "p90": percentile(rounds, 0.9), "min": min(rounds), "max": max(rounds),
                   "histogram": histogram(rounds)},
        "famine_round": {**mean_ci([r["rounds"] for r in famines]),
                         "histogram": histogram([r["rounds"] for r in famines])},
        "scores": {"all": mean_ci(scores), "winner": mean_ci(win_scores), "margin": mean_ci(margins),
                   "histogram": binned(scores),
                   "by_seat": [mean_ci([r["seats"][s]["score"] for r in records]) for s in range(players)]},
        "win_rate_by_seat": by_seat,
        "win_rate_by_policy": by_policy,
        "balance": {
            "fair_share": _r(fair),
            "seat_gap": _r(gap),
            "first_seat_advantage": _r((rates[0] - fair)) if n else None,
            "first_seat": by_seat[0],
            "dealt_calendar_seat": records[0]["dealt_calendar_seat"] + 1 if n else None,
            "dealt_calendar_seat_win": wilson(sum(r["seats"][r["dealt_calendar_seat"]]["win"] for r in records), n),
            "lead_changes": mean_ci([r["lead_changes"] for r in records]),
            "decisiveness": mean_ci([r["clear_round"] / max(1, r["rounds"]) for r in records]),
        },
        "points_by_source": points,
        "trade_cards": trades,
        "priest_king": {
            "rounds_with_king": wilson(king_rounds, sum(rounds)),
            "could_not_build": wilson(sum(r["no_build"] for r in records),
                                      sum(r["build_rounds"] for r in records)),
        },
        "bid_results": {k: {"count": v, **wilson(v, all_rounds)} for k, v in sorted(reasons.items())},
        "rule_holes": {
            "timeouts": wilson(n - ends["famine"], n),
            "stalemates": wilson(ends["stalemate"], n),
            "stalls": wilson(ends["stall"], n),
            "round_limit": wilson(ends["timeout"], n),
            "kingless_runs": {**wilson(len(loops), n),
                              "longest": max((r["max_no_king_streak"] for r in records), default=0)},
            "famine_by_eventual_winner": {**wilson(len(exploit), len(famines)),
                                          "games": len(exploit)},
            "famine_penalty_decisive": wilson(sum(1 for r in famines if r["famine_decisive"]), len(famines)),
        },
    }
    summary["findings"] = findings(summary)
    summary["warning"] = cutoff_warning(summary)
    return summary


def how_games_ended(counts: dict[str, int]) -> str:
    """'all 10000 games ended at the stalemate cut-off', or the count of each end."""
    n = sum(counts.values())
    ends = [e for e in ENDS if counts.get(e)]
    if len(ends) == 1:
        return f"all {n} games ended {ENDED[ends[0]]}"
    return "games ended " + ", ".join(f"{ENDED[e]}: {counts[e]}" for e in ends)


def cutoff_warning(s: dict) -> str | None:
    """A warning when most games were stopped by the simulator instead of ending by the rules."""
    n = s["games"]
    cut = sum(s["ends"][e]["count"] for e in CUTOFFS)
    if 2 * cut <= n:
        return None
    return (f"WARNING: {cut} of {n} games ({_pct(cut / n)}) did not end by the rules: the simulator stopped "
            f"them (stalemate {s['ends']['stalemate']['count']}, stalled {s['ends']['stall']['count']}, "
            f"round limit {s['ends']['timeout']['count']}). Game length, scores and win rates describe "
            "where these games were cut off, not finished games: players who cannot feed the people "
            "stop bidding (a bid of no cards is always allowed), so nobody takes the famine.")


def _pct(x) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def findings(s: dict) -> list[str]:
    """Plain sentences on what a designer most needs to know: rule holes first."""
    out = []
    holes, n = s["rule_holes"], s["games"]
    famine = s["ends"]["famine"]
    if famine["count"] < n:
        out.append(f"{_pct(holes['timeouts']['rate'])} of games never ended in a famine "
                   f"(stalemate {s['ends']['stalemate']['count']}, stalled {s['ends']['stall']['count']}, "
                   f"round limit {s['ends']['timeout']['count']}). Bidding no cards is always allowed, so "
                   "players who cannot feed simply stop bidding; once Population passes the largest "
                   "Farm the deck allows, only Maize feeds and only a chosen famine can end the game.")
    loops = holes["kingless_runs"]
    if loops["n"] and loops["rate"]:
        out.append(f"{_pct(loops['rate'])} of games had 3 or more rounds in a row without a Priest King "
                   f"(longest run {loops['longest']}): no Farm, Build or Cycle happens, hands grow past "
                   "the limit and Population keeps rising.")
    ex = holes["famine_by_eventual_winner"]
    if ex["n"] and ex["games"]:
        out.append(f"In {ex['games']} of {ex['n']} famines ({_pct(ex['rate'])}) the starving Priest King "
                   "still won: a leader far enough ahead can win the bid with a hand that cannot feed "
                   "and end the game on purpose.")
    dec = holes["famine_penalty_decisive"]
    if dec["n"]:
        out.append(f"The famine penalty changed the winner in {_pct(dec['rate'])} of famines.")
    bal = s["balance"]
    out.append(f"Seat win rates span {_pct(bal['seat_gap'])} (fair share {_pct(bal['fair_share'])}); "
               f"seat 1, first to act, wins {_pct(bal['first_seat']['rate'])} "
               f"[{_pct(bal['first_seat']['low'])}, {_pct(bal['first_seat']['high'])}].")
    pk = s["priest_king"]["could_not_build"]
    if pk["n"]:
        out.append(f"The Priest King could not build in {_pct(pk['rate'])} of his rounds.")
    trades = s["trade_cards"]
    swing = [(c, t["player_won"]) for c, t in trades.items() if t["players"] >= 30 and t["player_won"]["rate"] is not None]
    fair = bal["fair_share"]
    for card, w in swing:
        if w["low"] > fair + 0.1:
            out.append(f"Players of {card} won {_pct(w['rate'])} of their games "
                       f"[{_pct(w['low'])}, {_pct(w['high'])}], well above the fair share.")
    return out


COMPARE_KEYS = (
    ("Game length (rounds)", ("length", "mean")),
    ("Famine ends the game", ("ends", "famine", "rate")),
    ("Never ends in famine", ("rule_holes", "timeouts", "rate")),
    ("Famine round", ("famine_round", "mean")),
    ("Seat win-rate gap", ("balance", "seat_gap")),
    ("Seat 1 win rate", ("balance", "first_seat", "rate")),
    ("Lead changes", ("balance", "lead_changes", "mean")),
    ("Winner clear from (share of game)", ("balance", "decisiveness", "mean")),
    ("Winning score", ("scores", "winner", "mean")),
    ("Winning margin", ("scores", "margin", "mean")),
    ("Priest King could not build", ("priest_king", "could_not_build", "rate")),
    ("Rounds with a Priest King", ("priest_king", "rounds_with_king", "rate")),
    ("Famine by the eventual winner", ("rule_holes", "famine_by_eventual_winner", "rate")),
)


def _dig(data, path):
    for key in path:
        if data is None:
            return None
        data = data.get(key)
    return data


def compare(base: dict, variant: dict) -> list[dict]:
    """Side-by-side rows of the main figures of two runs on the same seeds."""
    rows = []
    for label, path in COMPARE_KEYS:
        a, b = _dig(base, path), _dig(variant, path)
        rows.append({"figure": label, "baseline": a, "variant": b,
                     "difference": _r(b - a) if a is not None and b is not None else None})
    for name in base["win_rate_by_policy"]:
        a = base["win_rate_by_policy"][name]["rate"]
        b = variant["win_rate_by_policy"].get(name, {}).get("rate")
        rows.append({"figure": f"Win rate of {name}", "baseline": a, "variant": b,
                     "difference": _r(b - a) if a is not None and b is not None else None})
    return rows
