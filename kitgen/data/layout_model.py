"""The typed objects a card layout is read into: layouts, their boxes, and each setting of a box.

A setting is written once in game.toml or layouts.toml and is either a
constant, checked and parsed when the game is read, or a jinja2 template
rendered for each card (``fill = "{{ background_color }}"``) and parsed then.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

KINDS = ("text", "image", "icons", "rect", "circle", "line")
SHAPES = ("rect", "circle", "line")


@dataclass(frozen=True)
class Setting:
    """One key of a box (or a named value of a layout) as written, and its meaning."""

    key: str
    source: Any                        # as written in the file
    value: Any = None                  # the parsed constant, when there is no template
    template: Any = None               # a compiled jinja2 template, rendered per card
    names: frozenset[str] = frozenset()              # context names the template reads
    members: tuple[tuple[str, str], ...] = ()        # (name, attribute or key) it reads, e.g. ('back', 'title')

    @property
    def constant(self) -> bool:
        return self.template is None


@dataclass(frozen=True)
class Box:
    """A named box of a layout: what it shows (``kind``, ``content``), where, and how."""

    name: str
    kind: str
    settings: dict[str, Setting]                       # every key but kind, same_size and fallback
    fallback: tuple[dict[str, Setting], ...] = ()      # changes tried in turn when its text does not fit
    fallback_vars: tuple[dict[str, Setting], ...] = ()  # the named values each of those changes sets
    same_size: bool = False                            # one type size for this box on every card
    file: str = ""                                     # the file that defined the box last, for messages

    def get(self, key: str, step: int = 0) -> Setting | None:
        """The setting of ``key`` once the first ``step`` fallback changes are applied."""
        if step:
            for changes in reversed(self.fallback[:step]):
                if key in changes:
                    return changes[key]
        return self.settings.get(key)


@dataclass(frozen=True)
class Layout:
    name: str
    file: str                              # where it is written, for messages
    boxes: tuple[Box, ...]
    vars: dict[str, Setting] = field(default_factory=dict)
    size: tuple[float, float] | None = None   # the card size it was made for (points); None: the game's
    safe: Setting | None = None            # the safe zone's inset (default 3 mm)
    card_free: bool = False                # no template reads the card's row: one drawing serves every card

    def box(self, name: str) -> Box | None:
        return next((b for b in self.boxes if b.name == name), None)
