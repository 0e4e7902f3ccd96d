"""The construction question of Temple of Inscriptions, asked and answered in words.

A *position* is one round at the level being built, every hand open (as a rule
check at the table): the level, each player's hand, the swap zone, the round's
first player, whether the swaps are still to come, the summoner (or nobody
yet), and the objective the players play for.  :func:`solve` answers:

* whether the level can be completed this round, every player co-operating, and
  with which cards from whom (counting the swaps still to come, the fewest of
  them; construction cards before jewel pairs);
* the construction when every player, in turn, does what is best for them with
  the hands as they are (the objective: ``margin``, their points this round less
  the best other player's, or ``gain``, their own points), found by exhaustive
  backward induction (:mod:`.search`);
* who should summon: each player's result if they summon, and who does when
  each in turn from the first player summons only if it serves them.

:func:`check` judges a proposed construction (the cards each player sets, in
turn from the summoner).  The search counts this round's points and the
jewels' worth, and takes every player to hold the point a summons costs.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from kitgen.errors import OptionError
from solver.engine import on_off
from solver.temple.rules import JEWEL, Rules, fold
from solver.temple.search import (
    GAIN,
    MARGIN,
    OBJECTIVES,
    NONE,
    C,
    J,
    Construction,
    Outcome,
    Search,
    Table,
    completion,
)
from solver.temple.state import CALL, PASS, SUMMON, TempleState, action_text, set_words

MAX_PLAY = 2000            # characters of a proposed play
MAX_NAME = 200             # characters of one card as typed
OBJECTIVE_TEXT = {MARGIN: "their points this round minus the best other player's",
                  GAIN: "their own points this round"}


@dataclass(frozen=True)
class Position:
    level: int
    hands: tuple[tuple[int, ...], ...]     # each player's cards, counts by kind
    zone: tuple[int, ...]                  # the swap zone, counts by kind
    first: int                             # the round's first player (0-based)
    summoner: int | None                   # who has summoned (0-based), None: nobody yet
    swaps: bool                            # the swaps of the round are still to come
    objective: str

    @property
    def players(self) -> int:
        return len(self.hands)


def position_fields() -> list[dict]:
    return [
        {"name": "level", "label": "Level being built", "kind": "number", "min": 1, "max": 1000, "default": 1,
         "help": "the lowest level not built yet"},
        {"name": "hands", "label": "Hands", "kind": "player-cards", "min": 2, "max": 5, "required": True,
         "example": '"Lower Terrace x2, Jade Jewel; 3, Temple Roof"',
         "help": "every player's hand from player 1 on, players separated by ';' (open, as a rule check); "
                 "'2 Lower Terrace' or 'Lower Terrace x2' counts two, a number alone names that level's card"},
        {"name": "zone", "label": "Swap zone", "kind": "cards", "default": [],
         "help": "the face-up cards of the swap zone"},
        {"name": "first", "label": "First player", "kind": "number", "min": 1, "max": 5, "default": 1,
         "help": "the player who swaps and is asked to summon first this round"},
        {"name": "summoner", "label": "Summoner", "kind": "number", "min": 0, "max": 5, "default": 0,
         "help": "the player who summons (0: nobody yet, and the answer says who should)"},
        {"name": "swapped", "label": "Swaps done", "kind": "flag", "default": False,
         "help": "the swaps of this round are done (otherwise whether the level can be completed counts "
                 "one swap per player still to come)"},
        {"name": "objective", "label": "Each player plays for", "kind": "choice", "default": MARGIN,
         "choices": list(OBJECTIVES),
         "help": "margin: their points this round minus the best other player's; gain: their own points"},
    ]


# --- reading a position ---------------------------------------------------------------------

_TIMES_AFTER = re.compile(r"(.+?)\s+[x*]\s*(\d{1,3})", re.IGNORECASE)      # Lower Terrace x2
_TIMES_BEFORE = re.compile(r"(\d{1,3})\s*(?:[x*]\s*)?\s(.+)", re.IGNORECASE)  # 2 Lower Terrace, 2x Lower Terrace


def card_kind(name: str, rules: Rules, field: str) -> int:
    text = name.strip()
    if text.isdigit() and text.isascii():
        level = int(text)
        if 1 <= level <= rules.levels:
            return level
        raise OptionError(field, f"there is no level {level} (levels 1 to {rules.levels})")
    if fold(text) in ("jewel", "jewels", "j"):
        return JEWEL
    kind = rules.kind_of(text)
    if kind is None:
        raise OptionError(field, f"no card named {text!r} (cards: {', '.join(rules.names[:rules.levels + 1])}, "
                                 f"or a level's number)")
    return kind


def read_cards(raw: Any, rules: Rules, field: str) -> list[int]:
    """Counts by kind of a list of card names (or a text of names separated by commas); ``2 Rubble Core``
    and ``Rubble Core x2`` count two, a number alone names a level's card."""
    if raw is None:
        return [0] * (rules.levels + 1)
    if not isinstance(raw, (str, list, tuple)):
        raise OptionError(field, f"give card names, not {raw!r}")
    items = raw if isinstance(raw, (list, tuple)) else re.split(r"[,+]", raw)
    most = sum(rules.counts)
    if len(items) > most:
        raise OptionError(field, f"{len(items)} cards; the whole deck holds {most}")
    counts = [0] * (rules.levels + 1)
    for item in items:
        if not isinstance(item, str):
            raise OptionError(field, f"a card is named by its name, not {item!r}")
        text = item.strip()
        if not text or fold(text) in ("-", "none", "nothing"):
            continue
        if len(text) > MAX_NAME:
            raise OptionError(field, f"{text[:40]!r}... is not a card name ({len(text)} characters)")
        after, before = _TIMES_AFTER.fullmatch(text), _TIMES_BEFORE.fullmatch(text)
        name, copies = (after.group(1), int(after.group(2))) if after else \
            (before.group(2), int(before.group(1))) if before else (text, 1)
        counts[card_kind(name, rules, field)] += copies
    return counts


