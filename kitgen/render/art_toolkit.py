"""Small Pillow drawing toolkit for flat, deterministic card art.

Art is drawn on a :class:`Sketch` in output pixels; the sketch keeps a
supersampled canvas and averages it down when finished, which gives smooth
edges without any randomness.  :func:`to_palette` then reduces the picture to
a few colours (fixed method, no dithering) so the PNG files stay small, and
:func:`png_bytes` encodes it the same way every time (:func:`palette_png`
does both).  The games' scripts write the files with
:func:`kitgen.outputs.art_script.run_script`.

The shape helpers (pyramids, polygons, rays, rings, hexagon grids, tallies)
are pure geometry: they return points and boxes and never draw.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Sequence

from PIL import Image, ImageChops, ImageDraw

Color = str | tuple[int, ...]
Point = tuple[float, float]
Box = tuple[float, float, float, float]  # x0, y0, x1, y1

SUPERSAMPLE = 3

# the card panel every game's card art is drawn on, and its ink
INK = "#2b2420"
PANEL = "#f1e7cf"
PANEL_EDGE = "#cdb88f"


# --- colours ---------------------------------------------------------------

def rgb(color: Color) -> tuple[int, int, int]:
    """``"#rrggbb"`` or an (r, g, b[, a]) tuple as an (r, g, b) tuple."""
    if isinstance(color, str):
        text = color.lstrip("#")
        if len(text) != 6:
            raise ValueError(f"colour {color!r} is not #rrggbb")
        return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)
    return int(color[0]), int(color[1]), int(color[2])


def mix(a: Color, b: Color, t: float) -> tuple[int, int, int]:
    """The colour a fraction ``t`` of the way from ``a`` to ``b``."""
    ca, cb = rgb(a), rgb(b)
    return tuple(round(x + (y - x) * t) for x, y in zip(ca, cb))  # type: ignore[return-value]


def _fill(color: Color | None):
    if color is None:
        return None
    c = rgb(color) if isinstance(color, str) else tuple(color)
    return c + (255,) if len(c) == 3 else c


# --- deterministic noise ---------------------------------------------------

class Noise:
    """A tiny xorshift64* generator: the same seed gives the same numbers on every platform."""

    _MASK = (1 << 64) - 1

    def __init__(self, seed: int | str):
        if isinstance(seed, str):
            value = 1469598103934665603
            for byte in seed.encode("utf-8"):
                value = ((value ^ byte) * 1099511628211) & self._MASK
            seed = value
        self._state = (int(seed) & self._MASK) or 0x9E3779B97F4A7C15

    def random(self) -> float:
        """A float in [0, 1)."""
        x = self._state
        x ^= (x >> 12)
        x ^= (x << 25) & self._MASK
        x ^= (x >> 27)
        self._state = x
        return (((x * 0x2545F4914F6CDD1D) & self._MASK) >> 11) / float(1 << 53)

    def uniform(self, low: float, high: float) -> float:
        return low + (high - low) * self.random()

    def integer(self, low: int, high: int) -> int:
        """An integer in [low, high]."""
        return low + min(high - low, int(self.random() * (high - low + 1)))

    def choice(self, items: Sequence):
        return items[self.integer(0, len(items) - 1)]

    def points(self, box: Box, count: int) -> list[Point]:
        x0, y0, x1, y1 = box
        return [(self.uniform(x0, x1), self.uniform(y0, y1)) for _ in range(count)]


# --- pure geometry -----------------------------------------------------------

def translate(points: Iterable[Point], dx: float, dy: float) -> list[Point]:
    return [(x + dx, y + dy) for x, y in points]


def rotate(points: Iterable[Point], degrees: float, center: Point = (0.0, 0.0)) -> list[Point]:
    """Points turned clockwise (on screen, y down) by ``degrees`` about ``center``."""
    a = math.radians(degrees)
    ca, sa = math.cos(a), math.sin(a)
    cx, cy = center
    return [(cx + (x - cx) * ca - (y - cy) * sa, cy + (x - cx) * sa + (y - cy) * ca) for x, y in points]


def circle_box(cx: float, cy: float, r: float) -> Box:
    return (cx - r, cy - r, cx + r, cy + r)


def regular_polygon(cx: float, cy: float, r: float, sides: int, rotation: float = 0.0) -> list[Point]:
    """Corners of a regular polygon; ``rotation`` 0 puts the first corner straight up."""
    return [(cx + r * math.sin(math.radians(rotation + 360.0 * i / sides)),
             cy - r * math.cos(math.radians(rotation + 360.0 * i / sides))) for i in range(sides)]


def star(cx: float, cy: float, outer: float, inner: float, tips: int, rotation: float = 0.0) -> list[Point]:
    """A star polygon with ``tips`` points, the first straight up."""
    pts = []
    for i in range(tips * 2):
        r = outer if i % 2 == 0 else inner
        a = math.radians(rotation + 180.0 * i / tips)
        pts.append((cx + r * math.sin(a), cy - r * math.cos(a)))
    return pts


def rays(cx: float, cy: float, inner: float, outer: float, count: int, width_deg: float,
         rotation: float = 0.0) -> list[list[Point]]:
    """Triangular rays around a disc: each a polygon from the inner radius to a tip at ``outer``."""
    out = []
    for i in range(count):
        mid = rotation + 360.0 * i / count
        a0, a1, am = (math.radians(mid - width_deg / 2), math.radians(mid + width_deg / 2),
                      math.radians(mid))
        out.append([(cx + inner * math.sin(a0), cy - inner * math.cos(a0)),
                    (cx + outer * math.sin(am), cy - outer * math.cos(am)),
                    (cx + inner * math.sin(a1), cy - inner * math.cos(a1))])
    return out


def ring_segments(cx: float, cy: float, inner: float, outer: float, count: int, gap_deg: float,
                  rotation: float = 0.0, steps: int = 8) -> list[list[Point]]:
    """``count`` equal segments of an annulus separated by gaps, each as a polygon."""
    segs = []
    span = 360.0 / count
    for i in range(count):
        a0 = rotation + i * span + gap_deg / 2
        a1 = rotation + (i + 1) * span - gap_deg / 2
        angles = [math.radians(a0 + (a1 - a0) * k / steps) for k in range(steps + 1)]
        outer_pts = [(cx + outer * math.sin(a), cy - outer * math.cos(a)) for a in angles]
        inner_pts = [(cx + inner * math.sin(a), cy - inner * math.cos(a)) for a in reversed(angles)]
        segs.append(outer_pts + inner_pts)
    return segs


def stepped_pyramid(cx: float, base_y: float, base_width: float, top_width: float,
                    tiers: int, height: float) -> list[Box]:
    """Boxes of a stepped pyramid's tiers, bottom tier first; tiers shrink evenly in width."""
    if tiers < 1:
        raise ValueError("a pyramid needs at least one tier")
    tier_h = height / tiers
    boxes = []
    for i in range(tiers):
        w = base_width + (top_width - base_width) * (i / (tiers - 1) if tiers > 1 else 0.0)
        y1 = base_y - i * tier_h
        boxes.append((cx - w / 2, y1 - tier_h, cx + w / 2, y1))
    return boxes


