"""Score pads: one sheet per copy, a row per round, a column per player, a totals row."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from reportlab.pdfbase.pdfmetrics import stringWidth

from kitgen.data.components import ScorePad
from kitgen.errors import RenderError
from kitgen.layout.geometry import Rect
from kitgen.layout.packing import content_area
from kitgen.render import fonts
from kitgen.render.aids.page import AidPage
from kitgen.render.colors import GUIDE, INK, MUTED, STRIPE, mix
from kitgen.render.text_fit import fit_line
from kitgen.units import mm

ROUND_W = mm(16)
TRACK_W = mm(26)
HEADER_H = mm(15)
TOTAL_H = mm(13)
MAX_ROW_H = mm(12)
NOTE_H = mm(7)            # under the table: its note
NOTE_SIZES = (7.5, 5.0)   # the note's largest and smallest type size


@dataclass(frozen=True)
class PadGrid:
    """Column edges (x, left to right) and row edges (y, top to bottom) of the table."""

    xs: tuple[float, ...]
    ys: tuple[float, ...]

    def cell(self, row: int, col: int) -> Rect:
        return Rect(self.xs[col], self.ys[row + 1], self.xs[col + 1] - self.xs[col],
                    self.ys[row] - self.ys[row + 1])


def pad_grid(pad: ScorePad, area: Rect) -> PadGrid:
    if pad.note:                                  # room for the note under the table
        area = Rect(area.x, area.y + NOTE_H, area.w, area.h - NOTE_H)
    fixed = [ROUND_W] + ([TRACK_W] if pad.track else [])
    player_w = (area.w - sum(fixed)) / pad.players
    widths = fixed + [player_w] * pad.players
    xs = [area.x]
    for w in widths:
        xs.append(xs[-1] + w)
    row_h = min(MAX_ROW_H, (area.h - HEADER_H - TOTAL_H) / pad.rounds)
    ys = [area.y1, area.y1 - HEADER_H]
    for _ in range(pad.rounds):
        ys.append(ys[-1] - row_h)
    ys.append(ys[-1] - TOTAL_H)
    return PadGrid(tuple(xs), tuple(ys))


def _centred(canvas, text: str, cell: Rect, font: str, largest: float, color=INK, dy: float = 0.0) -> None:
    size = fit_line(text, font, largest, 4.5, cell.w - 4) or 4.5
    canvas.setFont(font, size)
    canvas.setFillColor(color)
    cx, cy = cell.center
    canvas.drawCentredString(cx, cy - size * 0.35 + dy, text)


def pad_pages(pads: list[ScorePad], ctx) -> list[AidPage]:
    """A page for every copy of every score pad."""
    pages = []
    for pad in pads:
        fonts.check_glyphs(pad.title + pad.track, pad.where, fonts.BOLD)
        fonts.check_glyphs(pad.note, pad.where, fonts.REGULAR)
        for _ in range(pad.count):
            pages.append(AidPage(pad.title + ": write the players' names at the top", partial(_pad, pad=pad),
                                 actual_size=False))
    return pages


def _pad(canvas, page_of, ctx, pad: ScorePad) -> None:
    accent = ctx.game.back.color
    grid = pad_grid(pad, content_area(ctx.paper))
    n_rows, n_cols = pad.rounds + 2, len(grid.xs) - 1
    track_col = 1 if pad.track else None
    canvas.saveState()
    # shading: header, every other round, the pre-filled column, the totals
    canvas.setFillColor(mix(accent, "#ffffff", 0.82))
    for row in (0, n_rows - 1):
        r = Rect(grid.xs[0], grid.ys[row + 1], grid.xs[-1] - grid.xs[0], grid.ys[row] - grid.ys[row + 1])
        canvas.rect(r.x, r.y, r.w, r.h, stroke=0, fill=1)
    canvas.setFillColor(STRIPE)
    for row in range(2, pad.rounds + 1, 2):
        r = grid.cell(row, 0)
        canvas.rect(r.x, r.y, grid.xs[-1] - r.x, r.h, stroke=0, fill=1)
    # lines: thin inside, heavier frame and under the header / above the totals
    canvas.setStrokeColor(GUIDE)
    canvas.setLineWidth(0.5)
    for x in grid.xs[1:-1]:
        canvas.line(x, grid.ys[-1], x, grid.ys[0])
    for y in grid.ys[2:-2]:
        canvas.line(grid.xs[0], y, grid.xs[-1], y)
    canvas.setStrokeColor(INK)
    canvas.setLineWidth(1.0)
    for y in (grid.ys[1], grid.ys[-2]):
        canvas.line(grid.xs[0], y, grid.xs[-1], y)
    canvas.line(grid.xs[1], grid.ys[-1], grid.xs[1], grid.ys[0])
    canvas.setLineWidth(1.2)
    canvas.rect(grid.xs[0], grid.ys[-1], grid.xs[-1] - grid.xs[0], grid.ys[0] - grid.ys[-1],
                stroke=1, fill=0)
    # header row
    _centred(canvas, "Round", grid.cell(0, 0), fonts.BOLD, 8.5)
    if track_col is not None:
        _centred(canvas, pad.track, grid.cell(0, track_col), fonts.BOLD, 8.5)
    first_player = n_cols - pad.players
    for p in range(pad.players):
        cell = grid.cell(0, first_player + p)
        label = f"Player {p + 1}"
        size = fit_line(label, fonts.REGULAR, 6, 4.5, cell.w - 5) or 4.5
        if stringWidth(label, fonts.REGULAR, size) > cell.w - 5:
            label = str(p + 1)         # a column too narrow for the word keeps the number
        canvas.setFont(fonts.REGULAR, size)
        canvas.setFillColor(MUTED)
        canvas.drawString(cell.x + 3, cell.y1 - 8, label)
        canvas.setStrokeColor(GUIDE)
        canvas.setLineWidth(0.4)
        canvas.line(cell.x + 4, cell.y + 4, cell.x1 - 4, cell.y + 4)
    # rounds, the pre-filled track, totals
    values = pad.track_values()
    for r in range(pad.rounds):
        _centred(canvas, str(r + 1), grid.cell(r + 1, 0), fonts.BOLD, 10)
        if track_col is not None:
            _centred(canvas, str(values[r]), grid.cell(r + 1, track_col), fonts.REGULAR, 10, MUTED)
    _centred(canvas, "Total", grid.cell(n_rows - 1, 0), fonts.BOLD, 9.5)
    if pad.note:
        width = grid.xs[-1] - grid.xs[0]
        size = fit_line(pad.note, fonts.REGULAR, *NOTE_SIZES, width)
        if size is None:
            raise RenderError(f"{pad.where}: the note does not fit under the score pad even at "
                              f"{NOTE_SIZES[1]:g} pt; shorten it")
        canvas.setFont(fonts.REGULAR, size)
        canvas.setFillColor(MUTED)
        canvas.drawCentredString((grid.xs[0] + grid.xs[-1]) / 2, grid.ys[-1] - NOTE_H / 2 - size * 0.35, pad.note)
    canvas.restoreState()