def read_hands(raw: Any, rules: Rules) -> list[list[int]]:
    field = "hands"
    if isinstance(raw, str):
        parts = re.split(r"[;|/\n]", raw)
    elif isinstance(raw, (list, tuple)):
        parts = list(raw)
    else:
        raise OptionError(field, "give each player's hand, players separated by ';'")
    if len(parts) > 1 and isinstance(raw, str) and not parts[-1].strip():
        parts = parts[:-1]
    low, high = max(2, rules.players_min), rules.players_max
    if not low <= len(parts) <= high:
        raise OptionError(field, f"{len(parts)} hand{'s' if len(parts) != 1 else ''} given; the game takes "
                                 f"{low} to {high} players (separate the hands with ';')")
    return [read_cards(part, rules, f"hands (player {i + 1})") for i, part in enumerate(parts)]


def _number(raw: Any, field: str, low: int, high: int, default: int) -> int:
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return default
    text = str(raw).strip()
    if isinstance(raw, bool) or not re.fullmatch(r"\+?\d{1,4}", text) or not low <= int(text) <= high:
        raise OptionError(field, f"takes a whole number from {low} to {high}, not {raw!r}")
    return int(text)


def _flag(raw: Any, field: str, default: bool) -> bool:
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return default
    if on_off(raw) is None:
        raise OptionError(field, f"takes on or off, not {raw!r}")
    return on_off(raw)


