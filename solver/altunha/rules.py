"""The rules of Altun Ha as one model: rule numbers, rulings, and what is legal.

The turn solver (:mod:`.solve`, :mod:`.cpsat_model`), the simulator's
engine (:mod:`.sim.engine`) and its fast enumerator (:mod:`.sim.enumerate`)
all take their numbers, switches and legality from here.  Nothing here loads
OR-Tools.

* :class:`Rules` holds every rule number (game.toml ``[rules]``) and every
  ruling (game.toml ``[rulings]``, one switch each); ``Rules.from_game()``
  reads them, :func:`with_settings` changes them for one run
  (``kitgen solve --rule`` and ``kitgen simulate --set`` both use it).
  Only a game whose ``[rules]`` says ``engine = "altun-ha"`` is read
  (:func:`declares_altunha`): a game folder with rules of its own is not
  taken for Altun Ha's because its numbers happen to have the same names.
* Legality: :func:`farm_problem`, :func:`can_feed`, :func:`placement_problem`,
  :func:`can_place`, :func:`build_points`, :func:`bid_problem`,
  :func:`resolve_bids`, :func:`hand_excess`.
* The turn solver's plans: :class:`TurnPlan` of :class:`CardPlacement`,
  :func:`check_play`, the order :func:`plan_key` under a preference.

Rulings of a turn
-----------------
* **Farm**: the Priest King discards either the Trade card whose effect is
  ``feed`` (Maize) on its own, or 1..``max_farm_cards`` Bid cards whose values
  add up to at least the Population; a God card counts ``god_value``.  If
  neither is possible: famine, the game ends, he scores ``-famine_penalty``.
* **Build**: from the cards left, up to ``max_build_cards`` Bid or God cards,
  one after the other.  A value-1 card starts a new temple; a value-v card
  goes on a temple whose top is v-1 (also one started or raised earlier in
  the same Build, unless ``chain`` is off).  A God card is wild (1..max_stage).
  He scores the values placed.  Placing nothing costs ``no_build_penalty``
  when no card could be placed; when one could, it costs nothing unless
  ``penalty_if_declined`` is on.
* **Optimal** (see :class:`PlanKey`): the most points (famine is never a
  choice: it is the only play when nothing feeds).  Every play with the most
  points is optimal; among them a named preference (:data:`PREFERENCES`, not a
  rule) and then fixed tie-breaks choose the one shown first.

Hands are sequences of exact card names (see :mod:`solver.altunha.parse` for
reading what people type).  Temples are given by their top values, in table
order, and numbered from 1; a temple started in the Build takes the next
number.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from itertools import combinations
from typing import Any, NamedTuple, Sequence, get_type_hints

from kitgen.errors import GameDataError, OptionError
from solver.altunha.cards import FEED, GOD, Deck, Kind, game_data, load_deck
from solver.engine import whole_setting

BUILT, DECLINED, UNABLE, FAMINE = "built", "declined_to_build", "unable_to_build", "famine"
DIGITS = re.compile(r"[0-9]+")  # str.isdigit also accepts digits such as '³'


# --- the rule set --------------------------------------------------------------------------

# game.toml [rules] numbers: name -> (lowest, highest, meaning)
NUMBERS: dict[str, tuple[int, int, str]] = {
    "hand_size": (0, 1000, "cards dealt to each player at setup"),
    "population_start": (0, 1000, "Population before the first Population phase"),
    "population_growth": (0, 1000, "added to Population in each Population phase"),
    "draw": (0, 1000, "cards each player draws in the Draw phase"),
    "hand_limit": (0, 1000, "cards kept after the Cycle phase"),
    "god_value": (0, 1000, "a God card's value when bidding or farming"),
    "max_bid_cards": (0, 4, "cards in one bid"),
    "max_farm_cards": (1, 4, "Bid cards discarded to farm"),
    "max_build_cards": (0, 2, "cards placed in one Build"),
    "famine_penalty": (0, 1000, "points the Priest King loses in a famine"),
    "no_build_penalty": (0, 1000, "points the Priest King loses when he cannot build"),
}
# the options of the rulings that are not on/off, as the code implements them
CHOICES: dict[str, tuple[str, ...]] = {"points_decide": ("lowest_tie", "highest_tie"),
                                       "empty_bid": ("counts", "never_wins", "no_bid_card"),
                                       "end_tie": ("shared", "turn_order")}


@dataclass(frozen=True)
class Rules:
    """Every rule number and ruling switch; ``Rules.from_game()`` reads them from the game data."""

    # numbers (game.toml [rules])
    hand_size: int
    population_start: int
    population_growth: int
    draw: int
    hand_limit: int
    god_value: int
    max_bid_cards: int
    max_farm_cards: int
    max_build_cards: int
    famine_penalty: int
    no_build_penalty: int
    # rulings (game.toml [rulings]): one switch each
    calendar_clockwise: bool
    empty_deck_ends: bool
    special_is_trade: bool
    tie_drop: bool
    points_decide: str
    empty_bid: str
    feed_alone: bool
    chain: bool
    penalty_if_declined: bool
    negative_scores: bool
    end_tie: str
    # from the deck: the highest Bid value, the top stage of a temple
    max_stage: int
    # the rulings' texts and options, as read from game.toml (not part of equality)
    rulings: tuple = field(default=(), compare=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "_hash", hash(tuple(getattr(self, f) for f in COMPARED)))

    def __hash__(self) -> int:  # cached: rules are a key of the enumerator's memo tables
        return self._hash

    def __reduce__(self):
        # unpickled as one shared object per distinct rule set (the memo tables then find their
        # keys by identity), with its hash recomputed (text hashes differ between processes)
        return (_shared_rules, (tuple((f, getattr(self, f)) for f in COMPARED), self.rulings))

    @classmethod
    def from_game(cls, game: str = "altun-ha") -> "Rules":
        return _rules_of_game(game)

    def with_options(self, **changes) -> "Rules":
        """These rules with some fields changed (unchecked; see :func:`with_settings`).

        The same as ``dataclasses.replace`` (which still reports an unknown field), at a fraction of its
        cost: a round's answer asks for the rules under every combination of its rulings."""
        if not changes.keys() <= FIELD_TYPES.keys():
            return replace(self, **changes)
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.__dict__.update(changes)
        other.__post_init__()
        return other

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in (*NUMBERS, *RULINGS)}

    def ruling(self, name: str):
        """The ruling of that switch as game.toml states it (a :class:`kitgen.data.rulings.Ruling`), or None."""
        return next((r for r in self.rulings if r.name == name), None)

    def label(self, name: str) -> str:
        """A ruling as the rulebook names it: "Playtest ruling 8: Building one card on the other"."""
        ruling = self.ruling(name)
        return f"Playtest ruling {ruling.number}: {ruling.title}" if ruling and ruling.number else name

    def options(self, name: str) -> tuple[str, ...]:
        """The values a ruling accepts, as text."""
        if FIELD_TYPES[name] is bool:
            return ("true", "false")
        for ruling in self.rulings:
            if ruling.name == name:
                return ruling.values
        return CHOICES.get(name, ())


