"""``kitgen export GAME --target NAME``: exactly the files a print shop takes, deck by deck.

The profile (:mod:`kitgen.data.shop_profiles`) says what the shop takes; this
module draws every card face and back with the kit's own painter at the
shop's size and bleed, and writes for each deck either one image per distinct
face plus the back(s) (PNG or JPEG, sRGB, at the shop's resolution) or one
PDF/X-1a file (back then face for every card copy, as DriveThruCards asks).

The PDF/X-1a file is the painter's vector drawing in the press's inks
(:class:`kitgen.outputs.print_inks.PrintInks`): text as text in embedded fonts,
shapes as vectors, art as CMYK images, every colour DeviceCMYK within the ink
limit, black text and lines in black ink alone.  A face or back drawn with
transparency (a translucent colour, art with soft edges), which PDF/X-1a
cannot hold, is flattened: that card's pages are its CMYK picture at the
shop's resolution, and a warning names it.  Art that would print under the
shop's resolution is resampled up to it, and a warning names it too.

Beside the shop's files go proofs to look at before ordering
(:mod:`kitgen.outputs.proofs`) and a README saying what to do on the shop's
site.  Before anything is written, the shop's files are checked with
:mod:`kitgen.outputs.preflight` (and the text of every card that is a picture
against the safe zone, on the vector drawing the picture comes from); any
problem stops the export with every problem listed, and nothing is written.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path

from kitgen.errors import OptionError
from kitgen.outputs.card_pages import CardPage, card_pages_pdf
from kitgen.outputs.export_job import ExportOptions, prepare
from kitgen.outputs.naming import BACK_NAME, card_stems
from kitgen.outputs.pdfx import picture_encoding
from kitgen.outputs.progress import Steps
from kitgen.outputs.proofs import PROOF_DPI
from kitgen.outputs.raster import PageJob, as_rgb, png_bytes, rasterise
from kitgen.units import card_size, to_mm

JPEG_QUALITY = 95


@dataclass(frozen=True)
class Deck:
    """The cards of one deck, which a shop prints as one product."""

    name: str            # file-name stem of the deck's files
    title: str
    cards: tuple


@dataclass
class ShopExport:
    """What the export wrote, for the command line to report."""

    title: str
    target: Path
    files: list[Path]
    cards: int
    faces: int
    profile: object
    warnings: list[str] = field(default_factory=list)


def decks(game) -> list[Deck]:
    """The game's decks (:mod:`kitgen.data.decks`), each printed as its own product: named after the
    game when it has one deck, else ``<slug>-<deck>``."""
    if len(game.decks) == 1:
        return [Deck(game.slug, game.title, tuple(game.decks[0].cards))]
    return [Deck(f"{game.slug}-{d.key}", f"{game.title}: {d.label}", tuple(d.cards)) for d in game.decks]


def shop_profile_for(game, target: str, options: ExportOptions):
    """The profile and the card size it prints the game at; a size the shop does not print is refused."""
    from kitgen.data.shop_profiles import load_profile

    profile = load_profile(target, game)
    card = card_size(options.card_size or game.card_size)
    size = profile.size_for(card)
    if size is None:
        option = "--card-size" if options.card_size else "--target"
        raise OptionError(option, f"{profile.shop} prints {profile.sizes_text()} cards, not "
                          f"{to_mm(card.width):g} x {to_mm(card.height):g} mm; export with "
                          f"--card-size {profile.sizes[0].name} or add the size to a profile of your own")
    return profile, size


def export_to_shop(game_or_path, target: str, out="output", options: ExportOptions = ExportOptions(),
                   progress=None) -> ShopExport:
    """Write the files ``target``'s shop takes for every deck of the game, with proofs, under
    ``out/<slug>/<target>/``; nothing is written if a file would not pass preflight."""
    from kitgen.data.game import load_game
    from kitgen.outputs.files import replace_folder
    from kitgen.outputs.kit_lock import kit_lock
    from kitgen.outputs.preflight import PreflightProblems, ShopFile, ShopProblem, preflight

    for option, value in (("--bleed", options.bleed), ("--dpi", options.dpi), ("--base-url", options.base_url)):
        if value is not None:
            raise OptionError(option, f"the --target profile sets what the shop takes; leave {option} out")
    game = load_game(game_or_path)
    profile, size = shop_profile_for(game, target, options)
    job = prepare(game_or_path, ExportOptions(card_size=size.name if not options.card_size else options.card_size,
                                              bleed=f"{size.bleed!r}pt", dpi=profile.dpi, jobs=options.jobs),
                  size.bleed, profile.dpi, full_size_images=True)
    job.progress = progress
    files: dict[str, bytes | dict] = {}
    shop_files: list = []
    warnings: list[str] = []
    problems: list[str] = []
    made = []
    for deck in decks(job.game):
        if profile.format == "pdf":          # the pictures are for the proofs, or a card to flatten
            pictures = _deck_pictures(job, deck, size, PROOF_DPI)
            printed = _pdf_deck(job, deck, size, profile, pictures)
            files[printed.name] = printed.data
            shop_files.append(ShopFile(printed.name, printed.data))
            warnings += printed.warnings
            problems += _text_outside_safe_zone(deck, profile, pictures, only=set(printed.flattened))
        else:
            pictures = _deck_pictures(job, deck, size, profile.dpi)
            printed = None
            problems += _text_outside_safe_zone(deck, profile, pictures)
            folder = _image_deck(pictures, profile)
            files[deck.name] = folder
            shop_files += [ShopFile(f"{deck.name}/{n}", d) for n, d in folder.items()]
        made.append((deck, pictures, printed))
    problems += preflight(shop_files, profile)
    if problems:
        raise PreflightProblems([ShopProblem(line) for line in problems])
    for deck, pictures, printed in made:
        files.update(_proofs(job, deck, size, profile, pictures, printed))
    files["README.txt"] = _readme(job, profile, size).encode("utf-8")
    folder = Path(out) / job.game.slug / profile.key
    with kit_lock(folder.parent, f"kitgen export {game_or_path} --target {target}"):
        written = replace_folder(folder, files)
    return ShopExport(title=job.game.title, target=folder, files=written, cards=job.deck_size,
                      faces=len(job.game.cards), profile=profile, warnings=list(job.art.warnings) + warnings)


@dataclass
class _Pictures:
    """A deck's distinct faces and backs, rasterised (sRGB Pillow images), and the back of each card."""

    names: list[str]             # file stems, faces then backs
    images: list
    face: dict                   # card index -> index into images
    back: dict                   # card index -> index into images
    pdf: bytes                   # the vector drawing they were rasterised from, one page each
    dpi: int


