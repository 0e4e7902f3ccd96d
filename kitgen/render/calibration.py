"""calibration.pdf: two pages printed back to back that show a printer's front-to-back shift.

The front carries crosshair targets on a fine millimetre grid; the back
carries, behind each target, a horizontal and a vertical scale numbered in
millimetres.  Where each goes comes from :mod:`kitgen.layout.calibration`;
this module only draws.
"""

from __future__ import annotations

from reportlab.lib.utils import simpleSplit

from kitgen.layout.calibration import (
    CROSS_REACH,
    GRID_REACH,
    SCALE_OFFSET,
    SCALE_REACH,
    Anchor,
    CalibrationLayout,
    tick_label,
    ticks,
)
from kitgen.render import fonts
from kitgen.render.canvas import canvas_bytes, new_canvas
from kitgen.render.colors import GUIDE, INK, MUTED, SEAM
from kitgen.render.scale_bar import draw_scale_bar
from kitgen.units import MM

NUMBER_GAP = 0.35 * MM    # a scale's number starts this far past its tick, clear of a line through the tick
NUMBER_RISE = 0.6 * MM    # an upright scale's number stands this far above its tick, for the same reason
NUMBER_SHIFT = 2.6 * MM   # numbers lie this far out from the scale's line, past the unnumbered ticks
FLIP = {"long": "flip on long edge", "short": "flip on short edge"}

FRONT_TEXT = ("Print this file double-sided at 100% (no fit to page), {flip}, on the paper you print cards "
              "on. Then turn the sheet over: the back tells you how far your printer shifts the back "
              "of a page against its front.")
BACK_TEXT = ("Hold this page against a window or a lamp, this side towards you. At each target, the red "
             "lines of the front show through. Read X where the upright red line crosses the horizontal "
             "scale, and Y where the level red line crosses the upright scale. Build with "
             "--back-offset X,Y using the readings of the middle target (0,0 means no shift). +X points "
             "to the right and +Y up on this page, as you read its text.")


def _heading(canvas, page, title: str, text: str) -> None:
    left, top = 15 * MM, page.height - 15 * MM
    width = page.width - 30 * MM
    canvas.setFillColor(INK)
    canvas.setFont(fonts.BOLD, 14)
    canvas.drawString(left, top - 14, title)
    canvas.setFont(fonts.REGULAR, 9)
    canvas.setFillColor(MUTED)
    for i, line in enumerate(simpleSplit(text, fonts.REGULAR, 9, width)):
        canvas.drawString(left, top - 30 - i * 11.5, line)


def _front(canvas, lay: CalibrationLayout) -> None:
    _heading(canvas, lay.page, "Duplex calibration: front", FRONT_TEXT.format(flip=FLIP[lay.duplex]))
    for n, ((x, y), name) in enumerate(zip(lay.targets, lay.front_names)):
        steps = int(round(GRID_REACH / MM))
        for i in range(-steps, steps + 1):      # the fine grid: a line every millimetre, every 5 mm darker
            canvas.setStrokeColor(MUTED if i % 5 == 0 else GUIDE)
            canvas.setLineWidth(0.35 if i % 5 == 0 else 0.2)
            canvas.line(x + i * MM, y - GRID_REACH, x + i * MM, y + GRID_REACH)
            canvas.line(x - GRID_REACH, y + i * MM, x + GRID_REACH, y + i * MM)
        canvas.setStrokeColor(SEAM)
        canvas.setLineWidth(0.5)
        canvas.line(x, y - CROSS_REACH, x, y + CROSS_REACH)
        canvas.line(x - CROSS_REACH, y, x + CROSS_REACH, y)
        canvas.circle(x, y, 4 * MM, stroke=1, fill=0)
        _name(canvas, _target_name(n), name, 8)
    draw_scale_bar(canvas, lay.scale_bar)


def _target_name(n: int) -> str:
    return "middle target" if n == 0 else f"target {'ABCD'[n - 1]}"


def _name(canvas, text: str, at: Anchor, size: float) -> None:
    canvas.setFillColor(INK)
    canvas.setFont(fonts.BOLD, size)
    if at.align == "right":
        canvas.drawRightString(at.x, at.y, text)
    else:
        canvas.drawString(at.x, at.y, text)


def _back(canvas, lay: CalibrationLayout) -> None:
    _heading(canvas, lay.page, "Duplex calibration: back (read here)", BACK_TEXT)
    for n, ((x, y), name) in enumerate(zip(lay.zeros, lay.back_names)):
        canvas.setStrokeColor(INK)
        canvas.setFillColor(INK)
        canvas.setLineWidth(0.3)
        canvas.circle(x, y, 0.6 * MM, stroke=1, fill=0)       # where the target's centre should be
        hy = y + SCALE_OFFSET                                 # the horizontal scale, above the centre
        vx = x + SCALE_OFFSET                                 # the upright scale, right of the centre
        canvas.setLineWidth(0.3)
        canvas.line(x - SCALE_REACH * MM, hy, x + SCALE_REACH * MM, hy)
        canvas.line(vx, y - SCALE_REACH * MM, vx, y + SCALE_REACH * MM)
        canvas.setFont(fonts.REGULAR, 5)
        for value, rank, numbered in ticks():
            length = (0.9, 1.4, 1.9, 2.6)[rank] * MM
            canvas.setLineWidth(0.3 if rank else 0.2)
            canvas.line(x + value * MM, hy, x + value * MM, hy + length)
            canvas.line(vx, y + value * MM, vx + length, y + value * MM)
            if numbered:              # beside its tick, so the target's line through the tick misses it
                label = tick_label(value)
                canvas.drawString(x + value * MM + NUMBER_GAP, hy + NUMBER_SHIFT, label)
                canvas.drawString(vx + NUMBER_SHIFT, y + value * MM + NUMBER_RISE, label)
        canvas.setFont(fonts.BOLD, 7)
        canvas.drawString(x + SCALE_REACH * MM + 1.5 * MM, hy, "X mm \u2192")
        canvas.drawString(vx - 1.5 * MM, y + SCALE_REACH * MM + 3.2 * MM, "\u2191 Y mm")     # above the scale's end
        _name(canvas, _target_name(n), name, 7)


def calibration_pdf(lay: CalibrationLayout) -> bytes:
    """The two pages: the front with its targets, the back with its scales."""
    canvas = new_canvas(lay.page, "kitgen duplex calibration", "front-to-back shift of a duplex printer")
    canvas.setViewerPreference("Duplex", "DuplexFlipLongEdge" if lay.duplex == "long" else "DuplexFlipShortEdge")
    _front(canvas, lay)
    canvas.showPage()
    _back(canvas, lay)
    canvas.showPage()
    return canvas_bytes(canvas)
