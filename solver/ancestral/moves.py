"""Ancestral's moves: how an action is written, which are legal, and their words.

An action is a small tuple (hashable, cheap to compare):

* ``(ATTACK, target, winds, hit)``: ``winds`` counts the wind cards laid, one
  number per kind of wind (cards.csv order); ``hit`` is the bit mask of the
  target's defenses the attack discards (bit ``i`` is the ``i``-th kind of
  protection), the attacker's choice when the damage uses up fewer defenses
  than the hut holds;
* ``(PROTECT, mask)``: the kinds of protection laid, as a bit mask;
* ``(CLEAN, n)``: ``n`` breeze cards played, sweeping ``n`` leaves;
* ``(DISCARD, counts)``: the cards discarded, one number per kind (all zero: a pass);
* ``(RESPOND, 1)`` plays a Hunuc-Huar against the attack just made, ``(RESPOND, 0)`` lets it through.

:class:`Table` holds what the rules fix once (kinds by role, the damage of
every play of winds, the subsets of defenses); :func:`turn_actions` lists a
turn's legal actions and :func:`turn_problem` says why one is not legal,
from a hand and the huts alone, for the engine and the solver alike.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import combinations, product
from operator import itemgetter

from kitgen.errors import OptionError
from solver.ancestral.deck import BREEZE, SPECIAL
from solver.ancestral.rules import Rules

ATTACK, PROTECT, CLEAN, DISCARD, RESPOND = 0, 1, 2, 3, 4
PLAY, LET = (RESPOND, 1), (RESPOND, 0)
MAX_PLAY_TEXT = 500          # characters of a proposed play


class Table:
    """What the rules fix for every game: kinds by role, plays of winds with their damage, defense subsets."""

    def __init__(self, rules: Rules):
        deck = rules.deck
        self.rules = rules
        self.kinds = deck.size
        self.names = deck.names
        self.winds = deck.winds
        self.protections = deck.protections
        self.breezes = deck.of(BREEZE)
        self.specials = deck.of(SPECIAL)
        self.lose = rules.leaves_to_lose
        self.hand_size = rules.hand_size
        self.full = (1 << len(self.protections)) - 1
        self.popcount = [bin(m).count("1") for m in range(self.full + 1)]
        # every play of winds the rules allow, whatever the hand: winds -> (damage, cards)
        self.damage: dict[tuple[int, ...], tuple[int, int]] = {}
        w = len(self.winds)
        if rules.damage_by == "kinds":
            for n in range(1, rules.most_winds + 1):
                for chosen in combinations(range(w), n):
                    self.damage[tuple(int(i in chosen) for i in range(w))] = (rules.damage[n - 1], n)
        else:
            for counts in product(range(rules.most_winds + 1), repeat=w):
                n = sum(counts)
                if 1 <= n <= rules.most_winds:
                    self.damage[counts] = (rules.damage[n - 1], n)
        # the plays in the order listed: fewer cards first, then by kinds in cards.csv order
        self.plays = sorted(self.damage, key=lambda c: (sum(c), [-x for x in c]))
        # subsets of a hut's defenses that an attack using up `used` of them may discard
        self.hits = {(mask, used): tuple(s for s in range(mask + 1) if s & mask == s and self.popcount[s] == used)
                     for mask in range(self.full + 1) for used in range(len(self.protections) + 1)}
        self._held_plays: dict[tuple[int, ...], tuple] = {}
        self._discards: dict[tuple[int, ...], tuple] = {}
        # the cards each play of winds takes from the hand: winds -> ((kind, copies), ...)
        self.spend = {c: tuple((self.winds[i], x) for i, x in enumerate(c) if x) for c in self.damage}
        self.wind_counts = itemgetter(*self.winds) if len(self.winds) > 1 else (lambda hand: (hand[self.winds[0]],))
        self.special = self.specials[0] if len(self.specials) == 1 else None

    def plays_held(self, hand) -> tuple:
        """The plays of winds a hand can make: ((winds, damage, cards), ...) in listing order."""
        key = self.wind_counts(hand)
        found = self._held_plays.get(key)
        if found is None:
            found = self._held_plays[key] = tuple(
                (c, *self.damage[c]) for c in self.plays if all(x <= h for x, h in zip(c, key)))
        return found

    def mask_held(self, hand) -> int:
        """The kinds of protection a hand holds, as a bit mask."""
        mask = 0
        for i, k in enumerate(self.protections):
            if hand[k]:
                mask |= 1 << i
        return mask

    def breezes_held(self, hand) -> int:
        return sum(hand[k] for k in self.breezes)

    def holds_special(self, hand) -> bool:
        if self.special is not None:
            return hand[self.special] > 0
        return any(hand[k] for k in self.specials)

    def attack_is_legal(self, hand, me: int, in_round, defense, action) -> bool:
        """Whether an attack is legal (the quick answer; :func:`turn_problem` says why not)."""
        try:
            _, t, winds, hit = action
            spend = self.spend.get(winds)
            if spend is None or type(t) is not int or not 0 <= t < len(in_round) or t == me or not in_round[t]:
                return False
            for k, c in spend:
                if hand[k] < c:
                    return False
            mask = defense[t]
            held = self.popcount[mask]
            damage = self.damage[winds][0]
            return type(hit) is int and hit in self.hits[(mask, damage if damage < held else held)]
        except (TypeError, ValueError):
            return False

    def discards(self, hand) -> tuple:
        """The Discard actions of a hand, in listing order (fewer cards first): the same hands come back
        turn after turn, so each one's list is made once (a Table keeps those of DISCARD_HANDS hands)."""
        key = tuple(hand)
        found = self._discards.get(key)
        if found is None:
            counts = list(product(*(range(h + 1) for h in key)))
            counts.sort(key=lambda c: (sum(c), [-x for x in c]))
            keep_pass = self.rules.pass_allowed or not any(key)
            found = tuple([(DISCARD, c) for c in counts if keep_pass or any(c)])
            if len(self._discards) >= DISCARD_HANDS:
                self._discards.clear()
            self._discards[key] = found
        return found


