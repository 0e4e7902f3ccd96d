"""Units and the named sizes of cards and paper.  All layout works in PDF points."""

from __future__ import annotations

import re
from dataclasses import dataclass

from kitgen.errors import OptionError

PT_PER_INCH = 72.0
MM = PT_PER_INCH / 25.4  # points per millimetre


def mm(value: float) -> float:
    """Millimetres to points."""
    return value * MM


def inch(value: float) -> float:
    """Inches to points."""
    return value * PT_PER_INCH


def to_mm(points: float) -> float:
    return points / MM


@dataclass(frozen=True)
class Size:
    """A width and height in points."""

    width: float
    height: float

    @property
    def landscape(self) -> "Size":
        return Size(max(self.width, self.height), min(self.width, self.height))

    def __iter__(self):
        yield self.width
        yield self.height


# Card sizes in millimetres (width x height, portrait).
CARD_SIZES_MM: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),        # 2.5 x 3.5 in, the US poker card
    "poker-eu": (63.0, 88.0),     # what many European tools call poker
    "bridge": (57.15, 88.9),      # 2.25 x 3.5 in
    "mini": (41.0, 63.0),         # "mini American"
    "tarot": (70.0, 120.0),
    "square": (70.0, 70.0),
}

PAPER_SIZES_MM: dict[str, tuple[float, float]] = {
    "letter": (215.9, 279.4),
    "a4": (210.0, 297.0),
}

MIN_CARD_MM = 10.0
_CUSTOM = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[xX×]\s*(\d+(?:\.\d+)?)\s*(?:mm)?\s*$")


def card_size(spec: str, option: str = "--card-size") -> Size:
    """A named card size or a custom ``WxH`` in millimetres."""
    key = spec.strip().lower()
    if key in CARD_SIZES_MM:
        w, h = CARD_SIZES_MM[key]
        return Size(mm(w), mm(h))
    m = _CUSTOM.match(key)
    if m:
        w, h = float(m.group(1)), float(m.group(2))
        if min(w, h) < MIN_CARD_MM:
            raise OptionError(option, f"card size {spec!r} is too small: each side must be at least "
                              f"{MIN_CARD_MM:g} mm")
        return Size(mm(w), mm(h))
    names = ", ".join(CARD_SIZES_MM)
    raise OptionError(option, f"unknown card size {spec!r}; use one of {names} or WxH in mm (e.g. 63x88)")


def paper_size(spec: str, option: str = "--paper") -> Size:
    key = spec.strip().lower()
    if key not in PAPER_SIZES_MM:
        raise OptionError(option, f"unknown paper {spec!r}; use one of {', '.join(PAPER_SIZES_MM)}")
    w, h = PAPER_SIZES_MM[key]
    return Size(mm(w), mm(h))


_LENGTH = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(mm|cm|in|pt)?\s*")


def to_points(spec: str | float | int) -> float:
    """A length as users write it (``30``, ``"30mm"``, ``"3cm"``, ``"1.5in"``, ``"72pt"``) in points.

    A bare number, or a number with no unit, is millimetres, as game.toml and
    ``--bleed`` document.  Anything else raises ValueError with a message
    (without the key or option; the caller adds that).
    """
    if isinstance(spec, bool):
        raise ValueError(f"{spec!r} is not a length")
    if isinstance(spec, (int, float)):
        return mm(float(spec))
    m = _LENGTH.fullmatch(str(spec))
    if not m:
        raise ValueError(f"{spec!r} is not a length (write e.g. 30mm, 1.5in)")
    from reportlab.lib.units import toLength  # here, so that geometry importing units loads no reportlab

    return toLength(m.group(1) + (m.group(2) or "mm"))
