"""Right after a start, many first requests at once: none answers 500. The first hints after a restart
once did (a thread read a hook's module that another thread was still importing)."""

from __future__ import annotations

import asyncio

import httpx
import pytest

pytestmark = pytest.mark.slow


def test_sixteen_concurrent_first_hints_after_a_fresh_start_are_all_answered(
    server_process, tmp_path, monkeypatch
):
    monkeypatch.setenv("LUDUS_HINT_SECONDS", "0.2")
    url = f"sqlite:///{tmp_path / 'ludus.db'}"
    first = server_process(url)
    tables = []
    for i in range(16):
        game = ("garum", "celtae")[i % 2]
        r = httpx.post(f"{first.base}/api/games", json={"game": game, "seats": ["human", "human"]})
        assert r.status_code == 201, r.text
        tables.append(r.json())
    first.kill()
    fresh = server_process(url)  # nothing of the games or their hooks loaded in this process yet

    async def hint(http: httpx.AsyncClient, table: dict) -> httpx.Response:
        view = (await http.get(f"/api/games/{table['id']}")).json()
        token = next(s["token"] for s in table["seats"] if s["seat"] == view["current_player"])
        return await http.get(f"/api/games/{table['id']}/hint", headers={"Authorization": f"Bearer {token}"})

    async def all_at_once() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=fresh.base, timeout=120) as http:
            return await asyncio.gather(*(hint(http, t) for t in tables))

    answers = asyncio.run(all_at_once())
    assert [r.status_code for r in answers] == [200] * 16, [
        r.text[:200] for r in answers if r.status_code != 200
    ]
    assert all(r.json()["hints"] for r in answers)
