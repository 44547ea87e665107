"""Celtae's own command, ``ludus solo-challenge``: an entry point of the group ``ludus.commands``
(see ``ludus.cli.plugins``), so the CLI lists and runs it without naming the game."""

from __future__ import annotations

import json

import click

from ludus import bots as bot_registry
from ludus.cli import files
from ludus.cli.errors import CLIError, one_line
from ludus.cli.options import (
    bot_specs,
    bots_option,
    data_option,
    games_option,
    jobs_option,
    load,
    seed_option,
)

from .solo_arena import DIFFICULTIES

_RUN_ERRORS = (ValueError, RuntimeError, TimeoutError, ConnectionError)


@click.command("solo-challenge")
@bots_option(
    "ismcts",
    "Bot spec playing the human seat (name or name:key=value:...), e.g. ismcts:iterations=300.",
    flag="--bot",
)
@click.option(
    "--difficulty",
    "difficulties",
    multiple=True,
    type=click.Choice(DIFFICULTIES),
    help="Difficulties to play (repeatable; default all three).",
)
@games_option(20, "Games to play in all (split between the difficulties).")
@jobs_option
@seed_option(0, "Master seed (the same deals at every difficulty).")
@click.option(
    "--one-run/--per-difficulty",
    default=False,
    help="Play the games once and score them against every target (exact for bots that ignore it).",
)
@click.option("--json", "json_out", type=click.Path(dir_okay=False), help="Write the whole result as JSON.")
@data_option
def solo_challenge(
    bot: str,
    difficulties: tuple[str, ...],
    games: int,
    jobs: int | None,
    seed: int,
    one_run: bool,
    json_out: str | None,
    data: str | None,
) -> None:
    """A bot plays Celtae solo against Solitairix: win rate and scores against each target.

    Example: ludus solo-challenge --bot ismcts --games 20 --jobs 2
    """
    from .solo_arena import solo_challenge as challenge

    bot_specs(bot, "--bot")
    solo = load("celtae", {"players": 1}, data)  # a wrong value: one line naming file and key
    if json_out:
        files.check_file(json_out, "--json")
    try:
        name, params = bot_registry.parse_spec(bot)
        out = challenge(
            name,
            difficulties or DIFFICULTIES,
            games=games,
            jobs=jobs,
            seed=seed,
            one_run=one_run,
            data=solo.data_files,
            **params,
        )
    except _RUN_ERRORS as exc:
        raise CLIError(one_line(str(exc))) from None
    if json_out:
        try:
            with open(json_out, "w", encoding="utf-8") as f:
                json.dump(out, f, indent=1)
        except OSError as exc:
            raise CLIError(f"cannot write {json_out}: {exc.strerror}") from None
