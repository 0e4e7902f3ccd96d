"""The command line every ``card_art/<game>/make_art.py`` shares: ``make_art.py [OUTDIR]``.

A script draws its pictures in memory (``build()``: file name -> PNG bytes,
see :mod:`kitgen.render.art_toolkit`) and hands them here; they are written
atomically into OUTDIR, by default the script's own folder.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from kitgen.outputs.files import write_files


def run_script(build: Callable[[], dict[str, bytes]], script: str | Path, argv: list[str] | None = None) -> int:
    """Write every file ``build()`` returns into OUTDIR (``argv``'s one argument) or the
    folder of ``script``; returns the exit status."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) > 1:
        print(f"usage: {Path(script).name} [OUTDIR]", file=sys.stderr)
        return 2
    out = Path(args[0]) if args else Path(script).resolve().parent
    written = write_files(out, build(), option="OUTDIR")
    print(f"wrote {len(written)} files to {out}")
    return 0
