"""ludus games as OpenSpiel Python games: ``import ludus.rl.openspiel`` registers them.

Registers ``python_ludus_<name>`` with ``pyspiel`` for every installed game that declares an
encoder (``REGISTERED`` lists them). Game parameters are the game's options (``players``, ...)
plus:

* ``deals`` -- how many distinct deals the opening chance node offers (default 1000),
* ``seed`` -- which family of deals (default 0).

An option whose default is ``None`` (a solo game's difficulty, say) is the string "none" here.

Scope: sequential, imperfect information, explicit chance. The engine draws all its chance
(shuffles, draws, hidden orders) from its own seeded RNG, so the game is modelled as one chance
node at the root choosing a deal ``d`` uniformly among ``deals``; the engine game is then
played with seed ``seed * deals + d`` and is deterministic given the players' actions.
Actions are indices into ``game.all_actions()``; utilities are the engine's ``returns()``
(1 for the winner, 1/k each for a k-way shared win).

Information: ``information_state_string(p)`` is perfect recall -- a digest chain over
every observation seat ``p`` received (``state.observation(p)`` after each decision),
prefixed with the seat and step count, computed only when asked for; ``observation_string(p)`` is the current view as
JSON and ``observation_tensor(p)`` its encoding (the game's encoder, :mod:`ludus.rl.encoding`).
``resample_from_infostate(p, sampler)`` re-deals what ``p`` cannot see with the engine's
``State.resample``; the resampled state keeps the observed history, not a deal index.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

try:
    import numpy as np
    import pyspiel  # type: ignore[import-not-found]
except ImportError as exc:
    raise ImportError(
        f"ludus.rl.openspiel needs {exc.name}, from the 'openspiel' extra (pip install 'ludus[openspiel]')"
    ) from exc

from ..engine import Game, State, load_game
from ..engine.registry import game_class, game_names
from .encoding import ActionMap, Encoder, encoder_for, has_encoder

DEFAULT_DEALS = 1000
SHORT_NAMES = {name: f"python_ludus_{name}" for name in game_names()}  # those with an encoder get registered


class _Shared:
    """Holds objects every copy of a state shares (the game); ``deepcopy`` keeps the same one."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict) -> _Shared:
        return self


class _Engine:
    """Holds the engine state; ``deepcopy`` uses the engine's fast ``clone``."""

    __slots__ = ("state",)

    def __init__(self, state: State | None) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict) -> _Engine:
        return _Engine(None if self.state is None else self.state.clone())


class _Trail:
    """One step of a game's path, shared by every copy of the states on it.

    ``digests[p]`` is seat ``p``'s perfect-recall digest after this step, filled lazily:
    random rollouts never ask for information states, so they never pay for them. Roots
    (the deal, and each resampled world) keep an engine snapshot to replay from.
    """

    __slots__ = ("parent", "action", "step", "digests", "snapshot")

    def __init__(
        self,
        parent: _Trail | None,
        action: int | None,
        step: int,
        digests: list[str | None],
        snapshot: State | None = None,
    ) -> None:
        self.parent = parent
        self.action = action
        self.step = step
        self.digests = digests
        self.snapshot = snapshot

    def __deepcopy__(self, memo: dict) -> _Trail:
        return self


