"""The lookahead player, for any engine: determinised playouts through the protocol alone.

To choose, the player deals the cards it cannot see again at random (``State.resample``),
plays each legal action in that world and the game on to its end with the engine's greedy
players in every seat, and keeps the action that wins most often.  Actions are compared on
the same worlds (each world is copied for every action, its random generator with it), and
the budget is spent by sequential halving: each round plays every action still in the race
on new worlds, then drops the worse half, so most playouts go to the close calls.  A playout
that the rules have not ended a quarter of the round cap after it started, or that the engine
stops itself (``end = "cap"``), counts as an even share: a game that never ends is nobody's
win, so the player never aims at the simulator's safeguard.  An engine whose games are long
races of rounds may set ``playout_rounds``: its playouts then stop when that many rounds have
ended, and the leaders by ``scores()`` share the win (a playout of a whole game of two hundred
turns of greedy play says little about one turn's choice; who wins the round says much).

The budget is a number of playouts a decision (``lookahead:N`` in ``--policy``; without N,
:data:`PLAYOUTS` or the engine's own ``playouts``, for an engine whose playouts are short), so a game
depends on its seed alone; a time budget (``seconds``) is for interactive use, where
reproducing a run does not matter.  :func:`advise` gives each legal action's win rate from
the same playouts, with its Wilson interval, for ``kitgen solve GAME --advise``.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, Hashable

from kitgen.errors import OptionError
from solver.engine import CAP, shares

LOOKAHEAD = "lookahead"
PLAYOUTS = 120          # the default budget: playouts a decision
MAX_PLAYOUTS = 100_000
ROLLOUT = "greedy"      # the engine's policy that plays the playouts out
HORIZON = 0.25          # a playout runs at most this share of the round cap beyond the round it starts in


def default_playouts(engine) -> int:
    """The playouts a decision of ``lookahead`` without N: the engine's own ``playouts``, or :data:`PLAYOUTS`."""
    return getattr(engine, "playouts", PLAYOUTS)


def parse_budget(name: str, option: str = "--policy", default: int = PLAYOUTS) -> int:
    """The playouts of ``lookahead`` (``default``) or ``lookahead:N``."""
    _, sep, count = name.partition(":")
    if not sep:
        return default
    if not count.isascii() or not count.isdigit() or not 1 <= int(count) <= MAX_PLAYOUTS:
        raise OptionError(option, f"{name!r}: lookahead:N takes N playouts a decision, a whole number from 1 to "
                                  f"{MAX_PLAYOUTS:,}")
    return int(count)


def lookahead_player(engine, rules, name: str, rng: random.Random) -> "LookaheadPlayer":
    return LookaheadPlayer(engine, rules, rng, playouts=parse_budget(name, default=default_playouts(engine)))


class LookaheadPlayer:
    """A protocol Player choosing by determinised playouts (see the module's description)."""

    def __init__(self, engine, rules, rng: random.Random, playouts: int = PLAYOUTS, seconds: float | None = None):
        self.engine, self.rules, self.rng = engine, rules, rng
        self.playouts, self.seconds = playouts, seconds
        self.cap = engine.round_cap(rules)
        self.rounds = getattr(engine, "playout_rounds", None)   # None: playouts run to the game's end
        self.rollout: list = []

    def _rollout(self, players: int) -> list:
        while len(self.rollout) < players:
            self.rollout.append(self.engine.policies[ROLLOUT](self.rng))
        return self.rollout

    def choose(self, state, player: int) -> Hashable:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        return actions[self.best(state, player, actions)]

    def best(self, state, player: int, actions: list) -> int:
        """The index of the action that won most often (the earliest of equals), by sequential halving."""
        alive = list(range(len(actions)))
        wins = [0.0] * len(actions)
        played = [0] * len(actions)
        rounds = max(1, math.ceil(math.log2(len(actions))))
        deadline = time.monotonic() + self.seconds if self.seconds is not None else None
        for r in range(rounds):
            worlds = max(1, self.playouts // (rounds * len(alive)))
            for _ in range(worlds):
                world = state.resample(player, self.rng)
                for i in alive:
                    wins[i] += self.playout(world, player, actions[i])
                    played[i] += 1
                if deadline is not None and time.monotonic() > deadline:
                    break
            if len(alive) > 1 and r < rounds - 1:
                alive.sort(key=lambda i: (-wins[i] / max(1, played[i]), i))
                alive = sorted(alive[:max(1, math.ceil(len(alive) / 2))])
            if deadline is not None and time.monotonic() > deadline:
                break
        return min(alive, key=lambda i: (-wins[i] / max(1, played[i]), i))

    def playout(self, world, player: int, action) -> float:
        """``player``'s share of the win after ``action`` in a copy of ``world``, played out by the rollout players.

        With the engine's ``playout_rounds`` the playout stops when that many rounds have ended, and the
        leaders by ``scores()`` share the win.  A playout the rules do not end within :data:`HORIZON` of the
        round cap from where it starts (or that the engine stops itself, ``end = "cap"``) is worth an even share: a game that never ends is
        nobody's win, so the player never plays for the simulator's safeguard (a leader does not stall a
        game to have the cap declare him the winner), and a stalled world costs a quarter of the cap, not
        all of it."""
        s = world.clone()
        s.apply_action(action)
        cap, rollout = min(self.cap, s.round + max(1, int(self.cap * HORIZON))), self._rollout(s.players)
        stop = world.round + self.rounds if self.rounds else None
        done, current, apply = s.is_terminal, s.current_player, s.apply_action   # bound once: a playout is many turns
        while not done():
            if stop is not None and s.round >= stop:
                return shares(s.scores())[player]
            if s.round > cap:
                return 1.0 / s.players
            p = current()
            apply(rollout[p].choose(s, p))
        return 1.0 / s.players if s.end == CAP else s.returns()[player]


def playout_words(engine) -> str:
    """How a playout goes on, in words for the advice: to the game's end, or to the end of the engine's rounds."""
    rounds = getattr(engine, "playout_rounds", None)
    if not rounds:
        return "the game played out by greedy players"
    what = "the round under way" if rounds == 1 else f"{rounds} rounds"
    return f"{what} played out by greedy players, the leaders then counted as its winners"


def advise(engine, rules, state, playouts: int, rng: random.Random) -> list[dict[str, Any]]:
    """Each legal action of the current player with its win rate over ``playouts`` worlds (the same worlds
    for every action), best first: ``{"action", "text", "wins", "n", "rate", "low", "high"}``."""
    from solver.simulation.stats import wilson

    player = state.current_player()
    actions = state.legal_actions()
    looker = LookaheadPlayer(engine, rules, rng, playouts)
    wins = [0.0] * len(actions)
    for _ in range(playouts):
        world = state.resample(player, rng)
        for i, action in enumerate(actions):
            wins[i] += looker.playout(world, player, action)
    rows = [{"action": i, "text": state.action_text(a), "wins": round(wins[i], 4), **wilson(wins[i], playouts)}
            for i, a in enumerate(actions)]
    return sorted(rows, key=lambda row: (-row["wins"], row["action"]))
