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

Each page is laid out for the flip, so that no text lies where a line of the
other side shows through or where a scale lies: the targets sit as far from the
top as from the bottom (the headings of both pages stay clear of them whichever
edge the sheet turns on), a target's name lies beside its crosshair, never on
it, in a corner its mirror image leaves free on the back, the scales' numbers
sit beside their ticks, clear of the crosshair shown through, and the front's
scale bar runs up its left margin, behind which the back has nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from kitgen.layout.duplex import back_slot
from kitgen.layout.geometry import Rect
from kitgen.layout.scale_bar import SCALE_BAR_LENGTH, SCALE_BAR_SPAN, ScaleBar
from kitgen.units import MM, Size

SCALE_REACH = 8          # the scales run from -8 to +8 mm
TICK_STEP = 0.5          # mm between ticks
LABEL_STEP = 4           # mm between numbered ticks
GRID_REACH = 10 * MM     # the front's fine grid runs this far around each target
CROSS_REACH = 24 * MM    # the target's lines run this far each way: past the scales behind it
SCALE_OFFSET = 14 * MM   # the back's scales lie this far from the target's centre, along its lines
EDGE_X = 35 * MM         # corner targets: this far in from the sides,
EDGE_Y = 85 * MM         # and from the top and the bottom (under the headings of either page)
NAME_GAP = 2 * MM        # a target's name keeps this far from its crosshair
NAME_DROP = 3.5 * MM     # its baseline lies this far beyond the fine grid
BAR_EDGE = 7 * MM        # the front's scale bar runs up the page this far from its left edge


@dataclass(frozen=True)
class Anchor:
    """Where a line of text goes: its baseline at ``y``, ending at ``x`` (``align`` right) or starting there."""

    x: float
    y: float
    align: str           # "left" or "right"


@dataclass(frozen=True)
class CalibrationLayout:
    page: Size
    duplex: str
    targets: tuple[tuple[float, float], ...]   # centres of the crosshairs on the front page
    zeros: tuple[tuple[float, float], ...]     # where each target prints on the back page: its scales' zero
    front_names: tuple[Anchor, ...]            # each target's name on the front
    back_names: tuple[Anchor, ...]             # each target's name on the back, by its zero
    scale_bar: ScaleBar                        # on the front


def target_points(page: Size) -> tuple[tuple[float, float], ...]:
    """The middle of the page first, then near each corner, as far from the top as from the bottom."""
    w, h = page.width, page.height
    return ((w / 2, h / 2), (EDGE_X, h - EDGE_Y), (w - EDGE_X, h - EDGE_Y), (EDGE_X, EDGE_Y), (w - EDGE_X, EDGE_Y))


def behind(point: tuple[float, float], page: Size, duplex: str) -> tuple[float, float]:
    """Where a point of the front page lies on the back page once the sheet is turned over."""
    x, y = point
    r = back_slot(Rect(x, y, 0.0, 0.0), page, duplex)
    return r.x, r.y


def calibration_layout(page: Size, duplex: str = "long") -> CalibrationLayout:
    """The sheet for ``duplex`` (long or short).

    A front name lies left of its target's upright line: below the grid for a
    long-edge flip, where it shows through on the back below and right of the
    zero, and above it for a short-edge flip, where it shows through below and
    left.  The back's name takes the other lower corner; the back's scales lie
    above the zero and right of it.
    """
    targets = target_points(page)
    zeros = tuple(behind(t, page, duplex) for t in targets)
    below = -(GRID_REACH + NAME_DROP)
    above = GRID_REACH + 1.5 * MM
    front = tuple(Anchor(x - NAME_GAP, y + (above if duplex == "short" else below), "right") for x, y in targets)
    back = tuple(Anchor(x + NAME_GAP, y + below, "left") if duplex == "short"
                 else Anchor(x - NAME_GAP, y + below, "right") for x, y in zeros)
    bar = ScaleBar(BAR_EDGE, (page.height - SCALE_BAR_SPAN) / 2, True, SCALE_BAR_LENGTH)
    return CalibrationLayout(page, duplex, targets, zeros, front, back, bar)



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
