"""Bounds on what a game folder may ask for, so a hostile or mistyped one ends in one line, fast.

A game is printed on paper, so every count has a bound that paper sets: no
deck of more than :data:`MAX_CARDS` cards, no kit of more than
:data:`MAX_PAGES` pages (counted before anything is drawn), no game.toml or
layouts.toml nested deeper than :data:`MAX_TOML_DEPTH` levels.
"""

from __future__ import annotations

import re
from typing import Any

from kitgen.errors import LimitError

MAX_TOML_DEPTH = 32          # tables and arrays inside one another; a real game.toml uses four or five
MAX_CARDS = 20_000           # cards in the deck, every copy counted: some 2,200 letter pages of fronts
MAX_PAGES = 5_000            # pages of the whole kit, counted up front: 20,000 poker cards with backs fit on letter
MAX_PIECES = 5_000           # copies of one token, tile, mat, board, score pad or reference card
MAX_AREAS = 1_000            # spaces of one area group on a board or mat


def check_toml_depth(data: Any, where: str) -> None:
    """Refuse TOML data nested more than :data:`MAX_TOML_DEPTH` levels deep, naming the key path."""
    stack = [(data, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        if depth > MAX_TOML_DEPTH:
            raise LimitError(f"key '{_short(path)}' is nested more than {MAX_TOML_DEPTH} levels deep "
                                "(tables and arrays inside one another); kitgen reads at most "
                                f"{MAX_TOML_DEPTH}", file=where)
        if isinstance(value, dict):
            stack.extend((v, f"{path}.{k}" if path else str(k), depth + 1) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, f"{path}[{i}]", depth + 1) for i, v in enumerate(value, start=1))


def _short(path: str, keep: int = 60) -> str:
    return path if len(path) <= keep else f"{path[:keep]}..."


# from the start of a word only, and never giving back what a part matched: a search in linear time
# (without both, a line of one long word took time that grows with its square: 20 s for 40,000 letters)
_DOTTED = re.compile(r"(?<![\w\"'-])(?:[\w\"'-]++[ \t]*+\.[ \t]*+){%d}" % MAX_TOML_DEPTH)


def check_dotted_keys(text: str, where: str) -> None:
    """Refuse keys dotted more than :data:`MAX_TOML_DEPTH` levels deep before the parser sees them
    (tomllib takes time that grows with the square of their depth)."""
    match = _DOTTED.search(text)
    if match:
        line = text.count("\n", 0, match.start()) + 1
        raise LimitError(f"line {line}: key '{_short(match.group(0).strip())}' is nested more than "
                         f"{MAX_TOML_DEPTH} levels deep; kitgen reads at most {MAX_TOML_DEPTH}", file=where)


def deep_toml_place(text: str) -> str:
    """The message for TOML text too deeply nested for the parser: the line and key where the
    nesting passes :data:`MAX_TOML_DEPTH` (arrays and inline tables, scanned outside strings)."""
    depth, line, key, quote, i = 0, 1, "", "", 0
    statement_start = True
    while i < len(text):
        ch = text[i]
        if quote:
            if text.startswith(quote, i):
                i += len(quote)
                quote = ""
                continue
            if ch == "\\" and quote in ('"', '"""'):
                i += 2
                continue
            line += ch == "\n"
        elif ch == "#":
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
            continue
        elif text.startswith(('"""', "'''"), i):
            quote = text[i:i + 3]
            i += 3
            continue
        elif ch in "\"'":
            quote = ch
        elif ch == "\n":
            line += 1
            statement_start = depth == 0
        elif ch == "=" and depth == 0:
            statement_start = False
        elif ch in "[{" and not (statement_start and depth == 0):
            depth += 1
            if depth > MAX_TOML_DEPTH:
                return (f"line {line}, key '{_short(key.strip())}': arrays and tables nested more than "
                        f"{MAX_TOML_DEPTH} levels deep; kitgen reads at most {MAX_TOML_DEPTH}")
        elif ch in "]}" and depth > 0:
            depth -= 1
        elif depth == 0 and statement_start and ch not in " \t\r":
            key = _key_at(text, i)
            statement_start = False
        i += 1
    return f"arrays and tables nested more than {MAX_TOML_DEPTH} levels deep; kitgen reads at most {MAX_TOML_DEPTH}"


def _key_at(text: str, i: int) -> str:
    end = text.find("=", i)
    newline = text.find("\n", i)
    if end < 0 or (0 <= newline < end):
        return ""
    return text[i:end]


def check_pages(pages: dict[str, int], where: str) -> None:
    """Refuse a kit of more than :data:`MAX_PAGES` pages, counted before drawing: ``pages`` by part."""
    total = sum(pages.values())
    if total > MAX_PAGES:
        parts = ", ".join(f"{name} {n:,}" for name, n in pages.items() if n)
        raise LimitError(f"the kit would take {total:,} pages ({parts}); kitgen prints at most {MAX_PAGES:,} "
                            "pages: make fewer cards or pieces", file=where)
