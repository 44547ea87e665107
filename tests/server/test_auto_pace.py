"""Bot pacing: a game's consecutive bot decisions are committed at least ``bot_pace`` seconds apart
(single-choice steps played with them are not decisions and are not paced); LUDUS_BOT_PACE sets it."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from ludus.server.automation import Automation, bot_pace_from_env
from ludus.server.service import GameService
from ludus.server.storage import Store


def _run_bots(tmp_path, pace: float, seconds: float) -> tuple[list[float], list[bool]]:
    db = tmp_path / "ludus.db"
    store = Store(f"sqlite:///{db}")
    store.migrate()
    service = GameService(store, bot_seconds=0.05)

    async def main() -> str:
        auto = Automation(service, bot_pace=pace)
        auto.loop = asyncio.get_running_loop()
        service.listeners.append(auto.on_change)
        gid = service.create("garum", {}, ["random", "random"])["id"]
        auto.kick(gid)
        await asyncio.sleep(seconds)
        await auto.close()
        return gid

    gid = asyncio.run(main())
    forced = list(service._runtimes[gid].forced)
    store.dispose()
    with sqlite3.connect(db) as conn:
        times = [
            t
            for (t,) in conn.execute("SELECT created_at FROM actions WHERE game_id = ? ORDER BY ply", (gid,))
        ]
    return times, forced[: len(times)]


def test_consecutive_bot_decisions_are_paced(tmp_path):
    pace = 0.25
    times, forced = _run_bots(tmp_path, pace, 1.6)
    decisions = [t for t, f in zip(times, forced, strict=True) if not f]
    assert len(decisions) >= 3
    gaps = [b - a for a, b in zip(decisions, decisions[1:], strict=False)]
    assert min(gaps) >= pace * 0.9, gaps
    assert len(decisions) <= 1.6 / pace + 2


def test_without_pacing_bots_move_at_once(tmp_path):
    times, forced = _run_bots(tmp_path, 0.0, 0.6)
    assert sum(not f for f in forced) > 0.6 / 0.25 + 2  # more than pacing would have allowed


def test_the_pace_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("LUDUS_BOT_PACE", "1.5")
    assert bot_pace_from_env() == 1.5
    monkeypatch.delenv("LUDUS_BOT_PACE")
    assert bot_pace_from_env() == 0.6
    for bad in ("fast", "-1", "99"):
        monkeypatch.setenv("LUDUS_BOT_PACE", bad)
        with pytest.raises(ValueError, match="LUDUS_BOT_PACE"):
            bot_pace_from_env()
