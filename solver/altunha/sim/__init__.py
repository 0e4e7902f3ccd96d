"""Automated playtesting of Altun Ha: a rules engine, players, parallel runs and balance figures.

:mod:`.variants` (what is played: rules, deck, round cap, and --set), :mod:`.engine` (the
eight phases, refereed with the rules model of :mod:`solver.altunha.rules`),
:mod:`.effects` (Trade cards by effect), :mod:`.enumerate` (the fast Farm, Build and bid
optimum), :mod:`.policies` (players), :mod:`.runner` (parallel runs), :mod:`.stats` (the
figures and findings, plain data) and :mod:`.simulate` (one call: play, sum up, write).
The balance report is drawn by the kit generator (:mod:`kitgen.render.balance_report`).
"""
