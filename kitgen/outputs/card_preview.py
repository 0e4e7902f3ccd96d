"""One card as a picture with each of its boxes outlined and named, and what each text box was fitted
to: what ``kitgen preview`` writes, and what the served preview's outline switch and card panel show.

:func:`box_notes` says where each box of a card's face (or back) lies and, for a text, the type size
it was fitted to, the fallback change it needed and the warnings that name it; :func:`outlined`
draws the outlines over the card as printed (rasterised from the kit's own card painter).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from kitgen.errors import OptionError
from kitgen.units import to_mm

OUTLINE = (220, 30, 120)           # the outlines and names: a magenta no card design is likely to use
LABEL_GROUND = (255, 255, 255, 190)    # under a name: the card shows through a little
PREVIEW_DPI = 150


@dataclass(frozen=True)
class BoxNote:
    """A box as drawn on one card: its place (points from the trim's top-left corner) and, for a text
    box, the type size its text fits at and the fallback change it took (``step`` of ``steps``)."""

    name: str
    kind: str
    x: float
    y: float
    w: float
    h: float
    size: float | None = None
    step: int = 0
    steps: int = 0
    change: str = ""                    # the keys that fallback change sets, as the layout writes them
    warnings: tuple[str, ...] = ()

    def describe(self) -> str:
        """One line: the box, its place in mm, and for a text its size and fallback."""
        place = f"{to_mm(self.x):.1f}, {to_mm(self.y):.1f} mm, {to_mm(self.w):.1f} x {to_mm(self.h):.1f} mm"
        line = f"{self.name} ({self.kind}) at {place}"
        if self.size is not None:
            line += f": {round(self.size, 2):g} pt"
            line += f", fallback {self.step} of {self.steps} ({self.change})" if self.step else ", no fallback"
        return line

    def as_data(self, width: float, height: float) -> dict:
        """Plain data for a page: the place as shares of the card's width and height."""
        return {"name": self.name, "kind": self.kind, "x": round(self.x / width, 5), "y": round(self.y / height, 5),
                "w": round(self.w / width, 5), "h": round(self.h / height, 5), "size": self.size,
                "step": self.step, "steps": self.steps, "change": self.change, "warnings": list(self.warnings)}


def box_notes(painter, card, back: bool = False) -> list[BoxNote]:
    """Every box drawn on ``card``'s face (or back), in drawing order; boxes reaching into the bleed at
    the trim."""
    drawn = painter.drawn(card, back)
    layout = painter.game.back_of(card) if back else painter.game.face_of(card)
    notes = []
    for d in drawn:
        place = _trimmed(d.place, painter.width, painter.height)
        fallback = d.box.fallback
        change = ""
        if d.step:
            keys = {**{k: s.source for k, s in fallback[d.step - 1].items()},
                    **{f"vars.{k}": s.source for k, s in d.box.fallback_vars[d.step - 1].items()}}
            change = ", ".join(f"{k} = {v!r}" if isinstance(v, str) else f"{k} = {v}" for k, v in keys.items())
        notes.append(BoxNote(d.box.name, d.box.kind, place.x, place.y, place.w, place.h,
                             d.text.size if d.text is not None else None, d.step, len(fallback), change,
                             _warnings(painter.warnings, layout.name, d.box.name, card)))
    return notes


def _trimmed(place, width: float, height: float):
    """A place cut to the trim (a background reaches into the bleed)."""
    from kitgen.layout.card_boxes import Place

    x0, y0 = max(place.x, 0.0), max(place.y, 0.0)
    return Place(x0, y0, min(place.right, width) - x0, min(place.bottom, height) - y0)


def _warnings(warnings: list[str], layout: str, box: str, card) -> tuple[str, ...]:
    """The warnings that name the box: those of this card, and those of the layout said once for all."""
    named = f"layout '{layout}', box '{box}'"
    rows = ("(row ", ", row ")
    return tuple(w for w in warnings if named in w and (f"row {card.row}," in w or not any(r in w for r in rows)))


def outlined(painter, card, back: bool = False, dpi: int = PREVIEW_DPI, outline: bool = True):
    """The card's face (or back) at ``dpi`` as a Pillow image, each box outlined and named."""
    from PIL import ImageDraw, ImageFont

    from kitgen.outputs.card_pages import CardPage, card_pdf
    from kitgen.outputs.raster import PageJob, rasterise
    from kitgen.render.fonts import FONT_DIR

    width, height = painter.width, painter.height
    pixels = (max(1, round(width / 72 * dpi)), max(1, round(height / 72 * dpi)))
    pdf = card_pdf(painter, [CardPage(card, back=back)], "preview", "a card and its boxes")
    image = rasterise(pdf, [PageJob(0, *pixels)])[0].convert("RGB")
    if not outline:
        return image
    k = dpi / 72
    image = image.convert("RGBA")
    draw = ImageDraw.Draw(image, "RGBA")
    label = ImageFont.truetype(os.path.join(FONT_DIR, "DejaVuSans.ttf"), max(9, round(dpi / 15)))
    line = max(1, round(dpi / 100))
    notes = box_notes(painter, card, back)
    for note in notes:
        x0, y0 = note.x * k, note.y * k
        draw.rectangle((x0, y0, x0 + max(note.w * k, 1), y0 + max(note.h * k, 1)), outline=OUTLINE, width=line)
    taken: list[tuple] = []
    for note in notes:                  # each name in its box's top-left corner, below the names already there
        tx, ty = note.x * k + 2 * line, note.y * k + line
        box = draw.textbbox((tx, ty), note.name, font=label)
        if box[2] > image.width - line:        # a box at the right edge: its name ends at the edge
            tx = max(line, tx - (box[2] - image.width + 2 * line))
            box = draw.textbbox((tx, ty), note.name, font=label)
        while any(box[0] < t[2] and t[0] < box[2] and box[1] < t[3] and t[1] < box[3] for t in taken):
            ty += box[3] - box[1] + 2 * line
            box = draw.textbbox((tx, ty), note.name, font=label)
        taken.append(box)
        draw.rectangle((box[0] - line, box[1] - line, box[2] + line, box[3] + line), fill=LABEL_GROUND)
        draw.text((tx, ty), note.name, fill=OUTLINE, font=label)
    return image.convert("RGB")


def find_card(game, spec: str):
    """The card ``spec`` names: its name (any case), else its row number in the sheet."""
    wanted = spec.strip().casefold()
    named = [c for c in game.cards if c.name.casefold() == wanted]
    if len(named) > 1:
        rows = ", ".join(str(c.row) for c in named)
        raise OptionError("CARD", f"{len(named)} cards are named {spec!r} (rows {rows}); give the row number")
    if named:
        return named[0]
    if wanted.isdigit():
        rows = [c for c in game.cards if c.row == int(wanted)]
        if rows:
            return rows[0]
    near = ", ".join(repr(c.name) for c in game.cards[:5]) + (", ..." if len(game.cards) > 5 else "")
    raise OptionError("CARD", f"no card named {spec!r} and no card on row {spec!r} of the sheet (cards: {near})")


@dataclass
class Preview:
    path: Path
    card: object
    notes: list[BoxNote]
    warnings: list[str]


def write_preview(game: str | Path, spec: str, out: Path, back: bool = False, dpi: int = PREVIEW_DPI,
                  outline: bool = True, card_size: str | None = None) -> Preview:
    """The picture of one card of ``game`` (its face, or its back) with its boxes outlined, written as
    ``out/<game-slug>/preview-<card>[-back].png``."""
    from kitgen.data.values import slugify
    from kitgen.outputs.export_job import ExportOptions, prepare
    from kitgen.outputs.files import write_files
    from kitgen.outputs.raster import png_bytes

    job = prepare(game, ExportOptions(card_size=card_size, dpi=dpi), 0.0, PREVIEW_DPI, full_size_images=True)
    card = find_card(job.game, spec)
    painter = job.painter(0.0)
    image = outlined(painter, card, back, job.dpi, outline)
    name = f"preview-{slugify(card.name, f'row-{card.row}')}{'-back' if back else ''}.png"
    written = write_files(out / job.game.slug, {name: png_bytes(image, job.dpi)})
    return Preview(written[0], card, box_notes(painter, card, back), list(painter.warnings))
