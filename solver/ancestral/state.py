"""One game of Ancestral in progress: setup, turns, Hunuc-Huar answers, rounds, the end.

The rules as played here (each open point is a ruling of game.toml, named in brackets):

* **Setup.** Each player takes a Reference card (the ones left over stay out
  of the deck [spare_references]); the rest is shuffled and each player is
  dealt ``hand_size`` cards.  A random player starts the first round
  [first_player].
* **A turn** is one action, then the player draws back up to ``hand_size``
  (shuffling the discard pile into a new deck when the deck runs out), and
  play passes to the next player still in the round, to the left:
  - *Attack*: lay 1 to 3 winds of different kinds [damage_by] and name one
    other player in the round; 1, 2 or 3 kinds deal ``damage`` leaves.  The
    player attacked may cancel the attack at once with a Hunuc-Huar
    [hunuc_huar_by]: the Hunuc-Huar and the winds are discarded, the player
    who played it draws back up at once and the attacker's turn ends.
    Otherwise each defense of the hut stops one leaf and is discarded (when
    some are left, the attacker chose which go, as part of the attack); each
    leaf that gets through is the top card of the deck laid face down in the
    hut [leaf_reshuffle], until the hut holds ``leaves_to_lose``: then its
    owner is out of the round and their hand, leaves and defenses go to the
    discard pile.
  - *Protect*: lay defenses of kinds not yet in the hut [protect_many].
  - *Clean*: play breeze cards, at most one a leaf in the hut; each sweeps a leaf away.
  - *Discard*: any cards from the hand, none being a pass [pass_allowed].
* **A round** ends when one player is left in it: they take an offering.
  The first with ``offerings_to_win`` offerings wins the game (``end =
  "offerings"``); otherwise a new round is dealt [new_round], started by the
  winner [round_starter].

Turns are numbered in ``turns``; ``round`` is the round being played (from 1).
A game still running after ``turn_cap`` turns or ``round_cap`` rounds is
stopped (``end = "cap"``): that is the simulator's safeguard, not an end of the
rules.  Cards are kinds (cards.csv order): hands count them, the deck, the
discard pile and the leaves list them.
"""

from __future__ import annotations

import random

from solver.ancestral.moves import (
    ATTACK,
    CLEAN,
    LET,
    PLAY,
    PROTECT,
    action_text,
    others,
    table_for,
    turn_actions,
    turn_problem,
)
from solver.engine import TERMINAL, IllegalMove, copy_rng
from solver.ancestral.rules import Rules, circulating

ENDS = ("offerings", "cap")   # "cap": stopped by the simulator's safeguard, not by the rules
COUNTERS = ("attacks", "cancelled", "leaves_cancelled", "leaves_laid", "leaves_stopped", "leaves_lost",
            "leaves_cleaned", "defenses_laid", "eliminations", "passes", "discards", "reshuffles")


