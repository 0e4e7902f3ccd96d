"""The Farm and Build question answered in full: the best play with its reasons, the best play with
another Farm beside it, the preference that orders plays of equal points, the playtest rulings the
answer read (and those that decide it, each tried the other way), and a proposed play judged
against the best.  Both :func:`answer` and :func:`check` return a JSON-able dict with ``lines``
(the command's text) and ``json`` (what ``--json`` prints)."""

from __future__ import annotations

from dataclasses import replace

from solver.altunha.cards import FEED, Deck
from solver.altunha.reasons import (
    TURN_RULINGS,
    compare_text,
    farm_reason,
    feed_name,
    play_words,
    plan_reasons,
    points_text,
    ruling_entry,
)
from solver.altunha.rules import (
    BUILT,
    FAMINE,
    PREFERENCE_FIELDS,
    PREFERENCES,
    RULE_TEXT,
    RULINGS,
    TurnPlan,
    check_play,
    temples_after,
)
from solver.altunha.solve import Question, best_of, explain_question, judge_question


def preference_entry(q: Question, deck: Deck) -> dict:
    """The preference that orders plays of equal points, named as one (never as a rule)."""
    text = PREFERENCES[q.preference].format(feed=feed_name(deck))
    others = [name for name in PREFERENCES if name != q.preference]
    return {"name": q.preference, "text": text, "rule": False, "others": others,
            "note": f"a preference among plays of equal points, not a rule (--prefer {' or '.join(others)} "
                    "for another)"}


def _reason_of(field: str, deck: Deck) -> str:
    return RULE_TEXT[field].format(feed=feed_name(deck))


def _other_rules(q: Question, name: str):
    """(value text, rules) for each other option of a ruling."""
    from kitgen.data.rulings import value_text

    current = value_text(getattr(q.rules, name))
    for value in q.rules.options(name):
        if value != current:
            parsed = value == "true" if isinstance(getattr(q.rules, name), bool) else value
            yield value, q.rules.with_options(**{name: parsed})


def _may_decide(name: str, q: Question, plan: TurnPlan, deck: Deck) -> bool:
    """Whether switching a ruling could change the best points (else it is not tried)."""
    feed_held = any(deck.kind_of(n) == FEED for n in q.hand)
    if name == "feed_alone":
        return False       # the feed card alone leaves the most cards: other cards with it never score more
    if name == "special_is_trade":
        return q.traded and feed_held
    if name == "penalty_if_declined":
        return plan.outcome != FAMINE and plan.points <= 0
    return plan.outcome != FAMINE and len(plan.build) + len(q.hand) - len(plan.farm) >= 2


def turn_rulings(q: Question, deck: Deck) -> tuple[str, ...]:
    """The rulings that bear on this Farm and Build question: chaining and the cost of building nothing
    always; Maize's rulings only when the hand holds it (special_is_trade only after a Trade card)."""
    feed_held = any(deck.kind_of(n) == FEED for n in q.hand)
    return tuple(name for name in TURN_RULINGS
                 if name in ("chain", "penalty_if_declined") or (feed_held and name == "feed_alone")
                 or (feed_held and q.traded and name == "special_is_trade"))


def rulings_entry(q: Question, deck: Deck, plan: TurnPlan) -> dict:
    """The rulings a turn's answer read (each with the best points under its other options, where those
    differ: then it decides the answer) and those the question does not use."""
    used = []
    names = turn_rulings(q, deck)
    for name in names:
        entry = ruling_entry(q.rules, name)
        entry["other"], entry["decides"] = [], False
        if _may_decide(name, q, plan, deck):
            for value, rules in _other_rules(q, name):
                other = best_of(replace(q, rules=rules), deck)
                entry["other"].append({"value": value, "points": other.points})
                entry["decides"] |= other.points != plan.points
        used.append(entry)
    return {"used": used, "not_used": _not_used(q.rules, names)}


def _not_used(rules, used_names) -> list[dict]:
    from solver.altunha.rules import Rules

    game = Rules.from_game() if rules.rulings else None
    out = []
    for name in RULINGS:
        if name in used_names:
            continue
        entry = ruling_entry(rules, name)
        entry["changed"] = game is not None and getattr(game, name) != getattr(rules, name)
        out.append(entry)
    return sorted(out, key=lambda e: e["number"])


def numbers_changed(rules, names) -> dict:
    """The rule numbers a question reads that differ from the game's."""
    from solver.altunha.rules import Rules

    game = Rules.from_game()
    return {n: getattr(rules, n) for n in names if getattr(rules, n) != getattr(game, n)}


def deciding_lines(rulings: dict) -> list[str]:
    """The rulings that decide a turn's answer, each with the best points under its other options."""
    lines = []
    for e in rulings["used"]:
        if e["decides"]:
            others = "; ".join(f"with {e['name']}={o['value']} the best play scores {points_text(o['points'])}"
                               for o in e["other"])
            lines.append(f"This answer rests on {e['name']}={e['value']} ({e['label']}): {others}.")
    return lines


def rulings_lines(rulings: dict) -> list[str]:
    """The rulings an answer read, and the ones the question does not use (a changed one among them changes
    nothing here)."""
    used = ", ".join(f"{e['number']} {e['name']}={e['value']}" for e in sorted(rulings["used"], key=lambda e: e["number"]))
    lines = [f"Rulings used: {used}."]
    changed = [f"{e['name']}={e['value']}" for e in rulings["not_used"] if e.get("changed")]
    rest = ", ".join(str(e["number"]) for e in rulings["not_used"])
    if rest:
        lines.append(f"Not used by this question: rulings {rest}"
                     + (f" (so {', '.join(changed)} change{'s' if len(changed) == 1 else ''} nothing here)"
                        if changed else "") + ".")
    return lines


