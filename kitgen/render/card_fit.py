"""One card drawn with one layout, worked out before drawing: each box's place, content, style and
the type size its text fits at.

:class:`Arrangement` renders the templates of the layout for the card's row,
places the boxes (:mod:`kitgen.layout.card_boxes`) and fits every text: it
shrinks from the box's ``size`` to its smallest size (``min_size``, never
below ``floor``, which is the same in points at every card size); a text that
still does not fit tries the box's ``fallback`` changes in turn (another place,
two lines, more room taken from a neighbour through the layout's ``vars``), and
only then is refused with a message naming the card.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from kitgen.data.bounded_sandbox import TemplateClock, TemplateCost, TemplateTimeout, bounded_render, template_lines
from kitgen.data.card_context import sources
from kitgen.data.layouts import at_line, parse_value
from kitgen.data.sandbox import TEMPLATE_ERRORS, Lookup, error_text
from kitgen.errors import KitgenError, LimitError, RenderError
from kitgen.layout import lengths
from kitgen.layout.card_boxes import Place, Places, outside_safe_zone, place_problem, with_bleed
from kitgen.layout.card_face import fit_image
from kitgen.layout.geometry import Rect
from kitgen.layout.known import Forgetful, Known, Question, Read, Reads
from kitgen.render import fonts
from kitgen.render.art_frame import frame_depths
from kitgen.render.card_text import ALIGN, PARA_LEADING, TextFit, TextSetting, attempts, needed_width
from kitgen.render.images import image_size
from kitgen.render.rich_text import LineSetter, Run, icon_names, parse, plain_text, unread_markers, unread_tags
from kitgen.render.text_fit import largest_fit
from kitgen.units import MM, to_mm

DEFAULT_FLOOR = 6.0               # no text prints smaller, unless a box says so (points)
FALSY = ("", "false", "no", "none")
_PARSED: dict[tuple[str, str], Any] = {}


class Overflow(Exception):
    """A box's text does not fit at this fallback step; ``error()`` says so when it is the last (worked
    out only then: a text that fits at a later step never needs the message's measurements)."""

    def __init__(self, box, error: Callable[[], KitgenError]):
        self.box, self.error = box, error


@dataclass
class _Unfit:
    """A text set a way at which it fits at no size: what the message saying so measures (the width it
    needs, worked out when the message is first asked for)."""

    pieces: list
    icons: dict
    need: float | None = None


@dataclass
class Drawn:
    """A box as it will be drawn on this card: place in points (top-left origin, bleed applied)."""

    box: Any
    place: Place
    content: str
    style: dict[str, Any]
    text: TextFit | None = None
    inner: Place | None = None       # the place less padding, without bleed
    where: str = ""                  # where its content comes from, for messages
    step: int = 0                    # the fallback changes it took (what it looks like says the same)

    def signature(self) -> tuple:
        """What the drawing looks like, to tell apart two backs."""
        text = (self.text.size, repr(self.text.lines)) if self.text else None
        return (self.box.name, self.place, self.content, tuple(sorted(self.style.items(), key=lambda kv: kv[0])), text)


class _VarTexts(Mapping):
    """A layout's vars as templates read them (``vars.colour``): each one's text for this card."""

    def __init__(self, arrangement):
        self.arrangement = arrangement

    def __getitem__(self, name):
        layout = self.arrangement.layout
        if name not in layout.vars:
            raise KeyError(name)
        setting = layout.vars[name]
        if setting.constant:
            return str(setting.source)
        return self.arrangement.render(setting, None, f"vars.{name}")

    def __iter__(self):
        return iter(self.arrangement.layout.vars)

    def __len__(self):
        return len(self.arrangement.layout.vars)


