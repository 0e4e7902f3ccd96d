"""Drawing art files fitted to a box, or a placeholder naming a missing file.

Cards, backs and every table aid draw their pictures through :func:`draw_art`,
so a missing file looks the same wherever it was wanted.

Art is embedded once per PDF as an image XObject named after the file's
content (a SHA-256 digest), so the same game gives the same bytes wherever
its folder lives.  A PNG whose pixels PDF can read as they are (8-bit grey or
RGB, or a palette; not interlaced) goes in without being decoded and
recompressed: its compressed rows are copied into the PDF with PNG's row
predictors declared, and only a palette's transparency is decoded, into a
soft mask.  Other files (JPEG, PNG with an alpha channel, ...) are encoded by
reportlab, as ``canvas.drawImage`` would.  Encodings are kept for the whole
process, so a picture on the cards and on the aids is encoded once.

On a canvas that draws for a press (``canvas.inks``), the inks encode the art
instead (in the press's colours, its clear pixels as a stencil mask where they
are wholly clear); a picture that still needs a soft mask is noted as
transparency on the canvas.
"""

from __future__ import annotations

import hashlib
import io
import os
import struct
import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from reportlab.pdfbase.pdfdoc import PDFArray, PDFDictionary, PDFName, PDFObject, PDFObjectReference, PDFStream

from kitgen.data.files import look, read_bytes
from kitgen.errors import RenderError
from kitgen.layout.card_face import fit_image
from kitgen.layout.geometry import Rect
from kitgen.render import fonts
from kitgen.render.canvas import set_text_fill
from kitgen.render.colors import INK, PLACEHOLDER, PLACEHOLDER_EDGE
from kitgen.render.text_fit import fit_line, shorten_line

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def image_size(path) -> tuple[int, int]:
    """Width and height of an art file in pixels."""
    image = _art_file(path)[1]
    return image.width, image.height


def draw_art(canvas, path, box: Rect, label: str, cover: bool = False) -> None:
    """The art file at ``path`` centred in ``box``, aspect kept (``cover``: filling it, overflowing);
    a placeholder naming ``label`` when ``path`` is None (the file is missing)."""
    if path is not None:
        w, h = image_size(path)
        r = fit_image(box, w, h, cover=cover)
        draw_image(canvas, path, r.x, r.y, r.w, r.h)
        return
    canvas.saveState()
    canvas.setFillColor(PLACEHOLDER)
    canvas.setStrokeColor(PLACEHOLDER_EDGE)
    canvas.setLineWidth(0.6)
    canvas.rect(box.x, box.y, box.w, box.h, fill=1, stroke=1)
    canvas.line(box.x, box.y, box.x1, box.y1)
    canvas.line(box.x, box.y1, box.x1, box.y)
    text = f"art missing: {label}"
    size = fit_line(text, fonts.REGULAR, max(5.0, min(8.0, box.h / 6)), 3.5, box.w - 6)
    if size is None:                      # a long name is cut short in its middle, and never leaves the box
        size, text = 3.5, shorten_line(text, fonts.REGULAR, 3.5, box.w - 6)
    clip = canvas.beginPath()
    clip.rect(box.x, box.y, box.w, box.h)
    canvas.clipPath(clip, stroke=0, fill=0)
    set_text_fill(canvas, INK)
    canvas.setFont(fonts.REGULAR, size)
    cx, cy = box.center
    canvas.drawCentredString(cx, cy - size / 3, text)
    canvas.restoreState()


def draw_art_to_bleed(canvas, path, box: Rect, bleed: float, label: str) -> None:
    """Art covering ``box`` (a card's trim), never scaled up to reach the ``bleed`` around it.

    Where the picture stops short of the bleed's edge, its outermost row or
    column of pixels is stretched out to it (each strip is the same image
    drawn again, clipped, one pixel as wide as the strip), so a cut that drifts
    into the bleed finds the colour of the card's edge.  The picture itself,
    and any border drawn near its edge, stays exactly where it would be
    without bleed.  For a press (``canvas.inks``) each strip is that row or
    column of pixels alone, stretched, so no image in the file is drawn many
    times larger than it shows.
    """
    if path is None:
        draw_art(canvas, None, box, label)
        return
    w_px, h_px = image_size(path)
    r = fit_image(box, w_px, h_px, cover=True)
    out = box.outset(bleed)
    draw_image(canvas, path, r.x, r.y, r.w, r.h)
    inks = getattr(canvas, "inks", None)
    # for each direction: (from, to) of a span, where the image goes in it and how long, the pixels it shows
    spans_x = [(r.x, r.x1, r.x, r.w, None)]
    if r.x > out.x + 1e-6:                     # the first column stretched over the left bleed
        spans_x.append((out.x, r.x, out.x, (r.x - out.x) * w_px, 0))
    if r.x1 < out.x1 - 1e-6:                   # the last column over the right bleed
        px = out.x1 - r.x1
        spans_x.append((r.x1, out.x1, out.x1 - px * w_px, px * w_px, -1))
    spans_y = [(r.y, r.y1, r.y, r.h, None)]
    if r.y1 < out.y1 - 1e-6:                   # the top row over the top bleed
        px = out.y1 - r.y1
        spans_y.append((r.y1, out.y1, out.y1 - px * h_px, px * h_px, 0))
    if r.y > out.y + 1e-6:                     # the bottom row over the bottom bleed
        spans_y.append((out.y, r.y, out.y, (r.y - out.y) * h_px, -1))
    for i, (x0, x1, ix, iw, column) in enumerate(spans_x):
        for j, (y0, y1, iy, ih, row) in enumerate(spans_y):
            if i == 0 and j == 0:
                continue            # the picture itself, drawn above
            if inks is not None:    # for a press: that row or column alone, stretched (no clipped giant)
                name, edge = inks.art_edge(path, r.w, r.h, column, row)
                draw_encoded(canvas, f"art{name}", edge, x0, y0, x1 - x0, y1 - y0)
                continue
            canvas.saveState()
            clip = canvas.beginPath()
            clip.rect(x0, y0, x1 - x0, y1 - y0)
            canvas.clipPath(clip, stroke=0, fill=0)
            draw_image(canvas, path, ix, iy, iw, ih)
            canvas.restoreState()


