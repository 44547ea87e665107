"""The Garum sections of a balance report: bonus spaces, colours, where points come from.

The reconstructed components a designer wants checked against play: does the seat that covers a bonus
space win more than its share (its place on the board, its kind), does a colour (its species) win more
than its share, and how much of a score is bonuses, vilicus lines and dominus lines. Facts are read
from each game's final state by ``garum_facts`` (run inside ``simulate``'s workers); the statistics
are plain functions of the results so that they can be checked by hand.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from ludus.arena.report import FLAG, _interval, flag_figure, mean_or_none, num, pct, plot_bars, section

from .data import JOKER, LETTERS, Board
from .state import EMPTY

if TYPE_CHECKING:
    from .game import GarumGame
    from .state import GarumState


def space_of(board: Board, cell: int) -> tuple[int, int, int]:
    """A board cell's cetarium and its row and column inside it (0..3), as the board's file names it."""
    r, c = divmod(cell, board.size)
    (gr, row), (gc, col) = divmod(r, 4), divmod(c, 4)
    return board.grid[gr][gc], row, col


def bonus_spaces(state: GarumState) -> list[dict[str, Any]]:
    """Each bonus space of the board: where it is, its kind (a species letter or ``*``), the colour and
    seat that covered it (seat None: the ghost, or nobody yet), whether it scored and its points."""
    game = state.game
    board, owner = game.board, game.seating.owner
    out = []
    for cell, kind in board.bonus_cells.items():
        cetarium, row, col = space_of(board, cell)
        colour = state.slots[cetarium][2 * (row // 2) + col // 2]
        seat = owner[colour] if colour != EMPTY else None
        fish = state.cells[cell]
        own = game.config["species_bonus"] == "any" or kind == colour
        scored = seat is not None and (kind == JOKER or (fish == kind and own))  # the ghost scores nothing
        out.append(
            {
                "cetarium": cetarium,
                "row": row,
                "col": col,
                "kind": "*" if kind == JOKER else LETTERS[kind],
                "colour": LETTERS[colour] if colour != EMPTY else None,
                "seat": seat,
                "scored": scored,
                "points": (board.joker_bonus if kind == JOKER else board.species_bonus) if scored else 0,
            }
        )
    return out


def garum_facts(state: Any) -> dict[str, Any]:
    """Per seat: its colours (letters), score breakdown (bonus points, vilicus and dominus line points,
    their total), the lines its workers hold and how many score negative, the workers placed, and the
    bonus spaces it covered; and every bonus space of the board with who covered it and whether it
    scored. (Per seat, a text groups seats and a number is an amount in ``ludus compare``.)"""
    seating = state.game.seating
    spaces = bonus_spaces(state)
    seats = []
    for s in range(seating.players):
        mine = seating.colours_of(s)
        lines = [row for row in state.final if row[1] in mine]  # [line, colour, kind, specimens, points]
        points = {kind: sum(row[4] for row in lines if row[2] == kind) for kind in "VD"}
        bonus = sum(state.bonus[c] for c in mine)
        placed = [w[1] for w in state.workers if w is not None and w[0] in mine]
        covered = [x for x in spaces if x["seat"] == s]
        seats.append(
            {
                "colours": "".join(LETTERS[c] for c in mine),
                "breakdown": {
                    "bonus": bonus,
                    "vilicus": points["V"],
                    "dominus": points["D"],
                    "total": bonus + points["V"] + points["D"],
                },
                "lines": len(lines),
                "negative_lines": sum(1 for row in lines if row[4] < 0),
                "vilicus_placed": placed.count("V"),
                "dominus_placed": placed.count("D"),
                "bonus_spaces": [{k: x[k] for k in ("cetarium", "kind", "scored")} for x in covered],
                "bonus_spaces_scored": [f"{x['cetarium']} {x['kind']}" for x in covered if x["scored"]],
            }
        )
    return {"seats": seats, "bonus_spaces": spaces}


def space_stats(results: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per bonus space (by cetarium and cell), in the board's order: the games, the share in which it
    scored, and the win rate of the seats that covered it (the ghost's covers left out)."""
    by: dict[tuple[int, int, int], dict[str, Any]] = {}
    for r in results:
        for x in r["facts"]["bonus_spaces"]:
            row = by.setdefault(
                (x["cetarium"], x["row"], x["col"]), {"kind": x["kind"], "scored": [], "wins": []}
            )
            row["scored"].append(x["scored"])
            if x["seat"] is not None:
                row["wins"].append(r["returns"][x["seat"]])
    out = []
    for (cetarium, r0, c0), row in by.items():
        rate = mean_or_none(row["wins"])
        out.append(
            {
                "cetarium": cetarium,
                "cell": (r0, c0),
                "kind": row["kind"],
                "games": len(row["scored"]),
                "scored": statistics.fmean(row["scored"]),
                "seats": len(row["wins"]),
                "win_rate": rate,
                "ci": _interval(rate or 0.0, len(row["wins"])),
            }
        )
    return out


