"""Files a command reads or writes: records read whole and checked, outputs checked before work starts."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from ludus.engine import State, read_record, write_record
from ludus.engine.errors import DataFileError, IllegalActionError, RecordError
from ludus.engine.record import record_game

from .errors import CLIError, one_line


def check_file(path: str, flag: str) -> None:
    """Refuse an output file that cannot be written, before any work is done (nothing is left behind)."""
    target = Path(path)
    if target.is_dir():
        raise CLIError(f"{flag} {path} is a directory; give a file name")
    existed = target.exists()
    try:
        with open(target, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise CLIError(f"{flag} {path} cannot be written: {exc.strerror}") from None
    if not existed:
        target.unlink()


def check_dir(path: str, flag: str) -> None:
    """Make an output directory (and its parents) and check that files can be written in it."""
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise CLIError(f"{flag} {path} is a file; give a directory")
    try:
        target.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=target):
            pass
    except OSError as exc:
        raise CLIError(f"{flag} {path} cannot be made or written into: {exc.strerror}") from None


def write_record_now(state: State, path: str) -> None:
    """Write the record whole or not at all (a temporary file renamed over the old one)."""
    target = Path(path)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        write_record(state, tmp)
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def read(path: str) -> dict[str, Any]:
    try:
        return read_record(path)
    except RecordError as exc:
        raise CLIError(one_line(str(exc))) from None
    except UnicodeDecodeError:
        raise CLIError(f"{path} is not a text file (a record is JSON)") from None


def states(record: dict[str, Any], data: str | None = None) -> list[State]:
    """The state before the first action and after each one (the record is fully checked); ``data``:
    the folder of the data files the record was played with, if not the package's."""
    try:
        game = record_game(record, data)
    except (RecordError, DataFileError) as exc:
        raise CLIError(one_line(str(exc))) from None
    state = game.new_initial_state(seed=record["seed"])
    found = [state.clone()]
    for i, text in enumerate(record["actions"]):
        try:
            state.apply_action(text)
        except IllegalActionError as exc:
            raise CLIError(f"action {i + 1} ({text!r}) cannot be replayed: {one_line(str(exc))}") from None
        found.append(state.clone())
    return found
