"""The move log tells the story: one entry per turn of a seat, in sentences a person reads, over every
log line of random games of every configuration of both games (players, boards, variants, solo)."""

from __future__ import annotations

import random
import re

import pytest

import ludus
from ludus.engine.hooks import hook
from ludus.server.errors import Unprocessable
from ludus.server.turnlog import TurnFold, group_turns, name_seats, with_game_turns
from ludus.server.views import game_turns

GARUM = [
    {"players": 2},
    {"players": 2, "two_player_workers": "shared", "rotation": False},
    {"players": 3},
    {"players": 3, "variant": "emperor", "species_bonus": "own"},
    {"players": 4, "board": "baelo_claudia"},
    {"players": 4, "variant": "haruspex", "colours": "red,yellow,green,blue"},
]
CELTAE = [
    {"players": 1},
    {"players": 1, "difficulty": "hard", "solo_adjacent": True},
    {"players": 2},
    {"players": 3, "token_moves_marker": True},
    {"players": 4},
]
CONFIGS = [("garum", o) for o in GARUM] + [("celtae", o) for o in CELTAE]
SEEDS = (1, 2, 3)

A_BEFORE_VOWEL = re.compile(r"(\ba|^A) [aeiouAEIOU]")
ORDINAL_NUMBER = re.compile(r"\b(worker|space|card|position) \d+ of\b")
SEAT_ZERO = re.compile(r"\b[Ss]eat 0\b")
NOTATION = re.compile(
    r"\b[OPUT][wtf]\b|\bc\d+\.\d\b|\b[VD] [hv]\d+\b|\bchoose c\d|\b(swap|take|pay|discard|enlist|release|centre"
    r"|progress|citadel|garrison|move) [A-Z0-9]|\b(done|pass)\b|\{seat:"
)


def play(game: str, options: dict, seed: int) -> list[dict]:
    """A random game's log as the server keeps it: each action with its seat and the renderer's words,
    and the turns the game played by itself, in order."""
    state = ludus.load_game(game, **options).new_initial_state(seed=seed)
    detail = hook(state.game, "renderer").log_detail
    rng = random.Random(seed)
    entries = []
    while not state.is_terminal():
        action = str(rng.choice(state.legal_actions()))
        entries.append({"seat": state.current_player(), "action": action, **detail(state, action)})
        state.apply_action(action)
    return with_game_turns(entries, game_turns(state))


def problems(text: str, action: str | None = None) -> list[str]:
    found = []
    for name, pattern in (
        ("'a' before a vowel", A_BEFORE_VOWEL),
        ("a number for an ordinal", ORDINAL_NUMBER),
        ("seat 0", SEAT_ZERO),
        ("notation", NOTATION),
    ):
        if pattern.search(text):
            found.append(f"{name}: {text!r}")
    if re.search(r"\bpass(ed)?\b", text):
        found.append(f"'passed': {text!r}")
    if action is not None and text.strip() == action:
        found.append(f"bare notation: {text!r}")
    return found


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=lambda x: x if isinstance(x, str) else repr(x))
def test_every_log_line_reads_as_a_sentence(game, options):
    names = {0: None, 1: "Ann"}  # an unnamed seat reads "Seat 1", a named one by its name
    lines = 0
    bad: list[str] = []
    for seed in SEEDS:
        entries = play(game, options, seed)
        for entry in entries:
            bad += problems(name_seats(entry["text"], names), entry["action"])
            for step in entry.get("play", []):
                bad += problems(step["text"])
        for turn in group_turns(entries, names):
            bad += problems(f"{turn['name']} {turn['text']}")
            lines += 1
    assert lines > 20
    assert bad == []


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=lambda x: x if isinstance(x, str) else repr(x))
def test_one_entry_per_turn_of_a_seat(game, options):
    entries = play(game, options, seed=4)
    turns = group_turns(entries, {})
    ends = [0] + [t["steps"][1] for t in turns]
    assert [t["steps"][0] for t in turns] == ends[:-1]  # the turns cover every entry once, in order
    assert ends[-1] == len(entries)
    opening = [i for i, e in enumerate(entries) if e.get("turn") or "after" in e]
    main = [
        t for t in turns if any(entries[i].get("turn") or "after" in entries[i] for i in range(*t["steps"]))
    ]
    assert len(main) == len(opening)  # each turn one entry: never split, never two in one
    for turn in main:
        first, end = turn["steps"]
        actors = {entries[i].get("owner", entries[i]["seat"]) for i in range(first, end)}
        assert actors == {turn["seat"]}
    assert any("round" in t for t in turns)


