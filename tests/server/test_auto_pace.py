"""Bot pacing: a game's consecutive bot decisions are committed at least ``bot_pace`` seconds apart
(single-choice steps played with them are not decisions and are not paced); ``Settings.bot_pace`` sets it."""

from __future__ import annotations

import asyncio
import sqlite3
import time

from ludus.server.automation import Automation
from ludus.server.service import GameService
from ludus.server.settings import Settings
from ludus.server.storage import Store


class _Sleeps:
    """``asyncio`` as the automation module sees it, noting every sleep the bots' driver asks for."""

    def __init__(self) -> None:
        self.asked: list[float] = []

    def __getattr__(self, name: str):
        return getattr(asyncio, name)

    async def sleep(self, delay: float, result=None):
        self.asked.append(delay)
        return await asyncio.sleep(delay, result)


def _run_bots(
    tmp_path, monkeypatch, pace: float, decisions: int
) -> tuple[list[float], list[bool], list[float]]:
    """Let two random bots play until ``decisions`` of theirs are committed (a generous deadline
    bounds the wait): the commit times, which of them were single-choice steps, and the sleeps
    the driver asked for."""
    db = tmp_path / "ludus.db"
    store = Store(f"sqlite:///{db}")
    store.migrate()
    service = GameService(store, Settings(bot_seconds=0.05, bot_pace=pace))
    sleeps = _Sleeps()
    monkeypatch.setattr("ludus.server.automation.asyncio", sleeps)

    async def main() -> str:
        auto = Automation(service)
        auto.loop = asyncio.get_running_loop()
        service.games.listeners.append(auto.on_change)
        gid = service.lobby.create("garum", {}, ["random", "random"])["id"]
        auto.kick(gid)
        deadline = time.monotonic() + 60
        while sum(not f for f in service.games._runtimes[gid].forced) < decisions:
            assert time.monotonic() < deadline, "the bots stopped playing"
            await asyncio.sleep(0.02)
        await auto.close()
        return gid

    gid = asyncio.run(main())
    forced = list(service.games._runtimes[gid].forced)
    store.dispose()
    with sqlite3.connect(db) as conn:
        times = [
            t
            for (t,) in conn.execute("SELECT created_at FROM actions WHERE game_id = ? ORDER BY ply", (gid,))
        ]
    return times, forced[: len(times)], sleeps.asked


def test_consecutive_bot_decisions_are_paced(tmp_path, monkeypatch):
    pace = 0.25
    times, forced, asked = _run_bots(tmp_path, monkeypatch, pace, decisions=4)
    decisions = [t for t, f in zip(times, forced, strict=True) if not f]
    assert len(decisions) >= 4
    gaps = [b - a for a, b in zip(decisions, decisions[1:], strict=False)]
    assert min(gaps) >= pace * 0.9, gaps  # a lower bound: a slow machine only widens the gaps
    assert asked and max(asked) <= pace


def test_without_pacing_bots_move_at_once(tmp_path, monkeypatch):
    times, forced, asked = _run_bots(tmp_path, monkeypatch, 0.0, decisions=8)
    assert sum(not f for f in forced) >= 8
    assert asked == []  # the driver never waited between decisions
