"""sRGB pictures to print CMYK and back to the screen, with LittleCMS (Pillow's ImageCms).

The CMYK is that of FOGRA39 (ISO 12647-2 offset on coated paper), the
printing condition kitgen's CMYK profiles describe (``kitgen/outputs/icc/``,
made from the FOGRA39 characterization data with ArgyllCMS; see the README
there).  ``fogra39-240.icc`` separates with total ink limited to 240%: rich
blacks and dark art are mapped down inside the profile, with the perceptual
gamut mapping it was made with.  ``fogra39-330.icc`` is the same press at its
usual 330%, used only to see what the lower limit changes.

Every conversion goes through an ICC transform.  The one step of kitgen's own
is a safety net after it: where the profile's interpolation lands a pixel a
hair over the limit, cyan, magenta and yellow are scaled down together, black
kept (the rule of LittleCMS's ink-limiting device link), so no pixel of the
written file exceeds the limit.

An area of one colour is separated as a picture's pixel of that colour is
(:func:`separated`).  Text and lines whose colour looks as dark as solid black
ink or darker, and has next to no hue, print in black ink alone (C 0 M 0 Y 0
K 100), so a press that misregisters its plates leaves no coloured fringe
around small type and hairlines (:func:`prints_black_only`).  Which colours
those are is worked out from the profile: the sRGB colour's L* at most
:data:`BLACK_MARGIN` above the L* that K 100 prints at (about 17), and its
chroma C*ab at most :data:`NEUTRAL_CHROMA`: neutral greys from #000000 to
#353535, and near-blacks such as kitgen's ink #2b2420.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from kitgen.outputs.raster import as_rgb

PRINT_PROFILE = "fogra39-240.icc"
FULL_INK_PROFILE = "fogra39-330.icc"
CONDITION = "FOGRA39"                  # the ICC registry's name of the printing condition
CONDITION_TEXT = "Offset printing on coated paper, ISO 12647-2:2004/Amd 1 (FOGRA39), total ink 240%"
PROFILE_INK = 240                      # the total ink the print profile separates to, in percent
VISIBLE_DELTA_E = 2.3                  # CIE76: about the smallest difference seen side by side
VISIBLE_SHARE = 0.01                    # of a card's pixels, before its change is worth a warning
BLACK_MARGIN = 5.0                     # L*: text this little lighter than solid black ink prints black-only
NEUTRAL_CHROMA = 8.0                   # C*ab: kitgen's ink #2b2420 has 5, a dark green #2d3a2e 10


def profile_bytes(name: str = PRINT_PROFILE) -> bytes:
    return resources.files("kitgen.outputs.icc").joinpath(name).read_bytes()


@lru_cache(maxsize=None)
def _profile(name: str):
    import io

    from PIL import ImageCms

    return ImageCms.ImageCmsProfile(io.BytesIO(profile_bytes(name)))


@lru_cache(maxsize=None)
def _transform(source: str, target: str, intent: str):
    """A cached LittleCMS transform between 'sRGB', 'LAB' or one of the CMYK profiles."""
    from PIL import ImageCms

    def prof(name):
        return ImageCms.createProfile(name) if name in ("sRGB", "LAB") else _profile(name)

    mode = {"sRGB": "RGB", "LAB": "LAB"}
    intents = {"perceptual": ImageCms.Intent.PERCEPTUAL, "relative": ImageCms.Intent.RELATIVE_COLORIMETRIC}
    transform = ImageCms.buildTransform(prof(source), prof(target), mode.get(source, "CMYK"),
                                        mode.get(target, "CMYK"), renderingIntent=intents[intent])
    transform.output_profile = _ProfileBytesOnce(transform.output_profile)
    return transform


class _ProfileBytesOnce:
    """A transform's output profile as Pillow reads it after every conversion (to tag the result with it):
    its bytes, serialised once instead of on every picture (the FOGRA39 tables are large)."""

    def __init__(self, profile):
        self.profile = profile.profile
        self._bytes = profile.tobytes()

    def tobytes(self) -> bytes:
        return self._bytes


def to_cmyk(image, ink_limit: int = PROFILE_INK, profile: str = PRINT_PROFILE):
    """``image`` (sRGB) separated to CMYK with no pixel over ``ink_limit`` percent."""
    from PIL import ImageCms

    cmyk = ImageCms.applyTransform(as_rgb(image), _transform("sRGB", profile, "perceptual"))
    return limit_ink(cmyk, ink_limit)


def limit_ink(cmyk, ink_limit: int):
    """``cmyk`` with cyan, magenta and yellow scaled down where the four inks add up to more than the limit."""
    import numpy as np
    from PIL import Image

    a = np.asarray(cmyk)
    limit = ink_limit * 255 // 100
    total = a[..., 0].astype(np.uint16) + a[..., 1] + a[..., 2] + a[..., 3]
    over = np.nonzero(total > limit)
    if not over[0].size:
        return cmyk
    px = a[over].astype(np.int32)                   # only the pixels over the limit
    cmy = px[:, :3].sum(axis=1)
    room = np.maximum(limit - px[:, 3], 0)
    scale = np.where(cmy > 0, room / np.maximum(cmy, 1), 1.0)
    px[:, :3] = np.floor(px[:, :3] * scale[:, None]).astype(np.int32)
    out = a.copy()
    out[over] = px.astype(np.uint8)
    return Image.fromarray(out, "CMYK")


def soft_proof(cmyk, profile: str = PRINT_PROFILE):
    """The CMYK picture as the press would print it, shown on an sRGB screen: relative colorimetric, the
    paper's white shown as white and the inks' black as the press prints it (no black point compensation,
    so a black the ink limit lightens looks lighter)."""
    from PIL import ImageCms

    return ImageCms.applyTransform(cmyk, _transform(profile, "sRGB", "relative"))


def ink_total(cmyk):
    """The four inks of every pixel added up (0 to 1020), as a numpy array of whole numbers: summed as
    integers, which is exact, so the percentages are those of a sum in floating point."""
    import numpy as np

    return np.asarray(cmyk).sum(axis=2, dtype=np.uint16)


@dataclass(frozen=True)
class InkChange:
    """How much of a picture prints visibly lighter under the ink limit than at the press's usual ink."""

    share: float         # of the pixels, visibly different
    worst: float         # the largest colour difference (CIE76 delta E)

    @property
    def visible(self) -> bool:
        return self.share >= VISIBLE_SHARE