FIELD_TYPES: dict[str, type] = {f.name: get_type_hints(Rules)[f.name] for f in fields(Rules) if f.name != "rulings"}
COMPARED = tuple(name for name in FIELD_TYPES)
RULINGS: tuple[str, ...] = tuple(n for n, t in FIELD_TYPES.items() if t in (bool, str))
SETTINGS: tuple[str, ...] = (*NUMBERS, *RULINGS)   # what --rule / --set may change


_SHARED: dict[tuple, Rules] = {}


def _shared_rules(values: tuple, rulings: tuple) -> Rules:
    if values not in _SHARED:
        _SHARED[values] = Rules(**dict(values), rulings=rulings)
    return _SHARED[values]


ENGINE_KEY, ENGINE = "engine", "altun-ha"     # game.toml [rules] engine = "altun-ha"


def declares_altunha(rules_table: dict) -> bool:
    """Whether a game's ``[rules]`` table says the game plays by Altun Ha's rules (``engine = "altun-ha"``),
    the only rules the solver and simulator know."""
    return rules_table.get(ENGINE_KEY) == ENGINE


def _undeclared(rules_table: dict) -> str:
    how = f'{ENGINE_KEY} = "{ENGINE}"'
    if ENGINE_KEY in rules_table:
        return f"[rules] {ENGINE_KEY} = {rules_table[ENGINE_KEY]!r}: the solver and simulator play only " \
               f"Altun Ha's rules ({how})"
    return f"the game does not declare Altun Ha's rules, the only ones the solver and simulator play " \
           f"(if it plays by them, add {how} to its [rules] table)"


