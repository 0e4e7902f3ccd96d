"""The rules-engine protocol: what every game's engine offers the generic tools.

A game's rules engine is one module (or package) that implements :class:`Engine`;
``[rules] engine = "KEY"`` in a game.toml names it, and :mod:`solver.engines` finds
it by that key.  The simulator, the balance report, the lookahead player,
``kitgen simulate``, ``kitgen solve`` and the web pages work through these names
alone, so a new engine gets all of them (see docs/engines.md for a walk-through).
The shape follows OpenSpiel's game/state API: a :class:`State` is one point of a
play, whose current player chooses among ``legal_actions()``; chance (shuffles,
draws) is resolved inside ``apply_action`` with the state's own seeded ``rng``, so
a game is reproducible from its seed.

Nothing here imports kitgen's renderers or any engine: this module is the contract.

Members the generic tools also read when an engine has them (each has a fallback, so an
engine without them still works; docs/engines.md says more):

* ``Engine.ends: dict[str, str]`` - every end the rules know, in the report's order, each
  with the words that follow "ended" (``{"famine": "in a famine"}``).
* ``State.seats() -> list[int]`` - each player's seat, 0 being the first to act in round 1;
  without it player p sits in seat p.  The simulator turns a policy mix over the seats game
  by game, so rules that deal the first seat at random (a card that makes its holder start) say the
  seats here, and every policy still meets every seat equally often.
* ``Engine.rule_values(rules) -> dict``, ``Engine.changed_rules(rules) -> list[str]`` - every
  setting ``--set`` accepts with its value, and the ones changed (balance.json ``rules``).
* ``Engine.players_problem(rules, players) -> str`` - why a number of players cannot play
  ("" when it can); ``Engine.default_policy: str`` - the mix ``kitgen simulate`` plays
  without ``--policy``; ``Engine.clear_caches()`` - forget memoised work (for timings).
* ``Engine.question_rules(game, settings, option)`` - the rules of a solver question, when
  they take other keys than the simulator's; ``Engine.answer_json(position, rules)`` - what
  ``--json`` and ``--batch`` print, when cheaper than ``solve`` (an answer may also hold it
  under ``"json"``); ``Engine.all_best(position, rules)`` - every best play (``--all``);
  ``Engine.rule_numbers(rules)`` - rule numbers the solver page offers to change;
  ``Engine.play_help``, ``Engine.play_example`` - how a play is written;
  ``Engine.web_view`` - the path of a script drawing the engine's answers on the solver
  page, ``Engine.web_style`` - the path of its stylesheet; ``Engine.forget_games()`` - read game
  folders afresh.
* Position fields may also say ``required``, ``example`` and ``short`` (a one-letter
  option), and be of kind ``numbers`` (a list of whole numbers).  ``position_fields`` may take
  the rules (``position_fields(rules=None)``) when the fields follow them (card names, players);
  the generic tools then pass the question's rules (:func:`fields_of`).
* ``Engine.cap_text(rules) -> str`` - the simulator's safeguards in words when the engine also stops
  games itself (``end = "cap"``, e.g. "100 rounds or 2,000 turns"); such games count as stopped at the
  cap, like those the round cap stops.
* ``Engine.playout_rounds: int`` - the lookahead player's playouts stop when this many rounds have
  ended, the leaders by ``scores()`` sharing the win (for long races of rounds; default: play to
  the end); ``Engine.playouts: int`` - the lookahead player's playouts a decision without
  ``lookahead:N`` (default 120).
* ``report()`` may also return ``key_figures`` (``[[label, text]]``), ``charts`` (as data,
  see :mod:`kitgen.render.balance_report`), ``compare`` (``[[label, number]]``, the rows of
  ``--compare``) and ``cap_detail`` (words on the games stopped at the round cap).
"""

from __future__ import annotations

import random
import re
import weakref
from typing import Any, Callable, Hashable, Protocol, Sequence, runtime_checkable

from kitgen.errors import GameDataError, OptionError

