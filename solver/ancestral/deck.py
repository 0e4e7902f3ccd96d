"""Ancestral's deck as the engine sees it: kinds of card and the part each plays, from cards.csv.

A *kind* is one name of the card sheet (Strong Wind, Quincha Defense...),
numbered in cards.csv order; copies of a kind are identical in play.  What a
kind does comes from its ``type`` column, never from its name:

* ``wind``: attacks (the kinds of wind are told apart: an attack combines kinds);
* ``protection``: a defense laid in a hut, at most one of each kind;
* ``breeze``: sweeps one leaf out of its player's hut;
* ``special``: played out of turn, cancels an attack (Hunuc-Huar Protection);
* ``reference``: a summary of the turn, no action of its own.

Names are matched as people type them by :meth:`Deck.lookup`: any case,
accents, spaces and hyphens optional (``hunuc huar`` finds Hunuc-Huar
Protection), or the start of one name (``quincha``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from kitgen.data.columns import header_key
from kitgen.errors import GameDataError

WIND, PROTECTION, BREEZE, SPECIAL, REFERENCE = "wind", "protection", "breeze", "special", "reference"
ROLES = (REFERENCE, WIND, PROTECTION, BREEZE, SPECIAL)


@dataclass(frozen=True)
class Deck:
    """The kinds of card, in cards.csv order: name, role and copies of each."""

    names: tuple[str, ...]
    roles: tuple[str, ...]
    counts: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.names)

    def of(self, role: str) -> tuple[int, ...]:
        """The kinds that play ``role``, in cards.csv order."""
        return tuple(k for k, r in enumerate(self.roles) if r == role)

    @property
    def winds(self) -> tuple[int, ...]:
        return self.of(WIND)

    @property
    def protections(self) -> tuple[int, ...]:
        return self.of(PROTECTION)

    @cached_property
    def _keys(self) -> list[str]:
        """Each name as a typed name is compared (a play's words are read back by the thousand)."""
        return [header_key(n) for n in self.names]

    def lookup(self, text: str) -> int | None:
        """The kind a typed name means: the whole name, else the one name it starts (None if none or several)."""
        key = header_key(text)
        if not key:
            return None
        keys = self._keys
        if key in keys:
            return keys.index(key)
        starts = [k for k, n in enumerate(keys) if n.startswith(key)]
        return starts[0] if len(starts) == 1 else None


def deck_from_game(game, where: str) -> Deck:
    """The Deck of a loaded kitgen Game; a type with no part in the rules, or a name used twice, is refused."""
    names, roles, counts = [], [], []
    for card in game.cards:
        if card.type not in ROLES:
            raise GameDataError(f"type {card.type!r} of {card.name!r} plays no part in Ancestral's rules "
                                f"(its card types are {', '.join(ROLES)})", file=game.sheet.file if game.sheet
                                else where, row=card.row, column=game.column("type"))
        if card.name in names:
            k = names.index(card.name)
            if roles[k] != card.type:
                raise GameDataError(f"{card.name!r} is a {roles[k]} card and a {card.type} card: the rules "
                                    "engine tells cards apart by name", row=card.row,
                                    file=game.sheet.file if game.sheet else where)
            counts[k] += card.count
            continue
        names.append(card.name)
        roles.append(card.type)
        counts.append(card.count)
    if not any(r == WIND for r in roles):
        raise GameDataError("the deck has no wind card: nobody could ever attack", file=where)
    return Deck(tuple(names), tuple(roles), tuple(counts))
