"""The exceptions of the contract: each says what is wrong, so a caller can show it as it is."""


class IllegalActionError(ValueError):
    """An action that is not legal now, or text that is not an action at all.

    Raised before anything changes: the state is left exactly as it was.
    """


class OptionError(ValueError):
    """An unknown option name or value passed to ``load_game``."""


class DataFileError(ValueError):
    """A component data file that is missing, malformed or inconsistent."""


class RecordError(ValueError):
    """A game record that cannot be read or replayed."""
