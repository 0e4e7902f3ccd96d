"""Why a turn's answer is what it is, as data and as sentences that show their numbers (no OR-Tools).

* :func:`farm_reason`: the Farm's sum against the Population, or what feeds alone, or for a famine
  the best Farm total that falls short (or that the hand holds nothing to farm with);
* :func:`build_reasons`: each Build card with the temple top it goes on and the points it adds,
  or why nothing could be laid;
* :func:`plan_reasons`: both, with the total, for one play;
* :func:`compare_text`: two plays side by side ("+4 against +7");
* :func:`ruling_entry`: a playtest ruling as the rulebook names it, with the value played.

Every text here names cards and temples in words (``Stage (3) on temple 1, topped by a 2``),
never in the ``--play`` syntax.
"""

from __future__ import annotations

from typing import Sequence

from solver.altunha.cards import FEED, GOD, Deck
from solver.altunha.rules import BUILT, DECLINED, FAMINE, UNABLE, CardPlacement, Rules, TurnPlan, worth

# the rulings a Farm and Build question reads (the others do not bear on it)
TURN_RULINGS = ("feed_alone", "chain", "penalty_if_declined", "special_is_trade")


def points_text(points: int) -> str:
    return f"{points:+d} point{'s' if abs(points) != 1 else ''}"


def signed(points: int) -> str:
    return f"{points:+d}"


def card_text(name: str, deck: Deck, rules: Rules) -> str:
    """A card with what it is worth when farming: "Stage (3)", "Sun God (God, 7)", "Maize"."""
    card = deck[name]
    if card.type == "god":
        return f"{name} (God, {rules.god_value})"
    if card.type == "bid":
        return f"{name} ({card.value})"
    return name


def value_text(value) -> str:
    from kitgen.data.rulings import value_text as text

    return text(value)


def ruling_entry(rules: Rules, name: str) -> dict:
    """A ruling as data: its switch, its number and title as the rulebook prints them, the value played."""
    ruling = rules.ruling(name)
    return {"name": name, "number": ruling.number if ruling else 0, "title": ruling.title if ruling else name,
            "value": value_text(getattr(rules, name)), "label": rules.label(name)}


def feed_name(deck: Deck) -> str:
    """The name of the card that feeds alone (Maize), for the texts that mention it."""
    feeders = deck.with_effect("feed")
    return feeders[0].name if feeders else "the card that feeds alone"


def _sum_parts(names: Sequence[str], deck: Deck, rules: Rules, population: int) -> tuple[str, str, int]:
    """(the cards with their values, the sum against the Population, the total)."""
    values = [worth(deck.kind_of(n), rules) for n in names]
    total = sum(values)
    cards = " + ".join(card_text(n, deck, rules) for n in names)
    arithmetic = f"{' + '.join(map(str, values))} = {total}" if len(values) > 1 else str(total)
    sign = ">=" if total >= population else "<"
    return cards, f"{arithmetic} {sign} Population {population}", total


def _sum_text(names: Sequence[str], deck: Deck, rules: Rules, population: int) -> tuple[str, int]:
    cards, arithmetic, total = _sum_parts(names, deck, rules, population)
    return f"{cards}: {arithmetic}", total


def farm_reason(plan: TurnPlan, hand: Sequence[str], population: int, rules: Rules, deck: Deck,
                feed_allowed: bool = True) -> dict:
    """The Farm of a play: what it discards and why that feeds the people (or, on famine, why nothing does)."""
    if plan.outcome == FAMINE:
        return famine_reason(hand, population, rules, deck, feed_allowed)
    feeders = [n for n in plan.farm if deck.kind_of(n) == FEED]
    if feeders:
        others = [n for n in plan.farm if n not in feeders]
        text = f"{feeders[0]} pays any amount: it feeds Population {population}"
        if others:
            text += f"; {' + '.join(others)} go{'es' if len(others) == 1 else ''} with it and add nothing " \
                    f"({rules.label('feed_alone')})"
        return {"kind": "feed", "cards": [{"card": n} for n in plan.farm], "population": population, "text": text}
    text, total = _sum_text(plan.farm, deck, rules, population)
    return {"kind": "cards", "population": population, "total": total, "text": text,
            "cards": [{"card": n, "value": worth(deck.kind_of(n), rules)} for n in plan.farm]}


