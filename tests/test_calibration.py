"""The duplex calibration sheet, read back and printed on a simulated printer that shifts its backs.

The reading a user takes off the sheet must be the --back-offset that puts
every card back exactly behind its front on that same printer.
"""

from __future__ import annotations

import io

import numpy as np
import pytest
from pypdf import PdfReader

from kitgen.layout.calibration import behind
from kitgen.layout.deck import place_cards
from kitgen.outputs.calibration import calibration_bytes
from kitgen.outputs.kit import BuildOptions, card_sheet_layout
from kitgen.units import MM, card_size, paper_size
from tests.conftest import run
from tests.plumber_once import Opened

RED = (0.753, 0.224, 0.169)


sheet = Opened(lambda key: calibration_bytes(*key))     # (paper, flip): drawn and opened once a module
_close_sheets = sheet.closing()


def red_crosshairs(page) -> list[tuple[float, float]]:
    """Centres of the front's targets (PDF coordinates): where a long red upright and level line meet."""
    h = float(page.height)
    reds = [ln for ln in page.lines if tuple(round(v, 3) for v in ln.get("stroking_color") or ()) == RED
            and max(ln["width"], ln["height"]) > 40 * MM]
    ups = [ln for ln in reds if ln["width"] < 0.1]
    levels = [ln for ln in reds if ln["height"] < 0.1]
    return sorted((u["x0"], h - lv["top"]) for u in ups for lv in levels
                  if lv["x0"] < u["x0"] < lv["x1"] and u["top"] < lv["top"] < u["bottom"])


def scales(page) -> list[tuple[str, float, dict]]:
    """Every scale on the back, read as a user reads it: its numbered (longest) ticks and the number
    printed beside each.  ("x", the scale's y, {number: tick x}) for a horizontal scale and
    ("y", the scale's x, {number: tick y}) for an upright one, in PDF coordinates."""
    h = float(page.height)
    digits = [c for c in page.chars if c["text"] in "+-0123456789" and abs(c["size"] - 5) < 0.1]
    found = []
    for tick in (ln for ln in page.lines if abs(max(ln["width"], ln["height"]) - 2.6 * MM) < 0.05):
        if tick["width"] < 0.1:       # a horizontal scale's tick runs up from the scale's line, its number right of it
            position, at, kind = tick["x0"], h - tick["bottom"], "x"
            label = [c for c in digits if position < c["x0"] < position + 3 * MM
                     and tick["bottom"] - 5 * MM < c["bottom"] < tick["bottom"]]
        else:                         # an upright scale's tick runs right from its line, its number above it
            position, at, kind = h - tick["top"], tick["x0"], "y"
            label = [c for c in digits if tick["x0"] < c["x0"] < tick["x0"] + 6 * MM
                     and 0 < h - (c["top"] + c["bottom"]) / 2 - position < 3 * MM]
        found.append((kind, at, position, int("".join(c["text"] for c in sorted(label, key=lambda c: c["x0"])))))
    out: list[tuple[str, float, dict]] = []
    for kind, at, position, number in sorted(found):
        last = out[-1] if out else None
        # ticks of one scale share its line and lie within its 16 mm
        if last and last[0] == kind and abs(last[1] - at) < 0.1 and abs(max(last[2].values()) - position) < 5 * MM:
            last[2][number] = position
        else:
            out.append((kind, at, {number: position}))
    return out


def reading(scale: dict, position: float) -> float:
    """The value, in mm, a scale shows at ``position`` (its numbered ticks fitted by a line)."""
    values = sorted(scale)
    lo, hi = values[0], values[-1]
    per_mm = (scale[hi] - scale[lo]) / (hi - lo)
    return lo + (position - scale[lo]) / per_mm


@pytest.mark.parametrize("paper, duplex", [("letter", "long"), ("a4", "short")])
def test_the_reading_off_a_shifted_printer_is_the_back_offset_that_cancels_it(paper, duplex):
    shift = (1.3 * MM, -0.8 * MM)         # the simulated printer lands every back this far off (back page axes)
    page_size = paper_size(paper)
    doc = sheet((paper, duplex))
    assert len(doc.pages) == 2
    targets = red_crosshairs(doc.pages[0])
    read = scales(doc.pages[1])
    assert len(targets) == 5
    xs = [s for s in read if s[0] == "x"]
    ys = [s for s in read if s[0] == "y"]
    assert len(xs) == len(ys) == 5
    for tx, ty in targets:
        # where the target shows through, on the back page; the printed scales moved by the shift
        sx, sy = behind((tx, ty), page_size, duplex)
        hscale = min(xs, key=lambda s: abs(s[2][0] - sx) + abs(s[1] - sy))[2]       # above the target
        vscale = min(ys, key=lambda s: abs(s[2][0] - sy) + abs(s[1] - sx))[2]       # right of it
        assert sorted(hscale) == sorted(vscale) == [-8, -4, 0, 4, 8]
        assert hscale[0] == pytest.approx(sx, abs=0.01) and vscale[0] == pytest.approx(sy, abs=0.01)
        x_read = reading({k: v + shift[0] for k, v in hscale.items()}, sx)
        y_read = reading({k: v + shift[1] for k, v in vscale.items()}, sy)
        assert (x_read, y_read) == pytest.approx((-shift[0] / MM, -shift[1] / MM), abs=0.05)
    # build with the reading: on the same printer every back lands exactly behind its front
    offset = (round(x_read, 1), round(y_read, 1))
    options = BuildOptions(paper=paper, duplex=duplex, back_offset_mm=offset)
    layout = card_sheet_layout(options, page_size, card_size("poker"), "card_size")
    placements, _ = place_cards([20], layout)
    for pl in placements:
        printed = pl.back.shifted(*shift)
        bx, by = behind((pl.front.x, pl.front.y), page_size, duplex)
        bx1, by1 = behind((pl.front.x1, pl.front.y1), page_size, duplex)
        assert (printed.x, printed.y, printed.x1, printed.y1) == pytest.approx(
            (min(bx, bx1), min(by, by1), max(bx, bx1), max(by, by1)), abs=0.05 * MM)


