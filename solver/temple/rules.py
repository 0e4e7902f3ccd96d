"""The rules of Temple of Inscriptions as one object: the numbers, the rulings, the deck.

:func:`rules_of_game` reads them from a loaded kitgen ``Game``: the numbers of
game.toml ``[rules]``, the playtest rulings of its ``[rulings.<name>]`` tables
(the same list the rulebook prints), the round cap of ``[simulation]`` and the
deck of cards.csv.  :func:`with_settings` changes them for one run
(``--set NAME=VALUE``): a number, a ruling's option, ``round_cap``, or
``count.<card>`` (copies of a card in the deck).

Cards are told apart by their type and value, never by their name: a card of
type ``construction`` with value L is a construction card of level L, a card of
type ``jewel`` is wild.  In play a card is its *kind*: :data:`JEWEL` (0) or its
level (1..levels); cards of one kind are identical.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field, replace
from typing import Any

from kitgen.data.rulings import Ruling, parse_rulings, value_text
from kitgen.errors import GameDataError, OptionError
from solver.engine import on_off, whole_setting

JEWEL = 0                   # the kind of a jewel card; construction cards are their level, 1..levels
CONSTRUCTION, JEWEL_TYPE = "construction", "jewel"   # the card types of cards.csv the engine plays
ENGINE_KEY = "engine"
ROUND_CAP, COUNT_PREFIX = "round_cap", "count."
MAX_CAP, MAX_COUNT = 10_000, 1000

# game.toml [rules] numbers: name -> (lowest, highest, meaning)
NUMBERS: dict[str, tuple[int, int, str]] = {
    "levels": (1, 1000, "pyramid levels, built in ascending order"),
    "cards_per_level": (1, 100, "construction cards that complete a level"),
    "max_cards_per_player": (1, 100, "cards one player may set in one construction"),
    "jewels_per_card": (1, 100, "jewels set together as one construction card"),
    "draw": (0, 100, "cards each player draws in the draw phase"),
    "swap_zone": (0, 100, "face-up cards in the swap zone"),
    "summon_cost": (0, 1000, "points the summoner pays"),
    "hand_size": (0, 100, "cards dealt to each player at setup"),
    "start_treasure": (0, 100_000, "points of treasure each player starts with"),
    "jewel_points": (0, 1000, "points of each jewel kept to the end"),
}
# the rulings the engine plays: name -> its options as the code implements them (a bool: on/off)
RULINGS: dict[str, tuple[str, ...] | type] = {
    "scoring": ("per_card", "per_player"),
    "starting_hand": ("deal", "none"),
    "turn_order": ("rotate", "fixed"),
    "empty_pile": ("reshuffle", "stop"),
    "summoner_sets": bool,
    "summon_refund": bool,
    "summon_needs_treasure": bool,
    "one_construction": bool,
    "ties": ("jewels", "shared"),
}
SETTINGS: tuple[str, ...] = (*NUMBERS, *RULINGS, ROUND_CAP)


@dataclass(frozen=True)
class Rules:
    """Every number, ruling and deck count one game follows."""

    levels: int
    cards_per_level: int
    max_cards_per_player: int
    jewels_per_card: int
    draw: int
    swap_zone: int
    summon_cost: int
    hand_size: int
    start_treasure: int
    jewel_points: int
    scoring: str
    starting_hand: str
    turn_order: str
    empty_pile: str
    summoner_sets: bool
    summon_refund: bool
    summon_needs_treasure: bool
    one_construction: bool
    ties: str
    counts: tuple[int, ...]          # copies of each kind in the deck: JEWEL, then levels 1..top_level
    names: tuple[str, ...]           # the card name of each kind
    round_cap: int
    players_min: int = 2
    players_max: int = 5
    rulings: tuple[Ruling, ...] = field(default=(), compare=False, repr=False)
    changed: tuple[str, ...] = field(default=(), compare=False)   # the settings --set changed

    @property
    def top_level(self) -> int:
        """The highest level the deck has cards for (``levels`` may be lower)."""
        return len(self.counts) - 1

    @property
    def jewel_name(self) -> str:
        return self.names[JEWEL]

    def deck(self) -> list[int]:
        """The kinds of every card played: jewels and the levels up to ``levels``, in kind order."""
        return [kind for kind in range(self.levels + 1) for _ in range(self.counts[kind])]

    def kind_of(self, name: str) -> int | None:
        """The kind of the card called ``name`` (any case, accents optional), or None."""
        wanted = fold(name)
        for kind, card in enumerate(self.names[:self.levels + 1]):
            if fold(card) == wanted:
                return kind
        return None

    def values(self) -> dict[str, Any]:
        """Every setting ``--set`` accepts, with its value (numbers, rulings, round cap, card counts)."""
        out = {name: getattr(self, name) for name in SETTINGS}
        out.update({COUNT_PREFIX + name: count for name, count in zip(self.names, self.counts)})
        return out


def fold(text: str) -> str:
    """A name folded for matching: lower case, accents dropped, spaces collapsed."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())