@lru_cache(maxsize=None)
def _rules_of_game(game: str) -> Rules:
    from kitgen.data.rulings import parse_rulings

    data = game_data(game)
    where = f"{game}/game.toml" if data.builtin else str(data.root / "game.toml")
    if not declares_altunha(data.rules):
        raise GameDataError(_undeclared(data.rules), file=where)
    values: dict[str, Any] = {}
    for key, raw in data.rules.items():
        if key == ENGINE_KEY:
            continue
        if key not in NUMBERS:
            raise GameDataError(f"[rules]: unknown rule {key!r}; the solver and simulator read "
                                f"{', '.join(NUMBERS)}", file=where)
        values[key] = _number(key, raw, f"{where} [rules]", GameDataError)
    missing = [k for k in NUMBERS if k not in values]
    if missing:
        raise GameDataError(f"[rules] lacks {missing[0]!r} ({NUMBERS[missing[0]][2]})", file=where)
    rulings = parse_rulings(data.rulings, where)
    named = {r.name: r for r in rulings}
    for name in RULINGS:
        ruling = named.get(name)
        if ruling is None:
            raise GameDataError(f"[rulings] lacks the ruling {name!r}, which the solver and simulator read",
                                file=where)
        if ruling.kind is not FIELD_TYPES[name]:
            raise GameDataError(f"[rulings.{name}]: default must be "
                                f"{'true or false' if FIELD_TYPES[name] is bool else 'a text'}", file=where)
        if name in CHOICES and set(ruling.values) != set(CHOICES[name]):
            raise GameDataError(f"[rulings.{name}]: the options are {', '.join(CHOICES[name])}", file=where)
        values[name] = ruling.default
    extra = [r.name for r in rulings if r.name not in RULINGS]
    if extra:
        raise GameDataError(f"[rulings.{extra[0]}]: no such switch in the solver and simulator "
                            f"(they read {', '.join(RULINGS)})", file=where)
    deck = load_deck(game)
    return Rules(**values, max_stage=deck.max_value, rulings=rulings)


# --- reading settings (--rule, --set, variant files) ---------------------------------------

_TRUE = ("true", "on", "yes", "1")
_FALSE = ("false", "off", "no", "0")


def _number(name: str, raw: Any, where: str, error=OptionError) -> int:
    low, high, _ = NUMBERS[name]
    return whole_setting(name, raw, low, high, where, error)


def parse_value(rules: Rules, name: str, raw: Any, where: str) -> Any:
    """One setting checked and converted (a number, on/off, or one of a ruling's options)."""
    if name not in FIELD_TYPES or name == "max_stage":
        raise OptionError(where, f"unknown rule {name!r}; accepted: {', '.join(SETTINGS)}")
    kind = FIELD_TYPES[name]
    if kind is int:
        return _number(name, raw, where)
    text = str(raw).strip().lower() if not isinstance(raw, bool) else ("true" if raw else "false")
    if kind is bool:
        if text in _TRUE or text in _FALSE:
            return text in _TRUE
        raise OptionError(where, f"{name} takes on or off, not {raw!r}")
    if text not in rules.options(name):
        raise OptionError(where, f"{name} takes one of {', '.join(rules.options(name))}, not {raw!r}")
    return text


def with_settings(rules: Rules, settings: dict[str, Any], where: str = "--rule") -> Rules:
    """``rules`` with ``settings`` (name -> value as typed) applied, each checked."""
    changes = {name.strip().replace("-", "_"): raw for name, raw in settings.items()}
    return check_rules(rules.with_options(**{n: parse_value(rules, n, raw, where) for n, raw in changes.items()}),
                       where)


def split_settings(items: Sequence[str], option: str, accepted: Sequence[str] = SETTINGS) -> dict[str, str]:
    """``["chain=off", ...]`` -> ``{"chain": "off"}``, refusing items without ``=``."""
    from solver.engine import split_settings as split

    return split(items, option, accepted)