def test_a_turn_says_its_consequences_and_no_declined_option():
    """A Farm whose optional steps were declined: the free card is said, the declines are not."""
    entries = play("celtae", {"players": 2}, seed=3)
    turns = group_turns(entries, {})
    farms = [t for t in turns if "chose to farm" in t["text"]]
    assert farms and all("free card" in t["text"] for t in farms)
    declined = [i for i, e in enumerate(entries) if e["action"] == "done"]
    assert declined
    for turn in turns:
        for i in range(*turn["steps"]):
            if entries[i]["action"] == "done" and not entries[i].get("summary"):
                assert entries[i]["text"] not in turn["text"]


def test_the_leaders_revealed_name_every_seat():
    for seed in range(1, 30):
        entries = play("celtae", {"players": 3}, seed=seed)
        shown = [e["text"] for e in entries if "leaders are revealed" in e["text"]]
        if shown:
            text = name_seats(shown[0], {2: "Cid"})
            assert "Seat 1 " in text and "Seat 2 " in text and "Cid " in text
            return
    pytest.fail("no game reached the leader flip")


def test_solitairix_turn_joins_the_decisions_it_asked_for():
    for seed in range(1, 20):
        entries = play("celtae", {"players": 1}, seed=seed)
        turns = group_turns(entries, {})
        asked = [t for t in turns if t["seat"] == 1 and t["steps"][1] - t["steps"][0] > 1]
        if asked:
            turn = asked[0]
            assert turn["name"] == "Solitairix"
            assert turn["text"].startswith("drew ")  # its own turn first, then what it asked
            assert "Seat 1 placed a progress marker" in turn["text"]
            return
    pytest.fail("no Solitairix turn asked for a decision")


def test_a_game_without_words_says_each_turn_as_what_the_seat_played():
    """A plugin's actions have no words: a turn reads "<name> played roll, roll and hold", never the
    bare notation, and another seat's step in it names that seat."""
    log = [
        {"seat": 0, "action": "roll"},
        {"seat": 0, "action": "roll"},
        {"seat": 0, "action": "hold"},
        {"seat": 1, "action": "bid 2x2"},
    ]
    turns = group_turns(log, {0: None, 1: "Ann"})
    assert [(t["name"], t["text"], t["steps"]) for t in turns] == [
        ("Seat 1", "played roll, roll and hold", [0, 3]),
        ("Ann", "played bid 2x2", [3, 4]),
    ]


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=lambda x: x if isinstance(x, str) else repr(x))
def test_a_fold_fed_piece_by_piece_tells_the_turns_of_the_whole_log(game, options):
    """The server words a growing log by feeding a ``TurnFold`` each move's entries: at every length its
    turns are those of the log so far, and every turn but the last is already as the whole log tells it."""
    entries = play(game, options, seed=5)
    whole = group_turns(entries, {1: "Ann"})
    fold = TurnFold({1: "Ann"})
    rng = random.Random(5)
    while fold.entries < len(entries):
        fold.feed(entries[fold.entries : fold.entries + rng.randint(1, 4)])
        so_far = [fold.turn(i) for i in range(fold.count)]
        assert so_far == group_turns(entries[: fold.entries], {1: "Ann"})
        assert so_far[:-1] == whole[: fold.count - 1]
    assert [fold.turn(i) for i in range(fold.count)] == whole


def test_the_views_turns_are_the_turns_of_its_log_after_moves_and_an_undo(service):
    """Kept between moves (views._public_turns), a view's turns are still its log's, told afresh,
    through moves of both seats and an undo that takes a move back."""
    created = service.lobby.create("garum", {"players": 2}, ["human", "human"])
    gid, tokens = created["id"], {s["seat"]: s["token"] for s in created["seats"]}
    rng = random.Random(3)
    undos = 0
    for step in range(60):
        seat = service.view(gid, None)["current_player"]
        view = service.view(gid, tokens[seat])
        assert view["turns"] == group_turns(view["log"], {0: None, 1: None}), step
        played = service.moves.act(gid, tokens[seat], rng.choice(view["legal_actions"]), view["version"])
        if played["current_player"] == seat and undos < 3:  # a move that left the turn open: taken back
            before = len(played["log"])
            try:
                undone = service.moves.undo(gid, tokens[seat], played["version"])
            except Unprocessable:  # settled: something new was seen
                continue
            assert len(undone["log"]) < before
            assert undone["turns"] == group_turns(undone["log"], {0: None, 1: None})
            undos += 1
    assert undos >= 2
