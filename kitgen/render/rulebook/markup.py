"""The rulebook template's output language, parsed into blocks.

A template renders to plain text in a small Markdown-like language::

    # Chapter heading
    ## Section heading
    ### Minor heading

    A paragraph: lines run together until a blank line.  **bold**, *italic*,
    and a backslash makes the next punctuation mark literal (\\*).

    - a bullet item
    1. a numbered item

    ::: ruling Title of the ruling
    Text inside a tinted box (kinds: ruling, note, example).
    :::

Data-driven blocks (card table, component list, diagrams) are inserted by
template functions that emit a private marker line; :func:`parse` replaces
each marker by the :class:`Insert` it stands for.  Values printed with
``{{ ... }}`` are escaped by the template layer (:func:`escape_value`), so card
text can never be read as markup.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from kitgen.errors import GameDataError
from kitgen.render.xml_text import escape as _xml

MARK = "\ue000"                  # private-use character around block markers
BOX_KINDS = ("ruling", "note", "example")
_PUNCT = r"""\!"#$%&'()*+,-./:;<=>?@[]^_`{|}~"""
_MARKER = re.compile(f"^{MARK}(\\d+){MARK}$")
_HEADING = re.compile(r"^(#{1,3})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^\s*[-*]\s+(.*)$")
_NUMBERED = re.compile(r"^\s*(\d+)[.)]\s+(.*)$")
_BOX_OPEN = re.compile(r"^:::\s*([A-Za-z-]+)\s*(.*?)\s*$")
_BOX_CLOSE = re.compile(r"^:::\s*$")


@dataclass(frozen=True)
class Heading:
    level: int
    text: str


@dataclass(frozen=True)
class Paragraph:
    text: str


@dataclass(frozen=True)
class ListBlock:
    items: tuple[str, ...]
    ordered: bool
    start: int = 1


@dataclass(frozen=True)
class Box:
    kind: str
    title: str
    blocks: tuple[Any, ...]


@dataclass(frozen=True)
class Insert:
    """A data-driven block: ``kind`` names a builder in :mod:`kitgen.render.rulebook.flowables`."""

    kind: str
    args: dict[str, Any] = field(default_factory=dict, compare=False)


def escape_value(value: Any) -> str:
    """Text of a template value with every markup character made literal."""
    text = str(value).replace(MARK, "")
    text = " ".join(text.splitlines()) if ("\n" in text or "\r" in text) else text
    return "".join("\\" + ch if ch in _PUNCT else ch for ch in text)


def marker(index: int) -> str:
    return f"\n{MARK}{index}{MARK}\n"


def parse(text: str, inserts: list[Insert], where: str) -> list[Any]:
    """Blocks of the rendered template text."""
    lines = text.splitlines()
    blocks, end = _parse_lines(lines, 0, inserts, where, inside=None)
    return blocks


def _parse_lines(lines, i, inserts, where, inside):
    blocks: list[Any] = []
    para: list[str] = []
    items: list[str] = []
    ordered = False
    start = 1

    def flush():
        nonlocal para, items
        if para:
            blocks.append(Paragraph(_bounded(" ".join(s.strip() for s in para), "a paragraph", where)))
            para = []
        if items:
            for item in items:
                _bounded(item, "a list item", where)
            blocks.append(ListBlock(tuple(items), ordered, start))
            items = []

    while i < len(lines):
        raw = lines[i]
        line = raw.strip()
        i += 1
        if not line:
            if items and _continues_list(lines, i, ordered):
                continue                 # a blank line between two items of one list
            flush()
            continue
        m = _MARKER.match(line)
        if m:
            flush()
            index = int(m.group(1))
            if index >= len(inserts):
                raise GameDataError("stray block marker in the rulebook text", file=where)
            blocks.append(inserts[index])
            continue
        if _BOX_CLOSE.match(line):
            flush()
            if inside is None:
                raise GameDataError(f"':::' closes a box that was never opened (after {_near(lines, i - 2)})",
                                    file=where)
            return blocks, i
        m = _BOX_OPEN.match(line)
        if m:
            flush()
            kind = m.group(1).lower()
            if inside is not None:
                raise GameDataError(f"box '{line}' opened inside another box; close the first with a "
                                    "line ':::' of its own", file=where)
            if kind not in BOX_KINDS:
                raise GameDataError(f"unknown box '::: {kind}' (use one of: {', '.join(BOX_KINDS)})",
                                    file=where)
            inner, i = _parse_lines(lines, i, inserts, where, inside=kind)
            blocks.append(Box(kind, m.group(2), tuple(inner)))
            continue
        m = _HEADING.match(line)
        if m:
            flush()
            blocks.append(Heading(len(m.group(1)), m.group(2)))
            continue
        mb, mn = _BULLET.match(raw), _NUMBERED.match(raw)
        if mb or mn:
            kind_ordered = mn is not None
            if para or (items and kind_ordered != ordered):
                flush()
            if not items:
                ordered = kind_ordered
                start = int(mn.group(1)) if mn else 1
            items.append((mn.group(2) if mn else mb.group(1)).strip())
            continue
        if items and raw[:1].isspace():
            items[-1] += " " + line      # an indented line continues the list item
            continue
        if items:
            flush()
        para.append(line)
    flush()
    if inside is not None:
        raise GameDataError(f"box '::: {inside}' is never closed; end it with a line ':::'", file=where)
    return blocks, i


MAX_BLOCK_CHARS = 20_000     # characters of one paragraph or list item: some five pages of text


def _bounded(text: str, what: str, where: str) -> str:
    """``text``, refused when it is longer than one block of a rulebook may be (the layout of one
    block takes time that grows faster than its length)."""
    if len(text) > MAX_BLOCK_CHARS:
        raise GameDataError(f"{what} of {len(text):,} characters (starting {text[:30]!r}) is longer than "
                            f"the {MAX_BLOCK_CHARS:,} one may be; split it with blank lines", file=where)
    return text


def _continues_list(lines, i, ordered: bool) -> bool:
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i >= len(lines):
        return False
    return bool(_NUMBERED.match(lines[i]) if ordered else _BULLET.match(lines[i]))


def _near(lines, i) -> str:
    while i >= 0 and not lines[i].strip():
        i -= 1
    return repr(lines[i].strip()[:50]) if i >= 0 else "the start"


# --- inline text -> reportlab paragraph markup --------------------------------

_INLINE = re.compile(r"\\(.)|\*\*(.+?)\*\*|\*(.+?)\*", re.S)


def plain(text: str) -> str:
    """The text a reader sees: escapes and emphasis marks removed."""
    return _INLINE.sub(lambda m: m.group(1) or m.group(2) or m.group(3), text)


def to_para(text: str) -> str:
    """Inline markup as reportlab paragraph mini-markup; everything else printed literally."""
    out: list[str] = []
    pos = 0
    for m in _INLINE.finditer(text):
        out.append(_xml(text[pos:m.start()]))
        if m.group(1) is not None:
            out.append(_xml(m.group(1)))
        elif m.group(2) is not None:
            out.append(f"<b>{to_para(m.group(2))}</b>")
        else:
            out.append(f"<i>{to_para(m.group(3))}</i>")
        pos = m.end()
    out.append(_xml(text[pos:]))
    return "".join(out)
