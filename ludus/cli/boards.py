"""Boards and results at the terminal: the game's own renderer, coloured where someone watches."""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

import click

from ludus.engine import State

from .errors import CLIError


def renderer(name: str) -> ModuleType:
    try:
        return importlib.import_module(f"ludus.{name}.render")
    except ImportError:
        raise CLIError(f"the game {name!r} has no board renderer yet") from None


def use_color(color: bool | None) -> bool:
    if color is not None:
        return color
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def _echo_board(text: str, color: bool) -> None:
    """Print a rendered board: ANSI text as it is, rich markup turned into ANSI."""
    if color and "\x1b[" not in text and "[" in text:
        from rich.console import Console
        from rich.errors import MarkupError
        from rich.text import Text

        try:
            console = Console(force_terminal=True, width=1000, highlight=False, color_system="standard")
            with console.capture() as capture:
                console.print(Text.from_markup(text), end="")
            text = capture.get()
        except MarkupError:
            pass
    click.echo(text, color=color or None)  # an explicit --color keeps colours in a pipe


def show(state: State, seat: int | None, color: bool) -> None:
    _echo_board(renderer(state.game.name).render_text(state.observation(seat), color=color), color)


def results(state: State) -> None:
    scores = state.scores()
    click.echo("Scores: " + ", ".join(f"seat {s} {v}" for s, v in enumerate(scores)))
    winners = state.winners()
    click.echo("Winner" + ("s" if len(winners) > 1 else "") + ": " + ", ".join(f"seat {s}" for s in winners))
