"""kitgen export --format print-shop: one card per page, TrimBox and BleedBox, front/back order."""

from __future__ import annotations

import pytest
from pypdf import PdfReader

from kitgen.data.builtin import builtin_dirs
from tests.conftest import csv_cards, run, small_game
from tests.pdfium_read import page_texts

POKER_W, POKER_H = 63.5 / 25.4 * 72, 88.9 / 25.4 * 72


@pytest.fixture(scope="module")
def altun_pdf(tmp_path_factory):
    out = tmp_path_factory.mktemp("shop")
    result = run("export", "altun-ha", "--format", "print-shop", "--out", out)
    assert result.exit_code == 0, result.output
    return out / "altun-ha" / "print-shop.pdf"


def test_every_copy_is_a_front_followed_by_the_back(altun_pdf):
    deck = [name for name, count in csv_cards(builtin_dirs("altun-ha")[0]) for _ in range(count)]
    texts = page_texts(altun_pdf)
    assert len(texts) == 2 * len(deck) == 160
    for i, name in enumerate(deck):
        front, back = texts[2 * i], texts[2 * i + 1]
        assert name in front, (i, name)
        assert "Belize" in back and name not in back


def test_trim_and_bleed_boxes_on_every_page_with_eighth_inch_bleed(altun_pdf):
    b = 9.0  # 1/8 in
    reader = PdfReader(altun_pdf)
    for page in reader.pages:
        assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, POKER_W + 2 * b, POKER_H + 2 * b], abs=0.01)
        assert [float(v) for v in page.trimbox] == pytest.approx([b, b, b + POKER_W, b + POKER_H], abs=0.01)
        assert [float(v) for v in page.bleedbox] == pytest.approx([0, 0, POKER_W + 2 * b, POKER_H + 2 * b], abs=0.01)


def test_bleed_option_and_card_size_change_the_boxes(tmp_path):
    game = small_game(tmp_path / "g", [("Solo", "resource", 1, "", "")])
    result = run("export", game, "--format", "print-shop", "--out", tmp_path / "out",
                 "--bleed", "3mm", "--card-size", "70x120")
    assert result.exit_code == 0, result.output
    reader = PdfReader(tmp_path / "out" / "export-test" / "print-shop.pdf")
    b, w, h = 3 / 25.4 * 72, 70 / 25.4 * 72, 120 / 25.4 * 72
    assert len(reader.pages) == 2
    for page in reader.pages:
        assert [float(v) for v in page.trimbox] == pytest.approx([b, b, b + w, b + h], abs=0.01)
        assert [float(v) for v in page.bleedbox] == pytest.approx([0, 0, w + 2 * b, h + 2 * b], abs=0.01)


def test_the_pdf_is_byte_identical_when_exported_twice(tmp_path):
    game = small_game(tmp_path / "g")
    for out in ("a", "b"):
        assert run("export", game, "--format", "print-shop", "--out", tmp_path / out).exit_code == 0
    a = (tmp_path / "a" / "export-test" / "print-shop.pdf").read_bytes()
    assert a == (tmp_path / "b" / "export-test" / "print-shop.pdf").read_bytes()
