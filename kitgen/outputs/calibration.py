"""Writing the duplex calibration sheet (see :mod:`kitgen.layout.calibration`)."""

from __future__ import annotations

from pathlib import Path

from kitgen.units import paper_size


def calibration_bytes(paper: str = "letter", duplex: str = "long") -> bytes:
    from kitgen.layout.calibration import calibration_layout
    from kitgen.render.calibration import calibration_pdf

    return calibration_pdf(calibration_layout(paper_size(paper), duplex))


def write_calibration(out: str | Path, paper: str = "letter", duplex: str = "long") -> Path:
    """Write the two-page PDF to ``out`` atomically; returns its path."""
    from kitgen.outputs.files import write_files

    out = Path(out)
    return write_files(out.parent, {out.name: calibration_bytes(paper, duplex)})[0]
