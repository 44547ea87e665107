"""Load and fault benchmark of the play server, over loopback only.

``--clients`` concurrent simulated clients play ``--games`` whole games with random legal
moves: HTTP for actions and views, one WebSocket per game that must see every game to its
end. It prints actions/s, p50/p95/p99 latency per action and per view, error counts, then replays every
stored record and checks its final state and that every acknowledged action is in it.

``--fault`` kills a server process with SIGKILL during the run (``--kill-after`` seconds)
and starts it again on the same port; clients ride it out and resume from the server's view.
``--processes 2`` runs several server processes on one database (PostgreSQL: each game's
HTTP goes to one process and its WebSocket to another). ``--postgres`` starts a private
PostgreSQL (binaries of the Debian 'postgresql' package) in a temporary directory.

Targets (issue 11, 2 cores): server CPU per action <= 1.5 ms; 1,000 concurrent games with
players thinking 1 s, p99 < 150 ms on SQLite; a SIGKILL mid-load loses no acknowledged action;
0 server errors. ``--think`` gives each decision a player's thinking time (uniform in [0, 2 x
think]); without it every client plays as fast as it can, which measures throughput (latency
then grows with the number of clients). ``--duration`` measures a fixed window instead of whole
games, ``--ramp`` lets the players arrive over some seconds and ``--warmup`` leaves their
arrival out of the latencies. When the window ends, a player sends nothing more, and keeps its sockets
open until every action sent has its answer (their closing is not part of the load). Server CPU counts from the end of start-up, per acknowledged
action. The clients run on the same machine: their CPU is printed beside the server's, and the
machine's speed of the moment beside both (OpenSpiel's hearts, as in bots_speed.py: a shared
machine's speed varies by two from one hour to the next, so CPU figures compare only beside it).

    .venv/bin/python benchmarks/server_load.py --clients 20 --games 60            # CPU per action
    .venv/bin/python benchmarks/server_load.py --clients 1000 --games 1000 --think 1 --via ws \
        --ramp 20 --warmup 25 --duration 80
    .venv/bin/python benchmarks/server_load.py --clients 50 --games 100 --fault --kill-after 8
    .venv/bin/python benchmarks/server_load.py --postgres --processes 2 --clients 50 --games 100
    .venv/bin/python benchmarks/server_load.py --scenario all      # honest moves beside each load

``--accounts`` plays signed in (``load_accounts.py``: accounts signed up before the clock starts, tables
made and joined signed in, every seat played by its session cookie with this site's ``Origin``) instead
of by seat tokens; ``--compare`` runs both on fresh servers and prints their figures side by side.

    .venv/bin/python benchmarks/server_load.py --clients 40 --games 40 --think 1 --ramp 5 --warmup 10 \
        --duration 60 --compare

``--scenario`` runs the fairness scenarios of ``load_scenarios.py`` instead (issue 49's figures).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from http.cookiejar import DefaultCookiePolicy
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets
from websockets.asyncio.client import connect as ws_connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bots_speed import hearts_rate  # noqa: E402
from load_accounts import (  # noqa: E402
    SIGNUP_LIMITS,
    Credential,
    side_by_side,
    sign_up_all,
    signed_in_table,
    token_credential,
)
from load_report import report  # noqa: E402
from load_scenarios import SCENARIOS, run_scenario  # noqa: E402
from load_servers import HOST, PrivatePostgres, Server  # noqa: E402

RECV_SECONDS = 30.0  # a WebSocket silent this long is dropped and reopened


async def recv(sock: Any) -> Any:
    """The socket's next message; TimeoutError after RECV_SECONDS (no task of its own, as wait_for makes:
    the simulated clients' CPU is the machine's too)."""
    async with asyncio.timeout(RECV_SECONDS):
        return await sock.recv()


@dataclass
class Stats:
    errors: Counter = field(default_factory=Counter)
    acks: list[tuple[str, int, str]] = field(default_factory=list)  # game, ply it was played at, action
    finals: dict[str, dict[str, Any]] = field(default_factory=dict)
    pushes: Counter = field(default_factory=Counter)
    ws_saw_end: set[str] = field(default_factory=set)
    games_done: int = 0
    via: Counter = field(default_factory=Counter)
    by_via: dict[str, list[float]] = field(default_factory=lambda: {"http": [], "ws": []})
    views: list[float] = field(default_factory=list)  # GET /api/games/{id} with the seat's credential
    measure_from: float = 0.0  # latencies before this (monotonic) are the warm-up's, not counted
    timeline: list[tuple[float, float]] = field(default_factory=list)  # (s into the window, latency)
    window: list[tuple[float, int]] = field(default_factory=list)  # (server CPU s, actions) at its ends
    stopping: bool = False  # --duration: the window is over, clients stop where they are
    in_flight: int = 0  # WebSocket actions sent and not yet answered
    seated: list[float] = field(default_factory=list)  # s after the start when each table's seats had views
    began: float = 0.0  # monotonic, and the servers' CPU, when the clients started (after any sign-ups)
    cpu_at_start: float = 0.0

    @property
    def latencies(self) -> list[float]:
        return [seconds for _, seconds in self.timeline]

    def latency(self, via: str, seconds: float) -> None:
        self.via[via] += 1
        if time.monotonic() >= self.measure_from:
            self.timeline.append((time.monotonic() - self.measure_from, seconds))
            self.by_via[via].append(seconds)

    async def answered(self, seconds: float = 30.0) -> None:
        """Wait (up to ``seconds``) until every action sent has its answer: a client that stops closes
        its sockets only then, so the last actions' latencies are not those of two thousand sockets
        closing at once."""
        until = time.monotonic() + seconds
        while self.in_flight > 0 and time.monotonic() < until:
            await asyncio.sleep(0.05)

    def view_latency(self, seconds: float) -> None:
        if time.monotonic() >= self.measure_from:
            self.views.append(seconds)


class Client:
    """A simulated player that plays every human seat of its games with random legal moves: by the seat
    tokens of the tables it creates, or (``players``) as signed-in accounts, one a seat."""

    def __init__(
        self,
        http: httpx.AsyncClient,
        servers: list[Server],
        stats: Stats,
        args: argparse.Namespace,
        deadline: float,
        rng: random.Random,
        players: list[Credential] | None = None,
    ) -> None:
        self.http, self.servers, self.stats, self.args = http, servers, stats, args
        self.deadline, self.rng, self.players = deadline, rng, players

    async def request(self, method: str, url: str, idempotent: bool, **kw: Any) -> httpx.Response | None:
        """One request; transport errors (a killed server) are waited out, up to the deadline."""
        while time.monotonic() < self.deadline:
            try:
                r = await self.http.request(method, url, **kw)
            except httpx.TransportError:
                self.stats.errors["connection refused or reset"] += 1
                if not idempotent:
                    return None  # unknown whether it was committed: the caller re-reads the view
                await asyncio.sleep(0.2)
                continue
            if r.status_code >= 500:
                self.stats.errors[f"server {r.status_code}"] += 1
            return r
        if not self.stats.stopping:
            self.stats.errors["gave up (deadline)"] += 1
        return None

    async def play(self, index: int) -> None:
        servers = self.servers
        http_base = servers[index % len(servers)].base
        ws_server = servers[(index + 1) % len(servers)]
        if self.players is not None:
            made = await signed_in_table(
                self.request, http_base, self.args.game, self.players, self.stats.errors
            )
        else:
            made = await self.token_table(http_base)
        if made is None:
            return
        gid, creds = made
        if self.args.via == "ws" or (self.args.via == "mixed" and index % 2):
            await self.play_ws(ws_server, gid, creds)
        else:
            await self.play_http(http_base, ws_server, gid, creds)

    async def token_table(self, http_base: str) -> tuple[str, dict[int, Credential]] | None:
        """A table of human seats whose tokens this client holds, as a guest: its id and the seats'
        credentials (None: not made)."""
        seats = ["human"] * self.args.players
        r = None
        while r is None or r.status_code != 201:
            r = await self.request(
                "POST", f"{http_base}/api/games", False, json={"game": self.args.game, "seats": seats}
            )
            if time.monotonic() > self.deadline:
                return None
            if r is not None and r.status_code == 429:  # rate limited: wait as told
                await asyncio.sleep(float(r.headers.get("Retry-After", "1")))
                continue
            if r is not None and r.status_code != 201:
                self.stats.errors[f"create {r.status_code}"] += 1
                return None
        return r.json()["id"], {s["seat"]: token_credential(s["token"]) for s in r.json()["seats"]}

    async def think(self) -> None:
        if self.args.think > 0:  # a player's thinking time, uniform in [0, 2 * think]
            await asyncio.sleep(self.rng.uniform(0, 2 * self.args.think))

    async def play_http(
        self, http_base: str, ws_server: Server, gid: str, creds: dict[int, Credential]
    ) -> None:
        """Views and actions over HTTP; a spectator WebSocket (on another process if any) follows."""
        watcher = asyncio.create_task(self.watch(ws_server, gid))
        url = f"{http_base}/api/games/{gid}"
        view: dict[str, Any] | None = None
        while time.monotonic() < self.deadline:
            if view is None or (
                not view["terminal"] and (view["seat"] != view["current_player"] or not view["legal_actions"])
            ):
                seat = None if view is None or view["terminal"] else view["current_player"]
                headers = creds[seat].headers if seat is not None else {}
                started = time.perf_counter()
                got = await self.request("GET", url, True, headers=headers)
                if got is None:
                    break
                if seat is not None and got.status_code == 200:
                    self.stats.view_latency(time.perf_counter() - started)
                view = got.json()
                continue
            if view["terminal"]:
                break
            seat = view["seat"]
            await self.think()
            if self.stats.stopping:  # the window ended while the player thought
                break
            action = self.rng.choice(view["legal_actions"])
            started = time.perf_counter()
            got = await self.request(
                "POST",
                f"{url}/actions",
                False,
                json={"action": action, "version": view["version"]},
                headers=creds[seat].headers,
            )
            if got is None:
                view = None
                continue
            if got.status_code == 200:
                self.stats.latency("http", time.perf_counter() - started)
                self.stats.acks.append((gid, view["ply"], action))
                view = got.json()
            else:
                self.stats.errors[f"action {got.status_code}"] += 1
                view = None
        if view is not None and view["terminal"]:
            self.stats.finals[gid] = view
            self.stats.games_done += 1
            try:
                await asyncio.wait_for(asyncio.shield(watcher), timeout=10)
            except TimeoutError:
                self.stats.errors["websocket never saw the end"] += 1
        watcher.cancel()

    async def play_ws(self, server: Server, gid: str, creds: dict[int, Credential]) -> None:
        """Every seat on its own WebSocket; actions sent on the mover's socket, acknowledged by its
        next view. A lost connection (a killed server) is reopened and play resumes from the views."""
        url = f"ws://{HOST}:{server.port}/api/games/{gid}/ws"
        while time.monotonic() < self.deadline:
            try:
                async with contextlib.AsyncExitStack() as stack:
                    socks = {
                        seat: await stack.enter_async_context(
                            ws_connect(url, open_timeout=10, additional_headers=cred.ws_headers)
                        )
                        for seat, cred in creds.items()
                    }
                    latest = {seat: await self.first_view(sock, creds[seat]) for seat, sock in socks.items()}
                    self.stats.seated.append(time.monotonic() - self.stats.began)
                    while time.monotonic() < self.deadline:
                        newest = max(latest.values(), key=lambda v: v.get("version", -1))
                        if newest.get("terminal"):
                            self.stats.finals[gid] = newest
                            self.stats.games_done += 1
                            self.stats.ws_saw_end.add(gid)
                            return
                        mover = newest["current_player"]
                        while latest[mover].get("version", -1) < newest["version"]:
                            latest[mover] = orjson.loads(await recv(socks[mover]))
                        view = latest[mover]
                        await self.think()
                        if self.stats.stopping:  # the window ended while the player thought
                            break
                        action = self.rng.choice(view["legal_actions"])
                        started = time.perf_counter()
                        self.stats.in_flight += 1
                        try:
                            await socks[mover].send(
                                json.dumps({"action": action, "version": view["version"]})
                            )
                            while True:
                                message = orjson.loads(await recv(socks[mover]))
                                self.stats.pushes[gid] += 1
                                if "error" in message:
                                    self.stats.errors[f"ws action {message['error']['status']}"] += 1
                                    latest[mover] = await self.reread(server, gid, socks[mover], creds[mover])
                                    break
                                latest[mover] = message
                                if message["version"] > view["version"]:
                                    self.stats.latency("ws", time.perf_counter() - started)
                                    self.stats.acks.append((gid, view["ply"], action))
                                    break
                        finally:
                            self.stats.in_flight -= 1
                    await self.stats.answered()  # the window is over: the others' last answers first
            except (OSError, TimeoutError, websockets.exceptions.WebSocketException):
                self.stats.errors["websocket reconnect attempts"] += 1
                await asyncio.sleep(0.2)

    async def first_view(self, sock: Any, cred: Credential) -> dict[str, Any]:
        """The seat's first view: the handshake's session opened it, else the token as first message."""
        view = await recv(sock)
        if cred.hello is None:
            return orjson.loads(view)  # type: ignore[no-any-return]
        await sock.send(cred.hello)  # the spectator view came first
        return orjson.loads(await recv(sock))  # type: ignore[no-any-return]

    async def reread(self, server: Server, gid: str, sock: Any, cred: Credential) -> dict[str, Any]:
        """The seat's view again after a refused action: its token sent again, or (a session's seat,
        which has no message for it) read over HTTP."""
        if cred.hello is not None:
            await sock.send(cred.hello)
            return orjson.loads(await recv(sock))  # type: ignore[no-any-return]
        got = await self.request("GET", f"{server.base}/api/games/{gid}", True, headers=cred.headers)
        if got is None:
            raise TimeoutError("no view")
        return got.json()  # type: ignore[no-any-return]

    async def watch(self, server: Server, gid: str) -> None:
        """Follow the game on a WebSocket (reconnecting after a kill) until a terminal view."""
        while time.monotonic() < self.deadline:
            try:
                async with ws_connect(f"ws://{HOST}:{server.port}/api/games/{gid}/ws", open_timeout=10) as ws:
                    async for message in ws:
                        view = orjson.loads(message)
                        self.stats.pushes[gid] += 1
                        if view.get("terminal"):
                            self.stats.ws_saw_end.add(gid)
                            return
            except (OSError, TimeoutError, Exception):  # closed by a kill: reconnect
                self.stats.errors["websocket reconnect attempts"] += 1
                await asyncio.sleep(0.2)


async def fault(servers: list[Server], after: float, stats: Stats) -> None:
    await asyncio.sleep(after)
    victim = servers[0]
    killed_at = time.monotonic()
    victim.kill()
    print(
        f"  fault: SIGKILL server on port {victim.port} at {after:.1f} s "
        f"({len(stats.acks)} actions acknowledged so far)",
        flush=True,
    )
    victim.launch()
    await asyncio.to_thread(victim.wait_ready)
    print(f"  fault: restarted in {time.monotonic() - killed_at:.2f} s", flush=True)


async def run(args: argparse.Namespace, servers: list[Server], accounts: bool) -> Stats:
    stats = Stats()
    limits = httpx.Limits(max_connections=args.clients * 2, max_keepalive_connections=args.clients * 2)
    async with httpx.AsyncClient(timeout=30, limits=limits) as http:
        # a player's session is its own (sent by its Credential): the shared client keeps no cookie
        http.cookies.jar.set_policy(DefaultCookiePolicy(allowed_domains=[]))
        groups: list[list[Credential]] | None = None
        if accounts:  # before the clock starts: sign-ups cost Argon2id hashes, not moves
            groups = await sign_up_all(http, servers[0].base, args.clients, args.players, stats.errors)
        stats.began, stats.cpu_at_start = time.monotonic(), sum(s.cpu_seconds() for s in servers)
        deadline = time.monotonic() + (args.timeout if args.duration is None else args.duration)
        stats.measure_from = time.monotonic() + args.warmup
        if args.duration is not None:
            asyncio.get_running_loop().call_at(deadline, setattr, stats, "stopping", True)
        queue: asyncio.Queue[int] = asyncio.Queue()
        for i in range(args.games):
            queue.put_nowait(i)
        clients = args.clients if groups is None else len(groups)

        async def worker(k: int) -> None:
            players = None if groups is None else groups[k]
            rng = random.Random(args.seed * 1000 + k)
            client = Client(http, servers, stats, args, deadline, rng, players)
            await asyncio.sleep(args.ramp * k / clients)  # players arrive over --ramp seconds
            while not queue.empty() and time.monotonic() < deadline:
                await client.play(queue.get_nowait())

        tasks = [asyncio.create_task(worker(k)) for k in range(clients)]
        if args.warmup > 0 and not args.fault:  # the window's own CPU: the games' creation left out
            loop = asyncio.get_running_loop()

            def mark() -> None:
                stats.window.append((sum(s.cpu_seconds() for s in servers), len(stats.acks)))

            loop.call_at(stats.measure_from, mark)
            if args.duration is not None:
                loop.call_at(deadline, mark)
        if args.fault:
            tasks.append(asyncio.create_task(fault(servers, args.kill_after, stats)))
        await asyncio.gather(*tasks)
    return stats


def _run_loop(main_coroutine):  # type: ignore[no-untyped-def]
    """The clients' event loop: uvloop where installed (as the server's uvicorn uses), so that a
    thousand simulated players cost the shared machine less and time the server, not themselves."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main_coroutine)
    return uvloop.run(main_coroutine)