def read_position(raw: dict, rules: Rules) -> Position:
    """A position from a dict of :func:`position_fields` (texts or JSON values); a mistake is an
    ``OptionError`` naming the field."""
    known = {f["name"] for f in position_fields()}
    if not isinstance(raw, dict):
        raise OptionError("position", f"give the position's fields by name ({', '.join(sorted(known))})")
    unknown = sorted(set(raw) - known)
    if unknown:
        raise OptionError(unknown[0], f"no such field (fields: {', '.join(sorted(known))})")
    level = _number(raw.get("level"), "level", 1, rules.levels, 1)
    if raw.get("hands") is None:
        raise OptionError("hands", "give every player's hand, players separated by ';'")
    hands = read_hands(raw["hands"], rules)
    n = len(hands)
    zone = read_cards(raw.get("zone"), rules, "zone")
    if sum(zone) > rules.swap_zone:
        raise OptionError("zone", f"the swap zone holds at most {rules.swap_zone} cards, not {sum(zone)}")
    for field, counts in [*((f"hands (player {i + 1})", h) for i, h in enumerate(hands)), ("zone", zone)]:
        for kind in range(1, level):
            if counts[kind]:
                raise OptionError(field, f"{rules.names[kind]} is of level {kind}, already built (the level "
                                         f"being built is {level}): such cards are discarded")
    for kind in range(rules.levels + 1):
        used = zone[kind] + sum(h[kind] for h in hands)
        if used > rules.counts[kind]:
            raise OptionError("hands", f"{used} {rules.names[kind]} in the hands and the swap zone, but the "
                                       f"deck holds {rules.counts[kind]}")
    first = _number(raw.get("first"), "first", 1, n, 1) - 1
    summoner = _number(raw.get("summoner"), "summoner", 0, n, 0) - 1
    swaps = not _flag(raw.get("swapped"), "swapped", False)
    objective = str(raw.get("objective") or MARGIN).strip().lower()
    if objective not in OBJECTIVES:
        raise OptionError("objective", f"takes one of {', '.join(OBJECTIVES)}, not {raw.get('objective')!r}")
    position = Position(level, tuple(map(tuple, hands)), tuple(zone), first, summoner if summoner >= 0 else None,
                        swaps, objective)
    if position.summoner is not None and rules.summoner_sets:
        hand = hands[position.summoner]
        if not hand[level] and hand[JEWEL] < rules.jewels_per_card:
            raise OptionError("summoner", f"player {position.summoner + 1} has no card to set for level {level}, "
                                          f"and a summoner must set one (summoner_sets)")
    return position


# --- the answer --------------------------------------------------------------------------------

def classes(counts, level: int) -> tuple[int, int, int]:
    """(the level's cards, jewels, other cards) of a hand or the zone."""
    return counts[level], counts[JEWEL], sum(counts) - counts[level] - counts[JEWEL]


def _table(position: Position, rules: Rules) -> Table:
    return Table.of(rules, position.level, position.objective)


def concrete_swaps(position: Position, swaps) -> list[tuple | None]:
    """Swaps of classes (by player) as actions of kinds, made in turn from the first player on the cards as
    they then are: another card is the highest-level card held or lying that is not of the level."""
    level, n = position.level, position.players
    hands, zone = [list(h) for h in position.hands], list(position.zone)
    out: list[tuple | None] = [None] * n

    def kind(cls, counts):
        if cls == C:
            return level
        if cls == J:
            return JEWEL
        return max(k for k in range(1, len(counts)) if counts[k] and k != level)

    for i in range(n):
        p = (position.first + i) % n
        if p >= len(swaps) or swaps[p] is None:
            continue
        give, take = kind(swaps[p][0], hands[p]), kind(swaps[p][1], zone)
        hands[p][give] -= 1
        zone[give] += 1
        zone[take] -= 1
        hands[p][take] += 1
        out[p] = ("swap", give, take)
    return out


def _who(p: int) -> str:
    return f"Player {p + 1}"


def _plan_lines(rules: Rules, position: Position, swaps, summoner, sets) -> list[str]:
    lines = []
    n = position.players
    actions = concrete_swaps(position, swaps)
    for i in range(n):
        p = (position.first + i) % n
        action = actions[p]
        if action is not None:
            lines.append(f"  {_who(p)} swaps: gives {rules.names[action[1]]}, takes {rules.names[action[2]]}.")
    if summoner is None:
        lines.append("  Nobody summons.")
        return lines
    for i in range(n):
        p = (summoner + i) % n
        cards, pairs = sets[p]
        verb = "summons and sets" if p == summoner else "sets"
        lines.append(f"  {_who(p)} {verb} {set_words(rules, position.level, cards, pairs)}.")
    return lines


def _points(gains) -> str:
    return ", ".join(f"{_who(p)} {g:+d}" for p, g in enumerate(gains))


