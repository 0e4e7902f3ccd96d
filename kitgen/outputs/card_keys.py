"""What the picture of a card rests on, as a short digest: two pictures with the same key are the same
pixels, so the served preview draws again only the cards whose key changed.

A face's key is made of the card's row (kitgen's fields and every column), the layout it is drawn
with as read (its boxes, settings and vars), the deck-wide sizes of that layout's ``same_size``
boxes, and what every card shares (:func:`shared_key`): game.toml as read, the types and the back,
the card size and resolution, and the pictures and fonts in the game's folders.  A back drawn from
no row has one key for every card.  Anything else (the rulebook's template, say) keeps every key.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

ADDRESS = re.compile(r" at 0x[0-9a-f]+")     # a compiled template prints its address; its source is beside it
WORDS = {".csv", ".tsv", ".txt", ".xlsx", ".xlsm", ".ods", ".toml", ".md", ".j2", ".html", ".json", ".py"}
MAX_FILES = 5000                              # files of a game's folders looked at; beyond them, names only


@dataclass(frozen=True)
class PictureKeys:
    """The key of each card's face (in the deck's order) and of each card's back."""

    faces: list[str]
    backs: list[str]


def digest(*parts) -> str:
    return hashlib.sha256(ADDRESS.sub("", repr(parts)).encode("utf-8", "surrogatepass")).hexdigest()[:32]


def shared_key(job) -> str:
    """What every card's picture rests on besides its row and its layout."""
    game = job.game
    return digest(game.raw, game.types, game.back, game.face, game.title, game.subtitle, game.slug,
                  game.icon_map, game.layout_columns, job.card, job.dpi, job.bleed,
                  _pictures(dict.fromkeys((Path(game.root), Path(game.art_dir)))))


def _pictures(folders) -> list[tuple]:
    """Every picture, font or other file a card may draw in ``folders`` (not the sheets, the TOML or the
    templates, which are read as the game loads): its path, size and time of change."""
    found = []
    for top in folders:
        for path, dirs, files in os.walk(top):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(files):
                if name.startswith(".") or os.path.splitext(name)[1].lower() in WORDS:
                    continue
                if len(found) >= MAX_FILES:
                    return found
                try:
                    info = os.stat(os.path.join(path, name))
                except OSError:
                    continue
                found.append((os.path.relpath(os.path.join(path, name), top), info.st_size, info.st_mtime_ns))
    return found


def picture_keys(job, painter, remembered: dict | None = None) -> PictureKeys:
    """The key of every card's face and back of ``job`` (drawn by ``painter``, which works out the
    common sizes of ``same_size`` boxes).  ``remembered``: the sizes of those boxes on each card,
    by what they rest on, from an earlier call; it keeps only this deck's after the call."""
    game = job.game
    shared = shared_key(job)
    layouts: dict[str, str] = {}
    remembered = {} if remembered is None else remembered
    asked: set[str] = set()

    def sizes_key(plain: str, card) -> str:
        key = digest(plain, card)
        asked.add(key)
        return key

    def layout_key(layout) -> str:
        if layout.name not in layouts:
            sizes = {}
            if any(b.same_size for b in layout.boxes):
                plain = digest(shared, layout)
                sizes = painter.common_sizes(layout, remembered, lambda card: sizes_key(plain, card))
            layouts[layout.name] = digest(shared, layout, sorted(sizes.items()))
        return layouts[layout.name]

    faces = [digest(layout_key(game.face_of(card)), card) for card in game.cards]
    backs = []
    for card in game.cards:
        layout = game.back_of(card)
        backs.append(digest(layout_key(layout), "back", None if layout.card_free else card))
    for key in [k for k in remembered if k not in asked]:
        del remembered[key]
    return PictureKeys(faces, backs)