TERMINAL = -1    # current_player() of a finished game
CAP = "cap"      # how a game stopped by the simulator's round cap ended (not an end the rules know)


class IllegalMove(Exception):
    """An action the rules do not allow in this state; ``apply_action`` raises it and leaves the state as
    it was.  Not a user error: a built-in player that makes one has a bug (a playtester's own play is
    checked with ``Engine.check``, which answers in words)."""


@runtime_checkable
class State(Protocol):
    """One point of a game."""

    players: int
    rng: random.Random     # the state's own source for every chance event; clone() copies it
    round: int             # rounds played so far, counting the one under way (1-based while playing)
    end: str | None        # None while playing; how the game ended, in the engine's words

    def current_player(self) -> int:
        """Who decides now; :data:`TERMINAL` when the game is over."""

    def legal_actions(self) -> list[Hashable]:
        """The current player's legal actions, in a deterministic order, never empty while playing
        (a forced pass is an action)."""

    def apply_action(self, action: Hashable) -> None:
        """Play ``action``; :class:`IllegalMove` (state unchanged) when it is not legal."""

    def is_terminal(self) -> bool: ...

    def returns(self) -> list[float]:
        """At the end, each player's share of the win: 1/k for each of k tied winners, else 0."""

    def scores(self) -> list[float]:
        """Each player's points (or the engine's measure) now."""

    def clone(self) -> "State":
        """An independent copy, its ``rng`` included."""

    def observation(self, player: int) -> dict:
        """What ``player`` may see now, JSON-able (own hand, the public table...)."""

    def resample(self, player: int, rng: random.Random) -> "State":
        """A clone in which everything ``player`` cannot see (other hands, the deck's order) is dealt
        again at random with ``rng``, consistently with what that player has seen."""

    def action_text(self, action: Hashable) -> str:
        """The action in the rulebook's words."""


@runtime_checkable
class Player(Protocol):
    """A decision rule: one of ``state.legal_actions()`` for ``player``, the current player."""

    def choose(self, state: State, player: int) -> Hashable: ...


@runtime_checkable
class Engine(Protocol):
    """One kind of game: its rules, its setup, its simple players, its figures and its solver questions."""

    key: str       # the [rules] engine name
    title: str

    def rules(self, game: Any, settings: dict[str, str], option: str) -> Any:
        """The rules of a loaded kitgen ``Game`` (its [rules] numbers and [rulings.<name>] defaults)
        changed by ``settings`` (``--set KEY=VALUE`` pairs); a bad key or value raises
        ``kitgen.errors.OptionError(option, ...)`` naming the key and the choices."""

    def player_range(self, rules: Any) -> tuple[int, int]:
        """The fewest and the most players."""

    def new_game(self, rules: Any, players: int, rng: random.Random) -> State:
        """A game set up with ``rng``, its first decision pending."""

    policies: dict[str, Callable[[random.Random], Player]]   # at least "random" and "greedy"
    policy_help: dict[str, str]                               # each policy in one line

    def round_cap(self, rules: Any) -> int:
        """The simulator's safeguard for games the rules let run forever."""

    def figures(self, state: State) -> dict:
        """The engine's own figures of one finished game (small, JSON-able)."""

    def report(self, records: list[dict]) -> dict:
        """The engine's section of balance.json from the games' records (each holds its ``figures``):
        ``{"figures": {...}, "tables": [{"title", "columns", "rows"}], "findings": [sentences]}``."""

    # --- solver questions (kitgen solve GAME, the solver page) ---

    def position_fields(self) -> list[dict]:
        """The fields of a position: ``{"name", "label", "kind", "help", "min", "max", "choices",
        "default"}``, kind one of number, cards, player-cards, choice, flag."""

    def read_position(self, raw: dict, rules: Any) -> Any:
        """A position from a dict of those fields (text or JSON values); a mistake raises
        ``kitgen.errors.OptionError(field, message)``."""

    def solve(self, position: Any, rules: Any) -> dict:
        """The exact answer: JSON-able, with ``"lines"`` (one sentence a line), ``"best"`` (the best
        action(s) in ``action_text`` words) and the data behind them."""

    def check(self, position: Any, play: str, rules: Any) -> dict:
        """Whether a proposed play (text) is legal, why, and how far from the best, with ``"lines"``."""

    def position_state(self, position: Any, rules: Any, rng: random.Random) -> State:
        """The position as a State whose current player is the one asked about, unseen cards dealt
        with ``rng``."""