def _scenarios(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    names = SCENARIOS if args.scenario == "all" else tuple(args.scenario.split(","))
    unknown = set(names) - set(SCENARIOS)
    if unknown:
        parser.error(f"unknown scenario {', '.join(sorted(unknown))}; scenarios: {', '.join(SCENARIOS)}")
    print(f"hearts {hearts_rate(2.0) / 1000:.0f}k decisions/CPU-s (the machine's speed now)")
    for name in names:
        run_scenario(name, args.duration or 30.0, args.warmup or 5.0, args.pace)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=100, help="concurrent simulated clients")
    parser.add_argument("--games", type=int, default=100, help="whole games to play in all")
    parser.add_argument("--game", default="garum")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--database", help="database URL (default: a temporary SQLite file)")
    parser.add_argument("--postgres", action="store_true", help="start a private PostgreSQL for the run")
    parser.add_argument("--processes", type=int, default=1, help="server processes on the database")
    parser.add_argument("--fault", action="store_true", help="SIGKILL a server during the run and restart it")
    parser.add_argument("--kill-after", type=float, default=5.0, help="seconds into the run for the fault")
    parser.add_argument("--timeout", type=float, default=600.0, help="the run stops by itself after this")
    parser.add_argument(
        "--duration", type=float, help="measure for this many seconds, then stop (games need not finish)"
    )
    parser.add_argument(
        "--ramp",
        type=float,
        default=0.0,
        help="clients start one after another over this many seconds (default: all at once)",
    )
    parser.add_argument(
        "--warmup",
        type=float,
        default=0.0,
        help="leave the latencies of the first seconds out (the creation of every game)",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean thinking time before each decision, seconds (0: as fast as possible)",
    )
    parser.add_argument(
        "--via",
        choices=("http", "ws", "mixed"),
        default="mixed",
        help="how clients play: HTTP requests, WebSocket messages, or half and half",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--accounts",
        action="store_true",
        help="players sign up (before the clock starts) and play signed in, by session cookie",
    )
    parser.add_argument(
        "--compare", action="store_true", help="the run by seat tokens, then signed in, figures side by side"
    )
    parser.add_argument(
        "--scenario",
        help="instead: an honest player's move latency beside a load, on a fresh server each "
        f"(comma-separated, or 'all': {', '.join(SCENARIOS)}); --duration (default 30) and --warmup "
        "(default 5) set its window",
    )
    parser.add_argument(
        "--pace", type=float, default=0.05, help="--scenario: the honest player's seconds a move"
    )
    args = parser.parse_args()
    if args.scenario:
        _scenarios(parser, args)
        return
    if args.clients < 1 or args.games < 1 or args.processes < 1:
        parser.error("--clients, --games and --processes must be at least 1")

    # The simulated players' process holds every client's state (each view read back): its own
    # collections would show as server latency. It collects nothing while the clients play (a run
    # of a minute grows by ~100 MB); its peak memory is printed beside its CPU.
    gc.collect()
    gc.freeze()
    gc.disable()
    # The machine's speed this run (shared machines vary): CPU per action compares across runs only
    # beside it. OpenSpiel's hearts at random, as in benchmarks/bots_speed.py.
    yardstick = hearts_rate(2.0)
    modes = (
        {"tokens": False, "accounts": True}
        if args.compare
        else {"accounts" if args.accounts else "tokens": args.accounts}
    )
    runs: dict[str, dict[str, float]] = {}
    passed = True
    for name, accounts in modes.items():
        ok, runs[name] = bench(args, accounts, yardstick)
        passed = passed and ok
    if len(runs) > 1:
        side_by_side(runs)
    sys.exit(0 if passed else 1)


