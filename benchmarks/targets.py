"""The speed targets in one run: every row beside its yardstick, with its target and met/MISSED.

The yardsticks are the project's shared ones (``shared/bench/yardsticks.py`` beside the checkout,
through ``yardstick.py``): OpenSpiel's hearts at random counting EVERY move applied, chance moves
included, chosen uniformly (``hearts_rate``); PettingZoo's ``connect_four_v3`` stepped by
``env_rate``, which counts the CPU time spent inside the env only. Each row's workload runs in
slices with a slice of its yardstick before each and after the last (``yardstick.beside``), so
that both meet the same load on a shared machine; the yardstick's range over its slices is printed.

Rows (``bots_speed.ROWS``, then the env rows): greedy self-play decisions (Garum and Celtae, 4
players); ISMCTS tree iterations, ``preset=classic`` at 300 a decision with every seat the bot
(Garum 4 players, Celtae 2 players); the raw engines (random play through ``legal_actions()`` and
``apply_action``, 4 players) -- all over hearts; PettingZoo AEC steps of 2-player games over
connect_four (``env_rate`` on both).

    .venv/bin/python benchmarks/targets.py                 # about 2 minutes
    .venv/bin/python benchmarks/targets.py --repeat 3      # three runs and each row's spread
    .venv/bin/python benchmarks/targets.py --only study --study-games 1000 --jobs 2

``--study-games N`` times ``ludus simulate celtae --players 4 --games N --bots greedy --jobs J``
beside hearts measured just before and just after it, and projects a 10,000-game study from it
(N games, extrapolated linearly), as measured and at the hearts speed of the target's machine
(750,000 moves/s; target: under 15 minutes on 2 cores).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bots_speed import ROWS, WORKLOADS  # noqa: E402
from yardstick import Beside, beside, connect_four_rate, env_rate, hearts_rate  # noqa: E402

ENV_ROWS: tuple[tuple[str, str, int, float], ...] = (
    ("PettingZoo AEC, Garum 2 players", "garum", 2, 2.0),
    ("PettingZoo AEC, Celtae 2 players", "celtae", 2, 2.0),
)
UNITS = {"greedy": "decisions/s", "ismcts": "iterations/s", "random": "moves/s", "env": "steps/s"}
STUDY_HEARTS = 750_000  # hearts moves/s on the machine of the 10,000-game target
STUDY_TARGET = 15 * 60  # its wall seconds


class EnvSteps:
    """A ludus AEC env stepped by the shared ``env_rate``: (steps, seconds) of a slice (its rate
    times the slice's length, so that the slices' mean rate is the row's)."""

    def __init__(self, game_name: str, players: int) -> None:
        from ludus.rl import pettingzoo_env

        self.env = pettingzoo_env(game_name, players=players)

    def __call__(self, seconds: float) -> tuple[float, float]:
        return env_rate(self.env, seconds) * seconds, seconds


def c4_slice(seconds: float) -> float:
    return connect_four_rate(seconds)


def rows(only: str) -> list[tuple[str, str, str, int, float]]:
    """(label, workload, game, players, target) of the rows to measure."""
    every = [*ROWS, *((label, "env", name, players, target) for label, name, players, target in ENV_ROWS)]
    if only in ("", "all"):
        return every
    return [r for r in every if r[1] in only.split(",") or r[2] in only.split(",")]


def measure(kind: str, name: str, players: int, seconds: float) -> Beside:
    if kind == "env":
        return beside(EnvSteps(name, players), seconds, c4_slice)
    return beside(WORKLOADS[kind](name, players), seconds, hearts_rate)


def print_row(label: str, kind: str, target: float, got: Beside) -> None:
    yard = "connect_four" if kind == "env" else "hearts"
    ok = "met" if got.ratio >= target else "MISSED"
    print(
        f"{label:38} {got.rate:9,.0f} {UNITS[kind]:13} {got.yardstick:9,.0f} "
        f"({got.low / 1000:,.0f}k-{got.high / 1000:,.0f}k {yard}) {got.ratio:8.4f} {target:7.4f} {ok}",
        flush=True,
    )


def time_study(games: int, jobs: int) -> tuple[float, float]:
    """Wall and CPU seconds of ``ludus simulate celtae --players 4 --games N --bots greedy --jobs J``."""
    ludus = Path(sys.executable).with_name("ludus")
    command = [str(ludus), "simulate", "celtae", "--players", "4", "--games", str(games)]
    command += ["--bots", "greedy", "--jobs", str(jobs), "--seed", "1", "--no-progress"]
    with tempfile.TemporaryDirectory() as out:
        cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(
            [*command, "--json", str(Path(out) / "games.jsonl")], check=True, stdout=subprocess.DEVNULL
        )
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime


def study(games: int, jobs: int) -> bool:
    """Time the study, print it beside hearts and its 10,000-game projection; whether it is met."""
    load = os.getloadavg()[0]
    before = hearts_rate()
    wall, cpu = time_study(games, jobs)
    after = hearts_rate()
    hearts = (before + after) / 2
    projected = wall * 10_000 / games
    scaled = projected * hearts / STUDY_HEARTS
    ok = scaled < STUDY_TARGET
    print(
        f"ludus simulate celtae --players 4 --games {games} --bots greedy --jobs {jobs}: {wall:.0f} s wall, "
        f"{cpu:.0f} CPU-s; hearts {before:,.0f} before, {after:,.0f} after; load average {load:.1f} at start"
    )
    print(
        f"  10,000 games, extrapolated from {games:,}: {projected / 60:.1f} min here; at hearts "
        f"{STUDY_HEARTS:,}/s {scaled / 60:.1f} min (target < {STUDY_TARGET // 60} min) {'met' if ok else 'MISSED'}"
    )
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="CPU seconds of each row's workload")
    parser.add_argument("--repeat", type=int, default=1, help="runs of the table; then each row's spread")
    parser.add_argument(
        "--only",
        default="",
        help="rows whose workload or game is listed (greedy,ismcts,random,env,garum,...)",
    )
    parser.add_argument("--study-games", type=int, default=0, help="also time a study of this many games")
    parser.add_argument("--jobs", type=int, default=2, help="--jobs of that study")
    args = parser.parse_args(argv)

    chosen = [] if args.only == "study" else rows(args.only)
    ratios: dict[str, list[float]] = {label: [] for label, *_ in chosen}
    for run in range(args.repeat):
        if chosen:
            print(
                f"{'run ' + str(run + 1):38} {'rate':>9} {'unit':13} {'yardstick':>9} {'(its slices)':>24} "
                f"{'ratio':>8} {'target':>7}"
            )
        for label, kind, name, players, target in chosen:
            got = measure(kind, name, players, args.seconds)
            ratios[label].append(got.ratio)
            print_row(label, kind, target, got)
    missed = []
    if args.repeat > 1:
        print(f"\n{'over ' + str(args.repeat) + ' runs':38} {'median':>8} {'range':>17} {'target':>7}")
    for label, _kind, _name, _players, target in chosen:
        median = statistics.median(ratios[label])
        if median < target:
            missed.append(label)
        if args.repeat > 1:
            spread = f"{min(ratios[label]):.4f}-{max(ratios[label]):.4f}"
            print(
                f"{label:38} {median:8.4f} {spread:>17} {target:7.4f} {'met' if median >= target else 'MISSED'}"
            )
    if chosen:
        print(
            "rates per CPU second; hearts: OpenSpiel hearts, every move (chance included) at random; "
            "connect_four: PettingZoo connect_four_v3 by env_rate; both from shared/bench/yardsticks.py"
        )
    if args.study_games and not study(args.study_games, args.jobs):
        missed.append("the 10,000-game study")
    if missed:
        print("targets missed: " + "; ".join(missed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
