"""What one seat (or a spectator) is shown: its observation only, never another seat's secrets."""

from __future__ import annotations

import time
from typing import Any

import orjson

import ludus
from ludus.engine import State
from ludus.engine.hooks import hook

from .runtime import Runtime
from .shortcuts import ahead, optional_skip, skip_targets
from .table_state import table_view, waiting
from .turnlog import TurnFold, group_turns, name_seats, with_game_turns


def skipped_plies(rt: Runtime, start: int, end: int) -> set[int]:
    """The plies in [start, end) that passed over an optional step (for undo: they go with the move)."""
    if start >= end or hook(rt.row.game, "optional_skip") is None:
        return set()
    state = ludus.replay(rt.record(), upto=start)
    found = set()
    for ply, text in enumerate(rt.state.history()[start:end], start):
        if optional_skip(state) == text:
            found.add(ply)
        state.apply_action(text)
    return found


def seats_summary(rt: Runtime) -> list[dict[str, Any]]:
    timed_out = [rt.owners[ply] for ply in rt.timeouts if ply < len(rt.owners)]
    return [
        {
            "seat": s.seat,
            "kind": s.kind,
            "name": s.shown_name,  # an account's name wherever its seat shows: one name per person
            "account": s.account_id is not None,
            "free": s.free,
            "bot": s.bot,
            "left": s.left_to is not None,
            "timed_out": timed_out.count(s.seat),
        }
        for s in rt.seats
    ]


def log_details(rt: Runtime) -> list[dict[str, Any]] | None:
    """Each action's ``log_detail(state, action)`` from the game's renderer (the acting colour, the
    round, a plain sentence), None for a game without one. Kept on the runtime: the server
    adds the details of the actions it plays as it plays them (``runtime.Details``); made again from
    the start when a game is loaded or taken back (the game's epoch, as in ``_public_log``)."""
    detail = getattr(hook(rt.state.game, "renderer"), "log_detail", None)
    if not callable(detail):
        return None
    plies = len(rt.owners)
    epoch = rt.version - plies
    cached = rt.log_details
    if cached is None or cached[0] != epoch or len(cached[1]) != plies:
        rt.log_details = None
        state = rt.state.game.new_initial_state(seed=rt.row.seed)  # the game's tables shared
        details = []
        for text in rt.state.history():
            details.append(detail(state, text))
            state.apply_action(text)
        rt.log_details = cached = (epoch, details)
    return cached[1]  # type: ignore[no-any-return]


def seat_log(rt: Runtime, seat: int | None) -> list[dict[str, Any]] | orjson.Fragment:
    """The server's ordered log as ``seat`` may see it: ``state.log(seat)`` with ``auto`` on a step played
    for the seat because it was the only choice, ``timed_out`` and ``played_by`` on an action a stand-in
    played when the turn timer ran out, and the turns a game plays by itself (a solo automaton) between the
    actions, each entry with ``auto`` and ``steps``; a game's renderer may add details to each entry
    (``log_detail``: the acting colour, the round and a sentence).

    A game that masks nothing in its log (``_public_action`` not overridden) shows every seat the same
    log, and an entry once made never changes: that log is kept on the runtime as JSON text and only
    extended (a view a move made the whole log again, most of a view's cost late in a game); it comes
    as an ``orjson.Fragment``, which ``orjson.dumps`` writes as it is.
    """
    if type(rt.state)._public_action is State._public_action:
        return _public_log(rt)
    entries = rt.state.log(seat)
    _annotate(rt, entries, 0)
    inserted = game_turns(rt.state)
    return with_game_turns(entries, inserted) if inserted else entries


def _annotate(rt: Runtime, entries: list[dict[str, Any]], start: int) -> None:
    """Add the details, ``auto`` and stand-in marks to ``entries``, the log's from ply ``start`` on."""
    details = log_details(rt)
    names = None
    for ply, entry in enumerate(entries, start):
        if details is not None and ply < len(details):
            entry.update(details[ply])
            if "{seat:" in entry.get("text", ""):  # another seat named: its name as people read it
                names = names or seat_names(rt)
                entry["text"] = name_seats(entry["text"], names)
        if ply < len(rt.forced) and rt.forced[ply]:
            entry["auto"] = True
        bot = rt.timeouts.get(ply)
        if bot is not None:
            entry["timed_out"] = True
            entry["played_by"] = bot


