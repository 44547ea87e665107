"""Garum's renderer (the game's ``hooks.renderer``): boards drawn from an observation dict, text
for terminals here and SVG for browsers (``ludus.games.garum.svg``); the browser's panels and rules
help; the move log's sentences (``ludus.games.garum.words``).

The boards are pure: they read only the observation (``GarumState.observation``),
so the server and the web client can draw exactly what a seat may see. Every colour
is also written as its letter (B tuna, G mackerel, Y mollusc, R shellfish) so that
the board reads without colour vision.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from .observation_types import GarumObservationLike, WorkerOnLine
from .svg import render_svg
from .words import SPECIES_NAMES, log_detail

__all__ = ["board_options", "log_detail", "panels", "render_svg", "render_text", "rules_help"]


# -- panels and rules help (served to the browser) ------------------------------------------


def board_options(observation: dict[str, Any]) -> dict[str, Any]:
    """The board's drawing options for an observation: the round's cetarium outlined."""
    return {"highlight": observation["cetarium"]} if observation.get("cetarium") else {}


def panels(state: Any, seat: int | None) -> dict[str, Any]:
    """The figures that help a seat decide, from the end scoring itself (``scoring.projection``):
    each worker's line with its fish and what it would score now, each colour's and seat's
    projected total. Public facts only (fish, workers, bonuses), the same for every seat."""
    from .scoring import projection

    return projection(state)


@cache
def rules_help() -> dict[str, Any]:
    """What the browser's rules help and tooltips show: each board's chart and bonus points."""
    from .data import BOARDS, load_board

    boards = {}
    for name in BOARDS:
        board = load_board(name)
        boards[name] = {
            "chart": [list(row) for row in board.chart],
            "species_bonus": board.species_bonus,
            "joker_bonus": board.joker_bonus,
            "rounds": board.rounds,
            "hand_size": board.hand_size,
        }
    return {"species": SPECIES_NAMES, "boards": boards}


# -- text -----------------------------------------------------------------------------------

_ANSI = {
    "B": "\x1b[1;34m",
    "G": "\x1b[1;32m",
    "Y": "\x1b[1;33m",
    "R": "\x1b[1;31m",
    "b": "\x1b[2;34m",
    "g": "\x1b[2;32m",
    "y": "\x1b[2;33m",
    "r": "\x1b[2;31m",
    "*": "\x1b[1;35m",
    "hi": "\x1b[1;36m",
    "dim": "\x1b[2m",
    "bold": "\x1b[1m",
}
_RESET = "\x1b[0m"
_CELL = 3  # characters per fish cell


def _paint(text: str, style: str | None, color: bool) -> str:
    if not color or not style or style not in _ANSI:
        return text
    return f"{_ANSI[style]}{text}{_RESET}"


def _workers_by_line(observation: GarumObservationLike) -> dict[str, WorkerOnLine]:
    return {w["line"]: w for w in observation.get("workers", [])}


class _TextGrid:
    """The cetarium grid as the text board draws it: which cetaria are real, which is this round's."""

    def __init__(self, obs: GarumObservationLike, color: bool) -> None:
        self.grid = grid = obs["grid"]
        self.block = obs["size"] // len(grid)  # fish per cetarium side
        self.half = self.block // 2  # fish per tile side
        self.current = current = obs.get("cetarium")
        self.closed = obs.get("closed") or {}
        self.color = color
        self.cur_pos = next(
            ((r, c) for r, row in enumerate(grid) for c, n in enumerate(row) if n and n == current), None
        )

    def real(self, gr: int, gc: int) -> bool:
        grid = self.grid
        return 0 <= gr < len(grid) and 0 <= gc < len(grid) and grid[gr][gc] != 0

    def is_current(self, gr: int, gc: int) -> bool:
        return self.real(gr, gc) and self.current is not None and self.grid[gr][gc] == self.current

    def label_style(self, axis: str, index: int) -> str | None:
        cur_pos = self.cur_pos
        if cur_pos is None or index // self.block != cur_pos[0 if axis == "h" else 1]:
            return None
        return "dim" if self.closed.get(axis) else "hi"

    def row_sep(self, gr: int, c: int) -> str:
        """The separator before fish column ``c`` (``c == size`` for the right edge)."""
        block = self.block
        gc = c // block
        if c % block == 0:
            return "|" if self.real(gr, gc - 1) or self.real(gr, gc) else " "
        if c % self.half == 0:
            return ":" if self.real(gr, gc) else " "
        return ""

    def border(self, gb: int) -> str:
        """The horizontal border above cetarium row ``gb`` (``gb == len(grid)`` for the bottom)."""
        grid, block, real = self.grid, self.block, self.real
        parts = [_PAD]
        for gc in range(len(grid)):
            above, below = real(gb - 1, gc), real(gb, gc)
            left = real(gb - 1, gc - 1) or real(gb, gc - 1) or above or below
            parts.append("+" if left else " ")
            width = block * _CELL + (block // self.half - 1)
            if not (above or below):
                parts.append(" " * width)
                continue
            hot = self.is_current(gb, gc) or self.is_current(gb - 1, gc)
            dash = "=" if hot else "-"
            if below:
                number = grid[gb][gc]
                tag = f"[{number}]" if hot and self.is_current(gb, gc) else f" {number} "
                seg = tag.center(width, dash)
            else:
                seg = dash * width
            parts.append(_paint(seg, "hi" if hot else None, self.color))
        last = real(gb - 1, len(grid) - 1) or real(gb, len(grid) - 1)
        parts.append("+" if last else " ")
        return "".join(parts).rstrip()


_PAD = " " * 5  # left of the board: the row labels


def _cell_text(ch: str, kind: str | None, color: bool) -> str:
    """One fish cell: a fish, an empty cell (its bonus space if any) or a hole."""
    if ch == " ":
        return " " * _CELL
    if ch != ".":
        return _paint(f" {ch} ", ch, color)
    if kind is None:
        return _paint(" . ", "dim", color)
    if kind == "*":
        return _paint(" * ", "*", color)
    return _paint(f" {kind.lower()} ", kind.lower(), color)


def _fish_row(
    obs: GarumObservationLike,
    g: _TextGrid,
    r: int,
    bonus: dict[tuple[int, ...], str],
    workers: dict[str, WorkerOnLine],
) -> str:
    """Row ``r`` of fish cells with its label, separators and the worker on it."""
    size, block, color = obs["size"], g.block, g.color
    fish = obs["fish"][r]
    gr = r // block
    name = f"h{r + 1}"
    parts = [_paint(f"{name:>4}", g.label_style("h", r), color), " "]
    for c in range(size):
        sep = g.row_sep(gr, c)
        if sep == "|" and (g.is_current(gr, c // block) or g.is_current(gr, c // block - 1)):
            sep = _paint(sep, "hi", color)
        parts.append(sep)
        parts.append(_cell_text(fish[c], bonus.get((r, c)), color))
    sep = g.row_sep(gr, size)
    if sep == "|" and g.is_current(gr, len(g.grid) - 1):
        sep = _paint(sep, "hi", color)
    parts.append(sep)
    worker = workers.get(name)
    if worker:
        parts.append(" " + _paint(worker["colour"] + worker["kind"], worker["colour"], color))
    return "".join(parts).rstrip()


def _board_lines(obs: GarumObservationLike, color: bool) -> list[str]:
    size = obs["size"]
    g = _TextGrid(obs, color)
    bonus = {tuple(b["cell"]): b["kind"] for b in obs.get("bonuses", [])}
    workers = _workers_by_line(obs)

    out: list[str] = []
    header = ["   v "]
    for c in range(size):
        header.append(" " * len(g.row_sep(0, c)))
        label = f"{c + 1:^{_CELL}}"
        lead = len(label) - len(label.lstrip())
        number = label.strip()
        header.append(
            " " * lead + _paint(number, g.label_style("v", c), color) + " " * (_CELL - lead - len(number))
        )
    out.append("".join(header).rstrip())
    for r in range(size):
        if r % g.block == 0:
            out.append(g.border(r // g.block))
        out.append(_fish_row(obs, g, r, bonus, workers))
    out.append(g.border(len(g.grid)))

    footer = [_PAD]
    for c in range(size):
        footer.append(" " * len(g.row_sep(len(g.grid) - 1, c)))
        worker = workers.get(f"v{c + 1}")
        token = (worker["colour"] + worker["kind"]) if worker else ""
        footer.append(_paint(token, worker["colour"] if worker else None, color) + " " * (_CELL - len(token)))
    line = "".join(footer).rstrip()
    if workers and any(w["line"].startswith("v") for w in workers.values()):
        out.append(line)
    return out


def _colour_tag(letter: str, color: bool) -> str:
    return _paint(letter, letter, color)


def _info_lines(obs: GarumObservationLike, color: bool) -> list[str]:
    cfg = obs.get("config", {})
    out = []
    over = obs.get("phase") == "over"
    head = [
        f"Garum - {obs.get('board', '?')}",
        f"{cfg.get('players', '?')} players",
        str(cfg.get("variant", "standard")),
        f"round {obs.get('round')}/{obs.get('rounds')}",
    ]
    if obs.get("cetarium"):
        head.append(f"cetarium {obs['cetarium']}")
    out.append(_paint(" | ".join(head), "bold", color))
    if over:
        out.append("The game is over.")
    else:
        who = obs.get("current_player")
        col = obs.get("current_colour")
        phase = str(obs.get("phase"))
        doing = {
            "place": "places a tile",
            "worker": "may place a worker or pass",
            "ghost": "places the ghost's tile",
            "choose": "chooses the round's cetarium",
        }.get(phase, phase)
        colour_text = f" ({_colour_tag(col, color)} {SPECIES_NAMES.get(col, '')})" if col else ""
        out.append(f"To play: {_seat(who)}{colour_text} {doing}; amphora: {_seat(obs.get('amphora'))}")
        closed = obs.get("closed") or {}
        shut = [name for axis, name in (("h", "rows"), ("v", "columns")) if closed.get(axis)]
        if shut:
            out.append(
                f"No worker may go on this cetarium's {' or '.join(shut)}: the other cetaria "
                "of that area are already full."
            )
    aureus = obs.get("aureus") or {}
    revealed = " ".join(str(n) for n in aureus.get("revealed", []))
    text = f"Aureus: flipped {revealed or '-'} | {aureus.get('remaining', 0)} left"
    order = aureus.get("order")
    if order:
        text += f" | order {' '.join(str(n) for n in order)}"
    out.append(text)
    ghost_tile = obs.get("ghost_tile")
    if ghost_tile:
        out.append(f"Ghost tile: {_fish_text(ghost_tile, color)}")

    line_points: dict[str, int] = {}
    for line in obs.get("lines", []):
        line_points[line["colour"]] = line_points.get(line["colour"], 0) + line["points"]
    out.append("")
    out.append(
        f"  {'colour':<18} {'seat':<5} {'V':>2} {'D':>2}  {'pile':>4}  {'bonus':>5}  {'lines':>5}  hand"
    )
    shown_pools: set[str] = set()
    letters = {c["name"]: c["colour"] for c in obs.get("colours", [])}
    for c in obs.get("colours", []):
        letter = c["colour"]
        seat = "ghost" if c.get("ghost") else _seat(c.get("player")).removeprefix("seat ")
        hand = c.get("hand")
        if c.get("ghost") or (hand is not None and not hand):
            hand_text = "-"
        elif hand is not None:
            hand_text = " ".join(_fish_text(t, color) for t in hand)
        else:
            hand_text = f"({c['hand_size']} hidden)"
        lines = str(line_points[letter]) if letter in line_points else "-"
        name = f"{c['name']} {c['species']}"
        partner = c.get("shares_workers_with")
        if partner is not None and partner in shown_pools:  # one set for two colours: counted once
            workers = f"{'= ' + letters.get(partner, '?'):>5}"
        else:
            workers = f"{c['vilicus']:>2} {c['dominus']:>2}"
        shown_pools.add(c["name"])
        out.append(
            f"  {_colour_tag(letter, color)} {name:<16} {seat:<5} {workers}  "
            f"{c['pile']:>4}  {c['bonus']:>5}  {lines:>5}  {hand_text}"
        )
    out.append("")
    scores = obs.get("scores", [])
    out.append("Scores: " + ", ".join(f"{_seat(s)} {v}" for s, v in enumerate(scores)))
    if over:
        for c in obs.get("colours", []):
            mine = [ln for ln in obs.get("lines", []) if ln["colour"] == c["colour"]]
            if mine:
                out.append(
                    f"Lines of {_colour_tag(c['colour'], color)}: "
                    + ", ".join(
                        f"{ln['line']} {ln['kind']} {ln['specimens']} fish {ln['points']:+d}" for ln in mine
                    )
                )
        winners = obs.get("winners", [])
        out.append("Winner: " + (" and ".join(_seat(s) for s in winners) or "-"))
    out.append(
        _paint(
            "Fish: B tuna, G mackerel, Y mollusc, R shellfish; b g y r = bonus spaces still empty, "
            "* = joker; slots 1 2 / 3 4; workers: colour + V (vilicus) or D (dominus).",
            "dim",
            color,
        )
    )
    return out


def _fish_text(fish: str, color: bool) -> str:
    return "".join(_paint(ch, ch, color) for ch in fish)


def render_text(observation: GarumObservationLike, color: bool = True) -> str:
    """The board and the table of colours, as lines for a terminal (ANSI colours if ``color``)."""
    return "\n".join(_board_lines(observation, color) + [""] + _info_lines(observation, color))


def _seat(s: Any) -> str:
    """A seat as people count it, from 1 (the observation and the notation count from 0)."""
    return f"seat {s + 1}" if isinstance(s, int) else "-"