def famine_reason(hand: Sequence[str], population: int, rules: Rules, deck: Deck, feed_allowed: bool = True) -> dict:
    """Why no Farm feeds the people: the best Farm total and how far it falls short, in numbers."""
    loss = f"Famine: the game ends, and the Priest King loses {rules.famine_penalty} points."
    feeder = next((n for n in hand if deck.kind_of(n) == FEED), None)
    blocked = ""
    if feeder and not feed_allowed:
        blocked = f" {feeder} cannot feed: you have played a Trade card this round, and using {feeder} counts as " \
                  f"your one Trade card ({rules.label('special_is_trade')})."
    building = sorted((n for n in hand if deck.kind_of(n) == GOD or isinstance(deck.kind_of(n), int)),
                      key=lambda n: -worth(deck.kind_of(n), rules))
    if not hand:
        text = "The hand is empty: there is nothing to farm with."
        return {"kind": "famine", "cards": [], "total": 0, "population": population,
                "text": f"{text} {loss}", "empty": True}
    if not building:
        text = f"The hand holds no Bid or God card to farm with ({', '.join(hand)})."
        return {"kind": "famine", "cards": [], "total": 0, "population": population,
                "text": f"{text}{blocked} {loss}"}
    best = building[:rules.max_farm_cards]
    cards, arithmetic, total = _sum_parts(best, deck, rules, population)
    count = {2: "two", 3: "three", 4: "four"}.get(len(best), str(len(best)))
    most = "only card" if len(building) == 1 else "best card" if len(best) == 1 else f"best {count} cards"
    text = f"No Farm feeds the people: the {most}, {cards}, make{'s' if len(best) == 1 else ''} {arithmetic}, " \
           f"{population - total} short.{blocked} {loss}"
    return {"kind": "famine", "population": population, "total": total, "text": text,
            "cards": [{"card": n, "value": worth(deck.kind_of(n), rules)} for n in best]}


def _placement_text(p: CardPlacement, top: int | None, chained: bool, deck: Deck) -> str:
    god = deck.kind_of(p.card) == GOD
    what = f"{p.card} as {'an' if p.value == 8 else 'a'} {p.value}" if god else f"{p.card} ({p.value})"
    if top is None:
        return f"{what} starts temple {p.temple}"
    where = f"{what} on temple {p.temple}, topped by {'an' if top == 8 else 'a'} {top}"
    return where + (" laid just before" if chained else "")


def build_reasons(plan: TurnPlan, hand: Sequence[str], temples: Sequence[int], rules: Rules, deck: Deck) -> dict:
    """The Build of a play: each card, the top it goes on and the points it adds; or why nothing was laid."""
    if plan.outcome == FAMINE:
        return {"steps": [], "points": plan.points, "text": ""}
    if plan.outcome == BUILT:
        tops, touched, steps = list(temples), set(), []
        for p in plan.build:
            new = p.temple > len(tops)
            top = None if new else tops[p.temple - 1]
            chained = p.temple in touched
            text = f"{_placement_text(p, top, chained, deck)}: +{p.value}"
            if chained:
                text += f" ({rules.label('chain')})"
            steps.append({"card": p.card, "value": p.value, "temple": p.temple, "top": top, "points": p.value,
                          "chained": chained, "text": text})
            if new:
                tops.append(p.value)
            else:
                tops[p.temple - 1] = p.value
            touched.add(p.temple)
        return {"steps": steps, "points": plan.points, "text": "; ".join(s["text"] for s in steps)}
    left = list(hand)
    for name in plan.farm:
        left.remove(name)
    return {"steps": [], "points": plan.points, "text": no_build_text(plan, left, temples, rules, deck)}