# --- helpers shared by engines and the generic tools ---------------------------------------

def copy_rng(rng: random.Random) -> random.Random:
    """An independent generator in ``rng``'s state, for a state's ``clone()``.

    ``random.Random()`` would first seed itself from the system's entropy, which costs more than the copy:
    a playout clones a state thousands of times.  ``setstate`` sets the whole state (and ``gauss_next``).
    """
    other = random.Random.__new__(random.Random)
    other.setstate(rng.getstate())
    return other


class SharedRng:
    """A state's ``rng`` that ``clone()`` shares until either side draws from it (a mixin for State classes).

    The lookahead player clones a world for every action it tries, and most of those playouts never shuffle:
    copying the generator each time (:func:`copy_rng`) was most of a clone's cost.  A clone made with
    :meth:`lend_rng` holds the same generator, marked as lent; whichever side draws first (reads ``rng``) takes
    its own copy then, in the state both had at the clone, so every state still draws exactly what it would
    with a copy made at once.  The lender keeps its generator object and copies it into its clones still
    waiting just before it draws.

    Only a generator that no one else holds is lent: one the state made (a copy) or was given with
    :meth:`own_rng`.  One handed in through ``rng =`` (a game's, which its caller may go on drawing from)
    is copied into each clone at once, as before, since a draw outside the states would reach a clone
    still waiting.  A ``copy`` or pickle of a state gets a generator of its own.
    """

    _rng: random.Random
    _rng_pending = False       # this state's generator is another's until it draws
    _rng_own = False           # no one but this state (and clones it lent it to) holds its generator
    _rng_lent: list | None = None   # weak references to the clones holding this state's generator

    @property
    def rng(self) -> random.Random:
        if self._rng_pending:
            self._rng, self._rng_pending, self._rng_own = copy_rng(self._rng), False, True
        elif self._rng_lent:
            self._settle_rng()
        return self._rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        if self._rng_lent:
            self._settle_rng()
        self._rng, self._rng_pending, self._rng_own = value, False, False

    def own_rng(self, value: random.Random) -> None:
        """Take ``value`` as this state's generator, one that no one else holds or draws from (so clones may
        share it until one of them draws)."""
        self.rng = value
        self._rng_own = True

    def _settle_rng(self) -> None:
        """Each clone still holding this state's generator gets its own copy, before this state draws."""
        mine = self._rng
        for ref in self._rng_lent:
            other = ref()
            if other is not None and other._rng_pending and other._rng is mine:
                other._rng, other._rng_pending, other._rng_own = copy_rng(mine), False, True
        self._rng_lent = None

    def lend_rng(self, other: "SharedRng") -> None:
        """Give the clone ``other`` this state's generator, copied when either of them first draws (at once
        where this state's generator may be drawn from elsewhere)."""
        if self._rng_pending:     # a clone of a clone: this one takes its copy now, and lends that
            self._rng, self._rng_pending, self._rng_own = copy_rng(self._rng), False, True
        if not self._rng_own:
            other._rng, other._rng_pending, other._rng_own, other._rng_lent = copy_rng(self._rng), False, True, None
            return
        other._rng, other._rng_pending, other._rng_own, other._rng_lent = self._rng, True, False, None
        lent = self._rng_lent
        if lent is None:
            lent = self._rng_lent = []
        elif len(lent) >= 64:    # a long-lived state cloned again and again: forget the clones gone
            lent[:] = [ref for ref in lent if ref() is not None]
        lent.append(weakref.ref(other))

    def __getstate__(self) -> dict:
        """Pickled (and ``copy``-ed) with a generator of its own and no clones to watch."""
        state = dict(self.__dict__)
        state.update(_rng=copy_rng(self.rng), _rng_pending=False, _rng_own=True, _rng_lent=None)
        return state


