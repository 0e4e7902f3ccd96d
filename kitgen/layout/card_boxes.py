"""Where the boxes of a card layout go on one card: lengths computed to points, checks of the place.

Boxes are placed from the trim's top-left corner, y downwards, as a designer
measures a card; :meth:`Place.pdf` turns a place into PDF points (origin
bottom-left).  A box's x, y, w and h are computed one at a time and only when
asked for, so a box may depend on another's place, or on the type size the
other's text was fitted to (``title.size``), as long as nothing depends on
itself.  Nothing here draws or reads files: the settings come through a
function of the caller's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from kitgen.layout.geometry import Rect
from kitgen.layout.known import Forgetful, Known, Question, Read, Reads
from kitgen.layout.lengths import LengthError, evaluate, points
from kitgen.units import MM

EDGE_TOL = 0.01          # points a box may pass the trim by (rounding of lengths in mm)
PERCENT_OF = {"x": "width", "w": "width", "y": "height", "h": "height"}


@dataclass(frozen=True)
class Place:
    """A box's place in points from the trim's top-left corner (y downwards)."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    def pdf(self, card_height: float) -> Rect:
        """The same rectangle in PDF points, origin at the trim's bottom-left corner."""
        return Rect(self.x, card_height - self.bottom, self.w, self.h)


class Places:
    """The places of one layout's boxes on one card.

    ``setting(box, key)`` gives a box's parsed setting (a length tree) and ``var(name)``
    a named value's, each as ``(tree, answer)``: the answer is None when the tree is the
    same on every card (no template), else a value equal on two cards exactly when their
    trees are (the text the template gave); ``size_of(box)`` gives the type size a text box's
    content was fitted to; ``boxes`` lists the box names.

    ``known`` (a :class:`Known`, shared by the cards drawn with the same layout at the same
    fallback steps) remembers each value with the reads it was computed from (templated
    settings, named values and type sizes), so a card that reads the same takes the value
    without computing it; ``reads`` (shared with the caller) is where each value's reads are
    noted, and added to those of the value being worked out around it.
    """

    def __init__(self, width: float, height: float, scale: float, boxes: set[str],
                 setting: Callable[[str, str], tuple[Any, Any]], var: Callable[[str], tuple[Any, Any]],
                 size_of: Callable[[str], float], known: Known | None = None, reads: Reads | None = None,
                 safe: float = 3 * MM):
        self.width, self.height, self.scale = width, height, scale
        self.safe = safe                         # the layout's safe zone, never scaled
        self.boxes, self.setting, self.var, self.size_of = boxes, setting, var, size_of
        self.known = known if known is not None else Forgetful()
        self.reads = reads if reads is not None else Reads()
        self._done: dict[tuple, tuple[Any, tuple]] = {}   # (box, attr) or (name, None) -> (value, its reads)
        self._busy: list[tuple] = []

    def attr(self, box: str, attr: str) -> float:
        """A box's x, y, w, h, right, bottom (points) or size (its text's type size)."""
        if attr == "right":
            return self.attr(box, "x") + self.attr(box, "w")
        if attr == "bottom":
            return self.attr(box, "y") + self.attr(box, "h")
        done = self._done.get((box, attr))
        if done is not None:                     # worked out on this card already (as _value would take it)
            self.reads.add(done[1])
            return done[0]
        if attr == "size":                       # the read itself: nothing to remember it by
            return self._value((box, attr), lambda: self._read(Question("size", box)), remember=False)
        return self._value((box, attr), lambda: self.length(self._read(Question("setting", box, attr)),
                                                            getattr(self, PERCENT_OF[attr]), MM))

    def place(self, box: str) -> Place:
        attr = self.attr
        return Place(attr(box, "x"), attr(box, "y"), attr(box, "w"), attr(box, "h"))

    def length(self, expr, percent_of: float | None, bare_unit: float) -> float:
        """A length tree in points (a bare number counts in ``bare_unit``, e.g. MM or 1 for points)."""
        return points(evaluate(expr, self._lookup, self.scale, percent_of), self.scale, bare_unit)

    def _lookup(self, name: str, attr: str | None) -> tuple[float, int]:
        if attr is not None:
            return self.attr(name, attr), 1
        if name == "width":
            return self.width, 1
        if name == "height":
            return self.height, 1
        if name == "safe":
            return self.safe, 1
        return self._value((name, None),
                           lambda: evaluate(self._read(Question("var", name)), self._lookup, self.scale, None))

    def _value(self, key: tuple[str, str | None], compute: Callable[[], Any], remember: bool = True) -> Any:
        """A box's attribute (``key`` is (box, attr)) or a named value ((name, None)): done on this
        card, known from another card, or computed; its reads are added to those of the value being
        worked out around it."""
        done = self._done.get(key)
        if done is not None:
            value, reads = done
        else:
            if key in self._busy:
                if key[1] is None:
                    raise LengthError(f"the value '{key[0]}' depends on itself")
                steps = self._busy[self._busy.index(key):] + [key]
                loop = " -> ".join(f"{b}.{a}" if a else f"vars.{b}" for b, a in steps)
                raise LengthError(f"the boxes' places depend on each other in a circle: {loop}")
            self._busy.append(key)
            remember = remember and self.known.keeps
            record = self.reads                   # recorded by hand (as Reads.recording does): the hot path
            outer = record.current
            try:
                found = None
                if remember:
                    record.current = []           # what answering reads counts for nothing here
                    found = self.known.find(key, self.answer)
                if found is not None:
                    value, reads = found
                else:
                    record.current = noted = []
                    value = compute()
                    reads = tuple(noted)
                    if remember:
                        self.known.add(key, reads, value)
            finally:
                record.current = outer
                self._busy.pop()
            self._done[key] = value, reads
        self.reads.add(reads)
        return value

    def _read(self, question: Question):
        """A setting's tree, a named value's tree or a box's type size, noted among the reads of the
        value being worked out when it may differ from card to card."""
        if question.kind == "size":
            value = answer = self._size(question.name)
        elif question.kind == "var":
            value, answer = self.var(question.name)
        else:
            value, answer = self.setting(question.name, question.key)
        if answer is not None:
            self.reads.note(Read(question, answer))
        return value

    def _size(self, box: str) -> float:
        """A box's type size: the size alone is the read (what fitting the text reads is not noted, as
        a card whose text was fitted before would not read it again)."""
        with self.reads.recording(keep=False):
            return self.size_of(box)

    def answer(self, question: Question):
        """This card's answer to ``question`` (as :meth:`_read` notes it), compared with the answers of
        earlier cards; a type size is asked as a box's ``size`` is (a circle through it is told the
        same way)."""
        if question.kind == "size":
            return self.attr(question.name, "size")
        if question.kind == "var":
            return self.var(question.name)[1]
        return self.setting(question.name, question.key)[1]


