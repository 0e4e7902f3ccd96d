"""What the simulator plays: the rules, the deck and the round cap, and how a run changes them.

The rules (numbers and rulings) come from the game data through
:class:`solver.altunha.rules.Rules`; ``--set KEY=VALUE`` changes them for one
run, and a variant file (``--compare VARIANT.toml``, read by
:mod:`solver.simulation.variants`) holds the same keys.
Besides the rules' own names, ``count.<Card>`` changes how many copies of a
card the deck holds, ``amount.<Card>`` what a Trade card's effect counts, and
``round_cap`` the simulator's safeguard (game.toml ``[simulation]``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from kitgen.errors import GameDataError, OptionError
from solver.altunha.cards import Deck, deck_from_game, fold
from solver.altunha.rules import SETTINGS, Rules, with_settings
from solver.engine import whole_setting

COUNT_PREFIX, AMOUNT_PREFIX = "count.", "amount."
ROUND_CAP = "round_cap"
MAX_CAP = 10_000
MAX_COUNT = 1000


@dataclass(frozen=True)
class Setup:
    """Everything a simulated game follows: rules, deck (with counts and effect amounts), round cap."""

    rules: Rules
    deck: Deck
    round_cap: int
    changed: tuple[str, ...] = ()   # keys changed by --set or a variant

    def as_dict(self) -> dict[str, Any]:
        out = self.rules.as_dict()
        out[ROUND_CAP] = self.round_cap
        out.update({COUNT_PREFIX + c.name: c.count for c in self.deck.cards})
        out.update({AMOUNT_PREFIX + c.name: c.amount for c in self.deck.cards if c.has_amount})
        return out

    @cached_property
    def sources(self) -> tuple[str, ...]:
        """Where points come from: building, not building, famine, and each card that moves points."""
        from solver.altunha.cards import POINT_EFFECTS

        return ("build", "no_build", "famine",
                *(fold(c.name) for c in self.deck.trade_cards if c.effect in POINT_EFFECTS))

    @cached_property
    def max_players(self) -> int:
        """The most players the deck can deal a starting hand to."""
        return self.deck.size // max(1, self.rules.hand_size)


def accepted_keys(deck: Deck | None = None) -> list[str]:
    keys = [*SETTINGS, ROUND_CAP]
    if deck is None:
        return keys + [COUNT_PREFIX + "<card>", AMOUNT_PREFIX + "<card>"]
    return (keys + [COUNT_PREFIX + c.name for c in deck.cards]
            + [AMOUNT_PREFIX + c.name for c in deck.cards if c.has_amount])


def setup_from_game(game) -> Setup:
    """The Setup of a loaded kitgen Game: its rules, rulings, cards and [simulation] table."""
    where = f"{game.slug}/game.toml" if game.builtin else str(game.root / "game.toml")
    rules = Rules.from_game(game.slug if game.builtin else str(game.root))
    table = game.raw.get("simulation", {})
    unknown = sorted(set(table) - {ROUND_CAP})
    if unknown:
        raise GameDataError(f"[simulation]: unknown key {unknown[0]!r} (accepted: {ROUND_CAP})", file=where)
    cap = table.get(ROUND_CAP)
    if isinstance(cap, bool) or not isinstance(cap, int) or not 1 <= cap <= MAX_CAP:
        raise GameDataError(f"[simulation] {ROUND_CAP} must be a whole number from 1 to {MAX_CAP}, "
                            f"not {cap!r}", file=where)
    return Setup(rules=rules, deck=deck_from_game(game), round_cap=cap)


def load_setup(game: str = "altun-ha") -> Setup:
    from solver.altunha.cards import game_data

    return setup_from_game(game_data(game))


def _card(deck: Deck, key: str, prefix: str, where: str) -> str:
    name = key[len(prefix):]
    for card in deck.cards:
        if fold(card.name) == fold(name):
            if prefix == AMOUNT_PREFIX and not card.has_amount:
                raise OptionError(where, f"{key}: {card.name} has no effect amount to change")
            return card.name
    raise OptionError(where, f"no card named {name!r} for {prefix}<card> (cards: {', '.join(deck.names)})")


def with_settings_of(setup: Setup, settings: dict[str, Any], where: str = "--set") -> Setup:
    """``setup`` with ``settings`` applied (keys as for --set), each checked."""
    rule_settings, counts, amounts, cap = {}, {}, {}, setup.round_cap
    changed = list(setup.changed)
    for key, raw in settings.items():
        key = key.strip()
        if key.startswith(COUNT_PREFIX):
            name = _card(setup.deck, key, COUNT_PREFIX, where)
            counts[name] = whole_setting(COUNT_PREFIX + name, raw, 0, MAX_COUNT, where)
            changed.append(COUNT_PREFIX + name)
        elif key.startswith(AMOUNT_PREFIX):
            name = _card(setup.deck, key, AMOUNT_PREFIX, where)
            amounts[name] = whole_setting(AMOUNT_PREFIX + name, raw, 0, MAX_COUNT, where)
            changed.append(AMOUNT_PREFIX + name)
        elif key == ROUND_CAP:
            cap = whole_setting(ROUND_CAP, raw, 1, MAX_CAP, where)
            changed.append(key)
        elif key.replace("-", "_") in SETTINGS:
            rule_settings[key.replace("-", "_")] = raw
            changed.append(key.replace("-", "_"))
        else:
            raise OptionError(where, f"unknown key {key!r}; accepted keys: {', '.join(accepted_keys(setup.deck))}")
    rules = with_settings(setup.rules, rule_settings, where)
    deck = setup.deck.changed(counts, amounts)
    if deck.size == 0:
        raise OptionError(where, "the deck would hold no cards")
    return replace(setup, rules=rules, deck=deck, round_cap=cap, changed=tuple(dict.fromkeys(changed)))