def _public_log(rt: Runtime) -> orjson.Fragment:
    """The log every seat sees alike, kept on the runtime as JSON text and extended while only new
    actions come. An undo (here or in another process) makes it again: each undo raises the game's
    version without adding an action, so ``version - actions`` changes exactly when the history did
    not just grow. An entry's marks (``auto``, a stand-in's) are set with its action and never change
    after. Text, not dictionaries: the collector never walks it, and no view encodes it again."""
    plies = rt.state.move_number()
    epoch = (rt.version - len(rt.owners), len(rt.timeouts), rt.row.meta_version)  # names: seat changes
    cached = rt.public_log
    if cached is None or cached[0] != epoch or cached[1] > plies:
        entries = rt.state.log(None)
        _annotate(rt, entries, 0)
        rt.public_log = cached = (epoch, plies, orjson.dumps(entries))
    elif cached[1] < plies:
        made = cached[1]
        new = rt.state.log(None, made)
        _annotate(rt, new, made)
        more = orjson.dumps(new)
        text = more if made == 0 else cached[2][:-1] + b"," + more[1:]
        rt.public_log = cached = (epoch, plies, text)
    return orjson.Fragment(cached[2])


def seat_names(rt: Runtime) -> dict[int, str | None]:
    """Each seat's name as the seats' summary shows it (None: unnamed, read as "Seat N")."""
    return {s["seat"]: s["name"] for s in seats_summary(rt)}


def log_turns(
    rt: Runtime, log: list[dict[str, Any]] | orjson.Fragment
) -> list[dict[str, Any]] | orjson.Fragment:
    """The view's ``log`` told by turns (``turnlog.group_turns``): one entry per turn of a seat, in a
    sentence with its name, indexing the steps of ``log`` it groups. A log kept as JSON text (the same
    for every seat) is told once for all seats, a move adding only its own actions (``_public_turns``)."""
    if isinstance(log, orjson.Fragment):
        return _public_turns(rt)
    return group_turns(log, seat_names(rt))


def _public_turns(rt: Runtime) -> orjson.Fragment:
    """The turns of the log every seat sees alike (``_public_log``), as JSON text kept on the runtime
    with the ``TurnFold`` that made it: a move feeds it its new actions and words the turns it
    finished once, where telling the whole log again at every move cost most of a view late in a
    game. Made again on the same epochs as the log (an undo, a stand-in's move, a seat's new name)."""
    plies = len(rt.owners)
    epoch = (rt.version - plies, len(rt.timeouts), rt.row.meta_version)
    cached = rt.public_turns
    if cached is None or cached[0] != epoch or cached[1].entries > plies:
        cached = rt.public_turns = [epoch, TurnFold(seat_names(rt)), b"", 0, None]
    _, fold, done, finished, text = cached
    if fold.entries < plies or text is None:
        details = log_details(rt) or []
        history = rt.state.history()
        fold.feed(
            [
                {
                    "seat": rt.owners[ply],
                    "action": history[ply],
                    **(details[ply] if ply < len(details) else {}),
                }
                | ({"timed_out": True} if ply in rt.timeouts else {})
                for ply in range(fold.entries, plies)
            ]
        )
        for i in range(finished, fold.count - 1):  # final: worded once, kept as text
            done += (b"," if done else b"") + orjson.dumps(fold.turn(i))
        finished = max(finished, fold.count - 1)
        last = orjson.dumps(fold.turn(fold.count - 1)) if fold.count else b""
        text = b"[" + done + (b"," if done and last else b"") + last + b"]"
        cached[2:] = [done, finished, text]
    return orjson.Fragment(text)


def game_turns(state: State) -> list[dict[str, Any]]:
    """Turns the game plays for a seat of its own (a solo automaton), each after ``after`` actions:
    its renderer's ``automaton_turns``, none for a game without one."""
    turns = getattr(hook(state.game, "renderer"), "automaton_turns", None)
    return [] if turns is None else turns(state)  # type: ignore[no-any-return]


def notices(rt: Runtime) -> list[str]:
    """News a person should read at once: a seat's turn timer ran out since that seat last chose."""
    out = []
    for ply, _bot in sorted(rt.timeouts.items()):
        seat = rt.owners[ply] if ply < len(rt.owners) else None
        if seat is None:
            continue
        later = [
            p
            for p in range(ply + 1, len(rt.owners))
            if rt.owners[p] == seat and p not in rt.timeouts and not (p < len(rt.forced) and rt.forced[p])
        ]
        if not later:
            out.append(f"Seat {seat + 1}'s time ran out; a move was played for it")
    return list(dict.fromkeys(out))


def turn_deadline(rt: Runtime) -> float | None:
    """When a stand-in bot may play the turn of the human seat to move (epoch seconds).

    The turn began when the game's actions last changed (creation, an action, an undo: the
    stored ``turn_started``), so the deadline is the same before and after a restart. None
    without a turn timer, once the game is over, or when a bot is to move.
    """
    if rt.row.turn_seconds is None or rt.state.is_terminal() or waiting(rt):
        return None
    current = rt.state.current_player()
    if not 0 <= current < len(rt.seats) or rt.seats[current].bot is not None:
        return None
    return rt.row.turn_started + rt.row.turn_seconds


