"""The balance page: a balance study's games (``balance``) written as one Markdown page with its plots.

For every game: the games played per configuration (against the target), the win rate by place in turn
order in every configuration, the score and length figures, the boards / variants / difficulties
compared on the same deals (paired, ``compare_stats``), the game's own sections (its ``report_sections``
hook: components with their intervals and flags), and the seat and group tables repeated with the search
bot, with a sentence wherever the two bots disagree saying which to believe and why. Every figure has
its 95 % interval; a figure whose interval leaves out its fair share is flagged (``FLAG``), and every
flag is gathered at the top for the owners of the printed game: those that hold when every figure
tested is counted (Benjamini-Hochberg), then the rest, each list furthest from fair first.
"""

from __future__ import annotations

import inspect
import math
import re
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..engine.hooks import hook
from ..engine.registry import game_class
from .balance import Study, config_label, finished, slug, with_facts, with_first
from .compare import plot_differences
from .compare_stats import Table, deal_figures, figure_row
from .report import COMPARED, FLAG, Tally, _interval, _plt, flag_figure, save_plot, section, tallying

IMAGES = Path("images") / "balance"


def mean_ci(xs: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % normal interval."""
    m = statistics.fmean(xs)
    return m, (1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.inf)


def pct(rate: float, half: float) -> str:
    """A rate with its interval, in percent."""
    return f"{100 * rate:.1f}% ± {100 * half:.1f}"


def places(records: Sequence[dict[str, Any]]) -> list[tuple[float, float]]:
    """Win rate (a shared win counts 1/k) and its half-width at each place in turn order (index 0: first to move)."""
    players = len(records[0]["returns"])
    out = []
    for p in range(players):
        rate = statistics.fmean(r["returns"][(r["first"] + p) % players] for r in records)
        out.append((rate, _interval(rate, len(records))))
    return out


def plot_intervals(
    labels: Sequence[str],
    series: dict[str, Sequence[tuple[float, float] | None]],
    path: Path,
    title: str,
    xlabel: str,
    refs: Sequence[float | None] = (),
) -> None:
    """Each label's value per series as a point with its 95 % interval; ``refs``: a fair share per label."""
    plt = _plt()
    k = len(series)
    fig, ax = plt.subplots(figsize=(7, 0.28 * k * len(labels) + 1.8))
    for j, (name, values) in enumerate(series.items()):
        ys = [i - 0.3 + 0.6 * (j + 0.5) / k for i in range(len(labels))]
        pts = [(y, v) for y, v in zip(ys, values, strict=True) if v is not None and math.isfinite(v[1])]
        ax.errorbar(
            [v[0] for _, v in pts],
            [y for y, _ in pts],
            xerr=[v[1] for _, v in pts],
            fmt="o",
            capsize=3,
            label=name,
        )
    marks = [(i, r) for i, r in enumerate(refs) if r is not None]
    if marks:
        ax.scatter(
            [r for _, r in marks], [i for i, _ in marks], marker="|", s=300, color="grey", label="fair share"
        )
    ax.set_yticks(range(len(labels)), labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    save_plot(plt, fig, ax, path, title, legend=7)


def relinked(lines: Sequence[str], folder: str, depth: int = 2) -> list[str]:
    """A section's lines moved into the page: headings ``depth`` levels lower, its images under ``folder``."""
    out = []
    for line in lines:
        if line.startswith("#"):
            line = "#" * depth + line
        out.append(re.sub(r"(!\[[^\]]*\]\()(?![a-z]+:|/)([^)]+\))", rf"\g<1>{folder}/\g<2>", line))
    return out


def demote(lines: Sequence[str], depth: int = 1) -> list[str]:
    """Lines with their headings ``depth`` levels lower (a report's sections under a game's heading)."""
    return ["#" * depth + line if line.startswith("#") else line for line in lines]


FALSE_DISCOVERIES = 0.05
"""The false discovery rate at which the flags at the top of the page are sorted (``holding``)."""


class Page:
    """The page being written: its lines, its image folder, and the flags gathered for the top (each as
    shown there, with the line its numbers are kept under in ``tally``)."""

    def __init__(self, out: Path, tally: Tally) -> None:
        self.out = out
        self.tally = tally
        self.lines: list[str] = []
        self.flags: list[tuple[str, str]] = []

    def image(self, game: str, name: str) -> tuple[Path, str]:
        """Where a plot is written and how the page links it."""
        folder = self.out / IMAGES / game
        folder.mkdir(parents=True, exist_ok=True)
        return folder / name, f"{IMAGES.as_posix()}/{game}/{name}"

    def add(self, lines: Sequence[str], where: str = "") -> None:
        lines = [part for line in lines for part in line.split("\n")]
        self.lines += lines
        self.flags += [
            (f"{line} ({where})" if where else line, line) for line in lines if line.startswith(f"- {FLAG}")
        ]

    def top(self, rate: float = FALSE_DISCOVERIES) -> tuple[list[str], list[str]]:
        """The flags that hold over every figure tested (Benjamini-Hochberg at ``rate``) and the rest,
        each list furthest from fair first (equal departures keep the page's order)."""
        # (p-value, departure) of each; a line a section wrote without ``flag_figure``: not held, last
        numbers = [self.tally.flags.get(key, (1.0, 0.0)) for _, key in self.flags]
        held = holding([p for p, _ in numbers], self.tally.tested, rate)
        order = sorted(range(len(self.flags)), key=lambda i: -numbers[i][1])
        return (
            [self.flags[i][0] for i in order if held[i]],
            [self.flags[i][0] for i in order if not held[i]],
        )


def holding(p_values: Sequence[float], tested: int, rate: float = FALSE_DISCOVERIES) -> list[bool]:
    """Which of ``p_values`` (those of the flagged figures, among ``tested`` figures in all) the
    Benjamini-Hochberg procedure keeps at false discovery ``rate``: the k smallest, for the largest k
    whose k-th smallest is at most k * rate / tested. The figures not flagged need not be given: their
    p-values are above 0.05, so none of them could be kept."""
    order = sorted(range(len(p_values)), key=p_values.__getitem__)
    kept = 0
    for k, i in enumerate(order, 1):
        if p_values[i] <= k * rate / max(tested, 1):
            kept = k
    held = [False] * len(p_values)
    for i in order[:kept]:
        held[i] = True
    return held


def write_page(studies: Sequence[Study], out: Path, command: str) -> Path:
    """``balance.md`` in ``out`` (plots under ``out/images/balance``) from the games the studies' journals
    hold; returns its path."""
    with tallying() as tally:
        page = Page(out, tally)
        for study in studies:
            _game(page, study)
    held, rest = page.top()
    bots = ", ".join(dict.fromkeys(s.bot for s in studies))
    head = [
        "# Balance",
        "",
        "Made by:",
        "",
        '<!-- skip: next "the whole study: hours of play on every configuration" -->',
        f"```sh\n{command}\n```",
        "",
        "Bots play every configuration the games allow: every player count and every choice of board, "
        "variant and difficulty. Every figure is given with its 95 % interval (±), and a figure whose "
        f"interval leaves out its fair share is flagged {FLAG} (by the Wilson interval, which stays honest near 0 % "
        "and 100 % and over few games). Among many figures about one in twenty "
        "is flagged by chance alone: a flag asks for a look, it is not a verdict. The games are kept "
        "under the results folder of the command, which resumes from them when run again.",
        "",
        "## Flagged for the owners of the printed game",
        "",
        f"From the games between equal bots ({bots}; the counts in each line). The page holds {tally.tested} "
        f"figures tested against their fair share, and {len(held) + len(rest)} of them are flagged. At 1 in 20, "
        "chance alone would flag some of them. The flags are sorted into two lists:",
        "",
        f"- **Unlikely to be chance**: the flags that still hold when every figure is counted "
        f"(the Benjamini-Hochberg procedure, with a false discovery rate of {100 * FALSE_DISCOVERIES:.0f} %). "
        "Perhaps 1 in 20 of these is chance.",
        "- **May be chance**: flagged by their own interval only.",
        "",
        "In each list, the figure furthest from its fair share comes first, so that the top is where a "
        "change is likeliest to matter. What a stronger player makes of each is under 'Checked by the "
        "search bot' and 'Which to believe' in each game's part.",
        "",
        f"### Unlikely to be chance ({len(held)})",
        "",
        *(held or ["None."]),
        "",
        f"### May be chance ({len(rest)})",
        "",
        *(rest or ["None."]),
        "",
    ]
    path = out / "balance.md"
    path.write_text("\n".join(head + page.lines) + "\n", encoding="utf-8")
    return path


def _game(page: Page, study: Study) -> None:
    game = study.game
    title = game_class(game).display_title()
    runs = {
        bot: {config_label(c): finished(study, bot, target, c) for c in configs}
        for bot, target, configs in study.runs()
    }
    records = {
        bot: {k: with_first(game, with_facts(game, v, study.data), study.data) for k, v in by.items() if v}
        for bot, by in runs.items()
    }
    greedy = records[study.bot]
    page.add([f"## {title}", ""])
    if study.data is not None and study.data.tag is not None:
        page.add(
            [f"Data: {study.data.tag}, the files of `{study.data.folder}` in place of the package's.", ""]
        )
    page.add(demote(_counts(study, runs)))
    if not greedy:
        page.add(["No game finished yet.", ""])
        return
    page.add(demote(_seats(page, game, study.bot, greedy)), title)
    page.add(demote(_scores(greedy)))
    page.add(demote(_paired(page, study, greedy)), title)
    _own_sections(page, study, greedy)
    search = (
        records.get(study.search_bot) if study.search_games > 0 and study.search_bot != study.bot else None
    )
    if search is not None:
        from .balance_bots import against

        page.add(against(page, study, greedy, search))


def _counts(study: Study, runs: dict[str, dict[str, list[dict[str, Any]]]]) -> list[str]:
    bots = list(runs)
    targets = {bot: target for bot, target, _ in study.runs()}
    rows = [
        [f"`{label}`", *(f"{len(runs[b][label])} of {targets[b]}" if label in runs[b] else "–" for b in bots)]
        for label in runs[study.bot]
    ]
    short = [b for b in bots if any(len(v) < targets[b] for v in runs[b].values())]
    goals = " and ".join(f"{n} for {b}" for b, n in targets.items())
    note = f"The target, in games a configuration: {goals}. " + (
        f"Not reached everywhere yet by {' and '.join(short)}: the counts are the games finished, and the same "
        "command plays the rest."
        if short
        else "Every configuration reached it."
    )
    return section(
        "Games played",
        f"Games between equal bots (the same bot in every seat), master seed {study.seed}. {note}",
        ("configuration", *bots),
        "l" + "r" * len(bots),
        rows,
        "",
    )


def seat_rows(by_config: dict[str, list[dict[str, Any]]]) -> tuple[list[list[str]], list[str], int]:
    """Rows of win rate by place in turn order per configuration, the flags, and the most places.

    With two players the second place's rate is one less the first's: one figure, tested once (its
    cell is marked with the first's)."""
    most = max(len(r[0]["returns"]) for r in by_config.values())
    rows, flags = [], []
    for label, recs in by_config.items():
        players = len(recs[0]["returns"])
        cells = []
        flag = None  # solo: no fair share; two players: the second place keeps the first's flag
        for p, (rate, half) in enumerate(places(recs)):
            if players > 2 or (players == 2 and p == 0):
                flag = flag_figure(
                    f"place {p + 1} in turn order, `{label}`: wins {pct(rate, half)} of {len(recs)} games "
                    f"against a fair share of {100 / players:.1f}%",
                    rate,
                    len(recs),
                    1 / players,
                )
                if flag:
                    flags.append(flag)
            cells.append(pct(rate, half) + (f" {FLAG}" if flag else ""))
        rows.append([f"`{label}`", str(len(recs)), *cells, *[""] * (most - players)])
    return rows, flags, most


def _seats(page: Page, game: str, bot: str, by_config: dict[str, list[dict[str, Any]]]) -> list[str]:
    rows, flags, most = seat_rows(by_config)
    path, link = page.image(game, f"seats_{slug(bot)}.png")
    labels = list(by_config)
    firsts = [places(by_config[k])[0] for k in labels]
    players = [len(by_config[k][0]["returns"]) for k in labels]
    plot_intervals(
        labels,
        {"first to move": firsts},
        path,
        f"{game}, {bot}: win rate of the first to move (95 % intervals)",
        "win rate (solo: target reached)",
        [1 / n if n > 1 else None for n in players],
    )
    return section(
        f"Seat advantage ({bot})",
        "Win rate by place in turn order (place 1 takes the deal's first decision; a shared win counts 1/k), "
        "with its 95 % interval; the fair share is one over the players. Solo: how often the target is reached.",
        ("configuration", "games", *(f"place {p + 1}" for p in range(most))),
        "lr" + "r" * most,
        rows,
        f"![win rate of the first to move]({link})",
    ) + [*flags, ""]


def _scores(by_config: dict[str, list[dict[str, Any]]]) -> list[str]:
    rows = []
    for label, recs in by_config.items():
        mean = mean_ci([statistics.fmean(r["scores"]) for r in recs])
        winner = mean_ci([max(r["scores"]) for r in recs])
        margin = mean_ci([_margin(r["scores"]) for r in recs])
        shared = statistics.fmean(1.0 if len(r["winners"]) > 1 else 0.0 for r in recs)
        length = mean_ci([r["actions"] if isinstance(r["actions"], int) else len(r["actions"]) for r in recs])
        rows.append(
            [
                f"`{label}`",
                *(f"{m:.1f} ± {h:.1f}" for m, h in (mean, winner, margin)),
                pct(shared, _interval(shared, len(recs))),
                f"{length[0]:.0f} ± {length[1]:.1f}",
            ]
        )
    return section(
        "Scores and length",
        "Means over the games with their 95 % intervals: a seat's score, the winner's, the winner's margin "
        "over the runner-up (solo: the score), how often the win is shared, and the decisions a game takes.",
        ("configuration", "mean score", "winner's score", "margin", "shared wins", "decisions"),
        "lrrrrr",
        rows,
        "",
    )


def _margin(scores: Sequence[float]) -> float:
    ranked = sorted(scores, reverse=True)
    return ranked[0] - ranked[1] if len(ranked) > 1 else ranked[0]


_FIGURES = (
    (("score", "all seats"), "mean score"),
    (("place", "place 1"), "first to move wins"),
    (("length", "decisions"), "decisions"),
)


def _paired(page: Page, study: Study, by_config: dict[str, list[dict[str, Any]]]) -> list[str]:
    """Each compared option's other choices against its default, on the same deals (same seeds and seats),
    the other options held: a table and a plot per option and player count."""
    lines: list[str] = []
    configs = {config_label(c): c for c in study.configs if config_label(c) in by_config}
    for opt in game_class(study.game).options:
        values = {c[opt.name] for c in configs.values() if opt.name in c}
        if opt.name not in COMPARED or len(values) < 2:
            continue
        groups: dict[str, dict[Any, str]] = {}
        for label, c in configs.items():
            rest = config_label({k: v for k, v in c.items() if k != opt.name})
            groups.setdefault(rest, {})[c[opt.name]] = label
        base = opt.default
        for players in sorted({c.get("players", 0) for c in configs.values()}):
            rows = []
            for rest, choices in groups.items():
                if configs[next(iter(choices.values()))].get("players", 0) != players or len(choices) < 2:
                    continue
                a_value = base if base in choices else next(iter(choices))
                a = {r["index"]: r for r in by_config[choices[a_value]]}
                for value, label in choices.items():
                    if value == a_value:
                        continue
                    b = {r["index"]: r for r in by_config[label]}
                    pairs = [(a[i], b[i]) for i in sorted(set(a) & set(b))]
                    if len(pairs) < 2:
                        continue
                    per_deal = deal_figures(pairs)
                    for key, what in _FIGURES:
                        if key[0] == "place" and players < 2:
                            what = "target reached"
                        name = f"{opt.name}={value} vs {a_value}, {rest}: {what}"
                        row = figure_row(per_deal, key, name, f"{what} ({opt.name}={value})")
                        if row is not None:
                            rows.append((row, len(pairs)))
            if not rows:
                continue
            table = Table(
                f"{opt.name}_{players}", f"By {opt.name}, {players} players", opt.doc, [r for r, _ in rows]
            )
            path, link = page.image(study.game, f"paired_{opt.name}_{players}p.png")
            plot_differences(table, path, f"{study.game}: {table.title}, B − A on the same deals")
            lines += section(
                f"By {opt.name}, on the same deals ({players} player{'s' if players != 1 else ''})",
                f"Each other {opt.name} (B) against the default one (A, named after vs) on the same deals "
                "(same seeds, seats and bots), the other options held: B − A with its 95 % paired interval. "
                + (opt.doc or ""),
                ("figure", "deals", "A", "B", "B − A", "verdict"),
                "lrrrrl",
                ([r.label, n, r.shown(r.a), r.shown(r.b), r.interval(), r.verdict()] for r, n in rows),
                f"![{table.title}]({link})",
            )
    return lines


def _own_sections(page: Page, study: Study, by_config: dict[str, list[dict[str, Any]]]) -> None:
    """The game's own sections (``report_sections``) for each configuration, headings under it."""
    sections = hook(study.game, "report_sections")
    if sections is None:
        return
    given: dict[str, Any] = {}
    if study.data is not None and study.data.tag is not None:
        given["data"] = study.data
    if "side_studies" in inspect.signature(sections).parameters:
        given["side_studies"] = False  # each configuration is played here: no study of its own
    for config in study.configs:
        label = config_label(config)
        recs = by_config.get(label)
        if not recs:
            continue
        name = slug(label)
        path, link = page.image(study.game, name)
        path.mkdir(parents=True, exist_ok=True)
        lines = sections(config, recs, path, [study.bot], len(recs), 1, study.seed, **given)
        page.add(
            [f"### `{label}` ({len(recs)} games, {study.bot})", "", *relinked(lines, link)], f"`{label}`"
        )