def _digest(previous: str, state: State, seat: int) -> str:
    view = json.dumps(state.observation(seat), sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b((previous + view).encode(), digest_size=12).hexdigest()


def _parameters(name: str) -> dict[str, Any]:
    """OpenSpiel parameter defaults: the game's options (``None`` spelled "none"), deals, seed."""
    spec = {opt.name: "none" if opt.default is None else opt.default for opt in game_class(name).options}
    spec["deals"] = DEFAULT_DEALS
    spec["seed"] = 0
    return spec


def _game_type(name: str) -> pyspiel.GameType:
    cls = game_class(name)
    players = next(opt.choices for opt in cls.options if opt.name == "players")
    return pyspiel.GameType(
        short_name=SHORT_NAMES[name],
        long_name=f"ludus {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(players),
        min_num_players=min(players),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(name),
    )


class LudusSpielGame(pyspiel.Game):
    """One ludus game configuration as an OpenSpiel game."""

    ludus_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        spec = _parameters(self.ludus_name)
        full = {k: params.get(k, v) for k, v in spec.items()}
        deals, seed = int(full.pop("deals")), int(full.pop("seed"))
        full = {k: None if v == "none" else v for k, v in full.items()}
        if deals < 1:
            raise ValueError(f"deals must be at least 1, got {deals}")
        engine_game: Game = load_game(self.ludus_name, **full)
        encoder = encoder_for(engine_game)
        action_map = ActionMap(engine_game)
        n = engine_game.num_players
        info = pyspiel.GameInfo(
            num_distinct_actions=len(action_map),
            max_chance_outcomes=deals,
            num_players=n,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=encoder.max_game_length(),
        )
        super().__init__(_game_type(self.ludus_name), info, params)
        self.ludus = _Shared((engine_game, encoder, action_map, deals, seed))

    def new_initial_state(self) -> LudusSpielState:
        return LudusSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> LudusObserver:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        return LudusObserver(self, iig_obs_type)


class LudusSpielState(pyspiel.State):
    """An OpenSpiel state over an engine state (``None`` until the deal is drawn)."""

    def __init__(self, game: LudusSpielGame) -> None:
        super().__init__(game)
        self.ludus = game.ludus
        self.engine = _Engine(None)
        self.trail: _Trail | None = None

    # -- helpers -------------------------------------------------------------------------
    @property
    def _state(self) -> State | None:
        return self.engine.state

    def _path(self) -> _Trail:
        """The trail's current step (there is one from the deal on)."""
        assert self.trail is not None, "no step before the deal"
        return self.trail

    def _seat_digest(self, seat: int) -> str:
        """Seat's digest at the current step, computing (and caching) what is missing."""
        node = self._path()
        known = node.digests[seat]
        if known is not None:
            return known
        assert node.parent is not None and self._state is not None  # the deal's step has every digest
        before = node.parent.digests[seat]
        if before is not None:  # the usual case: one step past a known digest
            known = node.digests[seat] = _digest(before, self._state, seat)
            return known
        path = []  # replay from the nearest root with an engine snapshot
        root: _Trail | None = node
        while root is not None and root.snapshot is None:
            path.append(root)
            root = root.parent
        assert root is not None and root.snapshot is not None
        world = root.snapshot.clone()
        action_map = self.ludus.value[2]
        for step in reversed(path):
            world.apply_action(action_map.to_action(step.action))
            previous = step.parent.digests[seat] if step.parent is not None else None
            if step.digests[seat] is None and previous is not None:
                step.digests[seat] = _digest(previous, world, seat)
        known = node.digests[seat]
        assert known is not None
        return known

    # -- OpenSpiel hooks -------------------------------------------------------------------
    def current_player(self) -> int:
        state = self._state
        if state is None:
            return pyspiel.PlayerId.CHANCE
        if state.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return state.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        state = self._state
        if state is None or state.is_terminal() or player != state.current_player():
            return []
        return self.ludus.value[2].legal_indices(state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        deals = self.ludus.value[3]
        return [(d, 1.0 / deals) for d in range(deals)]

    def _apply_action(self, action: int) -> None:
        game, _encoder, action_map, deals, seed = self.ludus.value
        if self._state is None:
            if not 0 <= action < deals:
                raise ValueError(f"deal {action} is outside 0..{deals - 1}")
            state = game.new_initial_state(seed=seed * deals + int(action))
            self.engine = _Engine(state)
            self.trail = _Trail(
                None, None, 1, [_digest(f"seat{p}", state, p) for p in range(game.num_players)], state.clone()
            )
        else:
            self._state.apply_action(action_map.to_action(action))
            self.trail = _Trail(self.trail, int(action), self._path().step + 1, [None] * game.num_players)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return self.ludus.value[2].notation(action)

    def is_terminal(self) -> bool:
        state = self._state
        return state is not None and state.is_terminal()

    def returns(self) -> list[float]:
        state = self._state
        if state is None:
            return [0.0] * self.ludus.value[0].num_players
        return [float(r) for r in state.returns()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> LudusSpielState:
        """A state ``player_id`` cannot tell from this one, hidden information re-dealt."""
        other = self.clone()
        if self._state is not None:
            seed = int(probability_sampler() * 2**52)
            world = self._state.resample(player_id, random.Random(seed))
            other.engine = _Engine(world)
            digests: list[str | None] = [self._seat_digest(p) for p in range(len(self._path().digests))]
            other.trail = _Trail(None, None, self._path().step, digests, world.clone())
        return other

    def infostate_string(self, player: int) -> str:
        if self._state is None:
            return f"seat{player} before the deal"
        return f"seat{player} step{self._path().step} {self._seat_digest(player)}"

    def __str__(self) -> str:
        state = self._state
        if state is None:
            return "before the deal"
        return json.dumps(state.observation(None), sort_keys=True, separators=(",", ":"))


class LudusObserver:
    """OpenSpiel observer: the seat's encoded view (tensor) and its JSON or digest chain (string)."""

    def __init__(self, game: LudusSpielGame, iig_obs_type: Any) -> None:
        self.encoder: Encoder = game.ludus.value[1]
        self.perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        self.private = (
            iig_obs_type is None or iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        )
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: LudusSpielState, player: int) -> None:
        engine = state._state
        if engine is None:
            self.tensor.fill(0.0)
            return
        self.encoder.encode_state(engine, player if self.private else None, self.tensor)

    def string_from(self, state: LudusSpielState, player: int) -> str:
        if self.perfect_recall:
            return state.infostate_string(player)
        engine = state._state
        if engine is None:
            return "before the deal"
        return json.dumps(
            engine.observation(player if self.private else None), sort_keys=True, separators=(",", ":")
        )


def _register(name: str) -> bool:
    """Register one game if it and its encoder are installed; a missing game is skipped."""
    if not has_encoder(name):
        return False
    if SHORT_NAMES[name] in pyspiel.registered_names():
        return True
    cls = type(f"Ludus{name.title()}SpielGame", (LudusSpielGame,), {"ludus_name": name})
    pyspiel.register_game(_game_type(name), cls)
    return True


REGISTERED = [SHORT_NAMES[name] for name in SHORT_NAMES if _register(name)]
"""Short names registered by importing this module."""


def load(name: str, **params: Any) -> pyspiel.Game:
    """``pyspiel.load_game`` for a ludus game by its ludus name: ``load(name, players=3)``."""
    return pyspiel.load_game(SHORT_NAMES[name], params)
