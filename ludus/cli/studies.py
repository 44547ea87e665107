"""Bots playing many games: ``simulate``, ``tournament`` and ``report`` (a game's own studies, such as a
solo challenge, are commands of its package: ``ludus.cli.plugins``)."""

from __future__ import annotations

import sys
from typing import Any

import click

from . import files
from .boards import on_terminal
from .errors import CLIError, one_line, require_extra
from .options import (
    bot_specs,
    bots_option,
    data_option,
    game_options,
    games_option,
    jobs_option,
    load,
    seed_option,
    with_game_options,
)

_RUN_ERRORS = (ValueError, RuntimeError, TimeoutError, ConnectionError)

_PROGRESS = click.option(
    "--progress/--no-progress",
    default=None,
    help="Progress on stderr (default: only when stderr is a terminal).",
)

_RAY = click.option(
    "--ray",
    "ray_address",
    metavar="ADDRESS",
    help="Run the games on the Ray cluster at this address (host:port, ray://host:port, auto), "
    "or 'local' for a Ray instance on this machine.",
)


def _table(title: str, key: str, rows: list[dict[str, Any]]) -> Any:
    from rich.table import Table

    table = Table(title=title)
    table.add_column(key)
    for name in ("games", "mean", "stdev", "min", "max", "win rate"):
        table.add_column(name, justify="right")
    for row in rows:
        table.add_row(
            str(row[key]),
            str(row["games"]),
            f"{row['mean']:.2f}",
            f"{row['stdev']:.2f}",
            str(row["min"]),
            str(row["max"]),
            f"{100 * row['win_rate']:.1f}%",
        )
    return table


@with_game_options
@click.command()
@click.argument("game")
@games_option(10, "Games to play.")
@bots_option(
    "random",
    "Comma-separated bot specs (name or name:key=value:...), rotated over the seats from game to game.",
)
@jobs_option
@seed_option(None, "Master seed (each game's seed is drawn from it).")
@click.option(
    "--json",
    "json_out",
    type=click.Path(dir_okay=False),
    help="Write one line per game as it ends: its record (game, config, seed, actions) and its "
    "results; run again with the same arguments to resume an interrupted run.",
)
@_RAY
@_PROGRESS
@data_option
def simulate(
    game: str,
    flags: dict[str, Any],
    extra: tuple[str, ...],
    games: int,
    bots: str,
    jobs: int | None,
    seed: int | None,
    json_out: str | None,
    ray_address: str | None,
    progress: bool | None,
    data: str | None,
) -> None:
    """Play bots against each other and print score statistics per seat and per bot.

    Example: ludus simulate {game} --games 200 --bots random,greedy --jobs 2 --seed 1
    """
    from rich.console import Console

    from ludus.arena.simulate import SimulationError, summarize
    from ludus.arena.simulate import simulate as run

    if ray_address is not None:
        require_extra("ray", "--ray", "ray")
    options = game_options(game, extra, **flags)
    the_game = load(game, options, data)
    names = bot_specs(bots)
    if json_out:
        files.check_file(json_out, "--json")
    try:
        results = run(
            game,
            options,
            names,
            games,
            jobs=jobs,
            seed=seed,
            progress=on_terminal(progress, "stderr"),  # a bar only where someone watches
            out=json_out,
            ray_address=ray_address,
            data=the_game.data_files,
        )  # streamed as games end; a rerun resumes
    except SimulationError as exc:
        raise click.ClickException(one_line(str(exc))) from None
    except _RUN_ERRORS as exc:
        raise CLIError(one_line(str(exc))) from None
    summary = summarize(results)
    console = Console(file=sys.stdout, width=100)
    config = " ".join(f"{k}={v}" for k, v in the_game.config.items())
    shown = f", data {the_game.data_tag}" if the_game.data_tag is not None else ""
    console.print(f"{game} {config}: {summary['games']} games, bots {', '.join(names)}{shown}")
    console.print(_table("Per seat", "seat", summary["seats"]))
    console.print(_table("Per bot", "bot", summary["bots"]))


@with_game_options
@click.command()
@click.argument("game")
@bots_option(
    None, "Comma-separated bot specs: name or name:key=value:..., e.g. random,greedy,ismcts:iterations=100"
)
@games_option(20, "Games per pairing (per table of 3-4 seats).")
@jobs_option
@seed_option(0, "Master seed: the deals every pairing shares.")
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default="tournament",
    show_default=True,
    help="Directory for results.jsonl, ratings.json, head_to_head.json and ratings.png.",
)
@_RAY
@click.option(
    "--bootstrap",
    type=click.IntRange(min=0),
    default=200,
    show_default=True,
    help="Bootstrap resamples for the rating intervals.",
)
@click.option(
    "--anchor",
    default=None,
    metavar="BOT",
    help="Rate every bot relative to this one (one of --bots, e.g. random), which rates 0.",
)
@data_option
def tournament(
    game: str,
    flags: dict[str, Any],
    extra: tuple[str, ...],
    bots: str,
    games: int,
    jobs: int | None,
    seed: int,
    out: str,
    ray_address: str | None,
    bootstrap: int,
    anchor: str | None,
    data: str | None,
) -> None:
    """Round-robin bots (seats rotated, deals shared); print ratings and plot them.

    Example: ludus tournament {game} --bots random,greedy,ismcts --games 20 --jobs 2
    """
    require_extra("arena", "ludus tournament", "matplotlib")  # ratings.png
    if ray_address is not None:
        require_extra("ray", "--ray", "ray")
    from ludus.arena.tournament import tournament_command

    options = game_options(game, extra, **flags)
    the_game = load(game, options, data)
    specs = bot_specs(bots)
    if anchor is not None and anchor not in specs:
        raise CLIError(f"--anchor {anchor!r} is not one of --bots: {', '.join(specs)}")
    files.check_dir(out, "--out")
    try:
        tournament_command(
            game, options, bots, games, jobs, seed, out, ray_address, bootstrap, anchor, the_game.data_files
        )
    except _RUN_ERRORS as exc:
        raise CLIError(one_line(str(exc))) from None


@with_game_options
@click.command()
@click.argument("game")
@games_option(100, "Games per configuration.")
@bots_option("greedy")
@jobs_option
@seed_option(0)
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default="report",
    show_default=True,
    help="Directory for report.md and its plots.",
)
@click.option(
    "--compare/--no-compare",
    default=True,
    help="Also play every board / variant / difficulty choice and compare them.",
)
@data_option
def report(
    game: str,
    flags: dict[str, Any],
    extra: tuple[str, ...],
    games: int,
    bots: str,
    jobs: int | None,
    seed: int,
    out: str,
    compare: bool,
    data: str | None,
) -> None:
    """Write a balance report (Markdown and PNG plots) from bot self-play.

    Example: ludus report {game} --games 200 --jobs 2
    """
    require_extra("arena", "ludus report", "matplotlib")
    from ludus.arena.report import write_report

    options = game_options(game, extra, **flags)
    the_game = load(game, options, data)
    names = bot_specs(bots)
    files.check_dir(out, "--out")
    try:
        path = write_report(
            game,
            options,
            games,
            out,
            bots=names,
            jobs=jobs,
            seed=seed,
            compare=compare,
            data=the_game.data_files,
        )
    except _RUN_ERRORS as exc:
        raise CLIError(one_line(str(exc))) from None
    click.echo(f"wrote {path}")
