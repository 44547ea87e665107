"""What-if on the same deals: a game played with data A and with data B, deal by deal.

A designer changes a value in a folder of their own and asks what it does. Two separate studies would
drown the change in the noise of their different deals; here every deal (seed, seats, bots) is played
under both data, so that each deal gives a difference, and every figure of ``compare_stats`` is such a
difference with its 95 % interval and a verdict. Side A of a comparison is ``simulate`` with the same
seed and bots. The games are played by the arena's runner (every core, or Ray), streamed to a JSON-lines
file per configuration in the output folder, and an interrupted comparison resumes from them.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..engine import Game, load_game
from ..engine.data import PRINTED, DataFiles, DataSource, differences
from ..engine.hooks import hook
from ..engine.registry import game_class
from .compare_stats import Row, Table, compare_tables, deal_figures, figure_row
from .report import COMPARED, _plt, check_writable, journal_name, save_plot, section
from .simulate import data_fields, guarded, lineup, make_bot, outcome, play_bots, run_games
from .study import check_jobs, check_ray_address

MAX_CHANGES = 60  # changed values listed in the report (all are in `ludus data diff`)


def side_files(game: str, data: DataSource) -> DataFiles:
    """The data files of one side: a folder's, or (None) the package's own, whatever ``LUDUS_DATA`` says."""
    package = game_class(game).data_package
    if package is None:
        raise ValueError(f"{game} has no data files to compare")
    if data is None:
        return DataFiles.of_package(package)
    if isinstance(data, DataFiles):
        return data
    return DataFiles.from_folder(package, data, game)


def side_label(files: DataFiles) -> str:
    """A side's data in words: the printed components, or the hash and where the files came from."""
    where = f" (the files of `{files.folder}`)" if files.folder else ""
    if files.printed:
        return PRINTED + (f": the files of `{files.folder}` change no value" if files.folder else "")
    return f"data {files.digest}{where}"


def _played(task: dict[str, Any]) -> dict[str, Any]:
    """One side of one deal: the replayable record, the results, the first seat to move, the score
    breakdown where the state has one, and the game's report facts."""
    state, _ = play_bots(task["game"], task["config"], task["seats"], task["seed"], data=task.get("files"))
    seats = range(state.game.num_players)
    breakdown = getattr(state, "score_breakdown", None)
    facts: Callable[[Any], Any] | None = task["facts"]
    return {
        "index": task["index"],
        "side": task["side"],
        **state.record(),
        "seats": list(task["seats"]),
        **outcome(state),
        "first": state.game.new_initial_state(seed=task["seed"]).current_player(),
        **({"breakdown": [breakdown(s) for s in seats]} if callable(breakdown) else {}),
        **({"facts": facts(state)} if facts else {}),
    }


def _task(task: dict[str, Any]) -> dict[str, Any]:
    return guarded(task, lambda: _played(task))


def deal_tasks(
    game: Game, bots: Sequence[str], games: int, seed: int | None, sides: Sequence[DataFiles], facts: Any
) -> list[dict[str, Any]]:
    """Every game of one configuration: deal ``i`` (the seats and seed ``simulate`` gives game ``i``)
    under each side in turn, game ``2 i`` under A and ``2 i + 1`` under B, so that a longer comparison
    of the same study extends its journal."""
    master = random.Random(seed)
    tasks: list[dict[str, Any]] = []
    for i in range(games):
        seats, deal = lineup(bots, game.num_players, i), master.getrandbits(63)
        for side, files in zip("AB", sides, strict=True):
            tasks.append(
                {
                    "index": len(tasks),
                    "side": side,
                    "game": game.name,
                    "config": dict(game.config),
                    "seats": seats,
                    "seed": deal,
                    "facts": facts,
                    **data_fields(files),
                }
            )
    return tasks


