"""Pure geometry of the duplex calibration sheet: targets on the front, scales behind them.

The front page carries crosshair targets; the back page carries, behind each
target, a horizontal and a vertical millimetre scale whose zero lies exactly
where the target's centre prints when the printer puts the back where the PDF
asks (found with :func:`kitgen.layout.duplex.back_slot`, as the card backs
are).  Held against the light, the target shows through: its vertical line
crosses the horizontal scale at X and its horizontal line crosses the
vertical scale at Y.

Sign convention, in the back page's own coordinates (its text upright, +X to
the right, +Y up): if a printer lands the back ``d`` off, the scale's zero
moves by ``d`` while the target stays, so the reading is ``-d``, and
``--back-offset X,Y`` shifts every back by ``-d``: the reading is the offset
to pass, as it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from kitgen.layout.duplex import back_slot
from kitgen.layout.geometry import Rect
from kitgen.units import MM, Size

SCALE_REACH = 8          # the scales run from -8 to +8 mm
TICK_STEP = 0.5          # mm between ticks
LABEL_STEP = 4           # mm between numbered ticks
GRID_REACH = 10 * MM     # the front's fine grid runs this far around each target
EDGE_X = 35 * MM                         # corner targets: this far in from the sides,
EDGE_TOP, EDGE_BOTTOM = 85 * MM, 40 * MM   # from the top (under the instructions) and from the bottom


@dataclass(frozen=True)
class CalibrationLayout:
    page: Size
    duplex: str
    targets: tuple[tuple[float, float], ...]   # centres of the crosshairs on the front page
    zeros: tuple[tuple[float, float], ...]     # where each target prints on the back page: its scales' zero


def target_points(page: Size) -> tuple[tuple[float, float], ...]:
    """The middle of the page first, then near each corner, clear of the headings."""
    w, h = page.width, page.height
    return ((w / 2, h / 2), (EDGE_X, h - EDGE_TOP), (w - EDGE_X, h - EDGE_TOP), (EDGE_X, EDGE_BOTTOM),
            (w - EDGE_X, EDGE_BOTTOM))


def behind(point: tuple[float, float], page: Size, duplex: str) -> tuple[float, float]:
    """Where a point of the front page lies on the back page once the sheet is turned over."""
    x, y = point
    r = back_slot(Rect(x, y, 0.0, 0.0), page, duplex)
    return r.x, r.y


def calibration_layout(page: Size, duplex: str = "long") -> CalibrationLayout:
    targets = target_points(page)
    return CalibrationLayout(page, duplex, targets, tuple(behind(t, page, duplex) for t in targets))


def ticks() -> list[tuple[float, int, bool]]:
    """(value in mm, length class, carries a number) of every tick of a scale: class 0 for a half
    millimetre, 1 for a millimetre, 2 for every second millimetre, 3 for a numbered one."""
    out = []
    steps = int(round(2 * SCALE_REACH / TICK_STEP))
    for i in range(steps + 1):
        value = -SCALE_REACH + i * TICK_STEP
        whole = abs(value - round(value)) < 1e-9
        numbered = whole and round(value) % LABEL_STEP == 0
        rank = 3 if numbered else 2 if whole and round(value) % 2 == 0 else 1 if whole else 0
        out.append((value, rank, numbered))
    return out


def tick_label(value: float) -> str:
    """How a scale numbers a tick: 0, +2, -2 ... (the sign says which way the offset goes)."""
    v = int(round(value))
    return "0" if v == 0 else f"{v:+d}"
