"""Fixtures for the server tests: a private PostgreSQL, apps on both databases, server processes.

The PostgreSQL server is started here from the binaries of the ``postgresql`` package (installed
by scripts/setup from scripts/system-packages.txt), in a temporary directory, on a loopback
port, as the ``postgres`` user when the tests run as root. The tests skip only when the
binaries are missing.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from ludus.server import create_app
from ludus.server.settings import Settings

BOT_SECONDS = 0.05


def _pg_bindir() -> Path | None:
    found = glob.glob("/usr/lib/postgresql/*/bin/postgres")
    if not found:
        return None
    return Path(max(found, key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A PostgreSQL server for the session: its libpq base ``host=... port=... user=postgres``."""
    bindir = _pg_bindir()
    if bindir is None:
        pytest.skip(
            "PostgreSQL binaries not found under /usr/lib/postgresql/*/bin: install the 'postgresql' "
            "Debian package (scripts/system-packages.txt) to run the PostgreSQL tests"
        )
    tmp = Path(tempfile.mkdtemp(prefix="ludus-pg-"))
    as_user: dict[str, Any] = {"cwd": tmp}
    if os.geteuid() == 0:  # postgres refuses to run as root: run it as the 'postgres' user
        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            pytest.fail("running as root and there is no 'postgres' user to run the PostgreSQL server")
        os.chown(tmp, user.pw_uid, user.pw_gid)
        as_user.update(user=user.pw_uid, group=user.pw_gid, extra_groups=[])
    data = tmp / "data"
    subprocess.run(
        [
            str(bindir / "initdb"),
            "-D",
            str(data),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
        ],
        check=True,
        capture_output=True,
        **as_user,
    )
    port = free_port()
    proc = subprocess.Popen(
        [
            str(bindir / "postgres"),
            "-D",
            str(data),
            "-p",
            str(port),
            "-k",
            str(tmp),
            "-c",
            "listen_addresses=127.0.0.1",
            "-c",
            "fsync=off",
            "-c",
            "full_page_writes=off",
            "-c",
            "max_connections=300",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        **as_user,
    )
    import psycopg

    base = f"host=127.0.0.1 port={port} user=postgres"
    deadline = time.monotonic() + 30
    while True:
        try:
            with psycopg.connect(f"{base} dbname=postgres", autocommit=True) as conn:
                conn.execute("SELECT 1")
            break
        except psycopg.OperationalError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail("the test PostgreSQL server did not start")
            time.sleep(0.1)
    try:
        yield base
    finally:
        proc.send_signal(signal.SIGINT)  # fast shutdown
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(tmp, ignore_errors=True)


_databases = itertools.count()


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A fresh database for each test: games (and their bots, resumed at start-up) never carry over."""
    import psycopg

    name = f"ludus_test_{next(_databases)}"
    with psycopg.connect(f"{postgres_server} dbname=postgres", autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    port = postgres_server.split("port=")[1].split()[0]
    yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/{name}"
    with psycopg.connect(f"{postgres_server} dbname=postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/ludus.db"
    return request.getfixturevalue("postgres_url")


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Any]:
    """The service over a SQLite file of its own, without the HTTP app (rules of the API only)."""
    from ludus.server.service import GameService
    from ludus.server.storage import Store

    store = Store(f"sqlite:///{tmp_path / 'ludus.db'}")
    store.migrate()
    yield GameService(store, Settings(bot_seconds=BOT_SECONDS))
    store.dispose()


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(database_url, settings=Settings(bot_seconds=BOT_SECONDS))) as c:
        yield c


class Table:
    """A game created through the API, with the tokens of its human seats."""

    def __init__(
        self, client: Any, game: str = "garum", seats: list[str] | None = None, **options: Any
    ) -> None:
        self.client = client
        seats = seats or ["human", "human", "human"]
        r = client.post("/api/games", json={"game": game, "options": options, "seats": seats})
        assert r.status_code == 201, r.text
        self.created = r.json()
        self.id = self.created["id"]
        self.tokens = {s["seat"]: s["token"] for s in self.created["seats"] if "token" in s}

    def auth(self, seat: int) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    def view(self, seat: int | None = None) -> dict[str, Any]:
        r = self.client.get(f"/api/games/{self.id}", headers=self.auth(seat) if seat is not None else {})
        assert r.status_code == 200, r.text
        return r.json()

    def mover_view(self) -> dict[str, Any]:
        return self.view(self.view()["current_player"])

    def act(self, seat: int, action: str, version: int) -> httpx.Response:
        return self.client.post(
            f"/api/games/{self.id}/actions",
            json={"action": action, "version": version},
            headers=self.auth(seat),
        )

    def play_random(self, rng: random.Random, moves: int | None = None) -> list[dict[str, Any]]:
        """Play random legal moves for the human seats (all of them); return every response view."""
        seen = []
        done = 0
        while moves is None or done < moves:
            spectator = self.view()
            seen.append(spectator)
            if spectator["terminal"]:
                break
            seat = spectator["current_player"]
            view = self.view(seat)
            seen.append(view)
            r = self.act(seat, rng.choice(view["legal_actions"]), view["version"])
            assert r.status_code == 200, r.text
            seen.append(r.json())
            done += 1
        return seen


@pytest.fixture
def table(client: TestClient):
    """``table(seats=[...], **options)`` creates a game through the API."""
    return lambda **kw: Table(client, **kw)


class ServerProcess:
    """``ludus.server.serve`` in a process of its own, on a loopback port."""

    def __init__(self, database_url: str, port: int | None = None) -> None:
        self.database_url = database_url
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None

    def launch(self) -> ServerProcess:
        code = f"from ludus.server import serve; serve('127.0.0.1', {self.port})"
        env = {**os.environ, "LUDUS_BOT_SECONDS": str(BOT_SECONDS), "LUDUS_DATABASE_URL": self.database_url}
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        return self

    def start(self) -> ServerProcess:
        if self.proc is None:
            self.launch()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.proc.stderr.read().decode()[-2000:]}")
            try:
                if httpx.get(f"{self.base}/api/games", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        self.kill()
        raise RuntimeError("server did not start within 30 s")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)


@pytest.fixture
def server_process() -> Iterator[Any]:
    started: list[ServerProcess] = []

    def start(database_url: str, port: int | None = None, count: int = 1) -> Any:
        """Start ``count`` processes together; one process, or a list of them."""
        servers = [ServerProcess(database_url, port).launch() for _ in range(count)]
        started.extend(servers)
        for server in servers:
            server.start()
        return servers[0] if count == 1 else servers

    yield start
    for server in started:
        server.kill()


@pytest.fixture
def table_on():
    """``table_on(http_client, seats=[...], **options)``: a game on any client (e.g. a live server)."""
    return Table