def draw_image(canvas, path, x: float, y: float, width: float, height: float) -> None:
    """Draw the art file at ``path`` stretched to the box, as ``canvas.drawImage`` does.

    The file is embedded in the canvas's PDF once, under a name made from its content.
    """
    inks = getattr(canvas, "inks", None)
    digest, image = _art_file(path) if inks is None else inks.art(path, width, height)
    if image.smask is not None and inks is not None:
        canvas.note_transparency(f"the soft edges of {os.path.basename(os.fspath(path))}")
    draw_encoded(canvas, f"art{digest}", image, x, y, width, height)


def draw_encoded(canvas, name: str, image: "EncodedImage", x: float, y: float, width: float,
                 height: float) -> None:
    """Draw an encoded image stretched to the box, embedded once per PDF under ``name``."""
    doc = canvas._doc
    reg_name = doc.getXObjectName(name)
    if reg_name not in doc.idToObject:
        xobject = _ImageXObject(image)
        mask = image.smask or image.stencil
        if mask is not None:              # stored once for all the pictures that share it
            mask_name = doc.getXObjectName(f"mask{hashlib.sha256(mask.stream).hexdigest()[:32]}")
            if mask_name in doc.idToObject:
                xobject.mask_ref = PDFObjectReference(mask_name)
            else:
                xobject.mask_ref = doc.Reference(_ImageXObject(mask), mask_name)
        doc.Reference(xobject, reg_name)
        doc.addForm(name, xobject)
    canvas._currentPageHasImages = 1
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(width, height)
    canvas._code.append(f"/{reg_name} Do")
    canvas.restoreState()
    canvas._formsinuse.append(name)


def _art_file(path) -> tuple[str, "EncodedImage"]:
    """The content digest and the encoding of an art file (kept while the file is unchanged)."""
    path = os.fspath(path)
    st = look(path, path)
    if st is None:
        raise RenderError(f"{path}: the art file is gone (moved or deleted while the kit was made)")
    return _encode_file(path, st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=128)
def _encode_file(path: str, mtime_ns: int, size: int) -> tuple[str, "EncodedImage"]:
    data = read_bytes(Path(path), path)
    try:
        image = _png_as_is(data) or _by_reportlab(path)
    except MemoryError:            # out of memory is not a damaged file
        raise
    except Exception as exc:       # Pillow's and reportlab's many errors for a file that is no readable image
        reason = ("it has too many pixels to open safely" if type(exc).__name__ == "DecompressionBombError"
                  else "it is damaged or in another format")
        raise RenderError(f"{path}: cannot read this art file as a PNG or JPEG image; {reason}") from None
    return hashlib.sha256(data).hexdigest()[:32], image


@dataclass(frozen=True)
class EncodedImage:
    """The stream and dictionary entries of one image XObject."""

    width: int
    height: int
    bits: int
    colour_space: object              # a name such as "/DeviceRGB", or a PDF array
    filters: tuple[str, ...]
    stream: bytes
    decode_parms: dict | None = None
    decode: tuple | None = None
    mask: tuple | None = None         # colour-key masking
    smask: "EncodedImage | None" = None     # a soft mask (transparency)
    stencil: "EncodedImage | None" = None   # an explicit mask: its 1 bits hide the picture's pixels
    image_mask: bool = False          # this is such a mask (1 bit a pixel, no colour space)


