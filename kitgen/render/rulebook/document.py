"""The rulebook's pages: flowables laid out once on letter or A4, with a running head and "Page N of M".

The layout runs once: the canvas holds its pages back and writes each page's
number and the count when it is saved (reportlab's numbered-canvas pattern).
A block that cannot be split and is taller than a page is refused before
anything is drawn (:func:`check_blocks`, what ``kitgen validate`` runs).
"""

from __future__ import annotations

import re

from reportlab.platypus import (
    BaseDocTemplate,
    CondPageBreak,
    Frame,
    KeepTogether,
    PageBreak,
    PageTemplate,
    Spacer,
)
from reportlab.platypus.doctemplate import ActionFlowable
from reportlab.platypus.doctemplate import LayoutError as PlatypusLayoutError

from kitgen.errors import GameDataError, RenderError
from kitgen.render import fonts
from kitgen.render.canvas import KitCanvas, canvas_bytes, new_canvas
from kitgen.render.colors import RULE
from kitgen.render.colors import RULEBOOK_MUTED as MUTED
from kitgen.render.rulebook.flowables import Builder, Theme
from kitgen.units import mm, to_mm


class _NumberedCanvas(KitCanvas):
    """A canvas that holds its pages until it is saved, then writes "Page N of M" on each.

    ``page_footer(canvas, page, total)`` draws the number; it is set by the document.
    """

    page_footer = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._held_pages: list[dict] = []

    def showPage(self):
        self._held_pages.append(dict(self.__dict__))
        self._startPage()

    def save(self):
        if self._code:
            self.showPage()
        total = len(self._held_pages)
        for state in self._held_pages:
            self.__dict__.update(state)
            self.page_footer(self, self._pageNumber, total)
            super().showPage()
        super().save()


class _Doc(BaseDocTemplate):
    def __init__(self, paper, game, theme: Theme):
        super().__init__(None, pagesize=tuple(paper), leftMargin=mm(22), rightMargin=mm(22),
                         topMargin=mm(22), bottomMargin=mm(22), title=f"{game.title}: Rules",
                         author="kitgen", creator="kitgen", producer="kitgen",
                         subject=f"Rules of {game.title}", invariant=1)
        self._doSave = 0
        self.game, self.theme = game, theme
        self.chapter = ""
        self.page_chapter = ""
        frame = Frame(self.leftMargin, self.bottomMargin, self.width, self.height, id="body",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        self.addPageTemplates([PageTemplate("page", [frame], onPageEnd=self._decorate)])

    def handle_pageBegin(self):
        super().handle_pageBegin()
        self.page_chapter = ""
        self._page_fresh = True

    def afterFlowable(self, flowable):
        if isinstance(flowable, (Spacer, CondPageBreak, PageBreak, ActionFlowable)):
            return
        chapter = getattr(flowable, "_kitgen_chapter", None)
        if getattr(self, "_page_fresh", False):
            # the running head names the chapter the page's first text belongs to
            self.page_chapter = chapter or self.chapter
            self._page_fresh = False
        if chapter:
            self.chapter = chapter

    def _decorate(self, canvas, doc):
        """Running head and footer; the page number is written when the canvas is saved."""
        w, h = self.pagesize
        left, right = self.leftMargin, w - self.rightMargin
        canvas.saveState()
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.6)
        canvas.setFillColor(MUTED)
        canvas.setFont(fonts.REGULAR, 8.5)
        foot = mm(13)
        canvas.line(left, foot + 11, right, foot + 11)
        canvas.drawString(left, foot, f"{self.game.title} \u00b7 Rules")
        if doc.page > 1:
            head = h - mm(13)
            canvas.setFont(fonts.ITALIC, 8.5)
            canvas.drawRightString(right, head, self.page_chapter or self.chapter)
            canvas.setFont(fonts.BOLD, 8.5)
            canvas.drawString(left, head, self.game.title.upper())
            canvas.line(left, head - 5, right, head - 5)
        canvas.restoreState()

    def page_number(self, canvas, page: int, total: int) -> None:
        canvas.saveState()
        canvas.setFillColor(MUTED)
        canvas.setFont(fonts.REGULAR, 8.5)
        canvas.drawRightString(self.pagesize[0] - self.rightMargin, mm(13), f"Page {page} of {total}")
        canvas.restoreState()

    def make_canvas(self, *args, **kwargs):
        canvas = new_canvas(self.pagesize, f"{self.game.title}: Rules", f"Rules of {self.game.title}",
                            canvas_class=_NumberedCanvas)
        canvas.page_footer = self.page_number
        return canvas


def _story(blocks, game, paper, where: str, art=None, checking: bool = False):
    fonts.register()
    theme = Theme.for_game(game)
    doc = _Doc(paper, game, theme)
    story = Builder(game, theme, where, doc.width, art, checking).flowables(blocks)
    if not story:
        raise GameDataError("the rulebook template produced no text", file=where)
    return doc, story


BLOCK_NAMES = {"PhaseDiagram": "a phase diagram (phase_diagram())", "StackDiagram":
               "a stack diagram (stack_diagram() or temple_diagram())", "Table": "a table",
               "Paragraph": "a paragraph"}


def _block_name(flowable) -> str:
    name = type(flowable).__name__
    return BLOCK_NAMES.get(name, f"a {name.lower()} block")


def _too_tall(flowable, doc) -> RenderError | None:
    """The error for a block that cannot be split and is taller than a page, else None."""
    if isinstance(flowable, KeepTogether):
        return next((e for e in (_too_tall(f, doc) for f in flowable._content) if e), None)
    if not type(flowable).__module__.startswith("kitgen."):
        return None                       # reportlab's own flowables split over pages
    _, height = flowable.wrap(doc.width, doc.height)
    if height <= doc.height:
        return None
    return RenderError(f"{_block_name(flowable)} is {to_mm(height):.0f} mm tall, more than a page holds "
                       f"({to_mm(doc.height):.0f} mm); make it smaller")


def _checked_story(blocks, game, paper, where: str, art=None, checking: bool = False):
    """The document and its flowables, refused if a block is taller than a page."""
    doc, story = _story(blocks, game, paper, where, art, checking)
    for flowable in story:
        error = _too_tall(flowable, doc)
        if error:
            raise RenderError(f"{where}: {error}")
    return doc, story


def check_blocks(blocks, game, paper, where: str, art=None) -> None:
    """Refuse blocks that cannot be laid out on a page, without drawing (``kitgen validate``); the
    cells of card tables are checked (glyphs, icons) but not laid out, as tables flow over pages."""
    _checked_story(blocks, game, paper, where, art, checking=True)


def build_pdf(blocks, game, paper, where: str, art=None) -> bytes:
    doc, story = _checked_story(blocks, game, paper, where, art)
    try:
        doc.build(story, canvasmaker=doc.make_canvas)
    except PlatypusLayoutError as exc:  # a block too big to place
        found = re.search(r"<(\w+) at 0x", str(exc))
        what = BLOCK_NAMES.get(found.group(1), "a block") if found else "a block"
        raise RenderError(f"{where}: {what} of the rulebook does not fit on one page; "
                          "make it smaller") from None
    return canvas_bytes(doc.canv)
