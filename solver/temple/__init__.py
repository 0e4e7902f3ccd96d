"""Temple of Inscriptions: its rules engine, its simple players and its exact answers.

:mod:`.rules` (the numbers, the playtest rulings and the deck, from the game data),
:mod:`.state` (a game in progress, as the rules-engine protocol's State),
:mod:`.policies` (the simple players), :mod:`.figures` (one game's figures and the
balance report's section), :mod:`.search` (the construction question answered by
exhaustive search) and :mod:`.solve` (positions read, answers and checks in words),
:mod:`.engine` (the Engine object the registry names).  The protocol's names
(``TERMINAL``, ``IllegalMove``) are :mod:`solver.engine`'s.
"""
