"""PDF/X-1a:2003 files: what a print shop that asks for PDF/X-1a takes.

:func:`pdfx_canvas` starts such a file: the document says what it is the way
ISO 15930-4 asks (an output intent naming the printing condition, FOGRA39,
with its ICC profile embedded; ``GTS_PDFXVersion`` and ``GTS_PDFXConformance``
in the document information; ``Trapped`` set; PDF 1.4), and every page gets
its TrimBox at the cut and its BleedBox (and MediaBox) the whole page.  Drawn
with the press's inks (:class:`kitgen.outputs.print_inks.PrintInks`), kitgen's own
drawing goes in as it is, in DeviceCMYK: text as text in its embedded (subset)
fonts, shapes as vectors, art as images.  The creation date and the document
id are fixed, so the same drawing gives the same bytes.

:func:`pdfx_pdf` is the simplest such file: each page one CMYK picture (8 bits
a channel, Flate-compressed), a picture used on many pages stored once.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from functools import lru_cache

from reportlab.pdfbase.pdfdoc import PDFArray, PDFDate, PDFDictionary, PDFInfo, PDFName, PDFStream, PDFString

from kitgen.render.canvas import canvas_bytes, new_canvas
from kitgen.render.images import EncodedImage, draw_encoded

PDFX_VERSION = "PDF/X-1:2003"          # ISO 15930-4's value of GTS_PDFXVersion for PDF/X-1a:2003
PDFX_CONFORMANCE = "PDF/X-1a:2003"
REGISTRY = "http://www.color.org"
COMPRESS_LEVEL = 6


@dataclass(frozen=True)
class PdfxPage:
    """One page: the key of its picture in the pictures given to :func:`pdfx_pdf`."""

    picture: str


@dataclass(frozen=True)
class OutputIntent:
    """The printing condition a PDF/X file is made for, and its ICC profile."""

    icc: bytes
    condition: str              # the ICC registry's name, e.g. FOGRA39
    condition_text: str


class _PdfxInfo(PDFInfo):
    """The document information of a PDF/X file: reportlab's, with the PDF/X keys added."""

    def format(self, document):
        entries = {"Title": PDFString(self.title), "Author": PDFString(self.author),
                   "Subject": PDFString(self.subject), "Creator": PDFString(self.creator),
                   "Producer": PDFString(self.producer), "Keywords": PDFString(self.keywords),
                   "Trapped": PDFName("False"),
                   "GTS_PDFXVersion": PDFString(PDFX_VERSION), "GTS_PDFXConformance": PDFString(PDFX_CONFORMANCE)}
        entries["CreationDate"] = entries["ModDate"] = PDFDate(ts=document._timeStamp,
                                                               dateFormatter=self._dateFormatter)
        return PDFDictionary(entries).format(document)


def pdfx_canvas(size: tuple[float, float], trim: tuple[float, float, float, float], title: str,
                intent: OutputIntent, inks=None):
    """A canvas for a PDF/X-1a:2003 file of pages ``size`` (points) cut at ``trim`` (the TrimBox, from the
    bottom left; the BleedBox is the whole page), drawing in ``inks`` when given.  Finish it with
    :func:`kitgen.render.canvas.canvas_bytes`."""
    canvas = new_canvas(size, title, "print file, PDF/X-1a:2003", inks=inks)
    doc = canvas._doc
    info = _PdfxInfo()
    info.__dict__.update(doc.info.__dict__)
    doc.info = info
    doc._pdfVersion = (1, 4)
    profile = PDFStream(content=_deflated(intent.icc), filters=None)
    profile.dictionary["N"] = 4
    profile.dictionary["Filter"] = PDFName("FlateDecode")
    entry = PDFDictionary({"Type": PDFName("OutputIntent"), "S": PDFName("GTS_PDFX"),
                           "OutputConditionIdentifier": PDFString(intent.condition),
                           "OutputCondition": PDFString(intent.condition_text),
                           "RegistryName": PDFString(REGISTRY), "Info": PDFString(intent.condition_text),
                           "DestOutputProfile": doc.Reference(profile, "kitgenOutputProfile")})
    catalog = doc.Catalog
    catalog.OutputIntents = PDFArray([doc.Reference(entry, "kitgenOutputIntent")])
    catalog.__NoDefault__ = list(type(catalog).__NoDefault__) + ["OutputIntents"]
    canvas.setTrimBox(trim)
    canvas.setBleedBox((0, 0, size[0], size[1]))
    return canvas


@lru_cache(maxsize=4)
def _deflated(icc: bytes) -> bytes:
    """An ICC profile as its stream holds it: compressed once for every file made for it (FOGRA39's is
    346 kB, some 30 ms to deflate)."""
    return zlib.compress(icc, COMPRESS_LEVEL)


def picture_encoding(image) -> EncodedImage:
    """A CMYK Pillow image as a PDF image, to place with :func:`place_picture`."""
    if image.mode != "CMYK":
        raise ValueError(f"a PDF/X-1a picture must be CMYK, not {image.mode}")
    return EncodedImage(image.width, image.height, 8, PDFName("DeviceCMYK"), ("FlateDecode",),
                        zlib.compress(image.tobytes(), COMPRESS_LEVEL))


def place_picture(canvas, key: str, encoded: EncodedImage) -> None:
    """The picture filling the page (stored once per file under ``key``)."""
    w, h = canvas._pagesize
    draw_encoded(canvas, f"card{key}", encoded, 0, 0, w, h)


def pdfx_pdf(pictures: dict, pages: list[PdfxPage], size: tuple[float, float], trim: tuple[float, float, float, float],
             title: str, icc: bytes, condition: str, condition_text: str) -> bytes:
    """A PDF/X-1a:2003 file whose every page is one of ``pictures`` (CMYK Pillow images) filling ``size``."""
    canvas = pdfx_canvas(size, trim, title, OutputIntent(icc, condition, condition_text))
    encoded = {key: picture_encoding(image) for key, image in pictures.items()}
    for page in pages:
        place_picture(canvas, page.picture, encoded[page.picture])
        canvas.showPage()
    return canvas_bytes(canvas)
