"""The Altun Ha rules engine: setup, the eight phases, the end of the game.

The engine referees: every move goes through a method that checks it against
the rules model (:mod:`solver.altunha.rules`, shared with the turn solver)
and raises :class:`IllegalMove` with a clear message; a refused move leaves
the game as it was.  The built-in players only make legal moves, so an
IllegalMove during a run is a bug, not a user's mistake.

The rulings the seed leaves open are switches of the rules (game.toml
``[rulings]``, printed in the rulebook): which way the Calendar goes, an empty
deck, Jade and Maize and the one Trade card, the tie ladder of the bids, a
bid of no cards, chaining, choosing not to build, scores below zero.  Seats
are numbered clockwise; hand-limit discards are the player's choice; ties at
the end are shared wins.

A game ends in a famine, or when a ruling names another end: under
``empty_deck_ends``, at once when a card is due from the deck (a draw, or a
Trade card that draws or takes one) and the deck and the discard pile are
both empty.  A Trade card played in the Trade phase has its effect first and
goes onto the discard pile after, so it is never drawn or looked at by its
own effect.  Revealing Jade and feeding with Maize are a player's one Trade
card of the round under ``special_is_trade``.  The simulator's one safeguard,
the round cap, stops a game that is still running; such a game is reported
as stopped at the cap ("cap"), which is not an end the rules know.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from solver import engine as engine_protocol
from solver.altunha.cards import FEED, TARGETED
from solver.altunha.rules import (
    bid_problem,
    build_points,
    can_feed,
    can_place,
    farm_problem,
    hand_excess,
    placement_problem,
    resolve_bids,
)
from solver.altunha.sim.cards import BID, GOD, TRADE, table_for
from solver.altunha.sim.effects import CHOOSES, EFFECTS, LATER, take_looked
from solver.altunha.sim.variants import Setup

ENDS = ("famine", "empty_deck", "cap")   # "cap": stopped by the simulator, not ended by the rules


class IllegalMove(engine_protocol.IllegalMove):
    """A move the rules do not allow; the message names the player, the phase and why.

    Not a user error: the built-in players only make legal moves."""


class TradePlay(NamedTuple):
    card: int
    target: int | None = None


class Bid(NamedTuple):
    cards: tuple[int, ...] = ()
    jade: int | None = None   # the id of the card that wins the bid (Jade), when revealed with the bid


NO_BID = Bid()


class TablePlacement(NamedTuple):
    """One Build card of a simulated game: card id ``card`` laid as ``value`` on the temple at
    index ``temple`` of ``Game.temples`` (None starts a new temple)."""

    card: int
    value: int
    temple: int | None = None


def shuffle(rng: random.Random, cards: list) -> None:
    """Shuffle ``cards`` in place with the same draws, so to the same order, as ``rng.shuffle(cards)``
    (Fisher-Yates, each index drawn with ``getrandbits`` and redrawn while out of range), without
    two method calls per card."""
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


class Game:
    """One game in progress.  ``hands[p]`` are card ids; ``temples`` lists of (card, value)."""

    def __init__(self, setup: Setup, players: int, rng: random.Random):
        if not 2 <= players <= setup.max_players:
            raise ValueError(f"Altun Ha takes 2 to {setup.max_players} players with this deck, not {players}")
        self.setup = setup
        self.R = setup.rules
        self.table = table_for(setup)
        self._checks = self.table.checks
        self.rule_kind = self.table.rule_kind
        self.rng = rng
        self.n = players
        self.deck = list(range(self.table.size))
        shuffle(rng, self.deck)
        self.discard: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self._temples: list[list[tuple[int, int]]] = []
        self._tops: tuple[int, ...] | None = ()
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
        self._undo: list | None = None   # what a choosing Trade effect would put back (see _snapshot)
        self.looking: tuple | None = None  # (player, card, cards looked at) while a pick is pending
        # figures for the balance report
        self.points = [dict.fromkeys(setup.sources, 0) for _ in range(players)]
        self.trade_plays: list[tuple[str, int]] = []
        self.bid_result = ""
        self.reasons: dict[str, int] = {}
        self.empty_rounds = 0          # rounds in which every player bid no cards
        self.no_king_streak = 0
        self.max_no_king_streak = 0
        self.no_build = 0              # Builds with no card that could be laid
        self.declined = 0              # Builds where the Priest King laid nothing though he could have
        self.build_rounds = 0
        self.king_rounds = 0
        self.king_bid_empty = False    # this round's Priest King bid no cards
        self.famine_by: int | None = None
        self.famine_margin: int | None = None
        self.famine_empty_bid = False
        self.leaders: list[tuple[int, ...]] = []
        for p in range(players):
            self.draw(p, self.R.hand_size)

    # --- helpers ---------------------------------------------------------------

    def illegal(self, player: int | None, message: str):
        who = f"player {player + 1}" if player is not None else "the table"
        raise IllegalMove(f"round {self.round}, {self.phase} phase, {who}: {message}")

    def card_name(self, card: int) -> str:
        return self.table.name[card]

    def add_points(self, player: int, points: int, source: str) -> int:
        """Add ``points`` (negative: a loss) to a score; returns the change made.

        With the ``negative_scores`` ruling off a loss stops at 0."""
        if points < 0 and not self.R.negative_scores:
            points = -min(-points, max(0, self.scores[player]))
        self.scores[player] += points
        self.points[player][source] += points
        return points

    def reshuffle(self):
        if self.discard:
            if self._undo is not None and self._undo[-1] is None:
                self._undo[-1] = self.rng.getstate()   # a choice may yet be refused: keep the generator
            self.deck = self.discard
            self.discard = []
            shuffle(self.rng, self.deck)

    def draw(self, player: int, count: int) -> int:
        """Deal ``count`` cards from the deck (reshuffling the discard pile when it runs out); a card due
        when both are empty is not drawn (see supply_out)."""
        hand, deck = self.hands[player], self.deck
        if len(deck) >= count:  # the usual case: no reshuffle
            if count:
                hand.extend(deck[:-count - 1:-1])
                del deck[-count:]
            return count
        drawn = 0
        for _ in range(count):
            if not self.deck:
                self.reshuffle()
                if not self.deck:
                    self.supply_out()
                    break
            self.hands[player].append(self.deck.pop())
            drawn += 1
        return drawn

    def supply_out(self) -> None:
        """A card is due from the deck, and the deck and the discard pile are both empty: under the
        ``empty_deck_ends`` ruling the game ends at once; otherwise nothing is drawn and play goes on."""
        if self.R.empty_deck_ends and not self.over:
            self._finish("empty_deck")

    def turn_order(self) -> list[int]:
        return [(self.calendar + k) % self.n for k in range(self.n)]

    def hand_summary(self, player: int, without=(), with_jade: bool = False):
        """(Bid values, God count, feed card held) of a hand, leaving out the cards ``without``;
        ``with_jade`` adds the card that wins the bid (the lowest id), or None."""
        kind, value, effect = self.table.kind, self.table.value, self.table.effect
        values, gods, feed, jade = [], 0, False, None
        for c in self.hands[player]:
            if c in without:
                continue
            k = kind[c]
            if k == BID:
                values.append(value[c])
            elif k == GOD:
                gods += 1
            elif effect[c] == "feed":
                feed = True
            elif effect[c] == "win_bid" and (jade is None or c < jade):
                jade = c
        return (values, gods, feed, jade) if with_jade else (values, gods, feed)

    def feed_allowed(self, player: int) -> bool:
        """Whether the player may still use the feed card (Maize) this round."""
        return not (self.R.special_is_trade and player in self.traded)

    @property
    def temples(self) -> list[list[tuple[int, int]]]:
        """The temples on the table, each a list of (card, value) from the bottom up.  Change them
        through the phases (or assign a new list): the tops are remembered between changes."""
        return self._temples

    @temples.setter
    def temples(self, temples: list[list[tuple[int, int]]]):
        self._temples = temples
        self._tops = None

    def tops(self) -> list[int]:
        return list(self.top_values())

    def top_values(self) -> tuple[int, ...]:
        """The value on top of each temple, in table order."""
        if self._tops is None:
            self._tops = tuple([t[-1][1] for t in self._temples])
        return self._tops

    def _check_held(self, player: int, cards, what: str):
        hand = self.hands[player]
        if len(cards) > 1 and len(set(cards)) != len(cards):
            self.illegal(player, f"{what}: the same card is named twice")
        for c in cards:
            if c not in hand:
                self.illegal(player, f"{what}: {self._label(c)} is not in the hand")

    def _remove(self, player: int, cards):
        """Take checked cards (see _check_held) out of a hand."""
        hand = self.hands[player]
        for c in cards:
            hand.remove(c)

    def _problem(self, check, cards: tuple[int, ...], *args) -> str:
        """What the rules model's ``check`` (bid_problem, farm_problem) finds wrong with these held
        cards, given as (name, kind), and ``args``.  The answer depends only on the cards and
        ``args``, so it is memoised with the deck table (whose rules are this game's)."""
        key = (check, tuple(cards), *args)
        found = self._checks.get(key)
        if found is None:
            found = self._checks[key] = check(self._named(cards), *args, self.R)
        return found

    def _snapshot(self) -> list:
        """Everything a move can change, to put back if the move is refused part-way.

        The random generator's state (the last item) is kept only once the move
        draws from it: effects that ask for a choice draw only to reshuffle the
        deck (see reshuffle), and copying the generator costs more than the rest.
        (A player's choice that draws from the game's generator and is then
        refused leaves those draws made: only a faulty player does that.)"""
        return [[list(h) for h in self.hands], list(self.deck), list(self.discard), list(self.scores),
                [dict(x) for x in self.points], set(self.traded), len(self.trade_plays),
                [dict(x) for x in self.seen_hands], list(self.seen_deck), [list(t) for t in self._temples],
                self.over, self.end, None]

    def _restore(self, state: list):
        (hands, deck, discard, scores, points, traded, plays, seen_hands, seen_deck, temples,
         self.over, self.end, rng) = state
        for now, before in zip(self.hands, hands):
            now[:] = before
        self.deck[:], self.discard[:], self.scores[:] = deck, discard, scores
        for now, before in zip(self.points, points):
            now.clear()
            now.update(before)
        self.traded.clear()
        self.traded.update(traded)
        del self.trade_plays[plays:]
        self.seen_hands[:], self.seen_deck[:], self._temples[:] = seen_hands, seen_deck, temples
        self._tops = None
        if rng is not None:
            self.rng.setstate(rng)

    def _label(self, card) -> str:
        if isinstance(card, int) and 0 <= card < self.table.size:
            return f"{self.table.name[card]} (card {card})"
        return f"card {card!r}"

    def _named(self, cards) -> list[tuple[str, object]]:
        """(name, kind in the rules model) of held cards, for the shared legality checks."""
        return [(self.table.name[c], self.rule_kind[c]) for c in cards]

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

    def draw_phase(self):
        self.phase = "Draw"
        for p in self.turn_order():
            self.draw(p, self.R.draw)
            if self.over:      # the deck and the discard pile ran out under empty_deck_ends
                return

    def play_trade(self, player: int, play: TradePlay | None, choose=None):
        """One player's turn of the Trade phase: a Trade card, or None to pass.

        The card leaves the hand, has its effect, and then goes onto the discard pile (with
        ``choose`` LATER and a pick pending, once the pick is made: see take)."""
        self.phase = "Trade"
        if play is None:
            return
        if player in self.traded:
            self.illegal(player, "has already played a Trade card this round")
        card = play.card
        if card not in self.hands[player]:
            self.illegal(player, f"{self._label(card)} is not in the hand")
        name, effect = self.table.name[card], self.table.effect[card]
        if self.table.kind[card] != TRADE:
            self.illegal(player, f"{name} is not a Trade card")
        if effect not in EFFECTS:
            when = "revealed with the bid" if effect == "win_bid" else "used in the Farm phase"
            self.illegal(player, f"{name} is not played in the Trade phase; it is {when}")
        if effect in TARGETED:
            target = play.target
            if not isinstance(target, int) or not 0 <= target < self.n or target == player:
                self.illegal(player, f"{name} needs one opponent as its target (players 1..{self.n}, "
                                     f"not the player himself)")
        # an effect that asks for a choice checks it only once the card is played: keep what to put back
        # (unless the choice comes later, as a decision of its own)
        undo = self._undo = self._snapshot() if effect in CHOOSES and choose is not LATER else None
        self.hands[player].remove(card)
        self.traded.add(player)
        self.trade_plays.append((name, player))
        try:
            EFFECTS[effect](self, player, card, play, choose)
        except IllegalMove:
            if undo is not None:
                self._restore(undo)  # a refused choice changes nothing
            raise
        finally:
            self._undo = None
        if self.looking is None:
            self.discard.append(card)   # the effect is over: the card goes onto the discard pile

    def take(self, pick: int) -> None:
        """The pending pick of a card looked at (``looking``, left by play_trade with ``choose`` LATER):
        the player takes it, and the Trade card that looked goes onto the discard pile."""
        player, card, looked = self.looking
        take_looked(self, player, card, looked, pick)
        self.looking = None
        self.discard.append(card)

    def bid_phase(self, bids: dict[int, Bid]):
        """Reveal every bid at once; discard them; award the Priest King token (or nobody)."""
        self.phase = "Bid"
        played = [bids.get(p, NO_BID) for p in range(self.n)]
        for p, bid in enumerate(played):
            self.check_bid(p, bid)
        return self.reveal_bids(played)

    def check_bid(self, p: int, bid: Bid) -> None:
        """IllegalMove unless player ``p`` may make this bid."""
        cards, jade = bid
        if cards:
            self._check_held(p, cards, "bid")
            problem = self._problem(bid_problem, cards)
            if problem:
                self.illegal(p, problem)
        if jade is not None:
            if jade not in self.hands[p] or self.table.effect[jade] != "win_bid":
                self.illegal(p, "reveals the card that wins the bid without holding it")
            if self.R.special_is_trade and p in self.traded:
                self.illegal(p, "has already played a Trade card this round, so cannot reveal "
                                f"{self.table.name[jade]}")
            if jade in cards:
                self.illegal(p, "the card that wins the bid is revealed, not bid")

    def reveal_bids(self, played: list[Bid]):
        """Every player's checked bid (see check_bid), in player order, revealed at once."""
        self.phase = "Bid"
        value, n = self.table.value, self.n
        totals, sizes, jades = [0] * n, [0] * n, []
        for p, (cards, _) in enumerate(played):
            if cards:
                totals[p], sizes[p] = sum(map(value.__getitem__, cards)), len(cards)
        discard = self.discard
        for p, (cards, jade) in enumerate(played):
            if cards:
                self._remove(p, cards)
                discard.extend(cards)
            if jade is not None:
                self.hands[p].remove(jade)
                discard.append(jade)
                self.traded.add(p)       # a Trade card played (the one of the round under special_is_trade)
                self.trade_plays.append((self.table.name[jade], p))
                jades.append(p)
        if not jades and not any(sizes):
            self.empty_rounds += 1
        winner, reason = resolve_bids(totals, sizes, self.scores, jades, self.R)
        self.bid_result = reason
        self.reasons[reason] = self.reasons.get(reason, 0) + 1
        self.priest_king = winner
        if winner is None:
            self.no_king_streak += 1
            if self.no_king_streak > self.max_no_king_streak:
                self.max_no_king_streak = self.no_king_streak
        else:
            self.no_king_streak = 0
            self.king_rounds += 1
            self.king_bid_empty = sizes[winner] == 0 and winner not in jades
        return winner

    def can_farm(self, player: int) -> bool:
        values, gods, feed = self.hand_summary(player)
        return can_feed(values, gods, feed and self.feed_allowed(player), self.population, self.R)

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
            self.famine_empty_bid = self.king_bid_empty
            others = [s for q, s in enumerate(self.scores) if q != pk]
            self.famine_margin = self.scores[pk] - max(others)
            self.add_points(pk, -self.R.famine_penalty, "famine")
            self._finish("famine")
            return False
        self._check_held(pk, cards, "farm")
        problem = self._problem(farm_problem, cards, self.population)
        if problem:
            self.illegal(pk, problem)
        feeders = [c for c in cards if self.rule_kind[c] == FEED]
        if feeders and not self.feed_allowed(pk):
            self.illegal(pk, f"has already played a Trade card this round, so cannot use "
                             f"{self.table.name[feeders[0]]}")
        self._remove(pk, cards)
        self.discard.extend(cards)
        for c in feeders:
            self.traded.add(pk)
            self.trade_plays.append((self.table.name[c], pk))
        return True

    def build_phase(self, placements: tuple[TablePlacement, ...]) -> int:
        """The Priest King places up to max_build_cards cards; returns the points scored."""
        self.phase = "Build"
        pk = self.priest_king
        if pk is None:
            self.illegal(None, "there is no Priest King this round")
        if len(placements) > self.R.max_build_cards:
            self.illegal(pk, f"builds with at most {self.R.max_build_cards} cards, not {len(placements)}")
        self.build_rounds += 1
        if not placements:
            values, gods, _ = self.hand_summary(pk)
            able = can_place(values, gods, self.tops(), self.R)
            if able:
                self.declined += 1
            else:
                self.no_build += 1
            points = build_points((), able, self.R)
            if points:
                self.add_points(pk, points, "no_build")
            return points
        cards = [p.card for p in placements]
        self._check_held(pk, cards, "build")
        touched: set[int] = set()
        added: list[int] = []    # temples started by this Build (taken back if it is refused)
        raised: list[int] = []   # temples raised by this Build
        self._tops = None
        try:
            for pl in placements:
                self._place(pk, pl, touched, added, raised)
        except IllegalMove:
            for t in reversed(raised):
                self._temples[t].pop()
            del self._temples[len(self._temples) - len(added):]
            raise
        self._remove(pk, cards)
        return self.add_points(pk, build_points([p.value for p in placements], True, self.R), "build")

    def _place(self, pk: int, pl: TablePlacement, touched: set[int], added: list, raised: list):
        if pl.temple is not None and not 0 <= pl.temple < len(self._temples):
            self.illegal(pk, f"there is no temple {pl.temple + 1} (the table has {len(self._temples)})")
        top = None if pl.temple is None else self._temples[pl.temple][-1][1]
        rebuilt = pl.temple in touched
        if placement_problem("", self.rule_kind[pl.card], pl.value, top, rebuilt, self.R):  # again to name it
            self.illegal(pk, placement_problem(self._label(pl.card), self.rule_kind[pl.card], pl.value, top,
                                               rebuilt, self.R))
        if pl.temple is None:
            self._temples.append([(pl.card, 1)])
            added.append(len(self._temples) - 1)
            touched.add(len(self._temples) - 1)
        else:
            self._temples[pl.temple].append((pl.card, pl.value))
            raised.append(pl.temple)
            touched.add(pl.temple)

    def cycle_phase(self, discards: dict[int, tuple[int, ...]]):
        """Every player over the hand limit discards down to it (cards of his choice)."""
        self.phase = "Cycle"
        chosen = {}
        for p in range(self.n):  # check every player's discards before any card moves
            excess = hand_excess(len(self.hands[p]), self.R)
            cards = tuple(discards.get(p, ()))
            if len(cards) != excess:
                self.illegal(p, f"must discard exactly {excess} card(s) to keep {self.R.hand_limit}, "
                                f"not {len(cards)}")
            if cards:
                self._check_held(p, cards, "discard")
                chosen[p] = cards
        for p, cards in chosen.items():
            hand = self.hands[p]
            for c in cards:
                hand.remove(c)
            self.discard.extend(cards)

    def end_round(self):
        """Round bookkeeping: the leaders, and the simulator's round cap."""
        self.leaders.append(self.winners)
        if not self.over and self.round >= self.setup.round_cap:
            self._finish("cap")

    def _finish(self, how: str):
        self.over = True
        self.end = how

    @property
    def winners(self) -> tuple[int, ...]:
        """The players with the highest score."""
        scores = self.scores
        top = max(scores)
        if scores.count(top) == 1:
            return (scores.index(top),)
        return tuple(p for p, s in enumerate(scores) if s == top)

    def clone(self) -> "Game":
        """An independent copy (the deck table and rules shared, every changing part copied)."""
        g = object.__new__(Game)
        g.__dict__.update(self.__dict__)
        g.rng = engine_protocol.copy_rng(self.rng)
        g.deck, g.discard = list(self.deck), list(self.discard)
        g.hands = [list(h) for h in self.hands]
        g._temples = [list(t) for t in self._temples]
        g.scores = list(self.scores)
        g.points = [dict(x) for x in self.points]
        g.traded = set(self.traded)
        g.trade_plays = list(self.trade_plays)
        g.reasons = dict(self.reasons)
        g.seen_hands = [dict(x) for x in self.seen_hands]
        g.seen_deck = list(self.seen_deck)
        g.leaders = list(self.leaders)
        g._undo = None
        return g