def compare_data(
    game: str,
    options: dict[str, Any] | None,
    a: DataSource,
    b: DataSource,
    bots: Sequence[str] = ("greedy",),
    games: int = 100,
    jobs: int | None = None,
    seed: int | None = 0,
    out_dir: str | Path = "compare",
    ray_address: str | None = None,
    progress: bool = False,
    compare: bool = True,
) -> dict[str, Any]:
    """Play ``games`` deals under data ``a`` and under data ``b`` (folders; None: the package's files)
    and write ``compare.md`` with a PNG per table into ``out_dir``.

    With ``compare``, every other choice of the game's board / variant / difficulty options is played
    too, and the change of the mean score is given for each. Returns ``{"game", "config", "bots",
    "games", "seed", "a", "b", "changes", "tables", "options", "report"}``: ``changes`` the values that
    differ (``ludus.engine.data.differences``), ``tables`` the ``compare_stats.Table`` of the
    configuration given, ``options`` those by option. Bad options, data, bots or an unwritable
    ``out_dir`` raise ValueError before any game.
    """
    options = dict(options or {})
    sides = (side_files(game, a), side_files(game, b))
    the_game = load_game(game, data=sides[0], **options)
    load_game(game, data=sides[1], **options)  # B's values checked (rules of its own) before any game
    if games < 1:
        raise ValueError(f"the number of games must be at least 1, got {games}")
    if not bots:
        raise ValueError("name at least one bot")
    for spec in bots:
        make_bot(spec, 0)
    jobs = check_jobs(jobs)
    out = Path(out_dir)
    check_writable(out)
    if ray_address is not None:
        check_ray_address(ray_address)
    facts = hook(game, "report_facts")
    config = dict(the_game.config)

    def play(variant: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        played = load_game(game, data=sides[0], **variant)
        tasks = deal_tasks(played, bots, games, seed, sides, facts)
        results = run_games(
            tasks,
            _task,
            jobs,
            out / journal_name(dict(played.config)),
            ray_address,
            progress,
            f"{game}: {games} deals x 2",
        )
        return [(results[i], results[i + 1]) for i in range(0, len(results), 2)]

    pairs = play(config)
    tables = compare_tables(pairs)
    by_option = _by_option(game, config, pairs, play, sides) if compare else []
    result = {
        "game": game,
        "config": config,
        "bots": list(bots),
        "games": games,
        "seed": seed,
        "a": side_label(sides[0]),
        "b": side_label(sides[1]),
        "changes": differences(*sides),
        "tables": tables,
        "options": by_option,
    }
    result["report"] = str(write_markdown(result, out))
    return result


def _by_option(
    game: str,
    config: dict[str, Any],
    pairs: list[tuple[dict[str, Any], dict[str, Any]]],
    play: Callable[[dict[str, Any]], list[tuple[dict[str, Any], dict[str, Any]]]],
    sides: Sequence[DataFiles],
) -> list[Table]:
    """A table per compared option (board, variant, difficulty): the change of the mean score under each
    of its choices, the other options held as given."""
    tables = []
    for opt in game_class(game).options:
        if opt.name not in COMPARED or len(opt.choices) < 2:
            continue
        rows: list[Row] = []
        for choice in opt.choices:
            variant = {**config, opt.name: choice}
            try:
                load_game(game, data=sides[0], **variant)
            except ValueError:
                continue
            played = pairs if choice == config[opt.name] else play(variant)
            label = f"{opt.name}={choice}"
            row = figure_row(
                deal_figures(played), ("score", "all seats"), label, f"the mean score with {label}"
            )
            if row is not None:
                rows.append(row)
        if len(rows) > 1:
            tables.append(
                Table(
                    f"by_{opt.name}",
                    f"Mean score by {opt.name}",
                    f"The change of the mean score under each {opt.name}, the other options as given. {opt.doc}",
                    rows,
                )
            )
    return tables


# -- the report ----------------------------------------------------------------------------------


def plot_differences(table: Table, path: Path, title: str) -> None:
    """B − A of each row with its 95 % interval, a line at no difference; detected rows in red."""
    plt = _plt()
    rows = table.rows
    fig, ax = plt.subplots(figsize=(6.5, 0.3 * len(rows) + 1.7))
    ys = list(range(len(rows)))
    xs = [r.difference * r.scale for r in rows]
    half = [r.half_width * r.scale if math.isfinite(r.half_width) else 0.0 for r in rows]
    colours = ["#c44e52" if r.detected else "#4c72b0" for r in rows]
    ax.hlines(
        ys,
        [x - h for x, h in zip(xs, half, strict=True)],
        [x + h for x, h in zip(xs, half, strict=True)],
        colors=colours,
    )
    ax.scatter(xs, ys, c=colours, zorder=3, label="B − A, 95 % interval")
    ax.axvline(0, color="grey", linestyle="--", linewidth=1, label="no difference")
    ax.set_yticks(ys, [r.label for r in rows], fontsize=8)
    ax.invert_yaxis()
    kind = rows[0].kind
    ax.set_xlabel("percentage points, B − A" if kind != "amount" else f"{rows[0].unit or 'amount'}, B − A")
    save_plot(plt, fig, ax, path, title)


def _section(table: Table, plot: str) -> list[str]:
    groups = table.key.startswith("by_") and table.rows[0].kind == "win"
    columns = ["", "A", "B", *(["seats A", "seats B"] if groups else []), "B − A", "verdict"]
    rows = [
        [
            r.label,
            r.shown(r.a),
            r.shown(r.b),
            *([r.seats_a, r.seats_b] if groups else []),
            r.interval(),
            r.verdict(),
        ]
        for r in table.rows
    ]
    below = f"![{table.title}]({plot})"
    if table.left_out:
        below += f"\n\nSeen under one side only: {', '.join(table.left_out)}."
    return section(table.title, table.intro, columns, "l" + "r" * (len(columns) - 2) + "l", rows, below)


def write_markdown(result: dict[str, Any], out: Path) -> Path:
    """``compare.md`` and its plots (``compare_<table>.png``) in ``out``."""
    game, config = result["game"], result["config"]
    label = " ".join(f"{k}={v}" for k, v in config.items())
    lines = [
        f"# {game}: data A against data B, on the same deals",
        "",
        f"Configuration: `{label}`  ",
        f"Bots (rotated over seats): {', '.join(result['bots'])}  ",
        f"A: {result['a']}  ",
        f"B: {result['b']}  ",
        f"Deals: {result['games']}, each played under A and under B (master seed {result['seed']}; "
        f"the games are in `{journal_name(config)}`)",
        "",
        "## What B changes",
        "",
    ]
    changes = result["changes"]
    if changes:
        lines += ["| file | value | A | B |", "|---|---|---|---|"]
        for name, key, x, y in changes[:MAX_CHANGES]:
            lines.append(f"| {name} | `{key}` | `{json.dumps(x)}` | `{json.dumps(y)}` |")
        if len(changes) > MAX_CHANGES:
            lines.append(f"\n…and {len(changes) - MAX_CHANGES} more (`ludus data diff` lists them all).")
    else:
        lines.append("Nothing: A and B hold the same values, so every game is the same under both.")
    lines += [
        "",
        "B − A is the mean over the deals of each deal's difference, with its 95 % interval (Student's t "
        "over the deals); a verdict names a difference only where that interval leaves out 0. Among many "
        "rows, about one in twenty shows a difference at 95 % by chance alone: trust a lone one less.",
        "",
    ]
    for table in [*result["tables"], *result["options"]]:
        name = f"compare_{table.key}.png"
        plot_differences(table, out / name, f"{game}: {table.title}, B − A ({result['games']} deals)")
        lines += _section(table, name)
    path = out / "compare.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
