"""``python -m kitgen``: the same as the ``kitgen`` command."""

from kitgen.cli import main

main()
