"""The contract every game implements (see docs in architecture.md): Game, State, Action."""

from .action import Action
from .data import DataFiles, load_data
from .errors import DataFileError, IllegalActionError, OptionError, RecordError
from .game import Game, Option
from .hookspec import Hooks
from .record import read_record, replay, write_record
from .registry import game_names, load_game
from .state import TERMINAL, State

__all__ = [
    "TERMINAL",
    "Action",
    "DataFileError",
    "DataFiles",
    "Game",
    "Hooks",
    "IllegalActionError",
    "Option",
    "OptionError",
    "RecordError",
    "State",
    "game_names",
    "load_data",
    "load_game",
    "read_record",
    "replay",
    "write_record",
]
