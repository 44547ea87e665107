"""Balance reports: bot-played games summarised in Markdown with PNG plots.

The questions a designer asks of a configuration: does a seat win more than its share
(turn-order advantage), how are scores and winning margins spread, how often are games
tied, and how do the game's alternative setups compare (each choice of its ``board``,
``variant`` and ``difficulty`` options). The report is generic over games: it reads only
results of ``simulate``; a game with sections of its own declares in its hooks the function
that reads facts from each final state and the one that writes its sections from them
(``report_facts``, ``report_sections``; :func:`section` writes one in the report's style).
"""

from __future__ import annotations

import math
import statistics
import textwrap
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine import load_game
from ..engine.data import DataSource
from ..engine.hooks import hook
from ..engine.registry import game_class

COMPARED = ("board", "variant", "difficulty")

FLAG = "⚑"
"""Marks a suspicious figure; a section's line starting ``- ⚑`` is gathered at the top of a balance page
(made by ``flag_figure``, which keeps its numbers for the page; a line written by hand goes last)."""


def flagged(rate: float, n: int, reference: float) -> bool:
    """Whether the 95 % Wilson interval of a rate over ``n`` seats or games leaves out ``reference`` (e.g.
    the fair share). Wilson's, which stays honest near 0 and 1 and over few games (1 win in 1 game flags
    nothing, 24 in 24 do): it holds the references the score test (``p_value``) does not refuse at 5 %."""
    return p_value(rate, n, reference) < 0.05


def p_value(rate: float, n: int, reference: float) -> float:
    """Two-sided p-value of the score test of ``rate`` over ``n`` against ``reference``, the test whose
    95 % acceptance region is Wilson's interval (1 for no games)."""
    spread = reference * (1 - reference)
    if n < 1:
        return 1.0
    if spread <= 0:
        return 1.0 if rate == reference else 0.0
    return math.erfc(abs(rate - reference) / math.sqrt(2 * spread / n))


@dataclass
class Tally:
    """The figures a balance page tests against their fair share: how many, and each flag's numbers
    (its line -> p-value and departure in points), so that the page can tell the flags that hold over
    all its figures from those that may be chance, without reading numbers back from its text."""

    tested: int = 0
    flags: dict[str, tuple[float, float]] = field(default_factory=dict)


_TALLY: ContextVar[Tally | None] = ContextVar("ludus_balance_tally", default=None)


@contextmanager
def tallying() -> Iterator[Tally]:
    """Count the figures ``flag_figure`` tests while the block runs (the sections of a balance page)."""
    tally = Tally()
    token = _TALLY.set(tally)
    try:
        yield tally
    finally:
        _TALLY.reset(token)


def flag_figure(text: str, rate: float, n: int, reference: float) -> str | None:
    """A figure tested against its fair share: its flag line ``- ⚑ text`` (gathered at the top of a
    balance page) if ``flagged``, else None; counted in the active ``Tally`` either way."""
    tally = _TALLY.get()
    if tally is not None:
        tally.tested += 1
    if not flagged(rate, n, reference):
        return None
    line = f"- {FLAG} {text}"
    if tally is not None:
        tally.flags[line] = (p_value(rate, n, reference), 100 * abs(rate - reference))
    return line


def _simulate(
    game: str,
    options: dict[str, Any],
    bots: Sequence[str],
    games: int,
    jobs: int | None,
    seed: int,
    facts: Callable[[Any], Any] | None = None,
    out: Path | None = None,
    data: DataSource = None,
) -> list[dict[str, Any]]:
    from .simulate import simulate

    return simulate(
        game, options, list(bots), games, jobs=jobs, seed=seed, progress=True, facts=facts, out=out, data=data
    )


def journal_name(config: dict[str, Any]) -> str:
    """The file a configuration's games are streamed to (and resumed from) in the report's folder."""
    return "games_" + "_".join(f"{k}={v}" for k, v in config.items()) + ".jsonl"