def hex_grid(cx: float, cy: float, r: float, rings: int, gap: float = 0.0) -> list[list[Point]]:
    """Flat-topped hexagons of circumradius ``r`` tiled in ``rings`` rings around a centre hexagon."""
    cells = []
    pitch = r + gap / math.sqrt(3)
    for q in range(-rings, rings + 1):
        for s in range(max(-rings, -q - rings), min(rings, -q + rings) + 1):
            x = cx + pitch * 1.5 * q
            y = cy + pitch * math.sqrt(3) * (s + q / 2)
            cells.append(regular_polygon(x, y, r, 6, rotation=30.0))
    cells.sort(key=lambda poly: (round(sum(p[1] for p in poly), 6), round(sum(p[0] for p in poly), 6)))
    return cells


def step_band(x0: float, x1: float, y: float, step: float, levels: int, up: bool = True) -> list[Point]:
    """A polygon along y from x0 to x1 made of stepped 'merlons' (a stepped-fret border).

    Each merlon rises ``levels`` steps of size ``step`` and comes down again; the
    band's base lies on y and it grows upwards (``up``) or downwards.
    """
    sign = -1.0 if up else 1.0
    unit = step * 2 * levels
    count = max(1, int((x1 - x0) // unit))
    pad = ((x1 - x0) - count * unit) / 2
    pts: list[Point] = [(x0, y), (x0 + pad, y)]
    for m in range(count):
        x = x0 + pad + m * unit
        for k in range(levels):
            pts += [(x + k * step, y + sign * k * step), (x + k * step, y + sign * (k + 1) * step)]
        for k in range(levels):
            xr = x + levels * step + k * step
            pts += [(xr, y + sign * (levels - k) * step), (xr, y + sign * (levels - k - 1) * step)]
    pts += [(x1, y)]
    return pts


def tally(value: int, cx: float, cy: float, unit: float) -> list[tuple[str, Box]]:
    """A bar-and-dot numeral (dots for ones above bars for fives), centred on (cx, cy).

    Returns ``("dot", box)`` and ``("bar", box)`` shapes; ``unit`` is a dot's diameter.
    """
    if value < 1:
        raise ValueError("a tally needs a value of at least 1")
    bars, dots = divmod(value, 5)
    bar_w, bar_h, gap = unit * 4.2, unit * 0.8, unit * 0.45
    rows = bars + (1 if dots else 0)
    total_h = bars * bar_h + (unit if dots else 0) + gap * (rows - 1)
    y = cy - total_h / 2
    shapes: list[tuple[str, Box]] = []
    if dots:
        dot_pitch = unit * 1.1
        x = cx - (dots * dot_pitch - (dot_pitch - unit)) / 2
        for i in range(dots):
            shapes.append(("dot", (x + i * dot_pitch, y, x + i * dot_pitch + unit, y + unit)))
        y += unit + gap
    for _ in range(bars):
        shapes.append(("bar", (cx - bar_w / 2, y, cx + bar_w / 2, y + bar_h)))
        y += bar_h + gap
    return shapes


def lerp(a: Point, b: Point, t: float) -> Point:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def arc_points(cx: float, cy: float, rx: float, ry: float, start: float, end: float,
               steps: int = 24) -> list[Point]:
    """Points on an elliptical arc; angles in degrees, 0 = straight up, clockwise."""
    out = []
    for k in range(steps + 1):
        a = math.radians(start + (end - start) * k / steps)
        out.append((cx + rx * math.sin(a), cy - ry * math.cos(a)))
    return out


def ellipse_points(cx: float, cy: float, rx: float, ry: float, steps: int = 48) -> list[Point]:
    """An ellipse as a polygon (so it can be rotated)."""
    return arc_points(cx, cy, rx, ry, 0.0, 360.0, steps)[:-1]


def lens(cx: float, cy: float, length: float, width: float, steps: int = 24,
         bulge: float = 1.0) -> list[Point]:
    """A vertical leaf shape pointed at both ends (a vesica), centred on (cx, cy).

    ``bulge`` above 1 rounds the sides out (pods, plumes); 1 is the plain vesica.
    """
    pts_right, pts_left = [], []
    for k in range(steps + 1):
        t = -1.0 + 2.0 * k / steps          # -1 at the top tip, 1 at the bottom tip
        half = (1.0 - t * t) ** (1.0 / bulge) * width / 2
        y = cy + t * length / 2
        pts_right.append((cx + half, y))
        pts_left.append((cx - half, y))
    return pts_right + pts_left[::-1][1:-1]


def iso_cube(cx: float, cy: float, size: float) -> dict[str, list[Point]]:
    """The three visible faces ("top", "left", "right") of a cube in isometric view.

    (cx, cy) is the cube's nearest top corner; ``size`` is an edge's length.
    """
    dx, dy = size * math.cos(math.radians(30)), size * 0.5
    top = [(cx, cy), (cx - dx, cy - dy), (cx, cy - 2 * dy), (cx + dx, cy - dy)]
    left = [(cx, cy), (cx - dx, cy - dy), (cx - dx, cy - dy + size), (cx, cy + size)]
    right = [(cx, cy), (cx + dx, cy - dy), (cx + dx, cy - dy + size), (cx, cy + size)]
    return {"top": top, "left": left, "right": right}


# --- drawing -----------------------------------------------------------------

def within(picture: Image.Image, inset: int) -> Image.Image:
    """The picture less ``inset`` pixels on every side: a card back's art inside the frame that the
    back's layout draws round it, at every card size."""
    w, h = picture.size
    return picture.crop((inset, inset, w - inset, h - inset))


class Sketch:
    """An RGBA drawing addressed in output pixels, kept supersampled until :meth:`image`."""

    def __init__(self, width: int, height: int, background: Color | None = None, scale: int = SUPERSAMPLE):
        self.width, self.height, self.scale = width, height, scale
        # While every pixel is either opaque or clear black (drawn only in opaque colours), the canvas's
        # bytes are their own premultiplied form, which :meth:`image` then averages without converting
        self.opaque_or_clear = True
        size = (width * scale, height * scale)
        if background is None:
            # clear black: Pillow's new image without a colour is zeroed memory (calloc, which the system
            # zeroes page by page as it is first touched) rather than filled pixel by pixel, and most
            # layers are drawn on a small part
            self.canvas = Image.new("RGBA", size, None)
        else:
            self.canvas = Image.new("RGBA", size, self._ink(background))
        self.draw = ImageDraw.Draw(self.canvas)

    def _ink(self, color: Color | None):
        ink = _fill(color)
        if ink is not None and ink[3] != 255:
            self.opaque_or_clear = False
        return ink

    # coordinates
    def _xy(self, x: float, y: float) -> tuple[float, float]:
        return x * self.scale, y * self.scale

    def _pts(self, points: Iterable[Point]) -> list[tuple[float, float]]:
        return [self._xy(x, y) for x, y in points]

    def _box(self, box: Box) -> list[float]:
        x0, y0 = self._xy(min(box[0], box[2]), min(box[1], box[3]))
        x1, y1 = self._xy(max(box[0], box[2]), max(box[1], box[3]))
        # Pillow's boxes include their last pixel; taking one off keeps shapes exactly where
        # they are asked to be, so mirrored and turned drawings line up to the pixel.
        return [x0, y0, x1 - 1, y1 - 1]

    def _w(self, width: float) -> int:
        return max(0, round(width * self.scale))

    # shapes
    def polygon(self, points: Iterable[Point], fill: Color | None = None,
                outline: Color | None = None, width: float = 0) -> None:
        pts = self._pts(points)
        self.draw.polygon(pts, fill=self._ink(fill))
        if outline is not None and width > 0:
            self.draw.line(pts + pts[:1], fill=self._ink(outline), width=self._w(width), joint="curve")

    def rect(self, box: Box, fill: Color | None = None, outline: Color | None = None,
             width: float = 0, radius: float = 0) -> None:
        kwargs = dict(fill=self._ink(fill), outline=self._ink(outline), width=self._w(width) if outline else 0)
        if radius > 0:
            self.draw.rounded_rectangle(self._box(box), radius=self._w(radius), **kwargs)
        else:
            self.draw.rectangle(self._box(box), **kwargs)

    def ellipse(self, box: Box, fill: Color | None = None, outline: Color | None = None,
                width: float = 0) -> None:
        self.draw.ellipse(self._box(box), fill=self._ink(fill), outline=self._ink(outline),
                          width=self._w(width) if outline else 0)

    def circle(self, cx: float, cy: float, r: float, fill: Color | None = None,
               outline: Color | None = None, width: float = 0) -> None:
        self.ellipse(circle_box(cx, cy, r), fill, outline, width)

    def ring(self, cx: float, cy: float, r: float, width: float, color: Color) -> None:
        """A circle outline whose stroke is centred on radius ``r``."""
        self.ellipse(circle_box(cx, cy, r + width / 2), outline=color, width=width)

    def line(self, points: Iterable[Point], color: Color, width: float, round_caps: bool = True) -> None:
        pts = self._pts(points)
        w = self._w(width)
        self.draw.line(pts, fill=self._ink(color), width=w, joint="curve")
        if round_caps and w > 2:
            for x, y in (pts[0], pts[-1]):
                self.draw.ellipse([x - w / 2, y - w / 2, x + w / 2, y + w / 2], fill=self._ink(color))

    def pieslice(self, box: Box, start: float, end: float, fill: Color) -> None:
        """A pie slice; angles in degrees, 0 = straight up, clockwise (converted for Pillow)."""
        self.draw.pieslice(self._box(box), start - 90, end - 90, fill=self._ink(fill))

    def arc(self, box: Box, start: float, end: float, color: Color, width: float) -> None:
        self.draw.arc(self._box(box), start - 90, end - 90, fill=self._ink(color), width=self._w(width))

    def tally(self, value: int, cx: float, cy: float, unit: float, fill: Color,
              outline: Color | None = None, width: float = 0) -> None:
        for kind, box in tally(value, cx, cy, unit):
            if kind == "dot":
                self.ellipse(box, fill, outline, width)
            else:
                self.rect(box, fill, outline, width, radius=(box[3] - box[1]) * 0.35)

    def layer(self) -> "Sketch":
        """A transparent sketch of the same size, to be drawn and then :meth:`paste`-d."""
        return Sketch(self.width, self.height, None, self.scale)

    def paste(self, other: "Sketch", clip: "Sketch | None" = None) -> None:
        """Composite another sketch over this one, optionally only where ``clip`` is opaque."""
        # Only the box holding the other sketch's opaque pixels is composited: a transparent pixel leaves
        # this one's pixel as it is, so the result is the same, and a small layer costs little
        box = other.canvas.getbbox()
        if box is None:
            return
        whole = other.opaque_or_clear and (clip is None or clip.opaque_or_clear)
        if not whole:
            self.opaque_or_clear = False
            top = other.canvas.crop(box)
            if clip is not None:
                alpha = Image.composite(top.getchannel("A"), Image.new("L", top.size, 0),
                                        clip.canvas.crop(box).getchannel("A"))
                top.putalpha(alpha)
            self.canvas.alpha_composite(top, box[:2])
            return
        # Each pixel on top (and of the clip) is opaque or clear: an opaque one inside the clip replaces the
        # one below, as compositing gives, and any other leaves it.  So the pixels are copied through a
        # one-bit mask (the two alphas' lower), which Pillow does without blending.  A layer drawn over most
        # of the canvas (a scene) is read where it is (its clear pixels around are masked out), not copied
        width, height = other.canvas.size
        full = (box[2] - box[0]) * (box[3] - box[1]) * 2 >= width * height
        if full:
            box = (0, 0, width, height)
        top = other.canvas if full else other.canvas.crop(box)
        mask = top.getchannel("A")
        if clip is not None:
            mask = ImageChops.darker(mask, (clip.canvas if full else clip.canvas.crop(box)).getchannel("A"))
        self.canvas.paste(top, box, mask.convert("1", dither=Image.Dither.NONE))

    def image(self) -> Image.Image:
        """The finished RGBA picture at output size (supersampled pixels averaged)."""
        if self.scale == 1:
            return self.canvas.copy()
        if not self.opaque_or_clear:
            return self.canvas.reduce(self.scale)
        # Pillow's reduce of an RGBA image averages its premultiplied (RGBa) form and converts the result
        # back; these bytes are already premultiplied, so only the small result needs converting back
        reduced = self.canvas._new(self.canvas.im.reduce((self.scale, self.scale), (0, 0, *self.canvas.size)))
        return Image.frombytes("RGBa", reduced.size, reduced.tobytes()).convert("RGBA")


# --- output ------------------------------------------------------------------

def to_palette(picture: Image.Image, colors: int = 48, matte: Color = "#ffffff",
               threshold: int = 128) -> Image.Image:
    """An RGBA picture as a small palette image, deterministically (median cut, no dithering).

    Pixels whose alpha is below ``threshold`` become palette index 0, marked as
    the transparent colour; the rest are flattened over ``matte`` first.  A
    fully opaque picture gets no transparent entry.
    """
    picture = picture.convert("RGBA")
    alpha = picture.getchannel("A")
    flat = Image.new("RGBA", picture.size, _fill(matte))
    flat.alpha_composite(picture)
    flat_rgb = flat.convert("RGB")
    clear = alpha.point(lambda a: 255 if a < threshold else 0)
    if clear.getbbox() is None:
        return flat_rgb.quantize(colors=colors, method=Image.Quantize.MEDIANCUT,
                                 dither=Image.Dither.NONE)
    quant = flat_rgb.quantize(colors=colors - 1, method=Image.Quantize.MEDIANCUT,
                              dither=Image.Dither.NONE)
    used = len(quant.getpalette()) // 3
    indices = Image.frombytes("L", quant.size, quant.tobytes()).point(lambda i: i + 1)
    indices.paste(0, mask=clear)
    palette = list(quant.getpalette()[: used * 3])
    # The transparent entry gets a colour used nowhere else, so colour-key masks stay exact.
    key = rgb(matte)
    taken = {tuple(palette[i:i + 3]) for i in range(0, len(palette), 3)}
    while key in taken:
        key = ((key[0] + 1) % 256, key[1], key[2])
    out = Image.frombytes("P", quant.size, indices.tobytes())
    out.putpalette(list(key) + palette)
    out.info["transparency"] = 0
    return out


def png_bytes(picture: Image.Image) -> bytes:
    """PNG bytes with no metadata, the same for the same picture."""
    buffer = io.BytesIO()
    kwargs = {}
    if picture.mode == "P" and "transparency" in picture.info:
        kwargs["transparency"] = picture.info["transparency"]
    picture.save(buffer, "PNG", optimize=True, **kwargs)
    return buffer.getvalue()


def palette_png(picture: "Image.Image | Sketch", colors: int = 48, matte: Color = "#ffffff") -> bytes:
    """A finished picture (or sketch) reduced to ``colors`` colours over ``matte``, as PNG bytes."""
    if isinstance(picture, Sketch):
        picture = picture.image()
    return png_bytes(to_palette(picture, colors, matte=matte))


def half_turn_symmetric(picture: Image.Image) -> Image.Image:
    """The picture with its bottom half replaced by its top half turned 180 degrees.

    The result looks the same either way up (card backs that do not give away
    how a card is held).  Odd heights keep the middle row, which is then
    mirrored left to right onto itself.
    """
    w, h = picture.size
    out = picture.copy()
    top = picture.crop((0, 0, w, h // 2))
    out.paste(top.transpose(Image.Transpose.ROTATE_180), (0, h - h // 2))
    if h % 2:
        row = picture.crop((0, h // 2, (w + 1) // 2, h // 2 + 1))
        out.paste(row.transpose(Image.Transpose.FLIP_LEFT_RIGHT), (w - (w + 1) // 2, h // 2))
    return out