def bench(args: argparse.Namespace, accounts: bool, yardstick: float) -> tuple[bool, dict[str, float]]:
    """One run on fresh servers (and database), players signed in or by seat tokens: whether it
    passed, and its main figures."""
    tmp = Path(tempfile.mkdtemp(prefix="ludus-bench-"))
    pg = None
    url = args.database or f"sqlite:///{tmp}/ludus.db"
    if args.postgres:
        pg = PrivatePostgres()
        url = pg.start()
    env = SIGNUP_LIMITS if accounts else None
    servers = [Server(url, tmp / f"server{i}.log", bot_seconds=0.05, env=env) for i in range(args.processes)]
    try:
        for server in servers:
            server.launch()
        for server in servers:
            server.wait_ready()
        kind = "PostgreSQL" if url.startswith("postgres") else "SQLite"
        print(
            f"{args.games} games of {args.game} ({args.players} players), {args.clients} clients "
            f"(think {args.think:g} s), "
            f"{args.processes} server process(es) on {kind}{', with a SIGKILL fault' if args.fault else ''}; "
            + ("players signed in (session cookie + Origin)" if accounts else "players by seat tokens"),
            flush=True,
        )
        clients_cpu_at_start = time.process_time()  # the yardstick left out
        stats = _run_loop(run(args, servers, accounts))
        elapsed = time.monotonic() - stats.began
        ok, figures = report(args, servers, stats, elapsed, clients_cpu_at_start, yardstick)
        print("  OK" if ok else "  FAILED", flush=True)
        return ok, figures
    finally:
        for server in servers:
            server.kill()
        if pg is not None:
            pg.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