def check_rules(rules: Rules, where: str = "rules") -> Rules:
    """Every field in range (also for Rules built in Python)."""
    for name, kind in FIELD_TYPES.items():
        value = getattr(rules, name)
        if name == "max_stage":
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1000:
                raise OptionError(where, f"max_stage must be a whole number from 1 to 1000, not {value!r}")
        elif kind is int:
            _number(name, value, where)
        elif kind is bool and not isinstance(value, bool):
            raise OptionError(where, f"{name} takes on or off, not {value!r}")
        elif kind is str and value not in rules.options(name):
            raise OptionError(where, f"{name} takes one of {', '.join(rules.options(name))}, not {value!r}")
    return rules


# --- legality: Farm ------------------------------------------------------------------------

def worth(kind: Kind, rules: Rules) -> int:
    """What a Bid or God card is worth when bidding or farming."""
    return rules.god_value if kind == GOD else kind


def is_building_card(kind: Kind) -> bool:
    return kind == GOD or isinstance(kind, int)


def can_feed(values: Sequence[int], gods: int, feed: bool, population: int, rules: Rules) -> bool:
    """Whether any legal Farm exists: the feed card, or the best max_farm_cards Bid/God cards."""
    if feed:
        return True
    pool = sorted([*values, *[rules.god_value] * min(gods, rules.max_farm_cards)], reverse=True)
    return bool(pool) and sum(pool[:rules.max_farm_cards]) >= population


def farm_problem(cards: Sequence[tuple[str, Kind]], population: int, rules: Rules) -> str:
    """Why discarding these (name, kind) cards does not feed the Population ("" when it does)."""
    kinds = [k for _, k in cards]
    if FEED in kinds:
        name = next(n for n, k in cards if k == FEED)
        if len(cards) > 1 and rules.feed_alone:
            return f"{name} pays for the Farm on its own: discard it alone"
        if kinds.count(FEED) > 1:
            return f"one card that feeds alone pays for the Farm, not {kinds.count(FEED)}"
    for name, kind in cards:
        if kind != FEED and not is_building_card(kind):
            return f"{name} is a Trade card: Farm takes Bid or God cards, or the card that feeds alone"
    if len(cards) > rules.max_farm_cards:
        return f"Farm takes at most {rules.max_farm_cards} cards, not {len(cards)}"
    if FEED in kinds:
        return ""
    total = sum(worth(k, rules) for k in kinds)
    if total < population:
        return f"Farm {' + '.join(n for n, _ in cards)} is worth {total}, less than Population {population}"
    return ""


# --- legality: Build -----------------------------------------------------------------------

def placement_problem(name: str, kind: Kind, value: int, top: int | None, rebuilt: bool, rules: Rules) -> str:
    """Why ``name`` cannot be placed as ``value`` on a temple topped ``top`` ("" when it can).

    ``top`` None means starting a new temple; ``rebuilt`` means the temple was
    started or raised earlier in the same Build."""
    if not is_building_card(kind):
        return f"{name} is a Trade card and cannot be built"
    if kind == GOD:
        if not 1 <= value <= rules.max_stage:
            return f"{name} builds as a value from 1 to {rules.max_stage}, not {value}"
    elif value != kind:
        return f"{name} has value {kind}, not {value}"
    if top is None:
        return "" if value == 1 else f"{name} cannot start a new temple: only a value-1 card does"
    if value == 1:
        return "a value-1 card starts a new temple; it does not go on one"
    if top != value - 1:
        return f"a {value} goes on a temple topped by a {value - 1}, not by a {top}"
    if rebuilt and not rules.chain:
        return "chaining is off: that temple was already built on in this Build"
    return ""


def can_place(values: Sequence[int], gods: int, tops: Sequence[int], rules: Rules) -> bool:
    """Whether the Priest King can lay at least one of these cards (so building is possible)."""
    if rules.max_build_cards < 1:
        return False
    if gods or 1 in values:
        return True
    below = set(tops)
    return any(v - 1 in below for v in values if 1 < v <= rules.max_stage)


def build_points(placed: Sequence[int], able: bool, rules: Rules) -> int:
    """The Build's score change: the values placed, else the loss for not building."""
    if placed:
        return sum(placed)
    return 0 if able and not rules.penalty_if_declined else -rules.no_build_penalty


