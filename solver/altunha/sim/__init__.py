"""Altun Ha's rules engine for the simulator: the referee, its State, players and figures.

:mod:`.variants` (what is played: rules, deck, round cap, and --set), :mod:`.engine` (the
eight phases, refereed with the rules model of :mod:`solver.altunha.rules`), :mod:`.state`
(a game as the protocol's State: the phases as a sequence of decisions), :mod:`.effects`
(Trade cards by effect), :mod:`.enumerate` (the fast Farm, Build and bid optimum),
:mod:`.policies` (players) and :mod:`.report` (Altun Ha's own balance figures).  The
generic simulator (:mod:`solver.simulation`) plays it through :mod:`solver.altunha.engine`.
"""
