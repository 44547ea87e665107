"""``ludus compare``: what a change of data does, on the same deals (``ludus.arena.compare``)."""

from __future__ import annotations

import json
from typing import Any

import click

from ludus.engine.errors import DataFileError

from . import files
from .boards import on_terminal
from .errors import CLIError, one_line, require_extra
from .options import (
    bot_specs,
    bots_option,
    game_options,
    games_option,
    jobs_option,
    load,
    seed_option,
    with_game_options,
)
from .studies import _PROGRESS, _RAY, _RUN_ERRORS


def _print(result: dict[str, Any]) -> None:
    """The study in plain lines: what B changes, then each table with a row a line (the Markdown report
    has the same tables and their plots)."""
    config = " ".join(f"{k}={v}" for k, v in result["config"].items())
    click.echo(f"{result['game']} {config}: {result['games']} deals, bots {', '.join(result['bots'])}")
    click.echo(f"A: {result['a']}")
    click.echo(f"B: {result['b']}")
    for name, key, was, now in result["changes"]:
        click.echo(f"  {name} {key}: {json.dumps(was)} -> {json.dumps(now)}")
    for table in [*result["tables"], *result["options"]]:
        cells = [
            (row.label, row.shown(row.a), row.shown(row.b), row.interval(), row.verdict())
            for row in table.rows
        ]
        widths = [max(len(c[i]) for c in cells) for i in range(4)]
        click.echo(f"\n{table.title} (A, B, B − A):")
        for label, a, b, diff, verdict in cells:
            click.echo(
                f"  {label:<{widths[0]}}  {a:>{widths[1]}}  {b:>{widths[2]}}  {diff:>{widths[3]}}  {verdict}"
            )


@with_game_options
@click.command()
@click.argument("game")
@click.option(
    "--data",
    "data",
    multiple=True,
    metavar="DIR",
    help="Once: the printed components (A) against this folder's data files (B); twice: A, then B.",
)
@games_option(100, "Deals, each played under A and B.")
@bots_option("greedy")
@jobs_option
@seed_option(0, "Master seed (the deals of ludus simulate).")
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default="compare",
    show_default=True,
    help="Directory for compare.md, its plots and the games (resumed from there when run again).",
)
@click.option(
    "--compare/--no-compare",
    default=True,
    help="Also play every board / variant / difficulty choice under A and B.",
)
@_RAY
@_PROGRESS
def compare(
    game: str,
    flags: dict[str, Any],
    extra: tuple[str, ...],
    data: tuple[str, ...],
    games: int,
    bots: str,
    jobs: int | None,
    seed: int,
    out: str,
    compare: bool,
    ray_address: str | None,
    progress: bool | None,
) -> None:
    """Play the same deals with two versions of the data and report each difference with its interval.

    Example: ludus compare {game} --data mydata --games 200 --jobs 2
    """
    require_extra("arena", "ludus compare", "matplotlib")
    if ray_address is not None:
        require_extra("ray", "--ray", "ray")
    from ludus.arena.compare import compare_data, side_files
    from ludus.arena.simulate import SimulationError

    if len(data) not in (1, 2):
        raise CLIError("give --data DIR once (the printed components against DIR) or twice (A, then B)")
    options = game_options(game, extra, **flags)
    load(game, options)
    try:
        sides = [side_files(game, folder) for folder in ((None, *data) if len(data) == 1 else data)]
    except (DataFileError, ValueError) as exc:
        raise CLIError(one_line(str(exc))) from None
    for side in sides:
        load(game, options, side)  # a wrong value of either side: one line naming file and key
    names = bot_specs(bots)
    files.check_dir(out, "--out")
    try:
        result = compare_data(
            game,
            options,
            sides[0],
            sides[1],
            names,
            games,
            jobs=jobs,
            seed=seed,
            out_dir=out,
            ray_address=ray_address,
            progress=on_terminal(progress, "stderr"),
            compare=compare,
        )
    except SimulationError as exc:
        raise click.ClickException(one_line(str(exc))) from None
    except _RUN_ERRORS as exc:
        raise CLIError(one_line(str(exc))) from None
    _print(result)
    click.echo(f"wrote {result['report']}")
