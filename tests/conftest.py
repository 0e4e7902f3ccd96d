"""Shared fixtures: built kits and editable copies of the built-in game."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from kitgen.cli import cli
from kitgen.resources import builtin_dirs

REPO = Path(__file__).resolve().parent.parent


def run(*args: str):
    """Invoke the CLI in-process; returns click's Result."""
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def copy_builtin(slug: str, dest: Path) -> Path:
    """A user game folder holding a built-in game's data, templates and art."""
    data, templates, art = builtin_dirs(slug)
    shutil.copytree(data, dest)
    if templates.is_dir():
        shutil.copytree(templates, dest / "templates")
    if art.is_dir():
        shutil.copytree(art, dest / "art", ignore=shutil.ignore_patterns("*.py"))
    return dest


@pytest.fixture
def altun_copy(tmp_path: Path) -> Path:
    return copy_builtin("altun-ha", tmp_path / "altun-copy")


@pytest.fixture(scope="session")
def altun_kit(tmp_path_factory) -> Path:
    """The Altun Ha kit built once with default options."""
    out = tmp_path_factory.mktemp("kit")
    result = run("build", "altun-ha", "--out", out)
    assert result.exit_code == 0, result.output
    return out / "altun-ha"