def test_the_sheet_asks_for_its_flip_and_explains_the_axes(tmp_path):
    result = run("calibrate", "--paper", "a4", "--duplex", "short", "--out", tmp_path / "cal.pdf")
    assert result.exit_code == 0, result.output
    assert "--back-offset X,Y" in result.output
    reader = PdfReader(tmp_path / "cal.pdf")
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/DuplexFlipShortEdge"
    assert [round(float(v)) for v in reader.pages[0].mediabox[2:]] == [595, 842]
    back = " ".join(reader.pages[1].extract_text().split())
    assert "+X points to the right and +Y up on this page" in back
    front = reader.pages[0].extract_text()
    assert "50 mm" in front and "flip on short edge" in " ".join(front.split())


@pytest.mark.parametrize("args, preference", [([], "/DuplexFlipLongEdge"), (["--duplex", "short"], "/DuplexFlipShortEdge"),
                                              (["--duplex", "none"], "/Simplex"),
                                              (["--layout", "gutterfold"], "/Simplex")])
def test_cards_pdf_asks_viewers_for_the_flip_it_was_built_for(args, preference):
    from kitgen.data.art_files import ArtLibrary
    from kitgen.data.game import load_game
    from kitgen.render.sheets import render_card_sheets

    options = BuildOptions(duplex=args[1] if args[:1] == ["--duplex"] else "long",
                           layout=args[1] if args[:1] == ["--layout"] else "duplex")
    game = load_game("ancestral")
    layout = card_sheet_layout(options, paper_size("letter"), card_size(game.card_size), "card_size")
    pdf = render_card_sheets(game, layout, ArtLibrary.for_game(game), "cards.csv").pdf
    prefs = PdfReader(io.BytesIO(pdf)).trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/Duplex"] == preference
    assert prefs["/PrintScaling"] == "/None"


def test_bad_paper_is_refused():
    result = run("calibrate", "--paper", "legal")
    assert result.exit_code == 2 and result.output.startswith("Error: ")


def _boxes(page) -> list[tuple[str, float, float, float, float]]:
    """Every printed character of a pdfplumber page: (text, x0, y0, x1, y1) from the bottom left."""
    h = float(page.height)
    return [(c["text"], c["x0"], h - c["bottom"], c["x1"], h - c["top"]) for c in page.chars if c["text"].strip()]


def _segments(lines, h: float) -> list[tuple[float, float, float, float]]:
    return [(ln["x0"], h - ln["bottom"], ln["x1"], h - ln["top"]) for ln in lines]


def _crossed(lines, boxes) -> list[str]:
    """The characters of ``boxes`` that an upright or level segment of ``lines`` runs through: an upright
    one within the box's width and overlapping its height, a level one within its height and overlapping
    its width; every segment against every box at once."""
    seg = np.array(lines, dtype=np.float64).reshape(-1, 4)
    box = np.array([b[1:] for b in boxes], dtype=np.float64).reshape(-1, 4)
    x0, y0, x1, y1 = (seg[:, i, None] for i in range(4))          # a row a segment
    bx0, by0, bx1, by1 = (box[None, :, i] for i in range(4))      # a column a character
    upright = (bx0 < x0) & (x0 < bx1) & (y0 < by1) & (by0 < y1)
    level = (by0 < y0) & (y0 < by1) & (x0 < bx1) & (bx0 < x1)
    hit = np.where(x1 - x0 < 0.01, upright, level)
    return [boxes[i][0] for i in np.flatnonzero(hit.any(axis=0))]


def _through(segment, page, duplex):
    """A front segment where it shows through on the back page."""
    (ax, ay), (bx, by) = behind(segment[:2], page, duplex), behind(segment[2:], page, duplex)
    return min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)


def _box_through(box, page, duplex):
    text, x0, y0, x1, y1 = box
    return (text, *_through((x0, y0, x1, y1), page, duplex))


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("duplex", ["long", "short"])
def test_no_text_lies_on_a_scale_or_a_crosshair_on_either_side_or_through_the_page(paper, duplex):
    page_size = paper_size(paper)
    front, back = sheet((paper, duplex)).pages
    h = float(front.height)
    crosshairs = _segments([ln for ln in front.lines if tuple(round(v, 3) for v in ln.get("stroking_color") or ())
                            == RED and max(ln["width"], ln["height"]) > 40 * MM], h)
    scale_lines = _segments(back.lines, h)          # the back's lines are its scales: lines and ticks
    front_text, back_text = _boxes(front), _boxes(back)
    assert len(crosshairs) == 10 and len(scale_lines) == 5 * 2 * (1 + 33)     # a line and 33 ticks a scale
    names = "".join(c[0] for c in front_text)
    assert all(f"target{n}" in names for n in "ABCD") and "middletarget" in names
    for where, lines, boxes in (
            ("the front's names on its crosshairs", crosshairs, front_text),
            ("the back's text on its scales", scale_lines, back_text),
            ("the back's text on the crosshairs showing through", [_through(s, page_size, duplex) for s in crosshairs],
             back_text),
            ("the front's text, showing through, on the back's scales", scale_lines,
             [_box_through(b, page_size, duplex) for b in front_text])):
        hits = _crossed(lines, boxes)
        assert not hits, (paper, duplex, where, "".join(hits))

