"""Strength of the ISMCTS presets in the arena: win rates with 95 % intervals, and the budgets they rest on.

    # iterations each preset runs in 0.2 s of CPU a decision (positions from greedy games)
    .venv/bin/python benchmarks/strength.py budget garum --players 2 --seconds 0.2
    # ... of given specs (any parameter but the iterations)
    .venv/bin/python benchmarks/strength.py budget garum --spec ismcts:expand=heuristic
    # a bot against copies of another, seats rotated (2 players: head to head)
    .venv/bin/python benchmarks/strength.py duel garum --players 2 --bot ismcts:iterations=150 --vs greedy -n 60
    # Celtae solo: share of games at a difficulty reaching each target
    .venv/bin/python benchmarks/strength.py solo --bot ismcts:iterations=100 -n 40 --difficulty hard
    # two runs of the same deals, deal by deal (each written with --out FILE)
    .venv/bin/python benchmarks/strength.py pair default.jsonl trial.jsonl

Search budgets are set in iterations, the number the bot runs in a given CPU time on an idle
core (``budget``), so that results hold on a loaded machine and replay from the seed;
``--bot ismcts:seconds=0.2`` plays against the clock instead. Win rates count a shared win
as 1/k; in games of 3-4 the bot's share is compared with its seat share 1/players.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from typing import Any

import ludus
from ludus import bots
from ludus.arena.paired import compare, digest, read_run, write_run
from ludus.arena.simulate import simulate
from ludus.bots.learned.train import score_margins
from ludus.games.celtae.solo_arena import DIFFICULTIES, solo_challenge


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and half-width of its 95 % interval: normal for shares with ties, Wilson's (about the
    mean, at least as wide) for wins and losses only, so that 0 of n still gets a width."""
    n = len(values)
    mean = statistics.fmean(values)
    if all(v in (0.0, 1.0) for v in values):
        z2 = 1.96**2
        centre = (mean + z2 / (2 * n)) / (1 + z2 / n)
        half = 1.96 * math.sqrt(mean * (1 - mean) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        return mean, abs(centre - mean) + half
    sd = statistics.stdev(values) if n > 1 else 0.0
    return mean, 1.96 * sd / math.sqrt(n)


def greedy_positions(game: Any, count: int, seed: int) -> list[Any]:
    """Positions with a real choice, taken from greedy self-play at even spacing."""
    rng = random.Random(seed)
    out: list[Any] = []
    while len(out) < count:
        state = game.new_initial_state(seed=rng.getrandbits(32))
        seats = [bots.make("greedy", seed=rng.getrandbits(32)) for _ in range(game.num_players)]
        step = 0
        while not state.is_terminal() and len(out) < count:
            if len(state.legal_actions()) > 1 and step % 17 == 5:
                out.append(state.clone())
            state.apply_action(seats[state.current_player()].step(state))
            step += 1
    return out


def budget(args: argparse.Namespace) -> None:
    """Iterations that fill ``seconds`` of CPU a decision: decisions timed at two budgets, a line fitted
    (a fixed cost a decision, such as the learned preset's valuing of every root action, plus a cost an iteration)."""
    options = {"players": args.players, **({"difficulty": "normal"} if args.players == 1 else {})}
    game = ludus.load_game(args.game, **options)
    states = greedy_positions(game, args.positions, args.seed)
    for spec in args.spec or ("ismcts:preset=classic", "ismcts:preset=learned"):
        name, params = bots.parse_spec(spec)
        cost = []
        for iterations in (args.probe // 4, args.probe):
            bot = bots.make(name, **{**params, "seed": 0, "iterations": iterations})
            bot.step(states[0])  # imports and loads out of the timing
            started = time.process_time()
            for state in states:
                bot.step(state)
            cost.append((time.process_time() - started) / len(states))
        per_iteration = (cost[1] - cost[0]) / (args.probe - args.probe // 4)
        fixed = max(0.0, cost[0] - per_iteration * (args.probe // 4))
        fits = int((args.seconds - fixed) / per_iteration)
        print(
            f"{args.game} {args.players}p {spec}: {fixed * 1000:5.1f} ms a decision + "
            f"{per_iteration * 1e6:6.0f} us an iteration (CPU) -> {fits} iterations in {args.seconds} s"
        )


def duel(args: argparse.Namespace) -> None:
    """The bot's win share against copies of ``--vs``, and its score margin over the best rival: the
    margin's spread a game, which luck gives even between equals, says how large an edge a target needs
    (a win share of 80 % wants a mean margin of ~0.84 spreads when margins are about normal)."""
    if args.bot == args.vs:
        raise SystemExit("--bot and --vs must be different specs (say greedy:noise=0 against greedy)")
    options = {"players": args.players}
    lineup = [args.bot] + [args.vs] * (args.players - 1)
    journal = f"{args.out}.games" if args.out else None  # the games as they end: a stopped run resumes
    results = simulate(
        args.game, options, lineup, args.games, jobs=args.jobs, seed=args.seed, progress=False, out=journal
    )
    share = [sum(r["returns"][s] for s, spec in enumerate(r["seats"]) if spec == args.bot) for r in results]
    margins = [score_margins(r["scores"])[r["seats"].index(args.bot)] for r in results]
    if args.out:
        write_run(
            args.out,
            (
                {"seed": r["seed"], "result": x, "digest": digest(r["actions"])}
                for r, x in zip(results, share, strict=True)
            ),
        )
    mean, half = interval(share)
    seat = 1 / args.players
    print(
        f"{args.game} {args.players}p: {args.bot} vs {args.vs}: {args.games} games, "
        f"wins {mean:.1%} ± {half:.1%} (95 %), seat share {seat:.0%}, ratio {mean / seat:.2f} "
        f"[{max(0.0, mean - half) / seat:.2f}, {min(1.0, mean + half) / seat:.2f}]"
    )
    m, h = interval(margins)
    spread = statistics.stdev(margins) if len(margins) > 1 else 0.0
    print(
        f"  margin over the best rival: {m:+.1f} ± {h:.1f} points (95 %), spread {spread:.1f} points a game"
    )


def solo(args: argparse.Namespace) -> None:
    out = solo_challenge(
        args.bot,
        difficulties=(args.difficulty,),
        games=args.games,
        jobs=args.jobs,
        seed=args.seed,
        one_run=True,
        show=False,
    )
    scores = [r["score"] for r in out["results"]]
    if args.out:
        write_run(
            args.out,
            ({"seed": r["seed"], "result": r["score"], "digest": digest(r["moves"])} for r in out["results"]),
        )
    targets = ludus.load_game("celtae", players=1).data.targets  # type: ignore[attr-defined]
    for name, target in targets.items():
        mean, half = interval([1.0 if s >= target else 0.0 for s in scores])
        aim = "" if name == args.difficulty else f" (games at {args.difficulty} difficulty)"
        print(
            f"celtae solo {args.bot}: {len(scores)} games, reaches {name} ({target}) in {mean:.1%} ± {half:.1%}{aim}"
        )
    print(f"mean score {statistics.fmean(scores):.1f}")


def pair(args: argparse.Namespace) -> None:
    """Run B against run A on the deals both played (files written by ``--out``)."""
    try:
        c = compare(read_run(args.a), read_run(args.b))
    except (OSError, ValueError) as exc:
        raise SystemExit(f"strength.py pair: {exc}") from None
    print(
        f"{c['deals']} deals: A {c['mean_a']:.3f}, B {c['mean_b']:.3f}, B - A {c['difference']:+.3f} "
        f"± {c['half_width']:.3f} (95 %) a deal; B better in {c['better']}, worse in {c['worse']} "
        f"(sign test p = {c['sign_p']:.2f}); the same moves in {c['same']}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    b = sub.add_parser("budget")
    b.add_argument("game")
    b.add_argument("--players", type=int, default=2)
    b.add_argument("--seconds", type=float, default=0.2)
    b.add_argument("--positions", type=int, default=12)
    b.add_argument(
        "--probe", type=int, default=400, help="iterations of the larger probe (the other: a quarter)"
    )
    b.add_argument("--seed", type=int, default=0)
    b.add_argument(
        "--spec", action="append", help="an ismcts spec to time (repeatable; default: both presets)"
    )
    d = sub.add_parser("duel")
    d.add_argument("game")
    d.add_argument("--players", type=int, default=2)
    d.add_argument("--bot", required=True)
    d.add_argument("--vs", default="greedy")
    s = sub.add_parser("solo")
    s.add_argument("--bot", required=True)
    s.add_argument(
        "--difficulty", choices=DIFFICULTIES, default="normal", help="the difficulty the games are played at"
    )
    c = sub.add_parser("pair")
    c.add_argument("a")
    c.add_argument("b")
    for p in (d, s):
        p.add_argument(
            "--out",
            help="write each deal's seed, the bot's result and a digest of the moves (JSON lines); "
            "duel also keeps its games in FILE.games as they end, and a stopped run resumes from it",
        )
        p.add_argument("-n", "--games", type=int, default=40)
        p.add_argument("-j", "--jobs", type=int, default=2)
        p.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    {"budget": budget, "duel": duel, "solo": solo, "pair": pair}[args.what](args)


if __name__ == "__main__":
    main()
