"""cards.pdf: every card copy on sheets, with crop marks, a scale bar and a note on how to print.

One renderer for both sheet layouts of :mod:`kitgen.layout`: duplex (a page
of fronts, then its page of backs) and gutterfold (fronts and their mirrored
backs on one page, folded along a dashed line).  Where each copy goes comes
from :func:`kitgen.layout.deck.place_cards`; the manifest of those places is
written by :mod:`kitgen.outputs.manifest`.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.pdfbase.pdfmetrics import getAscentDescent, stringWidth

from kitgen.layout.deck import CardPlacement, place_cards
from kitgen.layout.gutterfold import FOLD_DASH, GutterfoldLayout
from kitgen.layout.margins import margin_spots, place_along
from kitgen.layout.sheet import SheetLayout
from kitgen.render import fonts
from kitgen.render.canvas import canvas_bytes, new_canvas
from kitgen.render.card import CardPainter
from kitgen.render.colors import CROP_MARK, CUT_GUIDE, NOTE
from kitgen.render.scale_bar import draw_scale_bar
from kitgen.render.text_fit import fit_line, largest_fit
from kitgen.units import to_mm

SUBJECTS = {"duplex": "print-and-play card sheets", "gutterfold": "print-and-play gutterfold card sheets"}
DUPLEX_HINT = {
    "long": "print double-sided, flip on long edge",
    "short": "print double-sided, flip on short edge",
    "none": "backs: reload the stack flipped on its long edge",
}
GUTTERFOLD_HINT = "print one-sided at 100%, fold on the dashed line, glue, then cut"
# what a PDF viewer is asked to preselect in its print dialogue
DUPLEX_PREFERENCE = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge", "none": "Simplex"}


@dataclass(frozen=True)
class CardSheets:
    pdf: bytes
    pages: int
    placements: list[CardPlacement]
    warnings: list[str]            # what drawing the cards found worth saying (a back's frame past the safe zone...)


def render_card_sheets(game, layout, art, source: str, on_page=None) -> CardSheets:
    """Draw every card copy where ``layout`` (a DuplexLayout or a GutterfoldLayout) puts it;
    ``on_page()`` is called after each page."""
    painter = CardPainter(game, layout.card.width, layout.card.height, layout.bleed, art, source)
    for card in game.cards:
        painter.check(card)
    index = {id(card): i for i, card in enumerate(game.cards)}
    decks = game.decks
    placements, pages = place_cards([c.count for c in game.cards], layout,
                                    [[index[id(c)] for c in deck.cards] for deck in decks])
    deck_of = {index[id(c)]: deck for deck in decks for c in deck.cards}
    sheets = len({pl.front_page for pl in placements})
    sides: dict[int, tuple[str, int]] = {}          # page -> (what it holds, its sheet's number)
    page_deck: dict[int, object] = {}               # page -> the deck it holds (one a page)
    for sheet in range(sheets):
        front_page, back_page = layout.page_numbers(sheet, sheets)
        sides[back_page] = ("backs", sheet + 1)
        sides[front_page] = ("fronts", sheet + 1)
    by_page: dict[int, list] = {}                   # page -> placements with a side there, in deck order
    for pl in placements:
        by_page.setdefault(pl.front_page, []).append(pl)
        if pl.back_page != pl.front_page:
            by_page.setdefault(pl.back_page, []).append(pl)
    spots = note_spots(layout)                      # the same margins on every page
    canvas = new_canvas(layout.page, f"{game.title} - cards", SUBJECTS[layout.kind])
    canvas.setViewerPreference("Duplex", DUPLEX_PREFERENCE[_duplex(layout)])
    for page in range(1, pages + 1):
        side, sheet = sides[page]
        taken = []
        bar = layout.sheet.scale_bar if side == "fronts" else getattr(layout, "back_scale_bar", None)
        if side == "fronts":
            draw_crop_marks(canvas, layout.sheet)
            if isinstance(layout, GutterfoldLayout):
                _draw_fold(canvas, layout)
                if layout.fold_label:
                    taken.append(layout.fold_label)
        if bar is not None:
            draw_scale_bar(canvas, bar)
            taken.append(bar.box)
        for pl in by_page.get(page, ()):
            page_deck.setdefault(page, deck_of[pl.index])
            if pl.front_page == page:
                _place(canvas, painter.face(canvas, game.cards[pl.index]), pl.front, layout.front_rotation)
            if pl.back_page == page:
                _place(canvas, painter.back(canvas, game.cards[pl.index]), pl.back, layout.back_rotation)
        if side == "fronts":
            draw_cut_guides(canvas, layout.sheet)
        deck = page_deck.get(page) if len(decks) > 1 else None
        _draw_note(canvas, layout, spots, _note(game, layout, side, sheet, sheets, deck), taken)
        canvas.showPage()
        if on_page is not None:
            on_page()
    return CardSheets(canvas_bytes(canvas), pages, placements, list(painter.warnings))


def _duplex(layout) -> str:
    return "none" if isinstance(layout, GutterfoldLayout) else layout.duplex


def _note(game, layout, side: str, sheet: int, sheets: int, deck=None) -> tuple[str, ...]:
    """What the page is and how to print it, then shorter versions for a margin with less room
    (with the deck it holds, when the game has several)."""
    size = f"{to_mm(layout.card.width):g} x {to_mm(layout.card.height):g} mm"
    if deck is not None:
        title = f"{game.title} · {deck.label}"
        return tuple(t.replace(game.title, title, 1) if t.startswith(game.title) else f"{deck.label} · {t}"
                     for t in _note(game, layout, side, sheet, sheets))
    if isinstance(layout, GutterfoldLayout):
        return (f"{game.title} · gutterfold {sheet}/{sheets} · {size} · {GUTTERFOLD_HINT}",
                f"{game.title} · gutterfold {sheet}/{sheets} · print at 100%, fold, glue, cut",
                f"gutterfold {sheet}/{sheets}")
    hint = DUPLEX_HINT[layout.duplex]
    return (f"{game.title} · {side} {sheet}/{sheets} · {size} · print at 100%, {hint}",
            f"{game.title} · {side} {sheet}/{sheets} · print at 100%, {hint}",
            f"{side} {sheet}/{sheets} · {hint}",
            f"{side} {sheet}/{sheets}")


def _place(canvas, form: str, rect, rotation: int) -> None:
    """Draw ``form`` (a card at the origin, upright) into ``rect`` turned ``rotation`` degrees."""
    canvas.saveState()
    corner = {0: (rect.x, rect.y), 90: (rect.x1, rect.y), 180: (rect.x1, rect.y1), 270: (rect.x, rect.y1)}
    canvas.translate(*corner[rotation])
    if rotation:
        canvas.rotate(rotation)
    canvas.doForm(form)
    canvas.restoreState()


def draw_crop_marks(canvas, layout: SheetLayout) -> None:
    canvas.setStrokeColor(CROP_MARK)
    canvas.setLineWidth(0.4)
    for ln in layout.crop_marks:
        canvas.line(ln.x0, ln.y0, ln.x1, ln.y1)


CUT_GUIDE_WIDTH = 0.25      # points: a hairline along a cut, over the cards' edges


def draw_cut_guides(canvas, layout: SheetLayout) -> None:
    """Hairlines along the cuts that no white paper shows (a sheet without crop marks), over the cards."""
    if not layout.cut_guides:
        return
    canvas.saveState()
    canvas.setStrokeColor(CUT_GUIDE)
    canvas.setLineWidth(CUT_GUIDE_WIDTH)
    for ln in layout.cut_guides:
        canvas.line(ln.x0, ln.y0, ln.x1, ln.y1)
    canvas.restoreState()


NOTE_SIZES = (5.5, 4.5)      # largest and smallest size of the sheet label


def note_spots(layout) -> list:
    """The stretches of a sheet's margins that no crop mark or fold mark crosses: where its label may go."""
    sheet = layout.sheet
    lines = list(sheet.crop_marks) + list(getattr(layout, "fold_marks", ()))
    return margin_spots(sheet.grid, sheet.page, sheet.margin, lines)


