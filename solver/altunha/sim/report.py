"""Altun Ha's own balance figures: each game's figures (famines, bids, Builds, Trade cards, points by
source) and the engine's section of balance.json made from them.

The generic part of the report (how games ended, length, scores, seat and policy win
rates) is the simulator's (:mod:`solver.simulation.stats`); this module adds what only Altun
Ha has, as plain data: figures, key figures, charts, comparison rows and findings, each
finding a sentence built from the figures it quotes.

Findings say what the rules do, not what the players of the run do:

* a Trade card's players are compared with the same policies' players of other Trade cards
  (each policy weighted as among the card's players), not with a flat fair share, since
  the policies that play Trade cards win more or less often whatever the card;
* a card that shows cards (Codex, and Salt besides its draw) is left out when none of its
  players reads what it shows (see :func:`solver.altunha.sim.policies.traits`): its players'
  win rate would judge Codex by nothing it does and Salt by its draw alone;
* famines after a bid of no cards are counted among the players who may bid into a famine:
  greedy and cautious players bid cards only when the hand left feeds the city, so all
  their famines follow a bid of no cards by their own bidding rule, which is said apart.
"""

from __future__ import annotations

import statistics
from collections import Counter
from functools import lru_cache

from solver.simulation.stats import Z, ci_text, histogram, mean_ci, of_text, pct, percentile, r4, wilson

BID_REASONS = {"jade": "", "highest": "the highest bid",   # jade: named after the card (the deck's win_bid card)
               "next_lower": "a lower bid after a tie", "fewer_points": "fewer points after a tie",
               "double_tie": None, "no_bids": None}
NOBODY = {"double_tie": "nobody: tied on points too", "no_bids": "nobody: no card bid"}
MIN_PLAYERS = 30   # a Trade card's win rate is judged only from this many players of it
# effects that show cards, and what a win rate judges of the card when none of its players reads them
SHOWS = {"look": "nothing it does", "draw_and_see_hand": "its draw alone"}
SOURCE_LABELS = {"build": "Building", "no_build": "Not building", "famine": "Famine"}


_LAST: list = [None, None]    # the setup last asked for and its deck figures


def deck_figures(setup) -> dict:
    """What the report needs of a run's deck, the same object for every game of the run (found by the
    setup's identity, without hashing it, as the deck table is)."""
    if _LAST[0] is not setup:
        _LAST[:] = setup, _deck_figures(setup)
    return _LAST[1]


@lru_cache(maxsize=32)
def _deck_figures(setup) -> dict:
    from solver.altunha.cards import POINT_EFFECTS, fold

    return {"sources": list(setup.sources),
            "trade_cards": [[c.name, fold(c.name) if c.effect in POINT_EFFECTS else "", c.effect]
                            for c in setup.deck.trade_cards],
            "win_bid": [c.name for c in setup.deck.with_effect("win_bid")]}


def figures(state) -> dict:
    """Altun Ha's figures of one finished game, by seat (seat 1 holds the Calendar in round 1)."""
    game = state.game
    seat_of = state.seats()
    n = game.n
    player_at = sorted(range(n), key=lambda p: seat_of[p])
    deck = deck_figures(game.setup)
    sources = deck["sources"]
    famine = game.end == "famine"
    decisive = False
    if famine:
        winners = set(game.winners)
        undone = list(game.scores)
        undone[game.famine_by] -= game.points[game.famine_by]["famine"]
        top = max(undone)
        decisive = {p for p, s in enumerate(undone) if s == top} != winners
    return {
        "deck": deck,
        "dealt_calendar_seat": seat_of[game.dealt_calendar],
        "points": [[game.points[p][s] for s in sources] for p in player_at],
        "trades": [(name, seat_of[p]) for name, p in game.trade_plays],
        "king_rounds": game.king_rounds,
        "empty_rounds": game.empty_rounds,
        "no_build": game.no_build,
        "declined": game.declined,
        "build_rounds": game.build_rounds,
        "reasons": dict(sorted(game.reasons.items())),
        "max_no_king_streak": game.max_no_king_streak,
        "famine_seat": seat_of[game.famine_by] if famine else None,
        "famine_margin": game.famine_margin if famine else None,
        "famine_winner": bool(famine and game.famine_by in game.winners),
        "famine_empty_bid": bool(famine and game.famine_empty_bid),
        "famine_decisive": decisive,
        "final_population": game.population,
    }


def _share(scores: list[float], seat: int) -> float:
    top = max(scores)
    winners = [s for s in scores if s == top]
    return 1.0 / len(winners) if scores[seat] == top else 0.0


