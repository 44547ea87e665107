"""How much a Celtae solo bot leaves in its last turn: its final score against the best final turn.

Plays the solo deals of ``--seed`` (the deals ``strength.py solo`` plays) with ``--bot``. At the
start of the seat's last turn it searches every line of that turn on the true state, the
coming draws included, and prints the best final score a turn that knew them could reach beside
the one the bot reached: a ceiling on what a better last turn could add, since no fair bot
sees the draws. The search gives up on a deal once it has visited ``--nodes`` positions.

    .venv/bin/python benchmarks/solo_last_turn.py --bot ismcts:iterations=188 -n 40 --seed 7
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ludus.arena.simulate import bot_seed, make_bot
from ludus.engine import load_game
from ludus.games.celtae.core import START
from ludus.games.celtae.solo_arena import deal_seeds


class TooBig(Exception):
    """The last turn has more positions than the search may visit."""


def best_finish(state: Any, budget: list[int]) -> int:
    """The best final score of seat 0 from ``state`` on its true draws (every choice left is the seat's)."""
    if state.is_terminal():
        return int(state.scores()[0])
    budget[0] -= 1
    if budget[0] < 0:
        raise TooBig
    best = -1000
    for action in state.legal_actions():
        after = state.clone()
        after.apply_action(action)
        best = max(best, best_finish(after, budget))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--bot", default="ismcts:iterations=188")
    parser.add_argument("-n", "--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--nodes", type=int, default=500_000, help="positions visited before a deal is left out"
    )
    args = parser.parse_args()
    game = load_game("celtae", players=1, difficulty="normal")
    targets = game.data.targets  # type: ignore[attr-defined]
    missed = dict.fromkeys(targets, 0)
    counted = 0
    for seed in deal_seeds(args.seed, args.games):
        state = game.new_initial_state(seed=seed)
        bot = make_bot(args.bot, bot_seed(seed, 0))
        last = None
        while not state.is_terminal():
            if last is None and state.stage == 2 and state.turns_left == 1 and state.phase == START:
                last = state.clone()
            state.apply_action(bot.step(state))
        score = state.scores()[0]
        try:
            best = None if last is None else best_finish(last, [args.nodes])
        except TooBig:
            best = None
        print(f"deal {seed}: reached {score}, best last turn {best if best is not None else '(not counted)'}")
        if best is not None:
            counted += 1
            for target_name, target in targets.items():
                missed[target_name] += score < target <= best
    for target_name, target in targets.items():
        print(
            f"{target_name} ({target}): within the best last turn's reach but missed in {missed[target_name]} of {counted} deals"
        )


if __name__ == "__main__":
    main()
