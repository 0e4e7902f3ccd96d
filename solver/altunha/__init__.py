"""Altun Ha: the rules model of a turn, and a CP-SAT solver for the best Farm and Build.

Light imports (no OR-Tools): :mod:`.cards` (the deck and what each card does,
from the game data), :mod:`.rules` (the one rules model: rule numbers, the
playtest rulings' switches, legality, plans, preference order, shared with the
simulator in :mod:`.sim`), :mod:`.parse` (reading hands, temples and plays).
:mod:`.solve` holds the public solver API and loads OR-Tools on first use.
"""
