"""aids.pdf: the table aids of a game (boards, tokens, tiles, mats, score pads, reference cards).

Pages come in the order the game declares its components.  Boards and score
pads fill pages of their own (:data:`PAGE_MAKERS`, one per kind); every other
piece (tokens, tiles, mats, reference cards) is packed with the others by
:func:`kitgen.layout.packing.pack_groups`: first into the room board parts
leave on their pages, then onto shared pages placed where the first such
piece is declared.  A new kind of component is one parser in
:mod:`kitgen.data.components` and one entry here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from kitgen.errors import GameDataError
from kitgen.layout.packing import DoesNotFit, Room, content_area, pack_groups
from kitgen.render import fonts
from kitgen.render.aids.board import board_pages
from kitgen.render.aids.draw import heading
from kitgen.render.aids.page import AidPage
from kitgen.render.aids.pieces import draw_pieces, kinds_note, piece_copies
from kitgen.render.aids.score_pad import pad_pages
from kitgen.render.canvas import canvas_bytes, new_canvas
from kitgen.render.colors import INK
from kitgen.units import Size, to_mm

# kinds with pages of their own -> the maker of those pages; all other kinds are packed pieces
PAGE_MAKERS: dict[str, Callable] = {"board": board_pages, "score-pad": pad_pages}
PIECES = "pieces"


@dataclass
class AidsContext:
    """What every renderer needs besides its components."""

    canvas: object
    game: object
    paper: Size
    art: object
    _forms: int = field(default=0, repr=False)

    @property
    def title(self) -> str:
        return self.game.title

    def form_name(self, prefix: str) -> str:
        self._forms += 1
        return f"{prefix}{self._forms}"


def render_aids(game, paper: Size, art) -> bytes:
    """The PDF bytes of aids.pdf for ``game`` on ``paper``; missing art becomes placeholders."""
    canvas = new_canvas(paper, f"{game.title}: table aids", "Tokens, score pads and reference cards")
    ctx = AidsContext(canvas=canvas, game=game, paper=paper, art=art)
    fonts.check_glyphs(game.title, "game.toml 'title'", fonts.BOLD)
    sections: dict[str, list] = {}
    for component in game.components:
        sections.setdefault(component.kind if component.kind in PAGE_MAKERS else PIECES, []).append(component)
    pages: list[AidPage | str] = []
    for section, components in sections.items():
        pages.extend(PAGE_MAKERS[section](components, ctx) if section in PAGE_MAKERS else [PIECES])
    fixed = [p for p in pages if isinstance(p, AidPage)]
    placed = _pack(sections.get(PIECES, []), fixed, ctx)
    new = sorted({pl.page for pl, _ in placed if pl.page >= len(fixed)})
    order: list[AidPage] = []
    where: dict[int, int] = {}          # page index of the packer -> position in the document
    shared: dict[int, int] = {}         # position of a page of pieces only -> its number among them
    for p in pages:
        if p == PIECES:
            for n in new:
                where[n] = shared[len(order)] = len(order)
                order.append(AidPage(""))
        else:
            where[fixed.index(p)] = len(order)
            order.append(p)
    on_page: dict[int, list] = {}
    for pl, copy in placed:
        on_page.setdefault(where[pl.page], []).append((pl, copy))
    keys = {p.key: i + 1 for i, p in enumerate(order) if p.key}
    for number, page in enumerate(order):
        here = on_page.get(number, [])
        note = page.note
        if here:
            kinds = kinds_note({copy.kind for _, copy in here}) + ": cut along the solid outlines"
            note = f"{note} \u00b7 {kinds[0].lower()}{kinds[1:]}" if note else kinds
            if number in shared and len(new) > 1:
                note += f" (page {sorted(shared).index(number) + 1} of {len(new)})"
        heading(canvas, paper, game.title, note, scale_bar=page.actual_size)
        if page.paint:
            page.paint(canvas, keys.get, ctx)
        draw_pieces(canvas, here)
        canvas.showPage()
    if not order:
        heading(canvas, paper, game.title, "Table aids")
        area = content_area(paper)
        canvas.setFont(fonts.REGULAR, 11)
        canvas.setFillColor(INK)
        canvas.drawString(area.x, area.y1 - 20, "This game declares no table aids "
                          "(add [[components]] entries to game.toml).")
        canvas.showPage()
    return canvas_bytes(canvas)


def _pack(pieces: list, fixed: list[AidPage], ctx) -> list:
    """(placement, copy) of every piece copy: in the room of the fixed pages, then on new pages."""
    if not pieces:
        return []
    grouped = piece_copies(pieces, ctx)
    rooms = [Room(i, r) for i, page in enumerate(fixed) for r in page.rooms]
    area = content_area(ctx.paper)
    try:
        placements = pack_groups([g for g, _ in grouped], rooms, area, len(fixed))
    except DoesNotFit as exc:
        group, copies = grouped[exc.index]
        raise GameDataError(f"{copies[0].where}: {to_mm(group.width):.0f} x {to_mm(group.height):.0f} mm is "
                            f"larger than the printable area of the page "
                            f"({to_mm(area.w):.0f} x {to_mm(area.h):.0f} mm)") from None
    return [(pl, grouped[pl.group][1][pl.item]) for pl in placements]
