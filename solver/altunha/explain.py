"""Human-readable text for plans, answers and play checks (no OR-Tools, no click)."""

from __future__ import annotations

from typing import Sequence

from kitgen.data.rulings import value_text
from solver.altunha.cards import GOD, Deck, load_deck
from solver.altunha.rules import BUILT, DECLINED, FAMINE, RULE_TEXT, CardPlacement, Rules, TurnPlan, temples_after


def play_text(plan: TurnPlan, deck: Deck | None = None) -> str:
    """A plan in the ``--play`` syntax, e.g. ``farm Sun God; build Stage@1, Stairs@1``."""
    deck = deck or load_deck()
    farm = ", ".join(plan.farm) if plan.farm else "none"
    build = ", ".join(_placement_text(p, deck) for p in plan.build) or "none"
    return f"farm {farm}; build {build}"


def _placement_text(p: CardPlacement, deck: Deck) -> str:
    god = deck.kind_of(p.card) == GOD
    return f"{p.card}={p.value}@{p.temple}" if god else f"{p.card}@{p.temple}"


def _card(name: str, deck: Deck, rules: Rules) -> str:
    card = deck[name]
    if card.type == "god":
        return f"{name} (God)"
    if card.type == "bid":
        return f"{name} ({card.value})"
    return name


def farm_lines(plan: TurnPlan, population: int, rules: Rules, deck: Deck) -> list[str]:
    if plan.outcome == FAMINE:
        return [f"Farm:   no Farm is possible: famine, the game ends ({plan.points} points)"]
    if len(plan.farm) == 1 and deck[plan.farm[0]].type == "trade":
        return [f"Farm:   discard {plan.farm[0]} (pays any amount)"]
    values = [rules.god_value if deck[n].type == "god" else deck[n].value for n in plan.farm]
    names = " + ".join(_card(n, deck, rules) for n in plan.farm)
    return [f"Farm:   discard {names}: {sum(values)} >= Population {population}"]


def build_lines(plan: TurnPlan, temples: Sequence[int], deck: Deck) -> list[str]:
    if plan.outcome == FAMINE:
        return []
    if plan.outcome == DECLINED:
        return [f"Build:  nothing laid, though a card could be ({plan.points} points)"]
    if not plan.build:
        return [f"Build:  nothing can be placed ({plan.points} points)"]
    lines, tops = [], list(temples)
    for i, p in enumerate(plan.build, start=1):
        label = "Build: " if i == 1 else "       "
        article = "an" if p.value == 8 else "a"
        as_value = f" as {article} {p.value}" if deck.kind_of(p.card) == GOD else f" ({p.value})"
        if p.temple > len(tops):
            where = f"starts new temple {p.temple}"
            tops.append(p.value)
        else:
            where = f"on temple {p.temple} (top {tops[p.temple - 1]})"
            tops[p.temple - 1] = p.value
        lines.append(f"{label} {i}. {p.card}{as_value} {where}")
    return lines


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


def plan_lines(plan: TurnPlan, population: int, temples: Sequence[int], rules: Rules,
               deck: Deck | None = None) -> list[str]:
    deck = deck or load_deck()
    return farm_lines(plan, population, rules, deck) + build_lines(plan, temples, deck)


def points_text(points: int) -> str:
    return f"{points:+d} point{'s' if abs(points) != 1 else ''}"


def answer_lines(answer, deck: Deck | None = None) -> list[str]:
    """The full explanation of a :class:`solver.altunha.solve.Answer`."""
    deck = deck or load_deck()
    q, plan = answer.question, answer.plan
    hand = ", ".join(_card(n, deck, q.rules) for n in q.hand) or "(empty)"
    lines = [f"Hand: {hand}",
             f"Population {q.population}; temple tops: "
             f"{', '.join(map(str, q.temples)) or 'none'}",
             "",
             f"Best play: {points_text(plan.points)} ({plan.outcome.replace('_', ' ')})"]
    lines += ["  " + line for line in plan_lines(plan, q.population, q.temples, q.rules, deck)]
    lines += [""] + temple_lines(plan, q.temples) + [""]
    if answer.runner_up is None:
        lines.append("Why: it is the only possible play.")
    else:
        runner = answer.runner_up
        lines.append(f"Next best: {points_text(runner.points)}: {play_text(runner, deck)}")
        lines.append(f"Why: {RULE_TEXT[answer.decided_by]}.")
    changed = [f"{name}={value_text(getattr(q.rules, name))}" for name, value in
               Rules.from_game().as_dict().items() if getattr(q.rules, name) != value]
    if changed:
        lines.append(f"(rules changed: {', '.join(changed)})")
    return lines


def report_lines(report, population: int, temples: Sequence[int], rules: Rules,
                 deck: Deck | None = None) -> list[str]:
    """The verdict on a proposed play (a :class:`solver.altunha.solve.PlayReport`)."""
    deck = deck or load_deck()
    best = report.best
    if not report.check.legal:
        lines = [f"Illegal play: {report.check.reason}."]
    else:
        plan = report.check.plan
        lines = [f"Legal play: {points_text(plan.points)} ({plan.outcome.replace('_', ' ')})"]
        lines += ["  " + line for line in plan_lines(plan, population, temples, rules, deck)]
        if report.optimal:
            lines.append("It is an optimal play.")
        elif report.gap:
            lines.append(f"It scores {report.gap} point{'s' if report.gap != 1 else ''} "
                         f"less than the best play.")
        else:
            lines.append("It scores as much as the best play, but spends more on Farm.")
    lines.append(f"Best play ({points_text(best.points)}): {play_text(best, deck)}")
    return lines
