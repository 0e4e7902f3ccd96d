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

from pypdf import PdfReader

from kitgen.outputs import workers
from tests.conftest import REPO, copy_builtin, run

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
if sys.argv[2] == "die-beside":
    draw = rulebook.render_rulebook
    def dying(*args):
        if os.getpid() != parent:
            os._exit(9)                  # the forked process dies without a word
        return draw(*args)
    import kitgen.render.rulebook
    kitgen.render.rulebook.render_rulebook = dying
result = CliRunner().invoke(cli, ["build", sys.argv[1], "--out", sys.argv[3]])
print(json.dumps({"exit_code": result.exit_code, "output": result.output, "forked": forked}))
"""


def build_fresh(game, out: Path, mode: str = "plain") -> dict:
    process = subprocess.run([sys.executable, "-c", SCRIPT, str(game), mode, str(out)], capture_output=True,
                             text=True, cwd=REPO, timeout=60)
    assert process.returncode == 0, process.stderr
    return json.loads(process.stdout)


def test_the_rulebook_made_beside_is_byte_for_byte_the_one_made_here(altun_build, tmp_path, monkeypatch):
    beside = altun_build                  # built once per run in a fresh process, as build_fresh does
    assert beside["exit_code"] == 0 and beside["forked"] == [True]
    monkeypatch.setattr(workers, "BESIDE", False)
    assert run("build", "altun-ha", "--out", tmp_path / "here").exit_code == 0
    for name in ("rules.pdf", "cards.pdf", "aids.pdf", "manifest.json"):
        assert (beside["folder"] / name).read_bytes() == (tmp_path / "here" / "altun-ha" / name).read_bytes(), name


def test_a_forked_process_that_dies_leaves_the_rulebook_to_this_one(tmp_path):
    result = build_fresh("altun-ha", tmp_path / "out", "die-beside")
    assert result["exit_code"] == 0 and result["forked"] == [True]
    assert len(PdfReader(tmp_path / "out" / "altun-ha" / "rules.pdf").pages) == 12
    assert "rules.pdf  (12 pages)" in result["output"]


def test_a_mistake_in_the_rulebook_is_the_same_one_line_as_without_the_fork(tmp_path, monkeypatch):
    game = copy_builtin("altun-ha", tmp_path / "game")
    template = game / "templates" / "rules.md.j2"
    template.write_text(template.read_text(encoding="utf-8") + "\n{{ no_such_name }}\n", encoding="utf-8")
    beside = build_fresh(game, tmp_path / "beside")
    monkeypatch.setattr(workers, "BESIDE", False)
    here = run("build", game, "--out", tmp_path / "here")
    assert beside["forked"] == [True]
    assert beside["exit_code"] == here.exit_code == 2
    assert beside["output"] == here.output and "no_such_name" in here.output
    assert not (tmp_path / "beside" / "altun-ha").exists()
