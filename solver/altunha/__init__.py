"""Altun Ha: the rules model of a turn, and a CP-SAT solver for the best Farm and Build.

Light imports (no OR-Tools): :mod:`.cards` (the deck), :mod:`.rules` (legality,
plans, preference order), :mod:`.parse` (reading hands, temples and plays).
:mod:`.solve` holds the public solver API and loads OR-Tools on first use.
"""
