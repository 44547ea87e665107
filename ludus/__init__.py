"""ludus: faithful engines, bots and play for board games, each game a package of its own that the
registry finds (``ludus.game_names()``; the built-in ones are in ``ludus.games``).

>>> import ludus
>>> state = ludus.load_game(ludus.game_names()[0]).new_initial_state(seed=7)
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
