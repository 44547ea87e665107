"""Fixed-size numeric views of a game for learning code: actions as indices, observations as vectors.

Every adapter (PettingZoo, Gymnasium, OpenSpiel) uses the same two pieces:

* :class:`ActionMap` numbers ``game.all_actions()`` in its stable order, so that an action
  index means the same move in every state of a configuration (``Discrete(n)``); the mask
  of a state has a 1 at each legal action's index.
* an :class:`Encoder` turns ``state.observation(seat)`` -- the seat's own view, never the
  true state -- into a float32 vector of fixed length, and ``decode`` turns a vector back
  into the facts it holds (so the layout is checked against the engine, not just written
  down). ``encode_state(state, seat, out)`` gives the same vector read straight from the
  state into a preallocated array by the encoder's ``state_writer`` where it names one (a
  :class:`LiveVector` that rewrites only what changed, no dicts built): what the environments
  use on every step.
  A game declares its encoder (``hooks.encoder``); :func:`encoder_for` finds it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..engine import Action, Game, IllegalActionError, State
from ..engine.hooks import hook


class ActionMap:
    """The fixed numbering of every action that can ever be legal in one configuration."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.actions: list[Action] = list(game.all_actions())
        self.index: dict[Action, int] = {}
        self._by_text: dict[str, int] = {}
        for i, action in enumerate(self.actions):
            text = str(action)
            if action in self.index or text in self._by_text:
                raise ValueError(f"{game!r}.all_actions() lists {text} twice")
            self.index[action] = i
            self._by_text[text] = i
        # by the identity of the listed objects (held in self.actions, so no other object has their id):
        # the games hand out these very instances as legal actions, and a look-up by id skips hashing them
        self._by_id: dict[int, int] = {id(a): i for i, a in enumerate(self.actions)}

    def __len__(self) -> int:
        return len(self.actions)

    def to_index(self, action: Action | str) -> int:
        """The index of an Action or of its notation."""
        if isinstance(action, str):
            action = self.game.parse_action(action)
        i = self.index.get(action)
        if i is None:
            i = self._by_text.get(str(action))
        if i is None:
            raise IllegalActionError(f"{action} can never be legal in {self.game!r}")
        return i

    def to_action(self, index: int) -> Action:
        """The Action at ``index`` (an int, a NumPy integer, or a 0-d array)."""
        i = int(index)
        if not 0 <= i < len(self.actions):
            raise IllegalActionError(f"action index {index!r} is outside 0..{len(self.actions) - 1}")
        return self.actions[i]

    def notation(self, index: int) -> str:
        return str(self.to_action(index))

    def legal_indices(self, state: State) -> list[int]:
        return sorted(self.to_index(a) for a in state.legal_actions())

    def legal_index_list(self, state: State) -> list[int]:
        """The indices of the legal actions, in the state's order.

        The games hand out the very objects listed by ``all_actions()``, so each is found by
        its identity (no hashing of the action); an equal action that is another object is
        found by value.
        """
        legal = state.legal_actions()
        try:
            return list(map(self._by_id.__getitem__, map(id, legal)))
        except KeyError:  # an equal action that is not one of the listed objects
            return list(map(self.to_index, legal))

    def mark_legal(self, state: State, entries: Any) -> None:
        """Set ``entries[i] = 1`` at each legal action's index (``entries``: a mask or its memoryview),
        found as ``legal_index_list`` finds them, without listing them."""
        legal = state.legal_actions()
        try:
            for i in map(self._by_id.__getitem__, map(id, legal)):
                entries[i] = 1
        except KeyError:  # an equal action that is not one of the listed objects
            for i in map(self.to_index, legal):
                entries[i] = 1

    def legal_index_array(self, state: State) -> np.ndarray:
        """``legal_index_list`` as an array of indices."""
        return np.array(self.legal_index_list(state), dtype=np.intp)

    def mask(self, state: State, out: np.ndarray | None = None) -> np.ndarray:
        """int8 vector with 1 at every legal action of the seat to move (all 0 once over)."""
        if out is None:
            out = np.zeros(len(self.actions), dtype=np.int8)
        else:
            out.fill(0)
        out[self.legal_index_list(state)] = 1
        return out


@dataclass(frozen=True)
class Block:
    """A named slice of the observation vector: ``vector[start:stop].reshape(shape)``."""

    name: str
    start: int
    stop: int
    shape: tuple[int, ...]
    doc: str