class Arrangement:
    """The boxes of ``layout`` for ``card`` (None: a drawing that reads no row) at a card size."""

    def __init__(self, painter, layout, card, context: dict, caps: dict[str, float] | None = None,
                 alone: bool = False):
        self.painter, self.layout, self.card, self.context = painter, layout, card, context
        self.alone = alone                 # nothing taken from earlier cards' places and boxes
        self.caps = caps or {}
        self.scale = painter.scale_for(layout)
        self.names = {b.name for b in layout.boxes}
        self.by_name = {b.name: b for b in layout.boxes}
        self.steps = {b.name: 0 for b in layout.boxes}        # box -> the fallback changes applied to it
        self._values: dict[tuple, tuple[Any, str | None]] = {}   # (box, key, step) -> (value, its template's text)
        self._constants = painter.constants.setdefault(layout.name, {})    # the same for every card
        self.fitted: dict[str, tuple[int, float]] = {}   # box -> (fallback step, size) its text fits at
        self.reads = Reads()               # what the value being worked out reads that may differ from card to card
        self.clock = TemplateClock()       # the processor time this card's templates may take
        # worked out again for each attempt at the fallback steps (see _begin)
        self._fits: dict[str, tuple[TextFit, tuple[Read, ...]]] = {}    # box -> (its fit, what the fit read)
        self._vars: dict[str, tuple[Any, Any]] = {}                     # name -> (its length tree, its text)
        self.places: Places | None = None
        self.known_boxes: Known | None = None
        self._safe: float | None = None

    # --- settings ----------------------------------------------------------------------

    def where(self, box, setting=None) -> str:
        """How a message names the place of a problem: the cell(s) a value came from, else the layout."""
        card, painter = self.card, self.painter
        found = sources(setting, card, painter.game) if setting is not None and not setting.constant else []
        columns = [s for s in found if s.startswith(("column", "[columns]"))]
        if columns and card is not None:
            return f"{painter.source}, row {card.row}, {', '.join(columns)} ({card.label})"
        if found:
            return f"{painter.toml}, {', '.join(found)}"
        return self.in_layout(box)

    def layout_error(self, box, message: str, key: str | None = None) -> RenderError:
        """A mistake of the layout itself, met on this card first: reported once, not once per card."""
        error = RenderError(f"{self.in_layout(box, key)}: {message}")
        error.same_as = (self.layout.name, box.name, key, message)
        return error

    def in_layout(self, box, key: str | None = None, line: int | None = None, source: str = "") -> str:
        file = at_line(box.file or self.layout.file, source, line) if line else (box.file or self.layout.file)
        text = f"{file}, layout '{self.layout.name}', box '{box.name}'" + (f", key '{key}'" if key else "")
        if self.card is not None:
            text += f" (row {self.card.row}, {self.card.label})"
        return text

    def render(self, setting, box, key: str) -> str:
        """The setting's template rendered for this card: once for each set of the values it reads
        (a template is a function of them), so the colour of 3 types renders 3 times in 10,000 cards."""
        rendered = self.painter.rendered
        values = _values_read(setting, self.context) if self.painter.share else None
        if values is not None:
            text = rendered.get((id(setting), values))
            if text is None:
                text = rendered[(id(setting), values)] = self._render(setting, box, key)
            return text
        return self._render(setting, box, key)

    def _render(self, setting, box, key: str) -> str:
        costly = self.painter.costly.get(id(setting))
        if costly is not None:            # it ran out of time or room on an earlier card: not tried again
            raise costly
        try:
            values = {n: self.context[n] for n in setting.names if n in self.context}
            if "vars" in setting.names:
                values["vars"] = _VarTexts(self)
            if setting.template.__class__ is Lookup:     # one value looked up: nothing to bound
                return setting.template.render(values)
            with bounded_render(), self.clock:
                return setting.template.render(values)
        except KitgenError:
            raise
        except TemplateTimeout as exc:
            raise self._costly(setting, box, key, exc, f"template still rendering after {self.clock.seconds:g} s "
                               "of processor time (a loop too long?); kitgen stops a card's templates there "
                               "(KITGEN_TEMPLATE_SECONDS)") from None
        except MemoryError as exc:
            raise self._costly(setting, box, key, exc, "out of memory while rendering this template (a value too "
                               "large?); kitgen allows itself KITGEN_MEMORY_MB megabytes") from None
        except TEMPLATE_ERRORS as exc:
            if isinstance(exc, TemplateCost):
                raise self._costly(setting, box, key, exc, error_text(exc)) from None
            raise RenderError(f"{self._template_at(setting, box, key, exc)}: {error_text(exc)}") from None

    def _template_at(self, setting, box, key: str, exc: BaseException) -> str:
        """The template of ``setting`` as a message names it: file, line, layout, box or vars, and card."""
        line = next((line for file, line in reversed(template_lines(exc.__traceback__)) if file == "<template>"),
                    None)
        if box is not None:
            return self.in_layout(box, key, line, setting.source)
        card = f" (row {self.card.row}, card {self.card.name!r})" if self.card is not None else ""
        return f"{at_line(self.layout.file, setting.source, line)}, layout '{self.layout.name}', {key}{card}"

    def _costly(self, setting, box, key: str, exc: BaseException, message: str) -> LimitError:
        """A template that ran out of time or room: refused at once, and on every later card without
        running it again (it would cost as much each time)."""
        error = LimitError(message, file=self._template_at(setting, box, key, exc))
        self.painter.costly[id(setting)] = error
        return error

    def value(self, box, key: str) -> Any:
        """A setting of ``box`` at its fallback step, parsed (a template's is noted among the reads)."""
        value, text = self._setting(box.name, key)
        if text is not None:
            self.reads.note(Read(Question("setting", box.name, key), text))
        return value

    def _setting(self, name: str, key: str) -> tuple[Any, str | None]:
        """(parsed value, the text its template gave, or None for a constant) of a box's setting: every
        per-card value of a box is read through here (see :mod:`kitgen.layout.known`)."""
        at = (name, key, self.steps[name])
        found = self._values.get(at) or self._constants.get(at)
        if found is None:
            box = self.by_name[name]
            setting = box.get(key, at[2])
            if setting is None or setting.constant:        # the same on every card: kept for them all
                found = self._constants[at] = (None if setting is None else setting.value, None)
            else:
                text = self.render(setting, box, key)
                found = self._values[at] = (self._parse(key, text, box, setting), text)
        return found

    def _parse(self, key: str, text: str, box, setting) -> Any:
        if key in ("content", "when", "font"):
            return text
        cached = _PARSED.get((key, text))
        if cached is None:
            try:
                cached = parse_value(key, text)
            except ValueError as exc:
                raise RenderError(f"{self.where(box, setting)}: {self.about(box)}, key '{key}': {exc}") from None
            _PARSED[(key, text)] = cached
        return cached

    def about(self, box) -> str:
        return f"box '{box.name}' of layout '{self.layout.name}'"

    def var(self, name: str) -> tuple[Any, Any]:
        """A named value's length tree, and the text its template gave (None: the same tree on every
        card), by which :class:`Places` tells cards apart."""
        if name not in self._vars:
            self._vars[name] = self._var(name)
        return self._vars[name]

    def _var(self, name: str) -> tuple[Any, Any]:
        setting = None
        for box in self.layout.boxes:
            for i in range(self.steps[box.name]):
                if name in box.fallback_vars[i]:
                    setting = box.fallback_vars[i][name]
        setting = setting or self.layout.vars[name]
        if setting.constant:
            return setting.value, None
        text = self.render(setting, None, f"vars.{name}")
        key = ("var", text)
        if key not in _PARSED:
            try:
                _PARSED[key] = parse_value("var", text)
            except ValueError as exc:
                raise RenderError(f"{self.layout.file}, layout '{self.layout.name}', vars.{name}: {exc}") from None
        return _PARSED[key], text

    # --- the whole card -----------------------------------------------------------------

    def arrange(self) -> list[Drawn]:
        """Every box shown on the card, fitted, in drawing order; RenderError for what cannot print."""
        return self._until_fitted(self._attempt)

    def sizes(self, names: list[str]) -> dict[str, tuple[int, float]]:
        """Only the boxes ``names`` fitted (and what they depend on): box -> (fallback step, type size)."""
        def attempt():
            self._begin()
            for name in names:
                box = self.by_name[name]
                if self.shown(box):
                    try:
                        self.fit(box)
                    except lengths.LengthError as exc:
                        raise self.layout_error(box, str(exc)) from None
            return self.fitted
        return self._until_fitted(attempt)

    def _begin(self) -> None:
        """A fresh start at the current fallback steps: nothing of an attempt that overflowed is kept."""
        p = self.painter
        self._fits, self._vars = {}, {}
        steps = tuple(self.steps.values())
        alone = self.alone or not p.share
        places = Forgetful() if alone else p.known(("places", self.layout.name, steps))
        self.places = Places(p.width, p.height, self.scale, self.names, self._setting, self.var, self._size_of,
                             places, self.reads, self.safe_inset())
        self.known_boxes = Forgetful() if alone else p.known(("boxes", self.layout.name, steps))

    def _until_fitted(self, attempt):
        while True:
            try:
                return attempt()
            except Overflow as over:
                box = over.box
                if self.steps[box.name] >= len(box.fallback):
                    error = over.error()
                    error.same_as = (self.layout.name, box.name, self.content(box))   # one problem, not one per card
                    raise error from None
                self.steps[box.name] += 1

    def _attempt(self) -> list[Drawn]:
        """Every box arranged: as on an earlier card that read the same for it, else worked out."""
        self._begin()
        drawn = []
        for box in self.layout.boxes:
            try:
                found = self.known_boxes.find(box.name, self.places.answer)
            except lengths.LengthError as exc:      # met asking what the box reads, as in working it out
                raise self.layout_error(box, str(exc)) from None
            if found is None:
                with self.reads.recording() as noted:
                    arranged = self._box(box), self._fits.get(box.name)
                self.known_boxes.add(box.name, tuple(noted), arranged)
            else:
                arranged = found[0]
            shown, fit = arranged
            if fit is not None:
                self._fits[box.name] = fit
                self.fitted[box.name] = (self.steps[box.name], fit[0].size)
            if shown is not None:
                if box.kind in ("image", "icons"):      # its messages name this card's row
                    shown = replace(shown, where=self.where(box, box.get("content", self.steps[box.name])))
                    self._find_pictures(shown)
                drawn.append(shown)
        return drawn

    def _find_pictures(self, drawn: Drawn) -> None:
        """The art of an image box, the icons of an icons box, looked up as drawing them will: what cannot be
        drawn (a path leading out of the game folder, a damaged file) is met here, in validate too."""
        from kitgen.render.card_draw import icon_box_names

        p = self.painter
        if drawn.box.kind == "image":
            p.art.find(drawn.content.strip(), drawn.where)
        else:
            for name in icon_box_names(drawn.content):
                p.icon(name, drawn.where)

    def _box(self, box) -> Drawn | None:
        """``box`` arranged on this card (None: not shown)."""
        p = self.painter
        if not self.shown(box):
            return None
        try:
            place = self.places.place(box.name)
        except lengths.LengthError as exc:
            raise self.layout_error(box, str(exc)) from None
        problem = place_problem(place, p.width, p.height, box.kind)
        if problem:
            raise self.layout_error(box, problem)
        keys = set(box.settings).union(*box.fallback[:self.steps[box.name]])
        style = {k: self.value(box, k) for k in keys if k not in ("x", "y", "w", "h", "content", "when")}
        try:
            for key in ("radius", "stroke_width", "gap"):
                if style.get(key) is not None:
                    style[key] = self.places.length(style[key], None, 1.0)
        except lengths.LengthError as exc:
            raise self.layout_error(box, str(exc)) from None
        content = self.content(box)
        try:                    # a place that cannot be computed, met only now: this box's problem
            text = self.fit(box) if box.kind == "text" else None
            inner = self.inner(box)
        except lengths.LengthError as exc:
            raise self.layout_error(box, str(exc)) from None
        if box.kind == "image" and self.layout.name in p.back_layouts():
            self._back_art(box, content.strip(), inner, style)
        if style.get("bleed"):
            place = with_bleed(place, p.width, p.height, p.bleed)
        else:
            self._safe_zone(box, place, style)
        return Drawn(box, place, content, style, text, inner, step=self.steps[box.name])

    def _back_art(self, box, name: str, inner: Place, style: dict) -> None:
        """Warn when a back's picture is cropped to fill its box, or when a frame drawn in it lies
        nearer the cut than the safe zone at this card size."""
        p = self.painter
        path = p.art.find(name, self.where(box, box.get("content", self.steps[box.name])))
        if path is None:
            return
        w, h = image_size(path)
        cover = style.get("fit") == "cover"
        drawn = fit_image(Rect(inner.x, inner.y, inner.w, inner.h), w, h, cover)
        size = f"{to_mm(p.width):g} x {to_mm(p.height):g} mm"
        lost = max(drawn.w - inner.w, drawn.h - inner.h)
        if lost > 0.5 * MM:
            across = "width" if drawn.w - inner.w > drawn.h - inner.h else "height"
            p.warn((self.layout.name, box.name, "cropped", name),
                   f"{self.in_layout(box)}: its picture {name!r} is cropped to fill the box at this card size "
                   f"({size}): {to_mm(lost):.1f} mm of its {across} is cut off, and any frame drawn in it with "
                   'it; fit = "contain" shows it whole')
        depths = frame_depths(path)
        if depths is None:
            return
        left, top, right, bottom = depths
        lines = (drawn.x + left * drawn.w, drawn.y + top * drawn.h,
                 p.width - (drawn.x1 - right * drawn.w), p.height - (drawn.y1 - bottom * drawn.h))
        nearest = min(lines)
        inset = self.safe_inset()
        if nearest < inset - 0.05 * MM:
            p.warn((self.layout.name, box.name, "frame", name),
                   f"{self.in_layout(box)}: the frame drawn in its picture {name!r} lies "
                   f"{to_mm(max(nearest, 0)):.1f} mm inside the cut at this card size ({size}), nearer than the "
                   f"safe zone ({to_mm(inset):g} mm), where the cut may take it off or leave it uneven; draw the "
                   "frame in the layout (a box with a stroke) and keep the picture inside it")

    def safe_inset(self) -> float:
        """The layout's safe zone: how far inside the trim text and borders keep (points, never scaled);
        worked out once per card (every attempt and every text or bordered box asks it)."""
        if self._safe is None:
            self._safe = lengths.points(lengths.evaluate(self.layout.safe.value, lambda n, a: (0.0, 0), 1.0, None),
                                        1.0, MM)
        return self._safe

    def _safe_zone(self, box, place: Place, style: dict) -> None:
        if box.kind not in ("text", "icons") and not style.get("stroke"):
            return
        inset = self.safe_inset()
        past = outside_safe_zone(place, self.painter.width, self.painter.height, inset)
        if past > 0.05:
            what = "text" if box.kind in ("text", "icons") else "border"
            self.painter.warn((self.layout.name, box.name),
                              f"{self.in_layout(box)}: its {what} reaches {to_mm(past):.1f} mm past the safe zone "
                              f"({to_mm(inset):g} mm inside the trim), where the cut may take it off")

    def shown(self, box) -> bool:
        when = box.settings.get("when")
        if when is not None and self.value(box, "when").strip().lower() in FALSY:
            return False
        if "content" in box.settings or box.kind in ("text", "image", "icons"):
            return bool(self.content(box).strip())
        return True

    def content(self, box) -> str:
        text = self.value(box, "content") or "" if "content" in box.settings else ""
        if text and box.kind in ("text", "icons"):
            text = self.painter.with_icons(text)
            if box.kind == "text" and ":" in text:
                text = self.painter.without_missing_icons(text, _Where(self, box))
        return text

    # --- text ------------------------------------------------------------------------------

    def _size_of(self, name: str) -> float:
        """The type size of a box's text, for :class:`Places` (which notes the size alone as the read)."""
        box = self.by_name[name]
        return self.fit(box).size if self.shown(box) else 0.0

    def fit(self, box) -> TextFit:
        """The text of ``box`` at the largest size it fits at, or Overflow.  Texts set the same way
        in the same room (a type's label, a cost, a rules text shared by many cards) are fitted once
        per painter."""
        if box.name in self._fits:
            fitted, reads = self._fits[box.name]
        else:
            with self.reads.recording() as noted:
                fitted = self._fit(box)
            reads = tuple(noted)
            self.fitted[box.name] = (self.steps[box.name], fitted.size)
            self._fits[box.name] = fitted, reads
        self.reads.add(reads)
        return fitted

    def _fit(self, box) -> TextFit:
        p = self.painter
        where = _Where(self, box)
        self._markers(box, where)
        bold, italic = bool(self.value(box, "bold")), bool(self.value(box, "italic"))
        family = self.value(box, "font") or fonts.DEFAULT_FAMILY
        if not p.fonts.has(family):
            raise self.layout_error(box, f"no font named {family!r} (fonts: {', '.join(p.fonts.names())}; "
                                         "a game's own go in its fonts/ folder)", "font")
        if p.fonts.files:                 # the game has fonts of its own: one may have what this one lacks
            family = self._covering(box, family, bold, italic)
        try:
            text_setting = self._text_setting(box, family, bold, italic)
        except (lengths.LengthError, KitgenError, Overflow) as exc:
            text_setting, problem = None, exc     # raised once the text's own checks are done, as they come first
        fitted = p.fitted_texts.get(text_setting) if text_setting is not None and p.share else None
        if fitted is None:
            pieces = parse(self.content(box), bold, italic)
            names = icon_names(pieces)
            icons = {name: p.icon(name, str(where)) for name in names} if names else {}
            for style in sorted({(r.bold, r.italic) for r in pieces if hasattr(r, "bold")}):
                missing = fonts.missing_glyphs(plain_text(pieces, style), p.fonts.face(family, *style))
                if missing:
                    raise RenderError(f"{self._holding(box, missing[0], where)}: {fonts.glyph_problem(missing)}")
            if text_setting is None:
                raise problem
            fitted = largest_fit(attempts(text_setting, pieces, icons, p.fonts), text_setting.top, text_setting.low)
            if fitted is None:              # fits at no size: kept too, as a later card set the same way fails alike
                fitted = _Unfit(pieces, icons)
            if p.share:
                p.fitted_texts[text_setting] = fitted
        if isinstance(fitted, _Unfit):
            unfit = fitted
            raise Overflow(box, lambda: self._too_long(box, where, unfit, text_setting))
        return fitted

    def _covering(self, box, family: str, bold: bool, italic: bool) -> str:
        """``family``, or when it lacks a character of the box's text, the first family of the game's
        fonts/ that has them all (a Chinese name in a deck laid out in DejaVu Sans)."""
        p = self.painter
        key = (family, self.content(box), bold, italic)
        if key not in p.covering:
            pieces = parse(key[1], bold, italic)
            texts = {(r.bold, r.italic): "" for r in pieces if isinstance(r, Run)}
            for r in pieces:
                if isinstance(r, Run):
                    texts[r.bold, r.italic] += r.text
            lacking = any(fonts.missing_glyphs(t, p.fonts.face(family, *style)) for style, t in texts.items())
            p.covering[key] = (p.fonts.covering(texts) or family) if lacking else family
        return p.covering[key]

    def _holding(self, box, ch: str, where) -> str:
        """Where the character ``ch`` of a box's text comes from: the one column (or [columns] key) whose
        value holds it, as the designer wrote it, else where the box's text comes from."""
        setting = box.get("content", self.steps[box.name])
        if setting is not None and not setting.constant and self.card is not None:
            for name in sorted(setting.names):
                value = self.context.get(name)
                members = tuple((n, m) for n, m in setting.members if n == name)
                if name == "fields":
                    members = tuple((n, m) for n, m in members if ch in str(self.card.fields.get(m, "")))
                    if not members:
                        continue
                elif not (isinstance(value, str) and ch in value):
                    continue
                return self.where(box, _One(frozenset({name}), members))
        return str(where)

    def _markers(self, box, where) -> None:
        """Warn of ``*`` and ``**`` that open or close nothing, and of HTML tags not read: they print as
        written."""
        content = self.content(box)
        if "<" in content:
            tags = list(dict.fromkeys(unread_tags(content)))
            if tags:
                shown = ", ".join(tags[:3]) + (", ..." if len(tags) > 3 else "")
                self.painter.warn(("tags", self.card.row if self.card is not None else None, box.name),
                                  f"{where}: the markup {shown} is not read (kitgen reads <b>, <i>, <br> and <hr>), "
                                  "so it prints as written; a [columns] template can take it out, as "
                                  "{{ Text | striptags }} takes out every tag")
        if "*" not in content:
            return
        unread = unread_markers(content)
        if unread:
            shown = content if len(content) <= 40 else content[:39] + "…"
            marks = " and ".join(sorted(set(unread), key=len, reverse=True))
            self.painter.warn(("markers", self.card.row if self.card is not None else None, box.name),
                              f"{where}: {marks!s} in {shown!r} opens or closes no bold or italic type, so it prints "
                              "as written; pair it (**bold**, *italic*, ***both***) or write \\* for an asterisk")

    def _text_setting(self, box, family: str, bold: bool, italic: bool) -> TextSetting:
        """How the text of ``box`` is to be set on this card: all that its fit depends on.  A length of
        the type sizes that cannot be computed is the box's problem; its place's, the place's."""
        places = self.places
        lines = self.value(box, "lines")
        width = self.inner_w(box)
        height = (lambda: self.inner_h(box))
        try:
            size_expr = self.value(box, "size")
            top = (places.length(size_expr, height() if _has_percent(size_expr) else None, 1.0)
                   if size_expr is not None else 10.0 * self.scale)
            low = self.value(box, "min_size")
            low = places.length(low, height() if _has_percent(low) else None, 1.0) if low is not None else 0.0
            floor_expr = self.value(box, "floor")
            floor = (lengths.points(lengths.evaluate(floor_expr, lambda n, a: (0.0, 0), 1.0, None), 1.0, 1.0)
                     if floor_expr is not None else DEFAULT_FLOOR)
        except lengths.LengthError as exc:
            raise self.layout_error(box, str(exc)) from None
        low = max(low, floor)
        cap = self.caps.get((box.name, self.steps[box.name]))
        if cap is not None:
            top = min(top, cap)
            low = min(low, top)
        if lines:
            return TextSetting(self.content(box), family, bold, italic, width, top, low, lines)
        if family != fonts.DEFAULT_FAMILY:
            self.painter.fonts.family(family)
        leading, color = self.value(box, "leading") or PARA_LEADING, self.value(box, "color")
        inner_h = height()
        return TextSetting(self.content(box), family, bold, italic, width, top, low, lines, inner_h, leading,
                           color, ALIGN[self.value(box, "align") or "center"])

    def _too_long(self, box, where, unfit: _Unfit, how: TextSetting) -> RenderError:
        about = self.about(box)
        size, width, lines = how.low, how.width, how.lines
        if not lines:
            return RenderError(f"{where}: the text does not fit {about} even at {size:g} pt; shorten it")
        if unfit.need is None:             # measured once for the cards whose text is set the same way
            font_set = self.painter.fonts
            setter = LineSetter(unfit.pieces, lambda b, i: font_set.face(how.family, b, i), unfit.icons,
                                (how.bold, how.italic))
            unfit.need = needed_width(setter, size, lines)
        need = unfit.need
        count = "one line" if lines == 1 else f"{lines} lines"
        return RenderError(f"{where}: {self.content(box)!r} is too long for {about}: at {size:g} pt on {count} it "
                           f"needs {to_mm(need):.1f} mm and the box is {to_mm(width):.1f} mm wide; shorten it")

    def _pads(self, box) -> tuple:
        """Padding as (top, right, bottom, left) length trees."""
        pad = self.value(box, "padding") or ()
        if len(pad) == 1:
            return pad * 4
        if len(pad) == 2:
            return (pad[0], pad[1], pad[0], pad[1])
        return tuple(pad) or (None,) * 4

    def _pad(self, box, expr, across: str) -> float:
        if expr is None:
            return 0.0
        base = self.places.attr(box.name, across) if _has_percent(expr) else None
        return self.places.length(expr, base, MM)

    def inner_w(self, box) -> float:
        top, right, bottom, left = self._pads(box)
        return self.places.attr(box.name, "w") - self._pad(box, left, "w") - self._pad(box, right, "w")

    def inner_h(self, box) -> float:
        top, right, bottom, left = self._pads(box)
        return self.places.attr(box.name, "h") - self._pad(box, top, "h") - self._pad(box, bottom, "h")

    def inner(self, box) -> Place:
        """The box's place less its padding."""
        place = self.places.place(box.name)
        top, right, bottom, left = self._pads(box)
        x = self._pad(box, left, "w")
        y = self._pad(box, top, "h")
        return Place(place.x + x, place.y + y, self.inner_w(box), self.inner_h(box))


