"""Text quoted for the files `kitgen new` writes: a TOML string, a TOML comment, a string inside a
template.  Whatever a stranger's sheet holds (quotes, braces, line breaks, control characters)
reaches the file as data, never as TOML or template syntax."""

from __future__ import annotations

import re
import unicodedata

from kitgen.data.paths import control_character

_TOML_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}
_TOML_ESCAPED = re.compile(r'["\\\x00-\x1f\x7f]')


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string: quotes, backslashes and every control character TOML
    refuses in a string (U+0000 to U+001F, DEL) escaped, the rest as it is."""
    return '"' + _TOML_ESCAPED.sub(lambda m: _TOML_ESCAPES.get(m.group(), f"\\u{ord(m.group()):04x}"), text) + '"'


def comment_text(text: str) -> str:
    """``text`` fit for a comment: its control and invisible formatting characters (a line break, DEL,
    a right-to-left mark...) left out, so it can neither end the comment nor make the TOML invalid."""
    if control_character(text) is None:
        return text
    return "".join(ch for ch in text if unicodedata.category(ch) not in ("Cc", "Cf", "Zl", "Zp"))


def jinja_string(text: str) -> str:
    """``text`` as a quoted string in a template: letters, digits, spaces and ``_-.`` as they are, every other
    character as a ``\\u`` escape, so no quote, brace or line break of a header reaches the template."""
    out = []
    for ch in text:
        if ch.isascii() and (ch.isalnum() or ch in " _-."):
            out.append(ch)
        elif ord(ch) > 0xFFFF:
            out.append(f"\\U{ord(ch):08x}")
        else:
            out.append(f"\\u{ord(ch):04x}")
    return "'" + "".join(out) + "'"
