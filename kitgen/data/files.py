"""Reading a user's files: bytes with a clear error when they cannot be read, and text as UTF-8.

A game folder may come from someone else, so no file is read past
:data:`MAX_FILE_BYTES`.
"""

from __future__ import annotations

from pathlib import Path

from kitgen.errors import GameDataError

MAX_FILE_BYTES = 64 * 1024 * 1024     # a card sheet of 100,000 rows is a few megabytes


def read_bytes(path: Path, where: str) -> bytes:
    """The file's bytes, or a :class:`GameDataError` naming ``where`` (missing, a folder, too large...)."""
    try:
        size = path.stat().st_size
        if path.is_dir():
            raise IsADirectoryError
        if size > MAX_FILE_BYTES:
            raise GameDataError(f"the file is {size / 2**20:.0f} MB; kitgen reads files of at most "
                                f"{MAX_FILE_BYTES // 2**20} MB", file=where)
        return path.read_bytes()
    except FileNotFoundError:
        raise GameDataError("file not found", file=where) from None
    except IsADirectoryError:
        raise GameDataError("is a folder, expected a file", file=where) from None
    except OSError as exc:
        raise GameDataError(f"cannot read file ({exc.strerror})", file=where) from None


def decode_text(raw: bytes, where: str) -> str:
    """UTF-8 text, with or without a byte-order mark (UTF-16 too, when a byte-order mark says so)."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):      # "Unicode text" as some spreadsheet programs save it
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError:
            raise GameDataError("not valid UTF-16 text although it starts like UTF-16; save it as UTF-8 "
                                "(\"CSV UTF-8\" in spreadsheet programs)", file=where) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise GameDataError(
            f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start}); "
            "save it as UTF-8 (\"CSV UTF-8\" in spreadsheet programs)", file=where) from None
