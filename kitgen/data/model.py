"""The typed objects a game is read into: card types, cards, the back and the game."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping


@dataclass(frozen=True)
class CardType:
    key: str
    label: str
    color: str  # "#rrggbb"
    face: str = ""   # the layout of this type's faces, "" for the game's
    back: str = ""   # the layout of this type's backs, "" for the game's


@dataclass(frozen=True)
class Card:
    """One row of the card sheet: kitgen's fields as attributes, every column in :attr:`fields`.

    Rows are the cards' identity: two rows may share a name (one card in
    several factions), and each keeps its own :attr:`row`.
    """

    name: str
    type: str          # key of a CardType
    count: int
    value: str         # "" when the card has no value
    text: str
    art: str           # file name inside the art folder, "" for none
    row: int           # the row as a spreadsheet shows it (the header is row 1)
    fields: Mapping[str, str] = field(default_factory=dict, compare=False)  # every column, by its header
    color: str = ""    # "#rrggbb" of the card's own frame, "" for its type's colour
    face: str = ""     # a layout named by the card's own row ([columns] face), "" for its type's
    back: str = ""     # the layout of its back named by its row ([columns] back), "" for its type's
    corner: str = ""   # a short mark for the corners of a card without a value, "" for none
    deck: str = ""     # the key of its deck (kitgen.data.decks); as read from the sheet until decks are assigned

    @property
    def numeric_value(self) -> int | None:
        return int(self.value) if self.value.lstrip("-").isdigit() else None

    @property
    def label(self) -> str:
        """How messages name the card: "card 'Fox'", or, for a card the game lets go without a name,
        "a card without a name"."""
        return f"card {self.name!r}" if self.name else "a card without a name"


@dataclass(frozen=True)
class Back:
    title: str
    color: str
    accent: str
    text_color: str
    art: str
    subtitle: str
    layout: str = "kitgen-back"   # the layout every card's back is drawn with, unless its type or row names one


@dataclass(frozen=True)
class Game:
    slug: str
    title: str
    subtitle: str
    players_min: int
    players_max: int
    players_usual: int            # the top of the count the game is made for (players_max unless more may play)
    card_size: str                # a name or WxH, checked as the game loads (kitgen.units.card_size)
    rulebook: str                 # template file name inside template_dir, "" for none
    types: dict[str, CardType]
    cards: tuple[Card, ...]
    back: Back
    components: tuple[Any, ...]   # parsed by kitgen.data.components
    rules: dict[str, Any]         # numbers of the rules (for solvers), as written
    rulings: dict[str, Any]
    root: Path                    # the folder holding game.toml
    template_dir: Path
    art_dir: Path
    builtin: bool
    raw: dict[str, Any] = field(compare=False, repr=False, default_factory=dict)
    sheet: Any = field(compare=False, repr=False, default=None)   # the card sheet read (kitgen.data.sheet.Sheet)
    mapping: dict[str, int] = field(compare=False, repr=False, default_factory=dict)  # field -> sheet column
    derived: dict[str, str] = field(compare=False, repr=False, default_factory=dict)  # field -> "[columns] field"
    warnings: tuple[str, ...] = field(compare=False, default=())  # found while reading, not mistakes
    art: Any = field(compare=False, repr=False, default=None)     # the ArtLibrary that checked the art as it loaded
    layouts: dict[str, Any] = field(compare=False, repr=False, default_factory=dict)  # name -> Layout
    face: str = "kitgen"          # the layout of every face, unless its type or row names one
    layout_columns: dict[str, int] = field(compare=False, repr=False, default_factory=dict)  # template name -> column
    deck_list: tuple = field(compare=False, repr=False, default=())   # kitgen.data.decks.Deck, in order
    icon_map: dict[str, str] = field(compare=False, repr=False, default_factory=dict)  # game.toml's [icons]

    @property
    def tokens(self):
        """The text that prints as icons: ``[icons]`` and the emoji with a built-in twin (kitgen.data.icons)."""
        from kitgen.data.icons import tokens_for

        return tokens_for(tuple(sorted(self.icon_map.items())))

    @property
    def decks(self) -> tuple:
        """The decks, each printed and exported apart (one deck, named after the game, unless the game
        keeps several: kitgen.data.decks)."""
        if self.deck_list:
            return self.deck_list
        from kitgen.data.decks import Deck

        return (Deck(self.slug, self.title, self.cards),)

    @property
    def deck_order(self) -> list[int]:
        """The indices of :attr:`cards`, deck by deck (each deck's cards in the sheet's order)."""
        index = {id(card): i for i, card in enumerate(self.cards)}
        return [index[id(card)] for deck in self.decks for card in deck.cards]

    @property
    def template_root(self) -> Path:
        """The folder no template may lead out of: the game folder (a built-in game's template folder)."""
        return self.template_dir if self.builtin else self.root

    @property
    def art_root(self) -> Path:
        """The folder no art file may lead out of: the game folder (a built-in game's art folder)."""
        return self.art_dir if self.builtin else self.root

    @property
    def players_text(self) -> str:
        """"2-4", "3", or "2-4+ (up to 16)" when the game is made for 2 to 4 and more may play."""
        lo, hi = self.players_min, self.players_max
        if self.players_usual < hi:
            return f"{lo}-{self.players_usual}+ (up to {hi})"
        return f"{lo}" if lo == hi else f"{lo}-{hi}"

    @property
    def deck_size(self) -> int:
        return sum(c.count for c in self.cards)

    def face_of(self, card: Card):
        """The layout ``card``'s face is drawn with: its row's, else its type's, else the game's."""
        return self.layouts[card.face or self.types[card.type].face or self.face]

    def back_of(self, card: Card):
        """The layout ``card``'s back is drawn with: its row's, else its type's, else the game's."""
        return self.layouts[card.back or self.types[card.type].back or self.back.layout]

    def column(self, name: str) -> str:
        """The header of the column holding kitgen's field ``name`` (e.g. 'Front Name' for 'name'),
        as messages name it; the field's own name when no column holds it."""
        if name in self.derived:
            return self.derived[name]
        if self.sheet is None or name not in self.mapping:
            return name
        return self.sheet.columns.names[self.mapping[name]]

    def unused_columns(self) -> tuple[list[str], list[str]]:
        """Headers of the columns that neither a card field nor anything read from ``card.fields``
        used so far (validate renders the rulebook first): (columns holding values, empty columns)."""
        if self.sheet is None:
            return [], []
        columns = self.sheet.columns
        used = columns.used | set(self.mapping.values())
        full, empty = [], []
        for i in columns.named():
            if i not in used:
                has_values = any(i < len(cells) and cells[i].strip() for _, cells in self.sheet.rows)
                (full if has_values else empty).append(columns.names[i])
        return full, empty