def no_build_outcome(able: bool) -> str:
    return DECLINED if able else UNABLE


# --- legality: Bid and Cycle ---------------------------------------------------------------

def bid_problem(cards: Sequence[tuple[str, Kind]], rules: Rules) -> str:
    if len(cards) > rules.max_bid_cards:
        return f"a bid has at most {rules.max_bid_cards} cards, not {len(cards)}"
    for name, kind in cards:
        if not is_building_card(kind):
            return f"{name} cannot be bid; only Bid and God cards can"
    return ""


def bid_levels(players: Sequence[int], totals: Sequence[int]) -> tuple[dict[int, list[int]], list[int]]:
    """The players grouped by bid total, and the totals from the highest down."""
    by_total: dict[int, list[int]] = {}
    for p in players:
        by_total.setdefault(totals[p], []).append(p)
    return by_total, sorted(by_total, reverse=True)


def resolve_bids(totals: Sequence[int], sizes: Sequence[int], scores: Sequence[int],
                 jades: Sequence[int], rules: Rules) -> tuple[int | None, str]:
    """The Priest King (a player index, or None) and how the bid was decided.

    ``totals[p]`` is player p's bid total, ``sizes[p]`` how many cards he bid,
    ``jades`` the players who revealed the card that wins the bid.  Reasons:
    jade, highest, next_lower, fewer_points, double_tie (tied on points too),
    no_bids (nobody may win: no cards bid under ``empty_bid = "never_wins"``).

    The ``empty_bid`` ruling says what a bid of no cards is: a total of 0 like any other
    (``counts``), never a winner (``never_wins``), or no bid card (``no_bid_card``): it takes no
    place on the ladder of tied totals, which only bids of cards make; when nobody bids a card,
    everyone is tied at 0 and the points decide."""
    if len(jades) == 1:
        return jades[0], "jade"
    if totals and not jades and rules.empty_bid == "counts":   # the usual case: one highest total
        top = max(totals)
        if totals.count(top) == 1:
            return totals.index(top), "highest"
    carded = [p for p, n in enumerate(sizes) if n]
    if jades:
        players = list(jades)
    elif rules.empty_bid == "counts" or (not carded and rules.empty_bid == "no_bid_card"):
        players = list(range(len(totals)))
    else:
        players = carded
    if not players:
        return None, "no_bids"
    by_total, ordered = bid_levels(players, totals)
    tied = by_total[ordered[0]]
    if len(tied) == 1:
        return tied[0], "jade" if jades else "highest"
    if rules.tie_drop:
        for total in ordered[1:]:
            if len(by_total[total]) == 1:
                return by_total[total][0], "next_lower"
        if rules.points_decide == "lowest_tie":
            tied = by_total[ordered[-1]]
    low = min(scores[p] for p in tied)
    fewest = [p for p in tied if scores[p] == low]
    if len(fewest) == 1:
        return fewest[0], "fewer_points"
    return None, "double_tie"


def final_winners(scores: Sequence[int], order: Sequence[int], rules: Rules) -> list[int]:
    """The winners of a finished game: the players with the most points, or, under
    ``end_tie = "turn_order"``, the first of them in turn ``order`` (the Calendar holder first)."""
    top = max(scores)
    tied = [p for p, s in enumerate(scores) if s == top]
    if len(tied) > 1 and rules.end_tie == "turn_order":
        return [min(tied, key=list(order).index)]
    return tied


def lose_points(score: int, loss: int, rules: Rules) -> int:
    """What a score becomes after a loss: below zero only under ``negative_scores``."""
    if rules.negative_scores:
        return score - loss
    return score - min(loss, max(0, score))


def hand_excess(size: int, rules: Rules) -> int:
    """Cards a hand of ``size`` must discard in the Cycle phase."""
    return max(0, size - rules.hand_limit)


# --- the turn solver's plans -----------------------------------------------------------------

@dataclass(frozen=True)
class CardPlacement:
    """One Build card of a plan: the card named ``card`` laid as ``value`` on temple number ``temple`` (from 1)."""

    card: str
    value: int
    temple: int

    def to_json(self) -> dict:
        return {"card": self.card, "value": self.value, "temple": self.temple}


