"""High Card's rules engine: the example of docs/engines.md.

The game: each player is dealt ``hand_size`` cards of a deck of numbers.  The first player
leads; in turn, every player plays one card face up; the highest card takes the trick
(a point) and its player leads the next.  When the hands are empty, the most points win.
Playtest ruling ``ties``: when the highest card is played twice, the first of them takes the
trick (``first``), or nobody does (``nobody``).

The engine offers everything the protocol of solver/engine.py names: the rules read from
game.toml and changed by ``--set``, a game as a State, two simple players, its figures and
report, and a solver question ("which card should I play to this trick?").  Registered in
solver/engines.py as ``"high-card": "high_card:ENGINE"`` (with this folder on the module
path), kitgen simulate, kitgen solve and the web pages play it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from kitgen.errors import GameDataError, OptionError
from solver.engine import TERMINAL, IllegalMove, shares

# --- the rules ---------------------------------------------------------------------------------

TIES = ("first", "nobody")
MAX_HAND = 20


@dataclass(frozen=True)
class Rules:
    hand_size: int
    ties: str                                  # one of TIES
    deck: tuple[tuple[str, int], ...]          # (name, value) of every copy of every card
    changed: tuple[str, ...] = field(default=())   # the keys --set changed

    def as_dict(self) -> dict:
        return {"hand_size": self.hand_size, "ties": self.ties}


def _whole(key: str, raw, low: int, high: int, where: str, error) -> int:
    text = str(raw).strip()
    if isinstance(raw, bool) or not text.isascii() or not text.isdigit() or not low <= int(text) <= high:
        message = f"{key} takes a whole number from {low} to {high}, not {raw!r}"
        raise error(message, file=where) if error is GameDataError else error(where, message)
    return int(text)


def read_rules(game, settings: dict, option: str) -> Rules:
    """The rules of game.toml, changed by ``settings`` (``--set KEY=VALUE``)."""
    from kitgen.data.rulings import parse_rulings

    where = f"{game.slug}/game.toml" if game.builtin else str(game.root / "game.toml")
    hand_size = _whole("hand_size", game.rules.get("hand_size", 4), 1, MAX_HAND, where, GameDataError)
    rulings = {r.name: r for r in parse_rulings(game.rulings, where)}
    ties = str(rulings["ties"].default) if "ties" in rulings else "first"
    deck = tuple((card.name, card.numeric_value or 0) for card in game.cards for _ in range(card.count))
    for key, raw in settings.items():
        if key == "hand_size":
            hand_size = _whole(key, raw, 1, MAX_HAND, option, OptionError)
        elif key == "ties":
            if str(raw).strip() not in TIES:
                raise OptionError(option, f"ties takes one of {', '.join(TIES)}, not {raw!r}")
            ties = str(raw).strip()
        else:
            raise OptionError(option, f"unknown key {key!r}; accepted keys: hand_size, ties")
    return Rules(hand_size, ties, deck, tuple(settings))


# --- a game ------------------------------------------------------------------------------------

def trick_winner(table: list[tuple[int, int]], rules: Rules) -> int | None:
    """The player who takes a trick of (player, card) plays, or None (two equal highest, ruling ``nobody``)."""
    values = [rules.deck[card][1] for _, card in table]
    top = max(values)
    if values.count(top) > 1 and rules.ties == "nobody":
        return None
    return table[values.index(top)][0]


class HighCardState:
    """One game of High Card.  Card ids index ``rules.deck``; an action is the id of the card played."""

    def __init__(self, rules: Rules, players: int, rng: random.Random):
        self.rules, self.players, self.rng = rules, players, rng
        cards = list(range(len(rules.deck)))
        rng.shuffle(cards)
        size = rules.hand_size
        self.hands = [sorted(cards[p * size:(p + 1) * size]) for p in range(players)]
        self.undealt = cards[players * size:]      # never seen by anyone
        self.points = [0] * players
        self.table: list[tuple[int, int]] = []     # (player, card) of the trick being played
        self.played: list[int] = []                # the cards of finished tricks
        self.leader = 0
        self.round = 1                             # the trick being played
        self.end: str | None = None
        self.tied = 0                              # tricks whose highest card was played twice

    def current_player(self) -> int:
        return TERMINAL if self.end else (self.leader + len(self.table)) % self.players

    def is_terminal(self) -> bool:
        return self.end is not None

    def legal_actions(self) -> list[int]:
        """One card of each value in the current player's hand, lowest first."""
        if self.end:
            return []
        hand, seen, out = self.hands[self.current_player()], set(), []
        for card in sorted(hand, key=lambda c: (self.rules.deck[c][1], c)):
            if self.rules.deck[card][1] not in seen:
                seen.add(self.rules.deck[card][1])
                out.append(card)
        return out

    def apply_action(self, card) -> None:
        p = self.current_player()
        if p == TERMINAL:
            raise IllegalMove("the game is over")
        if card not in self.hands[p]:
            raise IllegalMove(f"trick {self.round}, player {p + 1}: {card!r} is not a card in the hand")
        self.hands[p].remove(card)
        self.table.append((p, card))
        if len(self.table) < self.players:
            return
        winner = trick_winner(self.table, self.rules)
        values = [self.rules.deck[c][1] for _, c in self.table]
        self.tied += values.count(max(values)) > 1
        if winner is not None:
            self.points[winner] += 1
            self.leader = winner
        self.played += [c for _, c in self.table]
        self.table = []
        if not any(self.hands):
            self.end = "hands_empty"
        else:
            self.round += 1

    def returns(self) -> list[float]:
        return shares(self.points)

    def scores(self) -> list[float]:
        return list(self.points)

    def clone(self) -> "HighCardState":
        other = object.__new__(HighCardState)
        other.__dict__.update(self.__dict__)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.hands = [list(h) for h in self.hands]
        other.undealt, other.points = list(self.undealt), list(self.points)
        other.table, other.played = list(self.table), list(self.played)
        return other

    def observation(self, player: int) -> dict:
        name = [n for n, _ in self.rules.deck]
        return {"hand": [name[c] for c in self.hands[player]], "table": [[p + 1, name[c]] for p, c in self.table],
                "played": [name[c] for c in self.played], "points": list(self.points), "trick": self.round,
                "hand_sizes": [len(h) for h in self.hands]}

    def resample(self, player: int, rng: random.Random) -> "HighCardState":
        """The other hands dealt again from the cards ``player`` has not seen."""
        world = self.clone()
        world.rng = random.Random(rng.getrandbits(64))
        pool = list(world.undealt) + [c for q, hand in enumerate(world.hands) if q != player for c in hand]
        rng.shuffle(pool)
        for q in range(world.players):
            if q != player:
                size = len(world.hands[q])
                world.hands[q], pool = sorted(pool[:size]), pool[size:]
        world.undealt = pool
        return world

    def action_text(self, card) -> str:
        return f"play {self.rules.deck[card][0]}"


