"""The ``kitgen`` command: a thin layer of click commands over the library."""

from kitgen.cli.group import cli, main

__all__ = ["cli", "main"]
