"""Boards: drawn once as a PDF form, then printed whole or in overlapping parts to tape together.

Where each part goes, the seams and the alignment targets come from
:mod:`kitgen.tiling`; this module only draws.  Every page shows its part's
label ("A1": row letter, column number) and a small map of all the parts.
"""

from __future__ import annotations

from reportlab.lib.utils import simpleSplit

from kitgen.data.components import Board
from kitgen.errors import GameDataError, LayoutError
from kitgen.layout.geometry import Rect
from kitgen.layout.packing import content_area
from kitgen.layout.tiling import MARK_RADIUS, Tiling, tile_board
from kitgen.render import fonts
from kitgen.render.aids.draw import heading
from kitgen.render.aids.surface import paint_surface
from kitgen.render.colors import CUT, GUIDE, INK, MUTED, SEAM
from kitgen.render.text_fit import fit_line, wrap_lines
from kitgen.units import mm, to_mm

FOOTER = mm(14)          # band under the board part: part label, map, how to assemble


def board_area(paper) -> Rect:
    """The page area a part of a board may cover: the content area less the footer band."""
    area = content_area(paper)
    return Rect(area.x, area.y + FOOTER, area.w, area.h - FOOTER)


def tiling_for(board: Board, paper) -> Tiling:
    area = board_area(paper)
    try:
        return tile_board(board.width, board.height, area, board.overlap)
    except LayoutError:
        raise GameDataError(f"{board.where}: 'overlap' of {to_mm(board.overlap):.0f} mm is too large "
                            "for the page; use 10 mm") from None


def render_boards(canvas, boards: list[Board], ctx) -> None:
    for board in boards:
        tiling = tiling_for(board, ctx.paper)
        form = ctx.form_name("board")
        canvas.beginForm(form, lowerx=0, lowery=0, upperx=tiling.width, uppery=tiling.height)
        if tiling.rotated:                   # (x, y) -> (height - y, x): a quarter turn counter-clockwise
            canvas.translate(tiling.width, 0)
            canvas.rotate(90)
        paint_surface(canvas, ctx.art, board, board.faces[0])
        canvas.endForm()
        for copy in range(board.count):
            for part in tiling.parts:
                _page(canvas, ctx, board, tiling, part, form, copy)


def _page(canvas, ctx, board: Board, tiling: Tiling, part, form: str, copy: int) -> None:
    total = len(tiling.parts)
    copy_note = f" (copy {copy + 1} of {board.count})" if board.count > 1 else ""
    if total == 1:
        note = f"{board.name}{copy_note}: cut along the solid outline"
    else:
        note = f"{board.name}{copy_note}: part {part.label} of {total}; trim the dashed edges, tape"
    heading(canvas, ctx.paper, ctx.title, note)
    w = part.window
    canvas.saveState()
    path = canvas.beginPath()
    path.rect(w.x, w.y, w.w, w.h)
    canvas.clipPath(path, stroke=0, fill=0)
    canvas.saveState()
    canvas.translate(w.x - part.part.x, w.y - part.part.y)
    canvas.doForm(form)
    canvas.restoreState()
    _seams(canvas, tiling, part)
    canvas.restoreState()
    _edges(canvas, tiling, part)
    _footer(canvas, ctx, tiling, part, total)
    ctx.end_page()


def _seams(canvas, tiling: Tiling, part) -> None:
    """Seam lines and half-targets: on a seam, each of the two pages shows its half."""
    canvas.setStrokeColor(SEAM)
    canvas.setLineWidth(0.6)
    for mark in tiling.marks:
        x, y = part.to_page(mark.x, mark.y)
        canvas.circle(x, y, MARK_RADIUS, stroke=1, fill=0)
        canvas.circle(x, y, MARK_RADIUS * 0.45, stroke=1, fill=0)
        canvas.line(x - MARK_RADIUS * 1.4, y, x + MARK_RADIUS * 1.4, y)
        canvas.line(x, y - MARK_RADIUS * 1.4, x, y + MARK_RADIUS * 1.4)
    canvas.setDash(2, 2)
    canvas.setLineWidth(0.4)
    for other in tiling.parts:      # where the next page's edge lands on this one
        if other.row == part.row and other.column == part.column + 1:
            x, _ = part.to_page(other.part.x, 0)
            canvas.line(x, part.window.y, x, part.window.y1)
        if other.column == part.column and other.row == part.row + 1:
            _, y = part.to_page(0, other.part.y1)
            canvas.line(part.window.x, y, part.window.x1, y)
    canvas.setDash()


def _edges(canvas, tiling: Tiling, part) -> None:
    """Solid cut lines on the board's own edges, dashed trim lines where a neighbour overlaps."""
    w, p = part.window, part.part
    sides = {
        "left": ((w.x, w.y), (w.x, w.y1), p.x <= 1e-6, part.cut_left),
        "right": ((w.x1, w.y), (w.x1, w.y1), p.x1 >= tiling.width - 1e-6, False),
        "top": ((w.x, w.y1), (w.x1, w.y1), p.y1 >= tiling.height - 1e-6, part.cut_top),
        "bottom": ((w.x, w.y), (w.x1, w.y), p.y <= 1e-6, False),
    }
    canvas.saveState()
    for (x1, y1), (x2, y2), outer, trim in sides.values():
        if outer:
            canvas.setStrokeColor(CUT)
            canvas.setLineWidth(0.7)
            canvas.setDash()
            canvas.line(x1, y1, x2, y2)
        elif trim:
            canvas.setStrokeColor(CUT)
            canvas.setLineWidth(0.7)
            canvas.setDash(5, 3)
            canvas.line(x1, y1, x2, y2)
    canvas.restoreState()


def _footer(canvas, ctx, tiling: Tiling, part, total: int) -> None:
    if total == 1:
        return
    area = content_area(ctx.paper)
    y0 = area.y
    canvas.saveState()
    # the part's label, large
    canvas.setFillColor(INK)
    canvas.setFont(fonts.BOLD, 20)
    canvas.drawString(area.x, y0 + mm(3), part.label)
    # a map of the parts, this one filled
    cell = min(mm(4), (FOOTER - mm(3)) / tiling.rows)
    map_w = cell * tiling.columns * 1.4
    mx = area.x1 - map_w
    for other in tiling.parts:
        x = mx + other.column * cell * 1.4
        y = y0 + mm(1) + (tiling.rows - 1 - other.row) * cell
        canvas.setStrokeColor(MUTED)
        canvas.setFillColor(INK if other is part else GUIDE)
        canvas.setLineWidth(0.4)
        canvas.rect(x, y, cell * 1.4 - 1, cell - 1, stroke=1, fill=1)
    # how to put it together
    text = ("Trim along the dashed lines, lay this part over its neighbours so the red half-targets "
            "meet, and tape from the back.")
    if tiling.rotated:
        text = "The board is printed turned a quarter turn. " + text
    room = mx - area.x - mm(18) - mm(4)
    size, lines = fit_line(text, fonts.REGULAR, 7.5, 5, room), [text]
    canvas.setFillColor(MUTED)
    if size is None:                     # two lines on narrow paper
        size, lines = (wrap_lines(text, fonts.REGULAR, 7.5, 4, room, 2)
                       or (4, simpleSplit(text, fonts.REGULAR, 4, room)))
    canvas.setFont(fonts.REGULAR, size)
    for i, line in enumerate(lines):
        canvas.drawString(area.x + mm(18), y0 + mm(7) - i * size * 1.25, line)
    canvas.restoreState()
