"""Issue 14's table in one run: every row as a ratio to its yardstick, with its target and pass/fail.

Rows:

* ``greedy`` self-play decisions/s, Garum 4 players and Celtae 4 players, and ISMCTS
  iterations/s at 300 iterations a decision, Garum 4 players and Celtae 2 players: each over
  OpenSpiel's native ``hearts`` played at random by a Python loop that samples its chance
  moves, re-measured just before the row (the functions of ``bots_speed.py``);
* PettingZoo AEC env steps/s, Garum and Celtae 2 players: over PettingZoo's own
  ``connect_four_v3`` measured by the same loop in slices alternating with the row's. Both envs are driven
  alike (``env.last()``, a random legal action from the mask, ``env.step``); the rate counts
  the CPU time spent inside the env, not the loop's own choice of action (whose
  ``np.flatnonzero`` over Garum's 9,537-action mask would otherwise be measured as the env's
  cost). The whole loop's ratio is printed beside it.

Memory, beside each row: the tracemalloc peak of one whole greedy game, of one ISMCTS
decision, of one AEC episode. Rates are per second of this process's CPU time.

    .venv/bin/python benchmarks/targets.py            # about 2-3 minutes
    .venv/bin/python benchmarks/targets.py --long     # longer measurements
    .venv/bin/python benchmarks/targets.py --report-games 1000 --jobs 2
                                    # also time `ludus report celtae --players 4` with greedy

The report's target is wall time (1,000 games in 10 minutes on 2 cores) on the machine the
table was measured on, where hearts ran at 380,000 moves/s; its row is the report's wall time
beside hearts measured before and after it, and that time scaled to 380,000 moves/s.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bots_speed import ROWS, greedy_rate, hearts_rate, ismcts_rate  # noqa: E402

AEC_ROWS: tuple[tuple[str, str, dict[str, Any], float], ...] = (
    ("PettingZoo AEC env, Garum 2 players", "garum", {"players": 2}, 2.0),
    ("PettingZoo AEC env, Celtae 2 players", "celtae", {"players": 2}, 2.0),
)


def connect_four() -> Any:
    from pettingzoo.classic import connect_four_v3

    return connect_four_v3.env()


def ludus_env(name: str, config: dict[str, Any]) -> Callable[[], Any]:
    def make() -> Any:
        from ludus.rl import pettingzoo_env

        return pettingzoo_env(name, **config)

    return make


def aec_episode(env: Any, seed: int, rng: np.random.Generator) -> tuple[int, float]:
    """One episode with random legal actions: (steps, CPU seconds spent choosing them)."""
    clock = time.process_time
    env.reset(seed=seed)
    steps = 0
    choosing = 0.0
    for _agent in env.agent_iter():
        obs, _reward, term, trunc, _info = env.last()
        if term or trunc:
            action = None
        else:
            t = clock()
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            choosing += clock() - t
        env.step(action)
        steps += 1
    return steps, choosing


class AecRun:
    """Random episodes of one env, run in slices of CPU time and added up (see ``aec_rates``)."""

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make
        self.env = make()
        self.rng = np.random.default_rng(0)
        self.steps = self.episodes = 0
        self.elapsed = self.choosing = 0.0

    def run(self, seconds: float) -> None:
        """Whole episodes for about ``seconds`` of CPU time."""
        start = time.process_time()
        while time.process_time() - start < seconds:
            n, c = aec_episode(self.env, self.episodes, self.rng)
            self.steps += n
            self.choosing += c
            self.episodes += 1
        self.elapsed += time.process_time() - start

    def figures(self) -> dict[str, float]:
        """Steps per CPU second inside the env and for the whole loop; the peak of one episode."""
        tracemalloc.start()
        aec_episode(self.make(), 12345, np.random.default_rng(1))
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return {
            "rate": self.steps / (self.elapsed - self.choosing),
            "loop": self.steps / self.elapsed,
            "episodes": self.episodes,
            "peak": peak,
        }


def aec_rates(yardstick: Callable[[], Any], make: Callable[[], Any], seconds: float, slices: int = 8):
    """The figures of the yardstick env and of ``make``'s, measured in alternating slices (a third
    of the time for the yardstick), so that both meet the same load as the machine's load swings."""
    runs = AecRun(yardstick), AecRun(make)
    for _ in range(slices):
        runs[0].run(seconds / 3 / slices)
        runs[1].run(seconds * 2 / 3 / slices)
    return runs[0].figures(), runs[1].figures()


ISSUE_HEARTS = 380_000
"""Hearts moves/s on the machine issue 14's table was measured on (its own figure): the report's
10-minute target is wall time at that speed, so a run is also shown scaled to it."""


