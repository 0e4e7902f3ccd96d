"""A frame drawn in a picture: found by its pixels, so a card back's raster frame can be checked
against the cut at any card size.

A frame is a line of one colour running round the picture, parallel to its
edges, of another colour than the picture's edge: on each side, the first row
(or column) within the outer quarter whose middle stretch is nearly all of one
colour, far from the edge's.  A photograph or a picture without a frame has no
such line on all four sides.
"""

from __future__ import annotations

import hashlib
import io
import threading
from functools import lru_cache
from pathlib import Path

from PIL import Image

SAMPLE = 600          # pixels along the longer side of the copy the search reads
REACH = 0.25          # of the picture's width (or height): how far in a frame is looked for
SAME = 40             # colour distance within which two pixels count as one colour
APART = 60            # colour distance a frame's colour keeps from the edge's
UNIFORM = 0.9         # share of a line's middle stretch in the line's own colour
KEPT = 32             # pictures whose depths a process keeps by their content

_BY_CONTENT: dict[bytes, tuple[float, float, float, float] | None] = {}     # SHA-256 of a file -> its depths
_LOCK = threading.Lock()


def frame_depths(path: str | Path) -> tuple[float, float, float, float] | None:
    """How far in from the left, top, right and bottom edges a frame drawn in the picture lies,
    as fractions of its width and height (its outer edge), or None without a frame on all four sides."""
    path = Path(path)
    stat = path.stat()
    return _depths_at(str(path), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=32)
def _depths_at(path: str, mtime_ns: int, size: int) -> tuple[float, float, float, float] | None:
    """The depths of the file at ``path`` as it is now: searched once per content, so a copy of a game
    (the same back in another folder) takes what its original's search found."""
    data = Path(path).read_bytes()
    digest = hashlib.sha256(data).digest()
    with _LOCK:
        if digest in _BY_CONTENT:
            return _BY_CONTENT[digest]
    depths = _depths(data)
    with _LOCK:
        if len(_BY_CONTENT) >= KEPT:
            del _BY_CONTENT[next(iter(_BY_CONTENT))]        # the oldest forgotten first
        _BY_CONTENT[digest] = depths
    return depths


def _depths(data: bytes) -> tuple[float, float, float, float] | None:
    import numpy as np

    with Image.open(io.BytesIO(data)) as image:
        image.draft("RGB", (SAMPLE, SAMPLE))
        picture = image.convert("RGBA")
    picture.thumbnail((SAMPLE, SAMPLE), Image.BILINEAR)
    backdrop = Image.new("RGBA", picture.size, (255, 255, 255, 255))
    picture = Image.alpha_composite(backdrop, picture).convert("RGB")
    a = np.asarray(picture, dtype=np.int32)              # rows (y), columns (x), channels
    h, w = a.shape[:2]
    depths = []
    for side in ("left", "top", "right", "bottom"):
        across = side in ("left", "right")
        length, reach = (h, w) if across else (w, h)
        span = slice(int(length * 0.1), int(length * 0.9))

        def line(k: int):
            at = k if side in ("left", "top") else (reach - 1 - k)
            return a[span, at] if across else a[at, span]

        edge = _main_colour(line(0))[0]
        found = None
        for k in range(1, max(2, int(reach * REACH))):
            colour, share = _main_colour(line(k))
            if share >= UNIFORM and _distance(colour, edge) >= APART:
                found = k
                break
        if found is None:
            return None
        while found > 1 and _distance(_main_colour(line(found - 1))[0], edge) >= APART / 2:
            found -= 1              # out to the line's outer edge, softened by smoothing
        depths.append(found / reach)
    return tuple(depths)


def _distance(a, b) -> float:
    return sum((x - y) ** 2 for x, y in zip(a, b)) ** 0.5


def _main_colour(pixels) -> tuple[tuple[int, int, int], float]:
    """The line's middle colour (the median of each channel, the upper one of an even count) and the share
    of pixels near it (within SAME: compared squared, in whole numbers)."""
    import numpy as np

    middle = np.sort(pixels, axis=0)[len(pixels) // 2]
    near = int(np.count_nonzero(((pixels - middle) ** 2).sum(axis=1) <= SAME * SAME))
    return tuple(int(c) for c in middle), near / len(pixels)
