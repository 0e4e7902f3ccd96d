"""A simulator run's balance report written out: balance.json and balance.pdf, all or nothing.

The simulator (:mod:`solver.simulation`) returns its figures as data; this module turns them
into the two files, drawing the PDF from the same data balance.json holds
(:mod:`kitgen.render.balance_report`), and writes them atomically under ``out/<slug>/``.
"""

from __future__ import annotations

import json
from pathlib import Path


def balance_files(result) -> dict[str, bytes]:
    """balance.json and balance.pdf of a :class:`solver.simulation.simulate.SimulationResult`."""
    from kitgen.render.balance_report import render_report

    data = result.balance_json()
    parsed = json.loads(data)        # the report is drawn from what balance.json says, nothing else
    variant = parsed.get("variant")
    return {"balance.json": data,
            "balance.pdf": render_report(parsed["baseline"], variant, variant["name"] if variant else "",
                                         parsed.get("comparison"), result.title)}


def write_balance(result, out: Path) -> list[Path]:
    """Write the run's report into ``out/<slug>/``; the paths written."""
    from kitgen.outputs.files import write_files

    return write_files(Path(out) / result.slug, balance_files(result))