def why_not_entry(answer, q: Question, deck: Deck) -> dict | None:
    """The best play with another Farm, side by side with the best: both sums, both totals."""
    plan, other = answer.plan, answer.other_farm
    if other is None:
        if plan.outcome == FAMINE:
            return None
        only = " + ".join(plan.farm)
        return {"play": None, "text": f"No other Farm feeds Population {q.population}: {only} is the only one."}
    mine = plan_reasons(other, q.hand, q.population, q.temples, q.rules, deck, q.feed_allowed)
    farm = farm_reason(other, q.hand, q.population, q.rules, deck, q.feed_allowed)
    left = list(q.hand)
    for name in other.farm:
        left.remove(name)
    build = mine["build"]["text"] or "nothing"
    if not other.build:                  # "Unable to build: ..." inside a sentence
        build = build[:1].lower() + build[1:]
    field = answer.decided_by
    if other.points < plan.points:
        text = f"Why not farm {' + '.join(other.farm)}? {farm['text']}, but it leaves " \
               f"{', '.join(left) or 'no card'}: {build}. {compare_text(other.points, plan.points)}."
        kind = "rule"
    else:
        kind = "preference" if field in PREFERENCE_FIELDS else "tie-break"
        pref = preference_entry(q, deck)
        because = f"the preference {pref['name']} ({_reason_of(field, deck)})" if kind == "preference" else \
            f"a tie-break ({_reason_of(field, deck)})"
        text = f"Farm {' + '.join(other.farm)} ({farm['text']}) also scores {points_text(other.points)}, " \
               f"leaving {', '.join(left) or 'no card'}: {build}. Both are optimal by the rules; {because} " \
               "puts the best play above first: a preference, not a rule."
    return {"play": other.to_json(), "words": play_words(other, q.temples, deck), "points": other.points,
            "best_points": plan.points, "decided_by": field, "kind": kind, "reasons": mine, "text": text}


def answer(q: Question, deck: Deck) -> dict:
    """The best Farm and Build with everything that explains it (see the module's docstring)."""
    from solver.altunha.explain import answer_lines, play_text
    from solver.altunha.questions import TURN_NUMBERS

    a = explain_question(q, deck)
    plan = a.plan
    reasons = plan_reasons(plan, q.hand, q.population, q.temples, q.rules, deck, q.feed_allowed)
    why_not = why_not_entry(a, q, deck)
    rulings = rulings_entry(q, deck, plan)
    preference = preference_entry(q, deck)
    after = temples_after(q.temples, plan.build) if plan.outcome == BUILT else list(q.temples)
    data = {**plan.to_json(), "optimal": True, "optimal_plays": a.optimal_count, "preference": preference,
            "reasons": reasons, "why_not": why_not, "rulings": rulings,
            "rule_numbers_changed": numbers_changed(q.rules, TURN_NUMBERS),
            "words": play_words(plan, q.temples, deck), "temples_after": after}
    if a.optimal_count > 1:
        data["equal_text"] = (
            f"{a.optimal_count} plays score {points_text(plan.points)}: all are optimal by the rules (--all lists "
            f"them). This one is shown first by the preference {preference['name']}: {preference['text']} "
            "(a preference, not a rule).")
    lines = answer_lines(a, deck, data)
    return {
        "question": {"hand": list(q.hand), "population": q.population, "temples": list(q.temples),
                     "prefer": q.preference, "traded": q.traded},
        "best": [play_text(plan, deck)], "plan": plan.to_json(), "play": play_text(plan, deck),
        **{k: data[k] for k in ("words", "reasons", "why_not", "rulings", "preference", "optimal_plays",
                                "temples_after")},
        "equal_text": data.get("equal_text"), "lines": lines, "json": data,
    }


def _ruling_for(q: Question, farm, build, deck: Deck) -> dict | None:
    """A ruling under whose other option an illegal play would be legal: the ruling that decides it."""
    for name in turn_rulings(q, deck):
        for value, rules in _other_rules(q, name):
            other = replace(q, rules=rules)
            if check_play(q.hand, q.population, q.temples, farm, build, rules, deck, other.feed_allowed).legal:
                return {**ruling_entry(q.rules, name), "legal_with": value}
    return None


def check(q: Question, play: str, deck: Deck) -> dict:
    """A proposed play judged: legal or not and why (naming the ruling that decides it), its points beside
    the best play's, and the nearest legal play (the best with the same Farm)."""
    from solver.altunha.explain import report_lines
    from solver.altunha.parse import parse_play

    farm, build = parse_play(play, q.hand, q.temples, deck)
    report = judge_question(q, farm, build, deck)
    best = report.best
    best_reasons = plan_reasons(best, q.hand, q.population, q.temples, q.rules, deck, q.feed_allowed)
    data = {**report.to_json(), "best_reasons": best_reasons, "best_words": play_words(best, q.temples, deck),
            "preference": preference_entry(q, deck)}
    if report.check.legal:
        mine = plan_reasons(report.check.plan, q.hand, q.population, q.temples, q.rules, deck, q.feed_allowed)
        data["play_reasons"], data["play_words"] = mine, play_words(report.check.plan, q.temples, deck)
        data["compare"] = compare_text(report.check.plan.points, best.points)
        data["ruling"] = None
    else:
        data["ruling"] = _ruling_for(q, farm, build, deck)
    if report.nearest is not None:
        data["nearest_words"] = play_words(report.nearest, q.temples, deck)
        data["nearest_reasons"] = plan_reasons(report.nearest, q.hand, q.population, q.temples, q.rules, deck,
                                               q.feed_allowed)
    lines = report_lines(report, q, deck, data)
    return {**data, "lines": lines}

