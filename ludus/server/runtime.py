"""One game in memory (``Runtime``), the jobs handed to the bot driver, and playing actions on a state
the way the server does (every single-choice step played for its seat)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ludus.engine import State
from ludus.engine.hooks import hook
from ludus.engine.registry import data_label

from .seatbots import DEFAULT_SECONDS
from .storage import GameRow, SeatRow

MAX_FORCED = 10_000  # single-choice steps played in a row before the server gives up (a game must move on)


@dataclass
class Runtime:
    """One game in memory: its row, seats, current state and who made each action.

    ``row`` and ``state`` are None only until the first sync with the database; every reader
    gets the runtime from the service's cache after that sync, so they are typed as present.
    """

    id: str
    lock: threading.RLock = field(default_factory=threading.RLock)
    row: GameRow = None  # type: ignore[assignment]  # None until the first sync
    seats: list[SeatRow] = field(default_factory=list)
    state: State = None  # type: ignore[assignment]  # None until the first sync
    version: int = -1
    owners: list[int] = field(default_factory=list)
    forced: list[bool] = field(
        default_factory=list
    )  # per ply: it was the only legal action (played for the seat)
    log_details: Any = None  # views.log_details' cache: (the game's epoch, every ply's details)
    public_log: Any = None  # views._public_log's cache: (its epoch, plies, the log as JSON text)
    public_turns: Any = None  # views._public_turns' cache: [epoch, fold, final turns, count, text]
    panels: Any = None  # views.public_panels' cache: (version, the panels) — the same for every seat
    idle_seat: int | None = None  # a human seat whose turn timer ran out: a bot plays its turn
    bot_seeds: dict[tuple[int, str], int] = field(default_factory=dict)  # (seat, kind) -> drawn once
    published: tuple[int, int] = (-1, -1)
    timeouts: dict[int, str] = field(default_factory=dict)  # ply -> stand-in that played it (turn timer)
    views: dict[int | None, str] = field(default_factory=dict)  # JSON texts made at ``views_key``
    shared: dict[str, Any] = field(default_factory=dict)  # what all seats see alike, at ``views_key``
    views_key: tuple[int, int, int] = (-1, -1, -1)
    table: Any = None  # storage_tables.TableRow: its waiting room, offers, rematch (None: a table of old)

    def add_details(self, made: list[dict[str, Any]]) -> None:
        """Extend the kept log details by those of the actions about to be adopted (called before
        ``owners`` and ``version`` move on); a cache that is not current is left to be made again."""
        cached = self.log_details
        if (
            cached is not None
            and cached[0] == self.version - len(self.owners)
            and len(cached[1]) == len(self.owners)
        ):
            cached[1].extend(made)

    @property
    def abandoned(self) -> bool:
        return self.row is not None and self.row.status == "abandoned"

    def public_options(self) -> dict[str, Any]:
        return public_options(self.row)

    def record(self) -> dict[str, Any]:
        tag = self.state.game.data_tag  # ``ludus serve --data``: the record names its data
        return {
            "game": self.row.game,
            "config": dict(self.row.config),
            **({"data": tag} if tag is not None else {}),
            "seed": self.row.seed,
            "actions": self.state.history(),
        }


def public_options(row: GameRow) -> dict[str, Any]:
    """The game's options as shown to everyone: its configuration and the server's own options."""
    options = dict(row.config)
    if row.turn_seconds is not None:
        options["turn_seconds"] = row.turn_seconds
    if row.hints is not None:
        options["hints"] = row.hints
    data = data_label(row.game)  # with ``ludus serve --data``: which data the table plays with
    if data is not None:
        options["data"] = data
    return options


def advance(state: State, texts: list[str], before: Before | None = None) -> list[bool]:
    """Apply ``texts`` to ``state``; for each, whether it was the only legal action then.

    The server plays every single-choice decision itself, so "only choice" is exactly "played
    for the seat": a fact of the record, found again whenever the game is loaded. ``before`` is
    told each action with the state it is played from (``Details.before``).
    """
    forced = []
    for text in texts:
        forced.append(len(state.legal_actions()) == 1)
        if before is not None:
            before(state, text)
        state.apply_action(text)
    return forced


def play_forced(state: State, before: Before | None = None) -> list[tuple[int, str]]:
    """Play every decision that has exactly one legal action, whoever's it is: (seat, notation) each.

    Nobody is ever asked a question with one answer; the steps are ordinary actions of the record.
    """
    out: list[tuple[int, str]] = []
    while not state.is_terminal() and len(out) < MAX_FORCED:
        legal = state.legal_actions()
        if len(legal) != 1:
            break
        seat = state.current_player()
        if before is not None:
            before(state, str(legal[0]))
        state.apply_action(legal[0])
        out.append((seat, state.history()[-1]))
    return out


Before = Callable[[State, str], None]


class Details:
    """The log details (the game renderer's ``log_detail``) of actions as the server plays them, each
    from the state it is played from: the kept log then needs no state of its own to follow the game.
    ``before`` is None for a game without details."""

    def __init__(self, state: State) -> None:
        self.detail = getattr(hook(state.game, "renderer"), "log_detail", None)
        self.made: list[dict[str, Any]] = []

    @property
    def before(self) -> Before | None:
        # made on each use, never kept: a bound method kept on ``self`` was a reference cycle a move,
        # which only the collector freed (a young collection every few seconds under load)
        return self._before if callable(self.detail) else None

    def _before(self, state: State, text: str) -> None:
        self.made.append(self.detail(state, text))  # type: ignore[misc]  # callable: see ``before``


@dataclass
class BotJob:
    """A bot's turn to think: a private copy of the state, and the version it must still match.

    What a worker process needs to build the bot is named, not made: ``bot`` (the name the bot
    factory takes), ``seconds`` and ``seed``; ``host`` is the game's queue in the pool."""

    game_id: str
    seat: int
    version: int
    state: State
    bot_name: str  # the seat's kind as stored (``ismcts:seconds=2``), or the stand-in's name
    bot: str  # the bot's name without parameters (``ismcts``)
    seconds: float = DEFAULT_SECONDS  # its time budget for this move (capped by the server)
    seed: int = 0  # this decision's seed (``seatbots.decision_seed``)
    host: str | None = None  # the game's ``host`` (None: a game made before it was kept)
    timed_out: bool = False  # a stand-in playing the turn of a seat whose turn timer ran out


@dataclass
class TurnClock:
    """A human seat to move in a game with a turn timer, and when its time runs out.

    ``deadline`` (epoch seconds) is the stored start of the turn plus ``turn_seconds``, so a
    timer started again after a restart runs out when the first one would have.
    """

    game_id: str
    seat: int
    version: int
    deadline: float
