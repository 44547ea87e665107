"""Bot speed and memory, as ratios to OpenSpiel's hearts measured in the same run.

Rows (issue 14's table): ``greedy`` self-play decisions per second (Garum and Celtae, 4
players) and ISMCTS iterations per second at 300 iterations a decision (Garum 4 players,
Celtae 2 players). Each row is divided by OpenSpiel's native ``hearts`` played at random by
a Python loop that samples its chance moves (``engine_speed.play_spiel``), re-measured just
before the row so that other work on a shared machine skews the ratios little. Rates are per
second of this process's CPU time. Memory: the tracemalloc peak of one whole greedy game and
of one ISMCTS decision (Python allocations made while it runs), measured apart from the timing.

    .venv/bin/python benchmarks/bots_speed.py [--seconds 6] [--positions 6] [--quick]

``greedy_rate``, ``ismcts_rate``, ``hearts_rate`` and ``ROWS`` are importable
(``benchmarks/targets.py`` prints the whole table of issue 14 from them).
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

from engine_speed import play_spiel, random_loop  # noqa: E402
from ismcts_speed import positions  # noqa: E402

import ludus  # noqa: E402
from ludus.bots import make  # noqa: E402

# (label, kind, game, players, target ratio to hearts)
ROWS: tuple[tuple[str, str, str, int, float], ...] = (
    ("greedy self-play, Garum 4 players", "greedy", "garum", 4, 0.005),
    ("greedy self-play, Celtae 4 players", "greedy", "celtae", 4, 0.003),
    ("ismcts 300 iterations, Garum 4 players", "ismcts", "garum", 4, 0.0012),
    ("ismcts 300 iterations, Celtae 2 players", "ismcts", "celtae", 2, 0.004),
)


def hearts_rate(seconds: float) -> float:
    """Decisions per CPU second of OpenSpiel's hearts at random (chance sampled in Python)."""
    import pyspiel

    game = pyspiel.load_game("hearts")
    return random_loop(lambda _i: game.new_initial_state(), seconds, play_spiel)[0]


def greedy_game(game: Any, seed: int, spec: str = "greedy") -> int:
    """Play one greedy self-play game; the number of decisions (actions applied)."""
    state = game.new_initial_state(seed=seed)
    bots = [make(*_split(spec), seed=seed * 10 + s) for s in range(game.num_players)]
    n = 0
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
        n += 1
    return n


def _split(spec: str) -> tuple[str]:
    from ludus.bots import parse_spec

    name, params = parse_spec(spec)
    if params:
        raise ValueError("bots_speed plays bots with their default parameters")
    return (name,)


def greedy_rate(game_name: str, players: int, seconds: float) -> dict[str, float]:
    """Greedy self-play for about ``seconds`` of CPU (whole games, at least one)."""
    game = ludus.load_game(game_name, players=players)
    games = decisions = 0
    start = time.process_time()
    while True:
        decisions += greedy_game(game, games)
        games += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            break
    tracemalloc.start()
    greedy_game(game, 12345)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {"rate": decisions / elapsed, "games/s": games / elapsed, "games": games, "peak": peak}


def ismcts_rate(game_name: str, players: int, count: int, iterations: int = 300) -> dict[str, float]:
    """ISMCTS decisions on ``count`` positions (start, middle, late of random games)."""
    from ludus.bots.ismcts import ISMCTSBot

    game = ludus.load_game(game_name, players=players)
    states = positions(game, count, seed=7)
    done = 0
    start = time.process_time()
    for i, state in enumerate(states):
        bot = ISMCTSBot(seed=i, iterations=iterations)
        bot.step(state)
        done += bot.last_iterations
    elapsed = time.process_time() - start
    peaks = []
    for i, state in enumerate(states[:3]):
        bot = ISMCTSBot(seed=i, iterations=iterations)
        tracemalloc.start()
        bot.step(state)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    return {"rate": done / elapsed, "decision s": elapsed / len(states), "peak": max(peaks)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="CPU seconds of greedy play per row")
    parser.add_argument("--positions", type=int, default=6, help="ISMCTS decisions per row")
    parser.add_argument("--hearts-seconds", type=float, default=1.5, help="hearts play before each row")
    parser.add_argument("--quick", action="store_true", help="2 s of greedy, 3 ISMCTS positions")
    args = parser.parse_args(argv)
    seconds = 2.0 if args.quick else args.seconds
    count = 3 if args.quick else args.positions

    print(
        f"{'row':42} {'rate':>10} {'unit':14} {'hearts/s':>9} {'x hearts':>9} {'target':>7}  "
        f"{'peak KiB':>9}  detail"
    )
    missed = []
    for label, kind, name, players, target in ROWS:
        hearts = hearts_rate(args.hearts_seconds)
        if kind == "greedy":
            got = greedy_rate(name, players, seconds)
            unit, detail = (
                "decisions/s",
                f"{got['games/s']:.2f} games/s over {got['games']} games; peak a game",
            )
        else:
            got = ismcts_rate(name, players, count)
            unit, detail = "iterations/s", f"{got['decision s']:.2f} s a decision; peak a decision"
        ratio = got["rate"] / hearts
        ok = ratio >= target
        if not ok:
            missed.append(label)
        print(
            f"{label:42} {got['rate']:10,.0f} {unit:14} {hearts:9,.0f} {ratio:9.4f} {target:7.4f}  "
            f"{got['peak'] / 1024:9,.0f}  {'ok' if ok else 'MISSED'}; {detail}",
            flush=True,
        )
    print(
        "rates per CPU second; x hearts: against OpenSpiel hearts (random, Python loop) measured just before the row"
    )
    if missed:
        print("targets missed: " + "; ".join(missed))
    return 0


if __name__ == "__main__":
    random.seed(0)
    raise SystemExit(main())
