"""aids.pdf: the table aids of a game (boards, tokens, tiles, mats, score pads, reference cards).

:func:`render_aids` groups the game's components by kind and hands each group
to its renderer in :data:`RENDERERS`; a new kind of component is one parser in
:mod:`kitgen.components` and one entry here.  Geometry comes from
:mod:`kitgen.packing` and :mod:`kitgen.layout`; the renderers only draw.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from kitgen.layout.packing import content_area
from kitgen.render import fonts
from kitgen.render.aids.board import render_boards
from kitgen.render.aids.draw import heading
from kitgen.render.aids.pieces import render_pieces
from kitgen.render.aids.reference import render_references
from kitgen.render.aids.score_pad import render_score_pads
from kitgen.render.canvas import canvas_bytes, new_canvas
from kitgen.render.colors import INK
from kitgen.units import Size

# kind -> (section, renderer); kinds of one section share pages, in this order
RENDERERS: dict[str, tuple[str, Callable]] = {
    "token": ("pieces", render_pieces),
    "tile": ("pieces", render_pieces),
    "mat": ("pieces", render_pieces),
    "board": ("board", render_boards),
    "score-pad": ("score-pad", render_score_pads),
    "reference": ("reference", render_references),
}


@dataclass
class AidsContext:
    """What every renderer needs besides its components."""

    canvas: object
    game: object
    paper: Size
    art: object
    pages: int = 0
    _forms: int = field(default=0, repr=False)

    @property
    def title(self) -> str:
        return self.game.title

    def form_name(self, prefix: str) -> str:
        self._forms += 1
        return f"{prefix}{self._forms}"

    def end_page(self) -> None:
        self.canvas.showPage()
        self.pages += 1


def render_aids(game, paper: Size, art) -> bytes:
    """The PDF bytes of aids.pdf for ``game`` on ``paper``; missing art becomes placeholders."""
    canvas = new_canvas(paper, f"{game.title}: table aids", "Tokens, score pads and reference cards")
    ctx = AidsContext(canvas=canvas, game=game, paper=paper, art=art)
    fonts.check_glyphs(game.title, "game.toml 'title'", fonts.BOLD)
    sections: dict[str, list] = {}
    order: list[tuple[str, Callable]] = []
    for component in game.components:
        section, renderer = RENDERERS[component.kind]
        if section not in sections:
            sections[section] = []
            order.append((section, renderer))
        sections[section].append(component)
    for section, renderer in order:
        renderer(canvas, sections[section], ctx)
    if ctx.pages == 0:
        heading(canvas, paper, game.title, "Table aids")
        area = content_area(paper)
        canvas.setFont(fonts.REGULAR, 11)
        canvas.setFillColor(INK)
        canvas.drawString(area.x, area.y1 - 20, "This game declares no table aids "
                          "(add [[components]] entries to game.toml).")
        ctx.end_page()
    return canvas_bytes(canvas)