def _deck_pictures(job, deck: Deck, size, dpi: int) -> _Pictures:
    painter = job.painter(size.bleed)
    cards = list(deck.cards)
    stems = card_stems(cards)
    pages = [CardPage(card) for card in cards]
    names = list(stems)
    face = {i: i for i in range(len(cards))}
    back: dict[int, int] = {}
    keys: dict = {}
    for i, card in enumerate(cards):
        key = painter.back_key(card)
        if key not in keys:
            keys[key] = len(pages)
            pages.append(CardPage(card, back=True))
        back[i] = keys[key]
    if len(keys) == 1:
        names.append(BACK_NAME)
    else:
        for key, page in keys.items():
            holder = next(i for i, b in back.items() if b == page)
            names.append(f"{stems[holder]}-{BACK_NAME}")
    pdf = card_pages_pdf(job, pages, f"{deck.title} - cards", "card pictures", bleed=size.bleed, boxes=True)
    w, h = size.image_pixels(dpi)
    steps = Steps(job.progress, len(pages))
    images = rasterise(pdf, [PageJob(i, w, h) for i in range(len(pages))], job.jobs, None, steps.advance)
    return _Pictures(names=names, images=images, face=face, back=back, pdf=pdf, dpi=dpi)


def _image_deck(pictures: _Pictures, profile) -> dict[str, bytes]:
    files = {}
    for name, image in zip(pictures.names, pictures.images):
        if profile.format == "png":
            files[f"{name}.png"] = png_bytes(image, profile.dpi)
        else:
            buffer = io.BytesIO()
            as_rgb(image).save(buffer, "JPEG", quality=JPEG_QUALITY, subsampling=0,
                               dpi=(profile.dpi, profile.dpi), optimize=False)
            files[f"{name}.jpg"] = buffer.getvalue()
    return files


@dataclass
class _PrintFile:
    """A deck's PDF/X-1a file and what went into it."""

    name: str
    data: bytes
    pages: list[int]                          # the picture each page shows
    warnings: list[str]
    flattened: dict[int, list[str]]           # picture -> the transparency that made it a picture


