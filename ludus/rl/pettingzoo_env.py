"""A PettingZoo AEC environment for any ludus game configuration.

Agents are the seats, ``player_0`` .. ``player_{n-1}`` (a seat may play several colours, as
the game has it). The agent to act is the seat to move; a seat often takes several decisions
in a row (a turn made of small steps), which AEC allows. Each agent observes
``{"observation": float32 vector, "action_mask": int8 vector}`` encoded from what
``state.observation(seat)`` shows, read straight from the state (fresh arrays each call; the
game's encoder gives the layout, :mod:`ludus.rl.encoding`); the mask is all zeros for agents
not to move. Actions are indices into ``game.all_actions()``
(``env.action_to_notation(i)`` / ``env.notation_to_action(text)``). Rewards come at the end:
``reward="win"`` gives the engine's ``returns()`` (1, or 1/k for a k-way shared win),
``reward="score_diff"`` a seat's score minus the mean of the others' scores (in a solo
game, the score itself).
"""

from __future__ import annotations

import copy
import json
from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv  # type: ignore[import-untyped]
except ImportError as exc:
    raise ImportError(f"ludus.rl needs {exc.name}, from the 'rl' extra (pip install 'ludus[rl]')") from exc

from ..engine import Game, IllegalActionError, State, load_game
from ..engine.hooks import hook
from .encoding import ActionMap, Encoder, encoder_for

REWARDS = ("win", "score_diff")


def final_rewards(state: State, reward: str) -> list[float]:
    """Each seat's end-of-game reward under ``reward`` ("win" or "score_diff").

    With a single seat (a solo game) ``score_diff`` is just that seat's score.
    """
    if reward == "win":
        return [float(r) for r in state.returns()]
    scores = state.scores()
    n = len(scores)
    if n == 1:
        return [float(scores[0])]
    total = sum(scores)
    return [float(s - (total - s) / (n - 1)) for s in scores]


def render_observation(observation: dict[str, Any], game_name: str) -> str:
    """The game's text board for an observation, or its JSON if the game has no text renderer."""
    module = hook(game_name, "renderer")
    if module is None:
        return json.dumps(observation, indent=1)
    return module.render_text(observation, color=False)


class LudusAECEnv(AECEnv):
    """PettingZoo AEC environment over one ludus game configuration."""

    metadata = {"render_modes": ["ansi"], "name": "ludus_v0", "is_parallelizable": False}

    def __init__(
        self, name: str, reward: str = "win", render_mode: str | None = None, **options: Any
    ) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, got {reward!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.game: Game = load_game(name, **options)
        self.reward_kind = reward
        self.render_mode = render_mode
        self.encoder: Encoder = encoder_for(self.game)
        self.action_map = ActionMap(self.game)
        self._num_actions = len(self.action_map)
        self._actions = self.action_map.actions
        self.metadata = dict(self.metadata, name=f"ludus_{name}_v0")
        n = self.game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    self.encoder.low, self.encoder.high, (self.encoder.size,), np.float32
                ),
                "action_mask": spaces.Box(0, 1, (len(self.action_map),), np.int8),
            }
        )
        self.observation_spaces = {
            a: obs_space if i == 0 else _copy_space(obs_space) for i, a in enumerate(self.possible_agents)
        }
        self.action_spaces = {a: spaces.Discrete(len(self.action_map)) for a in self.possible_agents}
        self.state: State | None = None
        self._no_action = np.zeros(len(self.action_map), dtype=np.int8)  # the mask of an agent not to move
        self._seed_rng = np.random.default_rng()

    # -- spaces and the action mapping ------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def action_to_notation(self, index: int) -> str:
        """The notation of action ``index`` (e.g. ``"c14.2 BBGY"``)."""
        return self.action_map.notation(index)

    def notation_to_action(self, text: str) -> int:
        """The index of an action given by its notation."""
        return self.action_map.to_index(text)

    # -- the episode -------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
        game_seed = int(self._seed_rng.integers(0, 2**63 - 1))
        self.state = self.game.new_initial_state(seed=game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player()]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's view, worked out when asked (``last()``), never inside ``step``."""
        seat = self.agent_seat[agent]
        state = self.state
        assert state is not None, "call reset() first"
        obs = self.encoder.encode_trusted(state, seat)  # a new array
        mask = self._no_action.copy()
        if state.current_player() == seat:
            self.encoder.mark_legal(state, self.action_map, mask)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} must act: None is only for agents whose game is over")
        state = self.state
        assert state is not None, "call reset() first"
        actions = self._actions
        if type(action) is int and 0 <= action < len(actions):
            chosen = actions[action]
        else:  # a NumPy integer or a 0-d array, or out of range (refused there)
            chosen = self.action_map.to_action(action)
        state.apply_action(chosen)  # illegal -> error, nothing changed
        self._cumulative_rewards[agent] = 0.0
        player = state.current_player()
        if player >= 0:
            # rewards come only at the end: all 0 until then, so there is nothing to reset or add up
            self.agent_selection = self.possible_agents[player]
            return
        self.rewards = dict(zip(self.possible_agents, final_rewards(state, self.reward_kind), strict=True))
        self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        assert self.state is not None, "call reset() first"
        return render_observation(self.state.observation(None), self.game.name)

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return str(self.metadata["name"])


def _copy_space(space: spaces.Dict) -> spaces.Dict:
    return copy.deepcopy(space)


def pettingzoo_env(name: str, **options: Any) -> LudusAECEnv:
    """A PettingZoo AEC env of the game ``name``: ``pettingzoo_env(name, players=3, reward="score_diff")``.

    ``options`` are the game's options plus ``reward`` ("win" or "score_diff") and
    ``render_mode`` (None or "ansi").
    """
    return LudusAECEnv(name, **options)
