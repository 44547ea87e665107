"""Game options and bot specs as the command line spells them, checked before any work starts.

The game flags are generic: one flag per option that an installed game declares (``Option``
on its Game class), so a new game's options show up on every command without a change here;
``--option KEY=VALUE`` reaches every option, including those no flag can spell.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

import click

import ludus
from ludus import bots as bot_registry
from ludus.engine import registry
from ludus.engine.data import DataSource
from ludus.engine.errors import DataFileError, OptionError
from ludus.engine.game import Game
from ludus.engine.registry import game_class

from .errors import CLIError, one_line

F = TypeVar("F", bound=Callable[..., Any])
_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")
MAX_LISTED = 8  # choices shown in a flag's help; longer lists (colour orders) stay in the doc


def check_game(name: str) -> str:
    """The name of a game that loads; else why not (unknown, or installed but failing to load)."""
    if name not in ludus.game_names():
        raise CLIError(registry.unknown(name))
    return name


def _convert(game: str, key: str, text: str, choices: tuple[Any, ...]) -> Any:
    """The declared choice that ``text`` spells (case-insensitive; yes/no for booleans)."""
    low = text.strip().lower()
    for choice in choices:
        if isinstance(choice, bool):
            if (choice and low in _TRUE) or (not choice and low in _FALSE):
                return choice
        elif str(choice).lower() == low:
            return choice
    shown = ", ".join(str(c).lower() if isinstance(c, bool) else str(c) for c in choices)
    raise CLIError(f"{game}: {key}={text} is not valid; choose one of {shown}")


def _flag_value(value: Any, choices: tuple[Any, ...]) -> Any:
    """A flag's text as the declared choice it names exactly; else as given, for the game to refuse."""
    if not isinstance(value, str) or value in choices:
        return value
    return next((c for c in choices if not isinstance(c, str) and str(c) == value), value)


def game_options(name: str, extra: tuple[str, ...] = (), **flags: Any) -> dict[str, Any]:
    """Options for ``load_game`` from the game flags and ``--option key=value`` texts."""
    check_game(name)
    declared = {opt.name: opt for opt in game_class(name).options}
    options: dict[str, Any] = {}
    for key, value in flags.items():
        if value is None:
            continue
        if key not in declared:
            raise CLIError(f"{name} has no option {key!r}; valid options: {', '.join(declared)}")
        options[key] = _flag_value(value, declared[key].choices)
    for item in extra:
        key, sep, text = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise CLIError(f"--option wants KEY=VALUE, got {item!r}")
        if key not in declared:
            raise CLIError(f"{name} has no option {key!r}; valid options: {', '.join(declared)}")
        options[key] = _convert(name, key, text, declared[key].choices)
    return options


def load(name: str, options: dict[str, Any], data: DataSource = None) -> Game:
    """The game, or one line saying why not (a wrong value of ``--data``'s files names file and key)."""
    try:
        return ludus.load_game(name, data=data, **options)
    except (OptionError, DataFileError) as exc:
        raise CLIError(one_line(str(exc))) from None


@dataclass(frozen=True)
class _Flag:
    """One game flag: an option name that one or more installed games declare."""

    name: str
    kind: str  # "bool" (--x/--no-x), "int" or "text"
    help: str

    def option(self) -> click.Option:
        flag = "--" + self.name.replace("_", "-")
        if self.kind == "bool":
            return click.Option([f"{flag}/--no-{flag[2:]}", self.name], default=None, help=self.help)
        return click.Option([flag, self.name], type=int if self.kind == "int" else str, help=self.help)


def shown_value(value: Any) -> str:
    """An option's value as the command line spells it (true/false, none)."""
    return str(value).lower() if isinstance(value, bool) or value is None else str(value)


def _help(games: list[tuple[str, Any]]) -> str:
    """The games that declare an option, with their choices and defaults (and the doc, if one game)."""
    parts = []
    for game, opt in games:
        listed = [shown_value(c) for c in opt.choices if c is not None]
        shown = "|".join(listed) if len(listed) <= MAX_LISTED else f"{len(listed)} choices"
        parts.append(f"{game}: {shown}, default {shown_value(opt.default)}")
    if len(games) == 1 and games[0][1].doc:
        return f"{games[0][1].doc[0].upper()}{games[0][1].doc[1:]} ({parts[0]})."
    return "; ".join(parts) + "."


@cache
def game_flags() -> tuple[_Flag, ...]:
    """A flag per option name over every installed game, its kind taken from the declared choices."""
    declared: dict[str, list[tuple[str, Any]]] = {}
    for game in ludus.game_names():
        for opt in game_class(game).options:
            declared.setdefault(opt.name, []).append((game, opt))
    flags = []
    for name, games in declared.items():
        values = [c for _, opt in games for c in opt.choices if c is not None]
        if not values or not all(isinstance(c, (bool, int, str)) for c in values):
            continue  # --option only
        if all(isinstance(c, bool) for c in values):
            kind = "bool"
        elif all(isinstance(c, int) and not isinstance(c, bool) for c in values):
            kind = "int"
        else:
            kind = "text"
        flags.append(_Flag(name, kind, _help(games)))
    return tuple(flags)


