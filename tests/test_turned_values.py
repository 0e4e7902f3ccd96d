"""6 or 9? Values that read as other values upside down are underlined in the card corners."""

from __future__ import annotations

import io

import pdfplumber
import pytest

from kitgen.data.art_files import ArtLibrary
from kitgen.data.game import load_game
from kitgen.layout.card_face import reads_differently_turned
from kitgen.outputs.card_pages import CardPage, card_pages_pdf
from kitgen.outputs.export_job import ExportJob, ExportOptions
from kitgen.units import card_size


@pytest.mark.parametrize("value", ["6", "9", "66", "99", "16", "91", "18", "68", "86", "116"])
def test_values_that_read_as_others_when_turned(value):
    assert reads_differently_turned(value)


@pytest.mark.parametrize("value", ["1", "8", "0", "11", "69", "96", "88", "10", "60", "5", "7", "2", "12", "A",
                                   "", " 8 ", "6a"])
def test_values_that_read_the_same_or_as_nothing(value):
    # 69 turned is 69 again; 10 turned is 01, which no card shows; 7 and 2 are no digit upside down
    assert not reads_differently_turned(value)


def test_six_and_nine_are_underlined_in_both_corners_and_five_is_not():
    game = load_game("temple-of-inscriptions")
    by_value = {c.value: c for c in game.cards if c.value}
    job = ExportJob(game, card_size(game.card_size), 0.0, 72, 1, ArtLibrary.for_game(game), "cards.csv",
                    ExportOptions())
    pdf = card_pages_pdf(job, [CardPage(by_value[v]) for v in ("6", "9", "5")], "cards", "cards", bleed=0.0)
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        for page, value in zip(doc.pages, ("6", "9", "5")):
            h = float(page.height)
            digits = [c for c in page.chars if c["text"] == value and "Bold" in c["fontname"] and c["size"] < 20]
            assert len(digits) == 2
            bars = [ln for ln in page.lines if tuple(ln.get("stroking_color") or ()) in ((1,), (1, 1, 1))
                    and ln["height"] < 0.5]
            if value == "5":
                assert bars == []
                continue
            assert len(bars) == 2
            for bar in bars:
                # each bar runs under a corner digit as that corner is read: below the upright digit,
                # above the turned one (which is read with the card turned round)
                (digit,) = [d for d in digits if d["x0"] - 1 < bar["x0"] and bar["x1"] < d["x1"] + 1]
                upright = digit["top"] < h / 2
                if upright:
                    assert digit["bottom"] - 2 < bar["top"] < digit["bottom"] + 4
                else:
                    assert digit["top"] - 4 < bar["top"] < digit["top"] + 2
                assert bar["width"] >= 0.8 * (digit["x1"] - digit["x0"])
