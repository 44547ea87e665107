"""The Celtae sections of a balance report: leaders, progress cards, bonus tiles, scoring, solo.

These are the reconstructed component values a designer wants to check against play: does a
leader win more than its share, does its heroic side B pay off, which progress cards score and
whether meeting them wins games, which citadel bonus helps, where points come from (A..K), and
how often a bot beats Solitairix at each difficulty. Facts are read from each game's final
state by ``celtae_facts`` (run inside ``simulate``'s workers); the statistics are plain
functions of the results so that they can be checked by hand.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, cast

from ludus.arena.report import (
    FLAG,
    _interval,
    _plt,
    flag_figure,
    mean_or_none,
    num,
    pct,
    plot_bars,
    save_plot,
    section,
)

from .observe import progress_text
from .scoring import CATEGORIES, leader_holds, meets

if TYPE_CHECKING:
    from .game import CeltaeGame

DIFFICULTIES = ("easy", "normal", "hard")


def celtae_facts(state: Any) -> dict[str, Any]:
    """Per seat: leader, side, whether it holds, score breakdown, bonus tiles and build bonuses taken,
    the progress cards with markers it meets; and each progress card that got markers, with the seats
    that meet it. (Per seat, a text or a list of texts groups seats in ``ludus compare``.)"""
    d = state.data
    marked = [card for card, marks in zip(state.prog_cards, state.prog_marks, strict=True) if marks]
    seats = []
    for s in range(state.n):
        lid = state.leaders[s]
        side = state.leader_side[s]
        built = Counter(
            d.bonus_kinds[state.bonus_at[i]] for i, cit in enumerate(state.citadels) for o in cit if o == s
        )
        seats.append(
            {
                "leader": d.leaders[lid]["name"] if lid >= 0 else None,
                "side": "AB"[side],
                "leader_met": leader_holds(state, s, side),
                "breakdown": state.score_breakdown(s),
                "bonus_tiles": sorted(
                    d.bonus_kinds[state.bonus_at[i]] for i, o in enumerate(state.bonus_owner) if o == s
                ),
                "build_bonuses": dict(built),
                "progress_cards_met": [
                    progress_text(state, card) for card in marked if meets(state, s, card)
                ],
            }
        )
    progress = [
        {
            "card": progress_text(state, card),
            "marks": marks,
            "met": [meets(state, s, card) for s in range(state.n)],
        }
        for card, marks in zip(state.prog_cards, state.prog_marks, strict=True)
        if marks
    ]
    return {"seats": seats, "progress": progress}


def _seat_games(results: Sequence[dict[str, Any]]):
    """(facts of the seat, its return, its score) for every seat of every game."""
    for r in results:
        for s, seat in enumerate(r["facts"]["seats"]):
            yield seat, r["returns"][s], r["scores"][s]


def leader_stats(results: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per leader: seat-games, win rate, mean leader points (K), share flipped to B, A and B success."""
    by: dict[str, list[tuple[dict, float]]] = {}
    for seat, ret, _score in _seat_games(results):
        if seat["leader"] is not None:
            by.setdefault(seat["leader"], []).append((seat, ret))
    out = []
    for name in sorted(by):
        rows = by[name]
        a = [s["leader_met"] for s, _ in rows if s["side"] == "A"]
        b = [s["leader_met"] for s, _ in rows if s["side"] == "B"]
        rate = statistics.fmean(r for _, r in rows)
        out.append(
            {
                "leader": name,
                "games": len(rows),
                "win_rate": rate,
                "ci": _interval(rate, len(rows)),
                "points": statistics.fmean(s["breakdown"]["K"] for s, _ in rows),
                "flipped": len(b) / len(rows),
                "a_success": mean_or_none(a),
                "b_success": mean_or_none(b),
            }
        )
    return out


