"""Balance figures of any engine from game records: rates with Wilson intervals, means with normal
intervals, findings written from those figures, and the engine's own section merged in.

A record (see :func:`solver.simulation.runner.record`) holds what every game has: its rounds,
how it ended, each seat's policy, score and share of the win, the lead changes, and the
engine's own ``figures``.  :func:`summarize` turns the records of a run into the generic part
of balance.json and adds ``engine_report``, the engine's ``report(records)``.

Everything here is computed from the ordered records alone (no timings), so the same games
give byte-identical ``balance.json``.  Every finding is a sentence built from the figures it
quotes; none names a cause the records do not show.  Policies are compared only as the seats
allow: in a mix, each policy sits in every seat equally often (the runner turns the mix by one
seat from each game to the next).
"""

from __future__ import annotations

import math
import statistics
from collections import Counter

from solver.engine import CAP
from solver.engines import get_engine

Z = 1.959963984540054  # 95 %
CAP_TEXT = "stopped at the round cap"


def r4(x: float) -> float:
    return round(x, 4)


def wilson(successes: float, n: int, z: float = Z) -> dict:
    """A rate with its Wilson score interval (successes may be fractional for shared wins)."""
    if n <= 0:
        return {"rate": None, "low": None, "high": None, "n": 0}
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return {"rate": r4(p), "low": r4(max(0.0, centre - half)), "high": r4(min(1.0, centre + half)), "n": n}


def mean_ci(values: list[float]) -> dict:
    n = len(values)
    if n == 0:
        return {"mean": None, "low": None, "high": None, "sd": None, "n": 0}
    m = statistics.fmean(values)
    sd = statistics.stdev(values) if n > 1 else 0.0
    half = Z * sd / math.sqrt(n)
    return {"mean": r4(m), "low": r4(m - half), "high": r4(m + half), "sd": r4(sd), "n": n}


def histogram(values: list[int]) -> dict[str, int]:
    counts = Counter(values)
    return {str(k): counts[k] for k in sorted(counts)}


NARROW = 10     # scores spanning at most this many points are counted point by point, wider ones in fives


