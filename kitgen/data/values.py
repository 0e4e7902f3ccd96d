"""Single values users write, checked or normalised: ``#rrggbb`` colours and slugs.

The readers of game.toml (:mod:`kitgen.data.game`, :mod:`kitgen.data.components`)
check colours here, and whatever names a folder or file after a title or a card
(the game's slug, exported file names, ``kitgen new``) makes its slug here.
"""

from __future__ import annotations

import re
import unicodedata

_HEX_COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")
_NOT_SLUG = re.compile(r"[^a-z0-9]+")


def hex_color(value: str, name: str) -> str:
    """``value`` in lower case when it is a colour like ``#a0522d``; else ValueError naming the key ``name``."""
    if not _HEX_COLOR.match(value):
        raise ValueError(f"'{name}' = {value!r} is not a colour like \"#a0522d\"")
    return value.lower()


def slugify(text: str, fallback: str = "game", ascii_only: bool = False) -> str:
    """Lower-case ASCII words joined by hyphens, accents dropped: 'Über Spiel' -> 'uber-spiel'.

    Text with no Latin letters at all (Greek, Cyrillic...) keeps its own letters
    rather than collide on ``fallback``, unless ``ascii_only`` (file names that
    must stay portable); text with no letters or digits gives ``fallback``.
    """
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    slug = _NOT_SLUG.sub("-", ascii_text.lower()).strip("-")
    if not slug and not ascii_only:
        slug = re.sub(r"[^\w]+", "-", text.lower()).strip("-_")
    return slug or fallback
