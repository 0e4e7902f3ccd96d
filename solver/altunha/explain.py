"""Human-readable text for plans, answers and play checks (no OR-Tools, no click)."""

from __future__ import annotations

from typing import Sequence

from solver.altunha.cards import GOD, Deck, load_deck
from solver.altunha.reasons import card_text, points_text
from solver.altunha.rules import BUILT, FAMINE, CardPlacement, Rules, TurnPlan, temples_after

__all__ = ["play_text", "points_text", "temple_lines", "reason_lines", "answer_lines", "report_lines"]


def play_text(plan: TurnPlan, deck: Deck | None = None) -> str:
    """A plan in the ``--play`` syntax, e.g. ``farm Sun God; build Stage@1, Stairs@1``."""
    deck = deck or load_deck()
    farm = ", ".join(plan.farm) if plan.farm else "none"
    build = ", ".join(_placement_text(p, deck) for p in plan.build) or "none"
    return f"farm {farm}; build {build}"


def _placement_text(p: CardPlacement, deck: Deck) -> str:
    god = deck.kind_of(p.card) == GOD
    return f"{p.card}={p.value}@{p.temple}" if god else f"{p.card}@{p.temple}"


def _stack(top: int, first_new: int | None) -> str:
    return "".join(f"[{v}{'*' if first_new is not None and v >= first_new else ''}]"
                   for v in range(1, top + 1))


def temple_lines(plan: TurnPlan, temples: Sequence[int]) -> list[str]:
    """Temples before and after, as stacks of stages; new cards marked with *."""
    after = temples_after(temples, plan.build) if plan.outcome == BUILT else list(temples)
    if not after:
        return ["Temples: none on the table"]
    first_new = {}
    for p in plan.build:
        first_new.setdefault(p.temple, p.value)
    before_cells = [_stack(t, None) for t in temples]
    width = max([len("before")] + [len(c) for c in before_cells]) + 2
    lines = [f"Temples  {'before':<{width}}after"]
    for i, top in enumerate(after, start=1):
        before = before_cells[i - 1] if i <= len(temples) else "-"
        lines.append(f"  {i:<6} {before:<{width}}{_stack(top, first_new.get(i))}")
    return lines


def reason_lines(reasons: dict) -> list[str]:
    """A play's reasons (:func:`solver.altunha.reasons.plan_reasons`) as the Farm, Build and Total lines."""
    lines = [f"Farm:   {reasons['farm']['text']}"]
    steps = reasons["build"]["steps"]
    if steps:
        lines += [f"{'Build: ' if i == 1 else '       '} {i}. {s['text']}" for i, s in enumerate(steps, start=1)]
        if len(steps) > 1:
            lines.append(f"Total:  {reasons['total']}")
    elif reasons["build"]["text"]:
        lines.append(f"Build:  {reasons['build']['text']}")
    return lines


def answer_lines(answer, deck: Deck, data: dict) -> list[str]:
    """The full explanation of a :class:`solver.altunha.solve.Answer` and its reasons (``data``, from
    :func:`solver.altunha.turn_answer.answer`)."""
    from solver.altunha.turn_answer import deciding_lines, rulings_lines

    q, plan = answer.question, answer.plan
    hand = ", ".join(card_text(n, deck, q.rules) for n in q.hand) or "(empty: nothing to farm with)"
    lines = [f"Hand: {hand}",
             f"Population {q.population}; temple tops: {', '.join(map(str, q.temples)) or 'none'}"
             + ("; you have played a Trade card this round" if q.traded else ""),
             ""]
    if data["reasons"]["farm"].get("empty"):
        lines.append(f"Nothing to farm with: the hand is empty. A Priest King with no card to feed the people "
                     f"suffers a famine ({points_text(plan.points)}).")
    else:
        lines.append(f"Best play: {points_text(plan.points)} ({plan.outcome.replace('_', ' ')})")
    lines += ["  " + line for line in reason_lines(data["reasons"])]
    if plan.outcome != FAMINE:
        lines.append(f"  (as --play: \"{play_text(plan, deck)}\")")
    lines += [""] + temple_lines(plan, q.temples) + [""]
    if data["why_not"]:
        lines.append(data["why_not"]["text"])
    if data.get("equal_text"):
        lines.append(data["equal_text"])
    lines += deciding_lines(data["rulings"]) + rulings_lines(data["rulings"])
    if data["rule_numbers_changed"]:
        lines.append("Rule numbers changed: " + ", ".join(f"{k}={v}" for k, v in data["rule_numbers_changed"].items())
                     + ".")
    return lines


def report_lines(report, q, deck: Deck, data: dict) -> list[str]:
    """The verdict on a proposed play (a :class:`solver.altunha.solve.PlayReport`), beside the best play."""
    best = report.best
    lines = []
    if not report.check.legal:
        lines.append(f"Illegal play: {report.check.reason}.")
        if data.get("ruling"):
            r = data["ruling"]
            lines.append(f"The ruling that decides it is {r['name']}={r['value']} ({r['label']}): with "
                         f"{r['name']}={r['legal_with']} the play would be legal.")
        if data.get("nearest_words"):
            lines.append(f"Nearest legal play, the best with your Farm: {data['nearest_words']}: "
                         f"{points_text(report.nearest.points)}.")
    else:
        plan = report.check.plan
        lines.append(f"Legal play: {points_text(plan.points)} ({plan.outcome.replace('_', ' ')})")
        lines.append(f"Your play: {data['play_words']}")
        lines += ["  " + line for line in reason_lines(data["play_reasons"])]
    lines.append(f"Best play: {data['best_words']}")
    lines += ["  " + line for line in reason_lines(data["best_reasons"])]
    if report.check.legal:
        plan = report.check.plan
        if report.optimal and report.gap == 0 and report.check.plan != best:
            lines.append(f"{data['compare']}: both are optimal by the rules. The solver shows the other first by "
                         f"the preference {data['preference']['name']} (a preference, not a rule).")
        elif report.optimal:
            lines.append(f"{data['compare']}: it is an optimal play.")
        else:
            lines.append(f"{data['compare']}.")
            nearest = report.nearest
            if nearest is not None and nearest.points > plan.points:
                lines.append(f"With your Farm, the best is {data['nearest_words']}: {points_text(nearest.points)}.")
    lines.append(f"(as --play: \"{play_text(best, deck)}\")")
    return lines