def progress_stats(results: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per progress card (by requirement) that got markers: how often, how many markers, how often
    some seat met it, the points of a seat that met it, and the win rate of seats that met it or not."""
    by: dict[str, dict[str, list]] = {}
    for r in results:
        for card in r["facts"]["progress"]:
            row = by.setdefault(
                card["card"], {"marks": [], "scored": [], "met_points": [], "met": [], "unmet": []}
            )
            row["marks"].append(card["marks"])
            row["scored"].append(any(card["met"]))
            for s, met in enumerate(card["met"]):
                (row["met"] if met else row["unmet"]).append(r["returns"][s])
                if met:
                    row["met_points"].append(card["marks"])
    out: list[dict[str, Any]] = []
    for name, row in by.items():
        seats = len(row["met"]) + len(row["unmet"])
        out.append(
            {
                "card": name,
                "games": len(row["marks"]),
                "marks": statistics.fmean(row["marks"]),
                "scored": statistics.fmean(row["scored"]),
                "met_rate": len(row["met"]) / seats,
                "points_when_met": mean_or_none(row["met_points"]),
                "win_met": mean_or_none(row["met"]),
                "win_unmet": mean_or_none(row["unmet"]),
            }
        )
    out.sort(key=lambda x: (-x["games"], x["card"]))
    return out


def bonus_stats(results: Sequence[dict[str, Any]], kinds: Sequence[str]) -> list[dict[str, Any]]:
    """Per citadel bonus kind: seats that took its bonus tile (completing a citadel) and seats that
    took it as a build bonus (per disc placed), with their win rate and mean score; and the win
    rate of seats that took no tile of that kind, for contrast."""
    rows = list(_seat_games(results))
    out = []
    for kind in kinds:
        tile = [(ret, score) for seat, ret, score in rows if kind in seat["bonus_tiles"]]
        no_tile = [ret for seat, ret, _ in rows if kind not in seat["bonus_tiles"]]
        built = [
            (ret, score, seat["build_bonuses"].get(kind, 0))
            for seat, ret, score in rows
            if seat["build_bonuses"].get(kind, 0)
        ]
        out.append(
            {
                "kind": kind,
                "tile_seats": len(tile),
                "tiles": sum(seat["bonus_tiles"].count(kind) for seat, _, _ in rows),
                "tile_win": mean_or_none([x[0] for x in tile]),
                "tile_score": mean_or_none([x[1] for x in tile]),
                "no_tile_win": mean_or_none(no_tile),
                "build_seats": len(built),
                "builds": sum(x[2] for x in built),
                "build_per_seat": sum(x[2] for x in built) / len(rows) if rows else 0.0,
                "build_win": mean_or_none([x[0] for x in built]),
                "build_score": mean_or_none([x[1] for x in built]),
            }
        )
    return out


def category_stats(results: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Mean points per scoring category A..K: over all seats, over winning seats and the others."""
    rows = list(_seat_games(results))
    won = [seat for seat, ret, _ in rows if ret > 0]
    lost = [seat for seat, ret, _ in rows if ret == 0]
    return [
        {
            "category": c,
            "mean": statistics.fmean(seat["breakdown"][c] for seat, _, _ in rows),
            "winners": mean_or_none([seat["breakdown"][c] for seat in won]),
            "others": mean_or_none([seat["breakdown"][c] for seat in lost]),
        }
        for c in CATEGORIES
    ]


def solo_stats(scores: Sequence[int], targets: dict[str, int]) -> list[dict[str, Any]]:
    """Win rate of solo scores against each difficulty's target (a win reaches the target)."""
    out = []
    for d in DIFFICULTIES:
        wins = sum(1 for s in scores if s >= targets[d])
        rate = wins / len(scores)
        out.append(
            {
                "difficulty": d,
                "target": targets[d],
                "games": len(scores),
                "wins": wins,
                "win_rate": rate,
                "ci": _interval(rate, len(scores)),
            }
        )
    return out


def plot_solo(scores_by_bot: dict[str, list[int]], targets: dict[str, int], path: Path, title: str) -> None:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 3.5))
    lo = min(min(v) for v in scores_by_bot.values())
    hi = max(max(max(v) for v in scores_by_bot.values()), max(targets.values()))
    ax.hist(
        list(scores_by_bot.values()),
        bins=min(20, max(5, hi - lo + 1)),
        range=(lo, hi + 1),
        label=list(scores_by_bot),
        histtype="step",
        linewidth=1.6,
    )
    for d, style in zip(DIFFICULTIES, (":", "--", "-"), strict=True):
        ax.axvline(targets[d], color="grey", linestyle=style, linewidth=1, label=f"{d} target {targets[d]}")
    ax.set_xlabel("final score")
    ax.set_ylabel("games")
    save_plot(plt, fig, ax, path, title, legend=7)


