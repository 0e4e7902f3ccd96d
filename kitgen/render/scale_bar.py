"""The scale bar: a 50 mm bar and a 2 in bar, to check a printout was not scaled.

Where it goes comes from :mod:`kitgen.layout.sheet` (:class:`ScaleBar`); card
sheets, table aids and the calibration sheet all draw it here.
"""

from __future__ import annotations

from kitgen.layout.sheet import SCALE_BAR_DEPTH, ScaleBar
from kitgen.render import fonts
from kitgen.render.colors import NOTE
from kitgen.units import MM


def draw_scale_bar(canvas, bar: ScaleBar) -> None:
    """A 50 mm bar with 10 mm ticks and a 2 in bar with 1/2 in ticks, labelled after their ends."""
    canvas.saveState()
    canvas.translate(bar.x, bar.y)
    if bar.vertical:
        # draw along +x in a frame turned so that +x points up the page
        canvas.translate(SCALE_BAR_DEPTH, 0)
        canvas.rotate(90)
    canvas.setStrokeColor(NOTE)
    canvas.setFillColor(NOTE)
    canvas.setLineWidth(0.5)
    for y, length, step, ticks, label in ((3.4 * MM, 50 * MM, 10 * MM, 5, "50 mm"),
                                          (0.9 * MM, 144.0, 36.0, 4, "2 in")):
        canvas.line(0, y, length, y)
        for i in range(ticks + 1):
            canvas.line(i * step, y, i * step, y - 0.8 * MM)
        canvas.setFont(fonts.REGULAR, 5)
        canvas.drawString(length + 1.2 * MM, y - 0.9 * MM, label)
    canvas.restoreState()