def _traits(policy: str) -> tuple[bool, bool]:
    from solver.altunha.sim.policies import traits

    return traits(policy)


def _compared(mine: dict[str, list[float]], others: dict[str, list[float]]) -> dict:
    """A card's players against the same policies' players of other Trade cards.

    ``mine`` and ``others`` hold each policy's shares of the win, one a player.  Policies with
    players on both sides count, each weighted by its number of the card's players; the
    difference carries a 95% normal interval (the two sides' binomial variances added)."""
    shared = [p for p in mine if mine[p] and others.get(p)]
    n = sum(len(mine[p]) for p in shared)
    if not n:
        return {"rate": None, "expected": None, "difference": None, "low": None, "high": None, "players": 0,
                "others": 0}
    rate = sum(sum(mine[p]) for p in shared) / n
    expected, variance = 0.0, 0.0
    for p in shared:
        weight = len(mine[p]) / n
        own, theirs = sum(mine[p]) / len(mine[p]), sum(others[p]) / len(others[p])
        expected += weight * theirs
        variance += weight * own * (1 - own) / n + weight ** 2 * theirs * (1 - theirs) / len(others[p])
    half = Z * variance ** 0.5
    diff = rate - expected
    return {"rate": r4(rate), "expected": r4(expected), "difference": r4(diff), "low": r4(diff - half),
            "high": r4(diff + half), "players": n, "others": sum(len(others[p]) for p in shared)}


def _trade_cards(records: list[dict], sources: list[str], cards) -> dict:
    """Plays of each Trade card and its players' win rate, with the card's own points undone too, and
    against the same policies' players of other Trade cards (see :func:`_compared`)."""
    n = len(records)
    players = []     # every player of a Trade card, once a game: (policy, share of the win, cards played)
    for r in records:
        played: dict[int, set] = {}
        for name, seat in r["figures"]["trades"]:
            played.setdefault(seat, set()).add(name)
        players += [(r["seats"][seat]["policy"], r["seats"][seat]["win"], cards_) for seat, cards_ in played.items()]
    out = {}
    for card, source, effect in cards:
        plays, wins, wins_without, players_of = 0, 0.0, 0.0, 0
        index = sources.index(source) if source in sources else None
        for r in records:
            f = r["figures"]
            seats = {seat for name, seat in f["trades"] if name == card}
            if not seats:
                continue
            plays += sum(1 for name, _ in f["trades"] if name == card)
            # each player of the card counts once per game (a card may come round again after a
            # reshuffle), with his share of the win, as in the seat and policy rates
            players_of += len(seats)
            wins += sum(r["seats"][seat]["win"] for seat in seats)
            if index is not None:
                without = [s["score"] - points[index] for s, points in zip(r["seats"], f["points"])]
                wins_without += sum(_share(without, seat) for seat in seats)
        entry = {"plays": plays, "per_game": r4(plays / n), "players": players_of,
                 "player_won": wilson(wins, players_of), "effect": effect}
        if index is not None:
            entry["player_won_without_its_points"] = wilson(wins_without, players_of)
        mine: dict[str, list[float]] = {}
        others: dict[str, list[float]] = {}
        for policy, win, cards_ in players:
            (mine if card in cards_ else others).setdefault(policy, []).append(win)
        entry["against_other_cards"] = _compared(mine, others)
        readers = sorted(p for p in mine if _traits(p)[0])
        entry["policies"] = sorted(mine)
        entry["read_by"] = readers
        entry["left_out"] = effect in SHOWS and not readers
        out[card] = entry
    return out


def _famines(famines: list[dict]) -> dict:
    """Famines after a bid of no cards, among the players who may bid into a famine, and apart the
    famines of players who bid cards only when they can feed (all after a bid of no cards, by that rule)."""
    free, ruled = [], []
    for r in famines:
        policy = r["seats"][r["figures"]["famine_seat"]]["policy"]
        (ruled if _traits(policy)[1] else free).append((policy, r["figures"]["famine_empty_bid"]))
    empty = sum(1 for _, e in free if e)
    return {"won_with_no_cards": {**wilson(empty, len(free)), "games": empty,
                                  "policies": sorted({p for p, _ in free})},
            "bid_only_if_fed": {"games": len(ruled), "no_cards": sum(1 for _, e in ruled if e),
                                "policies": sorted({p for p, _ in ruled})}}


