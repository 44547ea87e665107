"""The fairness scenarios of benchmarks/server_load.py (``--scenario NAME``): an honest player's move
latency (p50 / p95 of ``POST /actions``, a 2-player Garum table played at a person's quick pace) while
other clients load the server one way:

    idle        nothing else
    replays     16 clients post replay requests in a loop, each from an address of its own
    slow-bots   3 games of four ``ismcts:seconds=10`` bots (the server caps their time a move)
    bot-flood   one address fills its cap of slow-bot games; another address's 2-second bot is timed
                per decision (target: its budget plus one other decision's, plus the bots' pace)
    hints       16 clients each ask for a hint, play a move, and ask again, in a loop

Addresses are told to the server with ``X-Forwarded-For`` (trusted from loopback, as by default); no
traffic leaves the machine. Each scenario runs on a fresh server with the server's default limits.

    .venv/bin/python benchmarks/server_load.py --scenario idle --duration 30
    .venv/bin/python benchmarks/server_load.py --scenario replays --duration 30
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
import statistics
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import orjson
from load_servers import Server

import ludus

SCENARIOS = ("idle", "replays", "slow-bots", "bot-flood", "hints")
HONEST = "192.0.2.1"  # documentation addresses (RFC 5737): told to the server, never contacted


def _from(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(p * len(ordered)))] if ordered else float("nan")


class Honest:
    """A person playing both seats of a 2-player Garum table, one move every ``pace`` seconds."""

    def __init__(self, http: httpx.AsyncClient, pace: float) -> None:
        self.http, self.pace = http, pace
        self.latencies: list[float] = []
        self.errors = 0

    async def run(self, until: float, rng: random.Random) -> None:
        while time.monotonic() < until:
            r = await self.http.post(
                "/api/games", json={"game": "garum", "seats": ["human", "human"]}, headers=_from(HONEST)
            )
            if r.status_code != 201:
                self.errors += 1
                await asyncio.sleep(1)
                continue
            created = r.json()
            tokens = {s["seat"]: s["token"] for s in created["seats"]}
            view = (await self.http.get(f"/api/games/{created['id']}")).json()
            while not view["terminal"] and time.monotonic() < until:
                auth = {"Authorization": f"Bearer {tokens[view['current_player']]}", **_from(HONEST)}
                view = (await self.http.get(f"/api/games/{created['id']}", headers=auth)).json()
                await asyncio.sleep(self.pace)
                started = time.perf_counter()
                r = await self.http.post(
                    f"/api/games/{created['id']}/actions",
                    json={"action": rng.choice(view["legal_actions"]), "version": view["version"]},
                    headers=auth,
                )
                if r.status_code == 200:
                    self.latencies.append(time.perf_counter() - started)
                    view = r.json()
                else:
                    self.errors += 1
                    view = (await self.http.get(f"/api/games/{created['id']}")).json()


def _record(seed: int) -> str:
    """A whole 4-player Celtae game at random, as record text (the largest replays)."""
    state = ludus.load_game("celtae", players=4).new_initial_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return orjson.dumps(state.record()).decode()


async def _replays(http: httpx.AsyncClient, until: float, counts: dict[str, int]) -> None:
    records = [orjson.loads(_record(seed)) for seed in range(4)]

    async def poster(k: int) -> None:
        rng = random.Random(k)
        while time.monotonic() < until:
            record = rng.choice(records)
            r = await http.post(
                "/api/replay",
                json={"record": record, "step": rng.randrange(len(record["actions"]) + 1)},
                headers=_from(f"198.51.100.{k + 1}"),
            )
            counts[str(r.status_code)] = counts.get(str(r.status_code), 0) + 1
            if r.status_code == 200:
                counts["bytes"] = max(counts.get("bytes", 0), len(r.content))

    await asyncio.gather(*(poster(k) for k in range(16)))


async def _bot_games(http: httpx.AsyncClient, address: str, seats: list[str], games: int) -> list[str]:
    made = []
    for _ in range(games):
        r = await http.post("/api/games", json={"game": "garum", "seats": seats}, headers=_from(address))
        if r.status_code != 201:
            break
        made.append(r.json()["id"])
    return made


async def _decision_gaps(http: httpx.AsyncClient, game_id: str, until: float, gaps: list[float]) -> None:
    """Seconds between the commits of a bot-only game's decisions, seen by polling its view, into ``gaps``."""
    last_ply, last_at = None, None
    while time.monotonic() < until:
        view = (await http.get(f"/api/games/{game_id}")).json()
        if last_ply is not None and view["ply"] > last_ply:
            now = time.monotonic()
            if last_at is not None:
                gaps.append(now - last_at)
            last_at = now
        last_ply = view["ply"]
        if view["terminal"]:
            break
        await asyncio.sleep(0.05)