class State:
    """A game of Ancestral at one point; build it with :func:`new_game`."""

    __slots__ = ("rules", "table", "players", "rng", "cards", "hands", "deck", "discard", "seen", "leaves",
                 "defense", "in_round", "left", "offerings", "round", "turns", "round_turns", "mover",
                 "starter", "pending", "end", "count", "round_winners", "round_starters", "round_lengths",
                 "round_eliminated", "cancels")

    # --- the protocol -----------------------------------------------------------------------

    def current_player(self) -> int:
        if self.end is not None:
            return TERMINAL
        pending = self.pending
        return pending[5][pending[6]] if pending else self.mover

    def is_terminal(self) -> bool:
        return self.end is not None

    def legal_actions(self) -> list:
        if self.end is not None:
            return []
        if self.pending:
            return [PLAY, LET]
        p = self.mover
        return turn_actions(self.table, self.hands[p], p, self.in_round, self.defense, len(self.leaves[p]))

    def apply_action(self, action) -> None:
        """Play ``action`` for the current player; IllegalMove (the state unchanged) if the rules refuse it."""
        if self.end is not None:
            raise IllegalMove(f"the game is over ({self.end}): no more moves")
        pending = self.pending
        if pending:
            self._answer(pending, action)
            return
        p = self.mover
        hand = self.hands[p]
        table = self.table
        kind = action[0] if type(action) is tuple and action else None
        if not (kind == ATTACK and table.attack_is_legal(hand, p, self.in_round, self.defense, action)):
            problem = turn_problem(table, hand, p, self.in_round, self.defense, len(self.leaves[p]), action)
            if problem:
                raise IllegalMove(f"round {self.round}, player {p + 1}'s turn: {problem}")
        count, discard, seen = self.count, self.discard, self.seen
        if kind == ATTACK:
            _, t, winds, hit = action
            for k, c in table.spend[winds]:
                hand[k] -= c
                discard.extend([k] * c)
                seen[k] += c
            damage = table.damage[winds][0]
            count["attacks"] += 1
            answering = self._answering(p, t)
            if answering:
                self.pending = [p, t, damage, hit, winds, answering, 0]
                return
            self._strike(t, damage, hit)
        elif kind == PROTECT:
            mask = action[1]
            for i, k in enumerate(self.table.protections):
                if mask >> i & 1:
                    hand[k] -= 1
                    count["defenses_laid"] += 1
            self.defense[p] |= mask
        elif kind == CLEAN:
            n = action[1]
            spend = n
            for k in self.table.breezes:
                used = min(spend, hand[k])
                hand[k] -= used
                discard.extend([k] * used)
                seen[k] += used
                spend -= used
            leaves = self.leaves[p]
            discard.extend(leaves[-n:])       # face down: swept leaves are not seen
            del leaves[-n:]
            count["leaves_cleaned"] += n
        else:
            counts = action[1]
            if any(counts):
                for k, c in enumerate(counts):
                    if c:
                        hand[k] -= c
                        discard.extend([k] * c)
                        seen[k] += c
                count["discards"] += 1
            else:
                count["passes"] += 1
        self._end_turn(p)

    def returns(self) -> list[float]:
        """Each player's share of the win: the holder of the winning offerings, or at the cap the players
        with the most offerings sharing it; all 0 while the game goes on."""
        if self.end is None:
            return [0.0] * self.players
        top = max(self.offerings)
        winners = [p for p, o in enumerate(self.offerings) if o == top]
        return [1 / len(winners) if p in winners else 0.0 for p in range(self.players)]

    def scores(self) -> list[float]:
        """Offerings held."""
        return [float(o) for o in self.offerings]

    def seats(self) -> list[int]:
        """Each player's seat: 0 is the first player of round 1, then to the left."""
        first, n = self.round_starters[0], self.players
        return [(p - first) % n for p in range(n)]

    def clone(self) -> "State":
        new = State.__new__(State)
        new.rules, new.table, new.players, new.cards = self.rules, self.table, self.players, self.cards
        new.rng = copy_rng(self.rng)
        new.hands = [list(h) for h in self.hands]
        new.deck, new.discard, new.seen = list(self.deck), list(self.discard), list(self.seen)
        new.leaves = [list(x) for x in self.leaves]
        new.defense, new.in_round, new.offerings = list(self.defense), list(self.in_round), list(self.offerings)
        new.left, new.round, new.turns, new.round_turns = self.left, self.round, self.turns, self.round_turns
        new.mover, new.starter, new.end = self.mover, self.starter, self.end
        new.pending = list(self.pending) if self.pending else None
        new.count = dict(self.count)
        new.cancels = list(self.cancels)
        new.round_winners, new.round_starters = list(self.round_winners), list(self.round_starters)
        new.round_lengths, new.round_eliminated = list(self.round_lengths), list(self.round_eliminated)
        return new

    def observation(self, player: int) -> dict:
        """What ``player`` may see: their own hand, every hut (leaves counted, defenses by name), how
        many cards each hand, the deck and the discard pile hold, the face-up cards of the discard
        pile, the offerings, and an attack waiting for its answer."""
        names = self.table.names
        pending = None
        if self.pending:
            attacker, target, damage, hit, winds, answering, i = self.pending
            pending = {"attacker": attacker, "target": target, "damage": damage, "answering": answering[i],
                       "winds": {names[k]: c for k, c in zip(self.table.winds, winds) if c}}
        return {
            "player": player, "players": self.players, "round": self.round, "turns": self.turns,
            "current_player": self.current_player(), "end": self.end,
            "hand": {names[k]: c for k, c in enumerate(self.hands[player]) if c},
            "hand_sizes": [sum(h) for h in self.hands],
            "huts": [{"in_round": self.in_round[p], "leaves": len(self.leaves[p]), "offerings": self.offerings[p],
                      "defenses": [names[k] for i, k in enumerate(self.table.protections)
                                   if self.defense[p] >> i & 1]} for p in range(self.players)],
            "deck": len(self.deck), "discard": len(self.discard),
            "discard_face_up": {names[k]: c for k, c in enumerate(self.seen) if c},
            "attack": pending,
        }

    def resample(self, player: int, rng: random.Random) -> "State":
        """A clone in which every card ``player`` has not seen (other hands, leaves, the deck, the face-down
        cards of the discard pile) is dealt again at random with ``rng``; what they have seen stays."""
        new = self.clone()
        new.rng = random.Random(rng.getrandbits(64))
        kinds = self.table.kinds
        unseen: list[int] = list(new.deck)
        hidden_discard = _minus(new.discard, new.seen)
        unseen += hidden_discard
        for p in range(new.players):
            unseen += new.leaves[p]
            if p != player:
                for k, c in enumerate(new.hands[p]):
                    unseen += [k] * c
        rng.shuffle(unseen)
        for p in range(new.players):
            if p != player:
                size = sum(new.hands[p])
                hand = [0] * kinds
                for k in unseen[:size]:
                    hand[k] += 1
                del unseen[:size]
                new.hands[p] = hand
            n = len(new.leaves[p])
            new.leaves[p] = unseen[:n]
            del unseen[:n]
        hidden = len(hidden_discard)
        new.discard = [k for k, c in enumerate(new.seen) for _ in range(c)] + unseen[:hidden]
        new.deck = unseen[hidden:]
        return new

    def action_text(self, action) -> str:
        return action_text(self.table, action)

    # --- the rules, step by step ---------------------------------------------------------------

    def _answering(self, attacker: int, target: int) -> list[int]:
        """Who may yet cancel this attack with a Hunuc-Huar, in the order they decide."""
        holds = self.table.holds_special
        hands = self.hands
        if self.rules.hunuc_huar_by == "target":
            return [target] if holds(hands[target]) else []
        order = [target] + [q for q in others(attacker, self.in_round) if q != target]
        return [q for q in order if holds(hands[q])]

    def _answer(self, pending: list, action) -> None:
        attacker, target, damage, hit, winds, answering, i = pending
        if action == PLAY:
            q = answering[i]
            hand = self.hands[q]
            k = next(k for k in self.table.specials if hand[k])
            hand[k] -= 1
            self.discard.append(k)
            self.seen[k] += 1
            self.count["cancelled"] += 1
            self.cancels[q] += 1
            self.count["leaves_cancelled"] += damage
            self._refill(q)
            self.pending = None
        elif action == LET:
            if i + 1 < len(answering):
                pending[6] = i + 1
                return
            self.pending = None
            self._strike(target, damage, hit)
        else:
            raise IllegalMove(f"round {self.round}, player {answering[i] + 1} answers player {attacker + 1}'s "
                              f"attack: the answer is to play a Hunuc-Huar {PLAY!r} or to let it through "
                              f"{LET!r}, not {action!r}")
        self._end_turn(attacker)

    def _strike(self, target: int, damage: int, hit: int) -> None:
        """An attack that was not cancelled: defenses stop leaves, the rest are laid, a full hut is out."""
        count = self.count
        if hit:
            self.defense[target] &= ~hit
            for i, k in enumerate(self.table.protections):
                if hit >> i & 1:
                    self.discard.append(k)
                    self.seen[k] += 1
                    count["leaves_stopped"] += 1
            damage -= self.table.popcount[hit]
        leaves = self.leaves[target]
        lay = min(damage, self.table.lose - len(leaves))
        deck = self.deck
        for laid in range(lay):
            if not deck:
                if not (self.rules.leaf_reshuffle and self._reshuffle()):
                    count["leaves_lost"] += lay - laid
                    break
                deck = self.deck
            leaves.append(deck.pop())
            count["leaves_laid"] += 1
        if len(leaves) >= self.table.lose:
            self._out(target)

    def _out(self, p: int) -> None:
        """Player ``p``'s hut is full: they are out of the round, and their cards go to the discard pile."""
        hand, discard, seen = self.hands[p], self.discard, self.seen
        for k, c in enumerate(hand):
            if c:
                discard.extend([k] * c)
                seen[k] += c
                hand[k] = 0
        discard.extend(self.leaves[p])
        self.leaves[p] = []
        for i, k in enumerate(self.table.protections):
            if self.defense[p] >> i & 1:
                discard.append(k)
                seen[k] += 1
        self.defense[p] = 0
        self.in_round[p] = False
        self.left -= 1
        self.count["eliminations"] += 1
        self.round_eliminated.append(p)

    def _end_turn(self, p: int) -> None:
        self._refill(p)
        self.turns += 1
        self.round_turns += 1
        if self.left == 1:
            self._end_round(p)
        else:
            n, in_round = self.players, self.in_round
            q = (p + 1) % n
            while not in_round[q]:
                q = (q + 1) % n
            self.mover = q
        if self.end is None and (self.turns >= self.rules.turn_cap or self.round > self.rules.round_cap):
            self.end = "cap"

    def _end_round(self, winner: int) -> None:
        self.offerings[winner] += 1
        self.round_winners.append(winner)
        self.round_lengths.append(self.round_turns)
        if self.offerings[winner] >= self.rules.offerings_to_win:
            self.end = "offerings"
            return
        self.round += 1
        self.round_turns = 0
        n = self.players
        self.starter = winner if self.rules.round_starter == "winner" else (self.starter + 1) % n
        if self.rules.new_round == "deal":
            self._deal()
        else:
            discard = self.discard
            discard.extend(self.leaves[winner])
            self.leaves[winner] = []
            for i, k in enumerate(self.table.protections):
                if self.defense[winner] >> i & 1:
                    discard.append(k)
                    self.seen[k] += 1
            self.defense[winner] = 0
            self.in_round = [True] * n
            self.left = n
            for s in range(self.starter, self.starter + n):
                self._refill(s % n)
        self.mover = self.starter
        self.round_starters.append(self.starter)

    def _deal(self) -> None:
        """Every card played with is shuffled into one deck; huts emptied; a new hand for everyone."""
        n, kinds = self.players, self.table.kinds
        self.deck = list(self.cards)
        shuffle(self.rng, self.deck)
        self.discard = []
        self.seen = [0] * kinds
        self.hands = [[0] * kinds for _ in range(n)]
        self.leaves = [[] for _ in range(n)]
        self.defense = [0] * n
        self.in_round = [True] * n
        self.left = n
        for s in range(self.starter, self.starter + n):
            self._refill(s % n)

    def _refill(self, p: int) -> None:
        """Draw until the hand holds hand_size cards (the discard pile reshuffled when the deck runs out)."""
        hand = self.hands[p]
        need = self.table.hand_size - sum(hand)
        if need <= 0:
            return
        deck = self.deck
        if len(deck) >= need:
            for k in deck[-need:]:
                hand[k] += 1
            del deck[-need:]
            return
        while need:
            if not deck:
                if not self._reshuffle():
                    return
                deck = self.deck
            hand[deck.pop()] += 1
            need -= 1

    def _reshuffle(self) -> bool:
        if not self.discard:
            return False
        self.deck = self.discard
        shuffle(self.rng, self.deck)
        self.discard = []
        self.seen = [0] * self.table.kinds
        self.count["reshuffles"] += 1
        return True


