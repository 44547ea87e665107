"""Actions are small immutable values whose ``str`` is their notation (python-chess style)."""

from __future__ import annotations


class Action:
    """Base of every game's action types: hashable, immutable, printed as notation.

    Subclasses are frozen dataclasses; ``__str__`` must round-trip through the
    game's ``parse_action``.
    """

    __slots__ = ()

    def __str__(self) -> str:  # pragma: no cover - every subclass overrides
        raise NotImplementedError