def celtae_sections(
    config: dict[str, Any],
    results: Sequence[dict[str, Any]],
    out: Path,
    bots: Sequence[str],
    games: int,
    jobs: int,
    seed: int,
    solo_games: int | None = None,
    data: Any = None,
    side_studies: bool = True,
) -> list[str]:
    """Markdown lines (and PNG files in ``out``) of the Celtae sections, from results with facts;
    ``data``: the data files the games were played with (None: the package's); ``side_studies``: also
    play the solo challenge (a balance study plays solo as a configuration of its own)."""
    from ludus.engine import load_game

    tables = cast("CeltaeGame", load_game("celtae", data=data, **config)).data
    kinds = tables.bonus_kinds
    players = config["players"]
    fair = 1 / players if players > 1 else None
    lines: list[str] = []

    leaders = leader_stats(results)
    plot_bars(
        [x["leader"] for x in leaders],
        {
            "win rate": [x["win_rate"] for x in leaders],
            "flipped to B": [x["flipped"] for x in leaders],
            "B success": [x["b_success"] for x in leaders],
        },
        out / "celtae_leaders.png",
        f"celtae: leaders ({games} games)",
        "share",
        ref=fair,
    )
    lines += section(
        "Leaders",
        "Per leader over the seats that played it: win rate, mean leader points (category K), the "
        "share of seats that flipped it to its heroic side B, and how often the kept side's "
        "condition held at the end.",
        (
            "leader",
            "seats",
            "win rate",
            "95% interval",
            "mean points",
            "flipped to B",
            "A success",
            "B success",
        ),
        "lrrrrrrr",
        (
            [
                x["leader"],
                x["games"],
                pct(x["win_rate"]),
                f"±{100 * x['ci']:.1f}",
                f"{x['points']:.2f}",
                pct(x["flipped"]),
                pct(x["a_success"]),
                pct(x["b_success"]),
            ]
            for x in leaders
        ),
        "![leaders](celtae_leaders.png)",
    )

    progress = progress_stats(results)
    if progress:
        plot_bars(
            [x["card"] for x in progress],
            {
                "win rate, met": [x["win_met"] for x in progress],
                "win rate, not met": [x["win_unmet"] for x in progress],
                "scored": [x["scored"] for x in progress],
            },
            out / "celtae_progress.png",
            f"celtae: progress cards with markers ({games} games)",
            "share",
            ref=fair,
        )
    lines += section(
        "Progress cards",
        "Each progress card (by requirement) that got markers: how many times (once per card dealt), "
        "its mean number of markers, how often at least one seat met it, the points a seat that met it scored (its "
        "markers), and the win rate of the seats that met it against those that did not."
        + (" In solo an unmet card with markers costs its markers." if players == 1 else ""),
        (
            "progress card",
            "times",
            "mean markers",
            "scored",
            "seats meeting",
            "points when met",
            "win rate, met",
            "win rate, not met",
        ),
        "lrrrrrrr",
        (
            [
                x["card"],
                x["games"],
                f"{x['marks']:.2f}",
                pct(x["scored"]),
                pct(x["met_rate"]),
                num(x["points_when_met"]),
                pct(x["win_met"]),
                pct(x["win_unmet"]),
            ]
            for x in progress
        ),
        "![progress cards](celtae_progress.png)"
        if progress
        else "No progress card got a marker in these games.",
    )

    bonus = bonus_stats(results, kinds)
    plot_bars(
        [x["kind"] for x in bonus],
        {
            "win rate, took its tile": [x["tile_win"] for x in bonus],
            "win rate, no such tile": [x["no_tile_win"] for x in bonus],
            "win rate, took it as a build bonus": [x["build_win"] for x in bonus],
        },
        out / "celtae_bonus.png",
        f"celtae: citadel bonuses ({games} games)",
        "win rate",
        ref=fair,
    )
    lines += section(
        "Citadel bonuses",
        "Per bonus kind: the seats that took its bonus tile for completing a citadel (1 point each) "
        "and the seats that gained it as a build bonus (once per disc placed on a citadel showing "
        "it), with their win rate and mean final score.",
        (
            "bonus",
            "tiles taken",
            "seats with the tile",
            "win rate",
            "mean score",
            "win rate without",
            "build bonuses per seat",
            "seats building it",
            "win rate",
            "mean score",
        ),
        "lrrrrrrrrr",
        (
            [
                x["kind"],
                x["tiles"],
                x["tile_seats"],
                pct(x["tile_win"]),
                num(x["tile_score"]),
                pct(x["no_tile_win"]),
                f"{x['build_per_seat']:.2f}",
                x["build_seats"],
                pct(x["build_win"]),
                num(x["build_score"]),
            ]
            for x in bonus
        ),
        "![citadel bonuses](celtae_bonus.png)",
    )

    cats = category_stats(results)
    names = (
        "completed citadels",
        "bonus tiles",
        "druid tiles",
        "Roman tiles",
        "garrison majorities",
        "tribe",
        "discs placed",
        "all cubes",
        "strength + cards",
        "progress",
        "leader",
    )
    plot_bars(
        [f"{x['category']} {n}" for x, n in zip(cats, names, strict=True)],
        {
            "all seats": [x["mean"] for x in cats],
            "winners": [x["winners"] for x in cats],
            "others": [x["others"] for x in cats],
        },
        out / "celtae_categories.png",
        f"celtae: mean points per scoring category ({games} games)",
        "points",
    )
    lines += section(
        "Points by scoring category",
        "Mean points per seat in each final-scoring category; winners are seats with a share of the "
        "win" + (" (solo: reached the target)" if players == 1 else "") + ".",
        ("category", "", "all seats", "winners", "others"),
        "llrrr",
        (
            [x["category"], n, f"{x['mean']:.2f}", num(x["winners"]), num(x["others"])]
            for x, n in zip(cats, names, strict=True)
        ),
        "![categories](celtae_categories.png)",
    )

    lines += component_checks(results, tables)
    if side_studies:
        lines += solo_section(bots, solo_games or games, jobs, seed, out, data)
    return lines


