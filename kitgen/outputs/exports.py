"""Exports of a game beyond the home-printer kit: card PNGs, a print-shop PDF,
Tabletop Simulator deck sheets and a contact sheet.

``export_game(game_or_path, fmt, out, options)`` is the one entry point; each
format lives in its own module with its default bleed and DPI and an
``export(job, target)`` function.  Every picture is a rasterised PDF page
drawn by the kit's own card painter.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path

from kitgen.errors import OptionError
from kitgen.outputs.export_job import ExportOptions, prepare
from kitgen.outputs.kit_lock import kit_lock
from kitgen.outputs.progress import Report

# format -> (module, output name under <out>/<slug>/)
FORMATS: dict[str, tuple[str, str]] = {
    "png": ("png", "png"),
    "print-shop": ("print_shop", "print-shop.pdf"),
    "tts": ("tts", "tts"),
    "contact-sheet": ("contact_sheet", "contact-sheet.png"),
}


@dataclass
class ExportResult:
    format: str
    title: str
    target: Path              # the folder or file written
    files: list[Path]
    cards: int                # copies in the deck
    faces: int                # distinct card faces
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def export_game(game_or_path: str | Path, fmt: str, out: str | Path = "output",
                options: ExportOptions = ExportOptions(), progress: Report | None = None) -> ExportResult:
    """Export one game in format ``fmt`` under ``out/<slug>/``; nothing is written if anything fails.
    ``progress(done, total)`` is told of the pages rasterised."""
    if fmt not in FORMATS:
        raise OptionError("--format", f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
    module_name, output_name = FORMATS[fmt]
    module = importlib.import_module(f"kitgen.outputs.{module_name}")
    _check_applies(fmt, module, options)
    job = prepare(game_or_path, options, module.DEFAULT_BLEED, module.DEFAULT_DPI,
                  full_size_images=getattr(module, "FULL_SIZE_IMAGES", False))
    job.progress = progress
    target = Path(out) / job.game.slug / output_name
    with kit_lock(target.parent, f"kitgen export {game_or_path} --format {fmt}"):
        files = module.export(job, target)
    return ExportResult(format=fmt, title=job.game.title, target=target, files=list(files),
                        cards=job.deck_size, faces=len(job.game.cards), warnings=list(job.art.warnings),
                        notes=list(job.notes))


def _check_applies(fmt: str, module, options: ExportOptions) -> None:
    """Refuse options the format would silently ignore."""
    if options.bleed is not None and not getattr(module, "USES_BLEED", True):
        raise OptionError("--bleed", f"{fmt} images show cards cut to their trim size; leave --bleed out")
    if options.dpi is not None and not getattr(module, "USES_DPI", True):
        raise OptionError("--dpi", f"the {fmt} PDF is vector and has no resolution; leave --dpi out")
    if options.base_url is not None and fmt != "tts":
        raise OptionError("--base-url", "only the tts format refers to image URLs")


__all__ = ["FORMATS", "ExportOptions", "ExportResult", "export_game"]
