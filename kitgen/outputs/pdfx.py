"""PDF/X-1a:2003 files of CMYK card pictures: what a print shop that asks for PDF/X-1a takes.

Each page is one card picture with its bleed, in DeviceCMYK (8 bits a channel,
Flate-compressed), its TrimBox at the cut and its BleedBox (and MediaBox) the
whole page.  The file says what it is the way ISO 15930-4 asks: an output
intent naming the printing condition (FOGRA39) with its ICC profile embedded,
``GTS_PDFXVersion`` and ``GTS_PDFXConformance`` in the document information,
``Trapped`` set, PDF 1.4.  Nothing in it is transparent, no colour is RGB, and
it holds no text (the cards are pictures), so no font needs embedding.  A
picture used on many pages (the shared back) is stored once.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

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


def pdfx_pdf(pictures: dict, pages: list[PdfxPage], size: tuple[float, float], trim: tuple[float, float, float, float],
             title: str, icc: bytes, condition: str, condition_text: str) -> bytes:
    """A PDF/X-1a:2003 file whose every page is one of ``pictures`` (CMYK Pillow images) filling ``size``.

    ``trim`` is the TrimBox (points, from the bottom left); the BleedBox is the whole page.
    """
    canvas = new_canvas(size, title, "print file, PDF/X-1a:2003")
    doc = canvas._doc
    info = _PdfxInfo()
    info.__dict__.update(doc.info.__dict__)
    doc.info = info
    doc._pdfVersion = (1, 4)
    profile = PDFStream(content=zlib.compress(icc, COMPRESS_LEVEL), filters=None)
    profile.dictionary["N"] = 4
    profile.dictionary["Filter"] = PDFName("FlateDecode")
    intent = PDFDictionary({"Type": PDFName("OutputIntent"), "S": PDFName("GTS_PDFX"),
                            "OutputConditionIdentifier": PDFString(condition),
                            "OutputCondition": PDFString(condition_text),
                            "RegistryName": PDFString(REGISTRY), "Info": PDFString(condition_text),
                            "DestOutputProfile": doc.Reference(profile, "kitgenOutputProfile")})
    catalog = doc.Catalog
    catalog.OutputIntents = PDFArray([doc.Reference(intent, "kitgenOutputIntent")])
    catalog.__NoDefault__ = list(type(catalog).__NoDefault__) + ["OutputIntents"]
    encoded = {key: _encode(image) for key, image in pictures.items()}
    canvas.setTrimBox(trim)
    canvas.setBleedBox((0, 0, size[0], size[1]))
    for page in pages:
        draw_encoded(canvas, f"card{page.picture}", encoded[page.picture], 0, 0, size[0], size[1])
        canvas.showPage()
    return canvas_bytes(canvas)


def _encode(image) -> EncodedImage:
    if image.mode != "CMYK":
        raise ValueError(f"a PDF/X-1a picture must be CMYK, not {image.mode}")
    return EncodedImage(image.width, image.height, 8, PDFName("DeviceCMYK"), ("FlateDecode",),
                        zlib.compress(image.tobytes(), COMPRESS_LEVEL))
