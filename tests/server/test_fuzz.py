"""Every route of the OpenAPI schema, fuzzed by schemathesis on SQLite and PostgreSQL: valid and
invalid requests alike get an answer under 500, and a refusal (4xx) changes nothing stored.

Requests go to a real game about half the time (path ``game_id`` replaced by its id, a seat's
token or a bogus one in ``Authorization``) so that the rules behind the routes are reached, not
only their 404s. Bounded: a few examples an operation and generation mode. A property test adds
near-valid bodies schema fuzzing seldom builds (padded bot names, huge or non-integer numbers).
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from sqlalchemy import select

from ludus.server import storage

MAX_EXAMPLES = 8
MODES = [GenerationMode.POSITIVE, GenerationMode.NEGATIVE]


def _stored(client) -> Any:
    """What a refusal must leave as it was: the games, their seats' holders, the actions played.

    Bots and turn timers of fuzzed games play on in the background, so their actions and seat
    take-overs are left out; the fixture game (people only, no timer) is compared whole until
    one of its seats has left.
    """
    store = client.app.state.service.store
    with store.read() as conn:
        games = sorted(conn.execute(select(storage.games.c.id, storage.games.c.game)).all())
        seats = sorted(
            conn.execute(
                select(
                    storage.seats.c.game_id,
                    storage.seats.c.seat,
                    storage.seats.c.kind,
                    storage.seats.c.token_hash,
                    storage.seats.c.claimed,
                )
            ).all()
        )
        actions = sorted(conn.execute(select(storage.actions)).all())
        bots = {
            row[0]
            for row in conn.execute(
                select(storage.seats.c.game_id).where(storage.seats.c.left_to.is_not(None))
            ).all()
        }
    return games, seats, actions, bots


def _fixture_part(stored: Any, game_id: str) -> Any:
    games, seats, actions, bots = stored
    if game_id in bots:  # a seat left: its stand-in bot plays on in the background
        return games, seats
    return games, seats, [row for row in actions if row[0] == game_id]


def _request(case, game_id: str, token: str | None, real: bool) -> dict[str, Any]:
    if real and case.path_parameters and "game_id" in case.path_parameters:
        case.path_parameters["game_id"] = game_id
    kwargs = case.as_transport_kwargs(base_url="http://testserver")
    headers = {k: v for k, v in (kwargs.get("headers") or {}).items() if k.lower() != "authorization"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    elif "Authorization" in (kwargs.get("headers") or {}):
        headers["Authorization"] = kwargs["headers"]["Authorization"]
    request = {
        "method": kwargs["method"],
        "url": kwargs["url"],
        "headers": headers,
        "params": kwargs.get("params") or None,
    }
    if "json" in kwargs:
        request["json"] = kwargs["json"]
    elif kwargs.get("data") is not None:
        data = kwargs["data"]
        request["content"] = data if isinstance(data, bytes | str) else str(data)
    return request


@pytest.mark.parametrize("mode", MODES, ids=[m.value for m in MODES])
def test_every_route_answers_fuzzed_requests_below_500_and_refusals_change_nothing(client, mode):
    created = client.post(
        "/api/games",
        json={
            "game": "garum",
            "options": {"players": 3},
            "seats": ["human", "human", "human"],
            "claim": [0, 1],
        },
    ).json()
    game_id = created["id"]
    tokens = [s["token"] for s in created["seats"] if "token" in s]
    schema = schemathesis.openapi.from_dict(client.app.openapi())
    checked = 0
    for result in schema.get_all_operations():
        operation = result.ok()

        @settings(
            max_examples=MAX_EXAMPLES,
            deadline=None,
            database=None,
            phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(
            case=operation.as_strategy(generation_mode=mode),
            real=st.booleans(),
            token=st.sampled_from([None, *tokens, "not-a-token"]),
        )
        def fuzz(case, real, token):
            nonlocal checked
            try:
                request = _request(case, game_id, token, real)
                before = _stored(client)
                answer = client.request(**request)
            except (httpx.InvalidURL, httpx.LocalProtocolError, UnicodeEncodeError, ValueError):
                return  # not sendable over HTTP at all: no server would see it
            label = f"{request['method']} {request['url']} -> {answer.status_code}: {answer.text[:300]}"
            assert answer.status_code < 500, label
            if 400 <= answer.status_code < 500:
                assert answer.headers["content-type"].startswith("application/json"), label
                assert isinstance(answer.json()["detail"], str), label
                assert _fixture_part(_stored(client), game_id) == _fixture_part(before, game_id), label
            checked += 1

        try:
            fuzz()
        except Unsatisfiable:
            assert mode == GenerationMode.NEGATIVE, operation.label  # nothing to get wrong (GET /api/meta)
    assert checked >= MAX_EXAMPLES * 5  # most operations were reached


# -- near-valid bodies: what schema-driven fuzzing rarely builds ---------------------------------------
PADDING = st.text(alphabet=" \t\n\r", max_size=40)
KINDS = st.sampled_from(["human", "random", "greedy", "ismcts:seconds=0.5", "ismcts:seconds=3.0"])
NUMBERS = st.one_of(
    st.integers(min_value=-(10**400), max_value=10**400),
    st.floats(allow_nan=False),
    st.booleans(),
    st.text(max_size=5),
    st.none(),
)


def _raw_json(value: Any) -> str:
    import json

    if isinstance(value, float) and value != value:
        return "NaN"
    if isinstance(value, float) and abs(value) == float("inf"):
        return "1e400" if value > 0 else "-1e400"
    return json.dumps(value)


@settings(max_examples=25, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(
    kinds=st.lists(st.tuples(PADDING, KINDS, PADDING), min_size=2, max_size=2),
    seconds=NUMBERS,
    version=NUMBERS,
)
@pytest.mark.slow
def test_near_valid_requests_are_stored_canonically_or_refused_below_500(client, kinds, seconds, version):
    seats = [f"{left}{kind}{right}" for left, kind, right in kinds]
    body = f'{{"game": "garum", "seats": {_raw_json(seats)}, "options": {{"turn_seconds": {_raw_json(seconds)}}}}}'
    before = _stored(client)[0]
    created = client.post("/api/games", content=body, headers={"content-type": "application/json"})
    assert created.status_code < 500, created.text
    if created.status_code >= 400:
        assert _stored(client)[0] == before  # no game stored
        return
    stored = [s["kind"] for s in created.json()["seats"]]
    assert stored == [kind.replace("3.0", "3") for _, kind, _ in kinds]  # one spelling, whatever was sent
    assert all(len(kind) <= 32 for kind in stored)
    game = created.json()
    human = next((s for s in game["seats"] if s.get("token")), None)
    if human is None:
        return
    answer = client.post(
        f"/api/games/{game['id']}/actions",
        content=f'{{"action": "x", "version": {_raw_json(version)}}}',
        headers={"content-type": "application/json", "Authorization": f"Bearer {human['token']}"},
    )
    assert answer.status_code < 500, answer.text
    if not (isinstance(version, int) and not isinstance(version, bool)):
        assert answer.status_code == 422 and "version" in answer.json()["detail"]