def no_build_text(plan: TurnPlan, left: Sequence[str], temples: Sequence[int], rules: Rules, deck: Deck) -> str:
    """Why a Build lays nothing, and what that costs."""
    if plan.outcome == DECLINED:
        could = next(n for n in left if deck.kind_of(n) == GOD or deck.kind_of(n) == 1
                     or (isinstance(deck.kind_of(n), int) and deck.kind_of(n) - 1 in temples))
        cost = f"{signed(plan.points)}: " + (
            f"laying nothing costs {rules.no_build_penalty} even when a card could be laid" if plan.points
            else f"only a Priest King unable to build loses {rules.no_build_penalty}") + \
            f" ({rules.label('penalty_if_declined')})"
        return f"Nothing laid, though {could} could be: {cost}"
    if rules.max_build_cards < 1:
        why = "no card may be laid (max_build_cards = 0)"
    else:
        builders = [n for n in dict.fromkeys(left) if isinstance(deck.kind_of(n), int)]
        tops = ", ".join(map(str, temples)) or "none: no temple stands on the table"
        if not builders:
            why = "the Farm leaves no Bid or God card to lay" if left else "the Farm leaves no card"
        else:
            needs = "; ".join(f"{n} ({deck.kind_of(n)}) needs a temple topped by {'an' if deck.kind_of(n) == 9 else 'a'}"
                              f" {deck.kind_of(n) - 1}" for n in builders)
            why = f"{needs}; the temple tops are {tops}, and no value-1 card or God is left to start a temple"
    return f"Unable to build: {why}. A Priest King unable to build loses {rules.no_build_penalty}: " \
           f"{signed(plan.points)}"


def plan_reasons(plan: TurnPlan, hand: Sequence[str], population: int, temples: Sequence[int], rules: Rules,
                 deck: Deck, feed_allowed: bool = True) -> dict:
    """A play's reasons: its Farm, its Build, its total, and one sentence with every number."""
    farm = farm_reason(plan, hand, population, rules, deck, feed_allowed)
    build = build_reasons(plan, hand, temples, rules, deck)
    if plan.outcome == FAMINE:
        total, text = f"{signed(plan.points)}", farm["text"]
    else:
        values = [s["points"] for s in build["steps"]]
        total = f"{' + '.join(map(str, values))} = {signed(plan.points)}" if len(values) > 1 else signed(plan.points)
        text = f"Farm {farm['text']}. Build: {build['text']}" + ("." if not build["text"].endswith(".") else "")
        if len(values) > 1:
            text += f" Total {total}."
    return {"farm": farm, "build": build, "total": total, "points": plan.points, "text": text}


def farm_words(plan: TurnPlan, deck: Deck) -> str:
    """A play's Farm in words: "Stage + Stairs", "Maize", "nothing (famine)"."""
    return " + ".join(plan.farm) if plan.farm else "nothing (famine)"


def play_words(plan: TurnPlan, temples: Sequence[int], deck: Deck) -> str:
    """A play in words: "farm Sun God; build Stage on temple 1, Stairs on temple 2"."""
    if plan.outcome == FAMINE:
        return "no Farm is possible: famine"
    tops, parts = list(temples), []
    for p in plan.build:
        god = deck.kind_of(p.card) == GOD
        what = f"{p.card} as {'an' if p.value == 8 else 'a'} {p.value}" if god else p.card
        if p.temple > len(tops):
            parts.append(f"{what} starting temple {p.temple}")
            tops.append(p.value)
        else:
            parts.append(f"{what} on temple {p.temple}")
            tops[p.temple - 1] = p.value
    return f"farm {farm_words(plan, deck)}; build {', '.join(parts) or 'nothing'}"


def compare_text(mine: int, best: int) -> str:
    """Two plays' points side by side: "+4 against +7: 3 points less"."""
    if mine == best:
        return f"{signed(mine)} against {signed(best)}: as many points"
    gap = best - mine
    return f"{signed(mine)} against {signed(best)}: {gap} point{'s' if gap != 1 else ''} less"
