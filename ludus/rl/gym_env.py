"""A single-agent Gymnasium environment: one seat learns, ludus bots play the other seats.

The observation is the seat's encoded view (a float32 vector laid out by the game's encoder,
:mod:`ludus.rl.encoding`); the action is an index into ``game.all_actions()``. Bots
move between the agent's decisions inside ``step``, so every observation is one where
the agent must act. The legal-action mask is in ``info["action_mask"]`` and from
``env.action_masks()`` (the name sb3-contrib's MaskablePPO looks for). The reward is 0
until the end, then the seat's ``"win"`` return or its ``"score_diff"``.

An illegal action (possible when the mask is ignored, as ``check_env`` does) changes
nothing: with ``illegal="penalty"`` (the default) it costs ``illegal_penalty`` and
``info["illegal_action"]`` says why; with ``illegal="raise"`` it raises IllegalActionError.
"""

from __future__ import annotations

from typing import Any

try:
    import gymnasium as gym
    import numpy as np
except ImportError as exc:
    raise ImportError(f"ludus.rl needs {exc.name}, from the 'rl' extra (pip install 'ludus[rl]')") from exc

from ..bots import Bot, make
from ..engine import IllegalActionError, State, load_game
from .encoding import ActionMap, encoder_for
from .pettingzoo_env import REWARDS, final_rewards, render_observation

OpponentSpec = str | dict[str, Any] | Bot


class LudusGymEnv(gym.Env):
    """One seat of a ludus game against bots, as a Gymnasium environment."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        name: str,
        opponents: list[OpponentSpec] | None = None,
        seat: int = 0,
        reward: str = "win",
        render_mode: str | None = None,
        illegal: str = "penalty",
        illegal_penalty: float = -1.0,
        **options: Any,
    ) -> None:
        if illegal not in ("penalty", "raise"):
            raise ValueError(f"illegal must be 'penalty' or 'raise', got {illegal!r}")
        self.illegal = illegal
        self.illegal_penalty = float(illegal_penalty)
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, got {reward!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.game = load_game(name, **options)
        n = self.game.num_players
        if not 0 <= seat < n:
            raise ValueError(f"seat must be 0..{n - 1}, got {seat}")
        if opponents is None:
            opponents = ["random"] * (n - 1)
        if len(opponents) != n - 1:
            raise ValueError(f"{name} with {n} players needs {n - 1} opponents, got {len(opponents)}")
        self.opponent_specs = list(opponents)
        self.seat = seat
        self.reward_kind = reward
        self.render_mode = render_mode
        self.encoder = encoder_for(self.game)
        self.action_map = ActionMap(self.game)
        self.observation_space = gym.spaces.Box(
            self.encoder.low, self.encoder.high, (self.encoder.size,), np.float32
        )
        self.action_space = gym.spaces.Discrete(len(self.action_map))
        self.state: State | None = None
        self.bots: dict[int, Bot] = {}

    def _make_bots(self) -> dict[int, Bot]:
        others = [s for s in range(self.game.num_players) if s != self.seat]
        bots = {}
        for seat, spec in zip(others, self.opponent_specs, strict=True):
            seed = int(self.np_random.integers(0, 2**63 - 1))
            if isinstance(spec, str):
                bots[seat] = make(spec, seed=seed)
            elif isinstance(spec, dict):
                params = {k: v for k, v in spec.items() if k != "name"}
                params.setdefault("seed", seed)
                bots[seat] = make(spec["name"], **params)
            else:
                bots[seat] = spec
        return bots

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self.state = self.game.new_initial_state(seed=int(self.np_random.integers(0, 2**63 - 1)))
        self.bots = self._make_bots()
        self._play_bots()
        return self._observation(), self._info()

    def _live(self) -> State:
        """The game in play (``reset()`` starts one)."""
        if self.state is None:
            raise RuntimeError("call reset() first")
        return self.state

    def _play_bots(self) -> None:
        state = self._live()
        while not state.is_terminal() and state.current_player() != self.seat:
            state.apply_action(self.bots[state.current_player()].step(state))

    def _observation(self) -> np.ndarray:
        return self.encoder.encode_trusted(self._live(), self.seat)  # a new array (seat checked in __init__)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks()}

    def action_masks(self) -> np.ndarray:
        """int8 mask of the agent's legal actions (all 0 once the game is over)."""
        state = self._live()
        mask = np.zeros(len(self.action_map), dtype=np.int8)
        if not state.is_terminal():
            self.encoder.mark_legal(state, self.action_map, mask)
        return mask

    def step(self, action: int):
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        state = self.state
        if state.is_terminal():
            raise IllegalActionError("the game is over: call reset()")
        try:
            state.apply_action(self.action_map.to_action(action))  # illegal: nothing changed
        except IllegalActionError as exc:
            if self.illegal == "raise":
                raise
            info = self._info()
            info["illegal_action"] = str(exc)
            return self._observation(), self.illegal_penalty, False, False, info
        self._play_bots()
        terminated = state.is_terminal()
        reward = final_rewards(state, self.reward_kind)[self.seat] if terminated else 0.0
        return self._observation(), reward, terminated, False, self._info()

    def action_to_notation(self, index: int) -> str:
        return self.action_map.notation(index)

    def notation_to_action(self, text: str) -> int:
        return self.action_map.to_index(text)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_observation(self._live().observation(self.seat), self.game.name)


def gym_env(name: str, opponents: list[OpponentSpec] | None = None, **options: Any) -> LudusGymEnv:
    """A Gymnasium env for one seat of the game ``name``: ``gym_env(name, players=2, opponents=["greedy"])``.

    ``opponents`` lists one bot per other seat (a bot name, ``{"name": ..., **params}``, or a
    bot object); by default they are random bots. Other options: ``seat`` (0), ``reward``
    ("win" or "score_diff"), ``render_mode`` (None or "ansi"), ``illegal`` ("penalty" or
    "raise"), ``illegal_penalty`` (-1.0), and the game's options.
    """
    return LudusGymEnv(name, opponents, **options)
