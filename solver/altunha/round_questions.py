"""The round's other disputes as questions: who wins the bid, who wins the game and what a tie gives,
and when each Trade card may be played and what it does.

Each answer is a JSON-able dict with ``lines`` (the command's text) and ``json``; each walks the
rules step by step with the numbers, names the playtest rulings it read as the rulebook prints
them, gives the answer under each other option of those rulings (``under``; for the bid, under
every combination of them, ``by_rulings``), and lists the rulings the question does not use.
Players are numbered from 1, clockwise, as they sit."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import product
from typing import Sequence

from kitgen.data.rulings import value_text
from kitgen.errors import KitgenError, OptionError
from solver.altunha.cards import GOD, Deck
from solver.altunha.parse import GOD_WORD, parse_card
from solver.altunha.reasons import ruling_entry
from solver.altunha.rules import (
    RULINGS,
    Rules,
    bid_levels,
    bid_problem,
    final_winners,
    lose_points,
    resolve_bids,
    worth,
)

BID_RULINGS = ("tie_drop", "points_decide", "empty_bid")
END_RULINGS = ("end_tie", "negative_scores")
MAX_SCORE = 100_000


# --- reading the questions -------------------------------------------------------------------

@dataclass(frozen=True)
class Bids:
    """The bid question: each player's bid cards, who reveals the card that wins the bid, the points."""

    cards: tuple[tuple[str, ...], ...]
    jades: tuple[int, ...]            # players (from 0) who reveal the card that wins the bid
    jade_names: tuple[str, ...]       # the card each of them reveals
    scores: tuple[int, ...]
    traders: tuple[int, ...]          # players (from 0) who played a Trade card this round
    rules: Rules
    deck: Deck

    def totals(self, rules: Rules | None = None) -> list[int]:
        rules = rules or self.rules
        return [sum(worth(self.deck.kind_of(n), rules) for n in cards) for cards in self.cards]

    @property
    def sizes(self) -> list[int]:
        return [len(cards) for cards in self.cards]


@dataclass(frozen=True)
class Ending:
    """The end question: the points before the end, the Priest King who cannot feed (None when the deck
    ran out), the Calendar holder (players from 0)."""

    scores: tuple[int, ...]
    king: int | None
    calendar: int
    rules: Rules
    deck: Deck


@dataclass(frozen=True)
class TradeCards:
    """The Trade card question: the Trade cards asked about."""

    cards: tuple[str, ...]
    rules: Rules
    deck: Deck


