"""Replays answered one step at a time, at a bounded cost to the server.

A viewer steps through a record one request per step. ``ReplayStates`` keeps a few replayed
states, keyed by a digest of the record's text, so that stepping N -> N+1 applies one action
and a step back starts from the nearest kept state before it, not from the first action.
The steps are made in the bots' worker processes (``ludus.web.routes.replay_answer``), each with a
``ReplayStates`` of its own.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from typing import Any, TypeVar

from ludus.engine import IllegalActionError, RecordError, State
from ludus.engine.record import record_game

T = TypeVar("T")

KEPT_STATES = 24  # replayed states kept, every record together (a state pickles to ~25 KB)
CHECKPOINT_EVERY = 100  # a replay walking past step 100, 200, ... keeps the state there for steps back


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


class ReplayStates:
    """The last few replayed states (at most ``size``, every record together) and who took each
    record's actions. A kept state is never changed: a step beyond it applies its actions to a clone."""

    def __init__(self, size: int = KEPT_STATES, every: int = CHECKPOINT_EVERY) -> None:
        self.size, self.every = size, every
        self._states: OrderedDict[tuple[str, int], State] = OrderedDict()
        self._actors: OrderedDict[str, list[int]] = OrderedDict()
        self._lock = threading.Lock()

    def replay(self, record: dict[str, Any], step: int) -> tuple[State, list[int]]:
        """The state after the first ``step`` actions of a checked ``record`` (not to be changed), and
        the seat that took each of its actions. A record is replayed to its end the first time it is
        seen, so an action that cannot be replayed is found whatever the step asked."""
        key = record_key(record)
        with self._lock:
            actors = self._actors.get(key)
            if actors is not None:
                self._actors.move_to_end(key)
        if actors is None:
            actors = actors_of(self._walk(key, record, len(record["actions"])))
            self._keep(self._actors, key, actors)
        return self._walk(key, record, step), actors

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