def _reason_label(reason: str, deck: dict) -> str:
    if reason == "jade":
        return " or ".join(deck["win_bid"]) or "the card that wins the bid"
    return BID_REASONS.get(reason) or NOBODY.get(reason, reason)


def report(records: list[dict]) -> dict:
    """Altun Ha's section of balance.json."""
    n = len(records)
    deck = records[0]["figures"]["deck"]
    sources = list(deck["sources"])
    fig = [r["figures"] for r in records]
    players = len(records[0]["seats"])
    famines = [r for r in records if r["end"] == "famine"]
    capped = [r for r in records if r["end"] == "cap"]
    reasons: Counter = Counter()
    for f in fig:
        reasons.update(f["reasons"])
    all_rounds = sum(r["rounds"] for r in records)
    king_rounds = sum(f["king_rounds"] for f in fig)
    build_rounds = sum(f["build_rounds"] for f in fig)
    loops = [f for f in fig if f["max_no_king_streak"] >= 3]
    exploit = [r for r in famines if r["figures"]["famine_winner"]]
    cap_rounds = sum(r["rounds"] for r in capped)
    dealt = fig[0]["dealt_calendar_seat"]
    figures_ = {
        "famine_round": {**mean_ci([r["rounds"] for r in famines]),
                         "histogram": histogram([r["rounds"] for r in famines])},
        "dealt_calendar_seat": dealt + 1,
        "dealt_calendar_seat_win": wilson(sum(r["seats"][r["figures"]["dealt_calendar_seat"]]["win"]
                                              for r in records), n),
        "sources": sources,
        "points_by_source": {src: mean_ci([points[i] for f in fig for points in f["points"]])
                             for i, src in enumerate(sources)},
        "trade_cards": _trade_cards(records, sources, deck["trade_cards"]),
        "priest_king": {
            "rounds_with_king": wilson(king_rounds, all_rounds),
            "could_not_build": wilson(sum(f["no_build"] for f in fig), build_rounds),
            "declined_to_build": wilson(sum(f["declined"] for f in fig), build_rounds),
        },
        "bid_results": {k: {"count": reasons[k], **wilson(reasons[k], all_rounds), "label": _reason_label(k, deck)}
                        for k in (*BID_REASONS, *sorted(set(reasons) - set(BID_REASONS))) if k in reasons},
        "bids": {
            "every_bid_empty": wilson(sum(f["empty_rounds"] for f in fig), all_rounds),
        },
        "famines": {
            "games": len(famines),
            **_famines(famines),
            "by_eventual_winner": {**wilson(len(exploit), len(famines)), "games": len(exploit)},
            "penalty_decisive": wilson(sum(1 for r in famines if r["figures"]["famine_decisive"]), len(famines)),
            "margin_before_penalty": mean_ci([r["figures"]["famine_margin"] for r in famines]),
            "winner_margin": mean_ci([r["figures"]["famine_margin"] for r in exploit]),
        },
        "kingless_runs": {**wilson(len(loops), n), "games": len(loops),
                          "longest": max((f["max_no_king_streak"] for f in fig), default=0)},
        "at_cap": {
            "games": len(capped),
            "every_bid_empty": wilson(sum(r["figures"]["empty_rounds"] for r in capped), cap_rounds),
            "no_king": wilson(cap_rounds - sum(r["figures"]["king_rounds"] for r in capped), cap_rounds),
        },
    }
    at = figures_["at_cap"]
    cap_detail = (f"in those games every player bid no cards in {pct(at['every_bid_empty']['rate'])} of rounds and "
                  f"nobody became Priest King in {pct(at['no_king']['rate'])}") if capped else ""
    return {"figures": figures_, "findings": findings(figures_, records, players), "cap_detail": cap_detail,
            "key_figures": key_figures(figures_), "charts": charts(figures_, players),
            "compare": compare_rows(figures_), "tables": []}