def _checked(
    rows: Sequence[tuple[str, str, list[float]]], reference: float
) -> list[tuple[str, str, int, float, float]]:
    """(component, where, seats, win rate, half-width) of each component with seats."""
    out = []
    for name, where, wins in rows:
        if wins:
            rate = statistics.fmean(wins)
            out.append((name, where, len(wins), rate, _interval(rate, len(wins))))
    return out


def component_checks(results: Sequence[dict[str, Any]], d: Any) -> list[str]:
    """Each reconstructed component's win rate with its interval against its reference, the data file and
    key it lives in, and a flagged line for each whose interval leaves the reference out.

    Leaders against the win rate of all seats (the fair share); a progress card against the seats meeting
    any card; a bonus tile against the seats holding any tile: a component that stands out among its kind."""
    seats = list(_seat_games(results))
    if not seats:
        return []
    everyone = statistics.fmean(ret for _, ret, _ in seats)
    names = [leader["name"] for leader in d.leaders]
    leaders = [
        (n, f"leaders.json, `leaders[{i}]`", [ret for seat, ret, _ in seats if seat["leader"] == n])
        for i, n in enumerate(names)
    ]
    texts: dict[str, list[int]] = {}
    tables = cast(Any, SimpleNamespace(data=d))  # progress_text reads only the state's data
    for k in range(len(d.progress_cards)):
        texts.setdefault(progress_text(tables, k), []).append(k)
    met = [(text, ret) for seat, ret, _ in seats for text in seat["progress_cards_met"]]
    cards = [
        (t, "progress.json, " + ", ".join(f"`cards[{k}]`" for k in ks), [r for x, r in met if x == t])
        for t, ks in texts.items()
    ]
    held = [(kind, ret) for seat, ret, _ in seats for kind in set(seat["bonus_tiles"])]
    tiles = [
        (k, f"bonus.json, `kinds[{i}]`", [r for x, r in held if x == k]) for i, k in enumerate(d.bonus_kinds)
    ]
    groups = [
        ("leader", "all seats", everyone, _checked(leaders, everyone)),
        ("progress card", "seats meeting any card", mean_or_none([r for _, r in met]), None),
        ("bonus tile", "seats holding any tile", mean_or_none([r for _, r in held]), None),
    ]
    rows, flags = [], []
    for (kind, against, ref, done), source in zip(groups, (leaders, cards, tiles), strict=True):
        if ref is None:
            continue
        for name, where, n, rate, half in done or _checked(source, ref):
            flag = flag_figure(
                f"**{name}** ({kind}): win rate {100 * rate:.1f}% ± {100 * half:.1f} over {n} seats "
                f"against {100 * ref:.1f}% for {against}; in {where}",
                rate,
                n,
                ref,
            )
            rows.append(
                [
                    f"{name} ({kind})",
                    n,
                    f"{100 * rate:.1f}% ± {100 * half:.1f}",
                    f"{100 * ref:.1f}% ({against})",
                    where,
                    FLAG if flag else "",
                ]
            )
            if flag:
                flags.append(flag)
    return section(
        "Components to check",
        "Each reconstructed component's win rate (seats that played the leader, met the progress card, "
        "held the bonus tile) with its 95 % interval, against the rate of its kind; flagged "
        f"{FLAG} where the interval leaves that rate out, with the data file and key that holds it.",
        ("component", "seats", "win rate", "reference", "data", "flag"),
        "lrrlll",
        rows,
        "\n".join(flags) if flags else "No component stands out beyond its interval.",
    )


