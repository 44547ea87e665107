"""Display names: given at create or join, bounded, no control characters, stored with the seat and shown
in every view's seats; names people can read (two visible letters or digits, no invisible fillers, no
stacked marks, not a bot's name, not another seat's at the table, lookalikes included); a bad name is
refused with a clear 422 and changes nothing; a seat that left keeps its name."""

from __future__ import annotations

import string
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ludus.server.names import INVISIBLE, imitated_bot, same_reading
from ludus.server.schemas import MAX_NAME_LENGTH, display_name


def _seats(client, game_id, token=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.get(f"/api/games/{game_id}", headers=headers).json()["seats"]


def test_names_given_at_create_are_stored_with_the_seats_and_shown_to_everyone(client):
    r = client.post(
        "/api/games",
        json={"game": "garum", "seats": ["human", "random", "human"], "names": ["  Ann  ", None, "Bo"]},
    )
    assert r.status_code == 201, r.text
    body = r.json()
    assert [s["name"] for s in body["seats"]] == ["Ann", None, "Bo"]
    assert [s["name"] for s in _seats(client, body["id"])] == ["Ann", None, "Bo"]
    assert [s["name"] for s in _seats(client, body["id"], body["seats"][2]["token"])] == ["Ann", None, "Bo"]


def test_a_name_given_at_join_is_stored_with_the_seat_joined(client):
    body = client.post(
        "/api/games",
        json={"game": "garum", "seats": ["human", "human"], "claim": [0], "names": ["Ann", None]},
    ).json()
    listed = {g["id"]: g for g in client.get("/api/games").json()}[body["id"]]
    assert [s["name"] for s in listed["seats"]] == ["Ann", None]
    joined = client.post(f"/api/games/{body['id']}/join", json={"name": "Cleo"})
    assert joined.status_code == 200, joined.text
    assert [s["name"] for s in _seats(client, body["id"])] == ["Ann", "Cleo"]


def test_join_without_a_body_still_works_and_leaves_the_name_empty(client):
    body = client.post("/api/games", json={"game": "garum", "seats": ["human", "human"], "claim": [0]}).json()
    assert client.post(f"/api/games/{body['id']}/join").status_code == 200
    assert [s["name"] for s in _seats(client, body["id"])] == [None, None]


@pytest.mark.parametrize(
    "bad", ["a\x00b", "tab\there", "x" * (MAX_NAME_LENGTH + 1), "evil\u202eeman", "a\u2028b"]
)
def test_a_bad_name_at_create_is_refused_and_creates_nothing(client, bad):
    before = len(client.get("/api/games").json())
    r = client.post(
        "/api/games", json={"game": "garum", "seats": ["human", "human"], "names": [bad, None], "claim": [0]}
    )
    assert r.status_code == 422 and "name" in r.json()["detail"]
    assert len(client.get("/api/games").json()) == before


def test_a_name_the_creator_gave_a_free_seat_stays_unless_the_joiner_gives_one(client):
    body = client.post(
        "/api/games",
        json={
            "game": "garum",
            "seats": ["human", "human", "human"],
            "claim": [0],
            "names": ["Ann", "Bo", "Cy"],
        },
    ).json()
    assert client.post(f"/api/games/{body['id']}/join").status_code == 200
    assert client.post(f"/api/games/{body['id']}/join", json={"name": "Cleo"}).status_code == 200
    assert [s["name"] for s in _seats(client, body["id"])] == ["Ann", "Bo", "Cleo"]


def test_a_bad_name_at_join_is_refused_and_the_seat_stays_free(client):
    body = client.post("/api/games", json={"game": "garum", "seats": ["human", "human"], "claim": [0]}).json()
    r = client.post(f"/api/games/{body['id']}/join", json={"name": "x\x07"})
    assert r.status_code == 422 and "control" in r.json()["detail"]
    assert [s["free"] for s in _seats(client, body["id"])] == [False, True]


def test_a_bot_seat_takes_no_name_and_names_come_one_per_seat(client):
    r = client.post(
        "/api/games", json={"game": "garum", "seats": ["human", "random"], "names": ["Ann", "Bot"]}
    )
    assert r.status_code == 422 and "bot" in r.json()["detail"]
    r = client.post("/api/games", json={"game": "garum", "seats": ["human", "random"], "names": ["Ann"]})
    assert r.status_code == 422 and "one per seat" in r.json()["detail"]


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=3 * MAX_NAME_LENGTH))
def test_a_stored_name_is_trimmed_bounded_and_free_of_control_characters(text):
    try:
        name = display_name(text)
    except ValueError:
        return
    if name is None:
        assert not text.strip()
        return
    assert name == name.strip() and 1 <= len(name) <= MAX_NAME_LENGTH
    assert not any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in name)
    assert len(name.splitlines()) == 1