def findings(f: dict, records: list[dict], players: int) -> list[str]:
    """Plain sentences, each built from the figures it quotes: how games ended first."""
    out = []
    n = len(records)
    rounds = [r["rounds"] for r in records]
    ends = Counter(r["end"] for r in records)
    fam = f["famines"]
    if ends["famine"]:
        fr = f["famine_round"]
        out.append(f"{of_text(ends['famine'], n)} games ({pct(r4(ends['famine'] / n))}) ended in a famine, "
                   f"in round {fr['mean']:.1f} on average (rounds {min(map(int, fr['histogram']))} to "
                   f"{max(map(int, fr['histogram']))}); games lasted a median of {statistics.median(rounds):g} "
                   f"rounds (10th to 90th percentile {percentile(rounds, 0.1):g} to {percentile(rounds, 0.9):g}).")
    else:
        out.append(f"None of the {n:,} games ended in a famine.")
    if ends["empty_deck"]:
        out.append(f"{of_text(ends['empty_deck'], n)} games ({pct(r4(ends['empty_deck'] / n))}) ended "
                   "when a draw found the deck and the discard pile empty (the empty_deck_ends ruling).")
    if fam["games"]:
        empty, ruled = fam["won_with_no_cards"], fam["bid_only_if_fed"]
        if empty["n"]:
            out.append(f"Of the {empty['n']:,} famines of {_names(empty['policies'])} players, who may bid into a "
                       f"famine, {empty['games']:,} ({pct(empty['rate'])}) followed a bid of no cards by the starving "
                       "Priest King.")
        if ruled["games"]:
            who = _names(ruled["policies"])
            if ruled["no_cards"] == ruled["games"]:
                all_ = "The only famine" if ruled["games"] == 1 else f"All {ruled['games']:,} famines"
                out.append(f"{all_} of {who} players followed a bid of no cards: these "
                           "players bid cards only when the hand left feeds the city, so this follows from their "
                           "bidding rule, not from the rules of the game.")
            else:
                out.append(f"{of_text(ruled['no_cards'], ruled['games'])} famines of {who} players followed a "
                           "bid of no cards.")
        ex = fam["by_eventual_winner"]
        if ex["games"]:
            out.append(f"In {of_text(ex['games'], fam['games'])} famines ({pct(ex['rate'])}) the starving Priest "
                       f"King still won the game: before his penalty he led the best other score by "
                       f"{fam['winner_margin']['mean']:.1f} points on average in those games.")
        dec = fam["penalty_decisive"]
        out.append(f"The famine penalty changed the winner in {pct(dec['rate'])} of famines.")
    results, rounds_ = f["bid_results"], sum(v["count"] for v in f["bid_results"].values())
    if rounds_:
        won = [f"{results[k]['label']} {pct(results[k]['rate'])}" for k, text in BID_REASONS.items()
               if text is not None and k in results]
        nobody = sum(results[k]["count"] for k in ("double_tie", "no_bids") if k in results)
        empty = f["bids"]["every_bid_empty"]
        out.append(f"Of {rounds_:,} rounds, the Priest King won with " + ", ".join(won)
                   + f"; nobody became Priest King in {pct(nobody / rounds_)}. Every player bid no cards in "
                   f"{pct(empty['rate'])} of rounds.")
    loops = f["kingless_runs"]
    if loops["rate"]:
        out.append(f"{of_text(loops['games'], n)} games ({pct(loops['rate'])}) had 3 or more rounds in a "
                   f"row without a Priest King (longest run {loops['longest']}).")
    pk = f["priest_king"]
    if pk["could_not_build"]["n"]:
        out.append(f"The Priest King had no card he could lay in {pct(pk['could_not_build']['rate'])} of his "
                   f"Builds and laid nothing by choice in {pct(pk['declined_to_build']['rate'])}.")
    left_out = []
    for card, t in f["trade_cards"].items():
        if t["left_out"]:
            if t["players"]:
                left_out.append((card, SHOWS[t["effect"]]))
            continue
        c = t["against_other_cards"]
        if c["players"] < MIN_PLAYERS or c["low"] is None or c["low"] <= 0 <= c["high"]:
            continue
        tail = ""
        if "player_won_without_its_points" in t:
            tail = f"; with the points the card gave or took undone, {pct(t['player_won_without_its_points']['rate'])}"
        out.append(f"Players of {card} won {pct(c['rate'])} of their games, against {pct(c['expected'])} for "
                   f"the same policies playing other Trade cards: a difference of {_points(c['difference'])} "
                   f"points [{_points(c['low'])}, {_points(c['high'])}] ({c['players']:,} players{tail}).")
    if left_out:
        one = len(left_out) == 1
        out.append(f"{_names([c for c, _ in left_out])} {'is' if one else 'are'} left out of the Trade card "
                   f"findings: none of these players reads the cards {'it shows' if one else 'they show'}, so a "
                   f"win rate would judge {_names([f'{c} by {what}' for c, what in left_out])}.")
    return out


def _names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1] if names else "no"


def _points(x: float) -> str:
    return f"{100 * x:+.1f}"


