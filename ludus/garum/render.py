"""Garum boards drawn from an observation dict: text for terminals, SVG for browsers.

Both functions are pure: they read only the observation (``GarumState.observation``),
so the server and the web client can draw exactly what a seat may see. Every colour
is also written as its letter (B tuna, G mackerel, Y mollusc, R shellfish) so that
the board reads without colour vision.
"""

from __future__ import annotations

from functools import cache
from html import escape as _html_escape
from typing import Any, NamedTuple
from xml.sax.saxutils import escape

from .observation_types import GarumObservationLike, WorkerOnLine

SPECIES_NAMES = {"B": "tuna", "G": "mackerel", "Y": "mollusc", "R": "shellfish"}
COLOUR_NAMES = {"B": "blue", "G": "green", "Y": "yellow", "R": "red"}


@cache
def _bonus_points(board: str) -> tuple[int, int]:
    """(species bonus, joker bonus) of a board by its name; the rulebook's 2 and 1 for an unknown one."""
    from .data import BOARDS, load_board

    if board not in BOARDS:
        return 2, 1
    b = load_board(board)
    return b.species_bonus, b.joker_bonus


def _bonus_tip(obs: GarumObservationLike, kind: str) -> str:
    species, joker = _bonus_points(str(obs.get("board")))
    if kind == "*":
        return f"Joker bonus space: any fish placed on it scores {joker} point{'s' * (joker != 1)} for its placer"
    who = (f"for the {COLOUR_NAMES.get(kind, kind)} colour only" if (obs.get("config") or {}).get("species_bonus") == "own"
           else "for whoever places it")
    return f"Bonus space: a {SPECIES_NAMES.get(kind, kind)} ({kind}) placed on it scores {species} points {who}"


