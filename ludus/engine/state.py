"""The state of a game in play: the one interface bots, adapters and the server use."""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from itertools import repeat
from operator import is_
from typing import TYPE_CHECKING, Any, SupportsIndex, cast

from .errors import IllegalActionError

try:  # read by mypyc only (the optional compiled build, benchmarks/mypyc_build.py)
    from mypy_extensions import mypyc_attr
except ImportError:  # pragma: no cover - without mypy (a dev tool) installed: a decorator that does nothing

    def mypyc_attr(*attrs: str, **kwattrs: object) -> IdentityFunction:
        return lambda cls: cls


if TYPE_CHECKING:
    from _typeshed import IdentityFunction

    from .action import Action
    from .game import Game

TERMINAL = -4
"""``current_player()`` once the game is over (OpenSpiel's value)."""


# compiled, interpreted states (plugins', tests') still subclass it
@mypyc_attr(allow_interpreted_subclasses=True)
class State(ABC):
    """A game in progress. Subclasses implement the ``_``-prefixed hooks.

    ``apply_action`` checks legality against ``legal_actions()`` before anything
    changes, so an illegal action or garbage text leaves the state exactly as it was.
    Chance comes from ``self.rng``, seeded once, so that a seed and the actions
    replay the same game.
    """

    _rng: random.Random
    _rng_shared: bool

    def __init__(self, game: Game, seed: int, *, _blank: bool = False) -> None:
        self.game = game
        self.seed = seed
        if _blank:  # made by ``_blank`` (a compiled class): its caller sets the rest
            return
        self.rng = random.Random(seed)
        # the actions applied, kept as given (their notation is written out when asked for: the
        # games hand out immutable actions) or as notation (a state loaded from JSON)
        self._history: list[Action | str] = []
        self._actors: list[int] = []  # the seat that took each action of the history
        self._legal: list[Action] | None = None
        self._barrier = 0  # history length before which nothing may be taken back

    @property
    def rng(self) -> random.Random:
        """The state's own random stream (a clone shares it until one of the two first draws)."""
        if self._rng_shared:
            # a shared stream is never drawn from again (each holder copies it first, here), so its
            # state is read once and kept on it for the other holders' copies (a read costs ~6 µs)
            shared = vars(self._rng)
            frozen = shared.get("_frozen")
            if frozen is None:
                frozen = shared["_frozen"] = self._rng.getstate()
            own = random.Random.__new__(random.Random)  # no seeding (setstate below sets it all)
            own.setstate(frozen)
            self._rng, self._rng_shared = own, False
        return self._rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        vars(value).pop("_frozen", None)  # the state it was read at, if it was shared once: drawn from now
        self._rng, self._rng_shared = value, False

    def share_rng(self, start: random.Random) -> None:
        """Draw from now on from a copy of ``start``, made on the first draw: ``start`` itself is never
        drawn from, so that many states (a search's re-dealt worlds) set out from one generator
        without each making its own."""
        self._rng, self._rng_shared = start, True

    # -- the turn ---------------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """Seat to move, or TERMINAL."""

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def legal_actions(self) -> list[Action]:
        """Every action the seat to move may take now (empty once the game is over)."""
        if self._legal is None:
            self._legal = [] if self.is_terminal() else self._legal_actions()
        return list(self._legal)

    @abstractmethod
    def _legal_actions(self) -> list[Action]: ...

    def apply_action(self, action: Action | str) -> None:
        """Apply an Action or its notation; refuse anything illegal without changing the state."""
        if isinstance(action, str):
            action = self.game.parse_action(action)
        actor = self.current_player()
        if actor == TERMINAL:
            raise IllegalActionError(f"{action} is not legal: the game is over")
        if not self._offers(action):
            raise IllegalActionError(self._why_illegal(action))
        self._apply(action)
        self._history.append(action)
        self._actors.append(actor)
        self._legal = None
        if self._settles(actor):
            self._barrier = len(self._history)

    def _offers(self, action: Action) -> bool:
        """Whether ``action`` is among ``legal_actions()`` now.

        Looked up first by identity, a scan at C speed (bots and the game hand back the very
        objects offered), then by value (parsed notation, a new object). A game with long lists
        may answer some actions without listing the others, as long as the answer is the same
        (a game's placements, say: a property test should hold the two equal).
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_actions()
        return any(map(is_, legal, repeat(action))) or action in legal

    def _why_illegal(self, action: Action) -> str:
        """A message saying why ``action`` is not legal now (games give better reasons)."""
        offered = self._legal or []
        legal = ", ".join(str(a) for a in offered[:12])
        more = "" if len(offered) <= 12 else f" and {len(offered) - 12} more"
        return f"{action} is not legal now; legal: {legal}{more}"

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Change the state by a legal action and run any automatic steps after it."""

    # -- undo -------------------------------------------------------------------------
    def undo_barrier(self) -> int:
        """The history length before which the seat to move may not take anything back.

        Undo stays within the mover's own run of decisions, and any step that shows anyone
        something new (a draw from a hidden pile, deck or bag, a tile turned up, a secret
        choice revealed, a random refill) closes the door behind it, so that a take-back
        can never be used to see first and choose after. The answer depends only on the
        actions played: asking again gives the same answer.
        """
        return self._barrier

    def _settles(self, actor: int) -> bool:
        """Whether the action ``actor`` just took closes the door behind it.

        Every step does unless the game knows better: games whose steps can be taken
        back say here which of them showed something new or handed the turn on.
        """
        return True

    # -- results ------------------------------------------------------------------
    @abstractmethod
    def scores(self) -> list[int]:
        """Points of each seat so far (final once terminal)."""

    def _tiebreak(self, seat: int) -> tuple[Any, ...]:
        """Higher is better among seats tied on score (games override)."""
        return ()

    def winners(self) -> list[int]:
        """Seats that win (ties share); empty until the game is over."""
        if not self.is_terminal():
            return []
        scores = self.scores()
        best = max((scores[s], self._tiebreak(s)) for s in range(len(scores)))
        return [s for s in range(len(scores)) if (scores[s], self._tiebreak(s)) == best]

    def returns(self) -> list[float]:
        """1 for a sole winner, 1/k for each of k sharing the win, 0 otherwise; 0s before the end."""
        n = self.game.num_players
        out = [0.0] * n
        won = self.winners()
        for s in won:
            out[s] = 1.0 / len(won)
        return out

    # -- information ------------------------------------------------------------------
    def observation(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (JSON-serialisable); ``None`` for the public view."""
        self._check_seat(seat)
        return self._observation(seat)

    @abstractmethod
    def _observation(self, seat: int | None) -> dict[str, Any]: ...

    def resample(self, seat: int, rng: random.Random | int | None = None) -> State:
        """A full state consistent with everything ``seat`` has seen; hidden parts re-dealt."""
        self._check_seat(seat)
        if not isinstance(rng, random.Random):
            rng = random.Random(rng)
        other = self.clone()
        other._resample(seat, rng)
        other.rng = random.Random(rng.getrandbits(64))
        other._legal = None
        return other

    @abstractmethod
    def _resample(self, seat: int, rng: random.Random) -> None:
        """Re-deal, in place, everything ``seat`` cannot see."""

    def _check_seat(self, seat: int | None) -> None:
        if seat is None:
            return
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.game.num_players:
            raise ValueError(f"seat must be None or 0..{self.game.num_players - 1}, got {seat!r}")

    # -- copies, records ----------------------------------------------------------------
    def clone(self) -> State:
        other = _blank(type(self), self.game, self.seed)
        other.game = self.game
        other.seed = self.seed
        other._rng = self._rng  # copied on first use by either (``rng``): most clones never draw
        other._rng_shared = self._rng_shared = True
        other._history = list(self._history)
        other._actors = list(self._actors)
        other._legal = self._legal
        other._barrier = self._barrier
        self._copy_into(other)
        return other

    def __reduce_ex__(self, protocol: SupportsIndex) -> tuple[Any, ...]:
        """Pickled and deep-copied as Python does, but made by ``_blank``: a class compiled by mypyc
        runs ``__init__`` whenever it is made, and ``__init__`` needs the game and the seed."""
        _, _, *rest = cast(tuple[Any, ...], super().__reduce_ex__(protocol))  # a tuple, for any object
        return (_blank, (type(self), self.game, self.seed), *rest)

    @abstractmethod
    def _copy_into(self, other: State) -> None:
        """Copy the game fields into ``other`` (deep enough that the two never share mutables)."""

    def history(self) -> list[str]:
        """Notation of every action applied, in order."""
        return list(map(str, self._history))

    def move_number(self) -> int:
        """How many actions have been applied: ``len(history())`` without writing their notation."""
        return len(self._history)

    def log(self, seat: int | None, start: int = 0) -> list[dict[str, Any]]:
        """The move log as ``seat`` may see it: ``{"seat", "action"}`` per action, secrets masked;
        from action ``start`` on (a log kept elsewhere asks only for what is new)."""
        self._check_seat(seat)
        return [
            {"seat": who, "action": self._public_action(str(action), who, seat)}
            for action, who in zip(self._history[start:], self._actors[start:], strict=True)
        ]

    def _public_action(self, text: str, actor: int, seat: int | None) -> str:
        """How an action's notation shows to ``seat`` (games mask choices that are still secret)."""
        return text

    def record(self) -> dict[str, Any]:
        """The game record: enough to replay this game from its start."""
        tag = self.game.data_tag  # other data than the package's: the record names them
        return {
            "game": self.game.name,
            "config": dict(self.game.config),
            **({"data": tag} if tag is not None else {}),
            "seed": self.seed,
            "actions": self.history(),
        }

    def to_json(self) -> str:
        """The full state, hidden information and RNG included, to resume it exactly."""
        version, internal, gauss = self.rng.getstate()
        return json.dumps(
            {
                "game": self.game.name,
                "config": self.game.config,
                **({"data": self.game.data_tag} if self.game.data_tag is not None else {}),
                "seed": self.seed,
                "history": self.history(),
                "actors": self._actors,
                "barrier": self._barrier,
                "rng": [version, list(internal), gauss],
                "state": self._dump(),
            },
            separators=(",", ":"),
        )

    @abstractmethod
    def _dump(self) -> dict[str, Any]:
        """The game fields as JSON-able data."""

    @abstractmethod
    def _load(self, data: dict[str, Any]) -> None:
        """Set the game fields from ``_dump`` output."""

    @classmethod
    def from_dict(cls, game: Game, data: dict[str, Any]) -> State:
        try:
            seed = int(data["seed"])
            state = _blank(game.state_class, game, seed)
            state.game, state.seed = game, seed
            version, internal, gauss = data["rng"]
            state.rng = random.Random(0)
            state.rng.setstate((version, tuple(internal), gauss))
            state._history = [str(a) for a in data["history"]]
            state._actors = [int(a) for a in data["actors"]]
            if len(state._actors) != len(state._history):
                raise ValueError("history and actors differ in length")
            state._legal = None
            # states saved before the barrier was stored: nothing before them may be taken back
            state._barrier = int(data.get("barrier", len(state._history)))
            if not 0 <= state._barrier <= len(state._history):
                raise ValueError("undo barrier outside the history")
            state._load(data["state"])
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise ValueError(f"not a saved {game.name} state: {exc!r}") from None
        return state

    def __str__(self) -> str:
        return self._text()

    def _text(self) -> str:
        return json.dumps(self.observation(None))


def _blank(cls: type[State], game: Game, seed: int) -> State:
    """A new ``cls`` for ``clone`` or ``from_dict`` to fill, made without ``__init__`` (an interpreted
    class) or with its blank form (a class compiled by mypyc, benchmarks/mypyc_build.py, runs
    ``State.__init__`` whenever it is made)."""
    # object.__new__ takes (and drops) the arguments: State has an __init__
    return cls.__new__(cls, game, seed, _blank=True)  # type: ignore[call-arg]
