"""``kitgen preflight``: check card files, kitgen's or anybody's, against a print shop's profile.

Every problem of every file is one line: the file (and page), what is wrong,
what the shop asks.  Images are checked for format, pixel size (and so
bleed), resolution and colour space; PDFs for the PDF/X markers (version,
output intent, trapping key), the trim and bleed boxes of every page, colour
spaces and transparency in every page and form, fonts, the resolution of
every placed image, text inside the safe zone, page count and order, and
total ink measured on a CMYK rendering of every page (by Ghostscript), with
the level the highest 1% of the page reaches.

A file is untrusted: it is read only up to :data:`MAX_FILE_BYTES`, an image
of more than :data:`MAX_PIXELS` or a PDF of more than :data:`MAX_PAGES` pages
is refused before it is decoded, and rendering has a time limit.  A file that
cannot be read at all ends the check with one ``Error:`` line.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from kitgen.errors import GameDataError, KitgenError, ProblemList
from kitgen.units import to_mm

MAX_FILE_BYTES = 256 * 1024 * 1024
MAX_PIXELS = 89_478_485          # Pillow's own bound before it suspects a decompression bomb
MAX_PAGES = 2000                 # a deck of 1,000 cards, each a back and a face
MAX_PAGE_SIDE = 50 * 72          # points: nothing a card shop prints is 50 in long
MAX_OBJECTS = 20_000             # resources, forms and fonts visited in one PDF
INK_DPI = 100                    # the CMYK rendering the total ink is measured on
ORDER_DPI = 18                   # the small renderings pages are compared on for their order
RENDER_SECONDS = 120             # Ghostscript's time for one file
INK_SLACK = 1.0                  # percent: four 8-bit channels round to within 4 x 0.2%
RGB_SPACES = {"/DeviceRGB", "/CalRGB", "/Lab"}
PDF_MAGIC, PNG_MAGIC, JPEG_MAGIC = b"%PDF-", b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff"
TIFF_MAGIC = (b"II*\x00", b"MM\x00*")


class ShopProblem(KitgenError):
    """One way a file differs from what the shop takes."""


class PreflightProblems(ProblemList):
    """Every problem preflight found, one a line."""

    def __init__(self, problems: list[KitgenError]):
        super().__init__(problems, cap=200)


@dataclass(frozen=True)
class ShopFile:
    """A file to check: the name it is reported under and its bytes."""

    name: str
    data: bytes


def preflight_paths(paths: list, profile) -> list[str]:
    """Problems of the files at ``paths`` (one line each); the files are read within the bounds above."""
    from kitgen.data.files import read_bytes

    files = [ShopFile(str(p), read_bytes(Path(p), str(p), limit=MAX_FILE_BYTES)) for p in paths]
    return preflight(files, profile)


def preflight(files: list[ShopFile], profile) -> list[str]:
    """Every problem of ``files`` against ``profile``, one line each, in file order."""
    problems: list[str] = []
    for f in files:
        problems += [f"{f.name}: {line}" for line in check_file(f, profile)]
    return problems


def check_file(f: ShopFile, profile) -> list[str]:
    data = f.data
    if data.startswith(PDF_MAGIC):
        return _check_pdf(f, profile)
    if data.startswith((PNG_MAGIC, JPEG_MAGIC) + TIFF_MAGIC):
        return _check_image(f, profile)
    raise GameDataError("not a PNG, JPEG, TIFF or PDF file", file=f.name)


# --- images ---------------------------------------------------------------------------------------

_FORMAT_NAMES = {"PNG": "png", "JPEG": "jpg", "TIFF": "tif"}


def _check_image(f: ShopFile, profile) -> list[str]:
    from PIL import Image

    too_many = f"the image has more pixels than kitgen opens ({MAX_PIXELS / 1e6:.0f} megapixels)"
    try:
        with Image.open(io.BytesIO(f.data)) as probe:
            kind, (w, h), mode, info = probe.format, probe.size, probe.mode, dict(probe.info)
    except Image.DecompressionBombError:
        raise GameDataError(too_many, file=f.name) from None
    except Exception:                      # Pillow's many errors for a damaged file
        raise GameDataError("cannot read this image; it is damaged or not a PNG, JPEG or TIFF file",
                            file=f.name) from None
    if w * h > MAX_PIXELS:
        raise GameDataError(too_many, file=f.name)
    out = []
    fmt = _FORMAT_NAMES.get(kind, kind.lower())
    if fmt != profile.format:
        out.append(f"format {fmt.upper()}; {profile.shop} takes {profile.format.upper()} files")
    space = "cmyk" if mode == "CMYK" else "rgb" if mode in ("RGB", "RGBA", "P", "L", "LA", "1") else mode
    if space != profile.colour:
        out.append(f"colour space {mode}; {profile.shop} takes {profile.colour.upper()} only")
    dpi = info.get("dpi")
    if not dpi:
        out.append(f"no resolution stored; {profile.shop} asks {profile.dpi} dpi")
    elif round(float(dpi[0])) != profile.dpi or round(float(dpi[1])) != profile.dpi:
        out.append(f"resolution {round(float(dpi[0]), 1):g} x {round(float(dpi[1]), 1):g} dpi; {profile.shop} asks "
                   f"{profile.dpi} dpi")
    out += _pixel_size(w, h, profile)
    if space == "cmyk" and profile.ink_limit:
        with Image.open(io.BytesIO(f.data)) as image:
            line = _ink_line(image.convert("CMYK"), profile, page=False)
        if line:
            out.append(line)
    return out


def _pixel_size(w: int, h: int, profile) -> list[str]:
    dpi = profile.dpi
    for size in profile.sizes:
        want_w, want_h = size.image_pixels(dpi)
        if size.exact and (w, h) == (want_w, want_h):
            return []
        trim_w, trim_h = size.width / 72 * dpi, size.height / 72 * dpi
        bleed_w, bleed_h = (w - trim_w) / 2, (h - trim_h) / 2
        if not size.exact and min(bleed_w, bleed_h) >= size.bleed / 72 * dpi - 1 and abs(bleed_w - bleed_h) <= 2:
            return []
    asks = " or ".join(f"{'' if s.exact else 'at least '}{s.image_pixels(dpi)[0]} x {s.image_pixels(dpi)[1]} px "
                       f"({s.name} with {to_mm(s.bleed):.1f} mm bleed)" for s in profile.sizes)
    for size in profile.sizes:
        trim = (round(size.width / 72 * dpi), round(size.height / 72 * dpi))
        if abs(w - trim[0]) <= 1 and abs(h - trim[1]) <= 1:
            return [f"no bleed: {w} x {h} px is the {size.name} card cut to size; {profile.shop} asks {asks}"]
    return [f"size {w} x {h} px; {profile.shop} takes {asks} at {dpi} dpi"]


def _ink_line(cmyk, profile, page: bool = True) -> str | None:
    import numpy as np

    from kitgen.outputs.cmyk import ink_total

    total = ink_total(cmyk)
    percent = 100.0 / 255.0
    top = float(total.max()) * percent        # scaling keeps the order: the largest of the percentages
    if top <= profile.ink_limit + INK_SLACK:
        return None
    high = float(np.percentile(total * percent, 99))      # asked only of a page over the limit
    return (f"total ink up to {top:.0f}% (the highest 1% of the {'page' if page else 'picture'} from "
            f"{high:.0f}%); {profile.shop} allows {profile.ink_limit}%")


# --- PDFs -----------------------------------------------------------------------------------------

def _check_pdf(f: ShopFile, profile) -> list[str]:
    from pypdf import PdfReader

    try:
        reader = PdfReader(io.BytesIO(f.data), strict=False)
        if reader.is_encrypted:
            return [f"the PDF is encrypted; {profile.shop} takes unencrypted files"]
        count = _said_count(reader)
        if count <= MAX_PAGES:
            count = len(reader.pages)
    except Exception:                      # pypdf's many errors for a damaged file
        raise GameDataError("cannot read this PDF; it is damaged or not a PDF", file=f.name) from None
    if count > MAX_PAGES:
        raise GameDataError(f"{count} pages; kitgen checks PDFs of at most {MAX_PAGES} pages", file=f.name)
    if count == 0:
        raise GameDataError("the PDF has no pages", file=f.name)
    out = []
    if profile.format != "pdf":
        out.append(f"format PDF; {profile.shop} takes {profile.format.upper()} files, one per card")
    try:
        out += _document_markers(f.data, reader, profile)
        forms: dict = {}                   # what each form holds, found once for all the pages drawing it
        for i, page in enumerate(reader.pages, start=1):
            out += _page_problems(i, page, profile, forms)
        signatures = page_signatures(f.data, reader)
        out += _count_and_order(f.data, count, profile, signatures)
        out += _placed_images_and_text(f.data, reader, profile, signatures)
    except GameDataError as exc:
        raise GameDataError(exc.message, file=exc.file or f.name) from None
    except KitgenError:
        raise
    except Exception:                      # pypdf's and PDFium's errors for a damaged page
        raise GameDataError("cannot read this PDF's pages; it is damaged", file=f.name) from None
    if profile.ink_limit:
        out += _pdf_ink(f, profile, signatures)
    return out


def _said_count(reader) -> int:
    """The number of pages the PDF's page tree says it holds (its /Count), or 0 where it says none: a file
    that says it holds more than kitgen checks is refused on its word, before its pages are read one by one
    (which is what counting them costs)."""
    try:                                   # the catalog as pypdf finds it (it repairs a trailer without /Root)
        count = reader.root_object["/Pages"].get_object().get("/Count")
        count = count.get_object() if count is not None else 0
    except Exception:                      # noqa: BLE001 - a tree it cannot say: its pages are counted instead
        return 0
    return count if isinstance(count, int) else 0


def _document_markers(data: bytes, reader, profile) -> list[str]:
    if not profile.pdfx:
        return []
    out = []
    version = data[5:8].decode("latin-1", "replace")
    if version > "1.4":
        out.append(f"PDF version {version}; {profile.pdfx} is PDF 1.4 or earlier")
    info = reader.trailer.get("/Info")
    info = info.get_object() if info is not None else {}
    got_version, conformance = str(info.get("/GTS_PDFXVersion", "")), str(info.get("/GTS_PDFXConformance", ""))
    if got_version not in ("PDF/X-1:2003", "PDF/X-1a:2003") or conformance not in ("", "PDF/X-1a:2003") or (
            got_version == "PDF/X-1:2003" and conformance != "PDF/X-1a:2003"):
        said = got_version or "none"
        out.append(f"PDF/X version {said}; {profile.shop} asks {profile.pdfx} (GTS_PDFXVersion PDF/X-1:2003, "
                   f"GTS_PDFXConformance PDF/X-1a:2003)")
    if str(info.get("/Trapped", "")) not in ("/True", "/False"):
        out.append("no Trapped key (True or False) in the document information; PDF/X asks for one")
    intents = reader.trailer["/Root"].get("/OutputIntents")
    intents = [i.get_object() for i in intents.get_object()] if intents is not None else []
    pdfx = [i for i in intents if str(i.get("/S")) == "/GTS_PDFX"]
    if not pdfx:
        out.append(f"no PDF/X output intent; {profile.pdfx} names the printing condition and embeds its profile")
    else:
        profile_stream = pdfx[0].get("/DestOutputProfile")
        n = profile_stream.get_object().get("/N") if profile_stream is not None else None
        if n != 4:
            out.append("the output intent has no CMYK ICC profile (DestOutputProfile with N 4)")
    return out


def _page_problems(number: int, page, profile, forms: dict) -> list[str]:
    out = []
    where = f"page {number}: "
    media = [float(v) for v in page.mediabox]
    if max(media[2] - media[0], media[3] - media[1]) > MAX_PAGE_SIDE:
        raise GameDataError(f"page {number} is larger than 50 in; kitgen checks card pages")
    trim = page.get("/TrimBox") or page.get("/ArtBox")
    bleed_box = page.get("/BleedBox")
    if trim is None:
        out.append(where + "no TrimBox; the shop cuts at the TrimBox, which every page of a PDF/X file has")
        trim = page.mediabox
    trim = [float(v) for v in trim]
    bleed = [float(v) for v in bleed_box] if bleed_box is not None else media
    tw, th = trim[2] - trim[0], trim[3] - trim[1]
    size = next((s for s in profile.sizes if abs(s.width - tw) < 0.2 and abs(s.height - th) < 0.2), None)
    if size is None:
        out.append(where + f"trim {to_mm(tw):.1f} x {to_mm(th):.1f} mm; {profile.shop} prints "
                   f"{profile.sizes_text()} cards")
    else:
        room = min(trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3])
        if room < size.bleed - 0.05:
            what = "no bleed" if room <= 0.05 else f"bleed {to_mm(room):.1f} mm"
            out.append(where + f"{what}; {profile.shop} asks {to_mm(size.bleed):.1f} mm on every side "
                       "(BleedBox past the TrimBox, art reaching it)")
    if profile.colour == "cmyk":
        scan = _Scan(forms)
        scan.resources(page.get("/Resources"), "page")
        scan.content(page, page.get("/Resources"))
        if "/Group" in page and str(page["/Group"].get_object().get("/S")) == "/Transparency":
            scan.transparency.add("a transparency group")
        if scan.rgb:
            out.append(where + f"RGB colour ({', '.join(sorted(scan.rgb)[:3])}); {profile.shop} takes DeviceCMYK only")
        if scan.transparency:
            out.append(where + f"transparency ({', '.join(sorted(scan.transparency)[:3])}); "
                       f"{profile.pdfx} allows none")
        if scan.fonts:
            out.append(where + f"font {sorted(scan.fonts)[0]} is not embedded; {profile.pdfx} embeds every font")
    return out


class _Scan:
    """What a page and the forms it draws hold: RGB colour, transparency, fonts not embedded.  ``forms``
    keeps what each form (by object number) was found to hold, for the other pages that draw it."""

    def __init__(self, forms: dict | None = None):
        self.rgb, self.transparency, self.fonts = set(), set(), set()
        self.seen = 0
        self.forms = {} if forms is None else forms

    def _count(self):
        self.seen += 1
        if self.seen > MAX_OBJECTS:
            raise GameDataError(f"more than {MAX_OBJECTS} resources in one page; kitgen checks card pages")

    def space(self, cs, label: str) -> None:
        cs = cs.get_object() if cs is not None else None
        if cs is None:
            return
        if isinstance(cs, list) and cs:
            kind = str(cs[0])
            if kind == "/ICCBased" and cs[1].get_object().get("/N") == 3:
                self.rgb.add(label)
            elif kind in RGB_SPACES or kind == "/CalRGB":
                self.rgb.add(label)
            elif kind == "/Indexed":
                self.space(cs[1], label)
        elif str(cs) in RGB_SPACES:
            self.rgb.add(label)

    def resources(self, res, where: str, depth: int = 0) -> None:
        res = res.get_object() if res is not None else None
        if not res or depth > 8:
            return
        for name, cs in (res.get("/ColorSpace") or {}).items():
            self._count()
            self.space(cs, f"colour space {name}")
        for name, gs in (res.get("/ExtGState") or {}).items():
            self._count()
            gs = gs.get_object()
            if gs.get("/SMask") not in (None, "/None") and str(gs.get("/SMask")) != "/None":
                self.transparency.add(f"soft mask in {name}")
            for key in ("/CA", "/ca"):
                if key in gs and float(gs[key]) < 1:
                    self.transparency.add(f"opacity {float(gs[key]):g} in {name}")
            if str(gs.get("/BM", "/Normal")) not in ("/Normal", "/Compatible"):
                self.transparency.add(f"blend mode {gs['/BM']} in {name}")
        for name, sh in (res.get("/Shading") or {}).items():
            self._count()
            self.space(sh.get_object().get("/ColorSpace"), f"shading {name}")
        for name, font in (res.get("/Font") or {}).items():
            self._count()
            self.font(font.get_object(), name)
        xobjects = res.get("/XObject") or {}
        for name in xobjects:
            self._count()
            ref = xobjects.raw_get(name) if hasattr(xobjects, "raw_get") else xobjects[name]
            xo = ref.get_object()
            subtype = str(xo.get("/Subtype"))
            if subtype == "/Image":
                if not xo.get("/ImageMask"):
                    self.space(xo.get("/ColorSpace"), f"image {name}")
                if "/SMask" in xo:
                    self.transparency.add(f"soft mask of image {name}")
            elif subtype == "/Form":
                key = getattr(ref, "idnum", None)
                if key is None or key not in self.forms:
                    form = _Scan(self.forms)
                    form.seen = self.seen
                    group = xo.get("/Group")
                    if group is not None and str(group.get_object().get("/S")) == "/Transparency":
                        form.transparency.add(f"transparency group {name}")
                    form.resources(xo.get("/Resources"), name, depth + 1)
                    form.content(xo, xo.get("/Resources"))
                    self.seen = form.seen
                    found = (form.rgb, form.transparency, form.fonts)
                    if key is None:
                        self.rgb |= found[0]
                        self.transparency |= found[1]
                        self.fonts |= found[2]
                        continue
                    self.forms[key] = found
                rgb, transparency, fonts = self.forms[key]
                self.rgb |= rgb
                self.transparency |= transparency
                self.fonts |= fonts

    def font(self, font, name: str) -> None:
        subtype = str(font.get("/Subtype"))
        if subtype == "/Type3":
            return
        if subtype == "/Type0":
            descendants = font.get("/DescendantFonts")
            font = descendants.get_object()[0].get_object() if descendants else font
        descriptor = font.get("/FontDescriptor")
        descriptor = descriptor.get_object() if descriptor is not None else {}
        if not any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")):
            self.fonts.add(str(font.get("/BaseFont", name)).lstrip("/"))

    def content(self, holder, res) -> None:
        """Colour operators in a page's or form's content: rg/RG set DeviceRGB, cs/CS may name an RGB space."""
        from pypdf.generic import ContentStream

        try:
            contents = holder.get_contents() if hasattr(holder, "get_contents") else holder
            if contents is None:
                return
            stream = ContentStream(contents, None)
            ops = stream.operations
        except Exception:
            return
        res = res.get_object() if res is not None else {}
        spaces = res.get("/ColorSpace") or {}
        for count, (operands, op) in enumerate(ops):
            if count > 200_000:
                raise GameDataError("a page's content is longer than kitgen checks (200,000 operations)")
            if op in (b"rg", b"RG"):
                self.rgb.add(f"operator {op.decode()}")
            elif op in (b"cs", b"CS") and operands:
                name = str(operands[0])
                if name in RGB_SPACES:
                    self.rgb.add(f"operator {op.decode()} {name}")
                elif name in spaces:
                    self.space(spaces[name], f"colour space {name}")
            elif op == b"INLINE IMAGE":
                cs = str(operands.get("settings", {}).get("/CS", operands.get("settings", {}).get("/ColorSpace", "")))
                if cs in ("/RGB", "/DeviceRGB"):
                    self.rgb.add("an inline RGB image")


def _count_and_order(data: bytes, count: int, profile, signatures: list[bytes]) -> list[str]:
    if profile.order not in ("back-then-face", "face-then-back"):
        return []
    if count % 2:
        return [f"{count} pages, an odd number; {profile.shop} takes a back and a face for every card"]
    if count < 4:
        return []
    backs = signatures[0::2] if profile.order == "back-then-face" else signatures[1::2]
    if len(set(backs)) == 1:               # pages alike in what they draw print alike: one back, nothing to say
        return []
    odd, even = _page_prints(data, signatures)
    backs, faces = (odd, even) if profile.order == "back-then-face" else (even, odd)
    if len(set(faces)) == 1 and len(set(backs)) > 1:
        first = "back" if profile.order == "back-then-face" else "face"
        return [f"page order: the backs are on the {'even' if first == 'back' else 'odd'} pages; {profile.shop} "
                f"asks {profile.order.replace('-', ' ')} (page 1 is the {first} of card 1)"]
    return []


def _pdfium_pages(data: bytes, skip=None):
    """Every page of the PDF ``data`` (but those ``skip(index)`` is true of) as (0-based index, PDFium
    page), each closed after its turn."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(data)
    try:
        for i in range(len(document)):
            if skip is not None and skip(i):
                continue
            page = document[i]
            try:
                yield i, page
            finally:
                page.close()
    finally:
        document.close()