def _placers(obs: GarumObservationLike) -> dict[tuple[int, int], dict[str, Any]]:
    """Which placement put the fish in each cell: (row, column) -> the ``placed`` entry."""
    grid = obs["grid"]
    block = obs["size"] // len(grid)
    half = block // 2
    where = {n: (r, c) for r, row in enumerate(grid) for c, n in enumerate(row) if n}
    out = {}
    for number, entry in enumerate(obs.get("placed", []), start=1):
        if entry.get("cetarium") not in where:
            continue
        gr, gc = where[entry["cetarium"]]
        slot = int(entry["slot"]) - 1
        r0, c0 = gr * block + half * (slot // 2), gc * block + half * (slot % 2)
        for dr in range(half):
            for dc in range(half):
                out[r0 + dr, c0 + dc] = {**entry, "number": number}
    return out

# -- panels and rules help (served to the browser) ------------------------------------------

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
        boards[name] = {"chart": [list(row) for row in board.chart], "species_bonus": board.species_bonus,
                        "joker_bonus": board.joker_bonus, "rounds": board.rounds, "hand_size": board.hand_size}
    return {"species": SPECIES_NAMES, "boards": boards}


# -- text -----------------------------------------------------------------------------------

_ANSI = {
    "B": "\x1b[1;34m", "G": "\x1b[1;32m", "Y": "\x1b[1;33m", "R": "\x1b[1;31m",
    "b": "\x1b[2;34m", "g": "\x1b[2;32m", "y": "\x1b[2;33m", "r": "\x1b[2;31m",
    "*": "\x1b[1;35m", "hi": "\x1b[1;36m", "dim": "\x1b[2m", "bold": "\x1b[1m",
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
        self.cur_pos = next(((r, c) for r, row in enumerate(grid) for c, n in enumerate(row) if n and n == current),
                            None)

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


def _fish_row(obs: GarumObservationLike, g: _TextGrid, r: int, bonus: dict[tuple[int, ...], str],
              workers: dict[str, WorkerOnLine]) -> str:
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
        header.append(" " * lead + _paint(number, g.label_style("v", c), color) + " " * (_CELL - lead - len(number)))
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
        doing = {"place": "places a tile", "worker": "may place a worker or pass",
                 "ghost": "places the ghost's tile", "choose": "chooses the round's cetarium"}.get(phase, phase)
        colour_text = f" ({_colour_tag(col, color)} {SPECIES_NAMES.get(col, '')})" if col else ""
        out.append(f"To play: seat {who}{colour_text} {doing}; amphora: seat {obs.get('amphora')}")
        closed = obs.get("closed") or {}
        shut = [name for axis, name in (("h", "rows"), ("v", "columns")) if closed.get(axis)]
        if shut:
            out.append(f"No worker may go on this cetarium's {' or '.join(shut)}: the other cetaria "
                       "of that area are already full.")
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
    out.append(f"  {'colour':<18} {'seat':<5} {'V':>2} {'D':>2}  {'pile':>4}  {'bonus':>5}  {'lines':>5}  hand")
    shown_pools: set[str] = set()
    letters = {c["name"]: c["colour"] for c in obs.get("colours", [])}
    for c in obs.get("colours", []):
        letter = c["colour"]
        seat = "ghost" if c.get("ghost") else str(c.get("player"))
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
    out.append("Scores: " + ", ".join(f"seat {s} {v}" for s, v in enumerate(scores)))
    if over:
        for c in obs.get("colours", []):
            mine = [ln for ln in obs.get("lines", []) if ln["colour"] == c["colour"]]
            if mine:
                out.append(f"Lines of {_colour_tag(c['colour'], color)}: " + ", ".join(
                    f"{ln['line']} {ln['kind']} {ln['specimens']} fish {ln['points']:+d}" for ln in mine))
        winners = obs.get("winners", [])
        out.append("Winner: " + (" and ".join(f"seat {s}" for s in winners) or "-"))
    out.append(_paint("Fish: B tuna, G mackerel, Y mollusc, R shellfish; b g y r = bonus spaces still empty, "
                      "* = joker; slots 1 2 / 3 4; workers: colour + V (vilicus) or D (dominus).", "dim", color))
    return out


def _fish_text(fish: str, color: bool) -> str:
    return "".join(_paint(ch, ch, color) for ch in fish)


def render_text(observation: GarumObservationLike, color: bool = True) -> str:
    """The board and the table of colours, as lines for a terminal (ANSI colours if ``color``)."""
    return "\n".join(_board_lines(observation, color) + [""] + _info_lines(observation, color))


# -- SVG ------------------------------------------------------------------------------------

FILL = {"B": "#2b5fb8", "G": "#2e8b3e", "Y": "#e3b51c", "R": "#c8372d"}
INK = {"B": "#ffffff", "G": "#ffffff", "Y": "#1d1d1d", "R": "#ffffff"}
_U = 10  # SVG units per fish cell


def _a(value: Any) -> str:
    """An SVG attribute value: quotes escaped too, so no value can end its attribute early."""
    return _html_escape(str(value), quote=True)


def _n(x: float) -> str:
    """Numbers written the same way every time (so the output is byte-for-byte stable)."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _star(cx: float, cy: float, outer: float, inner: float) -> str:
    import math

    pts = []
    for i in range(10):
        r = outer if i % 2 == 0 else inner
        a = -math.pi / 2 + i * math.pi / 5
        pts.append(f"{_n(cx + r * math.cos(a))},{_n(cy + r * math.sin(a))}")
    return " ".join(pts)


def _fish_tip(letter: str, placed: dict[str, Any] | None, bonus: str | None) -> str:
    text = f"{SPECIES_NAMES.get(letter, letter)} ({letter})"
    if placed:
        who = COLOUR_NAMES.get(placed["colour"], placed["colour"])
        text += f", placed by {who} in cetarium {placed['cetarium']} (tile {placed['fish']}, placement {placed['number']})"
    if bonus:
        text += f"; it covers a {'joker' if bonus == '*' else SPECIES_NAMES.get(bonus, bonus)} bonus space"
    return text


def _worker_tip(worker: WorkerOnLine) -> str:
    colour, line = worker["colour"], worker["line"]
    who = "dominus (scores double)" if worker["kind"] == "D" else "vilicus"
    where = f"{'row' if line.startswith('h') else 'column'} {line}"
    return (f"{COLOUR_NAMES.get(colour, colour)} {who} on {where}: at the end it scores the "
            f"{SPECIES_NAMES.get(colour, colour)} ({colour}) on this line by the chart")


def _worker_svg(worker: WorkerOnLine, cx: float, cy: float) -> str:
    colour, kind = worker["colour"], worker["kind"]
    r = 4.6 if kind == "D" else 3.6
    ring = ' stroke="#1d1d1d" stroke-width="1.4"' if kind == "D" else ' stroke="#1d1d1d" stroke-width="0.5"'
    return (
        f'<g class="worker" data-line="{_a(worker["line"])}" data-colour="{_a(colour)}" data-kind="{_a(kind)}" '
        f'data-tip="{_a(_worker_tip(worker))}">'
        f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r)}" fill="{_a(FILL.get(colour, "#888"))}"{ring}/>'
        f'<text x="{_n(cx)}" y="{_n(cy + 1.3)}" font-size="{"3.6" if kind == "D" else "3.2"}" '
        f'text-anchor="middle" fill="{_a(INK.get(colour, "#000"))}" font-weight="bold">{escape(f"{colour}{kind}")}</text></g>'
    )


class _Frame(NamedTuple):
    """Where the board lies in the drawing: margins in SVG units around ``n`` fish cells a side."""

    n: int
    left: float
    top: float
    right: float
    bottom: float

    def x(self, col: float) -> float:
        return self.left + col * _U

    def y(self, row: float) -> float:
        return self.top + row * _U


def render_svg(
    observation: GarumObservationLike,
    *,
    size: int = 640,
    show_bonuses: bool = True,
    show_coordinates: bool = True,
    highlight: int | None = None,
) -> str:
    """A standalone SVG of the board: cetaria, fish (coloured and lettered), bonuses, workers, holes.

    ``size`` is the width in pixels; ``highlight`` names a cetarium to outline.
    """
    obs = observation
    n = obs["size"]
    f = _Frame(n, (1.8 if show_coordinates else 0.4) * _U, (1.4 if show_coordinates else 0.4) * _U, 1.4 * _U, 1.4 * _U)
    width = f.left + n * _U + f.right
    height = f.top + n * _U + f.bottom
    px_h = size * height / width
    title = f"Garum, {obs.get('board', '')}, round {obs.get('round')} of {obs.get('rounds')}"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_a(size)}" height="{_n(px_h)}" '
        f'viewBox="0 0 {_n(width)} {_n(height)}" font-family="sans-serif" class="garum-board">',
        f"<title>{escape(title)}</title>",
        f'<rect class="background" x="0" y="0" width="{_n(width)}" height="{_n(height)}" fill="#efe6d2"/>',
    ]
    out += _cetaria_svg(obs, f)
    out += _cells_svg(obs, f, show_bonuses)
    if highlight is not None:
        out += _highlight_svg(obs, f, highlight)
    out += _dividers_svg(obs, f)
    if show_coordinates:
        for i in range(n):
            out.append(f'<text class="coordinate" x="{_n(f.left - 1.5)}" y="{_n(f.y(i + 0.5) + 1.4)}" font-size="3.8" '
                       f'text-anchor="end" fill="#3d3528">h{i + 1}</text>')
            out.append(f'<text class="coordinate" x="{_n(f.x(i + 0.5))}" y="{_n(f.top - 3)}" font-size="3.8" '
                       f'text-anchor="middle" fill="#3d3528">v{i + 1}</text>')
    # workers beside their lines: rows at the right edge, columns along the bottom
    workers = _workers_by_line(obs)
    for name in sorted(workers, key=lambda s: (s[0], int(s[1:]))):
        index = int(name[1:]) - 1
        if name.startswith("h"):
            out.append(_worker_svg(workers[name], f.x(n) + f.right / 2, f.y(index + 0.5)))
        else:
            out.append(_worker_svg(workers[name], f.x(index + 0.5), f.y(n) + f.bottom / 2))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _cetaria_svg(obs: GarumObservationLike, f: _Frame) -> list[str]:
    """The cetaria and the holes between them."""
    grid = obs["grid"]
    block = f.n // len(grid)
    out = []
    for gr, row in enumerate(grid):
        for gc, number in enumerate(row):
            x0, y0, side = f.x(gc * block), f.y(gr * block), block * _U
            if not number:
                out.append(f'<rect class="hole" x="{_n(x0)}" y="{_n(y0)}" width="{_n(side)}" height="{_n(side)}" '
                           'fill="#7d7466" stroke="#5b5347" stroke-width="0.6"/>')
                continue
            out.append(f'<rect class="cetarium" data-cetarium="{_a(number)}" x="{_n(x0)}" y="{_n(y0)}" '
                       f'width="{_n(side)}" height="{_n(side)}" fill="#d8ecf0" stroke="#3d3528" stroke-width="1"/>')
    return out


def _cells_svg(obs: GarumObservationLike, f: _Frame, show_bonuses: bool) -> list[str]:
    """The fish, each with who placed it, and the bonus spaces still empty."""
    fish = obs["fish"]
    bonus = {tuple(b["cell"]): b["kind"] for b in obs.get("bonuses", [])}
    placers = _placers(obs)
    out = []
    for r in range(f.n):
        for c in range(f.n):
            ch = fish[r][c]
            if ch == " ":
                continue
            cx, cy = f.x(c + 0.5), f.y(r + 0.5)
            if ch == ".":
                kind = bonus.get((r, c))
                if show_bonuses and kind is not None:
                    out.append(_bonus_svg(obs, kind, r, c, cx, cy))
                continue
            out.append(
                f'<g class="fish" data-cell="{r},{c}" data-species="{_a(ch)}" '
                f'data-tip="{_a(_fish_tip(ch, placers.get((r, c)), bonus.get((r, c))))}">'
                f'<rect x="{_n(f.x(c) + 0.5)}" y="{_n(f.y(r) + 0.5)}" width="{_n(_U - 1)}" height="{_n(_U - 1)}" '
                f'rx="1.5" fill="{_a(FILL.get(ch, "#888"))}"/>'
                f'<text x="{_n(cx)}" y="{_n(cy + 1.9)}" font-size="5.4" text-anchor="middle" '
                f'fill="{_a(INK.get(ch, "#000"))}" font-weight="bold">{escape(str(ch))}</text></g>'
            )
    return out


def _bonus_svg(obs: GarumObservationLike, kind: str, r: int, c: int, cx: float, cy: float) -> str:
    """An empty bonus space: a star for a joker, else the species' letter in a ring of its colour."""
    if kind == "*":
        return (f'<g class="bonus" data-kind="*" data-cell="{r},{c}" '
                f'data-tip="{_a(_bonus_tip(obs, kind))}">'
                f'<polygon points="{_star(cx, cy, 4, 1.7)}" fill="#8e44ad" stroke="#4a235a" '
                'stroke-width="0.4"/></g>')
    return (f'<g class="bonus" data-kind="{_a(kind)}" data-cell="{r},{c}" '
            f'data-tip="{_a(_bonus_tip(obs, kind))}">'
            f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="3.8" fill="#ffffff" '
            f'stroke="{_a(FILL[kind])}" stroke-width="1.2"/>'
            f'<text x="{_n(cx)}" y="{_n(cy + 1.5)}" font-size="4.4" text-anchor="middle" '
            f'fill="{_a(FILL[kind])}" font-weight="bold">{escape(str(kind))}</text></g>')


def _highlight_svg(obs: GarumObservationLike, f: _Frame, highlight: int) -> list[str]:
    """The outline of cetarium ``highlight``."""
    grid = obs["grid"]
    block = f.n // len(grid)
    out = []
    for gr, row in enumerate(grid):
        for gc, number in enumerate(row):
            if number and number == highlight:
                out.append(f'<rect class="highlight" data-cetarium="{_a(number)}" x="{_n(f.x(gc * block) - 1)}" '
                           f'y="{_n(f.y(gr * block) - 1)}" width="{_n(block * _U + 2)}" '
                           f'height="{_n(block * _U + 2)}" fill="none" stroke="#ff7f00" stroke-width="2"/>')
    return out


def _dividers_svg(obs: GarumObservationLike, f: _Frame) -> list[str]:
    """Slot dividers and cetarium numbers, drawn above the fish."""
    grid = obs["grid"]
    block = f.n // len(grid)
    half = block // 2
    out = []
    for gr, row in enumerate(grid):
        for gc, number in enumerate(row):
            if not number:
                continue
            x0, y0, side = f.x(gc * block), f.y(gr * block), block * _U
            for k in range(half, block, half):
                out.append(f'<line class="slot" x1="{_n(x0 + k * _U)}" y1="{_n(y0)}" x2="{_n(x0 + k * _U)}" '
                           f'y2="{_n(y0 + side)}" stroke="#3d3528" stroke-width="0.5" stroke-dasharray="1.5 1.5"/>')
                out.append(f'<line class="slot" x1="{_n(x0)}" y1="{_n(y0 + k * _U)}" x2="{_n(x0 + side)}" '
                           f'y2="{_n(y0 + k * _U)}" stroke="#3d3528" stroke-width="0.5" stroke-dasharray="1.5 1.5"/>')
            wide = 4.4 if number > 9 else 2.9
            here = " (this round's cetarium)" if number == obs.get("cetarium") else ""
            out.append(f'<g class="cetarium-number" data-cetarium="{_a(number)}" '
                       f'data-tip="{_a(f"Cetarium {number}{here}: slots 1 2 / 3 4")}">'
                       f'<rect x="{_n(x0 + 0.2)}" y="{_n(y0 + 0.2)}" width="{_n(wide)}" '
                       f'height="3.4" rx="0.6" fill="#3d3528" opacity="0.9"/>'
                       f'<text x="{_n(x0 + 0.2 + wide / 2)}" y="{_n(y0 + 2.85)}" font-size="3" '
                       f'text-anchor="middle" fill="#ffffff">{escape(str(number))}</text></g>')
    return out


def log_detail(state: Any, action: str) -> dict[str, Any]:
    """What the server's move log adds to ``action`` played from ``state``: the acting colour, the round
    and a plain sentence ("placed a tile in cetarium 14 (mackerel, tuna, ...)"), so that no client
    has to guess them from the board."""
    colour = state.current_colour()
    letter = state.game.tiles.species[colour].letter if colour is not None else None
    out: dict[str, Any] = {"round": min(state.round + 1, state.game.board.rounds)}
    if letter is not None:
        out["colour"] = letter
    words = action.split()
    if words[0].startswith("c") and len(words) == 2 and "." in words[0]:
        cetarium, slot = words[0][1:].split(".")
        fish = ", ".join(SPECIES_NAMES.get(f, f) for f in words[1])
        whose = f"the {COLOUR_NAMES.get(letter, letter)} " if letter else "a "
        corner = ("top-left", "top-right", "bottom-left", "bottom-right")[int(slot) - 1] if slot.isdigit() \
            and 1 <= int(slot) <= 4 else f"slot {slot}"
        out["text"] = f"placed {whose}tile in cetarium {cetarium}, {corner} ({fish})"
    elif words[0] in ("V", "D") and len(words) == 2:
        line = words[1]
        where = f"{'row' if line.startswith('h') else 'column'} {line[1:]}"
        out["text"] = f"claimed {where} with {'the dominus' if words[0] == 'D' else 'a vilicus'}"
    elif words[0] == "pass":
        out["text"] = "placed no worker"
    elif words[0] == "choose" and len(words) == 2:
        out["text"] = f"chose cetarium {words[1].lstrip('c')} for the round"
    return out