def game_file(game) -> str:
    return f"{game.slug}/game.toml" if game.builtin else str(game.root / "game.toml")


def rules_of_game(game) -> Rules:
    """The rules of a loaded kitgen ``Game`` as its data says, before any setting."""
    where = game_file(game)
    values: dict[str, Any] = {}
    for key, raw in game.rules.items():
        if key == ENGINE_KEY:
            continue
        if key not in NUMBERS:
            raise GameDataError(f"[rules]: unknown rule {key!r}; the rules engine reads {', '.join(NUMBERS)}",
                                file=where)
        values[key] = whole_setting(key, raw, *NUMBERS[key][:2], f"{where} [rules]", GameDataError)
    missing = [k for k in NUMBERS if k not in values]
    if missing:
        raise GameDataError(f"[rules] lacks {missing[0]!r} ({NUMBERS[missing[0]][2]})", file=where)
    rulings = parse_rulings(game.rulings, where)
    named = {r.name: r for r in rulings}
    for name, options in RULINGS.items():
        ruling = named.get(name)
        if ruling is None:
            raise GameDataError(f"[rulings] lacks the ruling {name!r}, which the rules engine reads", file=where)
        if options is bool:
            if ruling.kind is not bool:
                raise GameDataError(f"[rulings.{name}]: default must be true or false", file=where)
        elif ruling.kind is bool or set(ruling.values) != set(options):
            raise GameDataError(f"[rulings.{name}]: the options are {', '.join(options)}", file=where)
        values[name] = ruling.default
    extra = [r.name for r in rulings if r.name not in RULINGS]
    if extra:
        raise GameDataError(f"[rulings.{extra[0]}]: no such switch in the rules engine "
                            f"(it reads {', '.join(RULINGS)})", file=where)
    counts, names = _deck(game, where)
    if values["levels"] > len(counts) - 1:
        raise GameDataError(f"[rules] levels = {values['levels']}, but cards.csv has construction cards "
                            f"up to level {len(counts) - 1}", file=where)
    table = game.raw.get("simulation", {}) if isinstance(game.raw, dict) else {}
    unknown = sorted(set(table) - {ROUND_CAP})
    if unknown:
        raise GameDataError(f"[simulation]: unknown key {unknown[0]!r} (accepted: {ROUND_CAP})", file=where)
    cap = whole_setting(ROUND_CAP, table.get(ROUND_CAP, 200), 1, MAX_CAP, f"{where} [simulation]", GameDataError)
    return Rules(**values, counts=counts, names=names, round_cap=cap, players_min=game.players_min,
                 players_max=game.players_max, rulings=rulings)


