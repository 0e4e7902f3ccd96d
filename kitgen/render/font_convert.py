"""OpenType fonts with PostScript (CFF) outlines turned into TrueType outlines, which reportlab embeds.

reportlab embeds TrueType outlines only; many ``.otf`` files hold cubic CFF
outlines instead.  fontTools (the reference library for font files) converts
them to quadratic TrueType curves within a fraction of a font unit, the same
way its own ``otf2ttf`` recipe does, in memory.
"""

from __future__ import annotations

import io

MAX_ERROR = 1.0          # font units a converted curve may stray from the original


def truetype_bytes(data: bytes) -> bytes:
    """The font file as reportlab can embed it: TrueType fonts as they are, CFF outlines converted."""
    if data[:4] != b"OTTO":
        return data
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont, newTable

    font = TTFont(io.BytesIO(data))
    order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = {}
    for name in order:
        pen = TTGlyphPen(glyph_set)
        glyph_set[name].draw(Cu2QuPen(pen, MAX_ERROR, reverse_direction=True))
        glyf.glyphs[name] = pen.glyph()
    font["loca"] = newTable("loca")
    font["glyf"] = glyf
    for table in ("CFF ", "CFF2", "VORG"):
        if table in font:
            del font[table]
    glyf.compile(font)
    hmtx = font["hmtx"]
    for name, glyph in glyf.glyphs.items():
        advance = hmtx.metrics[name][0]
        hmtx.metrics[name] = (advance, getattr(glyph, "xMin", 0))
    maxp = font["maxp"] = newTable("maxp")
    maxp.tableVersion = 0x00010000
    for key in ("maxZones",):
        setattr(maxp, key, 1)
    for key in ("maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs", "maxStackElements",
                "maxSizeOfInstructions", "maxComponentElements"):
        setattr(maxp, key, 0)
    post = font["post"]
    post.formatType, post.extraNames, post.mapping, post.glyphOrder = 2.0, [], {}, order
    font["head"].glyphDataFormat = 0
    font.sfntVersion = "\x00\x01\x00\x00"
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()
