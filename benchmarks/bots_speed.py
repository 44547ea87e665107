"""The workloads of the speed targets, each run in slices of CPU time so that a yardstick can be
measured between them (``yardstick.beside``), and the bots' memory.

- ``greedy``: greedy self-play decisions (every seat greedy, whole games);
- ``ismcts``: ISMCTS tree iterations, ``preset=classic`` at 300 iterations a decision, every seat
  the bot (self-play games, the decisions timed; a decision with one legal action runs none);
- ``random_play``: the raw engine, random play through ``legal_actions()`` and ``apply_action``.

Each workload is an object whose call runs about ``seconds`` of CPU and returns (count, CPU
seconds), carrying on its games from slice to slice. Memory: the tracemalloc peak of one whole
greedy game and of one ISMCTS decision (Python allocations made while it runs).

    .venv/bin/python benchmarks/bots_speed.py [--seconds 6]     # the bot rows with their peaks

``benchmarks/targets.py`` prints every target's row from these.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from yardstick import beside, hearts_rate  # noqa: E402

import ludus  # noqa: E402
from ludus.bots import make  # noqa: E402
from ludus.bots.ismcts import ISMCTSBot  # noqa: E402

# (label, workload, game, players, target ratio to hearts)
ROWS: tuple[tuple[str, str, str, int, float], ...] = (
    ("greedy self-play, Garum 4 players", "greedy", "garum", 4, 0.005),
    ("greedy self-play, Celtae 4 players", "greedy", "celtae", 4, 0.003),
    ("ISMCTS classic 300, Garum 4 players", "ismcts", "garum", 4, 0.003),
    ("ISMCTS classic 300, Celtae 2 players", "ismcts", "celtae", 2, 0.004),
    ("raw engine, Garum 4 players", "random", "garum", 4, 0.3),
    ("raw engine, Celtae 4 players", "random", "celtae", 4, 0.3),
)


class SelfPlay:
    """Games of one game, every seat played by ``bots(seed)``; each call plays on for about ``seconds``
    of CPU and returns (what it counted, the CPU seconds it timed). Games are seeded 0, 1, 2 ...,
    so two runs (two versions of the code) play the same games as long as they decide alike."""

    def __init__(self, game_name: str, players: int, **options: Any) -> None:
        self.game = ludus.load_game(game_name, players=players, **options)
        self.games = 0
        self.state: Any = None
        self.bots: list[Any] = []

    def new_game(self) -> None:
        seed = self.games
        self.state = self.game.new_initial_state(seed=seed)
        self.bots = self.make_bots(seed)
        self.games += 1

    def make_bots(self, seed: int) -> list[Any]:
        raise NotImplementedError

    def __call__(self, seconds: float) -> tuple[float, float]:
        clock = time.process_time
        count, start = 0, clock()
        while clock() - start < seconds:
            if self.state is None or self.state.is_terminal():
                self.new_game()
            count += self.decide()
        return count, clock() - start

    def decide(self) -> int:
        """One decision applied; what it counts."""
        state = self.state
        state.apply_action(self.bots[state.current_player()].step(state))
        return 1


class Greedy(SelfPlay):
    """Greedy self-play: decisions."""

    def make_bots(self, seed: int) -> list[Any]:
        return [make("greedy", seed=seed * 10 + s) for s in range(self.game.num_players)]


class Ismcts(SelfPlay):
    """ISMCTS self-play (``preset=classic``, ``iterations`` a decision): tree iterations, only the
    bots' decisions timed."""

    def __init__(self, game_name: str, players: int, iterations: int = 300) -> None:
        super().__init__(game_name, players)
        self.iterations = iterations
        self.decisions = 0

    def make_bots(self, seed: int) -> list[Any]:
        return [
            ISMCTSBot(seed=seed * 10 + s, iterations=self.iterations, preset="classic")
            for s in range(self.game.num_players)
        ]

    def __call__(self, seconds: float) -> tuple[float, float]:
        clock = time.process_time
        count, timed = 0, 0.0
        while timed < seconds:
            if self.state is None or self.state.is_terminal():
                self.new_game()
            state = self.state
            bot = self.bots[state.current_player()]
            start = clock()
            action = bot.step(state)
            timed += clock() - start
            count += bot.last_iterations
            self.decisions += 1
            state.apply_action(action)
        return count, timed


class RandomPlay(SelfPlay):
    """The raw engine: uniformly random legal actions, every action applied counted."""

    def __init__(self, game_name: str, players: int, **options: Any) -> None:
        super().__init__(game_name, players, **options)
        self.rng = random.Random(1)

    def make_bots(self, seed: int) -> list[Any]:
        return []

    def decide(self) -> int:
        state, choice = self.state, self.rng.choice
        n = 0
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
            n += 1
        return n


WORKLOADS = {"greedy": Greedy, "ismcts": Ismcts, "random": RandomPlay}


def greedy_peak(game_name: str, players: int) -> int:
    """tracemalloc peak of one whole greedy self-play game."""
    work = Greedy(game_name, players)
    work.games = 12345
    tracemalloc.start()
    work.new_game()
    while not work.state.is_terminal():
        work.decide()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def ismcts_peak(game_name: str, players: int, decisions: int = 3) -> int:
    """The largest tracemalloc peak of the first ``decisions`` searches of a self-play game."""
    work = Ismcts(game_name, players)
    work.new_game()
    peaks = []
    while len(peaks) < decisions and not work.state.is_terminal():
        state = work.state
        bot = work.bots[state.current_player()]
        tracemalloc.start()
        action = bot.step(state)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        state.apply_action(action)
    return max(peaks)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="CPU seconds of each row's workload")
    args = parser.parse_args(argv)
    print(f"{'row':40} {'rate':>9} {'hearts/s':>9} {'x hearts':>9} {'target':>7}  {'peak KiB':>9}")
    for label, kind, name, players, target in ROWS[:4]:
        got = beside(WORKLOADS[kind](name, players), args.seconds, hearts_rate)
        peak = greedy_peak(name, players) if kind == "greedy" else ismcts_peak(name, players)
        print(
            f"{label:40} {got.rate:9,.0f} {got.yardstick:9,.0f} {got.ratio:9.4f} {target:7.4f}  "
            f"{peak / 1024:9,.0f}",
            flush=True,
        )
    print("rates per CPU second; hearts: the shared yardstick, measured between slices of each row")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
