"""A replay tells its record by turns, as the table's log told them: every configuration's random game
gives turns that cover every decision exactly once and in order, each seat named as at the table; a
finished game's replay gives the very turns its table's log showed; a posted record's names are checked."""

from __future__ import annotations

import random

import pytest
from test_turn_log import CONFIGS  # every configuration of both games

import ludus
from ludus.engine.hooks import hook
from ludus.server.turnlog import group_turns, with_game_turns
from ludus.server.views import game_turns
from ludus.web.routes import replay_step

TABLE = ["Ann", None, "Cid", None]  # as a record names its seats: an unnamed seat is null


def played(game: str, options: dict, seed: int) -> dict:
    """A random game to its end, as the server records it with its seats' names."""
    state = ludus.load_game(game, **options).new_initial_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return {**state.record(), "names": TABLE[: options["players"]]}


def table_log(record: dict) -> list[dict]:
    """The log a live table kept of the same game: each action with the renderer's words, and the
    turns the game played by itself after theirs (as ``views.seat_log``)."""
    state = ludus.load_game(record["game"], **record["config"]).new_initial_state(seed=record["seed"])
    detail = hook(state.game, "renderer").log_detail
    entries = []
    for action in record["actions"]:
        entries.append({"seat": state.current_player(), "action": action, **detail(state, action)})
        state.apply_action(action)
    return with_game_turns(entries, game_turns(state))


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=lambda x: x if isinstance(x, str) else repr(x))
def test_the_turns_cover_every_decision_once_in_order_with_the_tables_names(game, options):
    record = played(game, options, seed=5)
    n = len(record["actions"])
    turns = replay_step(record, 0, svg=False, turns=True)["turns"]
    names = dict(enumerate(record["names"]))
    ends = [0] + [t["actions"][1] for t in turns]
    assert [t["actions"][0] for t in turns] == ends[:-1] and ends[-1] == n  # contiguous, every decision
    decided = [s["step"] for t in turns for s in t["steps"] if "step" in s]
    assert decided == list(range(1, n + 1))  # each decision listed once, in order, in its own turn
    for turn in turns:
        first, end = turn["actions"]
        assert [s["step"] for s in turn["steps"] if "step" in s] == list(range(first + 1, end + 1))
        for said in [turn, *turn["steps"]]:
            seat = said["seat"]
            if seat < len(names):  # a seat of the table (not one the game plays itself)
                assert said["name"] == (names[seat] or f"Seat {seat + 1}")
            assert "Seat 0" not in said["name"] and "Seat 0" not in said["text"]
        for step in turn["steps"]:
            if "step" in step:
                assert step["action"] == record["actions"][step["step"] - 1]
    # the table's own log told by the same code: the same sentences, seats and rounds
    told = group_turns(table_log(record), names)
    assert [(t["seat"], t["name"], t["text"], t.get("round")) for t in turns] == [
        (t["seat"], t["name"], t["text"], t.get("round")) for t in told
    ]


def test_a_solo_games_own_turns_list_what_it_played_and_cover_no_decision():
    for seed in range(1, 10):
        record = played("celtae", {"players": 1}, seed)
        turns = replay_step(record, 0, svg=False, turns=True)["turns"]
        own = [t for t in turns if t["actions"][0] == t["actions"][1]]
        if own:
            assert all(t["steps"] and all("step" not in s for s in t["steps"]) for t in own)
            assert all(t["name"] != "Seat 2" for t in own)  # the game names the seat it plays itself
            return
    pytest.fail("no solo game had a turn of the game's own without a decision")


def test_turns_come_only_when_asked_and_the_same_from_kept_states(client):
    record = played("garum", {"players": 2}, seed=2)
    plain = client.post("/api/replay", json={"record": record, "step": 3})
    assert plain.status_code == 200 and "turns" not in plain.json()
    told = client.post("/api/replay", json={"record": record, "step": 3, "turns": True, "svg": False})
    assert told.status_code == 200, told.text
    assert told.json()["turns"] == replay_step(record, 3, svg=False, turns=True)["turns"]


@pytest.mark.parametrize(
    ("names", "says"),
    [
        ("Ann", "names must be a list"),
        ([1, 2], "names must be a list"),
        (["x" * 65], "each 1 to 64 characters or null"),
        (["   "], "each 1 to 64 characters or null"),
        (["Ann"] * 17, "at most 16 names"),
    ],
)
def test_a_posted_records_names_must_be_a_short_list_of_names_or_nulls(client, names, says):
    record = {**played("garum", {"players": 2}, seed=1), "names": names}
    answer = client.post("/api/replay", json={"record": record, "step": 0, "turns": True})
    assert answer.status_code == 422 and says in answer.json()["detail"]


def test_turns_must_be_true_or_false(client):
    record = played("garum", {"players": 2}, seed=1)
    answer = client.post("/api/replay", json={"record": record, "turns": "yes"})
    assert answer.status_code == 422 and "turns must be true or false" in answer.json()["detail"]


def test_a_finished_games_replay_tells_the_turns_its_table_showed(client):
    body = {"game": "garum", "options": {"players": 2}, "seats": ["human", "human"], "names": ["Ann", "Bo"]}
    created = client.post("/api/games", json=body).json()
    gid, tokens = created["id"], {s["seat"]: s["token"] for s in created["seats"]}
    rng = random.Random(4)
    while not (view := client.get(f"/api/games/{gid}").json())["terminal"]:
        auth = {"Authorization": f"Bearer {tokens[view['current_player']]}"}
        legal = client.get(f"/api/games/{gid}", headers=auth).json()["legal_actions"]
        move = {"action": rng.choice(legal), "version": view["version"]}
        assert client.post(f"/api/games/{gid}/actions", json=move, headers=auth).status_code == 200
    answer = client.get(f"/api/games/{gid}/replay", params={"step": 0, "svg": "false", "turns": "true"})
    assert answer.status_code == 200, answer.text
    turns = answer.json()["turns"]
    assert {t["name"] for t in turns} == {"Ann", "Bo"}
    assert [(t["seat"], t["name"], t["text"], t.get("round"), t["actions"]) for t in turns] == [
        (t["seat"], t["name"], t["text"], t.get("round"), t["steps"]) for t in view["turns"]
    ]
    assert "turns" not in client.get(f"/api/games/{gid}/replay", params={"step": 1}).json()