def _draw_note(canvas, layout, spots: list, texts: tuple[str, ...], taken: list) -> None:
    """The sheet label in a margin no mark crosses (``spots``, from :func:`note_spots`): beside the
    middle row, else above or below.

    The longest wording that fits at 4.5 pt or more is printed; a sheet with no
    room in its margins for even the shortest goes without.
    """
    grid = layout.sheet.grid
    sides = ("right", "top", "left", "bottom")
    if isinstance(layout, GutterfoldLayout) and layout.vertical:
        sides = ("top", "bottom", "right", "left")
    for text in texts:
        def spot_at(size: float, text: str = text):
            ascent, descent = getAscentDescent(fonts.REGULAR, size)
            found = place_along(spots, stringWidth(text, fonts.REGULAR, size), ascent - descent, sides,
                                taken, grid.center)
            return None if found is None else (size, *found, ascent, descent)
        fitted = largest_fit(spot_at, *NOTE_SIZES)
        if fitted is not None:
            size, spot, box, ascent, descent = fitted
            _write_in(canvas, text, size, box, spot.vertical, ascent, descent)
            return


def _write_in(canvas, text: str, size: float, box, vertical: bool, ascent: float, descent: float) -> None:
    """One line of small print centred in ``box``, running up the page when ``vertical``."""
    canvas.saveState()
    canvas.setFillColor(NOTE)
    canvas.setFont(fonts.REGULAR, size)
    cx, cy = box.center
    if vertical:
        canvas.translate(box.x1 + descent, cy)      # the glyphs' tops point left, their feet right
        canvas.rotate(90)
        canvas.drawCentredString(0, 0, text)
    else:
        canvas.drawCentredString(cx, box.y - descent, text)
    canvas.restoreState()


def _draw_fold(canvas, layout: GutterfoldLayout) -> None:
    """The fold: dashed marks beyond the cards, a fine dashed line between them, and the word "fold"."""
    canvas.saveState()
    canvas.setStrokeColor(NOTE)
    canvas.setDash(*FOLD_DASH)
    canvas.setLineWidth(0.5)
    for ln in layout.fold_marks:
        canvas.line(ln.x0, ln.y0, ln.x1, ln.y1)
    canvas.setLineWidth(0.25)
    grid = layout.sheet.grid
    if layout.vertical:
        canvas.line(layout.fold.x0, grid.y, layout.fold.x0, grid.y1)
    else:
        canvas.line(grid.x, layout.fold.y0, grid.x1, layout.fold.y0)
    canvas.restoreState()
    if layout.fold_label:
        box = layout.fold_label
        size = fit_line("fold", fonts.REGULAR, 5.5, 3.5, box.h if layout.vertical else box.w) or 3.5
        ascent, descent = getAscentDescent(fonts.REGULAR, size)
        _write_in(canvas, "fold", size, box, layout.vertical, ascent, descent)
