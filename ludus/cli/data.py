"""``ludus data``: a game's data files copied into a folder of one's own, and what such a folder changes.

The folder is then given to any command that plays (``--data DIR``): each of its files replaces the
package's file of the same name, checked when loaded.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click

import ludus
from ludus.engine.data import DATA_ENV, DataFiles, differences, export, strangers
from ludus.engine.errors import DataFileError
from ludus.engine.registry import game_class

from .errors import CLIError, one_line
from .options import check_game, load


def _package(game: str) -> str:
    package = game_class(check_game(game)).data_package
    if package is None:
        raise CLIError(f"{game} has no data files")
    return package


def _shown(value: Any) -> str:
    return "(none)" if value is None else json.dumps(value, ensure_ascii=False)


@click.group("data")
def data() -> None:
    """A game's data files (boards, tiles, cards ...): export them to start a folder of your own, list
    what yours change; give the folder to any command that plays with --data DIR.

    Example: ludus data export {game} mydata && ludus data diff {game} mydata
    """


@data.command("export")
@click.argument("game")
@click.argument("folder", type=click.Path(file_okay=False))
@click.option("--force", is_flag=True, help="Overwrite the game's files already in FOLDER.")
def export_files(game: str, folder: str, force: bool) -> None:
    """Write GAME's data files into FOLDER, flat, under their own names: the values to start from.

    Example: ludus data export GAME mydata
    """
    try:
        written = export(DataFiles.of_package(_package(game)), folder, force)
    except DataFileError as exc:
        raise CLIError(one_line(str(exc))) from None
    click.echo(
        f"wrote {len(written)} data files of {game} into {folder}: {', '.join(p.name for p in written)}"
    )


@data.command("diff")
@click.argument("game")
@click.argument("folder", type=click.Path(file_okay=False))
def diff(game: str, folder: str) -> None:
    """List each value of FOLDER's files that differs from GAME's own, by file and key.

    The folder is then checked as a game loads it: a wrong value ends with one error line.

    Example: ludus data diff GAME mydata
    """
    package = _package(game)
    try:
        files = DataFiles.from_folder(package, folder, game)
    except DataFileError as exc:
        raise CLIError(one_line(str(exc))) from None
    changes = differences(DataFiles.of_package(package), files)
    for name, key, was, now in changes:
        click.echo(f"{name} {key}: {_shown(was)} -> {_shown(now)}")
    for name in strangers(files):
        click.echo(f"{name}: ignored, not a data file of {game}")
    load(game, {}, files)  # the game's own checks: a wrong value is refused naming file and key
    if changes:
        click.echo(
            f"{len(changes)} value{'s differ' if len(changes) != 1 else ' differs'}: data {files.digest}"
        )
    else:
        click.echo(f"no value differs: {folder} holds the printed components")


def serve_data(folder: str | None) -> None:
    """``ludus serve --data DIR``: every table plays with DIR's files, those of each installed game that
    DIR holds (checked now, a wrong value refused naming file and key); the server's worker processes
    too, through ``LUDUS_DATA``. A JSON file of DIR that is no game's data file is refused."""
    if folder is None:
        return
    where = Path(folder).resolve()
    if not where.is_dir():
        raise CLIError(f"--data {folder}: no such folder")
    used: set[str] = set()
    for game in ludus.game_names():
        package = game_class(game).data_package
        if package is None:
            continue
        try:
            files = DataFiles.from_folder(package, where, game, strict=False)
        except DataFileError as exc:
            raise CLIError(one_line(str(exc))) from None
        load(game, {}, files)  # the game's own checks
        used |= set(files.replaced)
    unknown = sorted(p.name for p in where.glob("*.json") if p.name not in used)
    if unknown:
        raise CLIError(
            f"--data {folder}: {', '.join(unknown)}: no installed game has a data file of that name"
        )
    if not used:
        raise CLIError(f"--data {folder} holds no data file of an installed game")
    os.environ[DATA_ENV] = str(where)
