"""An Altun Ha game as a protocol State (:mod:`solver.engine`): its eight phases as a sequence of decisions.

:class:`AltunHaState` drives the phase methods of :class:`~solver.altunha.sim.engine.Game`,
the referee, in the order of a round, and stops wherever a player decides:

* ``TRADING``: each player holding a Trade card, in turn order from the Calendar, plays one
  (:class:`~solver.altunha.sim.engine.TradePlay`) or passes (``None``);
* ``TAKING``: the player of a card that looks at the deck and takes one picks it (:class:`Take`);
* ``BIDDING``: every player, in player order, bids (:class:`~solver.altunha.sim.engine.Bid`); the
  bids stay hidden until the last one is in, then are revealed at once;
* ``FARMING``: the Priest King's Farm discard and Build together (:class:`FarmBuild`; no Farm
  cards declare famine);
* ``DISCARDING``: every player over the hand limit, in player order, chooses the cards to discard
  (:class:`Discard`), revealed at once in the Cycle phase.

Chance (shuffles, draws, cards taken at random) is drawn from the game's generator in the
same order as a round played phase by phase, so a game plays the same from its seed.
``check(game)``, when given, is called after every phase, as invariant tests want.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Callable, NamedTuple

from solver.altunha.cards import TARGETED
from solver.altunha.rules import build_points, can_place, final_winners, worth
from solver.altunha.sim.cards import BID as BID_CARD
from solver.altunha.sim.cards import GOD
from solver.altunha.sim.cards import TRADE as TRADE_CARD
from solver.altunha.sim.effects import EFFECTS, LATER
from solver.altunha.sim.engine import NO_BID, Bid, Game, IllegalMove, TablePlacement, TradePlay, shuffle
from solver.engine import TERMINAL, shares_of

TRADING, TAKING, BIDDING, FARMING, DISCARDING = "trade", "take", "bid", "farm_build", "discard"


class Take(NamedTuple):
    """The card taken of those looked at."""

    card: int


class FarmBuild(NamedTuple):
    """The Priest King's turn: the cards discarded to Farm (none: famine) and the Build, in order."""

    farm: tuple[int, ...] = ()
    build: tuple[TablePlacement, ...] = ()


class Discard(NamedTuple):
    """The cards a player over the hand limit discards in the Cycle phase."""

    cards: tuple[int, ...] = ()


