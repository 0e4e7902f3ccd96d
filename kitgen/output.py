"""Writing build results: deterministic PDF canvases and atomic file replacement."""

from __future__ import annotations

import io
import os
import tempfile
from pathlib import Path

from .errors import KitgenError


class OutputError(KitgenError):
    """The output folder cannot be created or written."""


def new_canvas(pagesize, title: str, subject: str = ""):
    """A reportlab canvas writing to memory, set up for byte-identical rebuilds.

    ``invariant`` fixes the creation date and document id; viewers are asked
    to print at actual size, never "fit to page".
    """
    from reportlab import rl_config
    from reportlab.pdfgen.canvas import Canvas

    from . import fonts

    rl_config.useA85 = 0   # binary streams: smaller files, and no slow ASCII85 pass over images

    fonts.register()
    buffer = io.BytesIO()
    # the initial font is a registered TrueType face, so no unembedded Helvetica is ever referenced
    canvas = Canvas(buffer, pagesize=tuple(pagesize), invariant=1, pageCompression=1,
                    initialFontName=fonts.REGULAR)
    canvas.setTitle(title)
    canvas.setAuthor("kitgen")
    canvas.setCreator("kitgen")
    canvas.setProducer("kitgen")
    if subject:
        canvas.setSubject(subject)
    canvas.setViewerPreference("PrintScaling", "None")
    canvas._kitgen_buffer = buffer
    return canvas


def canvas_bytes(canvas) -> bytes:
    canvas.save()
    return canvas._kitgen_buffer.getvalue()


def ensure_dir(folder: Path, option: str = "--out") -> Path:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{option}: cannot create folder {folder} ({exc.strerror})") from None
    if not os.access(folder, os.W_OK):
        raise OutputError(f"{option}: folder {folder} is not writable")
    return folder


def write_files(folder: Path, files: dict[str, bytes], option: str = "--out") -> list[Path]:
    """Write every file to a temporary name first, then move them all into place.

    Nothing is replaced unless every file was written, so a failed build never
    leaves a half-written PDF or a kit whose parts disagree.
    """
    ensure_dir(folder, option)
    staged: list[tuple[str, Path]] = []
    try:
        for name, data in files.items():
            fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
            staged.append((name, Path(tmp)))
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.chmod(tmp, 0o644)
        for name, tmp in staged:
            os.replace(tmp, folder / name)
    except OSError as exc:
        for _, tmp in staged:
            tmp.unlink(missing_ok=True)
        raise OutputError(f"{option}: cannot write to {folder} ({exc.strerror})") from None
    return [folder / name for name in files]
