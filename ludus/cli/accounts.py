"""``ludus accounts``: the operator's hand on the server's accounts, straight in its database.

``list`` shows them, ``reset NAME`` prints a one-time link that sets a new password (for a server
without mail, or a player without an address), ``ban`` / ``unban`` and ``delete`` (the games stay, the
seats shown as "deleted player"). A running server notices a ban or a deletion within seconds (its
memory of sessions lasts ``ludus.server.sessions.CACHE_SECONDS``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from .errors import CLIError, one_line, require_extra

DATABASE_HELP = "sqlite:///path.db or postgresql+psycopg://user:pw@host/db [default: LUDUS_DATABASE_URL, else ./ludus.db]."


@contextmanager
def _accounts(database_url: str | None, public_url: str | None = None) -> Iterator[Any]:
    """The server's ``Accounts`` over the database (migrated first), closed at the end."""
    require_extra("server", "ludus accounts", "sqlalchemy", "argon2")
    from ludus.server.accounts import Accounts
    from ludus.server.mail import Mailer
    from ludus.server.sessions import Sessions
    from ludus.server.settings import SettingsError, load_settings
    from ludus.server.storage import Store

    flags: dict[str, Any] = {}
    if database_url is not None:
        flags["database_url"] = database_url
    if public_url is not None:
        flags["public_url"] = public_url
    try:
        settings = load_settings(**flags)
        store = Store(settings.database_url)
    except (SettingsError, ValueError) as exc:
        raise CLIError(one_line(str(exc))) from None
    try:
        store.migrate()
        yield Accounts(store, settings, Sessions(store, settings.session_days), Mailer(None, None))
    finally:
        store.dispose()


def _found(accounts: Any, name: str) -> Any:
    from ludus.server.errors import NotFound

    try:
        return accounts.find(name)
    except NotFound as exc:
        raise CLIError(exc.detail) from None


database_option = click.option("--database", "database_url", default=None, help=DATABASE_HELP)


@click.group()
def accounts() -> None:
    """Manage the online server's accounts: list, reset a password, ban, delete."""


@accounts.command("list")
@database_option
def list_accounts(database_url: str | None) -> None:
    """List the accounts: name, e-mail, when made, banned."""
    with _accounts(database_url) as found:
        rows = found.all()
    if not rows:
        click.echo("no accounts")
        return
    for row in rows:
        made = time.strftime("%Y-%m-%d", time.gmtime(row.created_at))
        banned = "  banned" if row.banned_at is not None else ""
        click.echo(f"{row.name:<24}  {row.email or '-':<32}  {made}{banned}")


@accounts.command()
@click.argument("name")
@database_option
@click.option(
    "--public-url", default=None, help="The server's address, the link's start [default: LUDUS_PUBLIC_URL]."
)
def reset(name: str, database_url: str | None, public_url: str | None) -> None:
    """Print a one-time link that sets NAME's password (valid 24 hours)."""
    with _accounts(database_url, public_url) as found:
        link = found.reset_link(_found(found, name))
    click.echo(f"Send this link to {name} (it works once, for 24 hours):")
    click.echo(link)


@accounts.command()
@click.argument("name")
@database_option
def ban(name: str, database_url: str | None) -> None:
    """Ban NAME: it cannot sign in, and its sessions end."""
    with _accounts(database_url) as found:
        _found(found, name)
        row = found.ban(name)
    click.echo(f"{row.name} is banned")


@accounts.command()
@click.argument("name")
@database_option
def unban(name: str, database_url: str | None) -> None:
    """Lift NAME's ban."""
    with _accounts(database_url) as found:
        _found(found, name)
        row = found.ban(name, banned=False)
    click.echo(f"{row.name} may sign in again")


@accounts.command()
@click.argument("name")
@database_option
@click.confirmation_option(prompt="Delete this account? Its games stay, its seats shown as 'deleted player'")
def delete(name: str, database_url: str | None) -> None:
    """Delete NAME: its games stay, its seats shown as "deleted player"; the name is free again."""
    with _accounts(database_url) as found:
        _found(found, name)
        row = found.delete(name)
    click.echo(f"{row.name} is deleted")
