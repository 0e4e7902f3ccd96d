"""``python -m kitgen``: the same as the ``kitgen`` command."""

from .cli import main

main()
