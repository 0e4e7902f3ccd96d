"""PDF pages to pixels with PDFium, and pixels to deterministic sRGB PNG files.

Every picture kitgen exports is a PDF page drawn by the same code as the
printed kit, rasterised here, so a PNG can never drift from the PDF.  PDFium
is not thread-safe, so more speed comes from a pool of processes, each
opening its own copy of the document.  This module imports nothing from the
rest of kitgen, so a worker process starts quickly.
"""

from __future__ import annotations

import io
import multiprocessing
import signal
import struct
import sys
from dataclasses import dataclass
from typing import Callable

from kitgen.errors import WorkerFailed

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


def png_bytes(image, dpi: float) -> bytes:
    """``image`` as PNG bytes: RGB, sRGB chunks, DPI stored, same bytes for the same pixels."""
    from PIL import PngImagePlugin

    info = PngImagePlugin.PngInfo()
    for cid, data in _SRGB_CHUNKS:
        info.add(cid, data)
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, "PNG", pnginfo=info, dpi=(dpi, dpi),
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
        image = bitmap.to_pil().convert("RGB")
        image.load()
        return image.copy()
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


def _pool_context():
    """Fork where the system has it: workers start at once and need no importable main script."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def start_worker() -> None:
    """In a worker: leave Ctrl-C to the main process, which stops the pool (no traceback per worker);
    on Linux, also die with the main process if it is killed (kill -9 leaves no workers behind)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from kitgen.outputs.kit_lock import forget_locks

    forget_locks()
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None).prctl(1, signal.SIGKILL)          # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass


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
    """Rasterise in ``processes`` worker processes, each given its share of pages up front (balanced by
    area) and sending back one small batch at a time, so progress shows and a dead worker is noticed:
    its pipe closes before it has sent every batch.  On any failure or Ctrl-C every worker is stopped."""
    from multiprocessing.connection import wait

    context = _pool_context()
    workers: dict = {}                           # pipe -> [process, batches, batches received]
    results: dict = {}
    try:
        for share in _batches(jobs, processes):
            step = max(1, len(share) // 4)
            batches = [share[i:i + step] for i in range(0, len(share), step)]
            receive, send = context.Pipe(duplex=False)
            process = context.Process(target=_worker, args=(send, pdf, batches, dpi), daemon=True)
            process.start()
            send.close()
            workers[receive] = [process, batches, 0]
        while any(done < len(batches) for _, batches, done in workers.values()):
            for pipe in wait([p for p, (_, b, done) in workers.items() if done < len(b)]):
                process, batches, done = workers[pipe]
                try:
                    message = pipe.recv()
                except EOFError:
                    raise WorkerFailed("a process rasterising pages stopped unexpectedly (out of memory, or "
                                       "killed?); try fewer --jobs or a lower --dpi") from None
                if isinstance(message, str):
                    raise WorkerFailed(f"rasterising a page failed: {message}")
                results.update(zip(batches[done], message))
                workers[pipe][2] = done + 1
                if progress:
                    progress(len(batches[done]))
    finally:
        for process, _, _ in workers.values():
            if process.is_alive():
                process.terminate()
            process.join()
        for pipe in workers:
            pipe.close()
    return results


def _worker(pipe, pdf: bytes, batches: list[list[PageJob]], dpi) -> None:
    """A worker process: render each batch and send its results; a failure is sent as one line."""
    start_worker()
    try:
        for batch in batches:
            pipe.send(_render_batch(pdf, batch, dpi))
    except Exception as exc:
        pipe.send(f"{type(exc).__name__}: {exc}")
    finally:
        pipe.close()