DISCARD_HANDS = 4096     # hands whose Discard actions a Table keeps (a hand of 7 cards has at most 128)


@lru_cache(maxsize=64)
def table_for(rules: Rules) -> Table:
    return Table(rules)


def others(me: int, in_round) -> list[int]:
    """The other players still in the round, in turn order from ``me``'s left."""
    n = len(in_round)
    return [s % n for s in range(me + 1, me + n) if in_round[s % n]]


def turn_actions(table: Table, hand, me: int, in_round, defense, my_leaves: int) -> list:
    """Every legal action of player ``me``'s turn, in a fixed order: attacks (targets from the left,
    then fewer winds first), Protect, Clean, Discard (fewer cards first)."""
    rules = table.rules
    actions = []
    plays = table.plays_held(hand)
    if plays:
        hits, popcount = table.hits, table.popcount
        for t in others(me, in_round):
            mask = defense[t]
            held = popcount[mask]
            for winds, damage, _ in plays:
                for hit in hits[(mask, min(damage, held))]:
                    actions.append((ATTACK, t, winds, hit))
    free = table.mask_held(hand) & ~defense[me]
    if free:
        for mask in range(1, free + 1):
            if mask & free == mask and (rules.protect_many or table.popcount[mask] == 1):
                actions.append((PROTECT, mask))
    for k in range(1, min(table.breezes_held(hand), my_leaves) + 1):
        actions.append((CLEAN, k))
    actions += table.discards(hand)
    return actions


def turn_problem(table: Table, hand, me: int, in_round, defense, my_leaves: int, action) -> str:
    """Why ``action`` is not a legal action of player ``me``'s turn ("" when it is)."""
    rules, names = table.rules, table.names
    if not isinstance(action, tuple) or not action or action[0] not in (ATTACK, PROTECT, CLEAN, DISCARD, RESPOND):
        return f"{action!r} is not an action"
    kind = action[0]
    if kind == RESPOND:
        return "there is no attack to answer: Hunuc-Huar is played only against an attack, out of turn"
    if kind == ATTACK:
        if len(action) != 4:
            return f"{action!r} is not an attack"
        _, t, winds, hit = action
        n = len(in_round)
        if not isinstance(t, int) or isinstance(t, bool) or not 0 <= t < n:
            return f"there is no player {t!r} to attack"
        if t == me:
            return "a player cannot attack their own hut"
        if not in_round[t]:
            return f"player {t + 1} is out of the round"
        if not isinstance(winds, tuple) or len(winds) != len(table.winds) or \
                not all(isinstance(c, int) and c >= 0 for c in winds) or not any(winds):
            return "an attack lays at least one wind card"
        short = _missing(hand, {table.winds[i]: c for i, c in enumerate(winds) if c}, names)
        if short:
            return short
        if winds not in table.damage:
            if rules.damage_by == "kinds" and any(c > 1 for c in winds):
                return "the winds of one attack must all be of different kinds"
            return f"an attack lays at most {rules.most_winds} wind cards"
        damage, _ = table.damage[winds]
        mask = defense[t]
        used = min(damage, table.popcount[mask])
        if not isinstance(hit, int) or isinstance(hit, bool) or hit not in table.hits[(mask, used)]:
            kept = table.popcount[mask] - used
            if used == 0:
                return "the attack discards no defense"
            if kept == 0:
                return f"the attack discards every defense of player {t + 1}: {defense_text(table, mask)}"
            return (f"the attack discards {used} of player {t + 1}'s defenses ({defense_text(table, mask)}); "
                    f"the attacker says which")
        return ""
    if kind == PROTECT:
        if len(action) != 2 or not isinstance(action[1], int) or isinstance(action[1], bool) or \
                not 0 < action[1] <= table.full:
            return "Protect lays at least one defense"
        mask = action[1]
        short = _missing(hand, {table.protections[i]: 1 for i in range(len(table.protections)) if mask >> i & 1},
                         names)
        if short:
            return short
        if mask & defense[me]:
            return (f"the hut already holds {defense_text(table, mask & defense[me])}: all the defenses in "
                    "one hut are of different kinds")
        if not rules.protect_many and table.popcount[mask] > 1:
            return "one Protect action lays a single defense (ruling protect_many)"
        return ""
    if kind == CLEAN:
        if len(action) != 2 or not isinstance(action[1], int) or isinstance(action[1], bool) or action[1] < 1:
            return "Clean plays at least one breeze card"
        k = action[1]
        held = table.breezes_held(hand)
        breeze = names[table.breezes[0]] if table.breezes else "breeze card"
        if k > held:
            return f"Clean plays {k} {breeze} but the hand holds {held or 'none'}"
        if k > my_leaves:
            return (f"Clean plays {k} {breeze} but the hut holds {leaves_text(my_leaves)}: "
                    "no more than one a leaf")
        return ""
    counts = action[1] if len(action) == 2 else None
    if not isinstance(counts, tuple) or len(counts) != table.kinds or \
            not all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in counts):
        return f"{action!r} is not a discard"
    short = _missing(hand, {k: c for k, c in enumerate(counts) if c}, names)
    if short:
        return short
    if not any(counts) and not rules.pass_allowed and any(hand):
        return "a Discard must discard at least one card (ruling pass_allowed)"
    return ""


