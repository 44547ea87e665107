"""Play many bot-only games, in parallel if asked, and summarise the scores.

Every game's seed is drawn up front from the master seed, and each bot's seed from its
game's seed and seat, so a simulation gives the same results whatever ``jobs`` is.
Seats are rotated from game to game so that every bot plays every seat.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import nullcontext
from typing import Any

from .. import bots as bot_registry
from ..engine import load_game


class SimulationError(RuntimeError):
    """A simulated game could not be played to its end (a bot or rule failure), with its seed."""


def lineup(bots: Sequence[str], players: int, index: int) -> list[str]:
    """The bot in each seat of game ``index``: the list rotated by one seat per game."""
    return [bots[(seat + index) % len(bots)] for seat in range(players)]


def bot_seed(game_seed: int, seat: int) -> int:
    """A bot's seed, fixed by its game's seed and its seat."""
    return random.Random(game_seed * 64 + seat).getrandbits(63)


def make_bot(spec: str, seed: int) -> bot_registry.Bot:
    """A bot from its spec (``name`` or ``name:key=value:...``), seeded when it takes a seed."""
    name, params = bot_registry.parse_spec(spec)
    try:
        return bot_registry.make(name, seed=seed, **params)
    except ValueError:
        if params:
            raise
        return bot_registry.make(name)


def play_game(game_name: str, options: dict[str, Any], seats: Sequence[str], seed: int,
              max_actions: int = 100_000, facts: Callable[[Any], Any] | None = None) -> dict[str, Any]:
    """One game between bots; the result holds the seed and seats needed to replay it.

    ``facts`` (a module-level function, so that worker processes can load it) is called on
    the final state; what it returns is kept as the result's ``facts`` (e.g. for a report).
    """
    game = load_game(game_name, **options)
    state = game.new_initial_state(seed=seed)
    players = [make_bot(spec, bot_seed(seed, s)) for s, spec in enumerate(seats)]
    while not state.is_terminal():
        if len(state.history()) >= max_actions:
            raise SimulationError(f"the game did not end within {max_actions} actions")
        state.apply_action(players[state.current_player()].step(state))
    return {
        "seed": seed,
        "seats": list(seats),
        "scores": state.scores(),
        "winners": state.winners(),
        "returns": state.returns(),
        "actions": len(state.history()),
        **({"facts": facts(state)} if facts else {}),
    }


def _task(args: tuple[int, str, dict[str, Any], list[str], int, Any]) -> dict[str, Any]:
    index, game_name, options, seats, seed, facts = args
    try:
        result = play_game(game_name, options, seats, seed, facts=facts)
    except Exception as exc:  # reported with the seed by the caller, so the game can be replayed
        return {"index": index, "seed": seed, "seats": seats, "error": f"{type(exc).__name__}: {exc}"}
    return {"index": index, **result}


def simulate(
    game_name: str,
    options: dict[str, Any],
    bots: Sequence[str],
    games: int,
    jobs: int = 1,
    seed: int | None = None,
    progress: bool = True,
    facts: Callable[[Any], Any] | None = None,
) -> list[dict[str, Any]]:
    """Play ``games`` games between ``bots`` (seats rotated), on ``jobs`` processes.

    Returns one dict per game, in game order: ``game``, ``seed``, ``seats`` (bot names),
    ``scores``, ``winners``, ``returns``, ``actions`` (and ``facts``, see ``play_game``).
    Bad options or bot names raise ValueError before any game starts; a game that fails
    raises SimulationError.
    """
    game = load_game(game_name, **options)  # refuses bad options at once
    if not bots:
        raise ValueError("name at least one bot")
    for spec in bots:
        make_bot(spec, 0)  # refuses unknown bots and bad parameters at once
    if games < 1:
        raise ValueError(f"the number of games must be at least 1, got {games}")
    if jobs < 1:
        raise ValueError(f"the number of jobs must be at least 1, got {jobs}")
    master = random.Random(seed)
    tasks = [
        (i, game_name, dict(game.config), lineup(bots, game.num_players, i), master.getrandbits(63), facts)
        for i in range(games)
    ]
    results: list[dict[str, Any]] = []
    with _progress_bar(progress) as bar:
        job = bar.add_task(f"{game_name}: {games} games", total=games) if bar else None
        if jobs == 1:
            for task in tasks:
                results.append(_task(task))
                if bar:
                    bar.advance(job)
        else:
            with ProcessPoolExecutor(max_workers=min(jobs, games)) as pool:
                for future in as_completed([pool.submit(_task, task) for task in tasks]):
                    results.append(future.result())
                    if bar:
                        bar.advance(job)
    results.sort(key=lambda r: r["index"])
    for r in results:
        if "error" in r:
            raise SimulationError(
                f"game {r['index']} (seed {r['seed']}, seats {','.join(r['seats'])}) failed: {r['error']}"
            )
    return results


def _progress_bar(show: bool):
    if not show:
        return nullcontext(None)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    console=Console(stderr=True))


def _stats(scores: list[float], wins: list[float]) -> dict[str, Any]:
    return {
        "games": len(scores),
        "mean": statistics.fmean(scores),
        "stdev": statistics.stdev(scores) if len(scores) > 1 else 0.0,
        "min": min(scores),
        "max": max(scores),
        "win_rate": statistics.fmean(wins),
    }


def summarize(results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Score statistics per seat and per bot: mean, stdev, min, max and win rate.

    The win rate is the mean return, so a win shared by k seats counts 1/k.
    """
    if not results:
        raise ValueError("no results to summarise")
    players = len(results[0]["scores"])
    seats = []
    for s in range(players):
        seats.append({"seat": s, **_stats([r["scores"][s] for r in results], [r["returns"][s] for r in results])})
    by_bot: dict[str, tuple[list[float], list[float]]] = {}
    for r in results:
        for s, name in enumerate(r["seats"]):
            scores, wins = by_bot.setdefault(name, ([], []))
            scores.append(r["scores"][s])
            wins.append(r["returns"][s])
    bots = [{"bot": name, **_stats(*by_bot[name])} for name in by_bot]
    return {"games": len(results), "seats": seats, "bots": bots}
