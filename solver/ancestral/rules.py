"""The rules of Ancestral as one object: the numbers of game.toml, its playtest rulings, its deck.

:func:`rules_of_game` reads them from a loaded kitgen Game (``[rules]``,
``[simulation]``, ``[rulings.<name>]`` and cards.csv) and :func:`with_settings`
changes them for one run (``--set NAME=VALUE``).  The engine, its players and
the solver take every number, switch and card from a :class:`Rules`.

Every structured ruling of game.toml is a switch here, and every switch here
must be a ruling of game.toml with exactly the options this module plays
(:data:`CHOICES`; on/off rulings are :data:`SWITCHES`): the rulebook prints
the list the engine plays.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from kitgen.data.rulings import parse_rulings, value_text
from kitgen.errors import GameDataError, OptionError
from solver.ancestral.deck import REFERENCE, Deck, deck_from_game
from solver.engine import on_off, setting_error, whole_setting

ENGINE_KEY, ENGINE = "engine", "ancestral"   # game.toml [rules] engine = "ancestral"

# game.toml [rules] numbers: name -> (lowest, highest, meaning)
NUMBERS: dict[str, tuple[int, int, str]] = {
    "hand_size": (1, 20, "cards in hand after setup and after every turn"),
    "leaves_to_lose": (1, 50, "leaves in a hut that put its owner out of the round"),
    "offerings_to_win": (1, 50, "offerings that win the game"),
}
DAMAGE = "damage"                 # [rules] damage: leaves dealt by an attack of 1, 2, 3... winds
MAX_DAMAGE, MAX_WINDS = 50, 10
# game.toml [simulation]: the simulator's safeguards
SIMULATION: dict[str, tuple[int, int, str]] = {
    "round_cap": (1, 100_000, "rounds after which a simulated game is stopped"),
    "turn_cap": (1, 1_000_000, "turns after which a simulated game is stopped"),
}
# the rulings the engine plays, with the options it implements
CHOICES: dict[str, tuple[str, ...]] = {
    "spare_references": ("box", "deck"),
    "first_player": ("random", "first_seat"),
    "round_starter": ("winner", "rotate"),
    "damage_by": ("kinds", "cards"),
    "hunuc_huar_by": ("target", "anyone"),
    "new_round": ("deal", "keep"),
}
SWITCHES: tuple[str, ...] = ("pass_allowed", "protect_many", "leaf_reshuffle")
RULINGS: tuple[str, ...] = (*CHOICES, *SWITCHES)
SETTINGS: tuple[str, ...] = (*NUMBERS, DAMAGE, *SIMULATION, *RULINGS)   # what --set may change (and count.<card>)
COUNT_PREFIX, MAX_COUNT = "count.", 1000


@dataclass(frozen=True)
class Rules:
    """Every number, ruling and card of the rules; build it with :func:`rules_of_game`."""

    # [rules] numbers
    hand_size: int
    leaves_to_lose: int
    offerings_to_win: int
    damage: tuple[int, ...]
    # [simulation]
    round_cap: int
    turn_cap: int
    # [rulings]: one switch each
    spare_references: str
    first_player: str
    round_starter: str
    damage_by: str
    hunuc_huar_by: str
    new_round: str
    pass_allowed: bool
    protect_many: bool
    leaf_reshuffle: bool
    # the deck and the players the game is made for
    deck: Deck
    players_min: int
    players_max: int
    # the rulings' texts as read from game.toml, and the settings changed for this run
    rulings: tuple = field(default=(), compare=False, repr=False)
    changed: tuple[str, ...] = field(default=(), compare=False)

    @property
    def most_winds(self) -> int:
        """The most wind cards one attack may use."""
        if self.damage_by == "kinds":
            return min(len(self.damage), len(self.deck.winds))
        return len(self.damage)

    def as_dict(self) -> dict[str, Any]:
        """Every setting by name, as JSON-able values (the run's rules for a report), card counts included."""
        out = {name: list(self.damage) if name == DAMAGE else getattr(self, name) for name in SETTINGS}
        out.update({COUNT_PREFIX + name: count for name, count in zip(self.deck.names, self.deck.counts)})
        return out


def declares_ancestral(rules_table: Mapping) -> bool:
    """Whether a game's ``[rules]`` says it plays by Ancestral's rules (``engine = "ancestral"``)."""
    return rules_table.get(ENGINE_KEY) == ENGINE


def where_of(game) -> str:
    """How messages name a game's game.toml."""
    return f"{game.slug}/game.toml" if game.builtin else str(game.root / "game.toml")


def rules_of_game(game) -> Rules:
    """The Rules of a loaded kitgen Game, every value checked (a mistake is a GameDataError naming the key)."""
    where = where_of(game)
    table = game.rules
    if not declares_ancestral(table):
        raise GameDataError(f'[rules] does not say {ENGINE_KEY} = "{ENGINE}": these are not Ancestral\'s rules',
                            file=where)
    values: dict[str, Any] = {}
    for key, raw in table.items():
        if key == ENGINE_KEY:
            continue
        if key not in NUMBERS and key != DAMAGE:
            raise GameDataError(f"[rules]: unknown rule {key!r}; Ancestral's engine reads "
                                f"{', '.join((*NUMBERS, DAMAGE))}", file=where)
        values[key] = _value(key, raw, f"{where} [rules]", GameDataError)
    missing = [k for k in (*NUMBERS, DAMAGE) if k not in values]
    if missing:
        meaning = NUMBERS[missing[0]][2] if missing[0] in NUMBERS else "leaves dealt by 1, 2, 3... winds"
        raise GameDataError(f"[rules] lacks {missing[0]!r} ({meaning})", file=where)
    simulation = game.raw.get("simulation", {})
    for key in simulation:
        if key not in SIMULATION:
            raise GameDataError(f"[simulation]: unknown key {key!r} (accepted: {', '.join(SIMULATION)})", file=where)
    for key, (low, high, meaning) in SIMULATION.items():
        if key not in simulation:
            raise GameDataError(f"[simulation] lacks {key!r} ({meaning})", file=where)
        values[key] = _value(key, simulation[key], f"{where} [simulation]", GameDataError)
    rulings = parse_rulings(game.rulings, where)
    named = {r.name: r for r in rulings}
    for name in RULINGS:
        ruling = named.get(name)
        if ruling is None:
            raise GameDataError(f"[rulings] lacks the ruling {name!r}, which the rules engine plays", file=where)
        if set(ruling.values) != set(_options(name)):
            raise GameDataError(f"[rulings.{name}]: the options are {', '.join(_options(name))}, as the rules "
                                "engine plays them", file=where)
        values[name] = ruling.default
    extra = [r.name for r in rulings if r.name not in RULINGS]
    if extra:
        raise GameDataError(f"[rulings.{extra[0]}]: no such switch in the rules engine (it plays "
                            f"{', '.join(RULINGS)}); a ruling with one reading is a plain text", file=where)
    rules = Rules(**values, deck=deck_from_game(game, where), players_min=game.players_min,
                  players_max=game.players_max, rulings=rulings)
    return _checked(rules, where, GameDataError)


def _options(name: str) -> tuple[str, ...]:
    return ("true", "false") if name in SWITCHES else CHOICES[name]


def _value(name: str, raw: Any, where: str, error=OptionError) -> Any:
    """One setting, checked and converted: a number, the damage list, on/off or a ruling's option."""
    if name in NUMBERS or name in SIMULATION:
        low, high, _ = NUMBERS.get(name) or SIMULATION[name]
        return whole_setting(name, raw, low, high, where, error)
    if name == DAMAGE:
        items = raw if isinstance(raw, (list, tuple)) else str(raw).strip().strip("[]").split(",")
        if not 1 <= len(items) <= MAX_WINDS:
            raise setting_error(error, where, f"damage takes 1 to {MAX_WINDS} numbers of leaves, for 1, 2, 3... winds, "
                                       f"e.g. 1,3,5; not {raw!r}")
        return tuple(whole_setting("each damage", item, 0, MAX_DAMAGE, where, error) for item in items)
    if name in SWITCHES:
        if on_off(raw) is None:
            raise setting_error(error, where, f"{name} takes on or off, not {raw!r}")
        return on_off(raw)
    text = value_text(raw) if isinstance(raw, bool) else str(raw).strip().lower()
    if text not in CHOICES[name]:
        raise setting_error(error, where, f"{name} takes one of {', '.join(CHOICES[name])}, not {raw!r}")
    return text


def with_settings(rules: Rules, settings: Mapping[str, Any], option: str = "--set") -> Rules:
    """``rules`` with ``settings`` (name -> value as typed) applied; a bad name or value is an OptionError.
    ``count.<card>`` sets the copies of a card in the deck (``count.Hunuc-Huar Protection=0``)."""
    changes: dict[str, Any] = {}
    counts, recounted = list(rules.deck.counts), []
    for name, raw in settings.items():
        text = str(name).strip()
        if text.startswith(COUNT_PREFIX):
            kind = rules.deck.lookup(text[len(COUNT_PREFIX):])
            if kind is None:
                raise OptionError(option, f"no card named {text[len(COUNT_PREFIX):]!r} for count.<card> (cards: "
                                          f"{', '.join(rules.deck.names)})")
            counts[kind] = whole_setting(COUNT_PREFIX + rules.deck.names[kind], raw, 0, MAX_COUNT, option, OptionError)
            if counts[kind] != rules.deck.counts[kind]:
                recounted.append(COUNT_PREFIX + rules.deck.names[kind])
            continue
        key = text.replace("-", "_")
        if key not in SETTINGS:
            raise OptionError(option, f"unknown rule {name!r} for Ancestral; accepted: {', '.join(SETTINGS)}, "
                                      "count.<card>")
        changes[key] = _value(key, raw, option)
    changed = tuple(dict.fromkeys((*rules.changed, *(k for k, v in changes.items() if v != getattr(rules, k)),
                                   *recounted)))
    deck = replace(rules.deck, counts=tuple(counts))
    return _checked(replace(rules, **changes, deck=deck, changed=changed), option, OptionError)


def _checked(rules: Rules, where: str, error) -> Rules:
    """Rules whose numbers fit together: an attack's winds can be played, hands can be dealt."""
    if rules.damage_by == "kinds" and len(rules.damage) > len(rules.deck.winds):
        raise setting_error(error, where, f"damage lists {len(rules.damage)} numbers, but the deck has only "
                                   f"{len(rules.deck.winds)} kinds of wind for an attack of different kinds")
    if max_players(rules) < rules.players_min:
        raise setting_error(error, where, f"the deck cannot deal {rules.players_min} hands of {rules.hand_size} cards")
    return rules


def circulating(rules: Rules, players: int) -> list[int]:
    """The kinds of every card played with (one entry a card): the deck without the Reference cards,
    which are dealt one to each player, unless the ``spare_references`` ruling shuffles the ones left in."""
    deck = rules.deck
    cards: list[int] = []
    spare = max(0, sum(deck.counts[k] for k in deck.of(REFERENCE)) - players)
    for k, (role, count) in enumerate(zip(deck.roles, deck.counts)):
        if role == REFERENCE:
            if rules.spare_references == "deck":
                take = min(count, spare)
                spare -= take
                cards += [k] * take
            continue
        cards += [k] * count
    return cards


def max_players(rules: Rules) -> int:
    """The most players the game is made for whose hands the deck can deal (with no Reference card in it)."""
    most = rules.players_max
    while most >= rules.players_min and len(circulating(rules, most)) < most * rules.hand_size:
        most -= 1
    return most