def solve(position: Position, rules: Rules) -> dict:
    t = _table(position, rules)
    n, level = position.players, position.level
    hands = tuple(classes(h, level) for h in position.hands)
    zone = classes(position.zone, level)
    can = completion(t, hands, zone, position.first, position.swaps, position.summoner)
    search = Search(t, position.first, n)
    settable = search.settable(hands)
    played = search.summons(settable, search.zero, position.summoner)
    each = [search.summons(settable, search.zero, s) if not t.must_set or t.capacity(hands[s]) >= 1 else None
            for s in range(n)]
    lines = [f"Level {level} ({rules.names[level]}): {rules.cards_per_level} cards complete it; "
             f"{n} players, player {position.first + 1} first"
             + ("; the swaps are still to come." if position.swaps else "; the swaps are done.")]
    if can.possible:
        made = sum(s is not None for s in can.swaps)
        lines.append(f"Can level {level} be completed this round? Yes, every player co-operating"
                     + (f", with {made or 'no'} swap{'' if made == 1 else 's'}:" if position.swaps else ":"))
        lines += _plan_lines(rules, position, can.swaps, can.summoner, can.sets)
    else:
        lines.append(f"Can level {level} be completed this round? No: at most {can.best} of the "
                     f"{rules.cards_per_level} cards can be set.")
    lines.append(f"When every player plays for {OBJECTIVE_TEXT[position.objective]}"
                 + (", with the hands as they are:" if position.swaps else ":"))
    lines += _plan_lines(rules, position, (), played.summoner, played.sets)
    lines.append(f"  The level is {'completed' if played.completed else 'not completed'}. "
                 f"Points this round: {_points(played.gains)}.")
    lines.append("Who should summon (each player's points this round if they summon):")
    for s, result in enumerate(each):
        if result is None:
            lines.append(f"  {_who(s)} cannot summon: no card to set.")
        else:
            lines.append(f"  {_who(s)}: {result.gains[s]:+d} ({'completed' if result.completed else 'not completed'}"
                         f"; {position.objective} {t.value(result.gains, s):+d}).")
    if position.summoner is None:
        lines.append(f"Asked in turn from player {position.first + 1}, "
                     + (f"{_who(played.summoner).lower()} summons." if played.summoner is not None
                        else "nobody summons: it serves no one."))
    player, action = _best_action(position, played)
    lines.append(f"Best for {_who(player).lower()} now: {action_text(rules, action, level)}.")
    return {
        "lines": lines,
        "best": [action_text(rules, action, level)],
        "player": player + 1,
        "objective": position.objective,
        "cards": {"level": rules.names[level], "jewel": rules.jewel_name, "jewels_per_card": rules.jewels_per_card},
        "completion": {"possible": can.possible, "most_cards": can.best,
                       "swaps": _swaps_json(rules, position, can.swaps),
                       "summoner": None if can.summoner is None else can.summoner + 1,
                       "sets": [{"cards": c, "pairs": q} for c, q in can.sets]},
        "outcome": _outcome_json(position, played, t),
        "summoners": [None if r is None else _outcome_json(position, r, t) for r in each],
    }


def _swaps_json(rules: Rules, position: Position, swaps) -> list[dict | None]:
    return [None if a is None else {"give": rules.names[a[1]], "take": rules.names[a[2]]}
            for a in concrete_swaps(position, swaps)]


def _outcome_json(position: Position, o: Outcome, t: Table) -> dict:
    return {"summoner": None if o.summoner is None else o.summoner + 1,
            "sets": [{"cards": c, "pairs": q} for c, q in o.sets], "completed": o.completed,
            "gains": list(o.gains), "values": [t.value(o.gains, p) for p in range(position.players)]}


def _best_action(position: Position, played: Outcome) -> tuple[int, tuple]:
    """(player, action) of the first decision of the construction: the first player's summons, or the
    summoner's set."""
    if position.summoner is None:
        p = position.first
        return p, CALL if played.summoner == p else PASS
    p = position.summoner
    cards, pairs = played.sets[p]
    return p, ("set", cards, pairs)