def test_a_seat_names_itself_with_its_token_and_only_itself(client):
    body = client.post("/api/games", json={"game": "garum", "seats": ["human", "human"]}).json()
    tokens = [s["token"] for s in body["seats"]]
    url = f"/api/games/{body['id']}/name"
    r = client.post(url, json={"name": " Dana "}, headers={"Authorization": f"Bearer {tokens[1]}"})
    assert r.status_code == 200 and r.json() == {"id": body["id"], "seat": 1, "name": "Dana"}
    assert [s["name"] for s in _seats(client, body["id"])] == [None, "Dana"]
    assert client.post(url, json={"name": "Eve"}).status_code == 401  # no token: nobody's seat
    bad = client.post(url, json={"name": "a\x1bb"}, headers={"Authorization": f"Bearer {tokens[0]}"})
    assert bad.status_code == 422
    cleared = client.post(url, json={"name": ""}, headers={"Authorization": f"Bearer {tokens[1]}"})
    assert cleared.status_code == 200
    assert [s["name"] for s in _seats(client, body["id"])] == [None, None]


# Each refused with the words its 422 says why; the first ones are the hostile-client probe's.
UNREADABLE = [
    ("\u3164", "invisible"),  # HANGUL FILLER alone: a letter (Lo) that shows nothing
    ("\u2800", "invisible"),  # BRAILLE PATTERN BLANK alone
    ("a" + "\u0301" * 31, "combining marks"),  # 31 marks stacked on one letter
    ("greedy (bot)", "reads as 'greedy'"),
    ("Greedy", "reads as 'greedy'"),
    ("\uff47\uff52\uff45\uff45\uff44\uff59", "reads as 'greedy'"),  # fullwidth
    ("gr\u0435edy", "reads as 'greedy'"),  # a Cyrillic е
    ("Expert CPU", "reads as 'expert'"),
    ("ISMCTS-bot", "reads as 'ismcts'"),
    ("Robot", "reads as 'bot'"),
    ("Ann\u3164", "invisible"),
    ("\u115f\u1160\uffa0", "invisible"),
    ("x\u0301\u0302\u0303", "combining marks"),
    ("A", "at least 2 letters or digits"),
    ("- . -", "at least 2 letters or digits"),
]


@pytest.mark.parametrize("bad, why", UNREADABLE)
def test_a_name_people_cannot_read_is_refused_at_create_join_and_rename(client, bad, why):
    r = client.post("/api/games", json={"game": "garum", "seats": ["human", "human"], "names": [bad, None]})
    assert r.status_code == 422 and why in r.json()["detail"], r.text
    body = client.post("/api/games", json={"game": "garum", "seats": ["human", "human"], "claim": [0]}).json()
    r = client.post(f"/api/games/{body['id']}/join", json={"name": bad})
    assert r.status_code == 422 and why in r.json()["detail"], r.text
    r = client.post(
        f"/api/games/{body['id']}/name",
        json={"name": bad},
        headers={"Authorization": f"Bearer {body['seats'][0]['token']}"},
    )
    assert r.status_code == 422 and why in r.json()["detail"], r.text
    assert [(s["name"], s["free"]) for s in _seats(client, body["id"])] == [(None, False), (None, True)]


@pytest.mark.parametrize("good", ["Bo", "Ann 2", "José", "Zoë", "李雷", "Thị Hà", "Abbot", "R2"])
def test_short_accented_and_other_scripts_names_are_still_accepted(good):
    assert display_name(good) == unicodedata.normalize("NFC", good)


