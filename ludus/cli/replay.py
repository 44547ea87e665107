"""``ludus replay`` and ``ludus render``: a game record stepped through, or drawn at one step."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from ludus.engine import State

from . import files
from .boards import results, show, svg_renderer, use_color
from .errors import CLIError
from .options import data_option


def _view_seat(seat: int | None, state: State) -> int | None:
    """``--seat`` (counted from 1, as people count seats) checked, as the engine's seat (from 0)."""
    n = state.game.num_players
    if seat is not None and not 1 <= seat <= n:
        raise CLIError(f"--seat must be 1..{n} (seats are counted from 1), got {seat}")
    return None if seat is None else seat - 1


def _step_header(states: list[State], step: int, record: dict[str, Any]) -> str:
    last = f"; last action: {record['actions'][step - 1]}" if step else ""
    return f"step {step}/{len(states) - 1}{last}"


def _next_step(step: int, last: int) -> int | None:
    """Read lines until one names a step to show; None to quit."""
    while True:
        try:
            line = (
                click.prompt(
                    "[enter] next, b back, N jump, q quit", default="", show_default=False, prompt_suffix="> "
                )
                .strip()
                .lower()
            )
        except click.Abort:
            return None
        if line in ("q", "quit", "exit"):
            return None
        if line == "":
            if step < last:
                return step + 1
            click.echo("error: this is the last step")
        elif line in ("b", "back"):
            if step > 0:
                return step - 1
            click.echo("error: this is the first step")
        elif line.isdigit() and int(line) <= last:
            return int(line)
        else:
            click.echo(f"error: {line!r} is not a command; steps run 0..{last}")


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--to", "to", type=int, help="Print the board after N actions and stop.")
@click.option("--end", is_flag=True, help="Print the final board and stop.")
@click.option("--seat", type=int, help="View as seat N, counted from 1 (default: the public view).")
@click.option("--color/--no-color", default=None, help="Coloured board (default: when on a terminal).")
@data_option
def replay(
    file: str, to: int | None, end: bool, seat: int | None, color: bool | None, data: str | None
) -> None:
    """Step through a game record: enter = next, b = back, a number = jump, q = quit.

    Example: ludus replay game.json --end
    """
    record = files.read(file)
    states = files.states(record, data)
    seat = _view_seat(seat, states[0])
    colored = use_color(color)
    last = len(states) - 1
    step: int | None = 0
    if to is not None or end:
        step = last if end else to
        assert step is not None
        if not 0 <= step <= last:
            raise CLIError(f"--to must be 0..{last}, got {step}")
    while step is not None:
        click.echo(_step_header(states, step, record))
        show(states[step], seat, colored)
        if states[step].is_terminal():
            results(states[step])
        if to is not None or end:
            return
        step = _next_step(step, last)


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option(
    "--svg", "svg_out", type=click.Path(dir_okay=False), help="Write the board as SVG here ('-': stdout)."
)
@click.option("--text", is_flag=True, help="Print the board as text.")
@click.option("--step", type=int, help="After this many actions (default: the end of the record).")
@click.option("--seat", type=int, help="View as seat N, counted from 1 (default: the public view).")
@click.option("--color/--no-color", default=None, help="Coloured text (default: when on a terminal).")
@data_option
def render(
    file: str,
    svg_out: str | None,
    text: bool,
    step: int | None,
    seat: int | None,
    color: bool | None,
    data: str | None,
) -> None:
    """Draw a record's board as SVG (--svg OUT) or text (--text).

    Example: ludus render game.json --svg board.svg --step 40
    """
    if svg_out and svg_out != "-":
        files.check_file(svg_out, "--svg")
    states = files.states(files.read(file), data)
    seat = _view_seat(seat, states[0])
    last = len(states) - 1
    if step is None:
        step = last
    if not 0 <= step <= last:
        raise CLIError(f"--step must be 0..{last}, got {step}")
    state = states[step]
    if svg_out:
        svg = svg_renderer(state.game.name)(state.observation(seat))
        if svg_out == "-":
            click.echo(svg, nl=False)
        else:
            try:
                Path(svg_out).write_text(svg, encoding="utf-8")
            except OSError as exc:
                raise CLIError(f"cannot write {svg_out}: {exc.strerror}") from None
            click.echo(f"wrote {svg_out} (step {step}/{last})", err=True)
    if text or not svg_out:
        show(state, seat, use_color(color))