def all_best(position: Position, rules: Rules) -> dict:
    """Every best first decision of the construction (``--all``): the first player's summons or pass, or the
    summoner's sets, whichever are worth as much by the objective, the later players doing their best."""
    t = _table(position, rules)
    n, level = position.players, position.level
    search = Search(t, position.first, n)
    hands = search.settable(tuple(classes(h, level) for h in position.hands))
    if position.summoner is None:
        p = position.first
        order = [(p + i) % n for i in range(n)]
        options = [(PASS, search._summon(hands, search.zero, order, 1).gains)]
        if not t.must_set or t.capacity(hands[p]) >= 1:
            options.append((CALL, search.construction(hands, p, search.zero)[2]))
        scored = [(action, t.value(gains, p)) for action, gains in options]
    else:
        p = position.summoner
        judge = Construction(t, hands, p, search.zero)
        scored = [(("set", *option), score) for option, score, *_ in judge.scored(0, 0, NONE, NONE)]
        if not scored:
            return {"lines": [f"{_who(p)} has no card to set for level {level}."], "best": [], "player": p + 1,
                    "value": None}
    top = max(score for _, score in scored)
    best = [action_text(rules, action, level) for action, score in scored if score == top]
    lines = [f"{len(best)} best play{'s' if len(best) != 1 else ''} for {_who(p).lower()} "
             f"({position.objective} {top:+d}, the later players doing their best):"] + [f"  {b}" for b in best]
    return {"lines": lines, "best": best, "player": p + 1, "value": top}


# --- checking a proposed construction ---------------------------------------------------------------

def parse_play(play: str, position: Position, rules: Rules) -> list[tuple[int, int]]:
    """The sets (cards, pairs) of a play text, in turn from the summoner: parts separated by ';', each
    ``nothing`` or cards such as ``2 Lower Terrace, 2 Jade Jewel`` (a number alone counts the level's
    cards, ``1 pair`` a pair of jewels)."""
    field = "--play"
    if not isinstance(play, str) or not play.strip():
        raise OptionError(field, "give the cards each player sets, in turn from the summoner, separated by ';'"
                                 " (for example: 2 Lower Terrace; 1 Lower Terrace, 2 Jade Jewel; nothing)")
    if len(play) > MAX_PLAY:
        raise OptionError(field, f"a play of {len(play)} characters; at most {MAX_PLAY}")
    parts = play.split(";")
    if parts and not parts[-1].strip() and len(parts) > 1:
        parts = parts[:-1]
    n = position.players
    if len(parts) > n:
        raise OptionError(field, f"{len(parts)} sets for {n} players (one part for each player in turn from "
                                 f"the summoner, separated by ';')")
    sets = []
    for i, part in enumerate(parts):
        who = f"{field} (part {i + 1})"
        cards = pairs = 0
        for item in re.split(r"[,+]", part):
            text = item.strip()
            if not text or fold(text) in ("nothing", "pass", "none", "-", "0"):
                continue
            match = re.fullmatch(r"(\d{1,3})\s*(.*)", text)
            number, name = (int(match.group(1)), match.group(2).strip()) if match else (1, text)
            if not name:
                cards += number
                continue
            if fold(name) in ("pair", "pairs"):
                pairs += number
                continue
            kind = card_kind(name, rules, who)
            if kind == JEWEL:
                if number % rules.jewels_per_card:
                    raise OptionError(who, f"jewels are set {rules.jewels_per_card} at a time, not {number}")
                pairs += number // rules.jewels_per_card
            elif kind != position.level:
                raise OptionError(who, f"{rules.names[kind]} is of level {kind}; only level {position.level} "
                                       f"({rules.names[position.level]}) and jewels can be set")
            else:
                cards += number
        sets.append((cards, pairs))
    return sets + [(0, 0)] * (n - len(sets))


def set_problem(rules: Rules, position: Position, hands, order, sets) -> str:
    """Why these sets, in turn from the summoner, break the rules ("" when they do not)."""
    total = 0
    for i, (p, (cards, pairs)) in enumerate(zip(order, sets)):
        hand = hands[p]
        who = _who(p)
        if total >= rules.cards_per_level and cards + pairs:
            return f"{who} sets cards after the level is complete"
        if cards > hand[C]:
            return f"{who} holds {hand[C]} {rules.names[position.level]}, not {cards}"
        if pairs * rules.jewels_per_card > hand[J]:
            return f"{who} holds {hand[J]} {rules.jewel_name}, not {pairs * rules.jewels_per_card}"
        if cards + pairs > rules.max_cards_per_player:
            return f"{who} sets {cards + pairs} cards; at most {rules.max_cards_per_player}"
        if total + cards + pairs > rules.cards_per_level:
            return f"{who} sets {cards + pairs} cards, but the level needs only {rules.cards_per_level - total}"
        if i == 0 and rules.summoner_sets and not cards + pairs:
            return f"{who} summoned and must set at least one card"
        total += cards + pairs
    return ""


