"""``ludus serve``: the online play server, started only once its database and port are usable."""

from __future__ import annotations

from pathlib import Path

import click

from .data import serve_data
from .errors import CLIError, one_line, require_extra


def _database_checked(url: str, source: str) -> None:
    """Refuse in one line a database (from ``source``: the flag or the variable) that the server cannot
    open and migrate."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    from ludus.server.storage import Store

    parsed = make_url(url)  # a URL the settings checked
    shown = parsed.render_as_string(hide_password=True)
    sqlite = parsed.drivername.startswith("sqlite")
    if sqlite:
        folder = Path(parsed.database or "").resolve().parent
        if not folder.is_dir():
            raise CLIError(f"{source} {shown}: the folder {folder} does not exist")
    elif "connect_timeout" not in parsed.query:
        parsed = parsed.update_query_dict({"connect_timeout": "10"})  # the check only: no long hang
    try:
        store = Store(parsed.render_as_string(hide_password=False))
    except (ArgumentError, ValueError, ImportError) as exc:
        raise CLIError(f"{source} {shown}: {one_line(str(exc))}") from None
    try:
        store.migrate()
    except SQLAlchemyError as exc:
        reason = one_line(str(getattr(exc, "orig", None) or exc)).split(" (Background on")[0]
        where = parsed.database if sqlite else f"{parsed.host or 'localhost'}:{parsed.port or 5432}"
        raise CLIError(f"cannot use the database at {where} ({shown}): {reason}") from None
    finally:
        store.engine.dispose()


def _check_port(host: str, port: int) -> None:
    """Refuse a port another program holds, before the address is printed."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise CLIError(f"--host {host}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
        try:
            sock.bind(address)
        except OSError as exc:
            raise CLIError(f"cannot listen on {host}:{port}: {exc.strerror}") from None


@click.command()
@click.option(
    "--host", default="127.0.0.1", show_default=True, help="Address to listen on (loopback by default)."
)
@click.option(
    "--port", default=8000, show_default=True, type=click.IntRange(1, 65535), help="Port to listen on."
)
@click.option(
    "--database",
    "database_url",
    default=None,
    help="sqlite:///path.db or postgresql+psycopg://user:pw@host/db "
    "[default: LUDUS_DATABASE_URL, else ./ludus.db].",
)
@click.option(
    "--smtp",
    default=None,
    help="Mail server, smtp://[user:pw@]host:port (STARTTLS when offered) [default: LUDUS_SMTP].",
)
@click.option("--mail-from", default=None, help="The From address of its e-mails [default: LUDUS_MAIL_FROM].")
@click.option(
    "--public-url",
    default=None,
    help="The address people open, e.g. https://games.example.org: links in e-mails start with it "
    "[default: LUDUS_PUBLIC_URL].",
)
@click.option(
    "--data",
    metavar="DIR",
    default=None,
    help="Play every table with the data files of this folder (each replaces the game's file of the same "
    "name; 'ludus data export GAME DIR' starts one).",
)
def serve(
    host: str,
    port: int,
    database_url: str | None,
    smtp: str | None,
    mail_from: str | None,
    public_url: str | None,
    data: str | None,
) -> None:
    """Run the online play server: HTTP API, WebSocket and the browser client.

    Its settings are read from the LUDUS_* environment variables (docs/settings.md); --database,
    --smtp, --mail-from and --public-url override LUDUS_DATABASE_URL, LUDUS_SMTP, LUDUS_MAIL_FROM and
    LUDUS_PUBLIC_URL. The settings are checked, the port too, and the database opened and migrated,
    before the address is printed.
    """
    require_extra("server", "ludus serve", "fastapi", "uvicorn")  # the server's own imports are lazy
    serve_data(data)  # checked now; then every table plays with it, the worker processes too
    try:
        from ludus.server import serve as run_server
        from ludus.server.settings import SettingsError, load_settings
        from ludus.server.storage import usable_url
    except ImportError as exc:
        needs = f"ludus serve needs {getattr(exc, 'name', None) or one_line(exc)}"
        raise CLIError(f"{needs}, from the 'server' extra (pip install 'ludus[server]')") from None
    flags = {
        name: value
        for name, value in (("smtp", smtp), ("mail_from", mail_from), ("public_url", public_url))
        if value is not None
    }
    if database_url is not None:
        try:
            flags["database_url"] = usable_url(database_url)
        except ValueError as exc:
            raise CLIError(f"--database: {one_line(str(exc))}") from None
    try:
        settings = load_settings(**flags)
    except SettingsError as exc:
        raise CLIError(one_line(str(exc))) from None
    _check_port(host, port)
    _database_checked(
        settings.database_url, "--database" if database_url is not None else "LUDUS_DATABASE_URL"
    )
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    click.echo(f"ludus: open http://{shown}:{port}/ in a browser (Ctrl-C stops the server)")
    run_server(host, port, settings)
