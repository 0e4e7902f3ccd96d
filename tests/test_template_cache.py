"""The rulebook template's compiled code, kept between runs: used when it fits, never when it does not."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from kitgen.data import sandbox
from kitgen.data.bounded_sandbox import LimitedSandbox
from kitgen.data.game import load_game
from kitgen.errors import GameDataError
from kitgen.render.rulebook import render_rulebook
from kitgen.units import paper_size
from tests.conftest import copy_builtin

LETTER = paper_size("letter")


@pytest.fixture
def cache_folder(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    monkeypatch.setattr(sandbox, "CACHE_FOLDER", str(folder))
    sandbox.compiled_code_cache.cache_clear()
    yield folder
    sandbox.compiled_code_cache.cache_clear()


@pytest.fixture
def compiles(monkeypatch) -> list[str]:
    """The names of the templates jinja2 compiled."""
    seen: list[str] = []
    original = LimitedSandbox.compile

    def counting(self, source, name=None, filename=None, *args, **kwargs):
        seen.append(name)
        return original(self, source, name, filename, *args, **kwargs)

    monkeypatch.setattr(LimitedSandbox, "compile", counting)
    return seen


def test_a_rebuild_runs_the_kept_code_and_prints_the_same_bytes(cache_folder, compiles, tmp_path):
    game = load_game(copy_builtin("altun-ha", tmp_path / "game"))
    first = render_rulebook(game, LETTER, None)
    assert "rules.md.j2" in compiles and list(cache_folder.glob("kitgen-*.cache"))
    compiles.clear()
    assert render_rulebook(game, LETTER, None) == first
    assert "rules.md.j2" not in compiles


def test_a_copy_of_the_game_elsewhere_runs_the_kept_code(cache_folder, compiles, tmp_path):
    made = []
    for copy in ("one", "two"):                   # the same source, read from another file
        folder = copy_builtin("altun-ha", tmp_path / copy)
        (folder / "templates" / "rules.md.j2").write_text(
            "# Rules\n\n{% for c in cards_of_type('bid')[:3] %}- {{ c.name }} ({{ c.value * 2 }})\n{% endfor %}\n",
            encoding="utf-8")
        made.append(render_rulebook(load_game(folder), LETTER, None))
    assert compiles.count("rules.md.j2") == 1
    assert made[0] == made[1]
    game = load_game(tmp_path / "two")
    text = " ".join(pdfium.PdfDocument(made[1])[0].get_textpage().get_text_range().split())
    for card in [c for c in game.cards if c.type == "bid"][:3]:
        assert f"{card.name} ({card.value * 2})" in text


def test_kept_code_names_the_file_it_was_read_from(cache_folder, compiles, tmp_path):
    games = []
    for copy in ("one", "two"):
        folder = copy_builtin("altun-ha", tmp_path / copy)
        (folder / "templates" / "rules.md.j2").write_text("# Rules\n\n{{ no_such_name }}\n", encoding="utf-8")
        games.append((folder, load_game(folder)))
    for folder, game in games:
        with pytest.raises(GameDataError) as info:
            render_rulebook(game, LETTER, None)
        assert f"{folder / 'templates' / 'rules.md.j2'}, line 3: undefined in template" in str(info.value)
    assert compiles.count("rules.md.j2") == 1       # the second copy ran the first one's code


def test_a_process_keeps_the_code_of_a_bounded_number_of_sources(cache_folder, compiles, tmp_path, monkeypatch):
    """A server whose designer saves a template again and again meets a new source at every save: past
    the bound the oldest kept code is forgotten (compiled again when its source comes back), the newest
    kept."""
    monkeypatch.setattr(sandbox, "CODES_KEPT", 2)
    folder = copy_builtin("altun-ha", tmp_path / "game")
    template = folder / "templates" / "rules.md.j2"

    def render(edition: int) -> str:
        template.write_text(f"# Rules\n\nEdition {edition}.\n", encoding="utf-8")
        for kept_on_disk in cache_folder.glob("kitgen-*.cache"):
            kept_on_disk.unlink()                      # what is kept can only be the process's own
        pdf = render_rulebook(load_game(folder), LETTER, None)
        return " ".join(pdfium.PdfDocument(pdf)[0].get_textpage().get_text_range().split())

    for edition in (1, 2, 3):
        assert f"Edition {edition}." in render(edition)
    assert compiles.count("rules.md.j2") == 3
    compiles.clear()
    assert "Edition 3." in render(3) and compiles.count("rules.md.j2") == 0      # kept
    assert "Edition 1." in render(1) and compiles.count("rules.md.j2") == 1      # forgotten, compiled again


def test_an_edited_template_is_compiled_again(cache_folder, compiles, tmp_path):
    folder = copy_builtin("altun-ha", tmp_path / "game")
    before = render_rulebook(load_game(folder), LETTER, None)
    template = folder / "templates" / "rules.md.j2"
    template.write_text(template.read_text(encoding="utf-8") + "\nAn added closing line.\n", encoding="utf-8")
    compiles.clear()
    after = render_rulebook(load_game(folder), LETTER, None)
    assert "rules.md.j2" in compiles and after != before


def test_other_sandbox_options_do_not_share_compiled_code(cache_folder):
    plain = sandbox.compiled_code_cache(sandbox._stable({"trim_blocks": False}))
    trimmed = sandbox.compiled_code_cache(sandbox._stable({"trim_blocks": True}))
    assert plain.get_cache_key("rules.md.j2", "x") != trimmed.get_cache_key("rules.md.j2", "x")


def test_no_private_folder_means_no_cache(tmp_path, monkeypatch):
    # where the user's folder should be stands something else (here a file): jinja2 will not use it
    (tmp_path / f"_jinja2-cache-{os.getuid()}").write_text("not a folder")
    monkeypatch.setattr(sandbox, "CACHE_FOLDER", None)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    sandbox.compiled_code_cache.cache_clear()
    try:
        assert sandbox.compiled_code_cache("x") is None
        game = load_game("altun-ha")              # and the rulebook is made all the same
        assert render_rulebook(game, LETTER, None).startswith(b"%PDF")
    finally:
        sandbox.compiled_code_cache.cache_clear()