class AltunHaState:
    """One game of Altun Ha as a protocol State; ``game`` is the referee, ``kind`` the pending decision."""

    def __init__(self, game: Game, check: Callable[[Game], None] | None = None, start: bool = True):
        self.game = game
        self.players = game.n
        self.round = game.round
        self.check = check
        self.kind: str | None = None
        self.player = TERMINAL
        self.looked: tuple[int, ...] = ()     # the cards a pick (TAKING) chooses from
        self.excess = 0                       # the cards a DISCARDING gives up
        self._order: list[int] = []           # the Trade phase's turn order, and who is next in it
        self._next = 0
        self._bids: list[Bid] = []
        self._discards: dict[int, tuple[int, ...]] = {}
        self._discarders: list[int] = []
        if start:
            self._new_round()

    # --- the protocol -------------------------------------------------------------------------

    @property
    def rng(self) -> random.Random:
        return self.game.rng

    @property
    def end(self) -> str | None:
        return self.game.end if self.player == TERMINAL else None

    def current_player(self) -> int:
        return self.player

    def is_terminal(self) -> bool:
        return self.player == TERMINAL

    def scores(self) -> list[float]:
        return list(self.game.scores)

    def returns(self) -> list[float]:
        g = self.game
        return shares_of(final_winners(g.scores, g.turn_order(), g.R), g.n)

    def seats(self) -> list[int]:
        """Seat 0 holds the Calendar in round 1 and plays first."""
        g = self.game
        step = 1 if g.R.calendar_clockwise else -1
        first = (g.dealt_calendar + step) % g.n
        return [(p - first) % g.n for p in range(g.n)]

    def apply_action(self, action) -> None:
        kind, p, g = self.kind, self.player, self.game
        if kind == BIDDING:
            if action is None or type(action) is not Bid:
                g.illegal(p, f"a bid is a Bid, not {action!r}")
            g.phase = "Bid"
            g.check_bid(p, action)
            self._bids.append(action)
            if p + 1 < self.players:
                self.player = p + 1
            else:
                self._reveal()
        elif kind == TRADING:
            if action is not None and type(action) is not TradePlay:
                g.illegal(p, f"a Trade phase play is a TradePlay or None (no card), not {action!r}")
            g.play_trade(p, action, LATER)
            if g.looking is not None:
                self.kind, self.looked = TAKING, g.looking[2]
            elif g.over:              # the deck and the discard pile ran out under empty_deck_ends
                g.end_round()
                self._over()
            else:
                self._next_trader()
        elif kind == FARMING:
            self._farm_build(action)
        elif kind == DISCARDING:
            self._discard(action)
        elif kind == TAKING:
            if type(action) is not Take:
                g.illegal(p, f"the card taken is a Take, not {action!r}")
            g.take(action.card)
            self.looked = ()
            self._next_trader()
        else:
            raise IllegalMove("the game is over")

    def clone(self) -> "AltunHaState":
        s = object.__new__(AltunHaState)
        s.__dict__.update(self.__dict__)
        s.game = self.game.clone()
        s.check = None
        s._order = list(self._order)
        s._bids = list(self._bids)
        s._discards = dict(self._discards)
        s._discarders = list(self._discarders)
        return s

    # --- the round's sequence -------------------------------------------------------------------

    def _checked(self) -> None:
        if self.check is not None:
            self.check(self.game)

    def _new_round(self) -> None:
        g = self.game
        if g.over:
            self._over()
            return
        g.calendar_phase()
        self.round = g.round
        self._checked()
        g.population_phase()
        self._checked()
        g.draw_phase()
        self._checked()
        if g.over:
            g.end_round()
            self._over()
            return
        self._order, self._next = g.turn_order(), 0
        self._next_trader()

    def _next_trader(self) -> None:
        """The next player in turn order who holds a Trade card decides; after the last, the bids."""
        g = self.game
        trade_ids, hands, order = g.table.trade_ids, g.hands, self._order
        while self._next < len(order):
            p = order[self._next]
            self._next += 1
            if not trade_ids.isdisjoint(hands[p]):
                self.kind, self.player = TRADING, p
                return
        g.phase = "Trade"
        self._checked()
        self._bids = []
        self.kind, self.player = BIDDING, 0

    def _reveal(self) -> None:
        g = self.game
        pk = g.reveal_bids(self._bids)
        self._bids = []
        self._checked()
        if pk is None:
            self._end_round()
        else:
            self.kind, self.player = FARMING, pk

    def _farm_build(self, action) -> None:
        g, pk = self.game, self.player
        if type(action) is not FarmBuild:
            g.illegal(pk, f"the Priest King's turn is a FarmBuild, not {action!r}")
        farm, build = tuple(action.farm), tuple(action.build)
        if not farm and build:
            g.illegal(pk, "without a Farm discard the game ends in famine: nothing can be built")
        hand, discarded, plays, traded = list(g.hands[pk]), len(g.discard), len(g.trade_plays), set(g.traded)
        counters = g.build_rounds, g.declined, g.no_build
        fed = g.farm_phase(farm)
        self._checked()
        if not fed:
            self._end_round()
            return
        try:
            g.build_phase(build)
        except Exception:       # a refused Build puts the Farm back too: the move changes nothing
            g.hands[pk][:] = hand
            del g.discard[discarded:]
            del g.trade_plays[plays:]
            g.traded = traded
            g.build_rounds, g.declined, g.no_build = counters
            g.phase = "Farm"
            raise
        self._checked()
        limit = g.R.hand_limit
        self._discarders = [p for p in range(g.n) if len(g.hands[p]) > limit]
        self._discards = {}
        self._next_discarder()

    def _next_discarder(self) -> None:
        g = self.game
        if self._discarders:
            p = self._discarders[0]
            self.kind, self.player, self.excess = DISCARDING, p, len(g.hands[p]) - g.R.hand_limit
            return
        g.cycle_phase(self._discards)
        self._discards = {}
        self._checked()
        self._end_round()

    def _discard(self, action) -> None:
        g, p = self.game, self.player
        if type(action) is not Discard:
            g.illegal(p, f"a Cycle phase discard is a Discard, not {action!r}")
        cards = tuple(action.cards)
        g.phase = "Cycle"
        if len(cards) != self.excess:
            g.illegal(p, f"must discard exactly {self.excess} card(s) to keep {g.R.hand_limit}, not {len(cards)}")
        g._check_held(p, cards, "discard")
        self._discards[p] = cards
        self._discarders.pop(0)
        self._next_discarder()

    def _end_round(self) -> None:
        self.game.end_round()
        self._new_round()

    def _over(self) -> None:
        self.kind, self.player = None, TERMINAL

    # --- what a player sees and may do --------------------------------------------------------

    def legal_actions(self) -> list:
        g, p, kind = self.game, self.player, self.kind
        if kind == BIDDING:
            return bid_actions(g, p)
        if kind == TRADING:
            return trade_actions(g, p)
        if kind == FARMING:
            return farm_build_actions(g, p)
        if kind == DISCARDING:
            return discard_actions(g, p, self.excess)
        if kind == TAKING:
            return _first_of_each_name(g, self.looked, Take)
        return []

    def observation(self, player: int) -> dict:
        g = self.game
        name = g.table.name
        return {
            "round": g.round, "phase": g.phase, "population": g.population,
            "scores": list(g.scores), "calendar": g.calendar, "priest_king": g.priest_king,
            "temples": [[name[c] for c, _ in t] for t in g.temples], "temple_tops": list(g.top_values()),
            "hand": [name[c] for c in g.hands[player]], "hand_sizes": [len(h) for h in g.hands],
            "deck": len(g.deck), "discard_pile": [name[c] for c in g.discard],
            "seen_hands": {str(q + 1): [name[c] for c in cards] for q, cards in g.seen_hands[player].items()},
            "seen_deck": [name[c] for c in g.seen_deck[player]],
            "looked": [name[c] for c in self.looked] if self.player == player else [],
            "decision": self.kind if self.player == player else None,
        }

    def resample(self, player: int, rng: random.Random) -> "AltunHaState":
        """Other hands and the deck's order dealt again with ``rng``; cards the player has seen stay.

        Kept where they are: the player's own hand, the cards of another hand he saw (those
        still in it), the top of the deck he looked at (while it is still on top), the cards
        he is choosing among.  Bids and discards other players chose this round and have not
        revealed are chosen again, by the greedy player, from their new hands."""
        from solver.altunha.sim.policies import GreedyPolicy

        s = self.clone()
        g = s.game
        g.rng = random.Random(rng.getrandbits(64))
        kept_top = _seen_top(g, player, s.looked)
        pool = g.deck[:len(g.deck) - len(kept_top)]
        kept: dict[int, list[int]] = {}
        for q in range(g.n):
            if q == player:
                continue
            seen = set(g.seen_hands[player].get(q, ()))
            kept[q] = [c for c in g.hands[q] if c in seen]
            pool += [c for c in g.hands[q] if c not in seen]
        shuffle(g.rng, pool)
        for q, cards in kept.items():
            take = len(g.hands[q]) - len(cards)
            g.hands[q] = cards + pool[len(pool) - take:]
            del pool[len(pool) - take:]
        g.deck = pool + kept_top
        greedy = GreedyPolicy()
        s._bids = [bid if q == player else greedy.bid(g, q) for q, bid in enumerate(s._bids)]
        s._discards = {q: cards if q == player else tuple(greedy.discard(g, q, len(g.hands[q]) - g.R.hand_limit))
                       for q, cards in s._discards.items()}
        return s

    def action_text(self, action) -> str:
        return action_text(self.game, action)


