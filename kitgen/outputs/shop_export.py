"""``kitgen export GAME --target NAME``: exactly the files a print shop takes, deck by deck.

The profile (:mod:`kitgen.data.shop_profiles`) says what the shop takes; this
module draws every card face and back with the kit's own painter at the
shop's size, bleed and resolution, and writes for each deck either one image
per distinct face plus the back(s) (PNG or JPEG, sRGB) or one PDF/X-1a file
(CMYK, back then face for every card copy, as DriveThruCards asks).  Beside
the shop's files go proofs to look at before ordering (:mod:`kitgen.outputs.proofs`)
and a README saying what to do on the shop's site.

Before anything is written, the shop's files are checked with
:mod:`kitgen.outputs.preflight` (and the text of every card against the safe
zone, on the vector drawing the pictures come from); any problem stops the
export with every problem listed, and nothing is written.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path

from kitgen.errors import OptionError
from kitgen.outputs.card_pages import CardPage, card_pages_pdf
from kitgen.outputs.export_job import ExportOptions, prepare
from kitgen.outputs.naming import BACK_NAME, card_stems
from kitgen.outputs.progress import Steps
from kitgen.outputs.raster import PageJob, png_bytes, rasterise
from kitgen.units import card_size, to_mm

JPEG_QUALITY = 95
CHANGE_REDUCTION = 3        # the ink limit's change is measured on pictures a third as wide and high


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
    for deck in decks(job.game):
        pictures = _deck_pictures(job, deck, size)
        problems += _text_outside_safe_zone(deck, profile, pictures)
        if profile.format == "pdf":
            name, data, deck_warnings = _pdf_deck(job, deck, size, profile, pictures)
            files[name] = data
            shop_files.append(ShopFile(name, data))
            warnings += deck_warnings
        else:
            folder = _image_deck(pictures, profile)
            files[deck.name] = folder
            shop_files += [ShopFile(f"{deck.name}/{n}", d) for n, d in folder.items()]
        files.update(_proofs(job, deck, size, profile, pictures))
    problems += preflight(shop_files, profile)
    if problems:
        raise PreflightProblems([ShopProblem(line) for line in problems])
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
    pdf: bytes                   # the vector drawing they were rasterised from
    cmyk: dict = field(default_factory=dict)   # index (as text) -> the CMYK separation, for CMYK shops


def _deck_pictures(job, deck: Deck, size) -> _Pictures:
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
    w, h = size.image_pixels(job.dpi)
    steps = Steps(job.progress, len(pages))
    images = rasterise(pdf, [PageJob(i, w, h) for i in range(len(pages))], job.jobs, None, steps.advance)
    return _Pictures(names=names, images=images, face=face, back=back, pdf=pdf)


def _image_deck(pictures: _Pictures, profile) -> dict[str, bytes]:
    files = {}
    for name, image in zip(pictures.names, pictures.images):
        if profile.format == "png":
            files[f"{name}.png"] = png_bytes(image, profile.dpi)
        else:
            buffer = io.BytesIO()
            image.convert("RGB").save(buffer, "JPEG", quality=JPEG_QUALITY, subsampling=0,
                                      dpi=(profile.dpi, profile.dpi), optimize=False)
            files[f"{name}.jpg"] = buffer.getvalue()
    return files


def _pdf_deck(job, deck: Deck, size, profile, pictures: _Pictures) -> tuple[str, bytes, list[str]]:
    from kitgen.outputs import cmyk
    from kitgen.outputs.pdfx import PdfxPage, pdfx_pdf

    limit = profile.ink_limit or cmyk.PROFILE_INK
    separated = {str(i): cmyk.to_cmyk(image, limit) for i, image in enumerate(pictures.images)}
    warnings = []
    for i, image in enumerate(pictures.images):
        change = cmyk.ink_change(image.reduce(CHANGE_REDUCTION), limit)
        if change.visible:
            what = pictures.names[i]
            warnings.append(f"{deck.name}: {what}: the darkest parts print lighter to keep total ink within "
                            f"{limit}% ({change.share:.0%} of the card changes visibly, by up to "
                            f"{change.worst:.0f} delta E); look at soft-proof-{deck.name}.png")
    pages = []
    for i, card in enumerate(deck.cards):
        sides = [pictures.back[i], pictures.face[i]]
        if profile.order == "face-then-back":
            sides.reverse()
        for _ in range(card.count):
            pages += [PdfxPage(str(s)) for s in sides]
    w, h = job.card.width + 2 * size.bleed, job.card.height + 2 * size.bleed
    trim = (size.bleed, size.bleed, size.bleed + job.card.width, size.bleed + job.card.height)
    data = pdfx_pdf(separated, pages, (w, h), trim, f"{deck.title} - {profile.shop}", cmyk.profile_bytes(),
                    cmyk.CONDITION, cmyk.CONDITION_TEXT)
    pictures.cmyk = separated
    return f"{deck.name}.pdf", data, warnings


def _text_outside_safe_zone(deck: Deck, profile, pictures: _Pictures) -> list[str]:
    """The cards whose text reaches into the shop's cut margin, found on the vector drawing."""
    from kitgen.outputs.preflight import text_outside_safe_zone

    return [f"{deck.name}: {pictures.names[page - 1]}: {line}"
            for page, line in text_outside_safe_zone(pictures.pdf, profile)]


def _proofs(job, deck: Deck, size, profile, pictures: _Pictures) -> dict[str, bytes]:
    from kitgen.outputs.proofs import guide_sheet, soft_proof_sheet

    files = {f"proof-{deck.name}.png": guide_sheet(job, deck, size, profile, pictures.names, pictures.images)}
    if profile.colour == "cmyk":
        files[f"soft-proof-{deck.name}.png"] = soft_proof_sheet(job, deck, profile, pictures.names, pictures.images,
                                                               [pictures.cmyk[str(i)] for i in
                                                                range(len(pictures.images))])
    return files


def _readme(job, profile, size) -> str:
    lines = [f"{job.game.title} for {profile.shop} ({profile.url})".rstrip(" ()"), "",
             f"Card size: {size.describe()}, bleed {to_mm(size.bleed):.2f} mm, safe zone "
             f"{to_mm(size.safe):.2f} mm, {profile.dpi} dpi, {profile.colour.upper()}"
             + (f", total ink at most {profile.ink_limit}%" if profile.ink_limit else "")
             + (f", {profile.pdfx}" if profile.pdfx else "") + ".", ""]
    for deck in decks(job.game):
        if profile.format == "pdf":
            lines.append(f"{deck.name}.pdf: the deck, {profile.order.replace('-', ' ')} for every card copy.")
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