def check(position: Position, play: str, rules: Rules) -> dict:
    """Whether a construction (the sets in turn from the summoner) is legal, what it pays, and how far
    each player's set is from their best."""
    if position.summoner is None:
        raise OptionError("summoner", "a play is checked for a summoner: give the player who summons")
    sets = parse_play(play, position, rules)
    t = _table(position, rules)
    n, level, summoner = position.players, position.level, position.summoner
    hands = tuple(classes(h, level)[:2] for h in position.hands)
    order = [(summoner + i) % n for i in range(n)]
    lines = []
    problem = set_problem(rules, position, hands, order, sets)
    if problem:
        return {"legal": False, "reason": problem, "lines": lines + [f"Illegal play: {problem}."]}
    search = Search(t, position.first, n)
    total, chosen = 0, ()
    for cards, pairs in sets:
        if total >= t.need:
            break
        chosen += ((cards, pairs),)
        total += cards + pairs
    completed = total >= t.need
    gains = search.gains(order, chosen, completed, (0,) * n)
    best = search.construction(hands, summoner, (0,) * n)
    lines.append(f"Legal play: the level is {'completed' if completed else 'not completed'}. "
                 f"Points this round: {_points(gains)}.")
    shortfalls = []
    judge = Construction(t, hands, summoner, (0,) * n)
    total, won, lost = 0, NONE, NONE
    for k, (p, mine) in enumerate(zip(order, chosen)):
        scored = judge.scored(k, total, won, lost)
        top = max(s[1] for s in scored)
        here = next(s[1] for s in scored if s[0] == mine)
        best_option = next(s[0] for s in scored if s[1] == top)
        if here < top:
            shortfalls.append({"player": p + 1, "short": top - here,
                               "best": set_words(rules, level, *best_option)})
            lines.append(f"{_who(p)} could do better: setting {set_words(rules, level, *best_option)} is worth "
                         f"{top - here} more ({position.objective}, the later players doing their best).")
        total += sum(mine)
        won, lost = max(won, judge.won(k, mine)), max(lost, judge.lost(k))
    if not shortfalls:
        lines.append(f"Every set is the player's best ({position.objective}), given the sets before it.")
    lines.append("Best construction: " + "; ".join(set_words(rules, level, *best[0][p]) for p in order)
                 + f" ({'completed' if best[1] else 'not completed'}; points {_points(best[2])}).")
    return {"legal": True, "reason": "", "completed": completed, "gains": list(gains),
            "shortfalls": shortfalls, "best": [set_words(rules, level, *best[0][p]) for p in order],
            "lines": lines}


# --- the position as a State ----------------------------------------------------------------------

def position_state(position: Position, rules: Rules, rng: random.Random) -> TempleState:
    """The position as a game at its construction, the hands as they are: the first player to decide
    whether to summon, or the summoner setting cards.  The cards not in a hand or the zone make the draw
    pile, shuffled with ``rng``; those of built levels are in the discard pile; every player holds the
    starting treasure (the summoner has paid)."""
    n = position.players
    state = TempleState(rules, n, rng, deal=False)
    state.built = position.level - 1
    state.round = 1
    for p, hand in enumerate(position.hands):
        state.hands[p] = list(hand)
    state.zone = list(position.zone)
    left = [rules.counts[k] - position.zone[k] - sum(h[k] for h in position.hands) for k in range(rules.levels + 1)]
    state.discard = [k for k in range(1, position.level) for _ in range(left[k])]
    state.pile = [k for k in range(rules.levels + 1) if not 1 <= k < position.level for _ in range(left[k])]
    rng.shuffle(state.pile)
    state.first = state.first_seat = position.first
    state.phase, state.order, state.k = SUMMON, [(position.first + i) % n for i in range(n)], 0
    if position.summoner is not None:
        state._summon(position.summoner)
    return state