def binned(values: list[float], width: int | None = None) -> dict[str, int]:
    """Counts of values in bins ``"lo..hi"``: of ``width`` points, by default one point when the values span
    at most :data:`NARROW` points (offerings, tricks), else five."""
    if width is None:
        width = 1 if values and max(values) - min(values) <= NARROW else 5
    counts = Counter(int(v // width * width) for v in values)
    return {f"{k}..{k + width - 1}": counts[k] for k in sorted(counts)}


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0 < q < 1, in hundredths), interpolated between the closest ranks."""
    if len(values) < 2:
        return r4(values[0]) if values else 0
    return r4(statistics.quantiles(values, n=100, method="inclusive")[round(q * 100) - 1])


# --- words ------------------------------------------------------------------------------------

def pct(x) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def ci_text(w: dict) -> str:
    return "n/a" if w.get("rate") is None else f"{pct(w['rate'])} [{pct(w['low'])}, {pct(w['high'])}]"


def of_text(k: float, n: int) -> str:
    return f"{k:,} of {n:,}"


def end_words(engine) -> dict[str, str]:
    """Each end the engine's rules know, with the words that follow "ended", then the cap's (the round cap,
    or "the cap" for an engine that also stops games itself: ``Engine.cap_text``)."""
    return {**getattr(engine, "ends", {}), CAP: "stopped at the cap" if hasattr(engine, "cap_text") else CAP_TEXT}


def how_games_ended(counts: dict[str, int], words: dict[str, str]) -> str:
    """'all 10000 games ended in a famine', or the count of each end."""
    n = sum(counts.values())
    ends = [e for e in words if counts.get(e)] + sorted(e for e in counts if counts[e] and e not in words)
    text = {e: words.get(e, e.replace("_", " ")) for e in ends}
    if len(ends) == 1:
        return f"all {n} games ended {text[ends[0]]}" if ends[0] != CAP else f"all {n} games were {text[CAP]}"
    return "games ended " + ", ".join(f"{text[e]}: {counts[e]}" for e in ends)


# --- the summary --------------------------------------------------------------------------------

def summarize(records: list[dict], spec) -> dict:
    """Every figure of the balance report, as plain JSON-ready data: the generic figures, then the
    engine's own section (``engine_report``)."""
    engine = get_engine(spec.engine)
    n = len(records)
    players = spec.players
    rounds = [r["rounds"] for r in records]
    ends = Counter(r["end"] for r in records)
    known = [*getattr(engine, "ends", {}), *sorted(set(ends) - set(getattr(engine, "ends", {})) - {CAP}), CAP]
    seat_wins = [sum(r["seats"][s]["win"] for r in records) for s in range(players)]
    by_seat = [wilson(seat_wins[s], n) for s in range(players)]
    rates = [b["rate"] for b in by_seat]
    policies: dict[str, list[float]] = {}
    for r in records:
        for seat in r["seats"]:
            policies.setdefault(seat["policy"], []).append(seat["win"])
    by_policy = {name: wilson(sum(w), len(w)) for name, w in sorted(policies.items())}
    scores = [seat["score"] for r in records for seat in r["seats"]]
    win_scores = [max(s["score"] for s in r["seats"]) for r in records]
    margins = []
    for r in records:
        ranked = sorted((s["score"] for s in r["seats"]), reverse=True)
        margins.append(ranked[0] - ranked[1])
    fair = 1.0 / players
    gap = (max(rates) - min(rates)) if n else 0.0
    summary = {
        "games": n,
        "players": players,
        "policies": list(spec.policies),
        "seed": spec.seed,
        "engine": spec.engine,
        "rules": engine.rule_values(spec.rules) if hasattr(engine, "rule_values") else {},
        "changed_rules": list(engine.changed_rules(spec.rules)) if hasattr(engine, "changed_rules") else [],
        "round_cap": engine.round_cap(spec.rules),
        **({"cap_text": engine.cap_text(spec.rules)} if hasattr(engine, "cap_text") else {}),
        "seating": "rotated",
        "end_words": {e: end_words(engine).get(e, e.replace("_", " ")) for e in known},
        "ends": {e: {"count": ends[e], **wilson(ends[e], n)} for e in known},
        "length": {**mean_ci(rounds), "median": statistics.median(rounds), "p10": percentile(rounds, 0.1),
                   "p90": percentile(rounds, 0.9), "min": min(rounds), "max": max(rounds),
                   "histogram": histogram(rounds)},
        "scores": {"all": mean_ci(scores), "winner": mean_ci(win_scores), "margin": mean_ci(margins),
                   "histogram": binned(scores),
                   "by_seat": [mean_ci([r["seats"][s]["score"] for r in records]) for s in range(players)]},
        "win_rate_by_seat": by_seat,
        "win_rate_by_policy": by_policy,
        "balance": {
            "fair_share": r4(fair),
            "seat_gap": r4(gap),
            "first_seat_advantage": r4((rates[0] - fair)) if n else None,
            "first_seat": by_seat[0],
            "lead_changes": mean_ci([r["lead_changes"] for r in records]),
            "decisiveness": mean_ci([r["clear_round"] / max(1, r["rounds"]) for r in records]),
        },
    }
    report = engine_section(engine, records)
    summary["findings"] = findings(summary, end_words(engine), report["cap_detail"])
    summary["warning"] = cap_warning(summary, report["cap_detail"])
    summary["engine_report"] = report
    return summary


REPORT_KEYS = ("figures", "key_figures", "tables", "charts", "findings", "compare", "cap_detail")
EMPTY = {"figures": {}, "cap_detail": ""}


def engine_section(engine, records: list[dict]) -> dict:
    """The engine's ``report(records)`` with every key the renderer reads (empty when the engine has none)."""
    report = dict(engine.report(records)) if records else {}
    return {"title": engine.title, **{key: report.get(key, EMPTY.get(key, [])) for key in REPORT_KEYS},
            **{k: v for k, v in report.items() if k not in REPORT_KEYS}}


def _cap_sentence(s: dict, detail: str = "") -> str:
    """How many games the round cap stopped, and the engine's words on what those games were doing."""
    cap = s["ends"][CAP]
    return (f"{of_text(cap['count'], s['games'])} games ({pct(cap['rate'])}) were stopped at {cap_text(s)}, "
            f"a safeguard of the simulator and not an end the rules name{'; ' + detail if detail else ''}.")


def cap_text(s: dict) -> str:
    """The simulator's cap in words: the round cap, or the engine's words when it stops games of its own too
    (``Engine.cap_text``: "100 rounds or 2,000 turns")."""
    return f"the cap of {s['cap_text']}" if s.get("cap_text") else f"the round cap of {s['round_cap']} rounds"


def cap_warning(s: dict, detail: str = "") -> str | None:
    """A warning when most games were stopped by the simulator's round cap instead of ending by the rules."""
    n, cap = s["games"], s["ends"][CAP]["count"]
    if 2 * cap <= n:
        return None
    return ("WARNING: " + _cap_sentence(s, detail) + " Game length, scores and win rates describe where these games "
            "were stopped, not finished games.")


def _against_fair(w: dict, fair: float) -> str:
    return "above the fair share" if w["low"] > fair else "below the fair share" \
        if w["high"] < fair else "an interval that holds the fair share"


def findings(s: dict, words: dict[str, str], cap_detail: str = "") -> list[str]:
    """Plain sentences, each built from the figures it quotes: how games ended, then the seats and policies."""
    out = []
    length = s["length"]
    ends = {e: v["count"] for e, v in s["ends"].items()}
    ended = how_games_ended(ends, words)
    out.append(f"{ended[0].upper()}{ended[1:]}, after a median of "
               f"{length['median']:g} rounds (10th to 90th percentile {length['p10']:g} to {length['p90']:g}).")
    if ends.get(CAP):
        out.append(_cap_sentence(s, cap_detail))
    bal = s["balance"]
    first, fair = bal["first_seat"], bal["fair_share"]
    if first["rate"] is not None:
        out.append(f"Seat win rates span {pct(bal['seat_gap'])} (fair share {pct(fair)}); seat 1, first to "
                   f"act, wins {ci_text(first)}, {_against_fair(first, fair)}.")
    if len(s["win_rate_by_policy"]) > 1:
        parts = [f"{name} {ci_text(w)} of {w['n']:,} seats, {_against_fair(w, fair)}"
                 for name, w in s["win_rate_by_policy"].items() if w["rate"] is not None]
        out.append("Win rates by policy, each policy's seats rotated game by game: " + "; ".join(parts) + ".")
    return out


COMPARE_KEYS = (
    ("Game length (rounds)", ("length", "mean")),
    ("Game length, median", ("length", "median")),
    ("Stopped at the round cap", ("ends", CAP, "rate")),
    ("Seat win-rate gap", ("balance", "seat_gap")),
    ("Seat 1 win rate", ("balance", "first_seat", "rate")),
    ("Lead changes", ("balance", "lead_changes", "mean")),
    ("Winner clear from (share of game)", ("balance", "decisiveness", "mean")),
    ("Winning score", ("scores", "winner", "mean")),
    ("Winning margin", ("scores", "margin", "mean")),
)


def _dig(data, path):
    for key in path:
        if data is None:
            return None
        data = data.get(key)
    return data


def _row(label: str, a, b) -> dict:
    return {"figure": label, "baseline": a, "variant": b,
            "difference": r4(b - a) if a is not None and b is not None else None}


def compare(base: dict, variant: dict) -> list[dict]:
    """Side-by-side rows of the main figures of two runs on the same seeds: each end's share, the generic
    figures, the engine's own comparison rows, each policy's win rate."""
    words = {e: w for e, w in end_words(get_engine(base["engine"])).items() if e != CAP}
    rows = [_row(f"Games ended {words.get(e, e.replace('_', ' '))}", _dig(base, ("ends", e, "rate")),
                 _dig(variant, ("ends", e, "rate"))) for e in base["ends"] if e != CAP]
    rows += [_row(label, _dig(base, path), _dig(variant, path)) for label, path in COMPARE_KEYS]
    theirs = {label: value for label, value in variant["engine_report"]["compare"]}
    rows += [_row(label, value, theirs.get(label)) for label, value in base["engine_report"]["compare"]]
    for name in base["win_rate_by_policy"]:
        rows.append(_row(f"Win rate of {name}", base["win_rate_by_policy"][name]["rate"],
                         variant["win_rate_by_policy"].get(name, {}).get("rate")))
    return rows
