"""What every rules engine must do through the protocol (solver/engine.py), checked by playing random games.

``play_checked_games(engine, rules, players, games, seed)`` plays games choosing uniformly
among ``legal_actions()`` and asserts, at every decision: actions are listed (never none while
playing) in the same order twice; a copy (``clone``) is independent of its original; a world
dealt again for the player to move (``resample``) keeps what that player sees of his own hand
and whose turn it is, and offers him the same actions; an action that is no action is refused
with ``IllegalMove`` and changes nothing; ``action_text`` words every action.  At the end:
the game says how it ended, and the shares of the win add up to one.  Any engine's tests can
call it (Altun Ha's and the walk-through's toy engine do).
"""

from __future__ import annotations

import json
import random

from solver.engine import CAP, TERMINAL, IllegalMove


class NotAnAction:
    """Hashable, equal to nothing an engine deals in."""


# one encoder for every fingerprint (json.dumps with options makes a new one at each call): the same settings,
# so the same text for the same observations
_encode = json.JSONEncoder(sort_keys=True, default=str).encode


def _seen(state) -> str:
    return _encode([state.observation(p) for p in range(state.players)])


def play_checked_games(engine, rules, players: int, games: int, seed: int = 0, deep_every: int = 5) -> dict:
    """Play ``games`` random games checking the protocol (every ``deep_every``-th decision also checks copies
    and worlds dealt again); how many games ended each way."""
    ends: dict[str, int] = {}
    rng = random.Random(seed)
    for index in range(games):
        state = engine.new_game(rules, players, random.Random(f"{seed}/{index}"))
        decisions = 0
        while not state.is_terminal():
            player = state.current_player()
            assert player != TERMINAL and 0 <= player < players
            actions = state.legal_actions()
            assert actions, "no legal action while the game is not over"
            assert actions == state.legal_actions(), "legal actions listed in another order"
            assert len(set(actions)) == len(actions), "an action listed twice"
            for action in actions:
                text = state.action_text(action)
                assert isinstance(text, str) and text
            before = _seen(state)
            try:
                state.apply_action(NotAnAction())
            except IllegalMove:
                pass
            else:
                raise AssertionError("an action that is no action was played")
            assert _seen(state) == before, "a refused action changed the game"
            if decisions % deep_every == 0:
                copy = state.clone()
                copy.apply_action(actions[0])
                assert _seen(state) == before, "playing on a copy changed the original"
                world = state.resample(player, random.Random(rng.getrandbits(32)))
                assert world.current_player() == player
                assert world.observation(player).get("hand") == state.observation(player).get("hand")
                assert world.legal_actions() == actions, "a world dealt again offers other actions"
                assert _seen(state) == before, "dealing a world again changed the original"
            state.apply_action(rng.choice(actions))
            decisions += 1
        assert state.current_player() == TERMINAL
        assert state.end in (*getattr(engine, "ends", {}), CAP), state.end
        returns = state.returns()
        assert len(returns) == players and abs(sum(returns) - 1) < 1e-9
        assert len(state.scores()) == players
        assert json.dumps(engine.figures(state))      # small and JSON-able
        ends[state.end] = ends.get(state.end, 0) + 1
    return ends
