"""Values remembered with the reads they rest on, so that another card reading the same takes them.

A value computed for one card (a box's place, a whole box as drawn) depends on a few things read
for that card, each a :class:`Question` with this card's answer (a :class:`Read`): the text a box's
setting's template gave, the text of a named value, a text's type size.  The reads come in an
order that the earlier ones decide (a setting's text decides which names it refers to next), so
the remembered values form a tree: each branch asks one question, and the card's answer picks the
next branch.  Asking is exact: a card is only asked what computing the value would have read
anyway, in the same order, and a value is taken only when every read it rests on gives what it
gave before.

What this rests on, and what a new layout key must keep (docs/architecture.md, "Adding a layout
key or a part"): every value read for a card that may differ from card to card is read through a
question :class:`Reads` notes while the value is being worked out; a value worked out from
anything else would be taken by a card that differs in it.  Nothing here draws.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple


class Question(NamedTuple):
    """What a value asks of a card: a box's setting (``"setting"``, the box, the key), a named value of
    the layout's vars (``"var"``, its name) or the type size a box's text was fitted to (``"size"``,
    the box)."""

    kind: str
    name: str
    key: str | None = None


class Read(NamedTuple):
    """A question and one card's answer to it (the text a template gave, a type size)."""

    question: Question
    answer: Any


class Reads:
    """The reads noted for the value being worked out on one card.

    ``with reads.recording() as noted:`` works a value out with a list of its own: the reads made
    inside are noted in ``noted`` (and not in the list of the value around it, which the caller adds
    them to when they count for it).  ``recording(keep=False)``: the reads made inside are noted
    nowhere.  Outside every recording nothing is noted.
    """

    __slots__ = ("current",)

    def __init__(self):
        self.current: list[Read] | None = None

    def note(self, read: Read) -> None:
        if self.current is not None:
            self.current.append(read)

    def add(self, reads: tuple[Read, ...]) -> None:
        """Reads a value rests on, added to those of the value being worked out around it."""
        if self.current is not None and reads:
            self.current.extend(reads)

    def recording(self, keep: bool = True) -> "_Recording":
        return _Recording(self, [] if keep else None)


class _Recording:
    __slots__ = ("reads", "noted", "outer")

    def __init__(self, reads: Reads, noted: list[Read] | None):
        self.reads, self.noted, self.outer = reads, noted, None

    def __enter__(self) -> list[Read] | None:
        self.outer, self.reads.current = self.reads.current, self.noted
        return self.noted

    def __exit__(self, *exc) -> None:
        self.reads.current = self.outer


class Known:
    """Values computed on earlier cards, by key, each with the reads it rests on."""

    keeps = True                          # False: remembers nothing (see Forgetful)

    def __init__(self):
        self._roots: dict[Any, _Branch | _Leaf] = {}

    def find(self, key: Any, answer: Callable[[Question], Any]) -> tuple[Any, tuple[Read, ...]] | None:
        """The value of ``key`` and its reads, asking ``answer(question)`` for this card's answers;
        None when no earlier card answered the same."""
        node, reads = self._roots.get(key), []
        while isinstance(node, _Branch):
            given = answer(node.question)
            reads.append(Read(node.question, given))
            node = node.answers.get(given)
        return None if node is None else (node.value, tuple(reads))

    def add(self, key: Any, reads: tuple[Read, ...], value: Any) -> None:
        """Remember ``value`` of ``key`` with the reads it rests on (a question asked twice is kept once:
        one card gives one answer)."""
        seen: set = set()
        reads = tuple(r for r in reads if not (r.question in seen or seen.add(r.question)))
        leaf = _Leaf(value)
        if not reads:
            self._roots[key] = leaf
            return
        node = self._roots.get(key)
        if not isinstance(node, _Branch):
            node = self._roots[key] = _Branch(reads[0].question)
        for i, (question, given) in enumerate(reads):
            if node.question != question:   # cannot happen (the module's note says why); if it did, not kept
                return
            if i + 1 == len(reads):
                node.answers[given] = leaf
                return
            after = node.answers.get(given)
            if not isinstance(after, _Branch):
                after = node.answers[given] = _Branch(reads[i + 1].question)
            node = after


@dataclass
class _Branch:
    question: Question
    answers: dict = field(default_factory=dict)       # answer -> the next branch, or the value


@dataclass
class _Leaf:
    value: Any


class Forgetful(Known):
    """A Known for a card worked out on its own (nothing taken from earlier cards, nothing kept for
    later ones): it finds nothing and keeps nothing, so the caller need not ask what a card reads."""

    keeps = False

    def find(self, key: Any, answer: Callable[[Question], Any]) -> None:
        return None

    def add(self, key: Any, reads: tuple[Read, ...], value: Any) -> None:
        pass
