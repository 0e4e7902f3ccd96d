"""Values remembered with the reads they rest on, so that another card reading the same takes them.

A value computed for one card (a box's place, a whole box as drawn) depends on a few
things read for that card: a template's text, a named value, a text's type size.  The
reads come in an order that the earlier ones decide (a setting's text decides which
names it refers to next), so the remembered values form a tree: each branch asks one
read, and the card's answer picks the next branch.  Asking is exact: a card is only
asked what computing the value would have read anyway, in the same order, and a value
is taken only when every read it rests on gives what it gave before.  Nothing here draws.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable


class Known:
    """Values computed on earlier cards, by key, each with the reads (what, answer) it rests on."""

    def __init__(self):
        self._roots: dict[tuple, Any] = {}

    def find(self, key: Any, token_of: Callable[[tuple], Any]) -> tuple[Any, tuple] | None:
        """The value of ``key`` and its reads, asking ``token_of(what)`` for this card's answers;
        None when no earlier card answered the same."""
        node, reads = self._roots.get(key), []
        while isinstance(node, _Ask):
            token = token_of(node.what)
            reads.append((node.what, token))
            node = node.answers.get(token)
        return None if node is None else (node.value, tuple(reads))

    def add(self, key: Any, reads: tuple, value: Any) -> None:
        """Remember ``value`` of ``key`` with the reads it rests on (a read asked twice is kept once:
        one card gives one answer)."""
        seen: set = set()
        reads = tuple(r for r in reads if not (r[0] in seen or seen.add(r[0])))
        leaf = _Known(value)
        if not reads:
            self._roots[key] = leaf
            return
        node = self._roots.get(key)
        if not isinstance(node, _Ask):
            node = self._roots[key] = _Ask(reads[0][0])
        for i, (what, token) in enumerate(reads):
            if node.what != what:        # cannot happen (the module's note says why); if it did, the value is not kept
                return
            if i + 1 == len(reads):
                node.answers[token] = leaf
                return
            after = node.answers.get(token)
            if not isinstance(after, _Ask):
                after = node.answers[token] = _Ask(reads[i + 1][0])
            node = after


@dataclass
class _Ask:
    what: tuple
    answers: dict = field(default_factory=dict)


@dataclass
class _Known:
    value: Any
