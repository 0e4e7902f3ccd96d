"""The numbers and switches of the rules, as data.

Defaults are the seed rules; a game's ``game.toml`` ``[rules]`` table
overrides them, ``--set KEY=VALUE`` overrides those for one run, and a
variant file (``--compare VARIANT.toml``) holds the same keys.  Deck counts
come from ``cards.csv`` and are overridden with ``count.<Card name>``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from kitgen.errors import GameDataError, OptionError

# key -> (default, lowest accepted, help).  Booleans have None as their lowest value.
NUMBERS: dict[str, tuple[Any, int | None, str]] = {
    "hand_size": (5, 0, "cards dealt to each player at setup"),
    "population_start": (2, 0, "Population before the first Population phase"),
    "population_growth": (1, 0, "added to Population in each Population phase"),
    "draw": (2, 0, "cards each player draws in the Draw phase"),
    "hand_limit": (5, 0, "cards kept after the Cycle phase"),
    "god_value": (7, 0, "a God card's value when bidding or farming"),
    "max_bid_cards": (2, 0, "Bid cards in one bid"),
    "max_farm_cards": (2, 1, "Bid cards discarded to farm"),
    "max_build_cards": (2, 0, "cards placed in one Build"),
    "famine_penalty": (13, 0, "points the Priest King loses in a famine"),
    "no_build_penalty": (7, 0, "points the Priest King loses when he places nothing"),
    "stone_draw": (3, 0, "Stone: cards drawn"),
    "salt_draw": (1, 0, "Salt: cards drawn"),
    "cocoa_steal": (1, 0, "Cocoa: cards taken from the opponent"),
    "ceramics_look": (5, 1, "Ceramics: cards looked at (one is taken)"),
    "honey_discard": (2, 0, "Honey: cards the opponent discards at random"),
    "feathers_points": (5, 0, "Feathers: points the opponent loses"),
    "textiles_points": (1, 0, "Textiles: points each opponent loses"),
    "pyrite_points": (3, 0, "Pyrite: points taken from the opponent"),
    "obsidian_points": (5, 0, "Obsidian: points gained"),
    "codex_look": (10, 0, "Codex: cards looked at"),
    "round_limit": (40, 1, "simulation: a game still running after this many rounds is a timeout"),
    "stall_limit": (8, 1, "simulation: this many rounds in a row without a Priest King stop a game as stalled"),
}
SWITCHES: dict[str, tuple[bool, str]] = {
    "chain": (True, "a second Build card may go on a temple started or raised in the same Build"),
    "calendar_clockwise": (False, "the Calendar token passes clockwise (the seed: to the right, counter-clockwise)"),
    "tie_drop": (True, "tied bids drop out and the highest bid made by one player wins"),
    "special_is_trade": (False, "revealing Jade or farming with Maize uses up the player's one Trade card"),
    "stalemate_stop": (True, "simulation: stop a game once Population exceeds the largest Farm "
                              "the deck allows without Maize (only a chosen famine could end it)"),
    "empty_deck_ends": (False, "the game ends (without famine) when a draw finds deck and discard empty"),
}
COUNT_PREFIX = "count."
_TRUE = {"true", "on", "yes", "1"}
_FALSE = {"false", "off", "no", "0"}


@dataclass(frozen=True)
class Rules:
    """Every number and switch the engine reads, plus the deck: (name, type, count, value) rows."""

    values: tuple[tuple[str, Any], ...]
    deck: tuple[tuple[str, str, int, int], ...]
    changed: tuple[str, ...] = field(default=())  # keys overridden by --set or a variant

    def __getattr__(self, key: str) -> Any:
        for k, v in object.__getattribute__(self, "values"):
            if k == key:
                return v
        raise AttributeError(key)

    def as_dict(self) -> dict[str, Any]:
        out = dict(self.values)
        out.update({COUNT_PREFIX + name: count for name, _, count, _ in self.deck})
        return out

    def count(self, name: str) -> int:
        return next(c for n, _, c, _ in self.deck if n == name)


def accepted_keys(rules: Rules | None = None) -> list[str]:
    keys = list(NUMBERS) + list(SWITCHES)
    if rules is not None:
        keys += [COUNT_PREFIX + name for name, *_ in rules.deck]
    else:
        keys.append(COUNT_PREFIX + "<card>")
    return keys


def _accepted_line(rules: Rules | None) -> str:
    return "accepted keys: " + ", ".join(accepted_keys(rules))


def parse_value(key: str, raw: Any, where: str, rules: Rules | None = None) -> Any:
    """One value for ``key`` checked and converted, or an OptionError naming ``where``."""
    if key in SWITCHES:
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise OptionError(where, f"{key}={raw!r}: expected true or false (on/off, yes/no, 1/0)")
    if key in NUMBERS or key.startswith(COUNT_PREFIX):
        lowest = NUMBERS[key][1] if key in NUMBERS else 0
        if isinstance(raw, bool):
            raise OptionError(where, f"{key}={raw!r}: expected a whole number")
        try:
            value = int(str(raw).strip())
        except ValueError:
            raise OptionError(where, f"{key}={raw!r}: expected a whole number") from None
        if value < lowest:
            raise OptionError(where, f"{key}={value}: must be at least {lowest}")
        if value > 10_000:
            raise OptionError(where, f"{key}={value}: must be at most 10000")
        return value
    raise OptionError(where, f"unknown key {key!r}; {_accepted_line(rules)}")


def rules_from_game(game) -> Rules:
    """The rules of a loaded kitgen Game: defaults, then its [rules] table, then cards.csv."""
    where = f"{game.slug}/game.toml [rules]"
    values = {k: v[0] for k, v in NUMBERS.items()}
    values.update({k: v[0] for k, v in SWITCHES.items()})
    for key, raw in game.rules.items():
        if key not in values:
            raise GameDataError(f"unknown rules key {key!r}; {_accepted_line(None)}", file=where)
        try:
            values[key] = parse_value(key, raw, where)
        except OptionError as exc:
            raise GameDataError(str(exc).split(": ", 1)[1], file=where) from None
    deck = []
    for card in game.cards:
        value = card.numeric_value or 0
        deck.append((card.name, card.type, card.count, value))
    return Rules(values=tuple(values.items()), deck=tuple(deck))


def load_rules(game: str = "altun-ha") -> Rules:
    from kitgen.data.game import load_game

    return rules_from_game(load_game(game))


def _card_name(rules: Rules, name: str, where: str) -> str:
    from solver.altunha.cards import fold

    for card, *_ in rules.deck:
        if fold(card) == fold(name):
            return card
    names = ", ".join(n for n, *_ in rules.deck)
    raise OptionError(where, f"no card named {name!r} for count.<card> (cards: {names})")


def with_settings(rules: Rules, settings: dict[str, Any], where: str = "--set") -> Rules:
    """``rules`` with ``settings`` applied (keys as for --set), each checked."""
    values = dict(rules.values)
    counts = {name: count for name, _, count, _ in rules.deck}
    changed = list(rules.changed)
    for key, raw in settings.items():
        key = key.strip()
        if key.startswith(COUNT_PREFIX):
            name = _card_name(rules, key[len(COUNT_PREFIX):], where)
            counts[name] = parse_value(key, raw, where, rules)
            changed.append(COUNT_PREFIX + name)
        else:
            values[key] = parse_value(key, raw, where, rules)
            changed.append(key)
    deck = tuple((n, t, counts[n], v) for n, t, _, v in rules.deck)
    new = replace(rules, values=tuple(values.items()), deck=deck, changed=tuple(dict.fromkeys(changed)))
    if sum(c for *_, c, _ in [(n, t, c, v) for n, t, c, v in deck]) == 0:
        raise OptionError(where, "the deck would hold no cards")
    return new


def parse_set_options(items: tuple[str, ...] | list[str]) -> dict[str, str]:
    """``["population_start=3", ...]`` -> dict, refusing items without ``=``."""
    out = {}
    for item in items:
        if "=" not in item:
            raise OptionError("--set", f"{item!r} is not KEY=VALUE; {_accepted_line(None)}")
        key, value = item.split("=", 1)
        out[key.strip()] = value.strip()
    return out


def read_variant(path: Path) -> tuple[str, dict[str, Any]]:
    """A variant file: KEY = VALUE lines (optionally under [rules]); ``name`` labels it."""
    where = f"--compare {path}"
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise OptionError("--compare", f"file not found: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise OptionError("--compare", f"cannot read {path} ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise OptionError("--compare", f"{path}: bad TOML: {exc}") from None
    name = str(data.pop("name", Path(path).stem))
    settings: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict):
            for sub, v in value.items():
                settings[sub if key == "rules" else f"{key}.{sub}"] = v
        else:
            settings[key] = value
    if not settings:
        raise OptionError(where, "the file changes no rule; write KEY = VALUE lines such as population_start = 3")
    return name, settings
