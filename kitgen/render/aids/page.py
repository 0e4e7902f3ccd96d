"""One page of aids.pdf before it is drawn: what it says, what it draws, the room it leaves for pieces."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from kitgen.layout.geometry import Rect


@dataclass(eq=False)
class AidPage:
    """A page with content of its own (a board part, the board's map, a score pad) or of pieces only.

    ``paint(canvas, page_of)`` draws the content; ``page_of(key)`` gives the
    page number of the page with that ``key`` (so a board part can point to
    its map).  ``rooms`` is the free room pieces may take.  A page that must
    print at actual size carries the scale bar.
    """

    note: str
    paint: Callable | None = None
    rooms: list[Rect] = field(default_factory=list)
    actual_size: bool = True
    key: str = ""
