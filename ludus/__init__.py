"""ludus: faithful engines, bots and play for the Pythagoras games Garum and Celtae.

>>> import ludus
>>> state = ludus.load_game("garum", players=4).new_initial_state(seed=7)
"""

from .engine import (
    TERMINAL,
    Action,
    DataFileError,
    IllegalActionError,
    OptionError,
    RecordError,
    State,
    game_names,
    load_game,
    replay,
)

__version__ = "0.1.0"

__all__ = [
    "TERMINAL",
    "Action",
    "DataFileError",
    "IllegalActionError",
    "OptionError",
    "RecordError",
    "State",
    "game_names",
    "load_game",
    "replay",
]
