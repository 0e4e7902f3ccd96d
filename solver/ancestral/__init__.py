"""Ancestral: its rules engine, players and exact turn answers, behind the engine protocol.

:data:`solver.ancestral.engine.ENGINE` is the Engine object (``[rules] engine =
"ancestral"``).  Modules: :mod:`.rules` (numbers, rulings and deck read from
game.toml and cards.csv), :mod:`.deck`, :mod:`.moves` (actions, legality,
their words), :mod:`.state` (one game), :mod:`.policies` (simple players),
:mod:`.measure` (the game's measure of an action), :mod:`.solve` (the turn
question), :mod:`.figures` (a game's figures and the balance report's section).
"""
