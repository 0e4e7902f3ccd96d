"""Settings kitgen reads from the environment, each checked as an option is.

Every environment variable kitgen reads is listed in :data:`SETTINGS`, with its
default and the range it may take; :func:`number` reads one, and a value that
is not a plain number within that range is an :class:`~kitgen.errors.OptionError`
naming the variable (``Error: KITGEN_LOCK_WAIT: 'abc' is not a number ...``),
never a traceback.  The command line checks them all as it starts
(:func:`check_all`), so a bad one is reported before any work is done; the
library reads each where it is used, so a test or a caller may change one
between two calls.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

from kitgen.errors import OptionError


@dataclass(frozen=True)
class Setting:
    default: float
    low: float
    high: float
    unit: str          # what the number counts, as the message says it
    meaning: str       # what the setting is for (the README says more)
    switch: bool = False   # 0 (off) or 1 (on), nothing else


SETTINGS = {
    "KITGEN_LOCK_WAIT": Setting(3.0, 0.0, 3600.0, "seconds", "how long a second build waits for the kit folder"),
    "KITGEN_PROGRESS_DELAY": Setting(2.0, 0.0, 3600.0, "seconds", "how long a run goes before it shows a bar"),
    "KITGEN_TEMPLATE_SECONDS": Setting(5.0, 0.001, 3600.0, "seconds",
                                       "the processor time one card's or one rulebook's templates may take"),
    "KITGEN_MEMORY_MB": Setting(3072.0, 0.0, 1_000_000.0, "megabytes",
                                "the memory a build, validate or export may take beyond kitgen's own (0: no limit)"),
    "KITGEN_NO_MEMO": Setting(0.0, 0.0, 1.0, "", "1: every card worked out on its own, nothing its places, texts "
                              "and templates share with other cards taken from them; slower, for checking", True),
}


def number(name: str) -> float:
    """The value of the environment variable ``name`` (one of :data:`SETTINGS`), or its default when it is
    unset or empty; anything but a plain number in its range is an :class:`OptionError` naming it."""
    setting = SETTINGS[name]
    text = os.environ.get(name, "").strip()
    if not text:
        return setting.default
    try:
        value = float(text) if text.isascii() else math.nan
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and setting.low <= value <= setting.high) or (setting.switch and value % 1):
        shown = text if len(text) <= 40 else text[:40] + "..."
        wanted = ("0 or 1" if setting.switch else
                  f"a number of {setting.unit} from {_plain(setting.low)} to {_plain(setting.high)}")
        raise OptionError(name, f"{shown!r} is not {wanted} ({setting.meaning}; unset it for "
                                f"{_plain(setting.default)})")
    return value


def switch(name: str) -> bool:
    """Whether the switch ``name`` (one of :data:`SETTINGS`, 0 or 1) is on."""
    return number(name) == 1


def _plain(value: float) -> str:
    return f"{int(value):,}" if value == int(value) else f"{value:g}"


def check_all() -> None:
    """Read every setting, so that a bad one is reported before a command starts its work."""
    for name in SETTINGS:
        number(name)


def environment() -> dict[str, str]:
    """The whole environment as it is now, to hand on to a process started for this one (the web app's
    workers, forked from a process started earlier): no setting is read from it here."""
    return dict(os.environ)


def take_environment(env: dict[str, str]) -> None:
    """Make ``env`` (from :func:`environment`) this process's environment, where its settings are read."""
    os.environ.clear()
    os.environ.update(env)
