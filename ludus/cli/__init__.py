"""The ``ludus`` command: list, play, replay, render and simulate any installed game.

Generic over games through the contract and the registry: the game flags come from the games'
``Option`` declarations, boards from the game's renderer, the games named in the help and its
examples from the installed games, and a game's own commands from the ``ludus.commands`` entry
points (``plugins``). Every bad input ends in one line ``error: ...`` and exit code 2, never a
traceback. One module per command family.
"""

from __future__ import annotations

import click

import ludus
from ludus.engine.registry import game_class

from .accounts import accounts
from .balance import balance
from .compare import compare
from .data import data
from .errors import EXIT_BAD_INPUT, CLIError
from .games import games
from .options import game_options
from .play import HumanTurns, play
from .plugins import PluginGroup
from .replay import render, replay
from .serve import serve
from .studies import report, simulate, tournament

__all__ = ["EXIT_BAD_INPUT", "CLIError", "HumanTurns", "game_options", "main"]


@click.group(cls=PluginGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(ludus.__version__, prog_name="ludus")
def main() -> None:
    """Play, replay, render and simulate the games installed here: {titles}.

    'ludus games' lists them with their options.
    """


def _from_registry() -> None:
    """Fill the help texts with the installed games: their titles, and the first one in examples."""
    names = ludus.game_names()
    titles = ", ".join(game_class(name).display_title() for name in names) or "none (see 'ludus games')"
    example = names[0] if names else "GAME"
    for command in (main, *main.commands.values()):
        if command.help:
            command.help = command.help.replace("{titles}", titles).replace("{game}", example)


for _command in (
    games,
    play,
    replay,
    render,
    simulate,
    tournament,
    report,
    balance,
    compare,
    data,
    serve,
    accounts,
):
    main.add_command(_command)
_from_registry()
