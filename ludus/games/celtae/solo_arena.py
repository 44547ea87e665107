"""The Celtae solo challenge: a bot plays Solitairix and is scored against each difficulty's target.

Solitairix plays the same way at every difficulty (the engine reads ``difficulty`` only to
decide whether the final score wins), so the games of one difficulty differ from another's
only if the bot itself looks at the target. ``games`` is the number of games played in all.
By default they are shared out over the difficulties, each difficulty playing the first
deals of one seed list (duplicate style); ``one_run=True`` plays them all at the first
difficulty and scores each against every target: exact for bots that never read the
target (``random``), a close estimate with more games per target for others.
Game and bot seeds come from the master seed, so the results do not depend on ``jobs``.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING, Any, cast

from ludus import bots as bot_registry
from ludus.arena.simulate import bot_seed
from ludus.arena.study import check_jobs
from ludus.engine import load_game
from ludus.engine.data import DataSource

if TYPE_CHECKING:
    from .game import CeltaeGame
    from .state import CeltaeState

DIFFICULTIES = ("easy", "normal", "hard")
CATEGORIES = ("A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K")


def play_solo(
    bot_name: str,
    difficulty: str,
    seed: int,
    bot_params: dict[str, Any] | None = None,
    data: DataSource = None,
) -> dict[str, Any]:
    """One solo game; the record holds the seed, the final score and its breakdown A..K, and the moves
    (and ``data``, the data's hash, when ``data`` replaces the package's files)."""
    game = cast("CeltaeGame", load_game("celtae", players=1, difficulty=difficulty, data=data))
    state = cast("CeltaeState", game.new_initial_state(seed=seed))
    bot = bot_registry.make(bot_name, seed=bot_seed(seed, 0), **(bot_params or {}))
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    breakdown = state.score_breakdown(0)
    return {
        "difficulty": difficulty,
        "seed": seed,
        "score": state.scores()[0],
        "breakdown": breakdown,
        "target": game.data.targets[difficulty],
        "won": bool(state.winners()),
        "actions": state.move_number(),
        "moves": state.history(),  # the game replays from its seed and these
        **({"data": game.data_tag} if game.data_tag is not None else {}),
    }


def deal_seeds(seed: int | None, games: int) -> list[int]:
    """The seeds of the first ``games`` solo deals of master seed ``seed``: a run's deals, in order."""
    master = random.Random(seed)
    return [master.getrandbits(63) for _ in range(games)]


def _task(args: tuple[str, str, int, dict[str, Any], Any]) -> dict[str, Any]:
    return play_solo(*args)


def _summary(games: list[dict[str, Any]], target: int) -> dict[str, Any]:
    scores = [g["score"] for g in games]
    wins = sum(1 for s in scores if s >= target)
    return {
        "target": target,
        "games": len(games),
        "wins": wins,
        "win_rate": wins / len(games),
        "mean": statistics.fmean(scores),
        "stdev": statistics.stdev(scores) if len(scores) > 1 else 0.0,
        "min": min(scores),
        "max": max(scores),
        "categories": {c: statistics.fmean(g["breakdown"][c] for g in games) for c in CATEGORIES},
    }


def solo_challenge(
    bot_name: str,
    difficulties: Sequence[str] = DIFFICULTIES,
    games: int = 20,
    jobs: int | None = None,
    seed: int | None = 0,
    one_run: bool = False,
    show: bool = True,
    data: DataSource = None,
    **bot_params: Any,
) -> dict[str, Any]:
    """Play ``games`` solo games in all with ``bot_name`` (a bot spec, ``name`` or
    ``name:key=value:...``, built with ``bot_params`` too), on ``jobs`` processes (default: every core).

    Returns ``{"bot", "params", "games", "one_run", "difficulties": {difficulty: summary},
    "results": [per game]}``; a summary holds ``target``, ``games``, ``wins`` (final
    score >= target), ``win_rate``, ``mean``, ``stdev``, ``min``, ``max`` and
    ``categories`` (mean points per scoring category A..K). ``show`` prints a table. ``data``: a
    folder whose files replace the game's data files (the result names its hash).
    Bad names, difficulties, data or counts raise ValueError before any game starts.
    """
    files = load_game("celtae", players=1, data=data).data_files  # refused now, read once
    bot_name, spec_params = bot_registry.parse_spec(bot_name)  # a spec: name or name:key=value:...
    bot_params = {**spec_params, **bot_params}
    bot_registry.make(bot_name, seed=0, **bot_params)  # refuses bad parameters at once
    difficulties = tuple(difficulties)
    if not difficulties:
        raise ValueError("name at least one difficulty")
    for d in difficulties:
        if d not in DIFFICULTIES:
            raise ValueError(f"unknown difficulty {d!r}; choose from {', '.join(DIFFICULTIES)}")
    if games < 1:
        raise ValueError(f"the number of games must be at least 1, got {games}")
    if not one_run and games < len(difficulties):
        raise ValueError(
            f"{len(difficulties)} difficulties need at least {len(difficulties)} games "
            f"(one each), got {games}"
        )
    jobs = check_jobs(jobs)
    seeds = deal_seeds(seed, games)
    played = difficulties[:1] if one_run else difficulties
    k = len(played)  # game i: difficulty i mod k, the (i div k)-th deal
    tasks = [(bot_name, played[i % k], seeds[i // k], dict(bot_params), files) for i in range(games)]
    if jobs == 1:
        results = [_task(t) for t in tasks]
    else:
        with ProcessPoolExecutor(max_workers=min(jobs, len(tasks))) as pool:
            results = list(pool.map(_task, tasks))
    solo = cast("CeltaeGame", load_game("celtae", players=1, data=files))
    targets = solo.data.targets
    summaries = {}
    for d in difficulties:
        mine = results if one_run else [r for r in results if r["difficulty"] == d]
        summaries[d] = _summary(mine, targets[d])
    out = {
        "bot": bot_name,
        "params": dict(bot_params),
        "games": games,
        "one_run": one_run,
        **({"data": solo.data_tag} if solo.data_tag is not None else {}),
        "difficulties": summaries,
        "results": results,
    }
    if show:
        print(format_challenge(out))
    return out


def format_challenge(out: dict[str, Any]) -> str:
    """A plain-text table of a ``solo_challenge`` result."""
    params = ", ".join(f"{k}={v}" for k, v in out["params"].items())
    lines = [
        f"Celtae solo challenge: {out['bot']}{f' ({params})' if params else ''}, {out['games']} games"
        f"{' (one run scored against every target)' if out['one_run'] else ' shared over the difficulties'}"
        + (f", data {out['data']}" if "data" in out else ""),
        f"{'difficulty':<10} {'target':>6} {'wins':>11} {'mean':>6} {'stdev':>6} {'min':>4} {'max':>4}  "
        + " ".join(f"{c:>4}" for c in CATEGORIES),
    ]
    for d, s in out["difficulties"].items():
        wins = f"{s['wins']}/{s['games']} {s['win_rate']:.0%}"
        lines.append(
            f"{d:<10} {s['target']:>6} {wins:>11} {s['mean']:>6.1f} {s['stdev']:>6.1f} "
            f"{s['min']:>4} {s['max']:>4}  " + " ".join(f"{s['categories'][c]:>4.1f}" for c in CATEGORIES)
        )
    return "\n".join(lines)