class _ImageXObject(PDFObject):
    def __init__(self, encoded: EncodedImage):
        self.encoded = encoded
        self.mask_ref = None              # a reference to the soft or stencil mask's XObject, if any

    def format(self, document):
        e = self.encoded
        stream = PDFStream(content=e.stream)
        d = stream.dictionary
        d["Type"] = PDFName("XObject")
        d["Subtype"] = PDFName("Image")
        d["Width"], d["Height"] = e.width, e.height
        d["BitsPerComponent"] = e.bits
        if e.image_mask:
            d["ImageMask"] = "true"
        else:
            d["ColorSpace"] = e.colour_space
        if e.decode:
            d["Decode"] = PDFArray(e.decode)
        d["Filter"] = PDFArray([PDFName(f) for f in e.filters])
        if e.decode_parms:
            d["DecodeParms"] = PDFArray([PDFDictionary(e.decode_parms)])   # one per filter
        d["Length"] = len(e.stream)
        if e.mask:
            d["Mask"] = PDFArray(e.mask)
        if self.mask_ref is not None:
            d["SMask" if e.smask is not None else "Mask"] = self.mask_ref
        return stream.format(document)


def _png_chunks(data: bytes):
    """(kind, body) of each chunk of a PNG file; ValueError if one is cut short or damaged."""
    pos = 8
    while True:
        if pos + 12 > len(data):
            raise ValueError("the file ends before its last chunk")
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        end = pos + 8 + length
        if end + 4 > len(data) or zlib.crc32(data[pos + 4:end]) != struct.unpack(">I", data[end:end + 4])[0]:
            raise ValueError(f"chunk {kind!r} is damaged")
        yield kind, data[pos + 8:end]
        if kind == b"IEND":
            return
        pos = end + 4


def _png_as_is(data: bytes) -> EncodedImage | None:
    """A PNG's own compressed rows as a PDF image, or None when PDF cannot take them as they are."""
    if not data.startswith(PNG_SIGNATURE):
        return None
    header = palette = transparency = None
    rows = []
    try:
        for kind, body in _png_chunks(data):
            if kind == b"IHDR" and len(body) == 13:
                header = struct.unpack(">IIBBBBB", body)
            elif kind == b"PLTE":
                palette = body
            elif kind == b"tRNS":
                transparency = body
            elif kind == b"IDAT":
                rows.append(body)
    except ValueError:
        return None           # let the decoder say what is wrong
    if header is None or not rows:
        return None
    width, height, bits, colour, compression, filtering, interlace = header
    if compression or filtering or interlace:
        return None
    if colour == 3 and palette and bits in (1, 2, 4, 8):
        entries = 1 << bits
        lookup = palette[:3 * entries].ljust(3 * entries, b"\0")   # indices past the palette are black
        space = PDFArray([PDFName("Indexed"), PDFName("DeviceRGB"), entries - 1, f"<{lookup.hex()}>"])
        channels = 1
    elif colour in (0, 2) and bits == 8 and transparency is None:
        space, channels = PDFName("DeviceGray" if colour == 0 else "DeviceRGB"), 1 if colour == 0 else 3
    else:
        return None
    smask = _palette_alpha(data, width, height, transparency) if colour == 3 and transparency else None
    parms = {"Predictor": 15, "Colors": channels, "BitsPerComponent": bits, "Columns": width}
    return EncodedImage(width, height, bits, space, ("FlateDecode",), b"".join(rows), parms, smask=smask)


def _palette_alpha(data: bytes, width: int, height: int, transparency: bytes) -> EncodedImage:
    """The soft mask of a palette image: each pixel's alpha from its palette entry's."""
    from PIL import Image

    table = transparency[:256].ljust(256, b"\xff")
    with Image.open(io.BytesIO(data)) as im:
        return _alpha_mask(im.tobytes().translate(table), width, height)


@lru_cache(maxsize=32)
def _alpha_mask(alpha: bytes, width: int, height: int) -> EncodedImage:
    """A soft mask, compressed once for all the pictures that share it (art often has one frame)."""
    return EncodedImage(width, height, 8, PDFName("DeviceGray"), ("FlateDecode",), zlib.compress(alpha),
                        decode=(0, 1))


def _by_reportlab(path: str) -> EncodedImage:
    """Any other image file, encoded by reportlab (JPEG as it is, the rest decoded and compressed)."""
    from reportlab.pdfbase.pdfdoc import PDFImageXObject

    obj = PDFImageXObject("art", path, mask="auto")
    smask = getattr(obj, "_smask", None)
    return EncodedImage(obj.width, obj.height, obj.bitsPerComponent, PDFName(obj.colorSpace), tuple(obj._filters),
                        _bytes(obj.streamContent), decode=_decode_of(obj), mask=tuple(obj.mask) if obj.mask else None,
                        smask=_by_reportlab_mask(smask) if smask is not None else None)


def _by_reportlab_mask(obj) -> EncodedImage:
    return EncodedImage(obj.width, obj.height, obj.bitsPerComponent, PDFName(obj.colorSpace), tuple(obj._filters),
                        _bytes(obj.streamContent), decode=_decode_of(obj))


def _bytes(stream) -> bytes:
    """reportlab keeps some streams as text of byte values; PDF streams are bytes."""
    return stream.encode("latin-1") if isinstance(stream, str) else stream


def _decode_of(obj) -> tuple | None:
    if obj.colorSpace == "DeviceCMYK" and getattr(obj, "_dotrans", 0):
        return (1, 0, 1, 0, 1, 0, 1, 0)
    decode = getattr(obj, "_decode", None)
    return tuple(decode) if decode else None
