"""Few clicks: a decision with one legal action is played for the seat (and logged as such), the
optional steps a move skips are passed over in one all-or-nothing request, undo goes back to the
seat's last real decision, a timed-out turn says so, and Solitairix's whole turns are in the log."""

from __future__ import annotations

import random

import pytest

import ludus
from ludus.server.errors import Unprocessable
from ludus.server.service import TurnClock


def new_game(service, players=2):
    created = service.lobby.create(
        "celtae", {"players": players} | ({"difficulty": "easy"} if players == 1 else {}), ["human"] * players
    )
    return created["id"], {s["seat"]: s["token"] for s in created["seats"]}


def to_move(service, gid, tokens):
    view = service.view(gid, None)
    seat = view["current_player"]
    return seat, view if view["terminal"] else service.view(gid, tokens[seat])


def play_randomly(service, gid, tokens, rng, decisions):
    """Up to ``decisions`` decisions from the views, as a person would; every view shown is returned."""
    shown = []
    for _ in range(decisions):
        seat, view = to_move(service, gid, tokens)
        if view["terminal"]:
            break
        shown.append(view)
        service.moves.act(gid, tokens[seat], rng.choice(view["legal_actions"]), view["version"])
    return shown


def test_no_single_choice_decision_is_shown_and_the_record_replays(service):
    """In 2-player games played to the end, the forced citadel/enlist/pay steps are played for the seat,
    marked 'auto' in the log, never shown as a decision; each record replays to the same state."""
    seen: set[str] = set()
    for seed in range(40):  # a game has a few forced steps, some none: play until some were met (~2.6 games)
        gid, tokens = new_game(service)
        shown = play_randomly(service, gid, tokens, random.Random(seed), 2000)
        assert service.view(gid, None)["terminal"]
        assert all(len(v["legal_actions"]) >= 2 for v in shown)
        log = service.view(gid, tokens[0])["log"]
        seen |= {e["action"].split()[0] for e in log if e.get("auto")}
        record = service.record(gid)
        assert ludus.replay(record).to_json() == service.games._runtimes[gid].state.to_json()
        # the marks are a fact of the record: every auto step was the only legal action then
        state = ludus.load_game("celtae", **record["config"]).new_initial_state(seed=record["seed"])
        for entry, text in zip(log, record["actions"], strict=True):
            assert bool(entry.get("auto")) == (len(state.legal_actions()) == 1)
            state.apply_action(text)
        if len(seen & {"citadel", "enlist", "pay"}) >= 2:
            return
    raise AssertionError(f"forced citadel/enlist/pay steps never met; automatic steps seen: {seen}")


def _decision_then_forced(service, gid, tokens, rng):
    """Play until a seat's decision is followed by single-choice steps of its own, still its turn."""
    for _ in range(3000):
        seat, view = to_move(service, gid, tokens)
        assert not view["terminal"], "no decision followed by an automatic step"
        before = service.games._runtimes[gid].state.clone()
        action = rng.choice(view["legal_actions"])
        after = service.moves.act(gid, tokens[seat], action, view["version"])
        rt = service.games._runtimes[gid]
        n = len(before.history())
        if (
            after["current_player"] == seat
            and len(rt.owners) > n + 1
            and rt.forced[n + 1]
            and rt.state.undo_barrier() <= n
        ):
            return seat, before, after
    raise AssertionError("no decision followed by an automatic step")


def test_undo_never_stops_on_an_automatic_step(service):
    for seed in range(10):  # games until a decision is followed by automatic steps of the same turn
        gid, tokens = new_game(service)
        try:
            seat, before, after = _decision_then_forced(service, gid, tokens, random.Random(seed))
            break
        except AssertionError:
            continue
    else:
        raise AssertionError("no decision followed by an automatic step in ten games")
    undone = service.moves.undo(gid, tokens[seat], after["version"])
    rt = service.games._runtimes[gid]
    assert len(rt.owners) <= len(before.history())
    assert len(undone["legal_actions"]) >= 2  # back at a real decision, not a one-answer question
    assert rt.state.to_json() == ludus.replay(rt.record()).to_json()


def _facing_optional_step(service, gid, tokens, rng):
    """Play until the seat to move is offered its optional steps' skip with a decision past them (not a
    skip that ends its run: ``finish``, whose targets are empty)."""
    for _ in range(3000):
        seat, view = to_move(service, gid, tokens)
        assert not view["terminal"], "no optional step met"
        if view["after_skip"] and "finish" not in view["after_skip"]:
            return seat, view
        service.moves.act(gid, tokens[seat], rng.choice(view["legal_actions"]), view["version"])
    raise AssertionError("no optional step met")


