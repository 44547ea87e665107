"""ISMCTS speed: iterations per second and decision time by budget, per game and player count.

The tree's iterations: the learned preset, unless ``--bot`` names another (the default in Garum and
2-player Celtae, the rollout preset, counts worlds each playing three moves on, not tree iterations).

Decisions are timed on positions sampled from random games (start, middle and late),
so the figures mix cheap and expensive moments as real play does. Decisions with a
single legal action, which the bot answers without search, are skipped. Times are this
process's CPU seconds, so other work on a shared machine does not inflate them.

    .venv/bin/python benchmarks/ismcts_speed.py [--budgets 50,300,1000] [--positions 4] [--quick]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import ludus
from ludus.bots.ismcts import ISMCTSBot
from ludus.engine.errors import OptionError
from ludus.engine.registry import game_class


def positions(game: Any, count: int, seed: int) -> list[Any]:
    """``count`` positions with a real choice, spread over random games."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.new_initial_state(seed=rng.getrandbits(32))
        length = 0
        probe = state.clone()
        while not probe.is_terminal():
            probe.apply_action(rng.choice(probe.legal_actions()))
            length += 1
        target = int(length * (len(out) % 3) / 3)  # start, middle, late
        for _ in range(target):
            state.apply_action(rng.choice(state.legal_actions()))
        while not state.is_terminal() and len(state.legal_actions()) < 2:
            state.apply_action(state.legal_actions()[0])
        if not state.is_terminal():
            out.append(state)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budgets", default="50,300,1000", help="iteration budgets, comma-separated")
    parser.add_argument("--positions", type=int, default=4, help="positions per configuration")
    parser.add_argument("--quick", action="store_true", help="budgets 50,300 and 2 positions")
    parser.add_argument(
        "--bot",
        default="",
        help="extra ISMCTS parameters, e.g. cutoff=None:rollout=greedy-light or expand=heuristic",
    )
    args = parser.parse_args(argv)
    budgets = [50, 300] if args.quick else [int(b) for b in args.budgets.split(",")]
    count = 2 if args.quick else args.positions
    extra: dict[str, Any] = {"preset": "learned"}
    if args.bot:
        from ludus.bots import parse_spec

        extra.update(parse_spec("ismcts:" + args.bot)[1])

    print(f"{'game':8} {'players':>7} {'budget':>7} {'decision s':>11} {'max s':>7} {'iterations/s':>13}")
    for name in ludus.game_names():
        players = next((o.choices for o in game_class(name).options if o.name == "players"), (None,))
        for p in players:
            try:
                game = ludus.load_game(name, **({} if p is None else {"players": p}))
            except OptionError:
                continue
            states = positions(game, count, seed=7)
            for budget in budgets:
                times = []
                for i, state in enumerate(states):
                    bot = ISMCTSBot(seed=i, iterations=budget, **extra)
                    start = time.process_time()
                    bot.step(state)
                    times.append(time.process_time() - start)
                mean = statistics.fmean(times)
                print(
                    f"{name:8} {p!s:>7} {budget:7d} {mean:11.3f} {max(times):7.3f} {budget / mean:13,.0f}",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