def _whole(value, option: str, low: int, high: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise OptionError(option, f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _scores(data: dict, players: int, option: str = "--scores") -> tuple[int, ...]:
    scores = data.get("scores")
    if scores is None:
        return (0,) * players
    if not isinstance(scores, list):
        raise OptionError(option, "give each player's points, separated by commas, e.g. 3,5,2,8")
    if len(scores) != players:
        raise OptionError(option, f"give one score a player: {players} players, {len(scores)} scores")
    return tuple(_whole(s, option, -MAX_SCORE, MAX_SCORE, f"player {i}'s score")
                 for i, s in enumerate(scores, start=1))


def _players_range(players: int, setup, option: str) -> None:
    most = setup.max_players
    if not 2 <= players <= most:
        raise OptionError(option, f"{players} player{'s' if players != 1 else ''}; the game takes 2 to {most}")


def read_bids(data: dict, setup) -> Bids:
    rules, deck = setup.rules, setup.deck
    raw = data.get("bids")
    if raw is None:
        raise OptionError("--bids", "missing: give each player's bid, players separated by ';' and an empty bid for "
                                    "no cards, e.g. --bids 'Stairs,Facade;Platform,Plaza;God;'")
    if not isinstance(raw, list) or not all(isinstance(b, list) and all(isinstance(c, (str, int)) and
                                                                     not isinstance(c, bool) for c in b) for b in raw):
        raise KitgenError('"bids" must be a list of bids, one a player, each a list of card names')
    _players_range(len(raw), setup, "--bids")
    winning = [c.name for c in deck.with_effect("win_bid")]
    cards, jades, jade_names, named, gods = [], [], [], Counter(), []
    for p, bid in enumerate(raw, start=1):
        mine, revealed = [], []
        for item in bid:
            name = parse_card(str(item).strip(), deck, "--bids")
            if name == GOD_WORD:
                gods.append((p, len(mine)))
                mine.append(GOD_WORD)
                continue
            if name in winning:
                revealed.append(name)
            elif deck[name].type == "trade":
                raise OptionError("--bids", f"player {p}: {name} cannot be bid; only Bid and God cards can"
                                            + (f" (and {winning[0]}, revealed with the bid)" if winning else ""))
            else:
                mine.append(name)
            named[name] += 1
        if len(revealed) > 1:
            raise OptionError("--bids", f"player {p} reveals {len(revealed)} {revealed[0]}; one wins the bid")
        cards.append(mine)
        if revealed:
            jades.append(p - 1)
            jade_names.append(revealed[0])
    for name, n in named.items():
        if n > deck[name].count:
            raise OptionError("--bids", f"the bids hold {n} {name} but the deck has only {deck[name].count}")
    free = [g.name for g in deck.gods if not named[g.name]]
    if len(gods) > len(free):
        raise OptionError("--bids", f"the bids hold {len(gods) + len(deck.gods) - len(free)} God cards but the deck "
                                    f"has only {len(deck.gods)}")
    for (p, i), name in zip(gods, free):
        cards[p - 1][i] = name
    for p, mine in enumerate(cards, start=1):
        problem = bid_problem([(n, deck.kind_of(n)) for n in mine], rules)
        if problem:
            raise OptionError("--bids", f"player {p}: {problem}")
    players = len(cards)
    traders = data.get("traders") or []
    if not isinstance(traders, list):
        raise OptionError("--traders", "give the numbers of the players who played a Trade card, e.g. 2,3")
    traders = tuple(sorted({_whole(t, "--traders", 1, players, "a player") - 1 for t in traders}))
    for p, name in zip(jades, jade_names):
        if p in traders and rules.special_is_trade:
            raise OptionError("--bids", f"player {p + 1} cannot reveal {name}: he has played a Trade card this round, "
                                        f"and revealing {name} counts as his one Trade card "
                                        f"({rules.label('special_is_trade')})")
    return Bids(tuple(tuple(c) for c in cards), tuple(jades), tuple(jade_names), _scores(data, players), traders,
                rules, deck)


def read_ending(data: dict, setup) -> Ending:
    rules = setup.rules
    if data.get("scores") is None:
        raise OptionError("--scores", "missing: give each player's points when the game ends, e.g. --scores 12,5,12,9")
    if not isinstance(data["scores"], list):
        raise OptionError("--scores", "give each player's points, separated by commas, e.g. 12,5,12,9")
    players = len(data["scores"])
    _players_range(players, setup, "--scores")
    scores = _scores(data, players)
    king = data.get("king")
    if king is None:
        raise OptionError("--king", f"missing: give the Priest King who cannot feed the people (1 to {players})"
                                    + (", or 0: the deck and the discard pile ran out" if rules.empty_deck_ends else ""))
    king = _whole(king, "--king", 0, players, "the Priest King")
    if king == 0 and not rules.empty_deck_ends:
        raise OptionError("--king", f"0 (the deck and the discard pile ran out) ends the game only under "
                                    f"empty_deck_ends=true ({rules.label('empty_deck_ends')}); give the Priest King "
                                    f"who cannot feed the people (1 to {players})")
    calendar = _whole(data.get("calendar", 1), "--calendar", 1, players, "the Calendar holder")
    return Ending(scores, king - 1 if king else None, calendar - 1, rules, setup.deck)


def read_trade(data: dict, setup) -> TradeCards:
    deck = setup.deck
    raw = data.get("hand")
    if raw is None or raw == []:
        return TradeCards(tuple(c.name for c in deck.trade_cards), setup.rules, deck)
    if not isinstance(raw, list):
        raise KitgenError('"hand" must be a list of card names')
    names = []
    for item in raw:
        name = parse_card(str(item).strip(), deck, "--hand")
        if name == GOD_WORD or deck[name].type != "trade":
            raise OptionError("--hand", f"{item!r} is not a Trade card; the trade question asks about Trade cards "
                                        f"({', '.join(c.name for c in deck.trade_cards)})")
        if name not in names:
            names.append(name)
    return TradeCards(tuple(names), setup.rules, deck)


def read_round(kind: str, data: dict, setup):
    return {"bid": read_bids, "end": read_ending, "trade": read_trade}[kind](data, setup)


# --- helpers -----------------------------------------------------------------------------------

def player(p: int) -> str:
    return f"Player {p + 1}"


def players_text(ps: Sequence[int]) -> str:
    names = [player(p) for p in ps]
    if len(names) == 1:
        return names[0]
    return f"Players {', '.join(str(p + 1) for p in ps[:-1])} and {ps[-1] + 1}"


def _others(rules: Rules, name: str):
    current = value_text(getattr(rules, name))
    for value in rules.options(name):
        if value != current:
            parsed = value == "true" if isinstance(getattr(rules, name), bool) else value
            yield value, rules.with_options(**{name: parsed})


def _rulings(rules: Rules, used: Sequence[str], under: dict[str, list[dict]]) -> dict:
    from solver.altunha.turn_answer import _not_used

    entries = []
    for name in used:
        entry = ruling_entry(rules, name)
        entry["other"] = under.get(name, [])
        entry["decides"] = any(o.get("differs") for o in entry["other"])
        entries.append(entry)
    return {"used": entries, "not_used": _not_used(rules, used)}


def _ruling_lines(rulings: dict) -> list[str]:
    from solver.altunha.turn_answer import rulings_lines

    return rulings_lines(rulings)


def sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


# --- who wins the bid ----------------------------------------------------------------------------

def bid_story(b: Bids, rules: Rules) -> tuple[int | None, str, list[str]]:
    """Who wins the bid, how it was decided (resolve_bids' reason), and the steps, in words with numbers."""
    totals, sizes, scores, jades = b.totals(rules), b.sizes, b.scores, list(b.jades)
    steps: list[str] = []
    jade = b.jade_names[0] if b.jade_names else ""
    if len(jades) == 1:
        steps.append(f"{player(jades[0])} revealed {jade}: {player(jades[0])} wins the bid, whatever the totals.")
        return _checked(b, rules, jades[0], "jade", steps)
    carded = [p for p, n in enumerate(sizes) if n]
    empty = [p for p, n in enumerate(sizes) if not n]
    label = rules.label("empty_bid")
    if jades:
        players = jades
        steps.append(f"{players_text(jades)} revealed {jade}: the bids decide among them alone.")
    elif rules.empty_bid == "counts":
        players = list(range(len(totals)))
        if empty:
            steps.append(f"{players_text(empty)} bid no cards: a total of 0, which counts like any other "
                         f"({label}).")
    elif carded:
        players = carded
        if empty:
            steps.append(f"{players_text(empty)} bid no cards: " + (
                "a bid of no cards never wins" if rules.empty_bid == "never_wins"
                else "a bid of no cards is no bid card, so it is never the next lower bid") + f" ({label}).")
    elif rules.empty_bid == "never_wins":
        steps.append(f"Nobody bid a card, and a bid of no cards never wins ({label}): nobody becomes Priest King; "
                     "the round ends at once and a new round begins.")
        return _checked(b, rules, None, "no_bids", steps)
    else:
        players = list(range(len(totals)))
        steps.append(f"Nobody bid a card: everyone is tied at 0 and no bid card is left, so the player with fewer "
                     f"points wins ({label}).")
    by_total, ordered = bid_levels(players, totals)
    tied = by_total[ordered[0]]
    if len(tied) == 1:
        steps.append(f"{player(tied[0])}'s {ordered[0]} is the highest total: {player(tied[0])} wins the bid.")
        return _checked(b, rules, tied[0], "jade" if jades else "highest", steps)
    steps.append(f"{players_text(tied)} tie for the highest total, {ordered[0]}.")
    if rules.tie_drop:
        steps.append(f"They drop out and the next lower total wins ({rules.label('tie_drop')}).")
        for total in ordered[1:]:
            group = by_total[total]
            if len(group) == 1:
                steps.append(f"The next lower total, {total}, is {player(group[0])}'s alone: "
                             f"{player(group[0])} wins the bid.")
                return _checked(b, rules, group[0], "next_lower", steps)
            steps.append(f"The next lower total, {total}, is tied too ({players_text(group)}): they drop out as well.")
        where = ""
        if rules.points_decide == "lowest_tie":
            tied = by_total[ordered[-1]]
            where = f"the players tied at the lowest total, {ordered[-1]}"
        else:
            where = f"the players tied for the highest total, {ordered[0]}"
        steps.append(f"No lower bid is left: the points decide among {where} ({rules.label('points_decide')}).")
    else:
        steps.append(f"A lower bid never wins: the points decide among them ({rules.label('tie_drop')}).")
    low = min(scores[p] for p in tied)
    fewest = [p for p in tied if scores[p] == low]
    points = ", ".join(f"{player(p)} has {scores[p]} point{'s' if abs(scores[p]) != 1 else ''}" for p in tied)
    if len(fewest) == 1:
        steps.append(f"{points}: {player(fewest[0])} has fewer points and wins the bid.")
        return _checked(b, rules, fewest[0], "fewer_points", steps)
    steps.append(f"{points}: {players_text(fewest)} are still tied, so nobody wins the bid: the round ends at once "
                 "and a new round begins.")
    return _checked(b, rules, None, "double_tie", steps)


def _checked(b: Bids, rules: Rules, winner, reason: str, steps: list[str]):
    """The story's verdict, which must be the rules model's (the simulator's) own."""
    model = resolve_bids(b.totals(rules), b.sizes, b.scores, list(b.jades), rules)
    if model != (winner, reason):
        raise RuntimeError(f"the bid's explanation ({winner}, {reason}) differs from the rules model's {model}")
    return winner, reason, steps


def _bid_words(b: Bids, p: int) -> str:
    cards, deck = b.cards[p], b.deck
    parts = []
    if p in b.jades:
        parts.append(f"reveals {b.jade_names[b.jades.index(p)]}")
    if cards:
        values = [worth(deck.kind_of(n), b.rules) for n in cards]
        shown = " + ".join(f"{n} ({'God, ' if deck.kind_of(n) == GOD else ''}{v})" for n, v in zip(cards, values))
        parts.append(f"{shown} = {sum(values)}" if len(cards) > 1 else f"{shown}")
    else:
        parts.append("no cards = 0")
    return f"{player(p)}: {', '.join(parts)}"


def winner_text(winner: int | None) -> str:
    return f"{player(winner)} wins the bid" if winner is not None else "nobody wins the bid"


def answer_bids(b: Bids, setup) -> dict:
    rules = b.rules
    winner, reason, steps = bid_story(b, rules)
    under, other_lines = {}, []
    for name in BID_RULINGS:
        for value, other in _others(rules, name):
            w, why, _ = bid_story(b, other)
            under.setdefault(name, []).append({"value": value, "winner": None if w is None else w + 1,
                                               "reason": why, "differs": w != winner})
            other_lines.append(f"{name}={value}: {winner_text(w)} ({why.replace('_', ' ')})")
    by_rulings = []
    for combo in product(*(rules.options(n) for n in BID_RULINGS)):
        other = rules.with_options(**{n: (v == "true" if isinstance(getattr(rules, n), bool) else v)
                                      for n, v in zip(BID_RULINGS, combo)})
        w, why, _ = bid_story(b, other)
        by_rulings.append({**dict(zip(BID_RULINGS, combo)), "winner": None if w is None else w + 1, "reason": why})
    used = list(BID_RULINGS)
    if any(p in b.traders for p in b.jades):
        used.append("special_is_trade")
        jade = b.jade_names[0]
        under["special_is_trade"] = [{"value": "true", "differs": True, "winner": None, "reason": "illegal",
                                      "text": f"{players_text([p for p in b.jades if p in b.traders])} could not "
                                              f"reveal {jade} after playing a Trade card"}]
        other_lines.append(f"special_is_trade=true: {under['special_is_trade'][0]['text']}")
    rulings = _rulings(rules, used, under)
    decided = [e for e in rulings["used"] if e["decides"]]
    lines = [f"Bids: {'; '.join(_bid_words(b, p) for p in range(len(b.cards)))}.",
             "Points: " + ", ".join(f"{player(p)} {s}" for p, s in enumerate(b.scores)) + "."]
    lines += steps
    verdict = f"{player(winner)} wins the bid and becomes Priest King." if winner is not None else \
        "Nobody wins the bid: nobody becomes Priest King this round."
    lines.append(verdict)
    for e in decided:
        lines.append(f"This answer rests on {e['name']}={e['value']} ({e['label']}).")
    lines.append("Under the other readings: " + "; ".join(other_lines) + ".")
    lines += _ruling_lines(rulings)
    data = {"question": "bid", "winner": None if winner is None else winner + 1, "reason": reason,
            "totals": b.totals(), "bids": [list(c) for c in b.cards], "jades": [p + 1 for p in b.jades],
            "jade_names": list(b.jade_names),
            "scores": list(b.scores), "steps": steps, "verdict": verdict, "under": under,
            "by_rulings": by_rulings, "rulings": rulings}
    return {**data, "lines": lines, "json": data}


# --- the end of the game ----------------------------------------------------------------------------

def turn_order(calendar: int, players: int) -> list[int]:
    """The Calendar holder, then clockwise (players are numbered clockwise)."""
    return [(calendar + k) % players for k in range(players)]


def end_story(e: Ending, rules: Rules) -> tuple[list[int], list[int], list[str]]:
    """The final scores, the winners and the steps, in words with numbers."""
    scores, steps = list(e.scores), []
    if e.king is None:
        steps.append(f"The deck and the discard pile ran out: the game ends at once ({rules.label('empty_deck_ends')}).")
    else:
        k = e.king
        before = scores[k]
        scores[k] = lose_points(before, rules.famine_penalty, rules)
        steps.append(f"{player(k)}, the Priest King, cannot feed the people: famine, and the game ends at once.")
        if rules.negative_scores or before >= rules.famine_penalty:
            loss = f"{player(k)} loses {rules.famine_penalty}: {before} - {rules.famine_penalty} = {scores[k]}"
            if scores[k] < 0:
                loss += f" (scores can go below zero, {rules.label('negative_scores')})"
        else:
            loss = f"{player(k)} loses {rules.famine_penalty}, stopping at 0: {before} becomes {scores[k]} " \
                   f"(a score never goes below zero, {rules.label('negative_scores')})"
        steps.append(loss + ".")
    steps.append("Final scores: " + ", ".join(f"{player(p)} {s}" for p, s in enumerate(scores)) + ".")
    order = turn_order(e.calendar, len(scores))
    winners = final_winners(scores, order, rules)
    top = max(scores)
    tied = [p for p, s in enumerate(scores) if s == top]
    if len(tied) == 1:
        steps.append(f"{player(tied[0])} has the most points, {top}: {player(tied[0])} wins the game.")
    elif rules.end_tie == "shared":
        steps.append(f"{players_text(tied)} tie for the most points, {top}: they share the victory "
                     f"({rules.label('end_tie')}).")
    else:
        steps.append(f"{players_text(tied)} tie for the most points, {top}; the first of them in turn order (from "
                     f"the Calendar holder, {player(e.calendar)}, clockwise: "
                     f"{', '.join(str(p + 1) for p in order)}) wins: {player(winners[0])} "
                     f"({rules.label('end_tie')}).")
    return scores, winners, steps


def _winners_text(winners: list[int]) -> str:
    if len(winners) == 1:
        return f"{player(winners[0])} wins"
    return f"{players_text(winners)} share the victory"


def answer_end(e: Ending, setup) -> dict:
    rules = e.rules
    scores, winners, steps = end_story(e, rules)
    names = list(END_RULINGS) + (["empty_deck_ends"] if e.king is None else [])
    under, other_lines = {}, []
    for name in END_RULINGS:
        for value, other in _others(rules, name):
            _, w, _ = end_story(e, other)
            under.setdefault(name, []).append({"value": value, "winners": [p + 1 for p in w], "differs": w != winners})
            other_lines.append(f"{name}={value}: {_winners_text(w)}")
    rulings = _rulings(rules, names, under)
    verdict = f"{player(winners[0])} wins the game." if len(winners) == 1 else \
        f"{players_text(winners)} share the victory."
    lines = ["Points before the end: " + ", ".join(f"{player(p)} {s}" for p, s in enumerate(e.scores))
             + f"; the Calendar is with {player(e.calendar)}."]
    lines += steps + [verdict]
    for entry in rulings["used"]:
        if entry["decides"]:
            lines.append(f"This answer rests on {entry['name']}={entry['value']} ({entry['label']}).")
    lines.append("Under the other readings: " + "; ".join(other_lines) + ".")
    lines += _ruling_lines(rulings)
    data = {"question": "end", "winners": [p + 1 for p in winners], "shared": len(winners) > 1,
            "scores": scores, "steps": steps, "verdict": verdict, "under": under, "rulings": rulings}
    return {**data, "lines": lines, "json": data}


# --- when a Trade card is played -----------------------------------------------------------------------

EFFECT_WORDS = {
    "draw": "draw {n} card{s}",
    "draw_and_see_hand": "draw {n} card{s}, then look at the hand of one opponent",
    "take_cards": "take {n} card{s} at random from one opponent's hand",
    "look_and_take": "look at the top {n} cards of the deck, take one into your hand and put the others back in order",
    "discard_random": "one opponent discards {n} card{s} at random",
    "target_loses": "one opponent loses {n} point{s}",
    "others_lose": "every opponent loses {n} point{s}",
    "steal_points": "take {n} point{s} from one opponent",
    "gain": "gain {n} point{s}",
    "look": "look at the top {n} cards of the deck and put them back unchanged",
    "win_bid": "win the bid, whatever the others bid",
    "feed": "feed the people, whatever the Population",
}
LOSSES = ("target_loses", "others_lose", "steal_points")


def trade_story(t: TradeCards, rules: Rules) -> tuple[list[dict], list[str]]:
    """Per card: its phase, when it may be played and what it does; and the rulings that bear on them."""
    deck = t.deck
    jade = next((c.name for c in deck.with_effect("win_bid")), "the card that wins the bid")
    maize = next((c.name for c in deck.with_effect("feed")), "the card that feeds alone")
    cards, used = [], []

    def use(name):
        if name not in used:
            used.append(name)

    one_card = (f"it is your one Trade card of the round, so you may not also reveal {jade} or feed with {maize} "
                f"this round" if rules.special_is_trade else
                f"it is your one Trade card of the round; revealing {jade} or feeding with {maize} does not count "
                "against it")
    for name in t.cards:
        card = deck[name]
        n = card.amount
        effect = EFFECT_WORDS.get(card.effect, card.effect).format(n=n, s="s" if n != 1 else "")
        use("special_is_trade")
        if card.phase == "bid":
            when = "Bid phase (phase 5), revealed with your bid, not in the Trade phase"
            also = ("revealing it counts as your one Trade card of the round: not after playing one in the Trade "
                    "phase" if rules.special_is_trade else
                    "revealing it is not your one Trade card: you may also play one in the Trade phase of the "
                    "same round")
            text = f"{name}: {when}; {effect}. Afterwards it goes onto the discard pile. {sentence(also)} " \
                   f"({rules.label('special_is_trade')})."
        elif card.phase == "farm":
            use("feed_alone")
            when = "Farm phase (phase 6), by the Priest King, not in the Trade phase"
            alone = "discarded on its own" if rules.feed_alone else \
                f"discarded alone or with up to {rules.max_farm_cards - 1} other card(s), which add nothing"
            also = ("feeding with it counts as your one Trade card of the round: not after playing one in the "
                    "Trade phase" if rules.special_is_trade else
                    "feeding with it is not your one Trade card: you may also play one in the Trade phase")
            text = f"{name}: {when}, {alone} ({rules.label('feed_alone')}); {effect}. {sentence(also)} " \
                   f"({rules.label('special_is_trade')})."
        else:
            use("calendar_clockwise")
            when = "Trade phase (phase 4)"
            text = (f"{name}: {when}, in turn from the Calendar holder clockwise, once each (a player who passes "
                    f"cannot play later in that phase); {one_card} ({rules.label('special_is_trade')}). "
                    f"The Calendar holder is the player the token was passed to in phase 1, "
                    f"{'clockwise' if rules.calendar_clockwise else 'to the right'} "
                    f"({rules.label('calendar_clockwise')}). Effect: {effect}, at once; then the card goes onto the "
                    "discard pile.")
            if card.effect in LOSSES:
                use("negative_scores")
                text += (" A loss can take a score below zero" if rules.negative_scores else
                         " A loss stops at 0" + (", and it takes only the points its target has"
                                                 if card.effect == "steal_points" else "")) + \
                    f" ({rules.label('negative_scores')})."
        detail = text[len(f"{name}: {when}"):].lstrip(",; ")
        cards.append({"card": name, "phase": card.phase, "when": when, "effect": effect, "text": text,
                      "detail": sentence(detail)})
    return cards, used


def answer_trade(t: TradeCards, setup) -> dict:
    rules = t.rules
    cards, used = trade_story(t, rules)
    under = {}
    other_lines = []
    for name in used:
        ruling = rules.ruling(name)
        for value, _ in _others(rules, name):
            text = dict(ruling.options)[value].format(**rules.as_dict()) if ruling else value
            under.setdefault(name, []).append({"value": value, "text": text, "differs": False})
            other_lines.append(f"{name}={value}: {text}")
    rulings = _rulings(rules, used, under)
    lines = [c["text"] for c in cards]
    lines.append("Under the other readings: " + " ".join(other_lines))
    lines += _ruling_lines(rulings)
    data = {"question": "trade", "cards": cards, "under": under, "rulings": rulings}
    return {**data, "lines": lines, "json": data}


def answer_round(kind: str, data, setup) -> dict:
    return {"bid": answer_bids, "end": answer_end, "trade": answer_trade}[kind](data, setup)


__all__ = ["RULINGS", "answer_round", "read_round", "bid_story", "end_story", "trade_story"]