def fields_of(engine: Any, rules: Any = None) -> list[dict]:
    """The engine's position fields.  An engine whose fields follow its rules (its cards' names, the
    players its deck deals) declares ``position_fields(rules=None)`` and is given the question's rules."""
    import inspect

    method = engine.position_fields
    if rules is not None and inspect.signature(method).parameters:
        return method(rules)
    return method()


def winners(scores: Sequence[float]) -> list[int]:
    """The players with the highest score."""
    top = max(scores)
    return [p for p, s in enumerate(scores) if s == top]


def shares(scores: Sequence[float]) -> list[float]:
    """Each player's share of the win when the highest score wins: 1/k for each of k tied leaders."""
    best = winners(scores)
    return [1.0 / len(best) if p in best else 0.0 for p in range(len(scores))]


def shares_of(winning: Sequence[int], players: int) -> list[float]:
    """``returns()`` when the rules name the winners (the last player standing, say)."""
    won = set(winning)
    return [1.0 / len(won) if p in won else 0.0 for p in range(players)]


ON, OFF = ("true", "on", "yes", "1"), ("false", "off", "no", "0")


def on_off(raw: Any) -> bool | None:
    """A switch as typed (true/false, on/off, yes/no, 1/0, any case) or as a JSON bool; None when it is none
    of these (the caller names the option and what it takes)."""
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().lower()
    return True if text in ON else False if text in OFF else None


_WHOLE = re.compile(r"\+?[0-9]+")     # int() would also take '١٢' and '1_000'


def setting_error(error: type, where: str, message: str) -> Exception:
    """``message`` as the error of a setting: a :class:`GameDataError` of game.toml's file ``where``, or an
    :class:`OptionError` of the option ``where``."""
    return error(message, file=where) if error is GameDataError else error(where, message)


def whole_setting(name: str, raw: Any, low: int, high: int, where: str, error: type = OptionError) -> int:
    """``raw`` (an int, or text of the digits 0-9 with an optional +) as a whole number from ``low`` to
    ``high``; anything else is an ``error`` (OptionError or GameDataError) naming ``where`` and ``name``.
    Text longer than ``high`` is refused before it is read as a number."""
    text = str(raw).strip()
    if isinstance(raw, bool) or not (isinstance(raw, int) or _WHOLE.fullmatch(text)) \
            or len(text.lstrip("+-0")) > len(str(high)) or not low <= int(text) <= high:
        message = f"{name} takes a whole number from {low} to {high}, not {raw!r}"
        if any(c.isdigit() and not c.isascii() for c in text):
            message += " (written with the digits 0-9)"
        raise setting_error(error, where, message)
    return int(text)


def split_settings(items: Sequence[str], option: str, accepted: Sequence[str] = ()) -> dict[str, str]:
    """``["chain=off", ...]`` (``--set``, ``--rule``) -> ``{"chain": "off"}``; an item without ``=`` is an
    OptionError naming ``option`` (and the ``accepted`` names, when given)."""
    out = {}
    for item in items:
        name, sep, value = (part.strip() for part in item.partition("="))
        if not sep or not name:
            names = f"; accepted names: {', '.join(accepted)}" if accepted else ""
            raise OptionError(option, f"{item!r} is not NAME=VALUE{names}")
        out[name] = value
    return out


def json_answer(engine: Any, position: Any, rules: Any) -> Any:
    """What ``kitgen solve --json`` prints and the web app's solver answers for a position: the engine's
    own JSON answer, or its answer without the text."""
    if hasattr(engine, "answer_json"):
        return engine.answer_json(position, rules)
    return plain_answer(engine.solve(position, rules))


def plain_answer(answer: dict) -> Any:
    """An engine's answer as JSON: its own ``json`` part, or the answer without its lines of text."""
    return answer["json"] if "json" in answer else {k: v for k, v in answer.items() if k != "lines"}
