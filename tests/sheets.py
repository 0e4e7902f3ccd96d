"""Game folders around card sheets as designers write them: CSV of any dialect, TSV, XLSX workbooks.

The sheets in the tests are small look-alikes of public card sheets, each with
the quirk that matters (no count column, a semicolon separator, comment rows,
the same name in several factions, colours with transparency, art given as a
web address...).
"""

from __future__ import annotations

import io
import re
import json
import textwrap
import zipfile
from pathlib import Path


def game_folder(folder: Path, sheet: str | bytes, sheet_name: str = "cards.csv", toml: str = "",
                title: str = "Sheet Game") -> Path:
    """A game folder holding ``sheet`` as ``sheet_name`` and a game.toml of the title plus ``toml``."""
    folder.mkdir(parents=True, exist_ok=True)
    head = f'title = "{title}"\n'
    if sheet_name != "cards.csv":
        head += f'data = "{sheet_name}"\n'
    (folder / "game.toml").write_text(head + textwrap.dedent(toml), encoding="utf-8")
    data = sheet if isinstance(sheet, bytes) else sheet.encode("utf-8")
    (folder / sheet_name.partition("#")[0]).write_bytes(data)
    return folder


def layout_box(layout: str, name: str, content: str, x: str = "4mm", y: str = "4mm", w: str = "40mm",
               h: str = "10mm", **keys) -> str:
    """One box of a layouts.toml, ``[layouts.LAYOUT.boxes.NAME]``: its content, place and other keys."""
    settings = {"content": content, "x": x, "y": y, "w": w, "h": h, **keys}
    return f"[layouts.{layout}.boxes.{name}]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in settings.items())


def xlsx_bytes(sheets: dict[str, list[list]]) -> bytes:
    """A workbook with one sheet per entry (in order), each row a list of cell values, saved by openpyxl."""
    import openpyxl

    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in sheets.items():
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def with_saved_values(xlsx: bytes, values: dict[str, str], kinds: dict[str, str] | None = None) -> bytes:
    """The workbook with formula cells given saved values (cell name -> value), as a spreadsheet
    program leaves them (openpyxl writes formulas without one); ``kinds``: a cell's type, e.g. 'e'
    for an error value."""
    source = zipfile.ZipFile(io.BytesIO(xlsx))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename.startswith("xl/worksheets/"):
                text = data.decode("utf-8")
                for cell, value in values.items():
                    start = text.index(f'<c r="{cell}"')
                    end = text.index("</c>", start)
                    part = re.sub(r"<v\s*/>|<v></v>", f"<v>{value}</v>", text[start:end])   # as openpyxl writes it
                    if kinds and cell in kinds:
                        part = part.replace(f'<c r="{cell}"', f'<c r="{cell}" t="{kinds[cell]}"', 1)
                    text = text[:start] + part + text[end:]
                data = text.encode("utf-8")
            target.writestr(info, data)
    return out.getvalue()


def error_lines(result) -> list[str]:
    """The ``Error:`` lines a command printed."""
    return [line for line in result.output.splitlines() if line.startswith("Error: ")]
