"""The replay routes on the whole server: a stored game answered one step at a time, the same in
any order, the whole replay at once refused, and every replay route rate-limited per address."""

from __future__ import annotations

import random
from collections.abc import Iterator

import orjson
import pytest
from fastapi.testclient import TestClient

from ludus.server import create_app
from ludus.server.settings import Settings
from ludus.web import routes
from ludus.web.routes import replay_step


def _app(tmp_path, **limits) -> TestClient:
    return TestClient(
        create_app(f"sqlite:///{tmp_path}/ludus.db", settings=Settings(bot_seconds=0.05, **limits))
    )


def _finished(client: TestClient, seed: int = 1) -> tuple[str, dict]:
    """A 2-seat Garum game played to its end by random moves over HTTP: its id and record."""
    created = client.post(
        "/api/games",
        json={"game": "garum", "options": {"board": "baelo_claudia"}, "seats": ["human", "human"]},
    ).json()
    gid, tokens = created["id"], {s["seat"]: s["token"] for s in created["seats"]}
    rng = random.Random(seed)
    while not (view := client.get(f"/api/games/{gid}").json())["terminal"]:
        auth = {"Authorization": f"Bearer {tokens[view['current_player']]}"}
        legal = client.get(f"/api/games/{gid}", headers=auth).json()["legal_actions"]
        r = client.post(
            f"/api/games/{gid}/actions",
            json={"action": rng.choice(legal), "version": view["version"]},
            headers=auth,
        )
        assert r.status_code == 200, r.text
    return gid, client.get(f"/api/games/{gid}/record").json()


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[tuple[TestClient, str, dict]]:
    """A server with its default limits and one finished game: (client, id, record)."""
    with _app(tmp_path_factory.mktemp("replays")) as client:
        yield (client, *_finished(client))


def test_the_replay_routes_are_rate_limited_per_client_address(tmp_path):
    with _app(tmp_path, replay_rate="3/minute") as client:
        gid, record = _finished(client)
        assert client.get(f"/api/games/{gid}/replay", params={"step": 0}).status_code == 200
        assert client.post("/api/replay", json={"record": record, "step": 1}).status_code == 200
        assert client.get(f"/api/games/{gid}/replay/all").status_code == 410  # counted too
        for refused in (
            client.get(f"/api/games/{gid}/replay", params={"step": 2}),
            client.post("/api/replay", json={"record": record, "step": 2}),
        ):
            assert refused.status_code == 429 and "too many replay requests" in refused.json()["detail"]
            assert 1 <= int(refused.headers["Retry-After"]) <= 60
        assert client.get(f"/api/games/{gid}/record").status_code == 200  # other routes are not counted
        other = TestClient(client.app, client=("192.0.2.9", 4000))  # another address has its own budget
        assert other.get(f"/api/games/{gid}/replay", params={"step": 2}).status_code == 200


@pytest.mark.parametrize("step", ["all", "1.5", "1e3", " 2", ""])
def test_a_stored_games_step_that_is_not_an_integer_0_to_n_is_refused_saying_so(served, step):
    client, gid, record = served
    answer = client.get(f"/api/games/{gid}/replay", params={"step": step})
    n = len(record["actions"])
    assert answer.status_code == 422
    assert answer.json()["detail"].startswith(f"step must be an integer 0..{n}, got ")
    for beyond in (n + 1, -1):
        answer = client.get(f"/api/games/{gid}/replay", params={"step": beyond})
        assert answer.status_code == 422 and answer.json()["detail"] == f"step must be 0..{n}, got {beyond}"
    assert client.get(f"/api/games/{gid}/replay/all").status_code == 410


def test_stepping_a_stored_game_in_any_order_answers_as_a_replay_from_the_start(served):
    client, gid, record = served
    n = len(record["actions"])
    rng = random.Random(4)
    steps = [0, 1, 2, 3, n, n - 1, 2, *rng.sample(range(n + 1), 12), 5, 6, 7, 6]
    for step in steps:
        svg = rng.random() < 0.5
        answer = client.get(f"/api/games/{gid}/replay", params={"step": step, "svg": str(svg).lower()})
        assert answer.status_code == 200, answer.text
        fresh = orjson.loads(orjson.dumps(replay_step(record, step, svg), option=orjson.OPT_NON_STR_KEYS))
        assert answer.json() == fresh, step


def test_a_replay_step_is_made_in_a_worker_process_never_the_servers(served, monkeypatch):
    """The route hands its work to the bots' worker processes: the server's own process (its event
    loop, the moves) spends nothing on it. A step made here would meet the broken function below."""

    def not_here(*args):
        raise AssertionError("a replay step was made in the server's process")

    monkeypatch.setattr(routes, "replay_answer", not_here)
    client, gid, _ = served
    pool = client.app.state.automation.pool
    before = pool.stats["call"]
    assert client.get(f"/api/games/{gid}/replay", params={"step": 3}).status_code == 200
    assert pool.stats["call"] == before + 1 and pool.pids()
