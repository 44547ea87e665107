"""Random-play speed and memory of every game configuration, against OpenSpiel's hearts.

Every configuration plays uniformly random games for ``--seconds`` and reports decisions
(actions applied) per second and games per second; OpenSpiel's native C++ ``hearts``,
driven by the same Python loop (chance nodes sampled from ``chance_outcomes()``), is the
yardstick each configuration is divided by. Rates are per second of this process's CPU
time, and hearts is re-measured next to every configuration (its ratio uses that
neighbouring figure), so a machine shared with other work skews the ratios little. Peak memory is the tracemalloc peak of one
random game (allocations made while playing it) and the process's maximum resident set.

Targets: Garum 4 players Troia >= 0.10 of hearts; Celtae 4 players >= 0.05.

    .venv/bin/python benchmarks/engine_speed.py [--seconds 2] [--quick]
"""

from __future__ import annotations

import argparse
import itertools
import random
import resource
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator
from typing import Any

import ludus
from ludus.engine.errors import OptionError
from ludus.engine.registry import game_class

AXES = ("players", "board", "variant", "difficulty")  # the options that make a configuration
TARGETS = {("garum", 4, "troia"): 0.10, ("celtae", 4, None): 0.05}


def configurations(quick: bool) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every (game, options) over the axes each game declares; ``quick`` keeps the defaults but players."""
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
            yield name, {n: game.config[n] for n in names if game.config[n] is not None}


def random_loop(
    new_game: Callable[[int], Any], seconds: float, step: Callable[[Any, random.Random], int]
) -> tuple[float, float, int]:
    """(decisions/s, games/s, games) of random play for about ``seconds`` of this process's CPU time."""
    rng = random.Random(1)
    games = decisions = 0
    start = time.process_time()
    while True:
        state = new_game(games)
        decisions += step(state, rng)
        games += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return decisions / elapsed, games / elapsed, games


def play_ludus(state: Any, rng: random.Random) -> int:
    n = 0
    choice = rng.choice
    while not state.is_terminal():
        state.apply_action(choice(state.legal_actions()))
        n += 1
    return n


def play_spiel(state: Any, rng: random.Random) -> int:
    n = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            n += 1
    return n


def peak_bytes(new_game: Callable[[int], Any], step: Callable[[Any, random.Random], int]) -> int:
    """tracemalloc peak while creating and playing one random game."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    step(new_game(12345), random.Random(2))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def target_for(name: str, config: dict[str, Any]) -> float | None:
    key = (name, config.get("players"), config.get("board"))
    return TARGETS.get(key) or TARGETS.get((name, config.get("players"), None))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="random play per configuration")
    parser.add_argument(
        "--quick", action="store_true", help="default board/variant/difficulty only, 0.5 s each"
    )
    args = parser.parse_args(argv)
    seconds = min(args.seconds, 0.5) if args.quick else args.seconds

    rows: list[tuple[str, float, float, int, float | None, float | None]] = []
    try:
        import pyspiel
    except ImportError:  # pragma: no cover - open_spiel is in the rl extra
        print("open_spiel is not installed: no hearts yardstick", file=sys.stderr)
        hearts = None
    else:
        spiel_game = pyspiel.load_game("hearts")
        dps, gps, _ = random_loop(lambda _i: spiel_game.new_initial_state(), seconds, play_spiel)
        peak = peak_bytes(lambda _i: spiel_game.new_initial_state(), play_spiel)
        hearts = dps
        rows.append(("open_spiel hearts (C++, Python loop)", dps, gps, peak, None, dps))

    failures = []
    for name, config in configurations(args.quick):
        game = ludus.load_game(name, **config)
        near = hearts
        if hearts:
            near = random_loop(lambda _i: spiel_game.new_initial_state(), seconds / 2, play_spiel)[0]
        dps, gps, _ = random_loop(
            lambda seed, game=game: game.new_initial_state(seed=seed), seconds, play_ludus
        )
        peak = peak_bytes(lambda seed, game=game: game.new_initial_state(seed=seed), play_ludus)
        label = name + " " + " ".join(f"{k}={v}" for k, v in config.items())
        rows.append((label, dps, gps, peak, target_for(name, config), near))

    print(f"{'configuration':52} {'decisions/s':>12} {'games/s':>9} {'peak KiB':>9} {'x hearts':>9}  target")
    for label, dps, gps, peak, target, near in rows:
        ratio = dps / near if near else float("nan")
        verdict = ""
        if target is not None and hearts:
            ok = ratio >= target
            verdict = f">= {target:.2f} {'ok' if ok else 'MISSED'}"
            if not ok:
                failures.append(label)
        print(f"{label:52} {dps:12,.0f} {gps:9,.1f} {peak / 1024:9,.0f} {ratio:9.3f}  {verdict}")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print("rates per CPU second; x hearts: against hearts measured just before each configuration")
    print(
        "peak KiB: tracemalloc peak of one random game (Python allocations only, so hearts' C++ state is not seen)"
    )
    print(f"process max resident set: {rss / 1024:,.0f} MiB")
    if failures:
        print("targets missed: " + "; ".join(failures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
