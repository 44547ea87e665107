"""``ludus balance``: every configuration of every game played between equal bots and written as one
balance page (``ludus.arena.balance``, ``ludus.arena.balance_page``)."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

import ludus

from . import files
from .boards import on_terminal
from .errors import CLIError, one_line, require_extra
from .options import bot_specs, bots_option, check_game, games_option, jobs_option, load, seed_option
from .studies import _PROGRESS, _RUN_ERRORS


@click.command()
@click.argument("names", metavar="[GAME]...", nargs=-1)
@games_option(
    2000, "Games per configuration between equal bots (the target; a rerun plays only what is missing)."
)
@bots_option("greedy", "The bot spec in every seat.", flag="--bot")
@bots_option(
    "ismcts", "The search bot checking the seat and group tables (default setups only).", "--search-bot"
)
@click.option(
    "--search-games",
    type=click.IntRange(min=0),
    default=100,
    show_default=True,
    help="Games per configuration for the search bot (0: none).",
)
@seed_option(0, "Master seed: the deals of every configuration.")
@jobs_option
@click.option(
    "--out",
    type=click.Path(file_okay=False),
    default="docs",
    show_default=True,
    help="Folder for balance.md and its plots (under images/balance/).",
)
@click.option(
    "--results",
    type=click.Path(file_okay=False),
    default="balance-results",
    show_default=True,
    help="Folder the games are streamed to, one JSON-lines file per configuration (resumed from there).",
)
@click.option(
    "--play/--no-play",
    default=True,
    help="Play what the results lack first; --no-play writes the page from the games finished.",
)
@click.option(
    "--data", metavar="DIR", default=None, help="A folder of data files (one game only), as for simulate."
)
@_PROGRESS
def balance(
    names: tuple[str, ...],
    games: int,
    bot: str,
    search_bot: str,
    search_games: int,
    seed: int,
    jobs: int | None,
    out: str,
    results: str,
    play: bool,
    data: str | None,
    progress: bool | None,
) -> None:
    """Play every configuration of the games (every player count, board, variant and difficulty) between
    equal bots and write balance.md: seat advantage, the game's components, options compared on the same
    deals, all with 95 % intervals, checked by a search bot.

    Example: ludus balance --games 2000 --search-games 100 --out docs
    """
    require_extra("arena", "ludus balance", "matplotlib")
    from ludus.arena.balance import Study
    from ludus.arena.balance import play as play_study
    from ludus.arena.balance_page import write_page

    chosen = [check_game(n) for n in names] or ludus.game_names()
    if data is not None and len(chosen) != 1:
        raise CLIError("--data belongs to one game: name it (ludus balance GAME --data DIR)")
    bot_specs(bot, "--bot")
    bot_specs(search_bot, "--search-bot")
    files.check_dir(out, "--out")
    files.check_dir(results, "--results")
    studies = [
        Study(
            game,
            bot=bot,
            games=games,
            search_bot=search_bot,
            search_games=search_games,
            seed=seed,
            results=Path(results),
            data=load(game, {}, data).data_files if data is not None else None,
        )
        for game in chosen
    ]
    command = ["ludus", "balance", *names, "--games", str(games), "--bot", bot, "--search-bot", search_bot]
    command += ["--search-games", str(search_games), "--seed", str(seed), "--out", out, "--results", results]
    command += ["--data", data] if data is not None else []
    try:
        if play:
            played = play_study(studies, jobs=jobs, progress=on_terminal(progress, "stderr"))
            for game, count in played.items():
                click.echo(f"{game}: {count} games played")
        path = write_page(studies, Path(out), shlex.join(command))
    except _RUN_ERRORS as exc:
        raise CLIError(one_line(str(exc))) from None
    click.echo(f"wrote {path}")