_SIGNATURES: dict[bytes, list[bytes]] = {}         # the last PDF's page signatures, by its bytes


def page_signatures(data: bytes, reader=None) -> list[bytes]:
    """:func:`reader_signatures` of the PDF ``data`` (read with ``reader``, a pypdf reader of it, when given).
    The last answer is kept, so an export's soft proof finds the pages its preflight compared without
    parsing every page again; do not change the list."""
    found = _SIGNATURES.get(data)
    if found is None:
        from pypdf import PdfReader

        found = reader_signatures(reader if reader is not None else PdfReader(io.BytesIO(data)))
        _SIGNATURES.clear()
        _SIGNATURES[data] = found
    return found


def reader_signatures(reader) -> list[bytes]:
    """A digest of what each page of a pypdf reader draws (its boxes, content and the objects its resources
    name): pages with the same digest look the same, so each is rendered and checked once (a deck's shared
    back, copies of a card)."""
    import hashlib

    out = []
    for page in reader.pages:
        digest = hashlib.sha256()
        for key in ("/MediaBox", "/CropBox", "/Rotate"):
            digest.update(repr(page.get(key)).encode())
        contents = page.get_contents()
        digest.update(contents.get_data() if contents is not None else b"")
        digest.update(_shallow(page.get("/Resources")).encode())
        out.append(digest.digest())
    return out


