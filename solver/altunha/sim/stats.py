"""Balance figures from game records: rates with Wilson intervals, means with normal intervals,
and findings written from those figures.

Everything here is computed from the ordered records alone (no timings), so
the same games give byte-identical ``balance.json``.  Every finding is a
sentence built from the figures it quotes; none names a cause the records do
not show.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter

from solver.altunha.sim.engine import ENDS

Z = 1.959963984540054  # 95 %
ENDED = {"famine": "in a famine", "empty_deck": "when the deck and discard pile ran out",
         "cap": "stopped at the round cap"}
BID_REASONS = {"jade": "", "highest": "the highest bid",   # jade: named after the card (the deck's win_bid card)
               "next_lower": "a lower bid after a tie", "fewer_points": "fewer points after a tie",
               "double_tie": None, "no_bids": None}
NOBODY = {"double_tie": "nobody: tied on points too", "no_bids": "nobody: no card bid"}
MIN_PLAYERS = 30   # a Trade card's win rate is judged only from this many players of it


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
    m = statistics.fmean(values)
    sd = statistics.stdev(values) if n > 1 else 0.0
    half = Z * sd / math.sqrt(n)
    return {"mean": _r(m), "low": _r(m - half), "high": _r(m + half), "sd": _r(sd), "n": n}


def _r(x: float) -> float:
    return round(x, 4)


def histogram(values: list[int]) -> dict[str, int]:
    counts = Counter(values)
    return {str(k): counts[k] for k in sorted(counts)}


def binned(values: list[int], width: int = 5) -> dict[str, int]:
    counts = Counter(v // width * width for v in values)
    return {f"{k}..{k + width - 1}": counts[k] for k in sorted(counts)}


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0 < q < 1, in hundredths), interpolated between the closest ranks."""
    if len(values) < 2:
        return _r(values[0]) if values else 0
    return _r(statistics.quantiles(values, n=100, method="inclusive")[round(q * 100) - 1])


def _share(scores: list[float], seat: int) -> float:
    top = max(scores)
    winners = [s for s in scores if s == top]
    return 1.0 / len(winners) if scores[seat] == top else 0.0


def _trade_cards(records: list[dict], sources: list[str], cards: list[tuple[str, str]]) -> dict:
    """Plays of each Trade card and its players' win rate, with the card's own points undone too."""
    n = len(records)
    out = {}
    for card, source in cards:
        plays, wins, wins_without, players_of = 0, 0.0, 0.0, 0
        index = sources.index(source) if source in sources else None
        for r in records:
            seats = {seat for name, seat in r["trades"] if name == card}
            if not seats:
                continue
            plays += sum(1 for name, _ in r["trades"] if name == card)
            # each player of the card counts once per game (a card may come round again after a
            # reshuffle), with his share of the win, as in the seat and policy rates
            players_of += len(seats)
            wins += sum(r["seats"][seat]["win"] for seat in seats)
            if index is not None:
                without = [s["score"] - s["points"][index] for s in r["seats"]]
                wins_without += sum(_share(without, seat) for seat in seats)
        entry = {"plays": plays, "per_game": _r(plays / n), "players": players_of,
                 "player_won": wilson(wins, players_of)}
        if index is not None:
            entry["player_won_without_its_points"] = wilson(wins_without, players_of)
        out[card] = entry
    return out