def _mean_text(m: dict) -> str:
    return "n/a" if m.get("mean") is None else f"{m['mean']:.1f} [{m['low']:.1f}, {m['high']:.1f}]"


def key_figures(f: dict) -> list[list[str]]:
    fam, pk = f["famines"], f["priest_king"]
    return [
        ["Famine round (famine games)", _mean_text(f["famine_round"])],
        [f"Seat dealt the Calendar (seat {f['dealt_calendar_seat']}) win rate", ci_text(f["dealt_calendar_seat_win"])],
        ["Rounds with a Priest King", ci_text(pk["rounds_with_king"])],
        ["Rounds where every player bid no cards", ci_text(f["bids"]["every_bid_empty"])],
        ["Priest King had no card to lay / laid none by choice",
         f"{ci_text(pk['could_not_build'])} / {ci_text(pk['declined_to_build'])}"],
        ["Famines after a bid of no cards (players who may bid into one)", ci_text(fam["won_with_no_cards"])],
        ["Famine by the eventual winner", ci_text(fam["by_eventual_winner"])],
        ["Famine penalty changed the winner", ci_text(fam["penalty_decisive"])],
        ["Games with 3+ rounds in a row without a Priest King", ci_text(f["kingless_runs"])],
    ]


def compare_rows(f: dict) -> list[list]:
    return [
        ["Famine round", f["famine_round"]["mean"]],
        ["Every player bid no cards (rounds)", f["bids"]["every_bid_empty"]["rate"]],
        ["Priest King could not build", f["priest_king"]["could_not_build"]["rate"]],
        ["Rounds with a Priest King", f["priest_king"]["rounds_with_king"]["rate"]],
        ["Famine by the eventual winner", f["famines"]["by_eventual_winner"]["rate"]],
    ]


def _source_label(source: str, f: dict) -> str:
    names = {name.casefold(): name for name in f["trade_cards"]}
    return SOURCE_LABELS.get(source) or names.get(source, source.replace("_", " ").capitalize())


def charts(f: dict, players: int) -> list[dict]:
    """The report's charts of Altun Ha's figures, as data for kitgen's renderer."""
    sources, pts, trades, bids = f["sources"], f["points_by_source"], f["trade_cards"], f["bid_results"]
    cards, reasons = list(trades), list(bids)
    judged = [c for c in cards if not trades[c]["left_out"]]
    won = [trades[c]["player_won"] for c in judged]
    without = [trades[c].get("player_won_without_its_points", trades[c]["player_won"]) for c in judged]
    others = [trades[c]["against_other_cards"]["expected"] for c in judged]
    pk = f["priest_king"]
    king = pk["rounds_with_king"]
    return [
        {"kind": "histogram", "title": "Round of the famine", "counts": f["famine_round"]["histogram"] or {"0": 0},
         "xlabel": "round"},
        {"kind": "bars", "title": "Points by source (mean per player per game)",
         "labels": [_source_label(x, f) for x in sources], "series": [["points", [pts[x]["mean"] for x in sources]]],
         "horizontal": True, "low": [pts[x]["low"] for x in sources], "high": [pts[x]["high"] for x in sources]},
        {"kind": "bars", "title": "How the Priest King was decided", "labels": [bids[r].get("label", r) for r in reasons],
         "series": [["rounds", [bids[r]["rate"] for r in reasons]]], "horizontal": True, "percent": True,
         "note": "share of all rounds"},
        {"kind": "bars", "title": "Trade cards played per game", "labels": cards,
         "series": [["plays", [trades[c]["per_game"] for c in cards]]], "horizontal": True},
        {"kind": "bars", "title": "Win rate of a Trade card's players", "labels": judged,
         "series": [["as played", [w["rate"] for w in won]],
                    ["same policies, other Trade cards", others],
                    ["card's own points undone", [w["rate"] for w in without]]],
         "horizontal": True, "percent": True},
        {"kind": "bars", "title": "Priest King rounds", "labels": ["no card to lay", "laid none by choice",
                                                                   "no Priest King"],
         "series": [["share", [pk["could_not_build"]["rate"] or 0, pk["declined_to_build"]["rate"] or 0,
                               1 - (king["rate"] or 0)]]], "percent": True,
         "low": [pk["could_not_build"]["low"], pk["declined_to_build"]["low"],
                 None if king["high"] is None else 1 - king["high"]],
         "high": [pk["could_not_build"]["high"], pk["declined_to_build"]["high"],
                  None if king["low"] is None else 1 - king["low"]],
         "note": "first two: of his Builds; last: of all rounds"},
    ]
