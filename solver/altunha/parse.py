"""Reading what people type: hands, temple tops, Population, proposed plays, rule settings.

Everything here raises :class:`kitgen.errors.OptionError` naming the option
(``--hand``, ``--temples``...) with one line that says how to fix it.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from typing import Sequence

from kitgen.errors import KitgenError, OptionError
from solver.altunha.cards import Deck, fold, load_deck
from solver.altunha.rules import DIGITS, CardPlacement, Rules, split_settings, with_settings

GOD_WORD = "god"
MAX_POPULATION = 1000   # far above any game; keeps the model's numbers small


def whole(text: str, option: str) -> int:
    """A whole number already matched as ASCII digits (optional sign); absurdly long ones refused."""
    if len(text.lstrip("+-").lstrip("0")) > 12:
        raise OptionError(option, f"{text[:15]}... is far too large a number")
    return int(text)


def _items(text_or_list, option: str) -> list[str]:
    """Comma-separated text (or a list) into stripped items; empty text is an empty list."""
    if isinstance(text_or_list, str):
        if not text_or_list.strip():
            return []
        items = text_or_list.split(",")
    else:
        items = [str(i) for i in text_or_list]
    items = [i.strip() for i in items]
    for n, item in enumerate(items, start=1):
        if not item:
            raise OptionError(option, f"item {n} of {len(items)} is empty; separate items with "
                                      "single commas, e.g. Stage,Stairs,God")
    return items


def parse_card(text: str, deck: Deck, option: str = "--hand") -> str:
    """One card: a name (any case, accents optional) or a digit 1..8 for that Bid card.

    Returns the exact name; ``God`` is returned as the word itself for :func:`parse_hand`.
    """
    if DIGITS.fullmatch(text):
        card = deck.bid_card(whole(text, option))
        if card is None:
            raise OptionError(option, f"no Bid card has value {text} (values run 1..{deck.max_value})")
        return card.name
    if fold(text) == GOD_WORD:
        return GOD_WORD
    card = deck.lookup(text)
    if card is None:
        names = {fold(n): n for n in deck.names}
        close = difflib.get_close_matches(fold(text), list(names) + [GOD_WORD], n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(names.get(c, 'God') for c in close)}?" if close else \
            "; give a card name from the deck, a digit 1..8 for a Bid card, or God"
        raise OptionError(option, f"unknown card {text!r}{hint}")
    return card.name


def parse_hand(hand, deck: Deck | None = None, option: str = "--hand") -> tuple[str, ...]:
    """A hand as exact card names in deck order; checks the deck holds that many copies."""
    deck = deck or load_deck()
    names = [parse_card(item, deck, option) for item in _items(hand, option)]
    gods = [n for n in names if n == GOD_WORD]
    named = Counter(n for n in names if n != GOD_WORD)
    for name, n in named.items():
        if n > deck[name].count:
            raise OptionError(option, f"the hand holds {n} {name} but the deck has only "
                                      f"{deck[name].count}")
    free_gods = [g.name for g in deck.gods if not named[g.name]]
    if len(gods) > len(free_gods):
        total = len(deck.gods)
        raise OptionError(option, f"the hand holds {len(gods) + total - len(free_gods)} God cards "
                                  f"but the deck has only {total}")
    names = [n for n in names if n != GOD_WORD] + free_gods[:len(gods)]
    return tuple(sorted(names, key=deck.sort_key))


def parse_temples(temples, max_stage: int = 8, option: str = "--temples",
                  deck: Deck | None = None) -> tuple[int, ...]:
    """Temple tops, each 1..max_stage, in table order; no more temples than the deck can start."""
    if temples is None:
        return ()
    items = _items(temples, option)
    if deck is not None:
        starters = sum(c.count for c in deck.cards
                       if c.type == "god" or (c.type == "bid" and c.value == 1))
        if len(items) > starters:
            raise OptionError(option, f"{len(items)} temples, but the deck can start at most "
                                      f"{starters} (one per value-1 Bid card or God card)")
    tops = []
    for n, item in enumerate(items, start=1):
        if not re.fullmatch(r"[+-]?[0-9]+", item):
            raise OptionError(option, f"temple {n}: {item!r} is not a whole number; give the top "
                                      f"value of each temple, e.g. 2,3")
        top = whole(item, option)
        if not 1 <= top <= max_stage:
            raise OptionError(option, f"temple {n}: top {top} is outside 1..{max_stage}")
        tops.append(top)
    return tuple(tops)


def check_population(population, option: str = "--population") -> int:
    if isinstance(population, bool) or not isinstance(population, int):
        raise OptionError(option, f"{population!r} is not a whole number")
    if population < 1:
        raise OptionError(option, f"Population must be at least 1, not {population}")
    if population > MAX_POPULATION:
        raise OptionError(option, f"Population must be at most {MAX_POPULATION}, not {population}")
    return population


def parse_rules(options: Sequence[str], base: Rules | None = None, option: str = "--rule") -> Rules:
    """``name=value`` settings (``chain=off``, ``max_build_cards=1``...) applied to ``base``.

    The names are the game's rule numbers and rulings (:data:`solver.altunha.rules.SETTINGS`),
    the same as ``kitgen simulate --set`` takes."""
    return with_settings(base or Rules.from_game(), split_settings(options, option), option)


PLAY_HELP = """\
A play is 'farm CARDS; build PLACEMENTS'.  CARDS are comma-separated (or
'none' to declare famine).  Each placement is CARD@TEMPLE, or CARD=VALUE@TEMPLE
for a God card, in the order played; TEMPLE is a temple number or 'new'.
Omit the build part (or write 'build none') to build nothing.
Example: 'farm Sun God; build Stage@1, Stairs@2'."""


def parse_play(text: str, hand: Sequence[str], temples: Sequence[int], deck: Deck | None = None,
               option: str = "--play") -> tuple[tuple[str, ...], tuple[CardPlacement, ...]]:
    """A proposed play as (farm card names, placements).  See :data:`PLAY_HELP`.

    ``God`` in a play names a God card of the hand.  New temples are numbered
    after the temples on the table, in the order started.
    """
    deck = deck or load_deck()
    parts = {}
    for chunk in text.split(";"):
        chunk = chunk.strip()
        if not chunk:
            continue
        word, _, rest = chunk.partition(" ")
        word = word.lower().rstrip(":")
        if word not in ("farm", "build") or word in parts:
            raise OptionError(option, f"{chunk!r}: expected 'farm ...' then 'build ...' "
                                      "(e.g. 'farm Sun God; build Stage@1, Stairs@2')")
        parts[word] = rest.strip()
    if "farm" not in parts:
        raise OptionError(option, "missing the farm part, e.g. 'farm Stage, Stairs' or 'farm none'")
    gods = [n for n in hand if deck[n].type == "god"]
    held_gods = list(gods)

    def card(item: str) -> str:
        name = parse_card(item, deck, option)
        if name == GOD_WORD:
            if not held_gods:
                raise OptionError(option, "the play uses a God card but the hand holds none")
            # every God of the hand is already used: the check names the card used twice
            name = gods.pop(0) if gods else held_gods[0]
        elif name in gods:
            gods.remove(name)
        return name

    farm_text = parts["farm"]
    farm = () if fold(farm_text) in ("none", "") else tuple(card(i) for i in _items(farm_text, option))
    build = []
    build_text = parts.get("build", "")
    new_number = len(temples)
    if fold(build_text) not in ("none", ""):
        for item in _items(build_text, option):
            m = re.fullmatch(r"(.+?)\s*(?:=\s*([0-9]+))?\s*@\s*(\w+)", item)
            if not m:
                raise OptionError(option, f"placement {item!r} is not CARD@TEMPLE or CARD=VALUE@TEMPLE")
            name = card(m.group(1))
            value = whole(m.group(2), option) if m.group(2) else deck[name].value
            if deck[name].type == "god" and not m.group(2):
                raise OptionError(option, f"say which value {name} builds as, e.g. {name}=4@2")
            if value is None:
                value = 0
            where = m.group(3).lower()
            if where == "new":
                new_number += 1
                temple = new_number
            elif DIGITS.fullmatch(where):
                temple = whole(where, option)
                new_number = max(new_number, temple)
            else:
                raise OptionError(option, f"placement {item!r}: temple {where!r} is not a number or 'new'")
            build.append(CardPlacement(name, value, temple))
    return farm, tuple(build)


QUESTION_KEYS = ("hand", "population", "temples")


def question_fields(data, extra: Sequence[str] = ()) -> tuple:
    """A question given as a JSON object ``{"hand": [...], "population": n, "temples": [...]}``.

    Returns ``(hand, population, temples)`` for :func:`solver.altunha.solve.question`
    to check, then the values of the ``extra`` keys the caller accepts (None
    when absent).  ``kitgen solve --batch`` reads its lines with it, and so
    does the web app's JSON API.
    """
    accepted = (*QUESTION_KEYS, *extra)
    if not isinstance(data, dict):
        raise KitgenError('expected an object {"hand": [...], "population": n, "temples": [...]}')
    unknown = sorted(set(data) - set(accepted))
    if unknown:
        raise KitgenError(f"unknown key {unknown[0]!r} (accepted: {', '.join(accepted)})")
    for key in ("hand", "population"):
        if key not in data:
            raise KitgenError(f"missing key {key!r}")
    hand, temples = data["hand"], data.get("temples", [])
    if not isinstance(hand, list) or not all(isinstance(c, (str, int)) and not isinstance(c, bool)
                                             for c in hand):
        raise KitgenError('"hand" must be a list of card names')
    if not isinstance(temples, list) or not all(isinstance(t, int) and not isinstance(t, bool)
                                                for t in temples):
        raise KitgenError('"temples" must be a list of whole numbers')
    return (hand, data["population"], temples, *(data.get(key) for key in extra))
