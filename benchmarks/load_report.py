"""The figures of one run of benchmarks/server_load.py: latencies, throughput, CPU, errors, and every
stored record replayed against what the clients were told."""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import time
from collections import Counter
from typing import Any

import httpx
from load_servers import SLOW_MS, Server

import ludus


def pct(values: list[float], p: float) -> float:
    """The ``p`` quantile of ``values`` (seconds) in milliseconds (nan: none)."""
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(p * len(ordered)))] if ordered else float("nan")


def check_records(servers: list[Server], stats: Any) -> tuple[int, int, int]:
    """Replay every stored record; count bad finals and acknowledged actions missing from records."""
    by_game: dict[str, list[tuple[int, str]]] = {}
    for gid, ply, action in stats.acks:
        by_game.setdefault(gid, []).append((ply, action))
    bad = missing = 0
    with httpx.Client(base_url=servers[-1].base, timeout=30) as http:
        for gid, acked in by_game.items():
            r = http.get(f"/api/games/{gid}/record")
            if r.status_code != 200:
                view = http.get(f"/api/games/{gid}").json()
                actions_known = view["ply"]
                missing += sum(1 for ply, _ in acked if ply >= actions_known)
                bad += gid in stats.finals
                continue
            record = r.json()
            state = ludus.replay(record)
            final = stats.finals.get(gid)
            if final is not None and (not state.is_terminal() or state.scores() != final["scores"]):
                bad += 1
            # no undo in this benchmark: an action acknowledged at ply n is the record's n-th (from 0);
            # the versions also count the single-choice steps the server played for a seat
            missing += sum(
                1
                for ply, action in acked
                if ply >= len(record["actions"]) or record["actions"][ply] != action
            )
    return len(by_game), bad, missing


def report(
    args: argparse.Namespace,
    servers: list[Server],
    stats: Any,
    elapsed: float,
    clients_cpu: float,  # the clients' process_time() when they started
    yardstick: float,
) -> tuple[bool, dict[str, float]]:
    """Print the run's figures; whether it passed, and its main figures (for a side-by-side table)."""
    lat = sorted(stats.latencies)
    n = len(lat)
    acked = len(stats.acks)
    server_cpu = sum(s.cpu_seconds() + s.cpu_before_kill for s in servers) - stats.cpu_at_start
    games_checked, bad_finals, missing = check_records(servers, stats)
    server_errors = sum(v for k, v in stats.errors.items() if k.startswith("server "))
    print(
        f"  games finished   {stats.games_done}/{args.games} in {elapsed:.1f} s"
        + (f" (a {args.duration:g} s window, latencies after {args.warmup:g} s)" if args.duration else "")
    )
    print(
        f"  actions          {acked} acknowledged ({stats.via['http']} via HTTP, {stats.via['ws']} via "
        f"WebSocket), {acked / elapsed:.0f} actions/s; {n} timed"
    )
    print(
        f"  latency/action   p50 {pct(lat, 0.50):.1f} ms   p95 {pct(lat, 0.95):.1f} ms   p99 {pct(lat, 0.99):.1f} "
        f"ms   max {pct(lat, 1.0):.1f} ms   mean {1000 * statistics.fmean(lat) if n else 0:.1f} ms"
    )
    for via, values in stats.by_via.items():
        if values:
            print(
                f"    via {via:<4}       p50 {pct(values, 0.5):.1f} ms   p95 {pct(values, 0.95):.1f} ms   "
                f"p99 {pct(values, 0.99):.1f} ms"
            )
    print(
        f"  latency/view     p50 {pct(stats.views, 0.50):.1f} ms   p95 {pct(stats.views, 0.95):.1f} ms   "
        f"p99 {pct(stats.views, 0.99):.1f} ms   ({len(stats.views)} GET /api/games/{{id}} by a seat, timed)"
    )
    print(
        f"  server CPU       {server_cpu:.1f} s, {1000 * server_cpu / max(acked, 1):.2f} ms per action; "
        f"clients' CPU {time.process_time() - clients_cpu:.1f} s, "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    if stats.seated and args.duration is not None:  # arrivals that run into the window load it as well
        print(
            f"  arrivals         the last of {len(stats.seated)} tables had its views {max(stats.seated):.1f} s "
            f"into the run (latencies from {args.warmup:g} s)"
        )
    if stats.timeline and args.duration is not None:  # where in the window the slow ones were
        step = 5.0
        spans: dict[int, list[float]] = {}
        for at, seconds in stats.timeline:
            spans.setdefault(int(at // step), []).append(seconds)
        print(
            f"  p99 by {step:g} s     "
            + "  ".join(f"{pct(v, 0.99):.0f}" for _, v in sorted(spans.items()))
            + " ms"
        )
    if len(stats.window) == 2:
        (cpu0, acts0), (cpu1, acts1) = stats.window
        print(
            f"  in the window    {(acts1 - acts0) / (args.duration - args.warmup):.0f} actions/s, "
            f"{1000 * (cpu1 - cpu0) / max(acts1 - acts0, 1):.2f} ms of server CPU per action "
            f"({100 * (cpu1 - cpu0) / (args.duration - args.warmup):.0f} % of a core)"
        )
    print(
        f"  yardstick        OpenSpiel hearts {yardstick / 1000:.0f}k decisions/CPU-s before the run "
        f"(server CPU per action x hearts rate: {server_cpu / max(acked, 1) * yardstick:.0f} hearts decisions)"
    )
    print(
        f"  websocket        {sum(stats.pushes.values())} views pushed; "
        f"{len(stats.ws_saw_end)}/{stats.games_done} finished games seen to the end"
    )
    print(
        f"  errors           server (5xx) {server_errors}; "
        + (", ".join(f"{k} {v}" for k, v in sorted(stats.errors.items())) or "none")
    )
    print(
        f"  records          {games_checked} replayed; {bad_finals} with a wrong final state; "
        f"{missing} acknowledged actions missing"
    )
    slow = [
        line
        for server in servers
        if server.log.exists()
        for line in server.log.read_text(errors="replace").splitlines()
        if "slow request" in line
    ]
    kinds = Counter(
        re.sub(
            r"/api/games/[^/ ]+", "/api/games/{id}", " ".join(line.split("slow request: ")[-1].split()[:2])
        )
        for line in slow
    )
    print(
        f"  server log       {len(slow)} requests slower than {SLOW_MS} ms inside the server"
        + (": " + ", ".join(f"{k} x{v}" for k, v in kinds.most_common(4)) if slow else "")
    )
    ok = (
        server_errors == 0
        and bad_finals == 0
        and missing == 0
        and (stats.games_done == args.games or args.duration is not None)
    )
    figures = {
        "moves p50 ms": pct(lat, 0.50),
        "moves p95 ms": pct(lat, 0.95),
        "moves p99 ms": pct(lat, 0.99),
        "moves max ms": pct(lat, 1.0),
        "moves timed": float(n),
        "views p50 ms": pct(stats.views, 0.50),
        "views p95 ms": pct(stats.views, 0.95),
        "views p99 ms": pct(stats.views, 0.99),
        "views timed": float(len(stats.views)),
        "actions/s": acked / elapsed,
        "server CPU ms/action": 1000 * server_cpu / max(acked, 1),
        "games finished": float(stats.games_done),
        "errors": float(sum(stats.errors.values())),
    }
    return ok, figures
