"""Random-play speed and memory of every game configuration, as ratios to the shared hearts yardstick.

Every configuration plays uniformly random games (``bots_speed.RandomPlay``: ``legal_actions()``
and ``apply_action``, every action applied counted) in slices alternating with slices of
OpenSpiel's hearts measured by the project's shared ``hearts_rate`` (``yardstick.py``: every move
applied, chance moves included, chosen uniformly), so that both meet the same load; rates are per
second of this process's CPU time. It reports decisions and games per second, the ratio to hearts,
and the peak memory of one random game (the tracemalloc peak of its allocations) and the process's
maximum resident set.

Target (issue 53's raw-engine row, also in ``targets.py``): every 4-player configuration >= 0.3 of
hearts.

    .venv/bin/python benchmarks/engine_speed.py [--seconds 2] [--quick]
"""

from __future__ import annotations

import argparse
import itertools
import resource
import sys
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bots_speed import RandomPlay  # noqa: E402
from yardstick import Beside, beside, hearts_rate  # noqa: E402

import ludus  # noqa: E402
from ludus.engine.errors import OptionError  # noqa: E402
from ludus.engine.registry import game_class  # noqa: E402

AXES = ("players", "board", "variant", "difficulty")  # the options that make a configuration
TARGET = 0.3  # of hearts, for every 4-player configuration


def configurations(quick: bool) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every (game, options) over the axes each game declares; ``quick`` keeps the defaults but players."""
    seen: set[tuple[str, tuple[tuple[str, Any], ...]]] = set()
    for name in ludus.game_names():
        options = {o.name: o for o in game_class(name).options if o.name in AXES}
        names = list(options)
        values = [
            options[n].choices if (not quick or n == "players") else (options[n].default,) for n in names
        ]
        for combo in itertools.product(*values):
            try:
                game = ludus.load_game(name, **dict(zip(names, combo, strict=True)))
            except OptionError:
                continue
            config = {n: game.config[n] for n in names if game.config[n] is not None}
            key = (name, tuple(config.items()))
            if key not in seen:  # an option left at None reads as its default: that configuration once
                seen.add(key)
                yield name, config


def random_play(work: RandomPlay, seconds: float) -> tuple[Beside, float]:
    """``work``'s random play beside hearts, and its games per second."""
    timed = 0.0

    def play(s: float) -> tuple[float, float]:
        nonlocal timed
        count, cpu = work(s)
        timed += cpu
        return count, cpu

    got = beside(play, seconds, hearts_rate, yardstick_seconds=min(0.75, seconds / 2))
    return got, work.games / timed


def peak_bytes(work: RandomPlay) -> int:
    """tracemalloc peak while creating and playing one more random game (the game's caches warm)."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    work.new_game()
    work.decide()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="random play per configuration")
    parser.add_argument(
        "--quick", action="store_true", help="default board/variant/difficulty only, 0.5 s each"
    )
    args = parser.parse_args(argv)
    seconds = min(args.seconds, 0.5) if args.quick else args.seconds

    print(
        f"{'configuration':52} {'decisions/s':>12} {'games/s':>9} {'peak KiB':>9} {'hearts':>9} "
        f"{'x hearts':>9}  target"
    )
    failures = []
    for name, config in configurations(args.quick):
        work = RandomPlay(name, **config)
        got, games_per_s = random_play(work, seconds)
        label = name + " " + " ".join(f"{k}={v}" for k, v in config.items())
        verdict = ""
        if config.get("players") == 4:
            ok = got.ratio >= TARGET
            verdict = f">= {TARGET:.2f} {'met' if ok else 'MISSED'}"
            if not ok:
                failures.append(label)
        print(
            f"{label:52} {got.rate:12,.0f} {games_per_s:9,.1f} {peak_bytes(work) / 1024:9,.0f} "
            f"{got.yardstick:9,.0f} {got.ratio:9.3f}  {verdict}"
        )
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        "rates per CPU second; hearts: the shared yardstick (OpenSpiel hearts, every move at random), "
        "in slices alternating with the configuration's"
    )
    print("peak KiB: tracemalloc peak of one random game (Python allocations only)")
    print(f"process max resident set: {rss / 1024:,.0f} MiB")
    if failures:
        print("targets missed: " + "; ".join(failures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