def test_a_move_skips_the_optional_steps_in_one_request(service):
    undone = 0
    for seed in range(40):  # until two moves past the skips were taken back (some games offer none)
        gid, tokens = new_game(service)
        rng = random.Random(seed)
        seat, view = _facing_optional_step(service, gid, tokens, rng)
        skip = view["after_skip"]
        assert skip["skip"] and all(a == "done" for a in skip["skip"]) and skip["legal"]
        # the targets are what the seat would face after skipping (computed on a copy: nothing changed)
        rt = service.games._runtimes[gid]
        n = len(rt.owners)
        target = rng.choice(skip["legal"])
        new = service.moves.act(
            gid, tokens[seat], skip["skip"][0], view["version"], [*skip["skip"][1:], target]
        )
        assert new["version"] > view["version"]
        texts = rt.state.history()[n:]
        chosen = [t for t, f in zip(texts, rt.forced[n:], strict=True) if not f]
        assert chosen == [*skip["skip"], target]
        # undo takes the move and its skips back to the optional step the seat was shown
        if rt.state.current_player() == seat and rt.state.undo_barrier() <= n:
            back = service.moves.undo(gid, tokens[seat], new["version"])
            assert len(rt.owners) == n and back["after_skip"] == skip
            undone += 1
            if undone >= 2:
                return
    assert undone, "no move past the optional steps could be taken back"


def test_a_refused_sequence_changes_nothing(service):
    gid, tokens = new_game(service)
    rng = random.Random(5)
    seat, view = _facing_optional_step(service, gid, tokens, rng)
    rt = service.games._runtimes[gid]
    history, version = rt.state.history(), rt.version
    with pytest.raises(Unprocessable, match="nothing was played"):
        service.moves.act(gid, tokens[seat], "done", view["version"], ["leader boudica"])
    with pytest.raises(Unprocessable, match="at most 8"):
        service.moves.act(gid, tokens[seat], "done", view["version"], ["done"] * 8)
    assert rt.state.history() == history and rt.version == version
    assert service.record  # still readable
    assert service.view(gid, tokens[seat])["version"] == version


def test_solitairix_whole_turns_are_in_the_log(service):
    """Every Solitairix turn, the last two of the game too, is a log line after the action that ended it."""
    gid, tokens = new_game(service, players=1)
    rng = random.Random(11)
    play_randomly(service, gid, tokens, rng, 3000)
    log = service.view(gid, tokens[0])["log"]
    sx = [e for e in log if e.get("solitairix")]
    state = ludus.replay(service.record(gid))
    from ludus.games.celtae.solo import turns

    assert len(sx) == len(turns(state)) > 5
    assert all(e["seat"] == 1 and e["auto"] and "moved the marker" in e["text"] for e in sx)
    assert log[-1].get("solitairix") or log[-2].get("solitairix")  # its final turns are not lost
    plain = [e for e in log if not e.get("solitairix")]
    assert [e["action"] for e in plain] == state.history()


def test_a_timed_out_turn_says_so_in_the_view_and_the_log(service):
    created = service.lobby.create("celtae", {"players": 2, "turn_seconds": 60}, ["human", "human"])
    gid = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    job = service.turns.next_job(gid)
    assert isinstance(job, TurnClock)
    assert service.turns.time_out(job)
    bot = service.turns.next_job(gid)
    assert bot.timed_out
    service.turns.commit_bot(bot, bot.state.legal_actions()[0])
    seat = bot.seat
    view = service.view(gid, tokens[seat])
    assert f"Seat {seat + 1}'s time ran out; a move was played for it" in view["notices"]
    assert any(e.get("timed_out") for e in view["log"])


def test_garum_log_entries_say_the_colour_round_and_a_sentence(service):
    """Garum's log is the server's: each entry names the acting colour, the round and what happened,
    from the state it was played in (the browser never guesses where a worker went)."""
    created = service.lobby.create("garum", {}, ["human", "human"])
    gid = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"]}
    rng = random.Random(2)
    play_randomly(service, gid, tokens, rng, 40)
    log = service.view(gid, None)["log"]
    record_state = ludus.replay({**service.games._runtimes[gid].record()})
    assert len(log) == len(record_state.history())
    state = ludus.load_game("garum").new_initial_state(seed=service.games._runtimes[gid].row.seed)
    for entry in log:
        colour = state.current_colour()
        assert entry["colour"] == state.game.tiles.species[colour].letter
        assert entry["round"] == state.round + 1
        word = entry["action"].split()[0]
        expected = {"V": "claimed", "D": "claimed", "pass": "placed no worker", "choose": "chose"}.get(
            word, "placed the"
        )
        assert entry["text"].startswith(expected), entry
        state.apply_action(entry["action"])
    # an undo's shorter history is followed, not mixed with the old one
    seat, view = to_move(service, gid, tokens)
    if service.games._runtimes[gid].owners[-1] == seat:
        try:
            service.moves.undo(gid, tokens[seat], view["version"])
        except Unprocessable:
            return
        assert len(service.view(gid, None)["log"]) == len(service.games._runtimes[gid].owners)