def _deck(game, where: str) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """(copies, name) of each kind: the jewel first, then one construction card for each level."""
    levels: dict[int, Any] = {}
    jewel = None
    for card in game.cards:
        if card.type == JEWEL_TYPE:
            if jewel is not None:
                raise GameDataError(f"a second {JEWEL_TYPE} card, {card.name!r}: the rules engine plays one "
                                    f"kind of jewel", file=where, row=card.row)
            jewel = card
        elif card.type == CONSTRUCTION:
            level = card.numeric_value
            if level is None or level < 1:
                raise GameDataError(f"{card.name}: a construction card's value is its level, a whole number "
                                    f"from 1", file=where, row=card.row, column="value")
            if level in levels:
                raise GameDataError(f"{card.name}: level {level} already has a card, {levels[level].name}; "
                                    f"the rules engine plays one card for each level", file=where, row=card.row)
            levels[level] = card
        else:
            raise GameDataError(f"{card.name}: the rules engine plays only {CONSTRUCTION} and {JEWEL_TYPE} cards, "
                                f"not {card.type!r}", file=where, row=card.row, column="type")
    top = max(levels, default=0)
    gaps = [n for n in range(1, top + 1) if n not in levels]
    if not levels or gaps:
        raise GameDataError(f"cards.csv has no construction card of level {gaps[0] if gaps else 1}", file=where)
    counts = (jewel.count if jewel else 0, *(levels[n].count for n in range(1, top + 1)))
    names = (jewel.name if jewel else "Jewel", *(levels[n].name for n in range(1, top + 1)))
    return counts, names


def options_of(name: str) -> tuple[str, ...]:
    """The values a ruling accepts, as text."""
    options = RULINGS[name]
    return ("true", "false") if options is bool else options


def accepted(rules: Rules) -> list[str]:
    return [*SETTINGS, *(COUNT_PREFIX + n for n in rules.names[:rules.levels + 1])]


def with_settings(rules: Rules, settings: dict[str, Any], option: str = "--set") -> Rules:
    """``rules`` with ``settings`` (name -> value as typed) applied, each checked; a bad name or value is an
    ``OptionError(option, ...)`` naming it and what is accepted."""
    changes: dict[str, Any] = {}
    counts = list(rules.counts)
    changed = list(rules.changed)
    for key, raw in settings.items():
        name = str(key).strip().replace("-", "_")
        if name.startswith(COUNT_PREFIX):
            kind = rules.kind_of(name[len(COUNT_PREFIX):])
            if kind is None:
                raise OptionError(option, f"no card named {name[len(COUNT_PREFIX):]!r} for count.<card> "
                                          f"(cards: {', '.join(rules.names[:rules.levels + 1])})")
            counts[kind] = whole_setting(COUNT_PREFIX + rules.names[kind], raw, 0, MAX_COUNT, option)
            changed.append(COUNT_PREFIX + rules.names[kind])
            continue
        if name in NUMBERS:
            low, high, _ = NUMBERS[name]
            if name == "levels":
                high = rules.top_level
            changes[name] = whole_setting(name, raw, low, high, option)
        elif name == ROUND_CAP:
            changes[name] = whole_setting(name, raw, 1, MAX_CAP, option)
        elif name in RULINGS:
            changes[name] = _ruling_value(name, raw, option)
        else:
            raise OptionError(option, f"unknown key {str(key)!r}; accepted keys: {', '.join(accepted(rules))}")
        changed.append(name)
    out = replace(rules, **changes, counts=tuple(counts), changed=tuple(dict.fromkeys(changed)))
    if not out.deck():
        raise OptionError(option, "the deck would hold no cards")
    return out


def _ruling_value(name: str, raw: Any, option: str) -> bool | str:
    if RULINGS[name] is bool:
        if on_off(raw) is None:
            raise OptionError(option, f"{name} takes true or false, not {raw!r}")
        return on_off(raw)
    text = value_text(raw) if isinstance(raw, bool) else str(raw).strip().lower()
    if text not in RULINGS[name]:
        raise OptionError(option, f"{name} takes one of {', '.join(RULINGS[name])}, not {raw!r}")
    return text
