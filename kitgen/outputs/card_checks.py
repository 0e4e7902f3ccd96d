"""Every card of a deck checked (face and back), in row order, on two cores when the deck is large.

A forked process (:class:`~kitgen.outputs.workers.Beside`) checks the second
half of the cards while this one checks the first, and names the cards that had
anything to say: a problem, or a warning that process had not given before.
This process then checks those cards again, in order, so the problems and
warnings come out exactly as if it had checked every card itself (the same
ones, once each, in the same order).  The columns the forked process saw read
are marked read here too.
"""

from __future__ import annotations

from kitgen.data.problems import Problems
from kitgen.errors import KitgenError

SPLIT_FROM = 2_000        # distinct cards: below this, forking costs more than it saves


def check_cards(painter, problems: Problems) -> None:
    """Check each card's face and back, reporting to ``problems``."""
    from kitgen.outputs.workers import Beside, usable_cores

    cards = painter.game.cards
    half = len(cards) // 2 if len(cards) >= SPLIT_FROM and usable_cores() > 1 else len(cards)
    if half < len(cards):
        _check(painter, cards[:1], problems)         # what every card shares (one size per deck) is worked out once
        beside = Beside(_with_something_to_say, painter, cards[half:])
        try:
            _check(painter, cards[1:half], problems)
            flagged, read = beside.result()
        finally:
            beside.stop()
        if painter.game.sheet is not None:
            painter.game.sheet.columns.used |= read
        _check(painter, [cards[half + i] for i in flagged], problems)
    else:
        _check(painter, cards, problems)


def _check(painter, cards, problems: Problems) -> None:
    for card in cards:
        with problems.check():
            painter.check_face(card)
        with problems.check():
            painter.check_back(card)


def _with_something_to_say(painter, cards) -> tuple[list[int], set[int]]:
    """(positions in ``cards`` of those with a problem or a new warning, the columns read)."""
    flagged = []
    for i, card in enumerate(cards):
        before = len(painter.warnings)
        try:
            painter.check_face(card)
            painter.check_back(card)
        except KitgenError:
            flagged.append(i)
            continue
        if len(painter.warnings) > before:
            flagged.append(i)
    sheet = painter.game.sheet
    return flagged, (set(sheet.columns.used) if sheet is not None else set())