@dataclass(frozen=True)
class TurnPlan:
    """A Farm and Build play and what it scores this turn."""

    outcome: str                          # BUILT | DECLINED | UNABLE | FAMINE
    points: int                           # score change: values placed, 0, -7 or -13
    farm: tuple[str, ...]                 # card names discarded to Farm (empty on famine)
    build: tuple[CardPlacement, ...]      # placements in the order played

    def to_json(self) -> dict:
        return {"outcome": self.outcome, "points": self.points, "farm": list(self.farm),
                "build": [p.to_json() for p in self.build]}


# --- the order of plays of equal points: a preference, not a rule -------------------------------

# The rules say only which play scores most: every play with the most points is optimal.  Among
# plays of equal points the solver shows first the one a named preference puts first, and says so.
KEEP_MAIZE_GODS, FEWER_CARDS = "keep_maize_gods", "fewer_cards"
PREFERENCES: dict[str, str] = {
    KEEP_MAIZE_GODS: "keep {feed}, then God cards, for later rounds; then spend fewer cards on Farm, "
                     "then lower values",
    FEWER_CARDS: "spend fewer cards on Farm, then lower values (a God counting above the highest Bid card, "
                 "{feed} above a God)",
}
DEFAULT_PREFERENCE = KEEP_MAIZE_GODS


def farm_cost(kind: Kind, max_stage: int) -> int:
    """What spending a card on Farm costs, for the preferences among plays of equal points: a Bid card
    its value; a God card one more than the highest Bid card (it is wild in the Build); the card that
    feeds alone one more again (it feeds any Population).  The solver, its reference and the
    simulator's enumerator all weigh Farm cards with this one function."""
    if kind == GOD:
        return max_stage + 1
    if kind == FEED:
        return max_stage + 2
    return int(kind)


class PlanKey(NamedTuple):
    """The order of plans: smaller is better.

    The first two fields are the rules' (avoid famine, most points): two plans equal on them are
    both optimal.  Then the preference (``farm_feed`` and ``farm_gods`` count only under
    ``keep_maize_gods``), then tie-breaks that make the answer deterministic.
    """

    famine: int          # 1 on famine
    points: int          # minus the points
    farm_feed: int       # the card that feeds alone, spent on Farm (keep_maize_gods)
    farm_gods: int       # God cards spent on Farm (keep_maize_gods)
    farm_cards: int      # cards spent on Farm
    farm_value: int      # their farm_cost
    build_cards: int     # fewer Build cards for the same points keeps cards in hand
    build_gods: int      # keep wild cards
    farm_spread: int     # sum of squared Farm costs: spend even pairs (4+4 before 3+5)
    chained: int         # 1 when the second Build card goes on the first: a play that needs no chaining first
    placement: tuple     # ((temple, is_god), ...): earliest temples first, Bid before God


OPTIMAL_FIELDS = 2   # PlanKey fields of the rules: plans equal on them are all optimal
PREFERENCE_FIELDS = ("farm_feed", "farm_gods", "farm_cards", "farm_value")
RULE_TEXT = {
    "famine": "it avoids famine",
    "points": "it scores more points",
    "farm_feed": "it keeps {feed}",
    "farm_gods": "it keeps more God cards",
    "farm_cards": "it spends fewer cards on Farm",
    "farm_value": "it spends lower values on Farm",
    "build_cards": "it scores the same with fewer Build cards",
    "build_gods": "it builds with fewer God cards",
    "farm_spread": "its Farm cards are closer in value",
    "chained": "it does not lay one Build card on the other",
    "placement": "it builds on earlier temples, Bid cards before God cards",
}


def check_preference(preference: str, option: str = "--prefer") -> str:
    if preference not in PREFERENCES:
        raise OptionError(option, f"takes one of {', '.join(PREFERENCES)}, not {preference!r}")
    return preference