def _missing(hand, wanted: dict[int, int], names) -> str:
    for k, c in wanted.items():
        if c > hand[k]:
            have = f"only {hand[k]}" if hand[k] else "none"
            return f"the play uses {c} {names[k]} but the hand holds {have}"
    return ""


def leaves_text(n: int) -> str:
    return f"{n} lea{'f' if n == 1 else 'ves'}"


def defense_text(table: Table, mask: int) -> str:
    return " + ".join(table.names[k] for i, k in enumerate(table.protections) if mask >> i & 1) or "no defense"


def cards_text(table: Table, counts: dict[int, int]) -> str:
    return " + ".join(" + ".join([table.names[k]] * c) for k, c in sorted(counts.items()) if c)


def action_text(table: Table, action) -> str:
    """An action in the rulebook's words; :func:`parse_play` reads it back."""
    kind = action[0]
    if kind == ATTACK:
        _, t, winds, hit = action
        damage, _ = table.damage[winds]
        text = (f"Attack player {t + 1} with {cards_text(table, {table.winds[i]: c for i, c in enumerate(winds)})}"
                f" ({leaves_text(damage)})")
        return text + (f", discarding {defense_text(table, hit)}" if hit else "")
    if kind == PROTECT:
        return f"Protect with {defense_text(table, action[1])}"
    if kind == CLEAN:
        breeze = table.names[table.breezes[0]]
        return f"Clean with {' + '.join([breeze] * action[1])}"
    if kind == DISCARD:
        counts = action[1]
        if not any(counts):
            return "Pass (discard nothing)"
        return f"Discard {cards_text(table, dict(enumerate(counts)))}"
    special = table.names[table.specials[0]] if table.specials else "Hunuc-Huar"
    return f"Play {special}: the attack is cancelled" if action[1] else "Let the attack through"


# --- reading a proposed play -------------------------------------------------------------------

_PLAYER = re.compile(r"^(?:player\s*|p)?(\d{1,3})$")
_COUNTED = re.compile(r"^(\d{1,3})\s*(?:x\s*|\u00d7\s*)?(.+)$")
_VERBS = ("attack", "protect", "clean", "discard", "pass", "play", "let")


