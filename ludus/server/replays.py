"""Replays answered one step at a time, at a bounded cost to the server.

A viewer steps through a record one request per step. ``ReplayStates`` keeps a few replayed
states, keyed by a digest of the record's text, so that stepping N -> N+1 applies one action
and a step back starts from the nearest kept state before it, not from the first action.
The steps are made in the bots' worker processes (``ludus.web.routes.replay_answer``), each with a
``ReplayStates`` of its own.

A record is replayed to its end the first time it is seen, and what that whole replay tells is kept
with it (``Facts``): who took each action, and the record told by turns as the table's log told it
(``turnlog.group_turns`` over the game's own words), each turn with the range of actions it covers,
so that a viewer can step a turn at a time.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ludus.engine import IllegalActionError, RecordError, State
from ludus.engine.hooks import hook
from ludus.engine.record import record_game

from .turnlog import PLAYED, group_turns, name_seats, seat_title, with_game_turns

KEPT_STATES = 24  # replayed states kept, every record together (a state pickles to ~25 KB)
CHECKPOINT_EVERY = 100  # a replay walking past step 100, 200, ... keeps the state there for steps back
MAX_NAMES = 16  # seats named in a record (one name a seat)
MAX_NAME_CHARS = 64  # a seat's name in a record (the server writes names of at most 32 characters)


def record_key(record: dict[str, Any]) -> str:
    """A digest of a record's text (its canonical JSON): the same record, the same key."""
    text = json.dumps(record, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def initial_state(record: dict[str, Any]) -> State:
    """The state before any action of a checked record (RecordError if its game cannot be loaded, or
    if it names other data than the server plays with)."""
    return record_game(record).new_initial_state(seed=record["seed"])


def apply_recorded(state: State, record: dict[str, Any], index: int) -> None:
    """Apply action ``index`` (from 0) of ``record`` to ``state``, saying which one cannot be replayed."""
    text = record["actions"][index]
    try:
        state.apply_action(text)
    except (IllegalActionError, ValueError) as exc:
        raise RecordError(f"action {index + 1} ({text!r}) cannot be replayed: {exc}") from None


def actors_of(state: State) -> list[int]:
    """The seat that took each action of ``state``'s history."""
    return [entry["seat"] for entry in state.log(None)]


def record_names(record: dict[str, Any]) -> dict[int, str | None]:
    """The seats' names a record carries (``names``: as its table showed them, null for an unnamed
    seat); RecordError for anything else, as a posted record's names are shown to people."""
    names = record.get("names")
    if names is None:
        return {}
    if (
        not isinstance(names, list)
        or len(names) > MAX_NAMES
        or not all(n is None or (isinstance(n, str) and 0 < len(n.strip()) <= MAX_NAME_CHARS) for n in names)
    ):
        raise RecordError(
            f"the record's names must be a list of at most {MAX_NAMES} names, each 1 to {MAX_NAME_CHARS} "
            "characters or null"
        )
    return dict(enumerate(names))


@dataclass(frozen=True)
class Facts:
    """What a whole replay of a record tells: the seat that took each action, and its turns."""

    actors: list[int]
    turns: list[dict[str, Any]]


def walk_record(
    record: dict[str, Any], keep: Callable[[int, State], None] | None = None, every: int = CHECKPOINT_EVERY
) -> Facts:
    """Replay a checked record to its end and tell its ``Facts``; ``keep(step, state)`` is given a
    copy of the state at every ``every``-th step on the way, and the final state itself."""
    state = initial_state(record)
    names = record_names(record)
    detail = getattr(hook(state.game, "renderer"), "log_detail", None)
    details: list[dict[str, Any]] = []
    total = len(record["actions"])
    for index in range(total):
        details.append(_said(detail, state, record["actions"][index]))
        apply_recorded(state, record, index)
        if keep is not None and index + 1 < total and (index + 1) % every == 0:
            keep(index + 1, state.clone())
    if keep is not None:
        keep(total, state)
    return Facts(actors_of(state), record_turns(state, details, names))


def _said(detail: Any, state: State, text: str) -> dict[str, Any]:
    """The game's words for an action about to be applied (``log_detail``), none if it has none or
    fails on it: a record's action is checked as it is applied, just after."""
    if not callable(detail):
        return {}
    try:
        said = detail(state, text)
    except Exception:  # an illegal action of a posted record: refused by apply_recorded, saying which
        return {}
    return said if isinstance(said, dict) else {}


def record_turns(
    state: State, details: list[dict[str, Any]], names: dict[int, str | None]
) -> list[dict[str, Any]]:
    """The turns of a replayed record as the table's log told them (``turnlog.group_turns``), each
    ``{"seat", "name", "text", "round"?, "actions": [first, end), "steps"}``: the actions it covers
    (from 0: shown after ``end`` of them) and each step in words, ``{"step", "seat", "name", "text",
    "action"}`` for an action (``step``: the replay step it leads to), ``{"seat", "name", "text"}`` for
    what the game played by itself (a solo automaton's turn)."""
    entries = state.log(None)
    for entry, said in zip(entries, details, strict=False):
        entry.update(said)
    # the turns a game plays by itself, as the view's log has them (``views.game_turns``; not imported:
    # the worker processes that replay need none of the server's storage)
    own = getattr(hook(state.game, "renderer"), "automaton_turns", None)
    log = with_game_turns(entries, [] if own is None else own(state))
    before = [0]  # the record's actions before each entry of the log
    for entry in log:
        before.append(before[-1] + ("after" not in entry))
    turns = []
    for turn in group_turns(log, names):
        first, end = turn.pop("steps")
        turn["actions"] = [before[first], before[end]]
        # as its sentence says it: what a game played by itself first, then the decisions it asked for
        told = sorted(range(first, end), key=lambda i: "after" not in log[i])
        turn["steps"] = [step for i in told for step in _steps(log[i], before[i], names)]
        turns.append(turn)
    return turns


def _steps(entry: dict[str, Any], before: int, names: dict[int, str | None]) -> list[dict[str, Any]]:
    """An entry of the log as the steps a turn lists: an action, or what a game played by itself."""
    seat = entry["seat"]
    if "after" in entry:
        name = entry.get("name") or seat_title(seat, names)
        plays = entry.get("play")
        texts = [p.get("text") for p in plays if isinstance(p, dict)] if isinstance(plays, list) else []
        return [
            {"seat": seat, "name": name, "text": name_seats(t, names)}
            for t in (texts or [entry.get("text") or f"{PLAYED}{entry['action']}"])
            if t
        ]
    text = entry.get("text") or f"{PLAYED}{entry['action']}"
    return [
        {
            "step": before + 1,
            "seat": seat,
            "name": seat_title(seat, names),
            "text": name_seats(text, names),
            "action": entry["action"],
        }
    ]


class ReplayStates:
    """The last few replayed states (at most ``size``, every record together) and the ``Facts`` of each
    record. A kept state is never changed: a step beyond it applies its actions to a clone."""

    def __init__(self, size: int = KEPT_STATES, every: int = CHECKPOINT_EVERY) -> None:
        self.size, self.every = size, every
        self._states: OrderedDict[tuple[str, int], State] = OrderedDict()
        self._facts: OrderedDict[str, Facts] = OrderedDict()
        self._lock = threading.Lock()

    def replay(self, record: dict[str, Any], step: int) -> tuple[State, Facts]:
        """The state after the first ``step`` actions of a checked ``record`` (not to be changed), and
        the record's ``Facts``. A record is replayed to its end the first time it is seen, so an action
        that cannot be replayed is found whatever the step asked."""
        key = record_key(record)
        with self._lock:
            facts = self._facts.get(key)
            if facts is not None:
                self._facts.move_to_end(key)
        if facts is None:
            facts = walk_record(
                record, lambda at, state: self._keep(self._states, (key, at), state), self.every
            )
            self._keep(self._facts, key, facts)
        return self._walk(key, record, step), facts

    def _walk(self, key: str, record: dict[str, Any], step: int) -> State:
        """The state at ``step``, from the nearest kept state at or before it (kept in its turn)."""
        with self._lock:
            base = max((s for k, s in self._states if k == key and s <= step), default=None)
            start = None if base is None else self._states[(key, base)]
            if base is not None:
                self._states.move_to_end((key, base))
        if start is not None and base == step:
            return start
        state = initial_state(record) if start is None else start.clone()
        for index in range(base or 0, step):
            apply_recorded(state, record, index)
            if (index + 1) % self.every == 0 and index + 1 < step:
                self._keep(self._states, (key, index + 1), state.clone())
        self._keep(self._states, (key, step), state)
        return state

    def _keep(self, items: OrderedDict[Any, Any], key: Any, value: Any) -> None:
        with self._lock:
            items[key] = value
            items.move_to_end(key)
            while len(items) > self.size:
                items.popitem(last=False)
