"""Game records: ``{"game", "config", "seed", "actions"}``, separate from the rules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import IllegalActionError, OptionError, RecordError
from .registry import load_game
from .state import State

RECORD_KEYS = ("game", "config", "seed", "actions")


def check_record(record: Any) -> dict[str, Any]:
    """Check a record's shape and return it; say what is wrong otherwise."""
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object with keys game, config, seed, actions")
    missing = [k for k in RECORD_KEYS if k not in record]
    if missing:
        raise RecordError(f"the record lacks {', '.join(missing)}")
    if not isinstance(record["game"], str):
        raise RecordError("the record's game must be a name")
    if not isinstance(record["config"], dict):
        raise RecordError("the record's config must be an object of options")
    if not isinstance(record["seed"], int) or isinstance(record["seed"], bool):
        raise RecordError("the record's seed must be an integer")
    actions = record["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError("the record's actions must be a list of notation strings")
    return record


def replay(record: dict[str, Any], upto: int | None = None) -> State:
    """The state reached by a record (or by its first ``upto`` actions)."""
    check_record(record)
    try:
        game = load_game(record["game"], **record["config"])
    except OptionError as exc:
        raise RecordError(f"the record's game cannot be loaded: {exc}") from None
    state = game.new_initial_state(seed=record["seed"])
    for i, text in enumerate(record["actions"][:upto]):
        try:
            state.apply_action(text)
        except IllegalActionError as exc:
            raise RecordError(f"action {i + 1} ({text!r}) cannot be replayed: {exc}") from None
    return state


def read_record(path: str | Path) -> dict[str, Any]:
    """Load a record file, with a one-line error for anything unreadable."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path} is not JSON: {exc}") from None
    return check_record(record)


def write_record(state: State, path: str | Path) -> None:
    Path(path).write_text(json.dumps(state.record(), indent=1) + "\n", encoding="utf-8")
