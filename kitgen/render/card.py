"""The one card painter: any card's face and back, drawn from their layouts.

Every face and back is a layout (:mod:`kitgen.data.layouts`; kitgen's own
look is the built-in ``kitgen`` and ``kitgen-back``), arranged for the card
(:mod:`kitgen.render.card_fit`) and drawn once as a PDF form (an XObject)
placed wherever a copy goes: a deck of 80 cards stores one drawing per face,
one per distinct back, and every art image once.
"""

from __future__ import annotations

from kitgen.data.card_context import card_context
from kitgen.data.icons import IconLibrary, escape_missing
from kitgen.errors import RenderError
from kitgen.layout.card_boxes import Known
from kitgen.render import fonts
from kitgen.render.card_draw import draw_boxes
from kitgen.render.card_fit import Arrangement, Drawn
from kitgen.render.rich_text import Icon
from kitgen.settings import switch


class CardPainter:
    """Draws one game's faces and backs at one card size, each distinct drawing once as a PDF form."""

    def __init__(self, game, width: float, height: float, bleed: float, art, source: str):
        fonts.register()
        self.game, self.width, self.height, self.bleed, self.art, self.source = game, width, height, bleed, art, source
        self.share = not switch("KITGEN_NO_MEMO")      # cards take what earlier ones worked out (see known())
        self.toml = f"{game.slug}/game.toml" if game.builtin else str(game.root / "game.toml")   # for messages
        user = not game.builtin
        self.fonts = fonts.FontSet(game.root if user else None)
        self.icons = IconLibrary(game.root if user else None)
        self._icons: dict[str, Icon] = {}
        self._with_icons: dict[str, str] = {}
        self._written: dict[str, str] = {}            # a text -> the same with icons the game lacks written out
        self.rendered: dict[tuple, str] = {}          # (setting, the values its template reads) -> its text
        self.costly: dict[int, Exception] = {}        # setting -> the error of its template out of time or room
        self._known: dict[tuple, Known] = {}          # places and boxes worked out, see known()
        self.constants: dict[str, dict] = {}          # layout -> (box, key, step) -> a setting without a template
        self.fitted_texts: dict = {}                  # TextSetting -> its TextFit, or that it fits at no size
        self.covering: dict[tuple, str] = {}          # (family, text, bold, italic) -> the family that prints it
        self._contexts: dict[int, dict] = {}
        self._faces: dict[int, list[Drawn]] = {}
        self._backs: dict[tuple, list[Drawn]] = {}
        self._back_keys: dict[tuple, int] = {}        # a back's look -> its number
        self._caps: dict[str, dict] = {}              # layout -> (box, fallback step) -> one size for the deck
        self._forms: set[str] = set()
        self.warnings: list[str] = []
        self._errors: dict = {}
        self._warned: set = set()
        self._back_names: frozenset[str] | None = None
        self._contrast_memo: dict = {}                # see card_contrast.problems

    # --- helpers of the arrangement ------------------------------------------------------

    def scale_for(self, layout) -> float:
        """How much the layout's lengths grow or shrink: it was made for ``layout.size``."""
        if layout.size is None:
            return 1.0
        w0, h0 = layout.size
        return min(self.width / w0, self.height / h0)

    def known(self, key: tuple) -> Known:
        """What earlier cards worked out under ``key``: ("places" or "boxes", layout, fallback steps)."""
        if key not in self._known:
            self._known[key] = Known()
        return self._known[key]

    def with_icons(self, text: str) -> str:
        """A box's text with what ``[icons]`` (and the emoji with a built-in twin) stand for made ``:name:``."""
        got = self._with_icons.get(text)
        if got is None:
            got = self._with_icons[text] = self.game.tokens.substitute(text)
        return got

    def without_missing_icons(self, text: str, where) -> str:
        """``text`` with each ``:name:`` the game has no icon for made to print as written, with a warning
        (once for each name) naming ``where`` it was first met, as for art not drawn yet."""
        got = self._written.get(text)
        if got is None:
            got, names = escape_missing(text, lambda name: self.icons.missing(name, str(where)))
            self._written[text] = got
            for name in names:
                self.warn(("icon", name), f"{where}: no icon ':{name}:' in icons/ nor among kitgen's own (see "
                                          f"docs/layouts.md), so it prints as written; add icons/{name}.svg (or "
                                          ".png), or write \\: for a colon that starts no icon")
        return got

    def icon(self, name: str, where: str) -> Icon:
        if name not in self._icons:
            self._icons[name] = Icon(name, self.icons.find(name, where))
        return self._icons[name]

    def back_layouts(self) -> frozenset[str]:
        """The names of the layouts the deck's backs are drawn with."""
        if self._back_names is None:
            self._back_names = frozenset(self.game.back_of(card).name for card in self.game.cards)
        return self._back_names

    def warn(self, key, message: str) -> None:
        if key not in self._warned:
            self._warned.add(key)
            self.warnings.append(message)

    def context(self, card) -> dict:
        key = -1 if card is None else card.row
        if key not in self._contexts:
            self._contexts[key] = card_context(card, self.game)
        return self._contexts[key]

    def arranged(self, layout, card) -> list[Drawn]:
        """The boxes of ``layout`` for ``card``, fitted; the deck's common sizes applied."""
        try:
            caps = self.common_sizes(layout)
            return _alone_if_wrong(lambda alone: Arrangement(self, layout, card, self.context(card), caps,
                                                             alone).arrange())
        except RenderError as exc:
            # the same problem met on many cards (a type's label, the back's title) is reported once
            key = getattr(exc, "same_as", None) or str(exc)
            raise self._errors.setdefault(key, exc) from None

    def common_sizes(self, layout, remembered: dict | None = None, key_of=None) -> dict[tuple[str, int], float]:
        """One type size per box across the deck for boxes with ``same_size``: the smallest size any
        card's text takes in the box's place; cards that need a fallback (two lines, say) share the
        smallest size of the cards that need the same one.

        ``remembered`` (with ``key_of(card)``, what a card's sizes rest on) holds the sizes of cards
        worked out before, by their keys, and gains those worked out now: the served preview works
        out again only the cards that changed."""
        if layout.name not in self._caps:
            boxes = [b.name for b in layout.boxes if b.same_size]
            self._caps[layout.name] = {}
            if boxes:
                sizes: dict[tuple[str, int], float] = {}
                for card in self.game.cards:
                    if layout not in (self.game.face_of(card), self.game.back_of(card)):
                        continue
                    bound = None if layout.card_free else card
                    key = key_of(bound) if remembered is not None else None
                    fitted = remembered.get(key) if key is not None else None
                    if fitted is None:
                        fitted = _alone_if_wrong(lambda alone: Arrangement(self, layout, bound, self.context(bound),
                                                                           alone=alone).sizes(boxes))
                        if key is not None:
                            remembered[key] = fitted
                    for name in boxes:
                        if name in fitted:
                            key = (name, fitted[name][0])
                            sizes[key] = min(sizes.get(key, 1e9), fitted[name][1])
                self._caps[layout.name] = sizes
        return self._caps[layout.name]

    # --- what the kit asks for ------------------------------------------------------------

    def check(self, card) -> None:
        """Raise for anything of ``card``'s face or back that cannot print (glyphs, fit, places)."""
        self.check_face(card)
        self.check_back(card)

    def check_face(self, card) -> None:
        self._face(card)

    def check_back(self, card) -> None:
        self._back(card)

    def _face(self, card) -> list[Drawn]:
        if card.row not in self._faces:
            layout = self.game.face_of(card)
            self._faces[card.row] = self._contrast_checked(layout, card, self.arranged(layout, card))
        return self._faces[card.row]

    def _back_source(self, card) -> tuple:
        layout = self.game.back_of(card)
        return layout, (None if layout.card_free else card)

    def _back(self, card) -> list[Drawn]:
        layout, bound = self._back_source(card)
        key = (layout.name, None if bound is None else bound.row)
        if key not in self._backs:
            self._backs[key] = self._contrast_checked(layout, bound, self.arranged(layout, bound))
        return self._backs[key]

    def _contrast_checked(self, layout, card, drawn: list[Drawn]) -> list[Drawn]:
        """``drawn``, after a warning for each text or icon of one colour that stands out less than
        3:1 from what is behind it (once per box, colour and background)."""
        from kitgen.render.card_contrast import LEAST, hex_colour, problems

        for d, what, colour, behind, value in problems(drawn, self, self._contrast_memo):
            where = f"{d.box.file or layout.file}, layout '{layout.name}', box '{d.box.name}'"
            if card is not None:
                where += f" (row {card.row}, {card.label})"
            thing = "its text" if what == "text" else f"the icon '{what}' (of one colour)"
            self.warn((layout.name, d.box.name, what, hex_colour(colour), hex_colour(behind)),
                      f"{where}: {thing} ({hex_colour(colour)}) has a contrast of {value:.1f}:1 against "
                      f"{hex_colour(behind)} behind it, under the {LEAST:g}:1 that reads in print; make one "
                      "of them lighter or darker")
        return drawn

    def back_key(self, card) -> int:
        """The number of ``card``'s back among the deck's distinct backs (0, 1, ... in order of first use)."""
        layout, _ = self._back_source(card)
        look = (layout.name, tuple(d.signature() for d in self._back(card)))
        if look not in self._back_keys:
            self._back_keys[look] = len(self._back_keys)
        return self._back_keys[look]

    def distinct_backs(self) -> bool:
        """Whether the deck's cards have more than one back."""
        return len({self.back_key(card) for card in self.game.cards}) > 1

    def drawn(self, card, back: bool = False) -> list[Drawn]:
        """The boxes drawn on ``card``'s face (or back), arranged and fitted, in drawing order."""
        return self._back(card) if back else self._face(card)

    def boxes(self, card, back: bool = False) -> dict:
        """Where each box shown on ``card``'s face (or back) lies: name -> Rect in PDF points from the
        trim's bottom-left corner (bleed included for boxes that reach into it)."""
        drawn = self._back(card) if back else self._face(card)
        return {d.box.name: d.place.pdf(self.height) for d in drawn}

    def face(self, canvas, card) -> str:
        name = f"face{card.row}"
        self._form(canvas, name, self._face(card))
        return name

    def back(self, canvas, card) -> str:
        name = f"back{self.back_key(card)}"
        self._form(canvas, name, self._back(card))
        return name

    def _form(self, canvas, name: str, drawn: list[Drawn]) -> None:
        key = (id(canvas), name)
        if key in self._forms:
            return
        b = self.bleed
        canvas.beginForm(name, lowerx=-b, lowery=-b, upperx=self.width + b, uppery=self.height + b)
        draw_boxes(canvas, drawn, self)
        canvas.endForm()
        _keep_transparency(canvas, name)
        self._forms.add(key)


def _alone_if_wrong(arrange):
    """``arrange(False)``: a card arranged with what earlier cards worked out.  If that raises, the
    card is arranged again alone (``arrange(True)``), and that one's answer stands: which box a problem
    is met at first (a circle of places, say) can hang on the order in which the boxes were worked
    out, and a problem is told as it is on the card alone.  Templates out of time or room
    (a :class:`~kitgen.errors.LimitError`) are not tried twice."""
    try:
        return arrange(False)
    except RenderError:
        return arrange(True)


def _keep_transparency(canvas, name: str) -> None:
    """Give a form the graphics states (transparency) it uses: reportlab lists them for pages only."""
    doc = canvas._doc
    form = doc.idToObject[doc.getXObjectName(name)]
    if not getattr(form, "ExtGState", None):
        return
    from reportlab.pdfbase.pdfdoc import PDFResourceDictionary

    resources = PDFResourceDictionary()
    resources.basicFonts()
    resources.allProcs()
    if form.XObjects:
        resources.XObject = form.XObjects
    resources.ExtGState = form.ExtGState
    form.Resources = resources