@pytest.mark.parametrize("taken", ["Ann", "ann", "ANN", "\u0410nn", "A.nn", "\uff21\uff4e\uff4e"])
def test_a_stranger_cannot_join_under_the_creators_name_or_a_lookalike_of_it(client, taken):
    body = client.post(
        "/api/games",
        json={"game": "garum", "seats": ["human", "human"], "claim": [0], "names": ["Ann", None]},
    ).json()
    r = client.post(f"/api/games/{body['id']}/join", json={"name": taken})
    assert r.status_code == 422 and "reads as 'Ann', seat 0's name" in r.json()["detail"], r.text
    assert [(s["name"], s["free"]) for s in _seats(client, body["id"])] == [("Ann", False), (None, True)]
    assert client.post(f"/api/games/{body['id']}/join", json={"name": "Anna"}).status_code == 200


@pytest.mark.parametrize("names", [["Bo", "bo"], ["Ian", "lan"], ["Cleo", "C1eo"], ["Eve", "\u0415ve"]])
def test_two_seats_at_create_may_not_share_a_name(client, names):
    r = client.post("/api/games", json={"game": "garum", "seats": ["human", "human"], "names": names})
    assert r.status_code == 422 and "names: seat 1" in r.json()["detail"] and "seat 0's name" in r.text


def test_a_seat_cannot_rename_itself_as_another_seat_but_may_keep_its_own(client):
    body = client.post(
        "/api/games", json={"game": "garum", "seats": ["human", "human"], "names": ["Ann", "Bo"]}
    ).json()
    url = f"/api/games/{body['id']}/name"
    auth = {"Authorization": f"Bearer {body['seats'][1]['token']}"}
    r = client.post(url, json={"name": "\u0430nn"}, headers=auth)  # a Cyrillic а
    assert r.status_code == 422 and "seat 0's name" in r.json()["detail"]
    assert client.post(url, json={"name": "BO"}, headers=auth).status_code == 200  # its own, recased
    assert [s["name"] for s in _seats(client, body["id"])] == ["Ann", "BO"]


def test_a_seat_that_left_cannot_rename_itself(client):
    body = client.post(
        "/api/games", json={"game": "garum", "seats": ["human", "human"], "names": ["Ann", "Bo"]}
    ).json()
    auth = {"Authorization": f"Bearer {body['seats'][0]['token']}"}
    assert client.post(f"/api/games/{body['id']}/leave", headers=auth).status_code == 200
    r = client.post(f"/api/games/{body['id']}/name", json={"name": "Cleo"}, headers=auth)
    assert r.status_code == 403 and "left" in r.json()["detail"]
    assert [s["name"] for s in _seats(client, body["id"])][0] == "Ann"


_HOSTILE = st.text(alphabet="ab1 .\u3164\u2800\u115f\u0301\u0302\u0303\u0435", max_size=12)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=3 * MAX_NAME_LENGTH), _HOSTILE))
def test_an_accepted_name_shows_two_letters_or_digits_no_stacked_marks_and_no_bot(text):
    try:
        name = display_name(text)
    except ValueError:
        return
    if name is None:
        return
    assert sum(unicodedata.category(c)[0] in "LN" and c not in INVISIBLE for c in name) >= 2
    assert not any(c in INVISIBLE for c in name)
    marks = 0
    for c in name:
        marks = marks + 1 if unicodedata.category(c).startswith("M") else 0
        assert marks <= 2
    assert imitated_bot(name) is None


_LOOKALIKES = str.maketrans("aceopxyABCEHKMOPTX", "асеорхуАВСЕНКМОРТХ")  # Cyrillic


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=string.ascii_letters + string.digits + " ", min_size=2, max_size=MAX_NAME_LENGTH))
def test_a_name_reads_as_itself_recased_or_spelled_with_cyrillic_lookalikes(name):
    assert same_reading(name, name.swapcase())
    assert same_reading(name, name.translate(_LOOKALIKES))
    assert same_reading(name, unicodedata.normalize("NFKC", name).upper())
