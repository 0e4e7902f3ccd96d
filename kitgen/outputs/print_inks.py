"""What a canvas that draws a print file draws with (:mod:`kitgen.render.canvas`): the press's inks.

- **Areas** (shapes, backgrounds) in the separation of the print profile,
  within the ink limit, as a picture's pixels of the same colour would be
  (:func:`kitgen.outputs.cmyk.separated`).
- **Text and stroked lines** the same, except that a colour as dark as solid
  black ink, with next to no hue, prints in black ink alone (C 0 M 0 Y 0 K 100;
  :func:`kitgen.outputs.cmyk.prints_black_only`).
- **Art files** as CMYK images within the ink limit.  Clear pixels become a
  stencil mask (an opaque construct, which PDF/X-1a allows): wholly clear
  pixels as they are; art whose partly clear pixels are little more than an
  anti-aliased outline (cutting it where it is half clear changes at most
  :data:`CUT_CHANGE` of its coverage) is cut along that line, on a mask
  :data:`EDGE_SCALE` times as fine as the art.  Wider translucency (a glow, a
  shadow, tinted glass) stays a soft mask, which is transparency: the canvas
  notes it, and the export prints that card as a picture.  Art that would print under the shop's resolution is
  resampled up to it and noted in :attr:`PrintInks.low_resolution`.
"""

from __future__ import annotations

import hashlib
import io
import math
import os
import zlib
from dataclasses import dataclass
from functools import lru_cache

from reportlab.pdfbase.pdfdoc import PDFName

from kitgen.outputs.cmyk import PROFILE_INK, prints_black_only, separated, to_cmyk
from kitgen.render.images import EncodedImage, image_size

COMPRESS_LEVEL = 6
HALF_CLEAR = 128                # alpha under this is outside the art's cut
CUT_CHANGE = 0.10               # of the coverage: icons' outlines change 3-7%, a soft shadow's 30%, glass 100%
EDGE_SCALE = 4                  # the edge's mask is this many times finer than the art...
FINE_MASK_PIXELS = 24_000_000   # ...while it has no more pixels than this


class PrintInks:
    """The press's inks for a print canvas: ``ink_limit`` percent at most, art at ``dpi`` at least."""

    def __init__(self, ink_limit: int = PROFILE_INK, dpi: int = 300):
        self.ink_limit, self.dpi = ink_limit, dpi
        self.low_resolution: list[tuple[str, float]] = []     # (art file, the dpi it had), as drawn

    @staticmethod
    def _rgb(color):
        from reportlab.lib.colors import CMYKColor, toColor

        c = toColor(color)
        if isinstance(c, CMYKColor):
            return c, None
        return c, tuple(max(0, min(255, round(v * 255))) for v in (c.red, c.green, c.blue))

    def area(self, color):
        from reportlab.lib.colors import CMYKColor

        c, rgb = self._rgb(color)
        if rgb is None:
            return c
        cyan, magenta, yellow, black = separated(rgb, self.ink_limit)
        return CMYKColor(cyan / 255, magenta / 255, yellow / 255, black / 255, alpha=c.alpha)

    def line(self, color):
        from reportlab.lib.colors import CMYKColor

        c, rgb = self._rgb(color)
        if rgb is None:
            return c
        if prints_black_only(rgb):
            return CMYKColor(0, 0, 0, 1, alpha=c.alpha)
        return self.area(c)

    def _art(self, path, width: float, height: float) -> "_PressArt":
        path = os.fspath(path)
        st = os.stat(path)
        w, h = image_size(path)
        pixels = None
        if width > 0 and height > 0:
            dpi = min(w / (width / 72), h / (height / 72))
            if dpi < self.dpi - 0.5:
                pixels = (max(w, math.ceil(width / 72 * self.dpi)), max(h, math.ceil(height / 72 * self.dpi)))
                self.low_resolution.append((os.path.basename(path), dpi))
        return _press_art(path, st.st_mtime_ns, st.st_size, self.ink_limit, pixels)

    def art(self, path, width: float, height: float) -> tuple[str, EncodedImage]:
        """The name and the press encoding of the art file at ``path``, drawn ``width`` x ``height`` points."""
        art = self._art(path, width, height)
        return art.name, art.encoded

    def art_edge(self, path, width: float, height: float, column: int | None, row: int | None
                 ) -> tuple[str, EncodedImage]:
        """One edge of the art drawn ``width`` x ``height`` points: its first (0) or last (-1) ``column``
        and/or ``row`` of pixels (None: all of them), to stretch over the bleed beyond it."""
        art = self._art(path, width, height)
        return art.edge(column, row)


