"""SVG icons read within bounds: a game folder's drawing is untrusted input.

An SVG is XML, which can ask for far more than its size suggests (entities
that expand a billion times), reach outside the game folder (``href`` to a
file or a web address, ``@import``, ``url(...)`` in a style) or run code
(``<script>``).  Before svglib draws one, it is read here, with lxml, no
entities, no network and no document type declaration at all; it must be an
``<svg>`` of at most :data:`MAX_SVG_BYTES` bytes and :data:`MAX_ELEMENTS`
elements, nested at most :data:`MAX_DEPTH` deep, whose references all point
inside the drawing (``#id``) and which holds no script, foreign object or
embedded picture.  Anything else is one :class:`GameDataError` naming the file.
"""

from __future__ import annotations

import re
from pathlib import Path

from kitgen.errors import GameDataError

MAX_SVG_BYTES = 1_000_000
MAX_ELEMENTS = 20_000
MAX_DEPTH = 64
FORBIDDEN = {"script", "foreignObject", "image", "iframe", "object", "embed", "audio", "video"}
_OUTSIDE_URL = re.compile(r"url\(\s*['\"]?\s*(?!#)", re.I)


def _local(tag) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def read_svg(data: bytes, where: str):
    """The root element of the SVG ``data`` (an lxml element), checked; GameDataError naming ``where``."""
    from lxml import etree

    if len(data) > MAX_SVG_BYTES:
        raise GameDataError(f"the SVG is {len(data):,} bytes; an icon may be at most {MAX_SVG_BYTES:,}", file=where)
    head = data[:4096].lower()
    if b"<!doctype" in head or b"<!entity" in data.lower():
        raise GameDataError("the SVG declares a document type or entities, which an icon needs none of; "
                            "save it again as plain SVG", file=where)
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False,
                             remove_comments=True, remove_pis=True)
    try:
        root = etree.fromstring(data, parser=parser)
    except etree.XMLSyntaxError as exc:
        raise GameDataError(f"the SVG is not well-formed XML ({exc.msg}); save it again", file=where) from None
    if root is None or _local(root.tag) != "svg":
        raise GameDataError("the file is not an SVG drawing (its root is not <svg>)", file=where)
    count = 0
    for element, depth in _walk(root):
        count += 1
        if count > MAX_ELEMENTS:
            raise GameDataError(f"the SVG has more than {MAX_ELEMENTS:,} elements; simplify the drawing", file=where)
        if depth > MAX_DEPTH:
            raise GameDataError(f"the SVG nests elements more than {MAX_DEPTH} deep", file=where)
        name = _local(element.tag)
        if name in FORBIDDEN:
            raise GameDataError(f"the SVG holds a <{name}>; an icon may hold shapes and text only", file=where)
        for key, value in element.attrib.items():
            local = _local(key)
            if local == "href" and not value.strip().startswith("#"):
                raise GameDataError(f"the SVG refers to {value[:60]!r} outside itself; an icon may refer only to "
                                    "its own parts (#id)", file=where)
            if local.startswith("on"):
                raise GameDataError(f"the SVG holds a script ({local}=...)", file=where)
            if _OUTSIDE_URL.search(value):
                raise GameDataError("the SVG refers to a url(...) outside itself", file=where)
        text = element.text or ""
        if name == "style" and ("@import" in text or _OUTSIDE_URL.search(text)):
            raise GameDataError("the SVG's style imports or refers to something outside itself", file=where)
    return root


def _walk(root):
    stack = [(root, 1)]
    while stack:
        element, depth = stack.pop()
        yield element, depth
        stack.extend((child, depth + 1) for child in element if isinstance(child.tag, str))


def check_svg(path: Path, where: str) -> None:
    """Read and check the SVG at ``path`` (a regular file inside the game folder)."""
    from kitgen.data.files import read_regular

    read_svg(read_regular(path, f"{where}: icon {path.name!r}"), f"{where}: icon {path.name!r}")