def colour_stats(results: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per colour (species letter) played: the seats that played it and their win rate."""
    wins: dict[str, list[float]] = {letter: [] for letter in LETTERS}
    for r in results:
        for seat, ret in zip(r["facts"]["seats"], r["returns"], strict=True):
            for letter in seat["colours"]:
                wins[letter].append(ret)
    return [
        {"colour": k, "seats": len(v), "win_rate": rate, "ci": _interval(rate, len(v))}
        for k, v in wins.items()
        if v
        for rate in [statistics.fmean(v)]
    ]


def point_stats(results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Mean points per seat from bonuses, vilicus lines and dominus lines (all seats, winners, others),
    and the lines workers held: how many, and the share that scored negative."""
    rows = [(seat, ret) for r in results for seat, ret in zip(r["facts"]["seats"], r["returns"], strict=True)]
    groups = {
        "all": [s for s, _ in rows],
        "winners": [s for s, ret in rows if ret > 0],
        "others": [s for s, ret in rows if ret == 0],
    }
    sources = {
        key: {g: mean_or_none([s["breakdown"][key] for s in seats]) for g, seats in groups.items()}
        for key in ("bonus", "vilicus", "dominus", "total")
    }
    lines = sum(s["lines"] for s, _ in rows)
    negative = sum(s["negative_lines"] for s, _ in rows)
    return {"sources": sources, "lines": lines, "negative": negative, "seats": len(rows)}


def space_name(cetarium: int, kind: str) -> str:
    """A bonus space as the report names it: its cetarium and kind (a species letter, or joker)."""
    return f"cetarium {cetarium} {'joker' if kind == '*' else kind}"


def _flag(name: str, kind: str, rate: float, half: float, n: int, fair: float, where: str) -> str | None:
    """A component's win rate tested against the fair share: its flag line, or None (``flag_figure``)."""
    return flag_figure(
        f"**{name}** ({kind}): win rate {100 * rate:.1f}% ± {100 * half:.1f} over {n} seats "
        f"against {100 * fair:.1f}% for the fair share; in {where}",
        rate,
        n,
        fair,
    )


def _below(image: str, flags: list[str]) -> str:
    """What stands below a table: its plot, then its flagged lines (gathered at the top of a balance page)."""
    return "\n".join([image, "", *flags]) if flags else image


def garum_sections(
    config: dict[str, Any],
    results: Sequence[dict[str, Any]],
    out: Path,
    bots: Sequence[str],
    games: int,
    jobs: int,
    seed: int,
    data: Any = None,
    side_studies: bool = True,
) -> list[str]:
    """Markdown lines (and PNG files in ``out``) of the Garum sections, from results with facts;
    ``data``: the data files the games were played with (None: the package's). Garum has no side
    study: ``bots``, ``jobs``, ``seed`` and ``side_studies`` are the hook's common signature."""
    from ludus.engine import load_game

    game = cast("GarumGame", load_game("garum", data=data, **config))
    files = game.data_files
    assert files is not None  # Garum's components are data files
    board_file = f"{config['board']}.json"
    keys = {(b["cetarium"], b["row"], b["col"]): i for i, b in enumerate(files.values(board_file)["bonuses"])}
    fair = 1 / config["players"]
    lines: list[str] = []

    spaces = space_stats(results)
    rows, flags = [], []
    for x in spaces:
        name = space_name(x["cetarium"], x["kind"])
        key = keys.get((x["cetarium"], *x["cell"]))  # None: not in the file the report reads
        where = f"{board_file}, `bonuses[{key}]`" if key is not None else board_file
        flag = None
        if x["win_rate"] is not None:
            flag = _flag(name, "bonus space", x["win_rate"], x["ci"], x["seats"], fair, where)
        rows.append(
            [
                name,
                "row {}, col {}".format(*x["cell"]),
                x["games"],
                pct(x["scored"]),
                x["seats"],
                pct(x["win_rate"]) + ("" if x["win_rate"] is None else f" ± {100 * x['ci']:.1f}"),
                where,
                FLAG if flag else "",
            ]
        )
        if flag:
            flags.append(flag)
    plot_bars(
        [f"{x['cetarium']} {x['kind']}" for x in spaces],
        {
            "win rate of the seat covering it": [x["win_rate"] for x in spaces],
            "scored": [x["scored"] for x in spaces],
        },
        out / "garum_bonus_spaces.png",
        f"garum: bonus spaces ({games} games)",
        "share",
        ref=fair,
    )
    lines += section(
        "Bonus spaces",
        f"Each bonus space of the board (its cetarium and kind: a species, +{game.board.species_bonus} to a "
        f"fish of it, or a joker, +{game.board.joker_bonus} to any fish): how often it scored, and the "
        "win rate of the seat that covered it (the ghost's covers left out) with its 95 % interval; flagged "
        f"{FLAG} where the interval leaves out the fair share, with the data file and key that hold it.",
        ("bonus space", "cell", "games", "scored", "seats", "win rate", "data", "flag"),
        "llrrrrll",
        rows,
        _below("![bonus spaces](garum_bonus_spaces.png)", flags),
    )

    colours = colour_stats(results)
    rows, flags = [], []
    species = game.tiles.species
    for x in colours:
        i = LETTERS.index(x["colour"])
        name = f"{x['colour']} ({species[i].colour}, {species[i].name})"
        where = f"tiles.json, `species[{i}]`"
        flag = _flag(name, "colour", x["win_rate"], x["ci"], x["seats"], fair, where)
        rows.append(
            [name, x["seats"], f"{pct(x['win_rate'])} ± {100 * x['ci']:.1f}", where, FLAG if flag else ""]
        )
        if flag:
            flags.append(flag)
    plot_bars(
        [x["colour"] for x in colours],
        {"win rate": [x["win_rate"] for x in colours]},
        out / "garum_colours.png",
        f"garum: win rate by colour ({games} games)",
        "win rate",
        ref=fair,
    )
    lines += section(
        "Colours",
        "The win rate of the seats playing each colour (its species; with 2 players a seat plays two) "
        f"with its 95 % interval; flagged {FLAG} where the interval leaves out the fair share.",
        ("colour", "seats", "win rate", "data", "flag"),
        "lrrll",
        rows,
        _below("![colours](garum_colours.png)", flags),
    )

    points = point_stats(results)
    names = {
        "bonus": ("bonus spaces", f"{board_file}, `bonus_points`"),
        "vilicus": ("vilicus lines", f"{board_file}, `chart`"),
        "dominus": ("dominus lines", f"{board_file}, `chart`"),
        "total": ("total", ""),
    }
    src = points["sources"]
    plot_bars(
        [names[k][0] for k in ("bonus", "vilicus", "dominus")],
        {g: [src[k][g] for k in ("bonus", "vilicus", "dominus")] for g in ("all", "winners", "others")},
        out / "garum_points.png",
        f"garum: mean points per seat by source ({games} games)",
        "points",
    )
    share = points["negative"] / points["lines"] if points["lines"] else None
    lines += section(
        "Where points come from",
        "Mean points per seat from the bonus spaces it scored and the lines its vilicus and dominus held "
        "(a line short of the chart's first scoring count costs points); winners are seats with a share "
        "of the win.",
        ("source", "all seats", "winners", "others", "data"),
        "lrrrl",
        ([names[k][0], *(num(src[k][g]) for g in ("all", "winners", "others")), names[k][1]] for k in names),
        f"Workers held {points['lines'] / max(1, points['seats']):.2f} lines a seat; {pct(share)} of them "
        f"scored negative ({points['negative']} of {points['lines']}).\n\n![points](garum_points.png)",
    )
    return lines
