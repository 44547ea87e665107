"""``python -m ludus.cli``: the ``ludus`` command."""

from . import main

main()
