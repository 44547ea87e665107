"""Boards and results at the terminal: the game's own renderer, coloured where someone watches."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, cast

import click

from ludus.engine import State
from ludus.engine.hooks import hook

from .errors import CLIError


def svg_renderer(name: str) -> Callable[..., str]:
    """The ``render_svg`` of the renderer the game declares (``Hooks.renderer``)."""
    draw = getattr(hook(name, "renderer"), "render_svg", None)
    if draw is None:
        raise CLIError(f"the game {name!r} has no SVG renderer")
    return cast(Callable[..., str], draw)


def board_text(observation: dict[str, Any], name: str, color: bool) -> str:
    """The game's text board; a game without a renderer shows its observation, a line per key."""
    module = hook(name, "renderer")
    if module is None:
        return "\n".join(f"{key}: {json.dumps(value)}" for key, value in observation.items())
    return cast(str, module.render_text(observation, color=color))


def on_terminal(flag: bool | None, stream: str = "stdout") -> bool:
    """A flag as given, else whether ``sys.<stream>`` is a terminal (colour, progress: only where
    someone watches)."""
    if flag is not None:
        return flag
    try:
        return bool(getattr(sys, stream).isatty())
    except (AttributeError, ValueError):
        return False


def use_color(color: bool | None) -> bool:
    return on_terminal(color)


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


def seat_name(seat: int) -> str:
    """A seat as people count it, from 1 ("Seat 1"); only the API and the notation count from 0."""
    return f"Seat {seat + 1}"


def show(state: State, seat: int | None, color: bool) -> None:
    _echo_board(board_text(state.observation(seat), state.game.name, color), color)


def results(state: State) -> None:
    scores = state.scores()
    click.echo("Scores: " + ", ".join(f"{seat_name(s).lower()} {v}" for s, v in enumerate(scores)))
    winners = state.winners()
    click.echo(
        "Winner" + ("s" if len(winners) > 1 else "") + ": " + ", ".join(seat_name(s).lower() for s in winners)
    )
