"""A replay is answered one step at a time, each answer bounded, the same however it was reached.

The whole replay in one answer (``step: "all"``, ``/replay/all``) was up to 11 MB and a second of
CPU per request; now a viewer asks for each step it shows, and the server steps on from the
states it kept (``ludus.server.replays.ReplayStates``) rather than from the first action.
"""

from __future__ import annotations

import random

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ludus
from ludus.server import replays
from ludus.server.replays import ReplayStates
from ludus.web import routes
from ludus.web.routes import MAX_ANSWER_BYTES, replay_step


def played(game, seed, moves=None, **options):
    """A record of random legal moves from ``seed``: to the end, or ``moves`` of them."""
    state = ludus.load_game(game, **options).new_initial_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal() and (moves is None or len(state.history()) < moves):
        state.apply_action(rng.choice(state.legal_actions()))
    return state.record()


def longest(game, **options):
    """The longest of a few random 4-player games: the replay with the most (and largest) views."""
    return max((played(game, seed, **options) for seed in range(4)), key=lambda r: len(r["actions"]))


@pytest.mark.parametrize(
    ("game", "options"), [("celtae", {"players": 4}), ("garum", {"players": 4, "variant": "emperor"})]
)
def test_no_replay_answer_of_a_long_4_player_game_exceeds_1_mb(client, game, options):
    record = longest(game, **options)
    n = len(record["actions"])
    told = client.post("/api/replay", json={"record": record, "step": 0, "turns": True})
    assert told.status_code == 200, told.text
    sizes = [len(told.content)]  # the first step with the record told by turns
    for step in [*range(n + 1), "all"]:
        answer = client.post("/api/replay", json={"record": record, "step": step})
        assert answer.status_code == 200 or step == "all", answer.text
        sizes.append(len(answer.content))
    assert max(sizes) <= MAX_ANSWER_BYTES == 1_000_000, max(sizes)


@pytest.mark.parametrize("step", ["all", "3", 2.5, True, None, [1]])
def test_a_posted_step_that_is_not_an_integer_0_to_n_is_refused_saying_so(client, step):
    record = played("garum", 1, moves=6, players=2)
    answer = client.post("/api/replay", json={"record": record, "step": step})
    assert answer.status_code == 422
    assert answer.json()["detail"].startswith("step must be an integer 0..6, got ")


def test_the_whole_replay_route_is_gone_with_a_4xx_that_says_to_ask_step_by_step(client):
    answer = client.get("/api/games/abc/replay/all")
    assert answer.status_code == 410 and "?step=N" in answer.json()["detail"]


def test_an_answer_leaves_out_the_records_actions_and_says_who_took_each(client):
    record = played("celtae", 3, moves=30, players=3)
    answer = client.post("/api/replay", json={"record": record, "step": 12}).json()
    assert "actions" not in answer
    assert answer["actors"] == [e["seat"] for e in ludus.replay(record).log(None)]
    assert answer["action"] == record["actions"][11] and answer["steps"] == 30
    assert answer["observation"] == ludus.replay(record, upto=12).observation(None)


def test_svg_false_draws_no_board_and_svg_must_be_a_boolean(client):
    record = played("garum", 2, moves=10, players=2)
    assert client.post("/api/replay", json={"record": record, "step": 4, "svg": False}).json()["svg"] is None
    assert client.post("/api/replay", json={"record": record, "step": 4}).json()["svg"].startswith("<svg")
    answer = client.post("/api/replay", json={"record": record, "step": 4, "svg": "yes"})
    assert answer.status_code == 422 and "svg must be true or false" in answer.json()["detail"]


def test_a_step_comes_gzipped_to_a_client_that_takes_gzip(client):
    record = played("garum", 5, players=2)
    answer = client.post(
        "/api/replay", json={"record": record, "step": 40}, headers={"Accept-Encoding": "gzip"}
    )
    assert answer.headers["content-encoding"] == "gzip"
    assert int(answer.headers["content-length"]) < len(answer.content) / 3


def test_an_answer_beyond_the_size_bound_is_refused_not_sent(client, monkeypatch):
    monkeypatch.setattr(routes, "MAX_ANSWER_BYTES", 2_000)
    answer = client.post("/api/replay", json={"record": played("garum", 1, moves=3, players=2), "step": 3})
    assert (
        answer.status_code == 422 and "more than the 2000 a replay answer may be" in answer.json()["detail"]
    )


@pytest.mark.parametrize(
    ("record", "step", "says"),
    [
        ({"game": "garum"}, 0, "lacks config, seed, actions"),
        ({"game": "garum", "config": {}, "seed": 1, "actions": ["nonsense"]}, 0, "action 1 ('nonsense')"),
        ({"game": "nonesuch", "config": {}, "seed": 1, "actions": []}, 0, "cannot be loaded"),
    ],
)
def test_a_bad_record_is_refused_whole_whatever_the_step_saying_why(client, record, step, says):
    answer = client.post("/api/replay", json={"record": record, "step": step})
    assert answer.status_code == 422 and says in answer.json()["detail"]


def test_replay_work_beyond_what_the_pool_takes_is_503_with_retry_after(client, monkeypatch):
    """Steps past the places to wait for the pool are told at once to come back, not queued."""
    monkeypatch.setattr(routes, "REPLAYS_WAITING", 0)
    answer = client.post("/api/replay", json={"record": played("garum", 1, moves=2, players=2), "step": 1})
    assert answer.status_code == 503 and int(answer.headers["Retry-After"]) >= 1
    assert "busy replaying" in answer.json()["detail"]


# short records of each game (steps past their ends are asked too: refused the same either way)
RECORDS = [
    played("garum", 3, moves=60, players=2),
    played("garum", 4, moves=45, players=3, variant="haruspex"),
    played("celtae", 5, moves=60, players=2),
    played("celtae", 6, moves=40, players=1),
]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    asks=st.lists(
        st.tuples(st.integers(0, len(RECORDS) - 1), st.integers(-2, 62), st.booleans(), st.booleans()),
        max_size=25,
    ),
    size=st.integers(0, 6),
    every=st.integers(1, 30),
)
def test_stepping_from_kept_states_answers_exactly_as_a_fresh_replay(asks, size, every):
    states = ReplayStates(size=size, every=every)
    for which, step, svg, turns in asks:
        record = RECORDS[which]
        try:
            fresh = orjson.dumps(replay_step(record, step, svg, None, turns), option=orjson.OPT_NON_STR_KEYS)
        except ValueError as exc:
            with pytest.raises(ValueError) as kept_error:
                replay_step(record, step, svg, states, turns)
            assert str(kept_error.value) == str(exc)
            continue
        kept = orjson.dumps(replay_step(record, step, svg, states, turns), option=orjson.OPT_NON_STR_KEYS)
        assert kept == fresh, (which, step)


def test_kept_states_are_bounded_and_a_step_on_applies_one_action(monkeypatch):
    states = ReplayStates(size=8, every=10)
    record = played("celtae", 7, moves=50, players=2)
    states.replay(record, 20)
    applied = []
    real = replays.apply_recorded
    monkeypatch.setattr(replays, "apply_recorded", lambda s, r, i: (applied.append(i), real(s, r, i)))
    states.replay(record, 21)
    assert applied == [20]  # one action on from step 20, not 21 from the start
    applied.clear()
    states.replay(record, 12)
    assert applied == [10, 11]  # back from the state kept at step 10
    for seed in range(6):
        states.replay(played("garum", seed, moves=5, players=2), 5)
    assert len(states._states) <= 8 and len(states._facts) <= 8
