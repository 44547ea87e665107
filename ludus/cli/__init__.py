"""The ``ludus`` command: play, replay, render and simulate any installed game.

Generic over games through the contract: the game flags come from the games' ``Option``
declarations, boards from the game's renderer. Every bad input ends in one line
``error: ...`` and exit code 2, never a traceback. One module per command family.
"""

from __future__ import annotations

import click

import ludus

from .errors import EXIT_BAD_INPUT, CLIError, LudusGroup
from .options import game_options
from .play import HumanTurns, play
from .replay import render, replay
from .serve import serve
from .studies import report, simulate, solo_challenge, tournament

__all__ = ["EXIT_BAD_INPUT", "CLIError", "HumanTurns", "game_options", "main"]


@click.group(cls=LudusGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(ludus.__version__, prog_name="ludus")
def main() -> None:
    """Play, replay, render and simulate the games of ludus (Garum, Celtae)."""


for _command in (play, replay, render, simulate, tournament, report, solo_challenge, serve):
    main.add_command(_command)