def check_writable(folder: Path) -> None:
    """Create ``folder`` and prove a file can be written there, or raise ValueError (before any game)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".ludus-write-check"
        probe.write_text("", encoding="utf-8")
        probe.unlink()
    except OSError as exc:
        raise ValueError(f"cannot write to {folder}: {exc.strerror or exc}") from None


def mean_or_none(xs: Sequence[float]) -> float | None:
    """The mean of ``xs``, None for none (a table cell then reads "–")."""
    return statistics.fmean(xs) if xs else None


def pct(x: float | None) -> str:
    """A share as a table cell: "12.3%", or "–" for none."""
    return "–" if x is None else f"{100 * x:.1f}%"


def num(x: float | None) -> str:
    """A mean as a table cell: "1.23", or "–" for none."""
    return "–" if x is None else f"{x:.2f}"


def _interval(p: float, n: int) -> float:
    """Half-width of a 95 % interval for a proportion ``p`` over ``n``: Agresti-Coull's (two wins and two
    losses added to the spread), which is the normal one over many games but stays honest near 0 and 1
    over few (0 wins in 10 games is not "0.0% ± 0.0")."""
    if not n:
        return 0.0
    adjusted = (p * n + 2) / (n + 4)
    return 1.96 * math.sqrt(adjusted * (1 - adjusted) / (n + 4))


def seat_stats(results: Sequence[dict[str, Any]]) -> list[dict[str, float]]:
    players = len(results[0]["scores"])
    n = len(results)
    out = []
    for s in range(players):
        wins = statistics.fmean(r["returns"][s] for r in results)
        scores = [r["scores"][s] for r in results]
        out.append(
            {
                "seat": s,
                "win_rate": wins,
                "ci": _interval(wins, n),
                "mean": statistics.fmean(scores),
                "stdev": statistics.stdev(scores) if n > 1 else 0.0,
            }
        )
    return out


def turn_order_stats(
    game: str, config: dict[str, Any], results: Sequence[dict[str, Any]], data: DataSource = None
) -> list[dict[str, float]]:
    """Win rate by place in turn order: 0 is the seat that moves first in the deal (re-created from its seed)."""
    the_game = load_game(game, data=data, **config)
    players = the_game.num_players
    wins: list[list[float]] = [[] for _ in range(players)]
    scores: list[list[float]] = [[] for _ in range(players)]
    for r in results:
        first = the_game.new_initial_state(seed=r["seed"]).current_player()
        for seat in range(players):
            wins[(seat - first) % players].append(r["returns"][seat])
            scores[(seat - first) % players].append(r["scores"][seat])
    n = len(results)
    out = []
    for pos in range(players):
        rate = statistics.fmean(wins[pos])
        out.append(
            {
                "seat": pos,
                "win_rate": rate,
                "ci": _interval(rate, n),
                "mean": statistics.fmean(scores[pos]),
                "stdev": statistics.stdev(scores[pos]) if n > 1 else 0.0,
            }
        )
    return out


def _first_seat_varies(the_game: Any, deals: int = 16) -> bool:
    """Whether the seat taking the first decision depends on the deal; when it does not (the seats
    are the turn order), the table by seat already is the table by turn order."""
    if the_game.num_players < 2:
        return False
    return len({the_game.new_initial_state(seed=s).current_player() for s in range(deals)}) > 1


def game_stats(results: Sequence[dict[str, Any]]) -> dict[str, float]:
    """Mean score, winning margin over the runner-up, share of shared wins."""
    all_scores = [x for r in results for x in r["scores"]]
    margins = []
    for r in results:
        ranked = sorted(r["scores"], reverse=True)
        margins.append(ranked[0] - ranked[1] if len(ranked) > 1 else ranked[0])
    return {
        "games": len(results),
        "mean_score": statistics.fmean(all_scores),
        "stdev_score": statistics.stdev(all_scores) if len(all_scores) > 1 else 0.0,
        "winner_score": statistics.fmean(max(r["scores"]) for r in results),
        "margin": statistics.fmean(margins),
        "shared_wins": statistics.fmean(1.0 if len(r["winners"]) > 1 else 0.0 for r in results),
        "actions": statistics.fmean(_count(r["actions"]) for r in results),
    }


def _count(actions: int | list[str]) -> int:
    """Decisions of a game from its record (the moves, or a count in older records)."""
    return actions if isinstance(actions, int) else len(actions)


def section(
    title: str, intro: str, columns: Sequence[str], align: str, rows: Iterable[Sequence[Any]], below: str
) -> list[str]:
    """The Markdown lines of a report section: its heading, a paragraph, a table and what stands
    below it (its plot, or a sentence). ``align`` has a letter a column: "l" left, "r" right."""
    rule = "|" + "|".join("---:" if a == "r" else "---" for a in align) + "|"
    return [f"## {title}", "", intro, "", _row(columns), rule, *map(_row, rows), "", below, ""]


def _row(cells: Sequence[Any]) -> str:
    return "|" + "|".join(f" {c} " if c != "" else " " for c in cells) + "|"


def _seat_rows(stats: list[dict[str, float]]) -> list[list[str]]:
    """The rows of a win-rate table (by seat or by place in turn order)."""
    return [
        [
            str(s["seat"] + 1),  # seats counted from 1 for people
            f"{100 * s['win_rate']:.1f}%",
            f"±{100 * s['ci']:.1f}",
            f"{s['mean']:.1f}",
            f"{s['stdev']:.1f}",
        ]
        for s in stats
    ]


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_plot(plt: Any, fig: Any, ax: Any, path: Path, title: str, legend: int = 8) -> None:
    """The tail every report plot shares: wrapped title, legend, the PNG written, the figure freed."""
    ax.set_title("\n".join(textwrap.wrap(title, 70)), fontsize=9)
    ax.legend(fontsize=legend)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def plot_seats(stats: list[dict[str, float]], path: Path, title: str) -> None:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(5, 3.2))
    seats = [s["seat"] + 1 for s in stats]  # counted from 1 for people
    ax.bar(seats, [s["win_rate"] for s in stats], yerr=[s["ci"] for s in stats], capsize=4, color="#4c72b0")
    ax.axhline(1 / len(stats), color="grey", linestyle="--", linewidth=1, label="fair share")
    ax.set_xticks(seats)
    ax.set_xlabel("seat")
    ax.set_ylabel("win rate (95% interval)")
    save_plot(plt, fig, ax, path, title)


def plot_scores(results: Sequence[dict[str, Any]], path: Path, title: str) -> None:
    plt = _plt()
    players = len(results[0]["scores"])
    fig, ax = plt.subplots(figsize=(6, 3.5))
    data = [[r["scores"][s] for r in results] for s in range(players)]
    lo = min(min(d) for d in data)
    hi = max(max(d) for d in data)
    bins = min(15, max(5, hi - lo + 1))
    ax.hist(
        data,
        bins=bins,
        range=(lo, hi + 1),
        label=[f"seat {s + 1}" for s in range(players)],
        histtype="step",
        linewidth=1.6,
    )
    ax.set_xlabel("final score")
    ax.set_ylabel("games")
    save_plot(plt, fig, ax, path, title)


def plot_bars(
    labels: Sequence[str],
    series: dict[str, Sequence[float | None]],
    path: Path,
    title: str,
    xlabel: str,
    ref: float | None = None,
) -> None:
    """Horizontal grouped bars, one group per label (a missing value is left blank)."""
    plt = _plt()
    k = len(series)
    height = 0.8 / k
    fig, ax = plt.subplots(figsize=(7, 0.22 * k * len(labels) + 1.8))
    for j, (name, values) in enumerate(series.items()):
        ys = [i - 0.4 + height * (j + 0.5) for i in range(len(labels))]
        ax.barh(ys, [math.nan if v is None else v for v in values], height=height, label=name)
    if ref is not None:
        ax.axvline(ref, color="grey", linestyle="--", linewidth=1, label="fair share")
    ax.set_yticks(range(len(labels)), labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    save_plot(plt, fig, ax, path, title, legend=7)


def plot_comparison(rows: list[tuple[str, dict[str, Any]]], path: Path, title: str) -> None:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 0.45 * len(rows) + 1.6))
    labels = [label for label, _ in rows]
    y = list(range(len(rows)))
    ax.barh(
        [i - 0.2 for i in y],
        [s["mean_score"] for _, s in rows],
        height=0.4,
        label="mean score",
        xerr=[s["stdev_score"] for _, s in rows],
        capsize=3,
    )
    ax.barh([i + 0.2 for i in y], [s["margin"] for _, s in rows], height=0.4, label="winning margin")
    ax.set_yticks(y, labels)
    ax.set_xlabel("points")
    save_plot(plt, fig, ax, path, title)


def write_report(
    game: str,
    options: dict[str, Any] | None,
    games: int,
    out_dir: str | Path,
    bots: Sequence[str] = ("greedy",),
    jobs: int | None = None,
    seed: int = 0,
    compare: bool = True,
    data: DataSource = None,
) -> Path:
    """Play ``games`` games per configuration and write ``report.md`` with its plots to ``out_dir``.

    ``bots`` are rotated over the seats (one name: every seat plays it). With ``compare``,
    every choice of the game's board / variant / difficulty options is played too, the
    other options held as given. Games run on ``jobs`` processes (default: every core) and
    each configuration's games are streamed to ``games_<config>.jsonl`` in ``out_dir`` as they
    end, so an interrupted report resumes where it stopped when run again with the same
    arguments. An unwritable ``out_dir`` raises ValueError before any game. ``data``: a folder whose
    files replace the game's data files (the report names its hash; a game's own sections get it as
    the keyword ``data``). Returns the Markdown file's path.
    """
    options = dict(options or {})
    the_game = load_game(game, data=data, **options)
    files = the_game.data_files  # read once: every configuration plays with the same values
    config = dict(the_game.config)
    out = Path(out_dir)
    check_writable(out)
    label = " ".join(f"{k}={v}" for k, v in config.items())
    facts, sections = hook(game, "report_facts"), hook(game, "report_sections")
    results = _simulate(
        game, config, bots, games, jobs, seed, facts=facts, out=out / journal_name(config), data=files
    )
    seats = seat_stats(results)
    overall = game_stats(results)
    plot_seats(seats, out / "win_rate_by_seat.png", f"{game}: win rate by seat ({games} games)")
    order = turn_order_stats(game, config, results, files) if _first_seat_varies(the_game) else None
    if order:
        plot_seats(
            order,
            out / "win_rate_by_turn_order.png",
            f"{game}: win rate by place in turn order, 1 = first to move ({games} games)",
        )
    plot_scores(results, out / "scores.png", f"{game}: final scores by seat ({games} games)")

    lines = [
        f"# {game} balance report",
        "",
        f"Configuration: `{label}`  ",
        f"Bots (rotated over seats): {', '.join(bots)}  ",
        f"Games: {games}, master seed {seed}",
        "",
    ]
    if files is not None and files.tag is not None:
        lines[-2:-2] = [f"Data: {files.tag}, the files of `{files.folder}` in place of the package's  "]
    columns = ("win rate", "95% interval", "mean score", "stdev")
    lines += section(
        "Win rate by seat",
        "A seat well outside its fair share, beyond its 95 % interval, hints at a turn-order advantage.",
        ("seat", *columns),
        "rrrrr",
        _seat_rows(seats),
        "![win rate by seat](win_rate_by_seat.png)",
    )
    if order:
        lines += section(
            "Win rate by place in turn order",
            "Place 1 is the seat that takes the first decision of the deal, 2 the next, and so on.",
            ("place", *columns),
            "rrrrr",
            _seat_rows(order),
            "![win rate by turn order](win_rate_by_turn_order.png)",
        )
    lines += [
        "## Scores",
        "",
        f"Mean score {overall['mean_score']:.1f} (stdev {overall['stdev_score']:.1f}); winners score "
        f"{overall['winner_score']:.1f} on average, {overall['margin']:.1f} ahead of the runner-up; "
        f"{100 * overall['shared_wins']:.1f}% of games end in a shared win; "
        f"{overall['actions']:.0f} decisions per game.",
        "",
        "![scores](scores.png)",
        "",
    ]
    if sections is not None:
        given = {"data": files} if files is not None and files.tag is not None else {}
        lines += sections(config, results, out, bots, games, jobs, seed, **given)

    if compare:
        axes = [o for o in game_class(game).options if o.name in COMPARED and len(o.choices) > 1]
        for opt in axes:
            rows: list[tuple[str, dict[str, Any]]] = []
            for choice in opt.choices:
                variant = {**config, opt.name: choice}
                try:
                    load_game(game, data=files, **variant)
                except ValueError:
                    continue
                same = choice == config[opt.name]
                res = (
                    results
                    if same
                    else _simulate(
                        game,
                        variant,
                        bots,
                        games,
                        jobs,
                        seed,
                        out=out / journal_name(dict(load_game(game, data=files, **variant).config)),
                        data=files,
                    )
                )
                rows.append((f"{opt.name}={choice}", game_stats(res) | {"seats": seat_stats(res)}))
            if len(rows) < 2:
                continue
            name = f"compare_{opt.name}.png"
            plot_comparison(rows, out / name, f"{game}: by {opt.name} ({games} games each)")
            lines += section(
                f"By {opt.name}",
                opt.doc,
                (
                    "setting",
                    "mean score",
                    "stdev",
                    "winner's score",
                    "margin",
                    "shared wins",
                    "best seat win rate",
                ),
                "lrrrrrr",
                (
                    [
                        row_label,
                        f"{st['mean_score']:.1f}",
                        f"{st['stdev_score']:.1f}",
                        f"{st['winner_score']:.1f}",
                        f"{st['margin']:.1f}",
                        f"{100 * st['shared_wins']:.1f}%",
                        f"{100 * max(x['win_rate'] for x in st['seats']):.1f}%",
                    ]
                    for row_label, st in rows
                ),
                f"![by {opt.name}]({name})",
            )
    path = out / "report.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
