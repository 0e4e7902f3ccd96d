"""Variant files of ``kitgen simulate --compare``: KEY = VALUE lines, the keys of ``--set``, for any engine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kitgen.errors import GameDataError, OptionError

MAX_VARIANT_BYTES = 1024 * 1024     # a variant file holds a few KEY = VALUE lines


def read_variant(path: Path) -> tuple[str, dict[str, Any]]:
    """A variant file: KEY = VALUE lines (optionally under [rules]); ``name`` labels it.

    Only a regular file of at most :data:`MAX_VARIANT_BYTES` is read (a device such as
    ``/dev/zero``, a FIFO or a folder is named as such), as TOML within kitgen's bounds."""
    from kitgen.data.files import decode_text, parse_toml, read_bytes

    where = f"--compare {path}"
    try:
        data = parse_toml(decode_text(read_bytes(Path(path), str(path), MAX_VARIANT_BYTES), str(path)), str(path))
    except GameDataError as exc:              # "<path>: what is wrong with it"
        raise OptionError("--compare", str(exc)) from None
    name = str(data.pop("name", Path(path).stem))
    settings: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict):
            for sub, v in value.items():
                settings[sub if key in ("rules", "rulings", "simulation") else f"{key}.{sub}"] = v
        else:
            settings[key] = value
    if not settings:
        raise OptionError(where, "the file changes no rule; write KEY = VALUE lines such as round_cap = 100, with the keys of --set")
    return name, settings