async def _hints(http: httpx.AsyncClient, until: float, counts: dict[str, int]) -> None:
    async def asker(k: int) -> None:
        rng = random.Random(k)
        address = f"203.0.113.{k + 1}"
        while time.monotonic() < until:
            r = await http.post(
                "/api/games", json={"game": "garum", "seats": ["human", "human"]}, headers=_from(address)
            )
            if r.status_code != 201:
                await asyncio.sleep(1)
                continue
            gid, tokens = r.json()["id"], {s["seat"]: s["token"] for s in r.json()["seats"]}
            view = (await http.get(f"/api/games/{gid}")).json()
            while not view["terminal"] and time.monotonic() < until:
                auth = {"Authorization": f"Bearer {tokens[view['current_player']]}", **_from(address)}
                h = await http.get(f"/api/games/{gid}/hint", headers=auth)
                counts[str(h.status_code)] = counts.get(str(h.status_code), 0) + 1
                view = (await http.get(f"/api/games/{gid}", headers=auth)).json()
                r = await http.post(
                    f"/api/games/{gid}/actions",
                    json={"action": rng.choice(view["legal_actions"]), "version": view["version"]},
                    headers=auth,
                )
                view = r.json() if r.status_code == 200 else (await http.get(f"/api/games/{gid}")).json()

    await asyncio.gather(*(asker(k) for k in range(16)))


async def _scenario(name: str, base: str, duration: float, warmup: float, pace: float) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        out: dict[str, Any] = {"counts": {}}
        load_until = time.monotonic() + warmup + duration + 5
        loads: list[Any] = []
        if name == "replays":
            loads.append(_replays(http, load_until, out["counts"]))
        elif name == "slow-bots":
            out["games"] = await _bot_games(http, "198.51.100.200", ["ismcts:seconds=10"] * 4, 3)
        elif name == "bot-flood":
            flood = await _bot_games(http, "198.51.100.201", ["ismcts:seconds=10"] * 2, 1000)
            other = await _bot_games(http, "198.51.100.202", ["ismcts:seconds=2"] * 2, 1)
            out["flood_games"] = len(flood)
            out["gaps"] = []
            if other:
                loads.append(_decision_gaps(http, other[0], load_until, out["gaps"]))
        elif name == "hints":
            loads.append(_hints(http, load_until, out["counts"]))
        load_tasks = [asyncio.create_task(load) for load in loads]
        await asyncio.sleep(warmup)
        # the honest player in a process of its own: in this one it would wait behind the load's
        # clients on one event loop, and time them rather than the server
        with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as honest:
            played = asyncio.get_running_loop().run_in_executor(honest, _honest, base, duration, pace)
            out["latencies"], out["errors"] = await played
        for task in load_tasks:
            task.cancel()
        await asyncio.gather(*load_tasks, return_exceptions=True)
        return out


def _honest(base: str, duration: float, pace: float) -> tuple[list[float], int]:
    """The honest player's run (in its own process): its move latencies and errors."""

    async def play() -> tuple[list[float], int]:
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            honest = Honest(http, pace)
            await honest.run(time.monotonic() + duration, random.Random(1))
            return honest.latencies, honest.errors

    return asyncio.run(play())


def run_scenario(name: str, duration: float, warmup: float, pace: float) -> None:
    """Start a fresh server, run scenario ``name`` against it, print the honest moves' figures."""
    tmp = Path(tempfile.mkdtemp(prefix="ludus-fair-"))
    server = Server(f"sqlite:///{tmp}/ludus.db", tmp / "server.log", bot_seconds=1.0, env=_ENV[name])
    server.launch()
    try:
        server.wait_ready()
        cpu0 = server.cpu_seconds()
        out = asyncio.run(_scenario(name, server.base, duration, warmup, pace))
        lat = out["latencies"]
        print(
            f"{name:<10} honest moves  n {len(lat)}  p50 {_pct(lat, 0.5):.1f} ms  p95 {_pct(lat, 0.95):.1f} ms  "
            f"max {_pct(lat, 1.0):.1f} ms  errors {out['errors']}  server CPU {server.cpu_seconds() - cpu0:.1f} s"
        )
        if out["counts"]:
            print(
                f"{'':<10} load answers  " + ", ".join(f"{k} {v}" for k, v in sorted(out["counts"].items()))
            )
        if "flood_games" in out:
            gaps = out["gaps"]
            print(
                f"{'':<10} one address holds {out['flood_games']} slow-bot games (its cap); another "
                f"address's 2 s bot: {len(gaps)} decisions, gap median "
                f"{statistics.median(gaps) if gaps else float('nan'):.2f} s, max {max(gaps, default=float('nan')):.2f} s"
            )
    finally:
        server.kill()


# the bot-flood scenario keeps the per-address caps (they are what it measures); the others lift
# only the create rate, since their own tables come from a handful of addresses
_LIFTED = {"LUDUS_CREATE_RATE": "100000/minute", "LUDUS_HINT_RATE": "100000/minute"}
_ENV = {name: dict(_LIFTED) for name in SCENARIOS}
_ENV["bot-flood"] = {"LUDUS_CREATE_RATE": "100000/minute", "LUDUS_BOT_GAMES_PER_HOST": "20"}