# --- players -----------------------------------------------------------------------------------

class RandomPlayer:
    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, state: HighCardState, player: int):
        return self.rng.choice(state.legal_actions())


class GreedyPlayer:
    """The lowest card that beats the trick so far, else the lowest card."""

    def __init__(self, rng: random.Random):
        pass

    def choose(self, state: HighCardState, player: int):
        actions = state.legal_actions()
        best = max((state.rules.deck[c][1] for _, c in state.table), default=0)
        return next((c for c in actions if state.rules.deck[c][1] > best), actions[0])


# --- the solver question: which card to play to this trick -------------------------------------

@dataclass(frozen=True)
class Position:
    hand: tuple[int, ...]
    table: tuple[int, ...]       # the cards played to this trick before you, in order
    played: tuple[int, ...]      # the cards of the earlier tricks
    players: int


FIELDS = [
    {"name": "hand", "label": "your hand", "kind": "cards", "required": True, "example": "Two,Seven",
     "help": "Your cards, by name, separated by commas."},
    {"name": "table", "label": "the trick so far", "kind": "cards", "default": [], "example": "Five",
     "help": "The cards played to this trick before you, in order."},
    {"name": "played", "label": "earlier tricks", "kind": "cards", "default": [], "example": "One,Eight",
     "help": "The cards of the tricks already finished."},
    {"name": "players", "label": "players", "kind": "number", "min": 2, "max": 4, "default": 4, "example": "3",
     "help": "Players at the table."},
]


