"""Table components declared in game.toml (tokens, score pads, reference cards...).

Each ``[[components]]`` entry is validated here into a :class:`Component`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import GameDataError


@dataclass(frozen=True)
class Component:
    kind: str
    name: str
    count: int
    spec: dict[str, Any] = field(default_factory=dict, compare=False)


KINDS = ("token", "score-pad", "reference")


def parse_components(entries: Any, game, where: str) -> list[Component]:
    if not isinstance(entries, list):
        raise GameDataError("'components' must be a list of [[components]] tables", file=where)
    parsed = []
    for i, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            raise GameDataError(f"component {i} must be a table", file=where)
        kind = entry.get("kind")
        if kind not in KINDS:
            raise GameDataError(f"component {i}: unknown kind {kind!r} (accepted: {', '.join(KINDS)})",
                                file=where)
        name = entry.get("name", kind)
        count = entry.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise GameDataError(f"component {name!r}: count must be a whole number >= 1", file=where)
        parsed.append(Component(kind=kind, name=str(name), count=count, spec=dict(entry)))
    return parsed