def _seen_top(g: Game, player: int, looked: tuple[int, ...]) -> list[int]:
    """The top cards of the deck the player has seen and that are still there (deck order, top last)."""
    seen = tuple(looked) or tuple(g.seen_deck[player])
    k = 0
    for i, card in enumerate(seen):
        if i < len(g.deck) and g.deck[-1 - i] == card:
            k = i + 1
        else:
            break
    return g.deck[len(g.deck) - k:] if k else []


# --- legal actions, one for each distinct outcome ---------------------------------------------

def _first_of_each_name(g: Game, cards, make) -> list:
    seen, out = set(), []
    for c in cards:
        if g.table.name[c] not in seen:
            seen.add(g.table.name[c])
            out.append(make(c))
    return out


def trade_actions(g: Game, p: int) -> list:
    """No card (None), then each Trade card playable now, once per name, at each opponent it may target."""
    out: list = [None]
    effect = g.table.effect
    playable = sorted(c for c in g.hands[p] if g.table.kind[c] == TRADE_CARD and effect[c] in EFFECTS)
    for card in _first_of_each_name(g, playable, lambda c: c):
        if effect[card] in TARGETED:
            out += [TradePlay(card, q) for q in range(g.n) if q != p]
        else:
            out.append(TradePlay(card))
    return out


def bid_actions(g: Game, p: int) -> list:
    """Every distinct bid of Bid and God cards (by value), and revealing the card that wins the bid."""
    from solver.altunha.sim.policies import bid_options, held

    out = [Bid(tuple(option)) for option in bid_options(g, p)]
    jade = held(g, p, "win_bid")
    if jade is not None and not (g.R.special_is_trade and p in g.traded):
        out.append(Bid((), jade))
    return out


def discard_actions(g: Game, p: int, excess: int) -> list:
    seen, out = set(), []
    for cards in combinations(sorted(g.hands[p]), excess):
        key = tuple(sorted(g.table.name[c] for c in cards))
        if key not in seen:
            seen.add(key)
            out.append(Discard(cards))
    return out


