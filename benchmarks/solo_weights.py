"""Tune the Celtae heuristic's solo weights: greedy's mean solo score as each weight moves.

The heuristic's weights were set by hand for games against rivals; the solo game has its own
(``W_SOLO`` in ``ludus.games.celtae.heuristic_means``). This plays greedy on the same ``-n``
solo deals of ``--seed`` (``strength.py solo``'s deals) with the weights as they are, then with
each weight of ``--keys`` times each ``--factors`` in turn (one coordinate step, the others
fixed), and prints the mean score and the change a deal against the start, with its standard
error. Greedy plays a solo game in ~0.2 s, so a step over 400 deals takes about a minute a core.

    # the step that set W_SOLO, from the multiplayer weights (26.9 points a game over these deals)
    .venv/bin/python benchmarks/solo_weights.py --from-multiplayer -n 400 --seed 100 -j 2
    # W_SOLO itself (29.0), and on 400 fresh deals (28.6; the multiplayer weights: 27.2)
    .venv/bin/python benchmarks/solo_weights.py -n 400 --seed 100 --keys ""
    .venv/bin/python benchmarks/solo_weights.py -n 400 --seed 200 --keys ""
"""

from __future__ import annotations

import argparse
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ludus.games.celtae import heuristic as values
from ludus.games.celtae import heuristic_means as means
from ludus.games.celtae.solo_arena import deal_seeds, play_solo

KEYS = ",".join(k for k in means.W_SOLO if k != "rival")  # every weight the solo game reads


def _scores(task: tuple[dict[str, float], list[int]]) -> list[int]:
    """Greedy's final scores on these deals with these solo weights."""
    weights, deals = task
    means.W_SOLO.clear()
    means.W_SOLO.update(weights)
    values.forget()  # the memoised values hold the weights before
    return [play_solo("greedy", "hard", seed)["score"] for seed in deals]


def scores(pool: ProcessPoolExecutor, weights: dict[str, float], deals: list[int], jobs: int) -> list[int]:
    parts = [deals[i::jobs] for i in range(jobs)]
    got = list(pool.map(_scores, [(weights, part) for part in parts]))
    out = [0] * len(deals)
    for i, part in enumerate(got):
        out[i::jobs] = part
    return out


def report(name: str, got: list[int], start: list[int] | None) -> None:
    n = len(got)
    line = f"{name:>22}: mean {statistics.fmean(got):5.2f}, 30 in {sum(s >= 30 for s in got) / n:5.1%}, 35 in {sum(s >= 35 for s in got) / n:5.1%}"
    if start is not None:
        diff = [a - b for a, b in zip(got, start, strict=True)]
        line += f", {statistics.fmean(diff):+.2f} ± {statistics.stdev(diff) / n**0.5:.2f} a deal"
    print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("-n", "--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument("--keys", default=KEYS, help="the weights to step, comma-separated")
    parser.add_argument("--factors", default="0.5,1.6", help="each step multiplies one weight by these")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="a start weight")
    parser.add_argument(
        "--from-multiplayer", action="store_true", help="start from the multiplayer weights W"
    )
    args = parser.parse_args()
    start = dict(means.W_SOLO)
    if args.from_multiplayer:
        start.update(means.W)
    sets = [item.partition("=")[::2] for item in args.set]
    keys = [k for k in args.keys.split(",") if k]
    for key in [k for k, _ in sets] + keys:
        if key not in start:
            raise SystemExit(f"no weight {key!r}; the weights are {', '.join(start)}")
    for key, value in sets:
        start[key] = float(value)
    factors = [float(f) for f in args.factors.split(",")]
    deals = deal_seeds(args.seed, args.games)
    print(f"greedy, Celtae solo, {len(deals)} deals of seed {args.seed}; start: {start}", flush=True)
    with ProcessPoolExecutor(args.jobs) as pool:
        base = scores(pool, start, deals, args.jobs)
        report("start", base, None)
        for key in keys:
            for factor in factors:
                report(
                    f"{key} × {factor:g}",
                    scores(pool, {**start, key: start[key] * factor}, deals, args.jobs),
                    base,
                )


if __name__ == "__main__":
    main()
