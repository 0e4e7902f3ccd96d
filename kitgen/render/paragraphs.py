"""reportlab's Paragraph, which breaks its lines once for each width it is offered.

Laying out a rulebook asks a paragraph for its size several times at the same
width (a block kept together, then the frame that places it; a table's cells
while its columns are measured, then again as they are drawn).  reportlab
breaks the lines anew on every ask, though they depend only on the width, the
text and the style, which do not change: here the second ask at the same width
gets the first answer, and the same lines are drawn.
"""

from __future__ import annotations

from reportlab.platypus import Paragraph as _Paragraph


class Paragraph(_Paragraph):
    """A Paragraph whose ``wrap`` at the width of its last wrap answers as then, without breaking
    its lines again, while it still holds the lines then broken (:meth:`split` drops them when the
    paragraph goes whole to the next page).  Its height never depends on the height offered."""

    _wrapped = None         # (width offered, the lines broken at it, the size answered)

    def wrap(self, availWidth, availHeight):
        wrapped = self._wrapped
        if wrapped is not None and wrapped[0] == availWidth and self.__dict__.get("blPara") is wrapped[1]:
            self.width, self.height = wrapped[2]
            return wrapped[2]
        size = super().wrap(availWidth, availHeight)
        self._wrapped = (availWidth, self.__dict__.get("blPara"), size)
        return size