def farm_build_actions(g: Game, p: int) -> list:
    """Every Farm and Build the Priest King may play, one for each distinct outcome (the points, the
    cards left in hand and the temple tops), or famine when no Farm is possible."""
    table, R = g.table, g.R
    hand = sorted(g.hands[p])
    kind = table.kind
    farms: list[tuple[int, ...]] = []
    feeders = _first_of_each_name(g, [c for c in hand if table.effect[c] == "feed"], lambda c: (c,)) \
        if g.feed_allowed(p) else []
    farms += feeders
    building = [c for c in hand if kind[c] in (BID_CARD, GOD)]
    seen: set = set()
    for size in range(1, R.max_farm_cards + 1):
        for combo in combinations(building, size):
            key = tuple(sorted(table.rule_kind[c] if kind[c] == BID_CARD else 0 for c in combo))
            if key in seen:
                continue
            seen.add(key)
            if sum(worth(table.rule_kind[c], R) for c in combo) >= g.population:
                farms.append(combo)
            if not R.feed_alone and size < R.max_farm_cards:   # the feed card with cards that add nothing
                farms += [feeder + combo for feeder in feeders]
    if not farms:
        return [FarmBuild()]
    out, outcomes = [], set()
    tops = list(g.top_values())
    for farm in farms:
        left = [c for c in hand if c not in farm]
        for build, after, points in _builds(g, left, tops):
            used = {pl.card for pl in build}
            rest = tuple(sorted(table.name[c] for c in left if c not in used))
            key = (points, rest, tuple(sorted(after)))
            if key not in outcomes:
                outcomes.add(key)
                out.append(FarmBuild(tuple(farm), build))
    return out


def _builds(g: Game, left: list[int], tops: list[int]):
    """(build, temple tops after, points) of every Build of up to max_build_cards cards from ``left``."""
    R, table = g.R, g.table
    values = [table.value[c] for c in left if table.kind[c] == BID_CARD]
    gods = sum(1 for c in left if table.kind[c] == GOD)
    able = can_place(values, gods, tops, R)
    yield (), tops, build_points((), able, R)

    def extend(build, cards, tops, touched):
        if len(build) == R.max_build_cards:
            return
        for c in _first_of_each_name(g, cards, lambda c: c):
            if table.kind[c] == BID_CARD:
                choices = [table.value[c]]
            elif table.kind[c] == GOD:
                choices = range(1, R.max_stage + 1)
            else:
                continue
            rest = [x for x in cards if x != c]
            for value in choices:
                targets = [None] if value == 1 else \
                    [i for i, t in enumerate(tops) if t == value - 1 and (R.chain or i not in touched)]
                for target in targets:
                    new_tops = list(tops)
                    if target is None:
                        new_tops.append(1)
                        where = len(new_tops) - 1
                    else:
                        new_tops[target] = value
                        where = target
                    placed = build + (TablePlacement(c, value, target),)
                    yield placed, new_tops, build_points([pl.value for pl in placed], True, R)
                    yield from extend(placed, rest, new_tops, touched | {where})

    yield from extend((), left, tops, frozenset())


# --- actions in words -------------------------------------------------------------------------

def action_text(g: Game, action) -> str:
    """An action in the rulebook's words (a Farm and Build as ``kitgen solve --play`` writes it)."""
    name = g.table.name
    if action is None:
        return "play no Trade card"
    if type(action) is TradePlay:
        target = f" on player {action.target + 1}" if action.target is not None else ""
        return f"play {name[action.card]}{target}"
    if type(action) is Take:
        return f"take {name[action.card]}"
    if type(action) is Bid:
        if action.jade is not None:
            return f"reveal {name[action.jade]}" + (f" and bid {_cards(g, action.cards)}" if action.cards else "")
        return f"bid {_cards(g, action.cards)}" if action.cards else "bid no cards"
    if type(action) is Discard:
        return f"discard {_cards(g, action.cards)}" if action.cards else "discard nothing"
    if type(action) is FarmBuild:
        if not action.farm:
            return "farm none (famine)"
        temples = len(g.temples)
        placed = []
        for pl in action.build:
            if pl.temple is None:
                temples += 1
                where = "new"
            else:
                where = str(pl.temple + 1)
            value = f"={pl.value}" if g.table.kind[pl.card] == GOD else ""
            placed.append(f"{name[pl.card]}{value}@{where}")
        return f"farm {', '.join(name[c] for c in action.farm)}; build {', '.join(placed) or 'none'}"
    return repr(action)


def _cards(g: Game, cards) -> str:
    return " + ".join(g.table.name[c] for c in cards)


__all__ = ["AltunHaState", "Take", "FarmBuild", "Discard", "TRADING", "TAKING", "BIDDING", "FARMING", "DISCARDING",
           "NO_BID", "action_text"]
