"""Diagrams drawn into the rulebook: stacks of numbered cards before and after a play, the round's phases.

Positions come from :mod:`kitgen.layout.stack_diagram`; this module only draws.
The values a template passes are checked by :func:`parse_stacks` when the
template calls the function, so a mistake is reported at its template line.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable

from kitgen.errors import GameDataError
from kitgen.layout import stack_diagram as geo
from kitgen.render import fonts
from kitgen.render.colors import CARD_OUTLINE, DIAGRAM_LABEL, DIAGRAM_TITLE, RULEBOOK_INK, mix, readable_on
from kitgen.render.text_fit import fit_line, fit_or_shorten, shorten_line


@dataclass(frozen=True)
class StackCard:
    value: int
    wild: bool = False     # a card of the wild type played as ``value``


UNNUMBERED_TOP = 99   # the highest value of a stack whose cards carry no numbers


@dataclass(frozen=True)
class StackKinds:
    """Which cards a game's stacks are made of: a card type of numbered cards, the type whose cards may
    stand for any value (``"W4"`` or ``"G4"`` in a template), and the highest value a stack reaches."""

    type: str
    wild: str | None
    top: int


def stack_kinds(game, type: str | None = None, wild: str | None = None, what: str = "stack_diagram") -> StackKinds:
    """The stacked cards of ``game``: ``type`` (default: the first card type with numbered cards), ``wild``
    (default: the last other type with numbered cards, if any), values up to the highest number of a
    ``type`` card; a type the game lacks is a GameDataError."""
    numbered = list(dict.fromkeys(c.type for c in game.cards if c.numeric_value is not None))
    for key, given in (("type", type), ("wild", wild)):
        if given is not None and given not in game.types:
            raise GameDataError(f"{what}: {key}={given!r} is not a card type of the game "
                                f"({', '.join(game.types)})")
    type = type or (numbered[0] if numbered else next(iter(game.types)))
    if wild is None:
        wild = next((t for t in reversed(numbered) if t != type), None)
    values = [c.numeric_value for c in game.cards if c.type == type and c.numeric_value]
    return StackKinds(type, wild, max(values) if values else UNNUMBERED_TOP)


def parse_stacks(spec, what: str, kinds: StackKinds, word: str = "stack") -> list[list[StackCard]]:
    """Stacks given as lists of values bottom to top; ``"W4"`` (or ``"G4"``) is a wild card played as 4."""
    top = kinds.top
    if not isinstance(spec, list) or not all(isinstance(t, list) for t in spec):
        raise GameDataError(f"{what}: give a list of {word}s, each a list of card values "
                            "from the bottom up, e.g. [[1, 2], [1, 2, 3]]")
    wild_text = f' or "W<value>" for a wild card ({kinds.wild})' if kinds.wild else ""
    stacks = []
    for t, stack in enumerate(spec, start=1):
        cards = []
        for entry in stack:
            wild = isinstance(entry, str) and entry.strip()[:1].upper() in ("W", "G")
            text = entry.strip()[1:] if wild else entry
            try:
                value = int(text)
            except (TypeError, ValueError):
                raise GameDataError(f"{what}: {word} {t} has {entry!r}; use a value 1-{top}{wild_text}") from None
            if wild and not kinds.wild:
                raise GameDataError(f"{what}: {word} {t} has {entry!r}, but the game has no wild cards")
            if not 1 <= value <= top or isinstance(entry, bool):
                raise GameDataError(f"{what}: {word} {t} has value {entry!r}; values run from 1 to {top}")
            cards.append(StackCard(value, wild))
        stacks.append(cards)
    return stacks


def _hex(color: str):
    return colors.HexColor(color)


def _mix(color: str, weight: float):
    """``color`` blended towards white; weight 0 is white, 1 the colour itself."""
    return mix(colors.white, color, weight)


class StackDiagram(Flowable):
    """One or two rows of stacks (before -> after); cards new in "after" are outlined."""

    TITLE_H = 16.0
    ARROW = 46.0

    def __init__(self, before, after, names: dict[int, str], color: str, wild_color: str, wild_name: str,
                 accent: str, labels: list[str] | None = None, word: str = "Stack"):
        super().__init__()
        self.before, self.after = before, after
        self.names, self.color, self.wild_color, self.accent = names, color, wild_color, accent
        self.wild_name = wild_name
        count = max(len(before), len(after or []))
        self.labels = list(labels or []) + [f"{word} {chr(65 + i)}" for i in range(len(labels or []), count)]
        tallest = max(len(t) for t in (before + (after or []))) if (before or after) else 1
        self.panels = [geo.panel_layout([len(t) for t in before], tallest)]
        if after is not None:
            self.panels.append(geo.panel_layout([len(t) for t in after], tallest))
        self.height_needed = self.TITLE_H + max(p.height for p in self.panels)

    def wrap(self, available_width, available_height):
        natural = sum(p.width for p in self.panels) + self.ARROW * (len(self.panels) - 1)
        self.scale = min(1.0, available_width / natural) if natural else 1.0
        self.width = available_width
        self.height = self.height_needed * self.scale
        return self.width, self.height

    def draw(self):
        c = self.canv
        c.saveState()
        c.scale(self.scale, self.scale)   # a row too wide for the column is drawn smaller
        self._draw(self.width / self.scale, self.height_needed)
        c.restoreState()

    def _draw(self, width, height):
        c = self.canv
        lefts = geo.side_by_side([p.width for p in self.panels], self.ARROW, width)
        stacks = [self.before] + ([self.after] if self.after is not None else [])
        titles = ["Before", "After"] if len(stacks) == 2 else [""]
        for k, (panel, rows, left) in enumerate(zip(self.panels, stacks, lefts)):
            if titles[k]:
                c.setFont(fonts.BOLD, 9.5)
                c.setFillColor(DIAGRAM_TITLE)
                c.drawCentredString(left + panel.width / 2, height - 11, titles[k].upper())
            for card in panel.cards:
                new = k == 1 and (card.stack >= len(self.before) or card.level >= len(self.before[card.stack]))
                self._card(left + card.x, card.y, card.width, card.height,
                           rows[card.stack][card.level], new,
                           top=card.level == len(rows[card.stack]) - 1)
            for box in panel.stacks:
                label = self.labels[box.index] if box.index < len(self.labels) else ""
                label, size = fit_or_shorten(label, fonts.REGULAR, 8, 6, box.width + geo.GAP - 4)
                c.setFont(fonts.REGULAR, size)
                c.setFillColor(DIAGRAM_LABEL)
                c.drawCentredString(left + box.x + box.width / 2, box.label_y, label)
        if len(self.panels) == 2:
            x0 = lefts[0] + self.panels[0].width + 10
            x1 = lefts[1] - 10
            y = (height - self.TITLE_H) / 2 + 6
            c.setStrokeColor(_hex(self.accent))
            c.setFillColor(_hex(self.accent))
            c.setLineWidth(2.2)
            c.line(x0, y, x1 - 7, y)
            path = c.beginPath()
            path.moveTo(x1, y)
            path.lineTo(x1 - 9, y + 5)
            path.lineTo(x1 - 9, y - 5)
            path.close()
            c.drawPath(path, stroke=0, fill=1)

    def _card(self, x, y, w, h, card: StackCard, new: bool, top: bool):
        c = self.canv
        color = self.wild_color if card.wild else self.color
        face, band_fill = _mix(color, 0.10), _hex(color)
        c.saveState()
        c.setFillColor(face)
        c.setStrokeColor(_hex(self.accent) if new else band_fill)
        c.setLineWidth(2.4 if new else 0.9)
        c.roundRect(x, y, w, h, 3.5, stroke=1, fill=1)
        # the value band runs along the bottom edge: the card laid on top covers the
        # rest, so each level of a stack shows as one step with its value
        band = geo.band_box(x, y, w)
        c.setFillColor(band_fill)
        c.roundRect(band.x, band.y, band.w, band.h, 2, stroke=0, fill=1)
        ink = readable_on(band_fill, colors.white)
        value = str(card.value)
        c.setFillColor(ink)
        c.setFont(fonts.BOLD, VALUE_SIZE)
        c.drawString(band.x + geo.BAND_PAD, band.y + (band.h - VALUE_SIZE * 0.72) / 2, value)
        room = geo.name_room(band, stringWidth(value, fonts.BOLD, VALUE_SIZE))
        lines, size = band_label(self.wild_name if card.wild else self.names.get(card.value, ""), room.w, room.h)
        c.setFont(fonts.REGULAR, size)
        lead = size * 1.08
        first = room.y + (room.h + (len(lines) - 1) * lead) / 2 - size * 0.36
        for i, line in enumerate(lines):
            c.drawCentredString(room.x + room.w / 2, first - i * lead, line)
        if top:
            c.setFillColor(readable_on(face, color))
            c.setFont(fonts.BOLD, 26)
            c.drawCentredString(x + w / 2, band.y1 + (y + h - band.y1) / 2 - 12, value)
            if new:
                c.setFont(fonts.BOLD, 7)
                c.setFillColor(readable_on(face, self.accent))
                c.drawCentredString(x + w / 2, y + h - 11, "NEW")
        c.restoreState()


NAME_SIZES = (6.5, 5.0)     # a card's name in its band: largest and smallest size
VALUE_SIZE = 9.5


def band_label(name: str, width: float, height: float) -> tuple[list[str], float]:
    """A card's name fitted to its band: one line shrunk down to 5 pt, else two lines (split at a
    space), else one line shortened with an ellipsis.  Returns the lines and the size."""
    largest, smallest = NAME_SIZES
    size = fit_line(name, fonts.REGULAR, largest, smallest, width)
    if size is not None:
        return [name], size
    words = name.split()
    for size in (largest, 6.0, 5.5, smallest):
        if 2 * size * 1.08 > height + size * 0.3:
            continue
        for cut in range(len(words) - 1, 0, -1):
            lines = [" ".join(words[:cut]), " ".join(words[cut:])]
            if all(stringWidth(line, fonts.REGULAR, size) <= width for line in lines):
                return lines, size
    return [shorten_line(name, fonts.REGULAR, smallest, width, keep_end=False)], smallest


class PhaseDiagram(Flowable):
    """The phases of a round as numbered boxes in rows of four, joined by arrows."""

    BOX_H = 30.0
    ROW_GAP = 12.0
    PER_ROW = 4

    def __init__(self, phases: list[str], color: str, accent: str):
        super().__init__()
        self.phases, self.color, self.accent = [str(p) for p in phases], color, accent
        rows = (len(self.phases) + self.PER_ROW - 1) // self.PER_ROW
        self.height_needed = rows * self.BOX_H + (rows - 1) * self.ROW_GAP + 4

    def wrap(self, available_width, available_height):
        self.width, self.height = available_width, self.height_needed
        return self.width, self.height

    def draw(self):
        c = self.canv
        gap = 16.0
        box_w = (self.width - gap * (self.PER_ROW - 1)) / self.PER_ROW
        for i, name in enumerate(self.phases):
            row, col = divmod(i, self.PER_ROW)
            x = col * (box_w + gap)
            y = self.height - (row + 1) * self.BOX_H - row * self.ROW_GAP
            c.setFillColor(_mix(self.color, 0.12))
            c.setStrokeColor(_hex(self.color))
            c.setLineWidth(0.8)
            c.roundRect(x, y, box_w, self.BOX_H, 4, stroke=1, fill=1)
            c.setFillColor(_hex(self.color))
            c.circle(x + 14, y + self.BOX_H / 2, 9, stroke=0, fill=1)
            c.setFillColor(readable_on(self.color, colors.white))
            c.setFont(fonts.BOLD, 9)
            c.drawCentredString(x + 14, y + self.BOX_H / 2 - 3.2, str(i + 1))
            c.setFillColor(readable_on(_mix(self.color, 0.12), RULEBOOK_INK))
            name, size = fit_or_shorten(name, fonts.BOLD, 9.5, 6, box_w - 34)
            c.setFont(fonts.BOLD, size)
            c.drawString(x + 28, y + self.BOX_H / 2 - size * 0.36, name)
            if col < self.PER_ROW - 1 and i < len(self.phases) - 1:
                ay = y + self.BOX_H / 2
                c.setStrokeColor(_hex(self.accent))
                c.setFillColor(_hex(self.accent))
                c.setLineWidth(1.6)
                c.line(x + box_w + 3, ay, x + box_w + gap - 6, ay)
                p = c.beginPath()
                p.moveTo(x + box_w + gap - 2, ay)
                p.lineTo(x + box_w + gap - 7, ay + 3.5)
                p.lineTo(x + box_w + gap - 7, ay - 3.5)
                p.close()
                c.drawPath(p, stroke=0, fill=1)


CARD_MAX_W = 48 * 72 / 25.4     # a card in the rulebook is at most this wide (points)
CARD_GAP = 16.0                 # between two cards in a row
CARDS_PER_ROW = 4


def card_rows(count: int, width: float, height: float, room: float) -> list[tuple[int, int, float]]:
    """(first, stop, scale) of each row of ``count`` cards shown in a column ``room`` wide:
    as many to a row as fit at a readable size, at most four, all rows at one scale."""
    per_row = min(count, CARDS_PER_ROW)
    scale = min(CARD_MAX_W / width, (room - CARD_GAP * (per_row - 1)) / (per_row * width))
    return [(i, min(i + per_row, count), scale) for i in range(0, count, per_row)]


class CardRow(Flowable):
    """A row of real cards, drawn by the kit's card painter at a reduced scale, centred."""

    def __init__(self, painter, cards, scale: float):
        super().__init__()
        self.painter, self.cards, self.scale = painter, cards, scale

    def wrap(self, available_width, available_height):
        self.width = available_width
        self.height = self.painter.height * self.scale + 6
        return self.width, self.height

    def draw(self):
        c, p = self.canv, self.painter
        w, h = p.width * self.scale, p.height * self.scale
        total = len(self.cards) * w + (len(self.cards) - 1) * CARD_GAP
        x = (self.width - total) / 2
        for card in self.cards:
            form = p.face(c, card)
            c.saveState()
            c.translate(x, 3)
            c.scale(self.scale, self.scale)
            c.doForm(form)
            c.restoreState()
            c.saveState()
            c.setStrokeColor(CARD_OUTLINE)
            c.setLineWidth(0.5)
            c.rect(x, 3, w, h, stroke=1, fill=0)
            c.restoreState()
            x += w + CARD_GAP
