"""The Altun Ha rules engine: setup, the eight phases, the end of the game.

The engine also referees: every move goes through a method that checks it
and raises :class:`IllegalMove` with a clear message, so a policy (or a
person) cannot break the rules; a refused move leaves the game as it was.  Rulings the seed leaves open (shared with
the rulebook):

* Seats are numbered clockwise.  The Calendar token passes counter-clockwise
  (to the holder's right) while trading goes clockwise from the holder, taken
  literally; the ``calendar_clockwise`` switch makes both clockwise.
* Bids: the highest total made by exactly one player wins (tied totals drop
  out; a bid of no cards never wins); if every total is tied, the tied top
  bidder with fewer points wins; if still tied, the round ends with no Farm,
  Build or Cycle.  Jade is revealed with the bid and wins it outright (several
  Jades: the rule above among the Jade players).  Jade and Maize do not use
  the player's one Trade card (switch ``special_is_trade``).
* An empty deck and discard pile mean no draw, not an end (switch
  ``empty_deck_ends``).  Hand-limit discards are the player's choice.
* Scores may go negative; ties at the end are shared wins.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from kitgen.errors import KitgenError
from solver.altunha.sim.cards import BID, GOD, IN_TRADE_PHASE, TARGETED, TRADE, numbers_for, table_for
from solver.altunha.sim.effects import CHOOSES, EFFECTS
from solver.altunha.sim.enumerate import can_feed
from solver.altunha.sim.variants import Rules

SOURCES = ("build", "no_build", "famine", "obsidian", "pyrite", "feathers", "textiles")


def largest_farm(table) -> int:
    """The most a Farm without Maize can pay with this deck (its max_farm highest cards)."""
    cached = getattr(table, "_largest_farm", None)
    if cached is None:
        values = sorted((table.value[c] for c in range(table.size) if table.kind[c] in (BID, GOD)),
                        reverse=True)
        cached = sum(values[:table.config.max_farm])
        object.__setattr__(table, "_largest_farm", cached)
    return cached


class IllegalMove(KitgenError):
    """A move the rules do not allow; the message names the player, the phase and why."""


class TradePlay(NamedTuple):
    card: int
    target: int | None = None


class Bid(NamedTuple):
    cards: tuple[int, ...] = ()
    jade: int | None = None   # the Jade card's id when revealed with the bid


class Placement(NamedTuple):
    card: int
    value: int                 # the value placed (a God card's chosen value)
    temple: int | None = None  # index of the temple built on; None starts a new one


class Game:
    """One game in progress.  ``hands[p]`` are card ids; ``temples`` lists of (card, value)."""

    def __init__(self, rules: Rules, players: int, rng: random.Random):
        if players < 2:
            raise IllegalMove(f"Altun Ha needs at least 2 players, not {players}")
        self.rules = rules
        self.table = table_for(rules)
        self.R = numbers_for(rules)
        self.cfg = self.table.config
        self.rng = rng
        self.n = players
        self.deck = list(range(self.table.size))
        rng.shuffle(self.deck)
        self.discard: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.temples: list[list[tuple[int, int]]] = []
        self.scores = [0] * players
        self.population = self.R.population_start
        self.calendar = rng.randrange(players)
        self.dealt_calendar = self.calendar
        self.priest_king: int | None = None
        self.round = 0
        self.phase = "setup"
        self.over = False
        self.end: str | None = None
        self.traded: set[int] = set()
        self.seen_hands: list[dict[int, tuple[int, ...]]] = [{} for _ in range(players)]
        self.seen_deck: list[tuple[int, ...]] = [() for _ in range(players)]
        self.out_of_cards = False
        # figures for the balance report
        self.points = [dict.fromkeys(SOURCES, 0) for _ in range(players)]
        self.trade_plays: list[tuple[str, int]] = []
        self.bid_result = ""
        self.reasons: dict[str, int] = {}
        self.no_king_streak = 0
        self.max_no_king_streak = 0
        self.no_build = 0
        self.build_rounds = 0
        self.king_rounds = 0
        self.famine_by: int | None = None
        self.famine_margin: int | None = None
        self.leaders: list[tuple[int, ...]] = []
        for p in range(players):
            self.draw(p, self.R.hand_size)

    # --- helpers ---------------------------------------------------------------

    def illegal(self, player: int | None, message: str):
        who = f"player {player + 1}" if player is not None else "the table"
        raise IllegalMove(f"round {self.round}, {self.phase} phase, {who}: {message}")

    def card_name(self, card: int) -> str:
        return self.table.name[card]

    def add_points(self, player: int, points: int, source: str):
        self.scores[player] += points
        self.points[player][source] += points

    def reshuffle(self):
        if self.discard:
            self.deck = self.discard
            self.discard = []
            self.rng.shuffle(self.deck)

    def draw(self, player: int, count: int) -> int:
        """Deal ``count`` cards from the deck (reshuffling the discard pile when it runs out)."""
        drawn = 0
        for _ in range(count):
            if not self.deck:
                self.reshuffle()
                if not self.deck:
                    self.out_of_cards = True
                    break
            self.hands[player].append(self.deck.pop())
            drawn += 1
        return drawn

    def turn_order(self) -> list[int]:
        return [(self.calendar + k) % self.n for k in range(self.n)]

    def hand_summary(self, player: int, without=()):
        """(Bid values, God count, Maize held) of a hand, leaving out the cards ``without``."""
        kind, value, name = self.table.kind, self.table.value, self.table.name
        values, gods, maize = [], 0, False
        for c in self.hands[player]:
            if c in without:
                continue
            k = kind[c]
            if k == BID:
                values.append(value[c])
            elif k == GOD:
                gods += 1
            elif name[c] == "Maize":
                maize = True
        return values, gods, maize

    def maize_allowed(self, player: int) -> bool:
        return not (self.R.special_is_trade and player in self.traded)

    def tops(self) -> list[int]:
        return [t[-1][1] for t in self.temples]

    def _check_held(self, player: int, cards, what: str):
        hand = self.hands[player]
        if len(set(cards)) != len(cards):
            self.illegal(player, f"{what}: the same card is named twice")
        for c in cards:
            if c not in hand:
                self.illegal(player, f"{what}: {self._label(c)} is not in the hand")

    def _take(self, player: int, cards, what: str):
        self._check_held(player, cards, what)
        hand = self.hands[player]
        for c in cards:
            hand.remove(c)

    def _snapshot(self) -> tuple:
        """Everything a move can change, to put back if the move is refused part-way."""
        return ([list(h) for h in self.hands], list(self.deck), list(self.discard), list(self.scores),
                [dict(x) for x in self.points], set(self.traded), len(self.trade_plays),
                [dict(x) for x in self.seen_hands], list(self.seen_deck), [list(t) for t in self.temples],
                self.out_of_cards, self.rng.getstate())

    def _restore(self, state: tuple):
        (hands, deck, discard, scores, points, traded, plays, seen_hands, seen_deck, temples,
         self.out_of_cards, rng) = state
        for now, before in zip(self.hands, hands):
            now[:] = before
        self.deck[:], self.discard[:], self.scores[:] = deck, discard, scores
        for now, before in zip(self.points, points):
            now.clear()
            now.update(before)
        self.traded.clear()
        self.traded.update(traded)
        del self.trade_plays[plays:]
        self.seen_hands[:], self.seen_deck[:], self.temples[:] = seen_hands, seen_deck, temples
        self.rng.setstate(rng)

    def _label(self, card) -> str:
        if isinstance(card, int) and 0 <= card < self.table.size:
            return f"{self.table.name[card]} (card {card})"
        return f"card {card!r}"

    # --- phases ------------------------------------------------------------------

    def calendar_phase(self):
        self.round += 1
        self.phase = "Calendar"
        self.traded = set()
        self.priest_king = None
        step = 1 if self.R.calendar_clockwise else -1
        self.calendar = (self.calendar + step) % self.n

    def population_phase(self):
        self.phase = "Population"
        self.population += self.R.population_growth
        if self.R.stalemate_stop and self.population > largest_farm(self.table):
            self._finish("stalemate")

    def draw_phase(self):
        self.phase = "Draw"
        for p in self.turn_order():
            self.draw(p, self.R.draw)
        if self.out_of_cards and self.R.empty_deck_ends:
            self._finish("empty_deck")

    def play_trade(self, player: int, play: TradePlay | None, choose=None):
        """One player's turn of the Trade phase: a Trade card, or None to pass."""
        self.phase = "Trade"
        if play is None:
            return
        if player in self.traded:
            self.illegal(player, "has already played a Trade card this round")
        card = play.card
        if card not in self.hands[player]:
            self.illegal(player, f"{self._label(card)} is not in the hand")
        name = self.table.name[card]
        if self.table.kind[card] != TRADE:
            self.illegal(player, f"{name} is not a Trade card")
        if name not in IN_TRADE_PHASE:
            when = "revealed with the bid" if name == "Jade" else "used in the Farm phase"
            self.illegal(player, f"{name} is not played in the Trade phase; it is {when}")
        if name in TARGETED:
            target = play.target
            if not isinstance(target, int) or not 0 <= target < self.n or target == player:
                self.illegal(player, f"{name} needs one opponent as its target (players 1..{self.n}, "
                                     f"not the player himself)")
        # an effect that asks for a choice checks it only once the card is played: keep what to put back
        undo = self._snapshot() if name in CHOOSES else None
        self.hands[player].remove(card)
        self.discard.append(card)
        self.traded.add(player)
        self.trade_plays.append((name, player))
        try:
            EFFECTS[name](self, player, play, choose)
        except IllegalMove:
            if undo is not None:
                self._restore(undo)  # a refused choice changes nothing
            raise

    def bid_phase(self, bids: dict[int, Bid]):
        """Reveal every bid at once; discard them; award the Priest King token (or nobody)."""
        self.phase = "Bid"
        totals, jades = {}, []
        for p in range(self.n):
            bid = bids.get(p, Bid())
            if len(bid.cards) > self.R.max_bid_cards:
                self.illegal(p, f"a bid has at most {self.R.max_bid_cards} cards, not {len(bid.cards)}")
            for c in bid.cards:
                if c in self.hands[p] and self.table.kind[c] not in (BID, GOD):
                    self.illegal(p, f"{self._label(c)} cannot be bid; only Bid and God cards can")
            if bid.jade is not None:
                if bid.jade not in self.hands[p] or self.table.name[bid.jade] != "Jade":
                    self.illegal(p, "reveals Jade without holding it")
                if self.R.special_is_trade and p in self.traded:
                    self.illegal(p, "has already played a Trade card this round, so cannot reveal Jade")
            self._check_held(p, bid.cards, "bid")
            totals[p] = (sum(self.table.value[c] for c in bid.cards), len(bid.cards))
        for p in range(self.n):
            bid = bids.get(p, Bid())
            self._take(p, bid.cards, "bid")
            self.discard.extend(bid.cards)
            if bid.jade is not None:
                self.hands[p].remove(bid.jade)
                self.discard.append(bid.jade)
                self.trade_plays.append(("Jade", p))
                jades.append(p)
        winner, reason = self.resolve_bids(totals, jades)
        self.bid_result = reason
        self.reasons[reason] = self.reasons.get(reason, 0) + 1
        self.priest_king = winner
        if winner is None:
            self.no_king_streak += 1
            self.max_no_king_streak = max(self.max_no_king_streak, self.no_king_streak)
        else:
            self.no_king_streak = 0
            self.king_rounds += 1
        return winner

    def resolve_bids(self, totals: dict[int, tuple[int, int]], jades: list[int]):
        """(winner or None, reason) from each player's (total, number of cards) and the Jade players."""
        if len(jades) == 1:
            return jades[0], "jade"
        pool = {p: totals[p][0] for p in jades} if jades else \
            {p: t for p, (t, n) in totals.items() if n > 0}
        if not pool:
            return None, "no_bids"
        by_total: dict[int, list[int]] = {}
        for p, t in pool.items():
            by_total.setdefault(t, []).append(p)
        ordered = sorted(by_total, reverse=True)
        if len(by_total[ordered[0]]) == 1:
            return by_total[ordered[0]][0], "jade" if jades else "highest"
        if self.R.tie_drop:
            for t in ordered[1:]:
                if len(by_total[t]) == 1:
                    return by_total[t][0], "next_lower"
        tied = by_total[ordered[0]]
        low = min(self.scores[p] for p in tied)
        lowest = [p for p in tied if self.scores[p] == low]
        if len(lowest) == 1:
            return lowest[0], "fewer_points"
        return None, "double_tie"

    def can_farm(self, player: int) -> bool:
        values, gods, maize = self.hand_summary(player)
        return can_feed(values, gods, maize and self.maize_allowed(player), self.population, self.cfg)

    def farm_phase(self, cards: tuple[int, ...]) -> bool:
        """The Priest King feeds the people; no cards when he cannot means famine. True if fed."""
        self.phase = "Farm"
        pk = self.priest_king
        if pk is None:
            self.illegal(None, "there is no Priest King this round")
        if not cards:
            if self.can_farm(pk):
                self.illegal(pk, f"can feed Population {self.population}, so must farm")
            self.famine_by = pk
            others = [s for q, s in enumerate(self.scores) if q != pk]
            self.famine_margin = self.scores[pk] - max(others)
            self.add_points(pk, -self.R.famine_penalty, "famine")
            self._finish("famine")
            return False
        names = [self.table.name[c] if c in self.hands[pk] else None for c in cards]
        if "Maize" in names:
            if len(cards) != 1:
                self.illegal(pk, "Maize pays on its own; discard it alone")
            if not self.maize_allowed(pk):
                self.illegal(pk, "has already played a Trade card this round, so cannot use Maize")
        else:
            if len(cards) > self.R.max_farm_cards:
                self.illegal(pk, f"farms with at most {self.R.max_farm_cards} cards, not {len(cards)}")
            for c in cards:
                if c in self.hands[pk] and self.table.kind[c] not in (BID, GOD):
                    self.illegal(pk, f"{self._label(c)} cannot pay for food; use Bid or God cards")
            total = sum(self.table.value[c] for c in cards if c in self.hands[pk])
            if total < self.population and len(set(cards)) == len(cards) and \
                    all(c in self.hands[pk] for c in cards):
                self.illegal(pk, f"the cards are worth {total}, less than Population {self.population}")
        self._take(pk, cards, "farm")
        self.discard.extend(cards)
        if "Maize" in names:
            self.trade_plays.append(("Maize", pk))
        return True

    def build_phase(self, placements: tuple[Placement, ...]) -> int:
        """The Priest King places up to max_build_cards cards; returns the points scored."""
        self.phase = "Build"
        pk = self.priest_king
        if pk is None:
            self.illegal(None, "there is no Priest King this round")
        if len(placements) > self.R.max_build_cards:
            self.illegal(pk, f"builds with at most {self.R.max_build_cards} cards, not {len(placements)}")
        hand_before = list(self.hands[pk])
        temples_before = [list(t) for t in self.temples]
        self._take(pk, [p.card for p in placements], "build")
        touched: set[int] = set()
        gained = 0
        try:
            for pl in placements:
                self._place(pk, pl, touched)
                gained += pl.value
        except IllegalMove:
            self.hands[pk], self.temples = hand_before, temples_before  # a refused Build changes nothing
            raise
        self.build_rounds += 1
        if placements:
            self.add_points(pk, gained, "build")
            return gained
        self.no_build += 1
        self.add_points(pk, -self.R.no_build_penalty, "no_build")
        return -self.R.no_build_penalty

    def _place(self, pk: int, pl: Placement, touched: set[int]):
        kind = self.table.kind[pl.card]
        top = self.cfg.max_value
        if kind == BID:
            if pl.value != self.table.value[pl.card]:
                self.illegal(pk, f"{self._label(pl.card)} builds as {self.table.value[pl.card]}, not {pl.value}")
        elif kind == GOD:
            if not 1 <= pl.value <= top:
                self.illegal(pk, f"a God card builds as a value from 1 to {top}, not {pl.value}")
        else:
            self.illegal(pk, f"{self._label(pl.card)} is not a Bid or God card and cannot be built")
        if pl.temple is None:
            if pl.value != 1:
                self.illegal(pk, f"only a value-1 card starts a new temple, not a {pl.value}")
            self.temples.append([(pl.card, 1)])
            touched.add(len(self.temples) - 1)
            return
        if not 0 <= pl.temple < len(self.temples):
            self.illegal(pk, f"there is no temple {pl.temple + 1} (the table has {len(self.temples)})")
        if pl.value == 1:
            self.illegal(pk, "a value-1 card starts a new temple; it does not go on one")
        top_value = self.temples[pl.temple][-1][1]
        if top_value != pl.value - 1:
            self.illegal(pk, f"a {pl.value} goes on a temple topped {pl.value - 1}; "
                             f"temple {pl.temple + 1} is topped {top_value}")
        if not self.R.chain and pl.temple in touched:
            self.illegal(pk, f"temple {pl.temple + 1} was built on in this Build already (chain is off)")
        self.temples[pl.temple].append((pl.card, pl.value))
        touched.add(pl.temple)

    def cycle_phase(self, discards: dict[int, tuple[int, ...]]):
        """Every player over the hand limit discards down to it (cards of his choice)."""
        self.phase = "Cycle"
        chosen = {}
        for p in range(self.n):  # check every player's discards before any card moves
            excess = max(0, len(self.hands[p]) - self.R.hand_limit)
            cards = tuple(discards.get(p, ()))
            if len(cards) != excess:
                self.illegal(p, f"must discard exactly {excess} card(s) to keep {self.R.hand_limit}, "
                                f"not {len(cards)}")
            self._check_held(p, cards, "discard")
            chosen[p] = cards
        for p, cards in chosen.items():
            self._take(p, cards, "discard")
            self.discard.extend(cards)

    def end_round(self):
        """Round bookkeeping: leaders, the round and stall limits."""
        top = max(self.scores)
        self.leaders.append(tuple(p for p, s in enumerate(self.scores) if s == top))
        if self.over:
            return
        if self.no_king_streak >= self.R.stall_limit:
            self._finish("stall")
        elif self.round >= self.R.round_limit:
            self._finish("timeout")

    def _finish(self, how: str):
        self.over = True
        self.end = how

    @property
    def winners(self) -> tuple[int, ...]:
        top = max(self.scores)
        return tuple(p for p, s in enumerate(self.scores) if s == top)

    # --- one whole round with policies ----------------------------------------

    def play_round(self, policies, check=None):
        """Play the eight phases, asking ``policies[p]`` for every decision.

        ``check(game)``, when given, is called after every phase (for invariant tests)."""
        def after():
            if check is not None:
                check(self)

        self.calendar_phase(); after()
        self.population_phase(); after()
        if not self.over:
            self.draw_phase(); after()
        if self.over:
            self.end_round()
            return
        for p in self.turn_order():
            play = policies[p].trade(self, p)
            self.play_trade(p, play, lambda looked, p=p: policies[p].ceramics(self, p, looked))
        self.phase = "Trade"
        after()
        bids = {p: policies[p].bid(self, p) for p in range(self.n)}
        pk = self.bid_phase(bids); after()
        if pk is not None:
            farm, build = policies[pk].farm_build(self, pk)
            fed = self.farm_phase(tuple(farm)); after()
            if fed:
                self.build_phase(tuple(build)); after()
                self.cycle_phase({p: tuple(policies[p].discard(self, p, len(self.hands[p]) - self.R.hand_limit))
                                  for p in range(self.n) if len(self.hands[p]) > self.R.hand_limit})
                after()
        self.end_round()

    def play(self, policies, check=None):
        while not self.over:
            self.play_round(policies, check)
        return self