def plan_key(plan: TurnPlan, deck: Deck | None = None, preference: str = DEFAULT_PREFERENCE) -> PlanKey:
    """The order key of a plan (smaller is better) under a preference among plays of equal points."""
    deck = deck or load_deck()
    kind_of, top = deck.kind_by_name, deck.max_value
    kinds = [kind_of[name] for name in plan.farm]
    costs = [farm_cost(k, top) for k in kinds]
    gods = [int(kind_of[p.card] == GOD) for p in plan.build]
    keep = preference == KEEP_MAIZE_GODS
    return PlanKey(
        famine=int(plan.outcome == FAMINE), points=-plan.points,
        farm_feed=kinds.count(FEED) if keep else 0, farm_gods=kinds.count(GOD) if keep else 0,
        farm_cards=len(plan.farm), farm_value=sum(costs), build_cards=len(plan.build), build_gods=sum(gods),
        farm_spread=sum(c * c for c in costs),
        chained=int(len(plan.build) == 2 and plan.build[0].temple == plan.build[1].temple),
        placement=tuple((p.temple, g) for p, g in zip(plan.build, gods)))


def deciding_rule(best: PlanKey, other: PlanKey) -> str:
    """The name of the first field where ``best`` beats ``other`` ("" if they are equal)."""
    for name, a, b in zip(PlanKey._fields, best, other):
        if a != b:
            return name
    return ""


def canonical_build(build: Sequence[CardPlacement], temples: Sequence[int],
                    deck: Deck | None = None) -> tuple[CardPlacement, ...]:
    """The same Build in its preferred order.

    Two placements that do not stack on each other can be played in either
    order; both orders are the same play, and the one with the smaller
    ``placement`` key is kept (two new temples are renumbered accordingly).
    """
    build = tuple(build)
    if len(build) != 2 or build[0].temple == build[1].temple:
        return build
    deck = deck or load_deck()
    first, second = build
    new = len(temples) + 1
    if first.value == 1 and second.value == 1:  # two new temples: swap their numbers
        swapped = (replace(second, temple=new), replace(first, temple=new + 1))
    else:
        swapped = (second, first)

    def key(b):
        return tuple((p.temple, deck.kind_of(p.card) == GOD) for p in b)

    return min(build, swapped, key=key)


@dataclass(frozen=True)
class PlayCheck:
    """Whether a play is legal; if so, the plan with its outcome and points."""

    legal: bool
    reason: str                    # why it is illegal ("" when legal)
    plan: TurnPlan | None = None   # the play with its true outcome and points, when legal

    @property
    def points(self) -> int | None:
        return self.plan.points if self.plan else None


def hand_counts(hand: Sequence[str], deck: Deck) -> tuple[list[int], int, bool]:
    """(Bid values, God cards, holds the feed card) of a hand of card names."""
    values, gods, feed = [], 0, False
    for name in hand:
        kind = deck.kind_of(name)
        if kind == GOD:
            gods += 1
        elif kind == FEED:
            feed = True
        elif isinstance(kind, int):
            values.append(kind)
    return values, gods, feed


def possible_farm(hand: Sequence[str], population: int, rules: Rules | None = None,
                  deck: Deck | None = None, feed_allowed: bool = True) -> tuple[str, ...] | None:
    """The cheapest legal Farm discard for this hand (fewest cards, then lowest cost), or None."""
    rules, deck = rules or Rules.from_game(), deck or load_deck()
    options = [(n,) for n in set(hand) if deck.kind_of(n) == FEED and feed_allowed]
    cards = [n for n in sorted(hand, key=deck.sort_key) if is_building_card(deck.kind_of(n))]
    for size in range(1, rules.max_farm_cards + 1):
        options += [c for c in combinations(cards, size)
                    if not farm_problem([(n, deck.kind_of(n)) for n in c], population, rules)]
    if not options:
        return None
    return min(options, key=lambda c: (len(c), sum(farm_cost(deck.kind_of(n), deck.max_value) for n in c)))


