"""Strength levels people understand: each a name for one bot spec with its budget.

A level is accepted wherever a bot spec is (``ludus.bots.parse_spec``): ``ludus play``,
``ludus tournament``, the lobby's seat chooser and the server's seat kinds, where it is stored
by its name. Levels name bots only by spec, so a change to a bot (a better search or evaluation)
moves every level built on it; the README's table gives their measured ratings.

A level built with ``seconds`` (a server seat's time a move) thinks at most that long: the
level's own budget when it is smaller.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Level:
    name: str
    spec: str  # a bot spec of ``ludus.bots`` (never a level)
    doc: str


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level(
            "beginner",
            "greedy:noise=5",
            "the heuristic's best move one action ahead, blurred by up to 5 points of noise: sensible, often not best",
        ),
        Level("casual", "greedy", "the heuristic's best move one action ahead, instantly"),
        Level(
            "club",
            "ismcts:seconds=0.2",
            "searches 0.2 s a decision over re-deals of what it cannot see (the game's plan: its best moves played on, or ISMCTS)",
        ),
        Level(
            "expert",
            "ismcts:seconds=1",
            "searches 1 s a decision over re-deals of what it cannot see (the game's plan: its best moves played on, or ISMCTS)",
        ),
    )
}


def names() -> list[str]:
    """The levels, weakest first."""
    return list(LEVELS)


def describe() -> list[dict[str, str]]:
    """Each level with its bot spec and what it does (for the lobby and help texts)."""
    return [{"name": lv.name, "spec": lv.spec, "doc": lv.doc} for lv in LEVELS.values()]


class LevelBot:
    """The bot of one level (subclassed per level with its ``level``).

    ``seconds`` caps the level's own time a decision (a server seat's budget); a level whose bot
    does not think against the clock ignores it.
    """

    level: Level

    def __init__(self, seed: int | None = None, seconds: float | None = None) -> None:
        from . import make, parse_spec

        name, params = parse_spec(self.level.spec)
        if seconds is not None and "seconds" in params:
            if not isinstance(seconds, int | float) or isinstance(seconds, bool) or seconds <= 0:
                raise ValueError(f"level {self.level.name!r}: seconds must be a positive number")
            params["seconds"] = min(params["seconds"], seconds)
        self.bot = make(name, seed=seed, **params)

    def step(self, state: Any) -> Any:
        return self.bot.step(state)

    def __getattr__(self, attr: str) -> Any:  # e.g. ``last_iterations`` of a searching level
        if attr == "bot":
            raise AttributeError(attr)
        return getattr(self.bot, attr)


def level_class(name: str) -> type[LevelBot]:
    """The bot class of level ``name`` (KeyError if there is none)."""
    level = LEVELS[name]
    cached = _CLASSES.get(name)
    if cached is None:
        cached = _CLASSES[name] = type(
            f"{name.title()}Level", (LevelBot,), {"level": level, "__doc__": level.doc}
        )
    return cached


_CLASSES: dict[str, type[LevelBot]] = {}