def _pdf_deck(job, deck: Deck, size, profile, pictures: _Pictures) -> _PrintFile:
    from kitgen.outputs import cmyk

    limit = profile.ink_limit or cmyk.PROFILE_INK
    pages: list[int] = []
    for i, card in enumerate(deck.cards):
        sides = [pictures.back[i], pictures.face[i]]
        if profile.order == "face-then-back":
            sides.reverse()
        pages += sides * card.count
    drawn = _print_pdf(job, deck, size, profile, pictures, pages, limit, {})
    if drawn.transparent:                    # drawn again, those cards as pictures
        flat = sorted(drawn.transparent)
        w, h = size.image_pixels(profile.dpi)
        images = rasterise(pictures.pdf, [PageJob(i, w, h) for i in flat], job.jobs, None)
        encoded = {i: picture_encoding(cmyk.to_cmyk(image, limit)) for i, image in zip(flat, images)}
        again = _print_pdf(job, deck, size, profile, pictures, pages, limit, encoded)
        again.transparent = drawn.transparent
        drawn = again
    warnings = []
    for what, on in _grouped(drawn.transparent).items():
        one = len(on) == 1
        warnings.append(f"{deck.name}: {_some(pictures.names, on)} {'is' if one else 'are'} drawn with {what}, "
                        f"which {profile.pdfx or 'the shop'} cannot hold: {'it prints' if one else 'they print'} "
                        f"from a {profile.dpi} dpi CMYK picture, text as pixels in four inks; without the "
                        "transparency a card prints as text")
    for art, on in drawn.low_resolution.items():
        warnings.append(f"{deck.name}: {art} prints at {min(on.values()):.0f} dpi ({_some(pictures.names, on)}), "
                        f"under the {profile.dpi} dpi {profile.shop} asks; it is resampled to {profile.dpi} dpi, "
                        "which adds no detail: a larger picture prints sharper")
    for i, image in enumerate(pictures.images):
        change = cmyk.ink_change(image, limit)
        if change.visible:
            warnings.append(f"{deck.name}: {pictures.names[i]}: the darkest parts print lighter to keep total "
                            f"ink within {limit}% ({change.share:.0%} of the card changes visibly, by up to "
                            f"{change.worst:.0f} delta E); look at soft-proof-{deck.name}.png")
    return _PrintFile(f"{deck.name}.pdf", drawn.data, pages, warnings, drawn.transparent)


def _grouped(reasons: dict[int, list[str]]) -> dict[str, list[int]]:
    """The pictures drawn with each set of reasons, as "a and b": pictures."""
    out: dict[str, list[int]] = {}
    for picture, what in sorted(reasons.items()):
        out.setdefault(" and ".join(what), []).append(picture)
    return out


def _some(names: list[str], pictures) -> str:
    """The names of ``pictures`` (indexes into ``names``), the first three and how many more."""
    chosen = [names[i] for i in sorted(pictures)]
    return ", ".join(chosen[:3]) + (f" and {len(chosen) - 3} more" if len(chosen) > 3 else "")


@dataclass
class _Drawn:
    data: bytes
    transparent: dict[int, list[str]]        # picture -> what made its drawing transparent
    low_resolution: dict[str, dict]          # art file -> {picture: the dpi it had there}