def time_report(games: int, jobs: int) -> tuple[float, float]:
    """Wall and CPU seconds of ``ludus report celtae --players 4 --games N --bots greedy --jobs J``."""
    ludus = Path(sys.executable).with_name("ludus")
    with tempfile.TemporaryDirectory() as out:
        cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(
            [
                str(ludus),
                "report",
                "celtae",
                "--players",
                "4",
                "--games",
                str(games),
                "--bots",
                "greedy",
                "--jobs",
                str(jobs),
                "--out",
                out,
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return wall, after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="CPU seconds of greedy play per row")
    parser.add_argument("--positions", type=int, default=3, help="ISMCTS decisions per row")
    parser.add_argument("--env-seconds", type=float, default=4.0, help="CPU seconds of env steps per env")
    parser.add_argument("--hearts-seconds", type=float, default=1.5, help="hearts play before each row")
    parser.add_argument("--long", action="store_true", help="3x longer measurements, 8 ISMCTS positions")
    parser.add_argument("--skip-bots", action="store_true", help="only the env rows")
    parser.add_argument(
        "--report-games",
        type=int,
        default=0,
        help="also time a report of this many 4-player Celtae greedy games",
    )
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="--jobs of that report")
    args = parser.parse_args(argv)
    scale = 3.0 if args.long else 1.0
    positions = 8 if args.long else args.positions

    print(
        f"{'row':42} {'rate':>10} {'unit':13} {'yardstick':>10} {'ratio':>9} {'target':>7} {'':6} "
        f"{'peak KiB':>9}  detail"
    )
    missed = []

    def row(
        label: str, rate: float, unit: str, yardstick: float, target: float, peak: float, detail: str
    ) -> None:
        ratio = rate / yardstick
        ok = ratio >= target
        if not ok:
            missed.append(label)
        print(
            f"{label:42} {rate:10,.0f} {unit:13} {yardstick:10,.0f} {ratio:9.4f} {target:7.4f} "
            f"{'ok' if ok else 'MISSED':6} {peak / 1024:9,.0f}  {detail}",
            flush=True,
        )

    hearts = hearts_rate(args.hearts_seconds)
    print(f"{'OpenSpiel hearts (C++, Python loop)':42} {hearts:10,.0f} {'moves/s':13}")
    if not args.skip_bots:
        for label, kind, name, players, target in ROWS:
            hearts = hearts_rate(args.hearts_seconds)
            if kind == "greedy":
                got = greedy_rate(name, players, args.seconds * scale)
                row(
                    label,
                    got["rate"],
                    "decisions/s",
                    hearts,
                    target,
                    got["peak"],
                    f"{got['games/s']:.2f} games/s over {got['games']} games; peak: one game",
                )
            else:
                got = ismcts_rate(name, players, positions)
                row(
                    label,
                    got["rate"],
                    "iterations/s",
                    hearts,
                    target,
                    got["peak"],
                    f"{got['decision s']:.2f} s a decision; peak: one decision",
                )
    for label, name, config, target in AEC_ROWS:
        c4, got = aec_rates(connect_four, ludus_env(name, config), args.env_seconds * scale * 1.5)
        row(
            label,
            got["rate"],
            "steps/s",
            c4["rate"],
            target,
            got["peak"],
            f"connect_four_v3 {c4['rate']:,.0f}/s; whole loop {got['loop']:,.0f} vs {c4['loop']:,.0f}/s "
            f"= {got['loop'] / c4['loop']:.2f}x; peak: one episode",
        )
    print(
        "yardstick: OpenSpiel hearts (random, chance sampled in Python), measured just before each bot row; "
        "PettingZoo connect_four_v3, measured in slices alternating with each env row's; rates per CPU second"
    )
    if args.report_games:
        before = hearts_rate(args.hearts_seconds)
        wall, cpu = time_report(args.report_games, args.jobs)
        after = hearts_rate(args.hearts_seconds)
        hearts = (before + after) / 2
        scaled = wall * hearts / ISSUE_HEARTS * 1000 / args.report_games
        print(
            f"ludus report celtae --players 4 --games {args.report_games} --bots greedy --jobs {args.jobs}: "
            f"{wall:.0f} s wall ({wall / 60:.1f} min), {cpu:.0f} CPU-s, beside hearts {hearts:,.0f} moves/s "
            f"(before {before:,.0f}, after {after:,.0f})"
        )
        ok = scaled <= 600
        if not ok:
            missed.append("the 1,000-game report")
        print(
            f"  1,000 games at the hearts rate of issue 14's table ({ISSUE_HEARTS:,}/s): {scaled / 60:.1f} min "
            f"(target <= 10 min) {'ok' if ok else 'MISSED'}"
        )
    if missed:
        print("targets missed: " + "; ".join(missed))
    return 0


if __name__ == "__main__":
    random.seed(0)
    raise SystemExit(main())