@dataclass(frozen=True, eq=False)
class _PressArt:
    name: str
    encoded: EncodedImage
    cmyk: object                  # the CMYK pixels (Pillow)
    alpha: object                 # the alpha channel, or None

    def edge(self, column, row) -> tuple[str, EncodedImage]:
        return _edge(self, column, row)


@lru_cache(maxsize=256)
def _edge(art: _PressArt, column, row) -> tuple[str, EncodedImage]:
    from PIL import Image

    w, h = art.cmyk.size
    x0, x1 = (0, w) if column is None else ((0, 1) if column == 0 else (w - 1, w))
    y0, y1 = (0, h) if row is None else ((0, 1) if row == 0 else (h - 1, h))
    pixels = art.cmyk.crop((x0, y0, x1, y1))
    stencil = None
    if art.alpha is not None:
        alpha = art.alpha.crop((x0, y0, x1, y1))
        if alpha.getextrema()[0] < HALF_CLEAR:
            cut = alpha.point(lambda a: 255 if a < HALF_CLEAR else 0).convert("1", dither=Image.Dither.NONE)
            stencil = _stencil(cut)
    return f"{art.name}e{column}_{row}", _cmyk_image(pixels, stencil=stencil)


def _cmyk_image(cmyk, smask=None, stencil=None) -> EncodedImage:
    w, h = cmyk.size
    return EncodedImage(w, h, 8, PDFName("DeviceCMYK"), ("FlateDecode",),
                        zlib.compress(cmyk.tobytes(), COMPRESS_LEVEL), smask=smask, stencil=stencil)


def _stencil(bits) -> EncodedImage:
    """A 1-bit Pillow image as an explicit mask: its set bits hide the picture's pixels."""
    w, h = bits.size
    return EncodedImage(w, h, 1, None, ("FlateDecode",), zlib.compress(bits.tobytes(), COMPRESS_LEVEL),
                        image_mask=True)


@lru_cache(maxsize=128)
def _press_art(path: str, mtime_ns: int, size: int, ink_limit: int, pixels: tuple[int, int] | None) -> _PressArt:
    """An art file for the press: CMYK pixels (resampled to ``pixels`` when given) and its clear pixels as
    a stencil mask, or as a soft mask where they are more than an anti-aliased edge."""
    from PIL import Image

    with open(path, "rb") as fh:
        data = fh.read()
    with Image.open(io.BytesIO(data)) as image:
        image.load()
        has_alpha = image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info
        alpha = image.convert("RGBA").getchannel("A") if has_alpha else None
        rgb = image.convert("RGB")
    name = hashlib.sha256(data).hexdigest()[:32]
    if alpha is not None and alpha.getextrema()[0] == 255:
        alpha = None
    binary = alpha is not None and _is_binary(alpha)
    cut = alpha is not None and not binary and _cuts_cleanly(alpha)       # judged on the art as drawn
    if pixels is not None and pixels != rgb.size:
        name += f"at{pixels[0]}x{pixels[1]}"
        rgb = rgb.resize(pixels, Image.Resampling.LANCZOS)
        if alpha is not None:
            alpha = alpha.resize(pixels, Image.Resampling.NEAREST if binary else Image.Resampling.BILINEAR)
    cmyk = to_cmyk(rgb, ink_limit)
    stencil = smask = None
    if binary:
        stencil = _stencil(alpha.point(lambda a: 255 if a == 0 else 0).convert("1", dither=Image.Dither.NONE))
    elif cut:
        w, h = alpha.size
        scale = max(1, min(EDGE_SCALE, math.isqrt(FINE_MASK_PIXELS // (w * h))))
        fine = alpha.resize((w * scale, h * scale), Image.Resampling.BILINEAR)
        stencil = _stencil(fine.point(lambda a: 255 if a < HALF_CLEAR else 0).convert("1", dither=Image.Dither.NONE))
    elif alpha is not None:
        w, h = alpha.size
        smask = EncodedImage(w, h, 8, PDFName("DeviceGray"), ("FlateDecode",),
                             zlib.compress(alpha.tobytes(), COMPRESS_LEVEL), decode=(0, 1))
    return _PressArt(name, _cmyk_image(cmyk, smask=smask, stencil=stencil), cmyk, alpha)


def _is_binary(alpha) -> bool:
    counts = alpha.histogram()
    return counts[0] + counts[255] == alpha.width * alpha.height


def _cuts_cleanly(alpha) -> bool:
    """Whether cutting the art where it is half clear changes at most :data:`CUT_CHANGE` of its coverage
    (the sum of its alpha): an anti-aliased outline, not translucency."""
    import numpy as np

    a = np.asarray(alpha, dtype=np.int64)
    return int(np.minimum(a, 255 - a).sum()) <= CUT_CHANGE * int(a.sum())