def shuffle(rng: random.Random, cards: list) -> None:
    """Shuffle ``cards`` in place, each order as likely (sorted by a random key each: twice as fast as
    ``rng.shuffle`` for a deck)."""
    cards.sort(key=lambda _, draw=rng.random: draw())


def _minus(cards: list[int], seen: list[int]) -> list[int]:
    """The cards of ``cards`` left once ``seen[k]`` of each kind ``k`` are taken out."""
    left = list(seen)
    out = []
    for k in cards:
        if left[k]:
            left[k] -= 1
        else:
            out.append(k)
    return out


def new_game(rules: Rules, players: int, rng: random.Random) -> State:
    """A game of ``players`` with setup done: hands dealt, the first player's turn pending."""
    from solver.ancestral.rules import max_players

    if not rules.players_min <= players <= max_players(rules):
        raise ValueError(f"Ancestral takes {rules.players_min} to {max_players(rules)} players, not {players}")
    s = State.__new__(State)
    s.rules, s.table, s.players, s.rng = rules, table_for(rules), players, rng
    s.cards = tuple(circulating(rules, players))
    s.offerings = [0] * players
    s.round, s.turns, s.round_turns = 1, 0, 0
    s.pending, s.end = None, None
    s.count = dict.fromkeys(COUNTERS, 0)
    s.cancels = [0] * players                 # attacks each player cancelled with a Hunuc-Huar
    s.round_winners, s.round_lengths, s.round_eliminated = [], [], []
    s.starter = rng.randrange(players) if rules.first_player == "random" else 0
    s.round_starters = [s.starter]
    s._deal()
    s.mover = s.starter
    return s