def ink_change(image, ink_limit: int = PROFILE_INK) -> InkChange:
    """Compare ``image`` printed at ``ink_limit`` with the same press at 330% ink, both as Lab colours."""
    from PIL import ImageCms

    limited = to_cmyk(image, ink_limit)
    full = ImageCms.applyTransform(as_rgb(image), _transform("sRGB", FULL_INK_PROFILE, "perceptual"))
    lab_limited = ImageCms.applyTransform(limited, _transform(PRINT_PROFILE, "LAB", "relative"))
    lab_full = ImageCms.applyTransform(full, _transform(FULL_INK_PROFILE, "LAB", "relative"))
    delta = _lab_distance(lab_limited, lab_full)
    return InkChange(share=float((delta > VISIBLE_DELTA_E).mean()), worst=float(delta.max()))


def _lab_distance(one, other):
    """The CIE76 distance of every pixel of two of Pillow's 8-bit Lab pictures: one channel at a time,
    read in place, so a card's picture costs no copy of it in three channels."""
    import numpy as np

    (l1, a1, b1), (l2, a2, b2) = _lab_channels(one), _lab_channels(other)
    return np.sqrt((l1 - l2) ** 2 + (a1 - a2) ** 2 + (b1 - b2) ** 2)


def _lab(image):
    """Pillow's 8-bit Lab as one array of L*, a*, b*."""
    import numpy as np

    return np.stack(_lab_channels(image), axis=2)


def _lab_channels(image):
    """Pillow's 8-bit Lab as L*, a*, b*, each an array: L scaled to 0..255, a and b stored as signed bytes."""
    import numpy as np

    raw = np.asarray(image)
    return (raw[..., 0].astype(np.float64) * (100.0 / 255.0), raw[..., 1].view(np.int8).astype(np.float64),
            raw[..., 2].view(np.int8).astype(np.float64))


def _pixel(rgb):
    """A picture of one sRGB pixel."""
    from PIL import Image

    return Image.new("RGB", (1, 1), rgb)


@lru_cache(maxsize=None)
def _solid_black_lightness() -> float:
    """The L* that black ink alone, at 100%, prints at on the press (FOGRA39: about 17)."""
    from PIL import Image, ImageCms

    black = ImageCms.applyTransform(Image.new("CMYK", (1, 1), (0, 0, 0, 255)),
                                    _transform(PRINT_PROFILE, "LAB", "relative"))
    return float(_lab(black)[0, 0, 0])


@lru_cache(maxsize=4096)
def prints_black_only(rgb: tuple[int, int, int]) -> bool:
    """Whether text or a line of the sRGB colour ``rgb`` prints in black ink alone: it looks as dark as
    solid black ink or darker (within :data:`BLACK_MARGIN` L*) and has next to no hue."""
    from PIL import ImageCms

    lab = _lab(ImageCms.applyTransform(_pixel(rgb), _transform("sRGB", "LAB", "relative")))[0, 0]
    chroma = float((lab[1] ** 2 + lab[2] ** 2) ** 0.5)
    return chroma <= NEUTRAL_CHROMA and float(lab[0]) <= _solid_black_lightness() + BLACK_MARGIN


@lru_cache(maxsize=4096)
def separated(rgb: tuple[int, int, int], ink_limit: int = PROFILE_INK) -> tuple[int, int, int, int]:
    """The CMYK (0 to 255 each) an area of the sRGB colour ``rgb`` prints in, as the pictures are separated."""
    return to_cmyk(_pixel(rgb), ink_limit).getpixel((0, 0))
