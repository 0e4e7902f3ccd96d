"""The names of the rules-engine protocol this engine uses (solver/engine.py).

They come from the protocol module; until that module is part of the code
base, the same names are defined here, so that the engine's exception is the
one the generic tools catch either way.
"""

from __future__ import annotations

from typing import Sequence

try:
    from solver.engine import TERMINAL, IllegalMove, shares_of
except ImportError:          # the protocol module is not there yet: the same names, defined here
    TERMINAL = -1            # current_player() of a finished game

    class IllegalMove(Exception):
        """An action the rules do not allow in this state; the state is left as it was."""

    def shares_of(winning: Sequence[int], players: int) -> list[float]:
        """Each player's share of the win: 1/k for each of the k players in ``winning``."""
        won = set(winning)
        return [1.0 / len(won) if p in won else 0.0 for p in range(players)]

__all__ = ["TERMINAL", "IllegalMove", "shares_of"]
