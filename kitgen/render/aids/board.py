"""Boards: drawn once as a PDF form, then printed whole or in overlapping parts to tape together.

Where each part goes, the seams and the alignment targets come from
:mod:`kitgen.layout.tiling`; this module only draws.  Every part's page shows
its label ("A1": row letter, column number) large, and a board in parts gets
a page of its own with the whole board, every part outlined and labelled as
on its page, and how to put them together.  Pieces may take the room a part
leaves on its page.
"""

from __future__ import annotations

from functools import partial

from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth

from kitgen.data.components import Board
from kitgen.errors import GameDataError, LayoutError
from kitgen.layout.geometry import Rect
from kitgen.layout.packing import content_area
from kitgen.layout.tiling import MARK_RADIUS, Tiling, part_rooms, tile_board
from kitgen.render import fonts
from kitgen.render.aids.page import AidPage
from kitgen.render.aids.surface import paint_surface
from kitgen.render.colors import CUT, INK, MUTED, PANEL, SEAM
from kitgen.render.text_fit import wrap_lines
from kitgen.units import mm, to_mm

FOOTER = mm(14)          # band under the board part: its label and how to assemble
MIN_INSTRUCTION = 8.0    # no instruction prints smaller (points)
MAP_TEXT = 10.0          # the map page's steps
MAP_LABEL = 26.0         # the parts' labels on the map


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


def board_pages(boards: list[Board], ctx) -> list[AidPage]:
    """Every part of every board copy, each on its page, then (for a board in parts) its assembly map."""
    pages = []
    for number, board in enumerate(boards):
        tiling = tiling_for(board, ctx.paper)
        form = ctx.form_name("board")
        canvas = ctx.canvas
        canvas.beginForm(form, lowerx=0, lowery=0, upperx=tiling.width, uppery=tiling.height)
        if tiling.rotated:                   # (x, y) -> (height - y, x): a quarter turn counter-clockwise
            canvas.translate(tiling.width, 0)
            canvas.rotate(90)
        paint_surface(canvas, ctx.art, board, board.faces[0])
        canvas.endForm()
        total = len(tiling.parts)
        map_key = f"board-map-{number}"
        for copy in range(board.count):
            copy_note = f" (copy {copy + 1} of {board.count})" if board.count > 1 else ""
            for part in tiling.parts:
                if total == 1:
                    note = f"{board.name}{copy_note}: cut along the solid outline"
                else:
                    note = f"{board.name}{copy_note}: part {part.label} of {total}"
                pages.append(AidPage(note, partial(_part_page, board=board, tiling=tiling, part=part, form=form,
                                                   map_key=map_key),
                                     part_rooms(part, board_area(ctx.paper))))
        if total > 1:
            pages.append(AidPage(f"{board.name}: how its {total} parts go together",
                                 partial(_map_page, board=board, tiling=tiling, form=form),
                                 actual_size=False, key=map_key))
    return pages


def _part_page(canvas, page_of, ctx, board: Board, tiling: Tiling, part, form: str, map_key: str) -> None:
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
    if len(tiling.parts) > 1:
        _footer(canvas, ctx, tiling, part, page_of(map_key))


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


def _footer(canvas, ctx, tiling: Tiling, part, map_page: int) -> None:
    """Under the part: its label, large, and where the map of all the parts is."""
    area = content_area(ctx.paper)
    canvas.saveState()
    canvas.setFillColor(INK)
    canvas.setFont(fonts.BOLD, 22)
    canvas.drawString(area.x, area.y + mm(3.5), part.label)
    text = (f"Part {part.label} of {len(tiling.parts)}. Trim the dashed edges, lay the part over its "
            f"neighbours so the red half-targets meet, and tape from the back. The map of all the parts "
            f"is on page {map_page}.")
    room = area.w - mm(20)
    fitted = wrap_lines(text, fonts.REGULAR, 9, MIN_INSTRUCTION, room, 3)
    size, lines = fitted or (MIN_INSTRUCTION, simpleSplit(text, fonts.REGULAR, MIN_INSTRUCTION, room))
    canvas.setFillColor(MUTED)
    canvas.setFont(fonts.REGULAR, size)
    top = area.y + FOOTER - mm(2) - size
    for i, line in enumerate(lines):
        canvas.drawString(area.x + mm(20), top - i * size * 1.2, line)
    canvas.restoreState()


