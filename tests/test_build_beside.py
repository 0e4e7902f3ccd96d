"""The rulebook drawn in a forked process beside the card sheets: the same bytes, the same errors.

The forked path runs only in a process without other threads, so these builds run in fresh
processes (a test worker has threads of its own); the bytes are compared with a build made
here with the rulebook drawn in this process.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from kitgen.outputs import workers
from kitgen.render.rulebook.template import DEFAULT_TEMPLATE
from tests.conftest import HANG_GUARD, REPO, run, small_game

SCRIPT = """
import json, os, sys
from click.testing import CliRunner
from kitgen.cli import cli
from kitgen.outputs import workers
from kitgen.render import rulebook

parent, forked = os.getpid(), []
started = workers.Beside.__init__

def recording(self, func, *args):
    started(self, func, *args)
    forked.append(self.process is not None)

workers.Beside.__init__ = recording
draw = rulebook.render_rulebook

def dying(*args):
    if os.getpid() != parent:
        os._exit(9)                      # the forked process dies without a word
    return draw(*args)

results = []
for game, mode, out in json.loads(sys.argv[1]):
    import kitgen.render.rulebook
    kitgen.render.rulebook.render_rulebook = dying if mode == "die-beside" else draw
    forked.clear()
    result = CliRunner().invoke(cli, ["build", game, "--out", out])
    results.append({"exit_code": result.exit_code, "output": result.output, "forked": list(forked)})
print(json.dumps(results))
"""


def build_fresh(*builds: tuple) -> list[dict]:
    """``(game, mode, out)`` builds made one after the other in one fresh process, and what each said."""
    jobs = json.dumps([[str(game), mode, str(out)] for game, mode, out in builds])
    process = subprocess.run([sys.executable, "-c", SCRIPT, jobs], capture_output=True, text=True, cwd=REPO,
                             timeout=HANG_GUARD)
    assert process.returncode == 0, process.stderr
    return json.loads(process.stdout)


# a game whose rulebook and card sheets hold pictures (as PDF image streams), built first in the fresh process
PICTURED = REPO / "docs" / "examples" / "kitchen-rivals"


def _with_a_mistake(game: Path) -> Path:
    """The game with its own rulebook template (kitgen's default one) ending in a name it does not know."""
    toml = game / "game.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('# rulebook = "rules.md.j2"', 'rulebook = "rules.md.j2"'),
                    encoding="utf-8")
    template = DEFAULT_TEMPLATE.read_text(encoding="utf-8") + "\n{{ no_such_name }}\n"
    (game / "templates" / "rules.md.j2").write_text(template, encoding="utf-8")
    return game


@pytest.fixture(scope="module")
def fresh(tmp_path_factory) -> dict:
    """A small game built in a fresh process with its forked rulebook process dying, and a copy of it with a
    mistake in its rulebook built there too (its rulebook forked); both builds in one process, as in
    :func:`build_fresh`."""
    root = tmp_path_factory.mktemp("beside")
    game = small_game(root / "game")
    broken = _with_a_mistake(small_game(root / "broken"))
    first, dies, mistake = build_fresh((PICTURED, "plain", root / "first"), (game, "die-beside", root / "dies"),
                                       (broken, "plain", root / "mistake"))
    return {"game": game, "dies": (dies, root / "dies" / "export-test"), "broken": broken,
            "mistake": (mistake, root / "mistake" / "export-test"), "first": (first, root / "first" / "kitchen-rivals")}


def test_the_rulebook_made_beside_is_byte_for_byte_the_one_made_here(altun_build, tmp_path, monkeypatch):
    beside = altun_build                  # built once per run in a fresh process, as build_fresh does
    assert beside["exit_code"] == 0 and beside["forked"] == [True]
    monkeypatch.setattr(workers, "BESIDE", False)
    assert run("build", "altun-ha", "--out", tmp_path / "here").exit_code == 0
    for name in ("rules.pdf", "cards.pdf", "aids.pdf", "manifest.json"):
        assert (beside["folder"] / name).read_bytes() == (tmp_path / "here" / "altun-ha" / name).read_bytes(), name


def test_a_process_that_has_drawn_before_draws_the_same_bytes_as_a_fresh_one(fresh, tmp_path):
    """The first build of a fresh process (its rulebook forked before any other PDF was made) and a build in
    this process after it has drawn another game's kit: the same bytes, pictures included."""
    result, folder = fresh["first"]
    assert result["exit_code"] == 0 and result["forked"] == [True]
    assert run("build", fresh["game"], "--out", tmp_path / "before").exit_code == 0
    assert run("build", PICTURED, "--out", tmp_path / "here").exit_code == 0
    for name in ("rules.pdf", "cards.pdf", "aids.pdf", "manifest.json"):
        assert (folder / name).read_bytes() == (tmp_path / "here" / "kitchen-rivals" / name).read_bytes(), name
    pictures = [image for page in PdfReader(folder / "rules.pdf").pages for image in page.images]
    assert pictures, "the rulebook holds no picture: the test would not compare any image stream"


def test_a_forked_process_that_dies_leaves_the_rulebook_to_this_one(fresh, tmp_path, monkeypatch):
    # a small game: what is checked is the fallback when the forked process dies, whatever the game
    result, folder = fresh["dies"]
    assert result["exit_code"] == 0 and result["forked"] == [True]
    monkeypatch.setattr(workers, "BESIDE", False)
    here = run("build", fresh["game"], "--out", tmp_path / "here")
    assert here.exit_code == 0
    rules = (tmp_path / "here" / "export-test" / "rules.pdf").read_bytes()
    assert (folder / "rules.pdf").read_bytes() == rules           # drawn here after the fork died: the same book
    pages = len(PdfReader(folder / "rules.pdf").pages)
    assert pages >= 2 and f"rules.pdf  ({pages} pages)" in result["output"]


def test_a_mistake_in_the_rulebook_is_the_same_one_line_as_without_the_fork(fresh, tmp_path, monkeypatch):
    beside, folder = fresh["mistake"]
    monkeypatch.setattr(workers, "BESIDE", False)
    here = run("build", fresh["broken"], "--out", tmp_path / "here")
    assert beside["forked"] == [True]
    assert beside["exit_code"] == here.exit_code == 2
    assert beside["output"] == here.output and "no_such_name" in here.output
    assert not folder.exists()