class Encoder:
    """Base of the per-game encoders: a layout of named blocks and the bounds of each value.

    Subclasses call :meth:`_block` in ``__init__`` to lay the vector out, then implement
    :meth:`encode` (observation dict -> vector) and :meth:`decode` (vector -> facts), and may
    name a ``state_writer`` that :meth:`encode_state` uses instead of the observation dict.
    """

    game_name = ""
    state_writer: Callable[[Any], LiveVector] | None = None
    """A LiveVector subclass writing the vector straight from the state: ``state_writer(encoder)``."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.blocks: dict[str, Block] = {}
        self.size = 0
        self._bounds: list[tuple[Block, float, float]] = []
        self._writer: LiveVector | None = None  # made on first use: it reads the finished layout

    def _block(
        self, name: str, shape: tuple[int, ...], doc: str, high: float = 1.0, low: float = 0.0
    ) -> Block:
        block = Block(name, self.size, self.size + int(np.prod(shape)), shape, doc)
        self.blocks[name] = block
        self.size = block.stop
        self._bounds.append((block, low, high))
        return block

    @property
    def low(self) -> np.ndarray:
        """Lower bound of every entry (0 except for quantities that can be negative)."""
        return self._bound(0)

    @property
    def high(self) -> np.ndarray:
        """Upper bound of every entry."""
        return self._bound(1)

    def _bound(self, which: int) -> np.ndarray:
        """Every block's low (``which`` 0) or high (1) bound, across the vector."""
        out = np.full(self.size, float(which), dtype=np.float32)
        for block, *bounds in self._bounds:
            out[block.start : block.stop] = bounds[which]
        return out

    def view(self, vector: np.ndarray, name: str) -> np.ndarray:
        """The block ``name`` of ``vector`` in its shape (a view: writes go through)."""
        b = self.blocks[name]
        return vector[b.start : b.stop].reshape(b.shape)

    def zeros(self) -> np.ndarray:
        return np.zeros(self.size, dtype=np.float32)

    def layout(self) -> str:
        """The layout as a text table (used in the docs)."""
        rows = [f"{'block':<16} {'slice':<14} {'shape':<12} meaning"]
        for b in self.blocks.values():
            rows.append(f"{b.name:<16} {f'{b.start}:{b.stop}':<14} {str(b.shape):<12} {b.doc}")
        return "\n".join(rows)

    def encode(self, observation: dict[str, Any]) -> np.ndarray:
        raise NotImplementedError

    def encode_trusted(self, state: State, seat: int | None) -> np.ndarray:
        """``encode_state(state, seat)`` for a seat the caller has checked itself (the environments, on
        every step): a new vector, without the check."""
        if self.state_writer is None:
            return self.encode(state.observation(seat))
        return self._live().write(state, seat)

    def encode_state(self, state: State, seat: int | None, out: np.ndarray | None = None) -> np.ndarray:
        """``encode(state.observation(seat))``, written into ``out`` (a vector) if given.

        With a ``state_writer`` it is read straight from the state, without building the
        observation dict (the adapters call this on every step); a test holds the two equal
        on many positions.
        """
        if self.state_writer is None:
            vector = self.encode(state.observation(seat))
        else:
            state._check_seat(seat)
            if out is None or (out.dtype == np.float32 and out.shape == (self.size,)):
                return self._live().write(state, seat, out)
            vector = self._live().write(state, seat)
        if out is None:
            return vector
        out[:] = vector
        return out

    def _live(self) -> LiveVector:
        """The encoder's writer (``state_writer``, which it names), made on first use."""
        writer = self._writer
        if writer is None:
            assert self.state_writer is not None, "an encoder without a state_writer has no live vector"
            writer = self._writer = self.state_writer(self)
        return writer

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without its writer, a cache made again on first use (OpenSpiel pickles games and their
        observers; a compiled writer could not be pickled, nor its buffer's view)."""
        return {**self.__dict__, "_writer": None}

    def mark_legal(self, state: State, actions: ActionMap, mask: np.ndarray) -> None:
        """Set 1 in ``mask`` (all zeros, int8) at each legal action's index in ``actions``.

        The same as ``actions.mask(state)``: what the environments call. Encoders of games with
        long lists of legal actions override it to set them in blocks without listing them (a
        test holds the two equal on many positions).
        """
        actions.mark_legal(state, mask.data)

    def decode(self, vector: np.ndarray) -> dict[str, Any]:
        raise NotImplementedError

    def max_game_length(self) -> int:
        """An upper bound on the decisions of one game (OpenSpiel's GameInfo needs one)."""
        raise NotImplementedError


class LiveVector:
    """The last vector an encoder wrote from a state, kept to be rewritten part by part.

    The fast encoders (``encode_state``) split the vector into parts, each written from a few
    of the state's lists and kept with a copy of them; a part whose lists still equal the copy
    is left as it is, so a step costs the parts it changed. A part is set by :meth:`_write`,
    item by item through the buffer (cheaper than NumPy's indexing for a few dozen entries).
    """

    def __init__(self, size: int, parts: int) -> None:
        self.live = np.zeros(size, dtype=np.float32)
        self.view: Any = self.live.data
        self.touched: list[list[int]] = [[] for _ in range(parts)]  # the entries each part has set
        self.kept: list[Any] = [None] * parts  # what each part was written from

    def write(self, state: State, seat: int | None, out: np.ndarray | None = None) -> np.ndarray:
        """The vector of ``state`` seen by ``seat``, copied into ``out`` (a new array if None)."""
        raise NotImplementedError

    def _write(self, part: int, values: list[tuple[int, float]]) -> None:
        """Set ``part``'s entries to ``values`` (index, value), clearing what it wrote before."""
        view = self.view
        touched = self.touched[part]
        for i in touched:
            view[i] = 0.0
        touched.clear()
        for i, x in values:
            touched.append(i)
            view[i] = x

    def _one_hots(self, at: int, width: int, now: list[int], then: list[int] | None) -> None:
        """One-hot rows of ``width`` from ``at``, one for each item of ``now`` (entry 0 for a value
        below 0, else 1 + the value), written only where ``now`` differs from ``then``, the values
        they were last written from (None: never written)."""
        view = self.view
        for i, w in enumerate(now):
            old = None if then is None else then[i]
            if w != old:
                row = at + i * width
                if old is not None:
                    view[row + (0 if old < 0 else 1 + old)] = 0.0
                view[row + (0 if w < 0 else 1 + w)] = 1.0


def encoder_for(game: Game) -> Encoder:
    """The encoder ``game`` declares (``Hooks.encoder``), bound to its configuration."""
    cls = hook(game, "encoder")
    if cls is None:
        raise ValueError(f"no observation encoder for game {game.name!r}: its Game class declares none")
    return cls(game)


def has_encoder(name: str) -> bool:
    """Whether the game ``name`` and its encoder can both be imported here."""
    try:
        from ..engine import load_game

        if hook(load_game(name), "encoder") is None:
            return False
    except Exception:  # noqa: BLE001 - any failure means "not available in this checkout"
        return False
    return True
