"""Hints: how long one takes, how many determinizations fit the server's cap, and how its first
move compares with greedy's, on positions of greedy self-play.

Per configuration: the time of ``hint(state, n=3)`` uncapped (8 determinizations; mean, 95th
percentile and max, CPU seconds of this process), the determinizations a hint capped at the
server's default 1 s used (mean), and how often the first hint is the move the greedy bot
(one determinization) plays in that position. With ``--games N``: N two-player games of each
game where one seat always plays its first hint and the other is greedy (seats alternate), and
the hint player's share of the wins with a 95 % Wilson interval.

    .venv/bin/python benchmarks/hints.py [--positions 12] [--seed 1] [--games 0]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ludus  # noqa: E402
from ludus.bots import make  # noqa: E402

HINT = sys.modules["ludus.bots.hint"]
CONFIGS = (
    ("garum", {"players": 2}),
    ("garum", {"players": 3}),
    ("garum", {"players": 4}),
    ("celtae", {"players": 1}),
    ("celtae", {"players": 2}),
    ("celtae", {"players": 3}),
    ("celtae", {"players": 4}),
)


def positions(game: str, options: dict, count: int, seed: int) -> list[ludus.State]:
    """``count`` positions spread over greedy self-play games, with more than one legal move."""
    rng = random.Random(seed)
    out: list[ludus.State] = []
    while len(out) < count:
        state = ludus.load_game(game, **options).new_initial_state(seed=rng.randrange(2**31))
        bots = [make("greedy", seed=rng.randrange(2**31)) for _ in range(state.game.num_players)]
        seen = []
        while not state.is_terminal():
            if len(state.legal_actions()) > 1:
                seen.append(state.clone())
            state.apply_action(bots[state.current_player()].step(state))
        out += rng.sample(seen, min(len(seen), max(1, count // 3), count - len(out)))
    return out


def worlds_used(state: ludus.State, seconds: float) -> int:
    """How many determinizations a hint capped at ``seconds`` averaged (counted through resample)."""
    count = 0
    real = type(state).resample

    def counting(self, seat, rng=None):
        nonlocal count
        count += 1
        return real(self, seat, rng)

    type(state).resample = counting
    try:
        HINT.hint(state, n=3, seconds=seconds, seed=0)
    finally:
        type(state).resample = real
    return count - 1  # less the world the reasons are shown on


class FirstHint:
    """Plays its first hint (what a player who always follows the hint would play)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def step(self, state: ludus.State) -> ludus.Action:
        top = HINT.hint(state, n=1, seed=self.rng.randrange(2**31))[0]["action"]
        return state.game.parse_action(top)


def wilson(wins: float, n: int) -> tuple[float, float]:
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5 / (1 + z * z / n)
    return centre - half, centre + half


def duel(game: str, games: int, seed: int) -> None:
    wins = 0.0
    for i in range(games):
        state = ludus.load_game(game, players=2).new_initial_state(seed=seed * 1000 + i)
        hinted = i % 2
        bots = [FirstHint(i) if s == hinted else make("greedy", seed=i) for s in range(2)]
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        wins += state.returns()[hinted]
    low, high = wilson(wins, games)
    print(f"{game} 2p: first hint vs greedy: {wins / games:.0%} of {games} games (95 % {low:.0%}-{high:.0%})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=0)
    args = parser.parse_args()
    for game in ("garum", "celtae") if args.games else ():
        duel(game, args.games, args.seed)
    print(
        f"{'configuration':<22}{'moves':>7}{'mean s':>9}{'p95 s':>8}{'max s':>8}{'worlds@1s':>11}"
        f"{'= greedy':>10}"
    )
    for game, options in CONFIGS:
        states = positions(game, options, args.positions, args.seed)
        times, same, worlds, moves = [], 0, [], []
        for i, state in enumerate(states):
            moves.append(len(state.legal_actions()))
            start = time.process_time()
            top = HINT.hint(state, n=3, seed=i)[0]["action"]
            times.append(time.process_time() - start)
            same += top == str(make("greedy", seed=i).step(state))
            worlds.append(worlds_used(state, 1.0))
        times.sort()
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        label = f"{game} {options['players']}p"
        print(
            f"{label:<22}{statistics.mean(moves):>7.1f}{statistics.mean(times):>9.3f}{p95:>8.3f}"
            f"{times[-1]:>8.3f}{statistics.mean(worlds):>11.1f}{same / len(states):>10.0%}"
        )


if __name__ == "__main__":
    main()
