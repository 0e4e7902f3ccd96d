"""Drawing card faces and backs with reportlab.

Each distinct face and the back are drawn once as a PDF form (an XObject) and
placed wherever a copy goes, so a deck of 80 cards stores 27 drawings and every
art image once.  Geometry comes from :mod:`kitgen.card_face`.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.colors import HexColor, white
from reportlab.pdfbase.pdfmetrics import stringWidth

from kitgen.errors import RenderError
from kitgen.layout.card_face import ART_SHARES, TEXT_MIN, FaceLayout, face_layout, reads_differently_turned
from kitgen.layout.geometry import Rect
from kitgen.render import fonts
from kitgen.render.colors import INK, PANEL, mix
from kitgen.render.images import draw_art, draw_art_to_bleed
from kitgen.render.text_fit import fit_line, fit_paragraph, wrap_lines


@dataclass(frozen=True)
class FaceFit:
    """A face measured to fit: its layout and the point size of every piece of text."""

    lay: FaceLayout
    name_box: Rect
    name_size: float
    name_lines: tuple[str, ...]  # the name, or its two halves when one line cannot hold it
    text: tuple | None           # (paragraph, height) of the effect text
    value_size: float | None     # corner badges
    big_value_size: float | None # the large value of a card without text
    type_size: float


@dataclass(frozen=True)
class BackFit:
    band: Rect
    scale: float
    title_size: float
    subtitle_size: float | None


class CardPainter:
    """Draws one game's faces and back at one card size, each as a reusable PDF form."""

    def __init__(self, game, width: float, height: float, bleed: float, art, source: str):
        fonts.register()
        self.game, self.w, self.h, self.bleed, self.art, self.source = game, width, height, bleed, art, source
        self._forms: dict[str, str] = {}
        self._fits: dict[int, FaceFit] = {}
        self._type_sizes: dict[tuple, float | RenderError] = {}
        self._back_fit: BackFit | None = None

    def where(self, card) -> str:
        return f"{self.source}, row {card.row} (card {card.name!r})"

    def cell(self, card, field: str) -> str:
        """Where a card's field is in the sheet, for messages: "cards.csv, row 4, column 'Cost'"."""
        return f"{self.source}, row {card.row}, column '{self.game.column(field)}'"

    def check(self, card) -> None:
        """Raise for text that cannot print (missing glyphs, too long to fit), the back's included."""
        self.check_face(card)
        self.check_back()

    def check_face(self, card) -> None:
        """Raise for text of ``card``'s face that cannot print (missing glyphs, too long to fit)."""
        for column, text, font in (("name", card.name, fonts.BOLD), ("value", card.value, fonts.BOLD),
                                   ("text", card.text, fonts.REGULAR)):
            fonts.check_glyphs(text, self.cell(card, column), font)   # in the font it is printed in
        self._fitted(card)

    def check_back(self) -> None:
        """Raise for a back whose title or subtitle cannot print."""
        self._fitted_back()

    def _fitted(self, card) -> FaceFit:
        if card.row not in self._fits:
            self._fits[card.row] = self._fit(card)
        return self._fits[card.row]

    def _fit(self, card) -> FaceFit:
        """Every text of a face sized to its box, or an error naming the card.

        A long name may reach into the free top-right corner; a long text first
        shrinks to a comfortable size, then takes room from the art, and only
        then shrinks to the minimum.
        """
        has_value, has_text = bool(card.value), bool(card.text)
        lay = face_layout(self.w, self.h, has_value, has_text)
        name_min = max(TEXT_MIN + 1, lay.name_size * 0.55)
        name_lines = (card.name,)
        for name_box in (lay.name, lay.name_wide):
            name_size = fit_line(card.name, fonts.BOLD, lay.name_size, name_min, name_box.w)
            if name_size is not None:
                break
        else:
            name_box = lay.name_tall
            wrapped = wrap_lines(card.name, fonts.BOLD, min(lay.name_size, name_box.h / 2.3), TEXT_MIN,
                                 name_box.w, 2, every_line_fits=True)
            if wrapped is None:
                raise RenderError(f"{self.where(card)}: the name is too long for the card even on two lines "
                                  f"at {TEXT_MIN:g} pt; shorten it or use a larger card")
            name_size, lines = wrapped
            name_lines = tuple(lines)
        text = None
        if has_text:
            for share in ART_SHARES:
                lay = face_layout(self.w, self.h, has_value, has_text, share)
                text = fit_paragraph(card.text, lay.text, lay.text_size, lay.text_comfort)
                if text is not None:
                    break
            else:
                text = fit_paragraph(card.text, lay.text, lay.text_comfort, TEXT_MIN)
            if text is None:
                raise RenderError(f"{self.where(card)}: the text does not fit its box even at "
                                  f"{TEXT_MIN:g} pt; shorten it or use a larger card")
        value_size = big_value_size = None
        if has_value:
            value_size = fit_line(card.value, fonts.BOLD, lay.value_size, 5, lay.corner_top.w * 0.86)
            if value_size is None:
                raise RenderError(f"{self.cell(card, 'value')}: {card.value!r} is too "
                                  "long for the card's corners; use a shorter value")
            if not has_text:
                box = lay.text
                big_value_size = fit_line(card.value, fonts.BOLD, min(box.h * 0.8, 60 * lay.scale),
                                          value_size, box.w * 0.8) or value_size
        type_size = self._type_size(card, lay)
        return FaceFit(lay, name_box, name_size, name_lines, text, value_size, big_value_size, type_size)

    def _type_size(self, card, lay: FaceLayout) -> float:
        """The point size of the type line, found once per type (and a problem raised once per type)."""
        key = (card.type, lay.type_line.w, lay.type_size)
        if key not in self._type_sizes:
            label = self.game.types[card.type].label.upper()
            size = fit_line(label, fonts.BOLD, lay.type_size, 4.5, lay.type_line.w)
            if size is None:
                where = (f"game.toml, types.{card.type}.label" if card.type in self.game.raw.get("types", {})
                         else self.cell(card, "type"))
                size = RenderError(f"{where}: {label!r} is too long for the type line of a card; "
                                   "shorten it" + ("" if where.startswith("game.toml") else
                                                   " or declare the type in game.toml with a shorter label"))
            self._type_sizes[key] = size
        size = self._type_sizes[key]
        if isinstance(size, RenderError):
            raise size
        return size

    def _fitted_back(self) -> BackFit:
        """The back's title band and text sizes, or an error naming the game.toml key."""
        if self._back_fit is None:
            back, w, h = self.game.back, self.w, self.h
            fonts.check_glyphs(back.title + back.subtitle, "game.toml, [back] title/subtitle")
            s = min(w / 180.0, h / 252.0)
            band_h = 46 * s if back.subtitle else 34 * s
            band = Rect(w * 0.1, (h - band_h) / 2, w * 0.8, band_h)
            title = fit_line(back.title, fonts.BOLD, 19 * s, 6, band.w - 10 * s)
            if title is None:
                raise RenderError("game.toml, [back] title: too long to fit on the card back; shorten it")
            subtitle = None
            if back.subtitle:
                subtitle = fit_line(back.subtitle, fonts.REGULAR, 7.5 * s, 4.5, band.w - 10 * s)
                if subtitle is None:
                    raise RenderError("game.toml, [back] subtitle: too long to fit on the card back; "
                                      "shorten it")
            self._back_fit = BackFit(band, s, title, subtitle)
        return self._back_fit

    def face(self, canvas, card) -> str:
        key = f"face{card.row}"
        if key not in self._forms:
            self._begin(canvas, key)
            self._draw_face(canvas, card)
            canvas.endForm()
            self._forms[key] = key
        return key

    def back(self, canvas) -> str:
        if "back" not in self._forms:
            self._begin(canvas, "back")
            self._draw_back(canvas)
            canvas.endForm()
            self._forms["back"] = "back"
        return "back"

    def _begin(self, canvas, name: str) -> None:
        b = self.bleed
        canvas.beginForm(name, lowerx=-b, lowery=-b, upperx=self.w + b, uppery=self.h + b)

    def _draw_face(self, canvas, card) -> None:
        fit = self._fitted(card)
        lay = fit.lay
        colour = card.color or self.game.types[card.type].color
        b = self.bleed
        canvas.setFillColor(HexColor(colour))
        canvas.rect(-b, -b, self.w + 2 * b, self.h + 2 * b, fill=1, stroke=0)
        p = lay.panel
        radius = 5 * lay.scale
        canvas.setFillColor(PANEL)
        canvas.setStrokeColor(mix(colour, "#000000", 0.35))
        canvas.setLineWidth(0.8 * lay.scale)
        canvas.roundRect(p.x, p.y, p.w, p.h, radius, fill=1, stroke=1)
        self._draw_name(canvas, fit)
        art = self.art.find(card.art, self.cell(card, "art")) if card.art else None
        if card.art:
            draw_art(canvas, art, lay.art, card.art)
        else:
            self._draw_plain_art(canvas, lay, colour)
        if fit.text is not None:
            flow, height = fit.text
            box = lay.text
            flow.drawOn(canvas, box.x, box.y + (box.h - height) / 2)
        elif fit.big_value_size is not None:
            self._big_value(canvas, card.value, lay, colour, fit.big_value_size)
        if fit.value_size is not None:
            self._badge(canvas, lay.corner_top, card.value, colour, lay, fit.value_size, upright=True)
            self._badge(canvas, lay.corner_bottom, card.value, colour, lay, fit.value_size, upright=False)
        self._draw_type_line(canvas, card, lay, colour, fit.type_size)

    def _draw_name(self, canvas, fit: FaceFit) -> None:
        box, size, lines = fit.name_box, fit.name_size, fit.name_lines
        canvas.setFillColor(INK)
        canvas.setFont(fonts.BOLD, size)
        leading = size * 1.08
        first = box.y + (box.h - size * 0.72) / 2 + leading * (len(lines) - 1) / 2
        for i, line in enumerate(lines):
            canvas.drawCentredString(box.x + box.w / 2, first - i * leading, line)

    def _draw_plain_art(self, canvas, lay: FaceLayout, colour: str) -> None:
        box = lay.art
        canvas.setFillColor(mix(colour, "#ffffff", 0.82))
        canvas.roundRect(box.x, box.y, box.w, box.h, 4 * lay.scale, fill=1, stroke=0)

    def _big_value(self, canvas, value: str, lay: FaceLayout, colour: str, size: float) -> None:
        box = lay.text
        canvas.setFillColor(mix(colour, "#ffffff", 0.1))
        canvas.setFont(fonts.BOLD, size)
        canvas.drawCentredString(box.x + box.w / 2, box.y + (box.h - size * 0.72) / 2, value)

    def _badge(self, canvas, box: Rect, value: str, colour: str, lay: FaceLayout, size: float,
               upright: bool) -> None:
        canvas.saveState()
        cx, cy = box.x + box.w / 2, box.y + box.h / 2
        canvas.translate(cx, cy)
        if not upright:
            canvas.rotate(180)
        canvas.setFillColor(HexColor(colour))
        canvas.setStrokeColor(PANEL)
        canvas.setLineWidth(1.2 * lay.scale)
        canvas.circle(0, 0, box.w / 2, fill=1, stroke=1)
        canvas.setFillColor(white)
        canvas.setFont(fonts.BOLD, size)
        canvas.drawCentredString(0, -size * 0.36, value)
        if reads_differently_turned(value):       # 6 or 9? the underline says which way is up
            half = stringWidth(value, fonts.BOLD, size) / 2
            canvas.setStrokeColor(white)
            canvas.setLineWidth(size * 0.08)
            canvas.line(-half, -size * 0.5, half, -size * 0.5)
        canvas.restoreState()

    def _draw_type_line(self, canvas, card, lay: FaceLayout, colour: str, size: float) -> None:
        box = lay.type_line
        label = self.game.types[card.type].label.upper()
        canvas.setFillColor(mix(colour, "#000000", 0.15))
        canvas.setFont(fonts.BOLD, size)
        canvas.drawCentredString(box.x + box.w / 2, box.y + (box.h - size * 0.72) / 2, label)

    def _draw_back(self, canvas) -> None:
        back, b, w, h = self.game.back, self.bleed, self.w, self.h
        canvas.setFillColor(HexColor(back.color))
        canvas.rect(-b, -b, w + 2 * b, h + 2 * b, fill=1, stroke=0)
        if back.art:
            path = self.art.find(back.art, "game.toml, [back] art")
            draw_art_to_bleed(canvas, path, Rect(0, 0, w, h), b, back.art)
        fit = self._fitted_back()
        band, s = fit.band, fit.scale
        canvas.setFillColor(HexColor(back.color))
        canvas.setStrokeColor(HexColor(back.accent))
        canvas.setLineWidth(1.4 * s)
        canvas.roundRect(band.x, band.y, band.w, band.h, 6 * s, fill=1, stroke=1)
        canvas.setFillColor(HexColor(back.text_color))
        canvas.setFont(fonts.BOLD, fit.title_size)
        title_y = band.y + band.h / 2 - fit.title_size * 0.36 + (6 * s if back.subtitle else 0)
        canvas.drawCentredString(w / 2, title_y, back.title)
        if fit.subtitle_size is not None:
            canvas.setFillColor(HexColor(back.accent))
            canvas.setFont(fonts.REGULAR, fit.subtitle_size)
            canvas.drawCentredString(w / 2, title_y - fit.subtitle_size * 1.9, back.subtitle)
