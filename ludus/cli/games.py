"""``ludus games``: the installed games with their titles and options, and those that fail to load."""

from __future__ import annotations

import textwrap

import click

import ludus
from ludus.engine import registry
from ludus.engine.game import Option

from .options import MAX_LISTED, game_flags, shown_value


def _spelling(option: Option, flags: set[str]) -> str:
    """How the command line sets the option: its flag, or ``-o name=VALUE``."""
    if option.name not in flags:
        return f"-o {option.name}=VALUE"
    flag = "--" + option.name.replace("_", "-")
    return f"{flag}/--no-{flag[2:]}" if all(isinstance(c, bool) for c in option.choices) else flag


def _choices(option: Option) -> str:
    shown = [shown_value(c) for c in option.choices]
    return "|".join(shown) if len(shown) <= MAX_LISTED else f"{len(shown)} choices: {'|'.join(shown[:2])}|..."


def describe(name: str) -> list[str]:
    """The lines that present one installed game: name, title and tagline, then each option."""
    cls = registry.game_class(name)
    flags = {f.name for f in game_flags()}
    lines = [f"{click.style(name, bold=True)}  {cls.display_title()}: {cls.display_tagline()}"]
    for option in cls.options:
        lines.append(
            f"  {_spelling(option, flags)}  {_choices(option)} (default {shown_value(option.default)})"
        )
        if option.doc:
            lines += textwrap.wrap(option.doc, 100, initial_indent=" " * 6, subsequent_indent=" " * 6)
    return lines


@click.command()
def games() -> None:
    """List the installed games: title, tagline and options (choices, default, what each changes).

    A game that is installed but fails to load is reported after them, one line 'error: ...' each
    with its entry point and the error; the command succeeds when at least one game loads (exit 0),
    and fails (exit 2) when none does.
    """
    names = ludus.game_names()
    for i, name in enumerate(names):
        if i:
            click.echo("")
        click.echo("\n".join(describe(name)))
    failures = registry.failures()
    for failure in failures:
        click.echo(click.style(f"error: {failure}", fg="red"), err=True)
    if not names:
        if not failures:
            click.echo(f"error: {registry.NOTHING_INSTALLED}", err=True)
        raise click.exceptions.Exit(2)
