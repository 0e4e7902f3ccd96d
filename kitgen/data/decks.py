"""Decks: the kinds of card a game keeps apart, each printed and exported on its own.

A game with dragons and caves keeps two decks: they print on sheets of their
own (no page holds cards of two decks), and every export writes each apart
(its own PNG folder, Tabletop Simulator deck, contact-sheet section, print-shop
file).  A card's deck is, in this order:

1. its ``deck`` field, when ``[columns]`` maps one (a column, or a template
   such as ``deck = "{{ 'caves' if Type == 'Cave' else 'dragons' }}"``): a key
   or label of ``[decks]``, or a new deck of that name;
2. the deck of ``[decks]`` whose ``types`` list holds the card's type::

       [decks.dragons]
       label = "Dragons"
       types = ["dragon"]

3. without ``[decks]`` or a ``deck`` field: the deck of its type's back.  A
   game whose types have different backs (``[types.cave] back = "cave-back"``)
   is split into one deck per back, named after the first type with it; a game
   whose cards share one back is one deck, named after the game.

The decks keep the order ``[decks]`` gives them, then the order their first
cards come in the sheet; each deck's cards keep the sheet's order.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from kitgen.data.values import slugify
from kitgen.errors import GameDataError

DECK_KEYS = {"label", "types"}


@dataclass(frozen=True)
class Deck:
    key: str                 # a slug, for file names: "dragons"
    label: str               # as printed: "Dragons"
    cards: tuple             # its cards (kitgen.data.model.Card), in the sheet's order

    @property
    def size(self) -> int:
        return sum(card.count for card in self.cards)


def declared_decks(data: dict, where: str) -> dict[str, dict]:
    """game.toml's ``[decks]``: key -> {label, types}, checked."""
    table = data.get("decks", {})
    if not isinstance(table, dict):
        raise GameDataError("'decks' must be tables such as [decks.dragons] with label and types", file=where)
    found = {}
    for key, spec in table.items():
        if not isinstance(spec, dict):
            raise GameDataError(f"'decks.{key}' must be a table with label and types", file=where)
        unknown = sorted(set(spec) - DECK_KEYS)
        if unknown:
            raise GameDataError(f"unknown key 'decks.{key}.{unknown[0]}' (accepted: label, types)", file=where)
        label = spec.get("label", key.replace("-", " ").replace("_", " ").title())
        types = spec.get("types", [])
        if not isinstance(label, str) or not label.strip():
            raise GameDataError(f"'decks.{key}.label' must be text", file=where)
        if not isinstance(types, list) or not all(isinstance(t, str) for t in types):
            raise GameDataError(f"'decks.{key}.types' must be a list of type keys, e.g. [\"dragon\"]", file=where)
        if slugify(key, "") != key:
            raise GameDataError(f"'decks.{key}': a deck's key names its files; use letters, digits and '-' "
                                f"(\"{slugify(key, 'deck')}\")", file=where)
        found[key] = {"label": label.strip(), "types": types}
    return found


def assign_decks(cards: tuple, types: dict, game_back: str, data: dict, slug: str, title: str,
                 where: str, sheet_file: str, deck_column: str | None) -> tuple[tuple, tuple[Deck, ...]]:
    """The cards with their ``deck`` set, and the decks in order."""
    declared = declared_decks(data, where)
    by_type: dict[str, str] = {}
    type_keys = {}
    for k, t in types.items():
        type_keys.setdefault(k.casefold(), k)
        type_keys.setdefault(t.label.casefold(), k)
    for key, spec in declared.items():
        for named in spec["types"]:
            t = type_keys.get(named.casefold(), named)
            if t not in types:
                raise GameDataError(f"'decks.{key}.types' names the type {t!r}, which no card has and [types] does "
                                    f"not declare (types: {', '.join(k for k in types if k) or 'none'})", file=where)
            if t in by_type:
                raise GameDataError(f"the type {t!r} is in two decks, {by_type[t]} and {key}; a card is in one deck",
                                    file=where)
            by_type[t] = key
    lookup = {}
    for key, spec in declared.items():
        lookup.setdefault(key.casefold(), key)
        lookup.setdefault(spec["label"].casefold(), key)
    labels = {key: spec["label"] for key, spec in declared.items()}
    backs: dict[str, str] = {}                      # a type's back -> the deck it makes
    split = not declared and deck_column is None and len({t.back or game_back for t in types.values()
                                                          if any(c.type == t.key for c in cards)}) > 1
    out = []
    for card in cards:
        named = getattr(card, "deck", "")
        if named:
            key = lookup.get(named.casefold())
            if key is None:
                key = slugify(named, "deck")
                lookup[named.casefold()] = key
                labels.setdefault(key, named)
        elif card.type in by_type:
            key = by_type[card.type]
        elif declared:
            raise GameDataError(f"card {card.name!r} (type {card.type!r}) is in no deck: add its type to the types "
                                f"of one of [decks] ({', '.join(declared)})"
                                + (f", or give it one in {deck_column}" if deck_column else ""),
                                file=sheet_file, row=card.row)
        elif split:
            back = types[card.type].back or game_back
            if back not in backs:
                backs[back] = slugify(card.type or "cards", "deck")
                labels.setdefault(backs[back], types[card.type].label or title)
            key = backs[back]
        else:
            key = slug
            labels.setdefault(key, title)
        out.append(replace(card, deck=key))
    order = [k for k in declared] + [k for k in dict.fromkeys(c.deck for c in out) if k not in declared]
    decks = tuple(Deck(k, labels[k], tuple(c for c in out if c.deck == k)) for k in order
                  if any(c.deck == k for c in out))
    return tuple(out), decks