def _map_page(canvas, page_of, ctx, board: Board, tiling: Tiling, form: str) -> None:
    """The whole board at real proportions with every part outlined and labelled, and how to join them."""
    area = content_area(ctx.paper)
    steps = ["Print every part at 100%: the 50 mm bar on each part's page must measure 50 mm.",
             "Cut each part out along its solid edges.",
             "Where a part has a dashed edge (left or top), trim along the dashed line: that part "
             "overlaps its neighbour there.",
             "Lay each trimmed part over its neighbours, as this map shows, so the red half-targets on "
             "the seams make whole targets.",
             "Tape the parts together from the back."]
    if tiling.rotated:
        steps.insert(0, "The board is printed turned a quarter turn; this map shows it as the parts lie "
                        "on their pages.")
    size = MAP_TEXT
    lines = []
    for n, step in enumerate(steps, start=1):
        wrapped = simpleSplit(f"{n}. {step}", fonts.REGULAR, size, area.w - mm(6))
        lines.append(wrapped)
    text_h = sum(len(ls) for ls in lines) * size * 1.35 + len(lines) * size * 0.4
    room = Rect(area.x, area.y + text_h + mm(8), area.w, area.h - text_h - mm(12))
    scale = min(room.w / tiling.width, room.h / tiling.height)
    w, h = tiling.width * scale, tiling.height * scale
    x0, y0 = room.x + (room.w - w) / 2, room.y1 - h
    canvas.saveState()
    canvas.translate(x0, y0)
    canvas.scale(scale, scale)
    canvas.doForm(form)
    canvas.restoreState()
    overlap = tiling.overlap * scale
    canvas.saveState()
    for part in tiling.parts:       # where neighbours overlap, shaded
        r = _scaled(part.part, x0, y0, scale)
        canvas.setFillColor(SEAM)
        canvas.setFillAlpha(0.18)
        if part.cut_left:
            canvas.rect(r.x, r.y, overlap, r.h, stroke=0, fill=1)
        if part.cut_top:
            canvas.rect(r.x, r.y1 - overlap, r.w, overlap, stroke=0, fill=1)
    canvas.restoreState()
    canvas.saveState()
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(1.2)
    for part in tiling.parts:
        r = _scaled(part.part, x0, y0, scale)
        canvas.rect(r.x, r.y, r.w, r.h, stroke=1, fill=0)
    for part in tiling.parts:       # the label in the middle of what only this part covers
        r = _scaled(part.part, x0, y0, scale)
        left = r.x + (overlap if part.cut_left else 0)
        top = r.y1 - (overlap if part.cut_top else 0)
        cx, cy = (left + r.x1) / 2, (r.y + top) / 2
        label = part.label
        tw = stringWidth(label, fonts.BOLD, MAP_LABEL)
        canvas.setFillColor(PANEL)
        canvas.setStrokeColor(INK)
        canvas.setLineWidth(0.8)
        canvas.roundRect(cx - tw / 2 - mm(2.5), cy - MAP_LABEL * 0.55, tw + mm(5), MAP_LABEL * 1.25, mm(1.5),
                         stroke=1, fill=1)
        canvas.setFillColor(INK)
        canvas.setFont(fonts.BOLD, MAP_LABEL)
        canvas.drawCentredString(cx, cy - MAP_LABEL * 0.3, label)
    canvas.restoreState()
    canvas.saveState()
    canvas.setFillColor(INK)
    canvas.setFont(fonts.REGULAR, size)
    y = area.y + text_h
    for wrapped in lines:
        for i, line in enumerate(wrapped):
            canvas.drawString(area.x + (mm(4) if i else 0), y - size, line)
            y -= size * 1.35
        y -= size * 0.4
    canvas.restoreState()


def _scaled(r: Rect, x0: float, y0: float, scale: float) -> Rect:
    return Rect(x0 + r.x * scale, y0 + r.y * scale, r.w * scale, r.h * scale)