def place_problem(place: Place, width: float, height: float, kind: str) -> str | None:
    """Why a box cannot be placed on a card of this size (None when it can)."""
    flat_ok = kind == "line"
    if place.w < -EDGE_TOL or place.h < -EDGE_TOL or (not flat_ok and (place.w <= EDGE_TOL or place.h <= EDGE_TOL)) \
            or (flat_ok and place.w <= EDGE_TOL and place.h <= EDGE_TOL):
        return (f"its size is {_mm(place.w)} x {_mm(place.h)} mm; a box needs a width and a height "
                "greater than zero")
    if place.x < -EDGE_TOL or place.y < -EDGE_TOL or place.right > width + EDGE_TOL \
            or place.bottom > height + EDGE_TOL:
        return (f"it reaches outside the card: from ({_mm(place.x)}, {_mm(place.y)}) to ({_mm(place.right)}, "
                f"{_mm(place.bottom)}) mm on a card of {_mm(width)} x {_mm(height)} mm")
    return None


def with_bleed(place: Place, width: float, height: float, bleed: float) -> Place:
    """A background's place grown into the bleed on every side where it meets the trim."""
    x0 = place.x - bleed if place.x <= EDGE_TOL else place.x
    y0 = place.y - bleed if place.y <= EDGE_TOL else place.y
    x1 = place.right + bleed if place.right >= width - EDGE_TOL else place.right
    y1 = place.bottom + bleed if place.bottom >= height - EDGE_TOL else place.bottom
    return Place(x0, y0, x1 - x0, y1 - y0)


def outside_safe_zone(place: Place, width: float, height: float, inset: float) -> float:
    """How far (points) a box reaches past the safe zone ``inset`` inside the trim; 0 when it stays in."""
    return max(0.0, inset - place.x, inset - place.y, place.right - (width - inset),
               place.bottom - (height - inset))


def _mm(points_: float) -> str:
    return f"{points_ / MM:.1f}"
