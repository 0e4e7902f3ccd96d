"""PDF pages to pixels with PDFium, and pixels to deterministic sRGB PNG files.

Every picture kitgen exports is a PDF page drawn by the same code as the
printed kit, rasterised here, so a PNG can never drift from the PDF.  PDFium
is not thread-safe, so more speed comes from worker processes
(:mod:`kitgen.outputs.workers`), each opening its own copy of the document.
"""

from __future__ import annotations

import io
import struct
from dataclasses import dataclass
from typing import Callable

# PNG colour chunks saying "these pixels are sRGB": the sRGB chunk (perceptual
# intent) plus the gAMA and cHRM values the PNG specification pairs with it
# for readers that do not know sRGB.
_SRGB_CHUNKS = (
    (b"sRGB", b"\x00"),
    (b"gAMA", struct.pack(">I", 45455)),
    (b"cHRM", struct.pack(">8I", 31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000)),
)
PNG_COMPRESS_LEVEL = 6


@dataclass(frozen=True)
class PageJob:
    """One page to rasterise: its 0-based index and the exact pixel size wanted."""

    page: int
    width: int
    height: int


def as_rgb(image):
    """``image`` in RGB: itself when it is already (saving, resizing and colour transforms read their input and
    leave it alone; ``convert`` to the same mode would copy every pixel)."""
    return image if image.mode == "RGB" else image.convert("RGB")


def png_bytes(image, dpi: float) -> bytes:
    """``image`` as PNG bytes: RGB, sRGB chunks, DPI stored, same bytes for the same pixels."""
    from PIL import PngImagePlugin

    info = PngImagePlugin.PngInfo()
    for cid, data in _SRGB_CHUNKS:
        info.add(cid, data)
    buffer = io.BytesIO()
    as_rgb(image).save(buffer, "PNG", pnginfo=info, dpi=(dpi, dpi),
                       compress_level=PNG_COMPRESS_LEVEL, optimize=False)
    return buffer.getvalue()


def _render(document, job: PageJob):
    """The page scaled to exactly ``job.width`` x ``job.height`` pixels, as an RGB Pillow image."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as pdfium_c

    page = document[job.page]
    try:
        bitmap = pdfium.PdfBitmap.new_native(job.width, job.height, pdfium_c.FPDFBitmap_BGR,
                                             rev_byteorder=True)
        bitmap.fill_rect((255, 255, 255, 255), 0, 0, job.width, job.height)
        pdfium_c.FPDF_RenderPageBitmap(bitmap, page, 0, 0, job.width, job.height, 0,
                                       pdfium_c.FPDF_REVERSE_BYTE_ORDER)
        return bitmap.to_pil().convert("RGB")      # a copy, out of the bitmap's memory
    finally:
        page.close()


def _render_batch(pdf: bytes, jobs: list[PageJob], dpi: float | None) -> list[tuple]:
    """Worker: render ``jobs`` of one document; PNG bytes when ``dpi`` is given, else raw RGB."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        out = []
        for job in jobs:
            image = _render(document, job)
            if dpi is None:
                out.append((image.size, image.tobytes()))
            else:
                out.append(png_bytes(image, dpi))
        return out
    finally:
        document.close()


def _batches(jobs: list[PageJob], parts: int) -> list[list[PageJob]]:
    """Split the jobs into ``parts`` lists of about equal pixel area, keeping each list in order."""
    bins: list[list[PageJob]] = [[] for _ in range(parts)]
    load = [0] * parts
    for job in sorted(jobs, key=lambda j: -j.width * j.height):
        i = load.index(min(load))
        bins[i].append(job)
        load[i] += job.width * job.height
    return [sorted(b, key=lambda j: j.page) for b in bins if b]


def rasterise(pdf: bytes, jobs: list[PageJob], processes: int = 1, dpi: float | None = None,
              progress: Callable[[int], None] | None = None) -> list:
    """Render the pages in ``jobs`` (results in the same order).

    With ``dpi`` the results are PNG bytes carrying that DPI; without it, Pillow
    RGB images.  ``processes`` > 1 spreads the pages over a pool of processes.
    ``progress(n)`` is told of every ``n`` pages done.  A worker that dies (out
    of memory, killed) or fails raises :class:`WorkerFailed`; Ctrl-C stops
    every worker at once.
    """
    if not jobs:
        return []
    processes = max(1, min(processes, len(jobs)))
    results: dict = {}
    if processes == 1:
        for batch in _batches(jobs, min(len(jobs), 8)) if progress else [jobs]:
            results.update(zip(batch, _render_batch(pdf, batch, dpi)))
            if progress:
                progress(len(batch))
    else:
        results = _in_pool(pdf, jobs, processes, dpi, progress)
    out = [results[job] for job in jobs]
    if dpi is None:
        from PIL import Image

        out = [Image.frombytes("RGB", size, data) for size, data in out]
    return out


def _in_pool(pdf: bytes, jobs: list[PageJob], processes: int, dpi, progress) -> dict:
    """Rasterise in ``processes`` worker processes (:func:`kitgen.outputs.workers.run_tasks`), in batches
    of about equal area, four for each worker, so that progress shows and the workers finish together."""
    from kitgen.outputs.workers import run_tasks

    batches = _batches(jobs, processes * 4)
    results: dict = {}

    def done(index: int, images: list) -> None:
        results.update(zip(batches[index], images))
        if progress:
            progress(len(batches[index]))

    run_tasks(_render_task, (pdf, dpi), batches, processes, done,
              died="a process rasterising pages stopped unexpectedly (out of memory, or killed?); "
                   "try fewer --jobs or a lower --dpi",
              failed=lambda batch, reason: f"rasterising a page failed: {reason}")
    return results


def _render_task(shared: tuple, batch: list[PageJob]) -> list[tuple]:
    """In a worker: one batch of the document given to every worker."""
    pdf, dpi = shared
    return _render_batch(pdf, batch, dpi)
