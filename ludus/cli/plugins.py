"""Commands that installed packages add to ``ludus``: entry points of the group ``ludus.commands``
(``name = "module:command"``, a click command). A game's own command (the solo challenge of a game
with a solo mode, say) is one, declared beside the game's entry point, so the CLI finds it without
naming the game. Loaded only when listed or run; one that fails to load is listed with its error and
refused in one line when run.
"""

from __future__ import annotations

from functools import cache
from importlib import metadata

import click

from .errors import CLIError, LudusGroup, one_line

GROUP = "ludus.commands"


@cache
def _entry_points() -> dict[str, metadata.EntryPoint]:
    found: dict[str, metadata.EntryPoint] = {}
    for ep in metadata.entry_points(group=GROUP):
        found.setdefault(ep.name, ep)
    return found


def _broken(name: str, message: str) -> click.Command:
    """A stand-in for a command that failed to load: listed with why, refused when run."""

    def refuse(args: tuple[str, ...]) -> None:
        raise CLIError(message)

    return click.Command(
        name,
        help=message,
        short_help="(failed to load: see its --help)",
        callback=refuse,
        params=[click.Argument(["args"], nargs=-1, type=click.UNPROCESSED)],
        context_settings={"ignore_unknown_options": True},
    )


def _load(ep: metadata.EntryPoint) -> click.Command:
    try:
        command = ep.load()
    except Exception as exc:  # a package's import may fail in any way: reported, never fatal
        return _broken(
            ep.name,
            f"the command {ep.name!r} ({ep.value}) failed to load: {type(exc).__name__}: {one_line(exc)}",
        )
    if not isinstance(command, click.Command):
        return _broken(ep.name, f"the command {ep.name!r} ({ep.value}) is not a click command")
    return command


class PluginGroup(LudusGroup):
    """The ``ludus`` group: its own commands and those of the ``ludus.commands`` entry points (its
    own win a clash of names)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *_entry_points()})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = super().get_command(ctx, cmd_name)
        if found is None and cmd_name in _entry_points():
            found = _load(_entry_points()[cmd_name])
            self.add_command(found, cmd_name)
        return found