@dataclass(frozen=True)
class _One:
    """One name of a setting's template, for :func:`~kitgen.data.card_context.sources`."""

    names: frozenset
    members: tuple
    constant: bool = False


class _Where:
    """Where a box's content comes from, as a message says it: worked out when a message needs it."""

    def __init__(self, arrangement, box):
        self.arrangement, self.box = arrangement, box

    def __str__(self) -> str:
        a = self.arrangement
        return a.where(self.box, self.box.get("content", a.steps[self.box.name]))

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


_SCALARS = (str, int, float, bool, type(None))
_SAME_FOR_EVERY_CARD = ("back", "game")       # game.toml's, unless a column takes the name: the same on every card


def _values_read(setting, context: dict) -> tuple | None:
    """The values ``setting``'s template reads from ``context``, with their types (1, 1.0 and True
    print differently), as a key; None when one of them is not a plain value (``fields``, ``vars``)."""
    reads = []
    names = setting.names
    for name in (names if len(names) < 2 else sorted(names)):
        if name in _SAME_FOR_EVERY_CARD and context.get(name).__class__ is dict:
            continue                      # the game's own (a column of that name would be a plain value)
        if name not in context:
            if name == "vars":            # the layout's values for this card, at its fallback step
                return None
            reads.append((name, None, None))
            continue
        value = context[name]
        if value.__class__ not in _SCALARS:
            return None
        reads.append((name, value.__class__, value))
    return tuple(reads)


def _has_percent(expr) -> bool:
    if isinstance(expr, lengths.Num):
        return expr.unit == "%"
    return any(_has_percent(e) for e in getattr(expr, "args", ()) or
               [getattr(expr, k) for k in ("arg", "left", "right") if hasattr(expr, k)])