def _shallow(value, depth: int = 0) -> str:
    """A dictionary's entries as text, an object it refers to by its number (so the same object reads the same)."""
    from pypdf.generic import DictionaryObject, IndirectObject

    if isinstance(value, IndirectObject):
        return f"@{value.idnum}.{value.generation}"
    if isinstance(value, DictionaryObject) and depth < 3:
        return "{" + ",".join(f"{k}:{_shallow(value.raw_get(k), depth + 1)}" for k in sorted(value)) + "}"
    return repr(value)


def _page_prints(data: bytes, signatures: list[bytes]) -> tuple[list[bytes], list[bytes]]:
    """Small renderings of every page (one for each signature), as digests, split into odd and even pages."""
    import hashlib

    prints: dict[bytes, bytes] = {}
    for i, page in _pdfium_pages(data, skip=lambda i: signatures[i] in prints):
        prints[signatures[i]] = hashlib.sha256(
            page.render(scale=ORDER_DPI / 72).to_pil().convert("L").tobytes()).digest()
    ordered = [prints[sig] for sig in signatures]
    return ordered[0::2], ordered[1::2]


def _placed_images_and_text(data: bytes, reader, profile, signatures: list[bytes]) -> list[str]:
    """The resolution of every placed image and text outside the safe zone, on each page that looks
    different from the pages before it (PDFium); a problem names the first page and how many more
    pages look the same."""
    import pypdfium2.raw as pdfium_c

    alike: dict[bytes, int] = {}
    for sig in signatures:
        alike[sig] = alike.get(sig, 0) + 1
    seen: set[bytes] = set()
    out = []
    for i, page in _pdfium_pages(data, skip=lambda i: signatures[i] in seen):
        seen.add(signatures[i])
        more = alike[signatures[i]] - 1
        also = f" (and {more} more page{'s' if more > 1 else ''} alike)" if more else ""
        lines = _page_images(page, profile, pdfium_c)
        text = _page_text(page, reader.pages[i], profile)
        out += [f"page {i + 1}{also}: {line}" for line in lines + ([text] if text else [])]
    return out


