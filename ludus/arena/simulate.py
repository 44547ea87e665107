"""Play many bot-only games on every core, streamed to a resumable file, and summarise the scores.

Every game's seed is drawn up front from the master seed, and each bot's seed from its
game's seed and seat, so a simulation gives the same results whatever ``jobs`` is.
Seats are rotated from game to game so that every bot plays every seat. ``data`` (a folder, or a
``DataFiles``) replaces the game's data files; the worker processes get the files' texts, not a
path, and each record names the data's hash.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .. import bots as bot_registry
from ..engine import State, load_game
from ..engine.data import DataFiles, DataSource
from .study import StudyError, check_jobs, run_study


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


def play_bots(
    game_name: str,
    options: dict[str, Any],
    seats: Sequence[str],
    seed: int,
    max_actions: int = 100_000,
    data: DataSource = None,
) -> tuple[State, list[float]]:
    """One game between bot specs, played to its end: the final state and each seat's thinking
    time in seconds. Each bot's seed comes from the game's seed and its seat (``bot_seed``)."""
    game = load_game(game_name, data=data, **options)
    state = game.new_initial_state(seed=seed)
    players = [make_bot(spec, bot_seed(seed, s)) for s, spec in enumerate(seats)]
    thinking = [0.0] * len(seats)
    while not state.is_terminal():
        if state.move_number() >= max_actions:
            raise SimulationError(f"the game did not end within {max_actions} actions")
        seat = state.current_player()
        start = time.perf_counter()
        action = players[seat].step(state)
        thinking[seat] += time.perf_counter() - start
        state.apply_action(action)
    return state, thinking


def outcome(state: State) -> dict[str, Any]:
    """What a finished game's record holds of its outcome."""
    return {"scores": state.scores(), "winners": state.winners(), "returns": state.returns()}


def guarded(task: dict[str, Any], play: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """``play()``'s record, or, if the game failed, the task's index, seed and seats with the error:
    the study reports it with its seed, so that the game can be replayed."""
    try:
        return play()
    except Exception as exc:
        return {
            "index": task["index"],
            "seed": task["seed"],
            "seats": task["seats"],
            "error": f"{type(exc).__name__}: {exc}",
        }


def play_game(
    game_name: str,
    options: dict[str, Any],
    seats: Sequence[str],
    seed: int,
    max_actions: int = 100_000,
    facts: Callable[[Any], Any] | None = None,
    data: DataSource = None,
) -> dict[str, Any]:
    """One game between bots: a replayable record (game, config, seed, the actions as notation;
    ``data``, the data's hash, when not the package's) plus its results (``scores``, ``winners``,
    ``returns``).

    ``facts`` (a module-level function, so that worker processes can load it) is called on
    the final state; what it returns is kept as the result's ``facts`` (e.g. for a report).
    """
    state, _ = play_bots(game_name, options, seats, seed, max_actions, data)
    return {
        **state.record(),
        "seats": list(seats),
        **outcome(state),
        **({"facts": facts(state)} if facts else {}),
    }


def _task(task: dict[str, Any]) -> dict[str, Any]:
    return guarded(
        task,
        lambda: {
            "index": task["index"],
            **play_game(
                task["game"],
                task["config"],
                task["seats"],
                task["seed"],
                facts=task["facts"],
                data=task.get("files"),
            ),
        },
    )


def simulate(
    game_name: str,
    options: dict[str, Any],
    bots: Sequence[str],
    games: int,
    jobs: int | None = None,
    seed: int | None = None,
    progress: bool = True,
    facts: Callable[[Any], Any] | None = None,
    out: str | Path | None = None,
    ray_address: str | None = None,
    data: DataSource = None,
) -> list[dict[str, Any]]:
    """Play ``games`` games between ``bots`` (seats rotated), on ``jobs`` processes (default: every core).

    Returns one record per game, in game order: ``index``, ``game``, ``config``, ``seed``,
    ``actions`` (the moves as notation, so the game replays), ``seats`` (bot specs),
    ``scores``, ``winners``, ``returns`` (and ``facts``, see ``play_game``). With ``out``,
    each record is appended to that JSON-lines file as its game ends, and games already in
    it (same seed and seats) are read back, not played again: an interrupted run resumes.
    ``progress`` draws a bar with an ETA on stderr when stderr is a terminal.
    ``data``: a folder whose files replace the game's data files (records then hold ``data``).
    Bad options, data, bot names or an unwritable ``out`` raise ValueError before any game
    starts; a game that fails raises SimulationError (after the others are done).
    """
    game = load_game(game_name, data=data, **options)  # refuses bad options and data at once
    if not bots:
        raise ValueError("name at least one bot")
    for spec in bots:
        make_bot(spec, 0)  # refuses unknown bots and bad parameters at once
    if games < 1:
        raise ValueError(f"the number of games must be at least 1, got {games}")
    jobs = check_jobs(jobs)
    master = random.Random(seed)
    config = dict(game.config)
    tasks = [
        {
            "index": i,
            "game": game_name,
            "config": config,
            "seats": lineup(bots, game.num_players, i),
            "seed": master.getrandbits(63),
            "facts": facts,
            **data_fields(game.data_files),
        }
        for i in range(games)
    ]
    return run_games(tasks, _task, jobs, out, ray_address, progress, f"{game_name}: {games} games")


def data_fields(files: DataFiles | None) -> dict[str, Any]:
    """What a game task holds of its data: ``files``, what the worker plays with (the texts of a
    folder's files travel with it, for workers on other machines), and ``data``, the hash, part of what
    makes the game for resuming (left out for the package's values, as records leave it out)."""
    if files is None:
        return {}
    return {"files": files, **({"data": files.tag} if files.tag is not None else {})}


def run_games(
    tasks: list[dict[str, Any]],
    work: Callable[[dict[str, Any]], dict[str, Any]],
    jobs: int | None = None,
    journal: str | Path | None = None,
    ray_address: str | None = None,
    progress: bool = False,
    description: str = "games",
) -> list[dict[str, Any]]:
    """Play game tasks (each with its ``game``, ``config``, ``seats`` and ``seed``, and ``data`` if not
    the package's: ``data_fields``) with ``work``, as :func:`~ludus.arena.study.run_study` does; a game
    that fails raises SimulationError."""
    try:
        return run_study(
            tasks,
            work,
            jobs=jobs,
            journal=journal,
            identity=("game", "config", "data", "seats", "seed"),
            ray_address=ray_address,
            progress=progress,
            description=description,
        )
    except StudyError as exc:
        raise SimulationError(str(exc)) from None


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
        seats.append(
            {"seat": s, **_stats([r["scores"][s] for r in results], [r["returns"][s] for r in results])}
        )
    by_bot: dict[str, tuple[list[float], list[float]]] = {}
    for r in results:
        for s, name in enumerate(r["seats"]):
            scores, wins = by_bot.setdefault(name, ([], []))
            scores.append(r["scores"][s])
            wins.append(r["returns"][s])
    bots = [{"bot": name, **_stats(*by_bot[name])} for name in by_bot]
    return {"games": len(results), "seats": seats, "bots": bots}