def with_game_options(command: click.Command) -> click.Command:
    """Give a command the game flags and ``--option``; its callback gets them as ``flags`` and ``extra``.

    Applied on top of ``@click.command``. A game option whose name a command already uses
    (``--seed``, say) gets no flag there; ``--option`` still reaches it.
    """
    taken = {p.name for p in command.params} | {o for p in command.params for o in p.opts}
    added = [f.option() for f in game_flags()]
    added = [o for o in added if o.name not in taken and not set(o.opts) & taken]
    added.append(
        click.Option(
            ["--option", "-o", "extra"],
            multiple=True,
            metavar="KEY=VALUE",
            help="Any option the game declares, e.g. -o difficulty=hard (repeatable).",
        )
    )
    at = sum(isinstance(p, click.Argument) for p in command.params)
    command.params[at:at] = added
    names = [o.name for o in added[:-1]]
    callback = command.callback
    assert callback is not None

    @functools.wraps(callback)
    def run(**params: Any) -> Any:
        flags = {name: params.pop(name) for name in names}
        return callback(flags=flags, **params)

    command.callback = run
    return command


# -- bot specs ---------------------------------------------------------------------------------


def no_seed(spec: str) -> None:
    """Bots' seeds come from each game's seed (so a run replays): a spec may not set one."""
    try:
        name, params = bot_registry.parse_spec(spec)
    except ValueError:
        return  # reported by the caller with the parser's own message
    if "seed" in params:
        raise CLIError(
            f"bot {name!r}: seed cannot be set in a bot spec; each bot's seed is drawn from "
            "the game's seed (give --seed)"
        )


def seat_specs(text: str) -> list[str]:
    """The seats of ``--seats``: ``human`` or a bot spec each, checked by the one bot-spec parser."""
    seats = [s.strip() for s in text.split(",")]
    for spec in seats:
        if spec == "human":
            continue
        if not spec:
            raise CLIError(f"--seats has an empty seat in {text!r}; use human or a bot per seat")
        no_seed(spec)
        try:
            bot_registry.parse_spec(spec)
        except ValueError as exc:
            message = one_line(str(exc))
            if message.startswith("unknown bot"):
                message = (
                    f"unknown seat {spec!r}; use human, a level ({', '.join(bot_registry.levels())}) "
                    f"or a bot: {', '.join(bot_registry.names())}"
                )
            raise CLIError(message) from None
    return seats


def bot_specs(text: str, flag: str = "--bots") -> list[str]:
    """Comma-separated bot specs, each checked by the one parser (``ludus.bots.parse_spec``)."""
    specs = [b.strip() for b in text.split(",") if b.strip()]
    if not specs:
        raise CLIError(f"{flag} names no bot; known bots: {', '.join(bot_registry.names())}")
    from ludus.arena.simulate import make_bot

    for spec in specs:
        no_seed(spec)
        try:
            make_bot(spec, 0)
        except ValueError as exc:
            raise CLIError(one_line(str(exc))) from None
    return specs


jobs_option = click.option(
    "--jobs", "-j", type=click.IntRange(min=1), default=None, help="Worker processes (default: every core)."
)
"""The ``--jobs`` option of every command that plays games on several cores (plugins' commands too)."""

data_option = click.option(
    "--data",
    metavar="DIR",
    default=None,
    help="A folder of data files: each replaces the game's file of the same name (start one with "
    "'ludus data export GAME DIR'; default: the printed components, or the folder LUDUS_DATA names).",
)
"""The ``--data`` option of every command that plays (plugins' commands too)."""


def _defaulted(default: Any) -> dict[str, Any]:
    """A default for ``click.option``, or none at all: click >= 8.2 tells an explicit ``default=None``
    from no default, and a required option given ``default=None`` is no longer required."""
    return {} if default is None else {"default": default, "show_default": True}


def games_option(default: int | None, help: str) -> Callable[[F], F]:
    """The ``--games``/``-n`` option of a command that plays games, with its own default and meaning."""
    return click.option("--games", "-n", type=click.IntRange(min=1), help=help, **_defaulted(default))


def seed_option(default: int | None = 0, help: str = "Master seed.") -> Callable[[F], F]:
    """The ``--seed`` option (``None``: no default, each run draws its own)."""
    return click.option("--seed", type=int, help=help, **_defaulted(default))


def bots_option(
    default: str | None = None,
    help: str = "Comma-separated bot specs (name or name:key=value:...), rotated over the seats.",
    flag: str = "--bots",
) -> Callable[[F], F]:
    """The ``--bots`` option (or ``--bot``, one spec); without a default it is required."""
    return click.option(flag, required=default is None, help=help, **_defaulted(default))