def game_panels(state: Any, seat: int | None) -> dict[str, Any] | None:
    """Figures that help decide (projected scores, categories so far ...), from the
    game's own scoring code in its declared renderer's ``panels``; None for a game without them."""
    panels = getattr(hook(state.game, "renderer"), "panels", None)
    return panels(state, seat) if callable(panels) else None


def public_panels(rt: Runtime) -> orjson.Fragment:
    """``game_panels`` of the game as it stands as JSON text, made once per version: both games'
    panels are public facts, the same for every seat (a spectator's are computed). Text: the
    collector never walks it while it waits for the next move."""
    key = (rt.version, rt.row.meta_version)
    if rt.panels is None or rt.panels[0] != key:
        rt.panels = (
            key,
            orjson.Fragment(orjson.dumps(game_panels(rt.state, None), option=orjson.OPT_NON_STR_KEYS)),
        )
    return rt.panels[1]  # type: ignore[no-any-return]


def _shared(rt: Runtime) -> dict[str, Any]:
    """What every seat's view shows alike (a spectator's too), made once per change of the game:
    the seat that moved, the other seats and the spectators are shown the same figures."""
    _current(rt)
    shared = rt.shared
    if not shared:
        state = rt.state
        terminal = state.is_terminal()
        shared.update(
            options=rt.public_options(),
            current_player=state.current_player(),
            terminal=terminal,
            scores=list(state.scores()),
            winners=state.winners() if terminal else [],
            panels=public_panels(rt),
            notices=notices(rt),
            seats=seats_summary(rt),
            turn_deadline=turn_deadline(rt),
            table=table_view(rt),  # table_state: waiting room, rematch, turn-based settings
        )
    return shared


def _current(rt: Runtime) -> None:
    """Drop the views and shared parts made before the game last changed (caller holds ``rt.lock``)."""
    key = (rt.version, rt.row.meta_version, len(rt.timeouts))
    if rt.views_key != key:
        rt.views, rt.shared, rt.views_key = {}, {}, key


def seat_view(rt: Runtime, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (None: a spectator), without ``server_time`` (``timed_view_text`` adds it).
    ``legal_actions`` only for the seat to move. The parts every seat sees alike are shared between
    the seats' views (``_shared``): read them, do not change them.

    Public parts only: the seed and the record stay on the server until the end; the move log
    is ``state.log(seat)``, where the game masks choices that are still secret.
    """
    state = rt.state
    shared = _shared(rt)
    current = shared["current_player"]
    terminal = shared["terminal"]
    to_move = seat is not None and not terminal and current == seat and rt.seats[seat].bot is None
    to_move = to_move and not shared["table"]["waiting"]
    log = seat_log(rt, seat)
    return {
        "id": rt.id,
        "game": rt.row.game,
        "options": shared["options"],
        "version": rt.version,
        "ply": len(rt.owners),
        "seat": seat,
        "current_player": current,
        "terminal": terminal,
        "status": rt.row.status,  # playing, over, or abandoned (idle too long: kept as a record)
        "scores": shared["scores"],
        "winners": shared["winners"],
        "observation": state.observation(seat),
        "panels": shared["panels"],
        "legal_actions": [str(a) for a in state.legal_actions()] if to_move else [],
        "after_skip": skip_targets(state) if to_move else None,
        "ahead": ahead(state) if to_move else None,
        "log": log,
        "turns": log_turns(rt, log),
        "notices": shared["notices"],
        "seats": shared["seats"],
        "turn_deadline": shared["turn_deadline"],
        **shared["table"],
    }


def view_text(rt: Runtime, seat: int | None) -> str:
    """``seat_view`` as JSON text (without ``server_time``), made once per seat and change of the
    game (caller holds ``rt.lock``).

    Several readers see the same state (the seat that moved, every WebSocket of the seat, polling
    clients). Kept as text, not as a dictionary: a thousand games' cached views as dictionaries were
    hundreds of thousands of young objects that every garbage collection of the younger generations
    walked (pauses of 100-300 ms under load); a string is one object the collector never visits.
    """
    _current(rt)
    text = rt.views.get(seat)
    if text is None:
        text = rt.views[seat] = orjson.dumps(seat_view(rt, seat), option=orjson.OPT_NON_STR_KEYS).decode()
    return text


def timed_view_text(rt: Runtime, seat: int | None) -> str:
    """``view_text`` with the current ``server_time`` first (what a client receives)."""
    text = view_text(rt, seat)
    stamp = f'{{"server_time":{time.time()!r}'
    return stamp + "}" if text == "{}" else f"{stamp},{text[1:]}"


def view_of(rt: Runtime, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` with ``server_time``: a fresh dictionary the caller may change."""
    return orjson.loads(timed_view_text(rt, seat))  # type: ignore[no-any-return]
