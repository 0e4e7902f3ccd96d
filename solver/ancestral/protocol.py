"""The two names of the rules-engine protocol that this engine raises and returns.

They are the protocol's own (``solver/engine.py``): ``TERMINAL``, what
``current_player()`` returns once a game is over, and ``IllegalMove``, what
``apply_action`` raises for a move the rules refuse (a bug of a player, not a
user's mistake).  They are defined here until that module exists; then this
file becomes ``from solver.engine import TERMINAL, IllegalMove``.
"""

TERMINAL = -1


class IllegalMove(Exception):
    """A move the rules do not allow; the message says who, what and why.  The state is left unchanged."""
