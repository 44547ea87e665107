"""Tournaments: every pairing (or table) of bots, seats rotated, seeds shared, ratings at the end.

Two-player games pair every two bots; games of 3 or 4 seat every combination of that
many bots (or, with fewer bots than seats, the bots repeated round the table). Within a
table, game ``k`` uses seed number ``k // players`` rotated by ``k % players`` seats, and
the same seed list serves every table: each deal is played from every seat by every
table (duplicate style), which removes most of the luck from the comparison.

A bot is named by a spec, ``name`` or ``name:key=value:key=value`` (e.g.
``ismcts:iterations=100``), so one bot at several settings can enter. Games run in
worker processes (``jobs``, every core by default) or on Ray (``ray_address``: ``"local"`` for a private
instance on this machine, or a cluster's address; needs the ``ray`` extra); results are
streamed to ``results.jsonl`` as games end (an interrupted tournament resumes from it); ratings (Bradley–Terry on the Elo scale, bootstrap intervals) are
printed and plotted to ``ratings.png``.
"""

from __future__ import annotations

import itertools
import json
import random
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..engine import load_game
from ..engine.data import DataSource
from .ratings import Rating, check_anchor, ratings
from .report import check_writable
from .simulate import data_fields, guarded, make_bot, outcome, play_bots, run_games
from .study import check_jobs, check_ray_address


def play(
    game_name: str, options: dict[str, Any], seats: Sequence[str], seed: int, data: DataSource = None
) -> dict[str, Any]:
    """One game between bot specs; the record holds what is needed to replay it."""
    state, thinking = play_bots(game_name, options, seats, seed, data=data)
    tag = state.game.data_tag
    return {
        **({"data": tag} if tag is not None else {}),
        "seed": seed,
        "seats": list(seats),
        **outcome(state),
        "actions": state.move_number(),
        "seconds": [round(t, 4) for t in thinking],
    }


def _task(task: dict[str, Any]) -> dict[str, Any]:
    return guarded(
        task,
        lambda: {
            "index": task["index"],
            "table": task["table"],
            "game": task["game"],
            "config": task["config"],
            **play(task["game"], task["config"], task["seats"], task["seed"], task.get("files")),
        },
    )


