"""The training example runs end to end with its tiny budget and reports both win rates."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_masked_policy.py"


def test_train_masked_policy_tiny_budget_reports_win_rates():
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--budget", "tiny"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "win rate against random before training" in done.stdout
    assert "win rate against random after training" in done.stdout
    assert "trained on 6 games" in done.stdout


def test_policy_update_raises_the_probability_of_a_rewarded_action():
    sys.path.insert(0, str(EXAMPLE.parent))
    try:
        import numpy as np
        from train_masked_policy import MaskedLinearPolicy

        from ludus.rl import gym_env
    finally:
        sys.path.pop(0)
    env = gym_env("garum", players=2)
    x, info = env.reset(seed=0)
    policy = MaskedLinearPolicy(env, rank=4, rng=np.random.default_rng(0))
    legal, p, _, _ = policy.probabilities(x, info["action_mask"])
    action = int(legal[0])
    policy.update([(x, info["action_mask"], action)], advantage=1.0, lr=0.5, feature_lr=0.5)
    _legal, q, _, _ = policy.probabilities(x, info["action_mask"])
    assert q[0] > p[0]
