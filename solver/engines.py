"""The rules engines by key (game.toml ``[rules] engine = "KEY"``), each imported on first use.

An engine is named here by where it lives ("module:attribute"), so importing this
module (as ``kitgen build`` may, to tell a game with an engine) loads no solver.
Adding an engine is one line in :data:`ENGINES`.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from kitgen.errors import GameDataError

ENGINE_KEY = "engine"   # the key of game.toml [rules] that names the engine

ENGINES: dict[str, str] = {
    "altun-ha": "solver.altunha.engine:ENGINE",
    "temple-of-inscriptions": "solver.temple.engine:ENGINE",
    "ancestral": "solver.ancestral.engine:ENGINE",
}


def known() -> list[str]:
    return sorted(ENGINES)


def get_engine(key: str, where: str = "game.toml"):
    """The engine registered as ``key``; an unknown key is one ``GameDataError`` naming [rules] engine
    in ``where`` and every known key."""
    path = ENGINES.get(key) if isinstance(key, str) else None
    if path is None:
        raise GameDataError(f"[rules] {ENGINE_KEY} = {key!r} names no rules engine; known engines: "
                            f"{', '.join(known())}", file=where)
    module, _, attribute = path.partition(":")
    return getattr(import_module(module), attribute)


def engine_key(game: Any) -> str | None:
    """The engine key a loaded kitgen ``Game`` names in its [rules] table (None when it names none)."""
    return (game.rules or {}).get(ENGINE_KEY) if isinstance(game.rules, dict) else None


def game_file(game: Any) -> str:
    """How messages name a game's game.toml: ``slug/game.toml`` for a built-in game, else its path."""
    return f"{game.slug}/game.toml" if game.builtin else str(game.root / "game.toml")


def engine_of(game: Any):
    """The engine of a loaded kitgen ``Game``; a game that names none, or an unknown one, is one
    ``GameDataError`` saying how to name one."""
    key = engine_key(game)
    if key is None:
        raise GameDataError(f"the game names no rules engine, which the solver and simulator need "
                            f"(add {ENGINE_KEY} = \"KEY\" to its [rules] table; known engines: "
                            f"{', '.join(known())})", file=game_file(game))
    return get_engine(key, game_file(game))
