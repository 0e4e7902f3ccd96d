"""reportlab's Paragraph, which breaks its lines once for each width it is offered.

Laying out a rulebook asks a paragraph for its size several times at the same
width (a block kept together, then the frame that places it; a table's cells
while its columns are measured, then again as they are drawn).  reportlab
breaks the lines anew on every ask, though they depend only on the width, the
text and the style, which do not change: here the second ask at the same width
gets the first answer, and the same lines are drawn.

A rulebook's paragraph may also be parsed once per process (``shared=True``):
builds of a game, and of most games, set the same sentences in the same styles,
and parsing reportlab's markup costs more than breaking the lines.
"""

from __future__ import annotations

from functools import lru_cache

from reportlab.platypus import Paragraph as _Paragraph


class Paragraph(_Paragraph):
    """A Paragraph whose ``wrap`` at the width of its last wrap answers as then, without breaking
    its lines again, while it still holds the lines then broken (:meth:`split` drops them when the
    paragraph goes whole to the next page).  Its height never depends on the height offered."""

    _wrapped = None         # (width offered, the lines broken at it, the size answered)

    def __init__(self, text, style=None, bulletText=None, frags=None, caseSensitive=1, encoding="utf8",
                 shared: bool = False):
        if not shared or frags is not None or bulletText is not None or style is None:
            super().__init__(text, style, bulletText, frags, caseSensitive, encoding)
            return
        # the fragments parsed the first time, each a copy (line breaking marks its fragments)
        self.text, parsed, self.style, self.bulletText = _parsed(text, style, caseSensitive)
        self.frags = [f.clone() for f in parsed]
        self.caseSensitive, self.encoding, self.debug = caseSensitive, encoding, 0

    def wrap(self, availWidth, availHeight):
        wrapped = self._wrapped
        if wrapped is not None and wrapped[0] == availWidth and self.__dict__.get("blPara") is wrapped[1]:
            self.width, self.height = wrapped[2]
            return wrapped[2]
        size = super().wrap(availWidth, availHeight)
        self._wrapped = (availWidth, self.__dict__.get("blPara"), size)
        return size


@lru_cache(maxsize=512)
def _parsed(text: str, style, case_sensitive: int) -> tuple:
    """What reportlab's parsing makes of ``text`` in ``style`` (a style object, by identity, which
    rulebooks never change once made): the text, its fragments, the style and the bullet."""
    para = _Paragraph(text, style, caseSensitive=case_sensitive)
    return para.text, [f.clone() for f in para.frags], para.style, para.bulletText
