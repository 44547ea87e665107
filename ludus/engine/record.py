"""Game records: ``{"game", "config", "seed", "actions"}``, separate from the rules.

A game played with other data than its package's (``load_game(..., data=FOLDER)``) adds ``"data"``,
the hash of the values it was played with: replayed with other data, its moves would mean other
things, so it replays only with data of that hash (``replay(record, data=FOLDER)``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from .data import DATA_ENV, PRINTED, DataSource
from .errors import IllegalActionError, OptionError, RecordError
from .game import Game
from .registry import load_game
from .state import State

RECORD_KEYS = ("game", "config", "seed", "actions")
DATA_TAG = re.compile(r"^[0-9a-f]{1,64}$")


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
    if "data" in record and not (isinstance(record["data"], str) and DATA_TAG.match(record["data"])):
        raise RecordError("the record's data must be the hash of its data files (hexadecimal digits)")
    return record


def record_game(record: dict[str, Any], data: DataSource = None) -> Game:
    """The game a checked record was played in, with ``data`` (a folder, or None for the package's
    files): refused unless those are the values the record names (its ``"data"``, or none)."""
    try:
        game = load_game(record["game"], data=data, **record["config"])
    except OptionError as exc:
        raise RecordError(f"the record's game cannot be loaded: {exc}") from None
    wanted, given = record.get("data"), game.data_tag
    if wanted == given:
        return game
    source = data if data is not None else f"the folder {DATA_ENV} names"
    if wanted is None:
        raise RecordError(f"the record was played with {PRINTED}, but {source} holds data {given}")
    if given is None:
        raise RecordError(
            f"the record needs its data: it was played with data {wanted}, not {PRINTED}; give the "
            "folder of its data files (ludus.replay(record, data=FOLDER), --data FOLDER)"
        )
    raise RecordError(f"the record was played with data {wanted}, but {source} holds data {given}")


def replay(record: dict[str, Any], upto: int | None = None, data: DataSource = None) -> State:
    """The state reached by a record (or by its first ``upto`` actions); ``data``: the folder of the
    data files it was played with, if not the package's (see ``record_game``)."""
    check_record(record)
    game = record_game(record, data)
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
