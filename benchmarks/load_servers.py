"""The server processes of the load benchmarks: ``ludus.server.serve`` on a loopback port, and a
private PostgreSQL cluster in a temporary directory."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

HOST = "127.0.0.1"
SLOW_MS = 200  # the servers log requests slower than this (time spent inside the server)
# Every simulated client comes from 127.0.0.1: lift the per-address limits meant for real clients.
LOAD_LIMITS = {
    "LUDUS_CREATE_RATE": "100000/minute",
    "LUDUS_JOIN_RATE": "100000/minute",
    "LUDUS_WS_PER_CLIENT": "100000",
    "LUDUS_MAX_BOT_GAMES": "100000",
    "LUDUS_BOT_GAMES_PER_HOST": "100000",
    "LUDUS_OPEN_TABLES_PER_HOST": "100000",
    "LUDUS_LOBBY_PER_HOST": "100000",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class Server:
    """One ``ludus.server.serve`` process on a loopback port."""

    def __init__(
        self, database_url: str, log: Path, bot_seconds: float, env: dict[str, str] | None = None
    ) -> None:
        self.database_url = database_url
        self.env = env or {}
        self.port = free_port()
        self.base = f"http://{HOST}:{self.port}"
        self.log = log
        self.bot_seconds = bot_seconds
        self.proc: subprocess.Popen | None = None

    def launch(self) -> None:
        code = f"from ludus.server import serve; serve({HOST!r}, {self.port})"
        env = {
            **os.environ,
            "LUDUS_DATABASE_URL": self.database_url,
            "LUDUS_BOT_SECONDS": str(self.bot_seconds),
            "LUDUS_SLOW_REQUEST_MS": str(SLOW_MS),
            **LOAD_LIMITS,
            **self.env,
        }
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=log, stderr=log)

    def wait_ready(self, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"server exited with {self.proc.returncode}; see {self.log}")
            try:
                if httpx.get(f"{self.base}/api/games", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.05)
        raise SystemExit(f"server did not start in {seconds} s; see {self.log}")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.cpu_before_kill += self.cpu_seconds()
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    cpu_before_kill = 0.0

    def cpu_seconds(self) -> float:
        """CPU time (user + system) of the process so far, from /proc."""
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            return 0.0


class PrivatePostgres:
    """A throwaway PostgreSQL cluster on a loopback port (as user 'postgres' when run as root)."""

    def __init__(self) -> None:
        found = glob.glob("/usr/lib/postgresql/*/bin/postgres")
        if not found:
            raise SystemExit(
                "no PostgreSQL binaries under /usr/lib/postgresql/*/bin: apt-get install postgresql"
            )
        self.bindir = Path(sorted(found)[-1]).parent
        self.tmp = Path(tempfile.mkdtemp(prefix="ludus-bench-pg-"))
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    def start(self) -> str:
        as_user: dict[str, Any] = {"cwd": self.tmp}
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.tmp, user.pw_uid, user.pw_gid)
            as_user.update(user=user.pw_uid, group=user.pw_gid, extra_groups=[])
        data = self.tmp / "data"
        subprocess.run(
            [str(self.bindir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8"],
            check=True,
            capture_output=True,
            **as_user,
        )
        self.proc = subprocess.Popen(
            [
                str(self.bindir / "postgres"),
                "-D",
                str(data),
                "-p",
                str(self.port),
                "-k",
                str(self.tmp),
                "-c",
                f"listen_addresses={HOST}",
                "-c",
                "max_connections=300",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            **as_user,
        )
        import psycopg

        deadline = time.monotonic() + 30
        while True:
            try:
                with psycopg.connect(
                    f"host={HOST} port={self.port} user=postgres dbname=postgres", autocommit=True
                ) as conn:
                    conn.execute("CREATE DATABASE ludus_bench")
                return f"postgresql+psycopg://postgres@{HOST}:{self.port}/ludus_bench"
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise SystemExit("the private PostgreSQL did not start") from None
                time.sleep(0.1)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        shutil.rmtree(self.tmp, ignore_errors=True)