def parse_play(text: str, table: Table, players: int, option: str = "--play"):
    """A play as people write it (or as :func:`action_text` words it), as an action tuple.

    ``attack 2 with Strong Wind + Hot Wind [, discarding Quincha Defense]``,
    ``protect with Quincha Defense, Tree Curtain``, ``clean with 2 South Breeze``
    (or ``clean 2``), ``discard Reference + Hot Wind``, ``pass``; card names in any
    case, accents and hyphens optional, or the start of one name.  Whether the
    action is legal is not checked here (see :func:`turn_problem`)."""
    if not isinstance(text, str) or not text.strip():
        raise OptionError(option, "give a play, e.g. 'attack 2 with Strong Wind + Hot Wind', 'protect with "
                                  "Quincha Defense', 'clean with 1 South Breeze', 'discard Reference' or 'pass'")
    if len(text) > MAX_PLAY_TEXT:
        raise OptionError(option, f"a play is at most {MAX_PLAY_TEXT} characters, not {len(text):,}")
    plain = re.sub(r"\([^)]*\)", " ", text).strip().rstrip(".").strip()
    words = plain.split(None, 1)
    verb = words[0].lower().rstrip(":") if words else ""
    rest = words[1].strip() if len(words) > 1 else ""
    if verb not in _VERBS:
        raise OptionError(option, f"a play starts with one of {', '.join(_VERBS)}, not {words[0]!r}" if words
                          else "the play is empty")
    if verb == "pass" or (verb == "discard" and rest.lower() in ("nothing", "none", "no cards", "")):
        return (DISCARD, (0,) * table.kinds)
    if verb == "let":
        return LET
    if verb == "play":
        kind = table.rules.deck.lookup(rest.split(":")[0])
        if kind is None or kind not in table.specials:
            raise OptionError(option, "out of turn, the only card played is "
                              + (table.names[table.specials[0]] if table.specials else "none"))
        return PLAY
    if verb == "attack":
        match = re.match(r"^(.*?)\s+with\s+(.*)$", rest, flags=re.IGNORECASE)
        if not match:
            raise OptionError(option, "an attack names a player and its winds: 'attack 2 with Strong Wind + "
                                      "Hot Wind'")
        who, cards = match.group(1).strip(), match.group(2)
        seat = _PLAYER.match(who.lower())
        if not seat or not 1 <= int(seat.group(1)) <= players:
            raise OptionError(option, f"{who!r} is not a player: name one from 1 to {players}, e.g. 'player 2'")
        parts = re.split(r",?\s*discarding\s+|,?\s*discard\s+", cards, maxsplit=1, flags=re.IGNORECASE)
        winds = read_cards(parts[0], table, option)
        wrong = [table.names[k] for k in winds if k not in table.winds]
        if wrong:
            raise OptionError(option, f"{wrong[0]} is not a wind: an attack lays wind cards "
                                      f"({', '.join(table.names[k] for k in table.winds)})")
        hit = 0
        if len(parts) > 1:
            for k, c in read_cards(parts[1], table, option).items():
                if k not in table.protections:
                    raise OptionError(option, f"{table.names[k]} is not a defense: an attack discards defenses")
                if c > 1:
                    raise OptionError(option, f"a hut holds one {table.names[k]} at most")
                hit |= 1 << table.protections.index(k)
        return (ATTACK, int(seat.group(1)) - 1, tuple(winds.get(k, 0) for k in table.winds), hit)
    rest = re.sub(r"^with\s+", "", rest, flags=re.IGNORECASE)
    if verb == "protect":
        mask = 0
        for k, c in read_cards(rest, table, option).items():
            if k not in table.protections:
                raise OptionError(option, f"{table.names[k]} is not a defense: Protect lays "
                                          f"{', '.join(table.names[k] for k in table.protections)}")
            if c > 1:
                raise OptionError(option, f"all the defenses in one hut are of different kinds: "
                                          f"{c} {table.names[k]} is too many")
            mask |= 1 << table.protections.index(k)
        return (PROTECT, mask)
    if verb == "clean":
        if re.fullmatch(r"\d{1,3}", rest):
            return (CLEAN, int(rest))
        cards = read_cards(rest, table, option)
        wrong = [table.names[k] for k in cards if k not in table.breezes]
        if wrong:
            raise OptionError(option, f"{wrong[0]} does not clean: Clean plays "
                              + ", ".join(table.names[k] for k in table.breezes))
        return (CLEAN, sum(cards.values()))
    counts = read_cards(rest, table, option)
    return (DISCARD, tuple(counts.get(k, 0) for k in range(table.kinds)))


def read_cards(text: str, table: Table, option: str) -> dict[int, int]:
    """``Strong Wind + Hot Wind``, ``2 South Breeze``, ``quincha, tree``: kind -> copies."""
    items = [i.strip() for i in re.split(r"\s*(?:\+|,|\band\b)\s*", text.strip(), flags=re.IGNORECASE)]
    if not text.strip() or not all(items):
        raise OptionError(option, f"{text.strip()!r}: name cards separated by + or commas, "
                                  "e.g. Strong Wind + Hot Wind")
    found: dict[int, int] = {}
    for item in items:
        count, name = 1, item
        counted = _COUNTED.match(item)
        if counted:
            count, name = int(counted.group(1)), counted.group(2)
        kind = table.rules.deck.lookup(name)
        if kind is None:
            raise OptionError(option, f"unknown card {name!r}; the cards are {', '.join(table.names)}")
        found[kind] = found.get(kind, 0) + count
    return found