def summarize(records: list[dict], spec) -> dict:
    """Every figure of the balance report, as plain JSON-ready data."""
    setup = spec.setup
    n = len(records)
    players = spec.players
    sources = list(setup.sources)
    rounds = [r["rounds"] for r in records]
    ends = Counter(r["end"] for r in records)
    famines = [r for r in records if r["end"] == "famine"]
    capped = [r for r in records if r["end"] == "cap"]
    seat_wins = [sum(r["seats"][s]["win"] for r in records) for s in range(players)]
    by_seat = [wilson(seat_wins[s], n) for s in range(players)]
    rates = [b["rate"] for b in by_seat]
    policies: dict[str, list[float]] = {}
    for r in records:
        for seat in r["seats"]:
            policies.setdefault(seat["policy"], []).append(seat["win"])
    by_policy = {name: wilson(sum(w), len(w)) for name, w in sorted(policies.items())}
    points = {src: mean_ci([seat["points"][i] for r in records for seat in r["seats"]])
              for i, src in enumerate(sources)}
    from solver.altunha.cards import POINT_EFFECTS, fold

    cards = [(c.name, fold(c.name) if c.effect in POINT_EFFECTS else "") for c in setup.deck.trade_cards]
    reasons: Counter = Counter()
    for r in records:
        reasons.update(r["reasons"])
    all_rounds = sum(rounds)
    king_rounds = sum(r["king_rounds"] for r in records)
    build_rounds = sum(r["build_rounds"] for r in records)
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
    cap_rounds = sum(r["rounds"] for r in capped)
    empty_famines = sum(1 for r in famines if r["famine_empty_bid"])
    summary = {
        "games": n,
        "players": players,
        "policies": list(spec.policies),
        "seed": spec.seed,
        "rules": setup.as_dict(),
        "changed_rules": list(setup.changed),
        "round_cap": setup.round_cap,
        "ends": {e: {"count": ends[e], **wilson(ends[e], n)} for e in ENDS},
        "length": {**mean_ci(rounds), "median": statistics.median(rounds), "p10": percentile(rounds, 0.1),
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
        "sources": sources,
        "points_by_source": points,
        "trade_cards": _trade_cards(records, sources, cards),
        "priest_king": {
            "rounds_with_king": wilson(king_rounds, all_rounds),
            "could_not_build": wilson(sum(r["no_build"] for r in records), build_rounds),
            "declined_to_build": wilson(sum(r["declined"] for r in records), build_rounds),
        },
        "bid_results": {k: {"count": reasons[k], **wilson(reasons[k], all_rounds), "label": _reason_label(k, setup)}
                        for k in (*BID_REASONS, *sorted(set(reasons) - set(BID_REASONS))) if k in reasons},
        "bids": {
            "every_bid_empty": wilson(sum(r["empty_rounds"] for r in records), all_rounds),
        },
        "famines": {
            "games": len(famines),
            "won_with_no_cards": {**wilson(empty_famines, len(famines)), "games": empty_famines},
            "by_eventual_winner": {**wilson(len(exploit), len(famines)), "games": len(exploit)},
            "penalty_decisive": wilson(sum(1 for r in famines if r["famine_decisive"]), len(famines)),
            "margin_before_penalty": mean_ci([r["famine_margin"] for r in famines]),
            "winner_margin": mean_ci([r["famine_margin"] for r in exploit]),
        },
        "kingless_runs": {**wilson(len(loops), n), "games": len(loops),
                          "longest": max((r["max_no_king_streak"] for r in records), default=0)},
        "at_cap": {
            "games": len(capped),
            "every_bid_empty": wilson(sum(r["empty_rounds"] for r in capped), cap_rounds),
            "no_king": wilson(cap_rounds - sum(r["king_rounds"] for r in capped), cap_rounds),
        },
    }
    summary["findings"] = findings(summary)
    summary["warning"] = cap_warning(summary)
    return summary


def _reason_label(reason: str, setup) -> str:
    if reason == "jade":
        return " or ".join(c.name for c in setup.deck.with_effect("win_bid")) or "the card that wins the bid"
    return BID_REASONS.get(reason) or NOBODY.get(reason, reason)


def how_games_ended(counts: dict[str, int]) -> str:
    """'all 10000 games ended in a famine', or the count of each end."""
    n = sum(counts.values())
    ends = [e for e in ENDS if counts.get(e)]
    if len(ends) == 1:
        return f"all {n} games ended {ENDED[ends[0]]}" if ends[0] != "cap" else \
            f"all {n} games were {ENDED['cap']}"
    return "games ended " + ", ".join(f"{ENDED[e]}: {counts[e]}" for e in ends)


def _pct(x) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def _ci(w: dict) -> str:
    return f"{_pct(w['rate'])} [{_pct(w['low'])}, {_pct(w['high'])}]"


def _of(k: float, n: int) -> str:
    return f"{k:,} of {n:,}"


def _cap_sentence(s: dict) -> str:
    cap, at = s["ends"]["cap"], s["at_cap"]
    return (f"{_of(cap['count'], s['games'])} games ({_pct(cap['rate'])}) were stopped at the round cap of "
            f"{s['round_cap']} rounds, a safeguard of the simulator and not an end the rules name; in those "
            f"games every player bid no cards in {_pct(at['every_bid_empty']['rate'])} of rounds and nobody "
            f"became Priest King in {_pct(at['no_king']['rate'])}.")


def cap_warning(s: dict) -> str | None:
    """A warning when most games were stopped by the simulator's round cap instead of ending by the rules."""
    n, cap = s["games"], s["ends"]["cap"]["count"]
    if 2 * cap <= n:
        return None
    return ("WARNING: " + _cap_sentence(s) + " Game length, scores and win rates describe where these games "
            "were stopped, not finished games.")


def findings(s: dict) -> list[str]:
    """Plain sentences, each built from the figures it quotes: how games ended first."""
    out = []
    n, ends, length = s["games"], s["ends"], s["length"]
    fam = s["famines"]
    if ends["famine"]["count"]:
        fr = s["famine_round"]
        out.append(f"{_of(ends['famine']['count'], n)} games ({_pct(ends['famine']['rate'])}) ended in a famine, "
                   f"in round {fr['mean']:.1f} on average (rounds {min(map(int, fr['histogram']))} to "
                   f"{max(map(int, fr['histogram']))}); games lasted a median of {length['median']:g} rounds "
                   f"(10th to 90th percentile {length['p10']:g} to {length['p90']:g}).")
    else:
        out.append(f"None of the {n:,} games ended in a famine.")
    if ends["empty_deck"]["count"]:
        out.append(f"{_of(ends['empty_deck']['count'], n)} games ({_pct(ends['empty_deck']['rate'])}) ended "
                   "when a draw found the deck and the discard pile empty (the empty_deck_ends ruling).")
    if ends["cap"]["count"]:
        out.append(_cap_sentence(s))
    if fam["games"]:
        empty = fam["won_with_no_cards"]
        out.append(f"In {_of(empty['games'], fam['games'])} famines ({_pct(empty['rate'])}) "
                   "the starving Priest King had won the bid with a bid of no cards.")
        ex = fam["by_eventual_winner"]
        if ex["games"]:
            out.append(f"In {_of(ex['games'], fam['games'])} famines ({_pct(ex['rate'])}) the starving Priest "
                       f"King still won the game: before his penalty he led the best other score by "
                       f"{fam['winner_margin']['mean']:.1f} points on average in those games.")
        dec = fam["penalty_decisive"]
        out.append(f"The famine penalty changed the winner in {_pct(dec['rate'])} of famines.")
    results, rounds = s["bid_results"], sum(v["count"] for v in s["bid_results"].values())
    if rounds:
        won = [f"{results[k]['label']} {_pct(results[k]['rate'])}" for k, text in BID_REASONS.items()
               if text is not None and k in results]
        nobody = sum(results[k]["count"] for k in ("double_tie", "no_bids") if k in results)
        empty = s["bids"]["every_bid_empty"]
        out.append(f"Of {rounds:,} rounds, the Priest King won with " + ", ".join(won)
                   + f"; nobody became Priest King in {_pct(nobody / rounds)}. Every player bid no cards in "
                   f"{_pct(empty['rate'])} of rounds.")
    loops = s["kingless_runs"]
    if loops["rate"]:
        out.append(f"{_of(loops['games'], n)} games ({_pct(loops['rate'])}) had 3 or more rounds in a "
                   f"row without a Priest King (longest run {loops['longest']}).")
    bal = s["balance"]
    first = bal["first_seat"]
    if first["rate"] is not None:
        fair = bal["fair_share"]
        where = "above the fair share" if first["low"] > fair else "below the fair share" \
            if first["high"] < fair else "an interval that holds the fair share"
        out.append(f"Seat win rates span {_pct(bal['seat_gap'])} (fair share {_pct(fair)}); seat 1, first to "
                   f"act, wins {_ci(first)}, {where}.")
    pk = s["priest_king"]
    if pk["could_not_build"]["n"]:
        out.append(f"The Priest King had no card he could lay in {_pct(pk['could_not_build']['rate'])} of his "
                   f"Builds and laid nothing by choice in {_pct(pk['declined_to_build']['rate'])}.")
    fair = bal["fair_share"]
    for card, t in s["trade_cards"].items():
        if t["players"] < MIN_PLAYERS:
            continue
        won = t["player_won"]
        without = t.get("player_won_without_its_points", won)
        if without["low"] is not None and without["low"] > fair:
            tail = (f"and still {_ci(without)} with the points the card gave or took undone"
                    if "player_won_without_its_points" in t else "and the card moves no points itself")
            out.append(f"Players of {card} won {_ci(won)} of their games against a fair share of {_pct(fair)}, "
                       f"{tail} ({t['players']:,} players).")
    return out


COMPARE_KEYS = (
    ("Game length (rounds)", ("length", "mean")),
    ("Game length, median", ("length", "median")),
    ("Famine ends the game", ("ends", "famine", "rate")),
    ("Stopped at the round cap", ("ends", "cap", "rate")),
    ("Famine round", ("famine_round", "mean")),
    ("Every player bid no cards (rounds)", ("bids", "every_bid_empty", "rate")),
    ("Seat win-rate gap", ("balance", "seat_gap")),
    ("Seat 1 win rate", ("balance", "first_seat", "rate")),
    ("Lead changes", ("balance", "lead_changes", "mean")),
    ("Winner clear from (share of game)", ("balance", "decisiveness", "mean")),
    ("Winning score", ("scores", "winner", "mean")),
    ("Winning margin", ("scores", "margin", "mean")),
    ("Priest King could not build", ("priest_king", "could_not_build", "rate")),
    ("Rounds with a Priest King", ("priest_king", "rounds_with_king", "rate")),
    ("Famine by the eventual winner", ("famines", "by_eventual_winner", "rate")),
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
