"""Train a small masked softmax policy on 2-player Garum against the random bot (NumPy only).

The policy scores every action of ``game.all_actions()`` as
``bias[a] + A[a] . (B x) + w . phi(x, a)``: a low-rank linear map of the observation
vector ``x`` plus a few features of the action read from the same vector (its kind; for a
tile, how many of the mover's fish it shows; for a worker, how many of the mover's fish
and empty cells its line holds). It keeps the legal actions (the mask) and samples from
their softmax. It learns by REINFORCE with a running baseline, from the
end-of-game reward ``score_diff`` (own score minus the opponent's), in the single-agent
Gymnasium environment ``ludus.rl.gym_env`` whose other seat is ``ludus.bots.make("random")``.

    python examples/train_masked_policy.py               # a couple of minutes
    python examples/train_masked_policy.py --budget tiny # a few seconds (used by the tests)

It prints the policy's win rate against ``random`` before and after training.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from ludus.games.garum.actions import Choose, Pass, Place, Worker
from ludus.rl import gym_env

BUDGETS = {  # training episodes, evaluation games, seconds cap on training
    "tiny": (6, 6, 20.0),
    "small": (1500, 300, 150.0),
    "full": (3000, 400, 600.0),
}


class ActionFeatures:
    """``phi(x, a)`` for the legal actions, read from the observation vector (see encode_garum)."""

    KINDS = (Place, Worker, Pass, Choose)
    SIZE = len(KINDS) + 5

    def __init__(self, env) -> None:
        self.encoder = env.encoder
        actions = env.action_map.actions
        self.kind = np.array([next(i for i, k in enumerate(self.KINDS) if isinstance(a, k)) for a in actions])
        self.fish = np.array(
            [[a.fish.count(s) for s in "BGYR"] if isinstance(a, Place) else [0] * 4 for a in actions],
            dtype=float,
        )
        self.line = np.array([a.line if isinstance(a, Worker) else 0 for a in actions])
        self.dominus = np.array([isinstance(a, Worker) and a.dominus for a in actions], dtype=float)

    def __call__(self, x: np.ndarray, legal: np.ndarray) -> np.ndarray:
        view = self.encoder.view
        mover = int(view(x, "colours")[:, 2].argmax())
        cells = view(x, "cells").reshape(16, 16, 6)
        own = cells[:, :, 2 + mover]
        empty = cells[:, :, 1]
        own_line = np.concatenate([own.sum(axis=1), own.sum(axis=0)])  # h1..h16, v1..v16
        empty_line = np.concatenate([empty.sum(axis=1), empty.sum(axis=0)])
        progress = float(view(x, "round").argmax()) / 16
        out = np.zeros((len(legal), self.SIZE))
        out[np.arange(len(legal)), self.kind[legal]] = 1.0
        worker = self.kind[legal] == 1
        out[:, 4] = self.fish[legal, mover] / 4
        out[:, 5] = worker * own_line[self.line[legal]] / 8
        out[:, 6] = worker * empty_line[self.line[legal]] / 8
        out[:, 7] = worker * progress
        out[:, 8] = self.dominus[legal] * own_line[self.line[legal]] / 8
        return out


class MaskedLinearPolicy:
    """Softmax over legal actions of ``bias + A (B x) + w . phi(x, a)``."""

    def __init__(self, env, rank: int, rng: np.random.Generator) -> None:
        obs_size, n_actions = env.observation_space.shape[0], env.action_space.n
        self.bias = np.zeros(n_actions)
        self.A = rng.normal(0.0, 0.01, (n_actions, rank))
        self.B = rng.normal(0.0, 0.01, (rank, obs_size))
        self.features = ActionFeatures(env)
        self.w = np.zeros(ActionFeatures.SIZE)
        self.rng = rng

    def probabilities(self, x: np.ndarray, mask: np.ndarray):
        legal = np.flatnonzero(mask)
        h = self.B @ x
        phi = self.features(x, legal)
        logits = self.bias[legal] + self.A[legal] @ h + phi @ self.w
        logits -= logits.max()
        p = np.exp(logits)
        return legal, p / p.sum(), h, phi

    def act(self, x: np.ndarray, mask: np.ndarray) -> int:
        legal, p, _, _ = self.probabilities(x, mask)
        return int(self.rng.choice(legal, p=p))

    def update(
        self,
        episode: list[tuple[np.ndarray, np.ndarray, int]],
        advantage: float,
        lr: float,
        feature_lr: float,
    ) -> None:
        """One REINFORCE step: raise the log-probability of the actions taken, times the advantage."""
        for x, mask, action in episode:
            legal, p, h, phi = self.probabilities(x, mask)
            grad = -p
            grad[np.searchsorted(legal, action)] += 1.0  # d log p(action) / d logits of the legal actions
            step = lr * advantage
            a_rows = self.A[legal]
            self.bias[legal] += step * grad
            self.A[legal] += step * np.outer(grad, h)
            self.B += step * np.outer(grad @ a_rows, x)
            self.w += feature_lr * advantage * (grad @ phi)


def play(env, policy: MaskedLinearPolicy, seed: int) -> tuple[list, float, float]:
    """One game; the decisions, the score-difference reward and the engine's win return."""
    x, info = env.reset(seed=seed)
    episode = []
    done = False
    reward = 0.0
    while not done:
        mask = info["action_mask"]
        action = policy.act(x, mask)
        episode.append((x, mask, action))
        x, reward, done, _trunc, info = env.step(action)
    return episode, reward, env.state.returns()[env.seat]


def win_rate(env, policy: MaskedLinearPolicy, games: int, seed: int) -> float:
    return float(np.mean([play(env, policy, seed + g)[2] for g in range(games)]))


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", choices=sorted(BUDGETS), default="small")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rank", type=int, default=16)
    parser.add_argument("--lr", type=float, default=0.02, help="learning rate of bias, A and B")
    parser.add_argument("--feature-lr", type=float, default=0.05, help="learning rate of w")
    args = parser.parse_args(argv)
    episodes, eval_games, cap = BUDGETS[args.budget]

    env = gym_env("garum", players=2, opponents=["random"], reward="score_diff")
    rng = np.random.default_rng(args.seed)
    policy = MaskedLinearPolicy(env, args.rank, rng)

    before = win_rate(env, policy, eval_games, seed=10**6)
    print(f"win rate against random before training: {before:.1%} over {eval_games} games")

    start = time.perf_counter()
    baseline, trained = 0.0, 0
    for e in range(episodes):
        if time.perf_counter() - start > cap:
            break
        episode, reward, _won = play(env, policy, seed=args.seed * 10**6 + e)
        scaled = reward / 20.0
        policy.update(episode, scaled - baseline, args.lr / max(1, len(episode)) * 10, args.feature_lr)
        baseline += 0.05 * (scaled - baseline)
        trained += 1
        if (e + 1) % 100 == 0:
            print(
                f"  {e + 1} episodes, running mean score difference {baseline * 20:+.1f}, "
                f"feature weights {np.round(policy.w, 2).tolist()}"
            )
    seconds = time.perf_counter() - start

    after = win_rate(env, policy, eval_games, seed=10**6)
    print(f"trained on {trained} games in {seconds:.0f} s")
    print(f"win rate against random after training:  {after:.1%} over {eval_games} games")
    return {"before": before, "after": after, "episodes": trained}


if __name__ == "__main__":
    main()