def schedule(bots: Sequence[str], players: int, games: int, seed: int | None) -> list[dict[str, Any]]:
    """Every game of the tournament: table, seats and seed, in a fixed order."""
    if len(bots) < 2:
        raise ValueError("a tournament needs at least two bots")
    if len(set(bots)) != len(bots):
        raise ValueError("each bot may enter once (give different parameters to enter one bot twice)")
    if players == 2 or len(bots) >= players:
        tables = [list(t) for t in itertools.combinations(bots, players)]
    else:
        tables = [[bots[s % len(bots)] for s in range(players)]]
    master = random.Random(seed)
    seeds = [master.getrandbits(63) for _ in range((games + players - 1) // players)]
    tasks: list[dict[str, Any]] = []
    for t, table in enumerate(tables):
        for k in range(games):
            shift = k % players
            seats = table[shift:] + table[:shift]
            tasks.append({"index": len(tasks), "table": t, "seats": seats, "seed": seeds[k // players]})
    return tasks


def run_tasks(
    tasks: list[dict[str, Any]],
    jobs: int | None = None,
    ray_address: str | None = None,
    progress: bool = False,
    journal: str | Path | None = None,
) -> list[dict[str, Any]]:
    """Play the tasks locally (``jobs`` processes, default every core) or on Ray; results in task order.

    With ``journal``, each game is appended to that JSON-lines file as it ends and games
    already there are not played again (see :mod:`ludus.arena.study`).
    """
    return run_games(tasks, _task, jobs, journal, ray_address, progress, f"{len(tasks)} games")


def tournament(
    game: str,
    options: dict[str, Any] | None,
    bots: Sequence[str],
    games: int = 10,
    jobs: int | None = None,
    seed: int | None = 0,
    out_dir: str | Path | None = None,
    ray_address: str | None = None,
    bootstrap: int = 200,
    progress: bool = False,
    echo: bool = True,
    anchor: str | None = None,
    data: DataSource = None,
) -> dict[str, Any]:
    """Run a tournament; write ``results.jsonl``, ``ratings.json``, ``head_to_head.json`` and
    ``ratings.png`` to ``out_dir``. ``data``: a folder whose files replace the game's data files.

    Games run on ``jobs`` processes (default: every core) or on Ray, and each is appended to
    ``results.jsonl`` as it ends: run again with the same arguments, an interrupted
    tournament plays only the games it lacks. ``games`` is per table (per pairing in two-player games).
    With ``anchor`` (one of ``bots``) the ratings are gaps to that bot, which rates 0 (``ratings``).
    Returns ``{"results", "ratings", "head_to_head", "files"}``. Bad options, bot specs or anchor
    raise ValueError before any game.
    """
    options = dict(options or {})
    the_game = load_game(game, data=data, **options)
    if games < 1:
        raise ValueError("games must be at least 1")
    jobs = check_jobs(jobs)
    for spec in bots:
        make_bot(spec, 0)  # refuse bad parameters now, not in a worker
    check_anchor(anchor, bots)
    tasks = schedule(list(bots), the_game.num_players, games, seed)
    for task in tasks:
        task["game"], task["config"] = game, dict(the_game.config)
        task.update(data_fields(the_game.data_files))
    files: dict[str, str] = {}
    if out_dir is not None:
        out = Path(out_dir)
        check_writable(out)
        files["results"] = str(out / "results.jsonl")
    if ray_address is not None:
        check_ray_address(ray_address)  # a clear error now rather than a hang
    results = run_tasks(tasks, jobs, ray_address, progress, journal=files.get("results"))
    table = ratings(results, bots=list(bots), bootstrap=bootstrap, seed=seed or 0, anchor=anchor)
    title = f"{game} {_config_text(the_game.config)}: {len(results)} games"
    if the_game.data_tag is not None:
        title += f", data {the_game.data_tag}"
    if anchor is not None:
        title += f"; ratings relative to {anchor}"
    if out_dir is not None:
        files["ratings"] = str(out / "ratings.json")
        Path(files["ratings"]).write_text(json.dumps([r.__dict__ for r in table], indent=1), encoding="utf-8")
        files["plot"] = str(out / "ratings.png")
        plot_ratings(table, files["plot"], title=title)
    matrix = win_matrix(results, list(bots))
    if out_dir is not None:
        files["head_to_head"] = str(Path(out_dir) / "head_to_head.json")
        Path(files["head_to_head"]).write_text(
            json.dumps({"bots": list(bots), "score": matrix}, indent=1), encoding="utf-8"
        )
    if echo:
        print_ratings(table, title)
        print_matrix(list(bots), matrix)
    return {"results": results, "ratings": table, "head_to_head": matrix, "files": files}


def _config_text(config: dict[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in config.items())


def win_matrix(results: Sequence[dict[str, Any]], bots: Sequence[str]) -> list[list[float | None]]:
    """Mean head-to-head score of the row bot against the column bot (None: never met)."""
    from .ratings import pairwise

    total = {(a, b): [0.0, 0] for a in bots for b in bots}
    for game in pairwise(results):
        for a, b, s in game:
            total[a, b][0] += s
            total[a, b][1] += 1
            total[b, a][0] += 1 - s
            total[b, a][1] += 1
    return [[(total[a, b][0] / total[a, b][1]) if total[a, b][1] else None for b in bots] for a in bots]


def print_ratings(table: Sequence[Rating], title: str) -> None:
    from rich.console import Console
    from rich.table import Table

    t = Table(title=title)
    for col in ("bot", "rating", "95% interval", "games", "score"):
        t.add_column(col, justify="left" if col == "bot" else "right")
    for r in table:
        t.add_row(
            r.bot, f"{r.rating:.0f}", f"{r.low:.0f} .. {r.high:.0f}", str(r.games), f"{100 * r.score:.1f}%"
        )
    Console(width=100).print(t)


def print_matrix(bots: Sequence[str], matrix: list[list[float | None]]) -> None:
    from rich.console import Console
    from rich.table import Table

    t = Table(title="head to head: mean score of the row bot against the column bot")
    t.add_column("")
    for b in bots:
        t.add_column(b, justify="right")
    for b, row in zip(bots, matrix, strict=True):
        t.add_row(b, *("-" if x is None else f"{x:.2f}" for x in row))
    Console(width=120).print(t)


def plot_ratings(table: Sequence[Rating], path: str | Path, title: str = "") -> None:
    """Ratings with their intervals as a horizontal bar chart (PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = list(reversed(table))
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(rows) + 1.5))
    y = range(len(rows))
    ax.errorbar(
        [r.rating for r in rows],
        list(y),
        xerr=[[r.rating - r.low for r in rows], [r.high - r.rating for r in rows]],
        fmt="o",
        capsize=4,
    )
    ax.set_yticks(list(y), [r.bot for r in rows])
    ax.set_xlabel("rating (Bradley–Terry, Elo scale; 95% bootstrap interval)")
    ax.set_title("\n".join(textwrap.wrap(title, 80)), fontsize=9)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def tournament_command(
    game: str,
    options: dict[str, Any],
    bots: str,
    games: int,
    jobs: int | None,
    seed: int | None,
    out: str | None,
    ray_address: str | None,
    bootstrap: int = 200,
    anchor: str | None = None,
    data: DataSource = None,
) -> dict[str, Any]:
    """What ``ludus tournament GAME --bots a,b,c ...`` runs (the CLI parses and passes its options)."""
    specs = [b.strip() for b in bots.split(",") if b.strip()]
    return tournament(
        game,
        options,
        specs,
        games=games,
        jobs=jobs,
        seed=seed,
        out_dir=out or "tournament",
        ray_address=ray_address,
        bootstrap=bootstrap,
        progress=True,
        anchor=anchor,
        data=data,
    )