def _print_pdf(job, deck: Deck, size, profile, pictures: _Pictures, pages: list[int], limit: int,
               flat: dict) -> _Drawn:
    """The PDF/X-1a file: each page the painter's drawing of its picture in the press's inks, or for the
    pictures in ``flat`` their CMYK encoding; and what each picture's drawing held that needs a word."""
    from kitgen.outputs import cmyk
    from kitgen.outputs.pdfx import OutputIntent, pdfx_canvas, place_picture
    from kitgen.outputs.print_inks import PrintInks
    from kitgen.render.canvas import canvas_bytes

    painter = job.painter(size.bleed)
    b = size.bleed
    w, h = job.card.width + 2 * b, job.card.height + 2 * b
    intent = OutputIntent(cmyk.profile_bytes(), cmyk.CONDITION, cmyk.CONDITION_TEXT)
    inks = PrintInks(limit, profile.dpi)
    canvas = pdfx_canvas((w, h), (b, b, b + job.card.width, b + job.card.height),
                         f"{deck.title} - {profile.shop}", intent, inks=inks)
    shown_by: dict[int, tuple] = {}          # picture -> (a card it shows, whether it is the back)
    for i, card in enumerate(deck.cards):
        shown_by.setdefault(pictures.face[i], (card, False))
        shown_by.setdefault(pictures.back[i], (card, True))
    forms: dict[int, str] = {}
    drawn = _Drawn(b"", {}, {})
    for picture in pages:
        if picture in flat:
            place_picture(canvas, str(picture), flat[picture])
        else:
            if picture not in forms:
                canvas.transparency.clear()
                inks.low_resolution.clear()
                card, back = shown_by[picture]
                forms[picture] = painter.back(canvas, card) if back else painter.face(canvas, card)
                if canvas.transparency:
                    drawn.transparent[picture] = list(dict.fromkeys(canvas.transparency))
                for art, dpi in inks.low_resolution:
                    on = drawn.low_resolution.setdefault(art, {})
                    on[picture] = min(dpi, on.get(picture, dpi))
            canvas.saveState()
            canvas.translate(b, b)
            canvas.doForm(forms[picture])
            canvas.restoreState()
        canvas.showPage()
    drawn.data = canvas_bytes(canvas)
    return drawn


def _text_outside_safe_zone(deck: Deck, profile, pictures: _Pictures, only=None) -> list[str]:
    """The cards (of the pictures ``only``, when given) whose text reaches into the shop's cut margin,
    found on the vector drawing."""
    from kitgen.outputs.preflight import text_outside_safe_zone

    if only is not None and not only:
        return []
    return [f"{deck.name}: {pictures.names[page - 1]}: {line}"
            for page, line in text_outside_safe_zone(pictures.pdf, profile, only)]


def _proofs(job, deck: Deck, size, profile, pictures: _Pictures, printed: _PrintFile | None) -> dict[str, bytes]:
    from kitgen.outputs.proofs import guide_sheet, soft_proof_sheet

    files = {f"proof-{deck.name}.png": guide_sheet(deck, size, profile, pictures.names, pictures.images)}
    if printed is not None:
        files[f"soft-proof-{deck.name}.png"] = soft_proof_sheet(deck, profile, pictures.names, pictures.images,
                                                               _printed_pictures(printed, len(pictures.images)))
    return files


def _printed_pictures(printed: _PrintFile, count: int) -> list:
    """Each picture as the PDF/X file prints it: its first page rendered in CMYK by Ghostscript (the
    rendering preflight measured the ink on)."""
    from kitgen.outputs.preflight import INK_DPI, cmyk_renderings, first_pages, page_signatures

    pages = tuple(first_pages(page_signatures(printed.data)).values())
    rendered = cmyk_renderings(printed.data, pages, INK_DPI)
    first = {}
    for number, picture in enumerate(printed.pages, start=1):
        first.setdefault(picture, number)
    return [rendered[first[i]] for i in range(count)]


def _readme(job, profile, size) -> str:
    lines = [f"{job.game.title} for {profile.shop} ({profile.url})".rstrip(" ()"), "",
             f"Card size: {size.describe()}, bleed {to_mm(size.bleed):.2f} mm, safe zone "
             f"{to_mm(size.safe):.2f} mm, {profile.dpi} dpi, {profile.colour.upper()}"
             + (f", total ink at most {profile.ink_limit}%" if profile.ink_limit else "")
             + (f", {profile.pdfx}" if profile.pdfx else "") + ".", ""]
    for deck in decks(job.game):
        if profile.format == "pdf":
            lines.append(f"{deck.name}.pdf: the deck, {profile.order.replace('-', ' ')} for every card copy: "
                         "text as text in embedded fonts, black text and lines in black ink only.")
        else:
            lines.append(f"{deck.name}/: one {profile.format.upper()} per face (the number after x is how many "
                         "copies) and the back.")
        lines.append(f"proof-{deck.name}.png: every picture with the cut (blue), the bleed's edge (red) and the "
                     "safe zone (green).")
        if profile.colour == "cmyk":
            lines.append(f"soft-proof-{deck.name}.png: each picture as designed (left) and as it will print "
                         "(right).")
    if profile.notes:
        lines += ["", "On the shop's site:"] + [f"- {note}" for note in profile.notes]
    return "\n".join(lines) + "\n"