def read_position(raw: dict, rules: Rules) -> Position:
    if not isinstance(raw, dict):
        raise OptionError("position", "expected an object of the fields hand, table, played, players")
    unknown = sorted(set(raw) - {f["name"] for f in FIELDS})
    if unknown:
        raise OptionError(unknown[0], "no such field (fields: hand, table, played, players)")
    players = raw.get("players", 4)
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise OptionError("--players", f"must be from 2 to 4, not {players!r}")
    free = list(range(len(rules.deck)))
    by_name = {name.casefold(): name for name, _ in rules.deck}

    def cards(key: str) -> tuple[int, ...]:
        names = raw.get(key, [])
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise OptionError(f"--{key}", "give a list of card names")
        out = []
        for text in names:
            name = by_name.get(text.strip().casefold())
            if name is None:
                raise OptionError(f"--{key}", f"no card named {text!r} (cards: {', '.join(dict.fromkeys(by_name.values()))})")
            card = next((c for c in free if rules.deck[c][0] == name), None)
            if card is None:
                raise OptionError(f"--{key}", f"the deck has no more {name} than that")
            free.remove(card)
            out.append(card)
        return tuple(out)

    hand, table, played = cards("hand"), cards("table"), cards("played")
    if not hand or len(hand) > rules.hand_size:
        raise OptionError("--hand", f"give 1 to {rules.hand_size} cards, not {len(hand)}")
    if len(table) >= players:
        raise OptionError("--table", f"at most {players - 1} cards are played to a trick before you")
    return Position(hand, table, played, players)


def _value(rules: Rules, card: int) -> int:
    return rules.deck[card][1]


def solve(position: Position, rules: Rules) -> dict:
    """For each card: does it take the trick as it stands, and surely (no card you have not seen beats it)?
    The best: the lowest sure winner, else the lowest card that takes the trick so far, else the lowest card."""
    unseen = set(range(len(rules.deck))) - set(position.hand) - set(position.table) - set(position.played)
    top = max((_value(rules, c) for c in position.table), default=0)
    after = position.players - len(position.table) - 1
    rows = []
    for card in sorted(set(position.hand), key=lambda c: (_value(rules, c), c)):
        value = _value(rules, card)
        if rows and rows[-1]["value"] == value:
            continue
        takes = value > top
        threats = [c for c in unseen if _value(rules, c) > value or (rules.ties == "nobody" and _value(rules, c) == value)]
        rows.append({"card": rules.deck[card][0], "value": value, "takes_now": takes,
                     "sure": takes and (after == 0 or not threats)})
    best = next((r for r in rows if r["sure"]), None) or next((r for r in rows if r["takes_now"]), None) or rows[0]
    why = ("it surely takes the trick, with the lowest such card" if best["sure"] else
           "it takes the trick so far, with the lowest such card" if best["takes_now"] else
           "nothing you hold takes the trick: throw the lowest card")
    lines = [f"{r['card']} ({r['value']}): " + ("surely takes the trick" if r["sure"] else
                                                "takes the trick unless a later card beats it" if r["takes_now"] else
                                                "does not take the trick") for r in rows]
    lines.append(f"Best: play {best['card']}: {why}.")
    return {"best": [f"play {best['card']}"], "cards": rows, "lines": lines}


