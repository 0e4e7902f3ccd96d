"""The scale bar: a 50 mm bar and a 2 in bar (or the 50 mm bar alone), to check a printout was not scaled.

Where it goes comes from :mod:`kitgen.layout.scale_bar` (:class:`ScaleBar`);
card sheets, table aids and the calibration sheet all draw it here.
"""

from __future__ import annotations

from kitgen.layout.scale_bar import LABEL_GAP, METRIC_BAR_LENGTH, SCALE_BAR_LENGTH, SHORT, SLIM, ScaleBar
from kitgen.render import fonts
from kitgen.render.colors import NOTE
from kitgen.units import MM

TICK = 0.8 * MM           # ticks hang this far below their bar
LABEL_DROP = 0.9 * MM     # a label's baseline lies this far below its bar


def draw_scale_bar(canvas, bar: ScaleBar) -> None:
    """A 50 mm bar with 10 mm ticks and a 2 in bar with 1/2 in ticks, labelled after their ends; or, where
    the margin has no room for both, the 50 mm bar alone, labelled after its end (slim) or above its
    middle (short)."""
    canvas.saveState()
    canvas.translate(bar.x, bar.y)
    if bar.vertical:
        # draw along +x in a frame turned so that +x points up the page
        canvas.translate(bar.depth, 0)
        canvas.rotate(90)
    canvas.setStrokeColor(NOTE)
    canvas.setFillColor(NOTE)
    canvas.setLineWidth(0.5)
    canvas.setFont(fonts.REGULAR, 5)
    if bar.shape == SHORT:
        canvas.translate(0.25 * MM, 0)          # room for the line's ends
        _bar(canvas, 1.1 * MM, METRIC_BAR_LENGTH, 10 * MM, 5)
        canvas.drawCentredString(METRIC_BAR_LENGTH / 2, 1.8 * MM, "50 mm")
    elif bar.shape == SLIM:
        _bar(canvas, 1.2 * MM, METRIC_BAR_LENGTH, 10 * MM, 5)
        canvas.drawString(METRIC_BAR_LENGTH + LABEL_GAP, 0.45 * MM, "50 mm")
    else:
        for y, length, step, ticks, label in ((3.4 * MM, METRIC_BAR_LENGTH, 10 * MM, 5, "50 mm"),
                                              (0.9 * MM, SCALE_BAR_LENGTH, 36.0, 4, "2 in")):
            _bar(canvas, y, length, step, ticks)
            canvas.drawString(length + LABEL_GAP, y - LABEL_DROP, label)
    canvas.restoreState()


def _bar(canvas, y: float, length: float, step: float, ticks: int) -> None:
    """A bar ``length`` long at height ``y`` with ``ticks`` + 1 ticks hanging below it, ``step`` apart."""
    canvas.line(0, y, length, y)
    for i in range(ticks + 1):
        canvas.line(i * step, y, i * step, y - TICK)