def text_outside_safe_zone(data: bytes, profile, pages=None) -> list[tuple[int, str]]:
    """(page number, what) for every page of the PDF ``data`` (of ``pages``, 0-based, when given) with
    text outside the safe zone."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    skip = None if pages is None else (lambda i: i not in pages)
    found = ((i + 1, _page_text(page, reader.pages[i], profile)) for i, page in _pdfium_pages(data, skip))
    return [(number, text) for number, text in found if text]


def _page_images(page, profile, pdfium_c) -> list[str]:
    lowest = None
    for count, obj in enumerate(page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=8)):
        if count > MAX_OBJECTS:
            break
        left, bottom, right, top = obj.get_bounds()
        px_w, px_h = obj.get_px_size()
        if right - left < 1 or top - bottom < 1 or min(px_w, px_h) <= 1:
            continue            # a row or column of pixels stretched (art carried into the bleed) is a band
        dpi = min(px_w / ((right - left) / 72), px_h / ((top - bottom) / 72))
        lowest = dpi if lowest is None else min(lowest, dpi)
    if lowest is not None and lowest < profile.dpi - 1:
        return [f"an image at {lowest:.0f} dpi; {profile.shop} asks {profile.dpi} dpi"]
    return []


def _page_text(page, pypdf_page, profile) -> str | None:
    textpage = page.get_textpage()
    try:
        n = textpage.count_chars()
        if not n:
            return None
        trim = pypdf_page.get("/TrimBox") or pypdf_page.mediabox
        x0, y0, x1, y1 = (float(v) for v in trim)
        size = next((s for s in profile.sizes if abs(s.width - (x1 - x0)) < 0.2 and abs(s.height - (y1 - y0)) < 0.2),
                    None)
        if size is None:
            return None
        origin = [float(v) for v in pypdf_page.mediabox][:2]
        x0, y0, x1, y1 = x0 - origin[0], y0 - origin[1], x1 - origin[0], y1 - origin[1]
        worst, word = None, ""
        for i in range(min(n, 100_000)):
            ch = textpage.get_text_range(i, 1)
            if not ch.strip():
                continue
            left, bottom, right, top = textpage.get_charbox(i, loose=False)
            reach = min(left - x0, bottom - y0, x1 - right, y1 - top)
            if reach < size.safe - 0.3 and (worst is None or reach < worst):
                worst, word = reach, _word_at(textpage, i, n)
        if worst is None:
            return None
        where = "past the cut" if worst < 0 else f"{to_mm(worst):.1f} mm from the cut"
        return (f"text {word!r} reaches {where}; {profile.shop} asks text {to_mm(size.safe):.1f} mm inside it "
                "(the safe zone)")
    finally:
        textpage.close()


def _word_at(textpage, i: int, n: int) -> str:
    start, end = i, i
    while start > 0 and textpage.get_text_range(start - 1, 1).strip():
        start -= 1
    while end + 1 < n and textpage.get_text_range(end + 1, 1).strip() and end - start < 30:
        end += 1
    return textpage.get_text_range(start, end - start + 1)


def _pdf_ink(f: ShopFile, profile, signatures: list[bytes]) -> list[str]:
    if shutil.which("gs") is None:
        return ["total ink not measured: rendering PDF pages in CMYK needs Ghostscript (gs); install it "
                "(Debian and Ubuntu: apt-get install ghostscript)"]
    first = first_pages(signatures)
    try:
        rendered = cmyk_renderings(f.data, tuple(first.values()), INK_DPI)
    except GameDataError as exc:
        raise GameDataError(exc.message, file=f.name) from None
    lines = {sig: _ink_line(rendered[number], profile) for sig, number in first.items()}
    return [f"page {number}: {lines[sig]}" for number, sig in enumerate(signatures, start=1) if lines[sig]]


def first_pages(signatures: list[bytes]) -> dict[bytes, int]:
    """The first page number (from 1) of each signature, in page order."""
    first: dict[bytes, int] = {}
    for number, sig in enumerate(signatures, start=1):
        first.setdefault(sig, number)
    return first


@lru_cache(maxsize=1)
def cmyk_renderings(data: bytes, pages: tuple[int, ...], dpi: int) -> dict:
    """Pages ``pages`` (numbers from 1) of the PDF ``data`` rendered in CMYK by Ghostscript at ``dpi``:
    page number -> CMYK Pillow image.  The last answer is kept, so the export's soft proof and its
    preflight render once."""
    from PIL import Image

    gs = shutil.which("gs")
    if gs is None:
        raise GameDataError("rendering PDF pages in CMYK needs Ghostscript (gs); install it (Debian and "
                            "Ubuntu: apt-get install ghostscript)")
    out = {}
    with tempfile.TemporaryDirectory(prefix="kitgen-preflight-") as folder:
        source = os.path.join(folder, "in.pdf")
        with open(source, "wb") as fh:
            fh.write(data)
        command = [gs, "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=tiff32nc", f"-r{dpi}",
                   "-sCompression=lzw", f"-sPageList={','.join(map(str, pages))}",
                   f"-sOutputFile={os.path.join(folder, 'p%05d.tif')}", source]
        try:
            done = subprocess.run(command, capture_output=True, timeout=RENDER_SECONDS, check=False)
        except subprocess.TimeoutExpired:
            raise GameDataError(f"rendering took more than {RENDER_SECONDS} s; kitgen checks card files") from None
        if done.returncode != 0:
            raise GameDataError("Ghostscript cannot render this PDF; it is damaged")
        for rendered, number in enumerate(pages, start=1):
            path = os.path.join(folder, f"p{rendered:05d}.tif")
            if not os.path.exists(path):
                raise GameDataError(f"Ghostscript rendered no page {number}; the PDF is damaged")
            with Image.open(path) as image:
                out[number] = image.convert("CMYK")
    return out