def check(position: Position, play: str, rules: Rules) -> dict:
    answer = solve(position, rules)
    name = play.strip()
    name = name[5:].strip() if name.lower().startswith("play ") else name
    held = {rules.deck[c][0].casefold(): c for c in position.hand}
    if name.casefold() not in held:
        names = ", ".join(rules.deck[c][0] for c in position.hand)
        raise OptionError("--play", f"{play!r}: give a card of your hand ({names}), e.g. 'play {rules.deck[position.hand[0]][0]}'")
    row = next(r for r in answer["cards"] if r["value"] == _value(rules, held[name.casefold()]))
    best = answer["best"][0]
    same = f"play {row['card']}" == best
    lines = [f"Legal: {row['card']} " + ("surely takes the trick." if row["sure"] else
                                         "takes the trick so far." if row["takes_now"] else
                                         "does not take the trick."),
             "It is the best play." if same else f"The best play is to {best}."]
    return {"legal": True, "reason": "", "optimal": same, "best": answer["best"], "lines": lines}


def position_state(position: Position, rules: Rules, rng: random.Random) -> HighCardState:
    """The position as a game: you are the player after those who played to the trick; every other
    hand is dealt at random from the cards you have not seen."""
    state = HighCardState(rules, position.players, rng)
    me = len(position.table)
    left = len(position.hand)
    unseen = [c for c in range(len(rules.deck)) if c not in position.hand + position.table + position.played]
    rng.shuffle(unseen)
    for p in range(position.players):
        size = left - 1 if p < me else left
        state.hands[p] = list(position.hand) if p == me else sorted(unseen[:size])
        if p != me:
            unseen = unseen[size:]
    state.undealt, state.played = unseen, list(position.played)
    state.table = list(enumerate(position.table))
    state.leader, state.round = 0, rules.hand_size - left + 1
    return state


# --- figures of many games -----------------------------------------------------------------------

def figures(state: HighCardState) -> dict:
    return {"tied_tricks": state.tied, "tricks": state.round}


def report(records: list[dict]) -> dict:
    tricks = sum(r["figures"]["tricks"] for r in records)
    tied = sum(r["figures"]["tied_tricks"] for r in records)
    share = tied / tricks if tricks else 0.0
    return {
        "figures": {"tricks": tricks, "tied_tricks": tied, "tied_share": round(share, 4)},
        "key_figures": [["Tricks whose highest card was played twice", f"{100 * share:.1f}%"]],
        "tables": [{"title": "Tricks", "columns": ["Tricks", "Tied"], "rows": [[tricks, tied]]}],
        "charts": [{"kind": "bars", "title": "Tricks with two equal highest cards", "labels": ["tied", "not tied"],
                    "series": [["share", [share, 1 - share]]], "percent": True}],
        "findings": [f"{tied:,} of {tricks:,} tricks ({100 * share:.1f}%) had two equal highest cards."],
        "compare": [["Tied tricks", round(share, 4)]],
    }


# --- the engine --------------------------------------------------------------------------------

class HighCard:
    key = "high-card"
    title = "High Card"
    ends = {"hands_empty": "when every hand was played out"}
    policies = {"random": RandomPlayer, "greedy": GreedyPlayer}
    policy_help = {"random": "any card", "greedy": "the lowest card that takes the trick so far, else the lowest"}
    play_help = "A play is 'play CARD', e.g. 'play Seven'."

    def rules(self, game, settings, option="--set"):
        return read_rules(game, settings, option)

    def player_range(self, rules):
        return 2, min(4, len(rules.deck) // rules.hand_size)

    def new_game(self, rules, players, rng):
        return HighCardState(rules, players, rng)

    def round_cap(self, rules):
        return rules.hand_size + 1

    def rule_values(self, rules):
        return rules.as_dict()

    def changed_rules(self, rules):
        return list(rules.changed)

    def figures(self, state):
        return figures(state)

    def report(self, records):
        return report(records)

    def position_fields(self):
        return [dict(f) for f in FIELDS]

    def read_position(self, raw, rules):
        return read_position(raw, rules)

    def solve(self, position, rules):
        return solve(position, rules)

    def check(self, position, play, rules):
        return check(position, play, rules)

    def position_state(self, position, rules, rng):
        return position_state(position, rules, rng)


ENGINE = HighCard()
