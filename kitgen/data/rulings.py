"""Playtest rulings of game.toml: ``[rulings.<name>]`` tables, checked.

A ruling names a point where a game's original rules are silent or open.  It
is either a plain text (``[rulings] name = "..."``) printed as it stands, or
a table that a rulebook, a solver and a simulator can all read::

    [rulings.chain]
    title = "Building one card on the other"
    seed = "words of the original rules it interprets"
    default = true                      # the option played unless switched
    [rulings.chain.options]             # every option, by value: what it means
    true = "..."
    false = "..."
    [rulings.chain.reason]              # why play an option, for each option
    true = "..."
    false = "..."

The name is the switch (``--set chain=false``).  Option keys are the values
as text; a default of ``true``/``false`` is matched by ``"true"``/``"false"``.
``reason`` is a table with a text for every option (the rulebook prints the
one of the option played, so flipping the default never leaves a reason that
argues for the other), or one text that holds for any option.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from kitgen.errors import GameDataError

TABLE_KEYS = ("title", "seed", "default", "options", "reason")
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class Ruling:
    """A structured ruling: its switch name, texts, options (value text -> meaning) and default."""

    name: str
    title: str
    seed: str
    default: bool | str
    options: tuple[tuple[str, str], ...]
    reason: str | tuple[tuple[str, str], ...]    # one text for any option, or (value, text) for each
    number: int = 0     # its place in game.toml's [rulings], from 1: "Playtest ruling N" in the rulebook

    def reason_for(self, value: bool | str) -> str:
        """Why play the option ``value``."""
        if isinstance(self.reason, str):
            return self.reason
        return dict(self.reason)[value_text(value)]

    @property
    def kind(self) -> type:
        return bool if isinstance(self.default, bool) else str

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(value for value, _ in self.options)


def value_text(value: bool | str) -> str:
    """An option value as written in [rulings.x.options] and on the command line."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def parse_rulings(raw: Any, where: str) -> tuple[Ruling, ...]:
    """The structured rulings of a game.toml [rulings] table (plain-text ones are left out)."""
    if not isinstance(raw, dict):
        raise GameDataError("'rulings' must be a table", file=where)
    return tuple(_ruling(name, spec, where, number) for number, (name, spec) in enumerate(raw.items(), start=1)
                 if not isinstance(spec, str))


def _ruling(name: str, spec: Any, where: str, number: int = 0) -> Ruling:
    key = f"rulings.{name}"
    if not isinstance(spec, dict):
        raise GameDataError(f"'{key}' must be a text or a table with {', '.join(TABLE_KEYS)}", file=where)
    if not _NAME.match(name):
        raise GameDataError(f"'{key}': a ruling's name is its switch: lower-case letters, digits and _",
                            file=where)
    unknown = sorted(set(spec) - set(TABLE_KEYS))
    if unknown:
        raise GameDataError(f"'{key}': unknown key '{unknown[0]}' (accepted: {', '.join(TABLE_KEYS)})",
                            file=where)
    missing = [k for k in TABLE_KEYS if k not in spec]
    if missing:
        raise GameDataError(f"'{key}': missing key '{missing[0]}'", file=where)
    for field in ("title", "seed"):
        if not isinstance(spec[field], str) or not spec[field].strip():
            raise GameDataError(f"'{key}.{field}' must be a text", file=where)
    default, options = spec["default"], spec["options"]
    if not isinstance(default, (bool, str)):
        raise GameDataError(f"'{key}.default' must be true, false or a text naming an option", file=where)
    if not isinstance(options, dict) or len(options) < 2 or \
            not all(isinstance(v, str) and v.strip() for v in options.values()):
        raise GameDataError(f"'{key}.options' must be a table of at least two options, "
                            "each a value = \"what it means\"", file=where)
    if isinstance(default, bool) and set(options) != {"true", "false"}:
        raise GameDataError(f"'{key}.options': an on/off ruling has exactly the options true and false",
                            file=where)
    if value_text(default) not in options:
        raise GameDataError(f"'{key}.default' = {value_text(default)!r} is none of its options "
                            f"({', '.join(options)})", file=where)
    return Ruling(name=name, title=spec["title"].strip(), seed=spec["seed"].strip(), default=default,
                  options=tuple(options.items()), reason=_reason(spec["reason"], options, key, where), number=number)


def _reason(reason: Any, options: dict, key: str, where: str) -> str | tuple[tuple[str, str], ...]:
    """A ruling's reason: one text, or a table with a text for each option and nothing else."""
    if isinstance(reason, str) and reason.strip():
        return reason.strip()
    if not isinstance(reason, dict) or not all(isinstance(v, str) and v.strip() for v in reason.values()):
        raise GameDataError(f"'{key}.reason' must be a text, or a table of one text for each option "
                            f"({', '.join(options)})", file=where)
    missing = [value for value in options if value not in reason]
    extra = [value for value in reason if value not in options]
    if missing or extra:
        problem = f"no reason for option {missing[0]!r}" if missing else f"{extra[0]!r} is none of its options"
        raise GameDataError(f"'{key}.reason': {problem} (options: {', '.join(options)})", file=where)
    return tuple((value, reason[value].strip()) for value in options)