def check_play(hand: Sequence[str], population: int, temples: Sequence[int],
               farm: Sequence[str], build: Sequence[CardPlacement],
               rules: Rules | None = None, deck: Deck | None = None, feed_allowed: bool = True) -> PlayCheck:
    """Is this Farm discard and Build legal for the hand, Population and temples?

    ``farm`` empty means the player declares famine (legal only when no Farm
    is possible).  ``feed_allowed`` False: the card that feeds alone may not be
    used this round (the player has played a Trade card, under ``special_is_trade``).
    Returns a :class:`PlayCheck` whose ``plan`` carries the outcome and points the
    play really earns.
    """
    rules, deck = rules or Rules.from_game(), deck or load_deck()
    farm, build = tuple(farm), tuple(build)

    def illegal(reason: str) -> PlayCheck:
        return PlayCheck(False, reason)

    held, used = Counter(hand), Counter(farm) + Counter(p.card for p in build)
    for name, n in used.items():
        if n > held[name]:
            have = f"only {held[name]}" if held[name] else "none"
            return illegal(f"the play uses {n} {name} but the hand holds {have}")

    feeder = next((n for n in farm if deck.kind_of(n) == FEED), None)
    if feeder and not feed_allowed:
        return illegal(f"{feeder} cannot feed the people this round: you have played a Trade card, and using "
                       f"{feeder} counts as your one Trade card ({rules.label('special_is_trade')})")
    if not farm:
        if build:
            return illegal("without a Farm discard the game ends in famine: nothing can be built")
        feed = possible_farm(hand, population, rules, deck, feed_allowed)
        if feed:
            return illegal(f"famine is only for when no Farm is possible, but {' + '.join(feed)} "
                           f"feeds Population {population}")
        return PlayCheck(True, "", TurnPlan(FAMINE, -rules.famine_penalty, (), ()))
    problem = farm_problem([(n, deck.kind_of(n)) for n in farm], population, rules)
    if problem:
        return illegal(problem)

    if len(build) > rules.max_build_cards:
        return illegal(f"Build places at most {rules.max_build_cards} cards, not {len(build)}")
    tops, touched = list(temples), set()
    for p in build:
        new = len(tops) + 1
        if p.value != 1 and not 1 <= p.temple <= len(tops) and p.temple != new:
            return illegal(f"there is no temple {p.temple} for {p.card} "
                           f"({len(tops)} temple{'s' if len(tops) != 1 else ''} on the table)")
        if p.value == 1 and p.temple != new and is_building_card(deck.kind_of(p.card)):
            return illegal(f"a value-1 card starts a new temple, which is number {new}, not {p.temple}")
        top = None if p.temple == new else tops[p.temple - 1]
        problem = placement_problem(p.card, deck.kind_of(p.card), p.value, top, p.temple in touched, rules)
        if problem:
            return illegal(problem)
        if top is None:
            tops.append(p.value)
        else:
            tops[p.temple - 1] = p.value
        touched.add(p.temple)
    if build:
        return PlayCheck(True, "", TurnPlan(BUILT, build_points([p.value for p in build], True, rules), farm, build))
    left = list(hand)
    for name in farm:
        left.remove(name)
    values, gods, _ = hand_counts(left, deck)
    able = can_place(values, gods, temples, rules)
    return PlayCheck(True, "", TurnPlan(no_build_outcome(able), build_points((), able, rules), farm, ()))


def temples_after(temples: Sequence[int], build: Sequence[CardPlacement]) -> list[int]:
    """The temple tops after a (legal) Build."""
    tops = list(temples)
    for p in build:
        if p.temple == len(tops) + 1:
            tops.append(p.value)
        else:
            tops[p.temple - 1] = p.value
    return tops


def plan_from_kinds(hand: Sequence[str], farm: Sequence[Kind], build: Sequence[tuple[Kind, int, int]],
                    outcome: str, points: int, deck: Deck | None = None) -> TurnPlan:
    """Name the cards of a plan given by kinds.

    ``farm`` lists kinds (Bid values, GOD, FEED); ``build`` lists
    ``(kind, value, temple)``.  Cards of a kind are taken from the hand in deck
    order, Farm first, so identical plans always come out with the same names.
    """
    deck = deck or load_deck()
    if not farm and not build:
        return TurnPlan(outcome, points, (), ())
    pools = deck.names_by_kind(hand)   # plans are named by the thousand, most from a hand named before
    taken: dict[Kind, int] = {}

    def take(kind: Kind) -> str:
        n = taken.get(kind, 0)
        taken[kind] = n + 1
        return pools[kind][n]

    if len(farm) > 1:
        top = deck.max_value
        farm = sorted(farm, key=lambda k: farm_cost(k, top))
    farm_names = tuple([take(k) for k in farm])
    placements = tuple([CardPlacement(take(k), value, temple) for k, value, temple in build])
    return TurnPlan(outcome, points, farm_names, placements)
