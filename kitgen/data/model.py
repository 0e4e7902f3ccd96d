"""The typed objects a game is read into: card types, cards, the back and the game."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kitgen.data.paths import contained


@dataclass(frozen=True)
class CardType:
    key: str
    label: str
    color: str  # "#rrggbb"


@dataclass(frozen=True)
class Card:
    name: str
    type: str          # key of a CardType
    count: int
    value: str         # "" when the card has no value
    text: str
    art: str           # file name inside the art folder, "" for none
    row: int           # the record's row in cards.csv (the header is row 1)
    fields: dict[str, str] = field(default_factory=dict, compare=False)  # every column

    @property
    def numeric_value(self) -> int | None:
        return int(self.value) if self.value.lstrip("-").isdigit() else None


@dataclass(frozen=True)
class Back:
    title: str
    color: str
    accent: str
    text_color: str
    art: str
    subtitle: str


@dataclass(frozen=True)
class Game:
    slug: str
    title: str
    subtitle: str
    players_min: int
    players_max: int
    card_size: str
    rulebook: str                 # template file name inside template_dir, "" for none
    types: dict[str, CardType]
    cards: tuple[Card, ...]
    back: Back
    components: tuple[Any, ...]   # parsed by kitgen.components
    rules: dict[str, Any]         # numbers of the rules (for solvers), as written
    rulings: dict[str, Any]
    root: Path                    # the folder holding game.toml
    template_dir: Path
    art_dir: Path
    builtin: bool
    raw: dict[str, Any] = field(compare=False, repr=False, default_factory=dict)

    @property
    def deck_size(self) -> int:
        return sum(c.count for c in self.cards)

    def art_path(self, name: str, where: str) -> Path:
        """Path of an art file, refusing names that escape the art folder."""
        return contained(self.art_dir, name, where)