def solo_section(
    bots: Sequence[str], games: int, jobs: int, seed: int, out: Path, data: Any = None
) -> list[str]:
    """Each bot plays ``games`` solo games against Solitairix; win rate against every target."""
    from .solo_arena import solo_challenge

    targets: dict[str, int] = {}
    scores: dict[str, list[int]] = {}
    for bot in dict.fromkeys(bots):
        played = solo_challenge(bot, games=games, jobs=jobs, seed=seed, one_run=True, show=False, data=data)
        scores[bot] = [g["score"] for g in played["results"]]
        targets = {d: s["target"] for d, s in played["difficulties"].items()}
    plot_solo(scores, targets, out / "celtae_solo.png", f"celtae solo: final scores ({games} games per bot)")
    rows = []
    for bot, xs in scores.items():
        sd = statistics.stdev(xs) if len(xs) > 1 else 0.0
        for row in solo_stats(xs, targets):
            rows.append(
                [
                    bot,
                    row["difficulty"],
                    row["target"],
                    f"{row['wins']}/{row['games']}",
                    pct(row["win_rate"]),
                    f"±{100 * row['ci']:.1f}",
                    f"{statistics.fmean(xs):.1f}",
                    f"{sd:.1f}",
                    min(xs),
                    max(xs),
                ]
            )
    return section(
        "Solo against Solitairix",
        f"Each bot plays {games} solo games; each game's score is compared with every difficulty's "
        "target (Solitairix plays alike at every difficulty, so this is exact for bots that do not "
        "look at the target).",
        (
            "bot",
            "difficulty",
            "target",
            "wins",
            "win rate",
            "95% interval",
            "mean score",
            "stdev",
            "min",
            "max",
        ),
        "llrrrrrrrr",
        rows,
        "![solo scores](celtae_solo.png)",
    )
