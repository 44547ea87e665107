"""The Garum board as SVG for browsers, drawn from an observation dict (``render_svg``).

Pure: it reads only the observation (``GarumState.observation``), so the server and the web
client draw exactly what a seat may see. Every fish carries its species' letter too, and every
piece a tooltip (``data-tip``) saying what it is and who placed it.
"""

from __future__ import annotations

from functools import cache
from html import escape as _html_escape
from typing import Any, NamedTuple
from xml.sax.saxutils import escape

from .observation_types import GarumObservationLike, WorkerOnLine
from .words import COLOUR_NAMES, SPECIES_NAMES


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
    who = (
        f"for the {COLOUR_NAMES.get(kind, kind)} colour only"
        if (obs.get("config") or {}).get("species_bonus") == "own"
        else "for whoever places it"
    )
    return (
        f"Bonus space: a {SPECIES_NAMES.get(kind, kind)} ({kind}) placed on it scores {species} points {who}"
    )


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


FILL = {"B": "#2b5fb8", "G": "#2e8b3e", "Y": "#e3b51c", "R": "#c8372d"}
INK = {"B": "#ffffff", "G": "#ffffff", "Y": "#1d1d1d", "R": "#ffffff"}
_U = 10  # SVG units per fish cell
LABEL = 5.8  # font size of the rows', columns' and cetaria's numbers: 11 px at the 374 px of a phone's board
LETTER = 3.8  # the h / v before a line's number


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
    return (
        f"{COLOUR_NAMES.get(colour, colour)} {who} on {where}: at the end it scores the "
        f"{SPECIES_NAMES.get(colour, colour)} ({colour}) on this line by the chart"
    )


def _worker_svg(worker: WorkerOnLine, cx: float, cy: float) -> str:
    colour, kind = worker["colour"], worker["kind"]
    r = 4.6 if kind == "D" else 3.6
    ring = ' stroke="#1d1d1d" stroke-width="1.4"' if kind == "D" else ' stroke="#1d1d1d" stroke-width="0.5"'
    return (
        f'<g class="worker" data-piece="worker {_a(worker["line"])}" data-line="{_a(worker["line"])}" '
        f'data-colour="{_a(colour)}" data-kind="{_a(kind)}" data-tip="{_a(_worker_tip(worker))}">'
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
    f = _Frame(
        n,
        (1.8 if show_coordinates else 0.4) * _U,
        (1.4 if show_coordinates else 0.4) * _U,
        1.4 * _U,
        1.4 * _U,
    )
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
        out += _coordinates_svg(f)
    # workers beside their lines: rows at the right edge, columns along the bottom
    workers = {w["line"]: w for w in obs.get("workers", [])}
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
                out.append(
                    f'<rect class="hole" x="{_n(x0)}" y="{_n(y0)}" width="{_n(side)}" height="{_n(side)}" '
                    'fill="#7d7466" stroke="#5b5347" stroke-width="0.6"/>'
                )
                continue
            out.append(
                f'<rect class="cetarium" data-cetarium="{_a(number)}" x="{_n(x0)}" y="{_n(y0)}" '
                f'width="{_n(side)}" height="{_n(side)}" fill="#d8ecf0" stroke="#3d3528" stroke-width="1"/>'
            )
    return out


def _cells_svg(obs: GarumObservationLike, f: _Frame, show_bonuses: bool) -> list[str]:
    """The fish, each with who placed it, and the bonus spaces still empty. The fish of one tile are
    one piece (``data-piece="tile c<cetarium>.<slot>"``): the browser animates a tile as it comes."""
    fish = obs["fish"]
    bonus = {tuple(b["cell"]): b["kind"] for b in obs.get("bonuses", [])}
    placers = _placers(obs)
    out = []
    tiles: dict[int, list[str]] = {}
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
            placed = placers.get((r, c))
            cell = (
                f'<g class="fish" data-cell="{r},{c}" data-species="{_a(ch)}" '
                f'data-tip="{_a(_fish_tip(ch, placed, bonus.get((r, c))))}">'
                f'<rect x="{_n(f.x(c) + 0.5)}" y="{_n(f.y(r) + 0.5)}" width="{_n(_U - 1)}" height="{_n(_U - 1)}" '
                f'rx="1.5" fill="{_a(FILL.get(ch, "#888"))}"/>'
                f'<text x="{_n(cx)}" y="{_n(cy + 1.9)}" font-size="5.4" text-anchor="middle" '
                f'fill="{_a(INK.get(ch, "#000"))}" font-weight="bold">{escape(str(ch))}</text></g>'
            )
            if placed:
                tiles.setdefault(placed["number"], []).append(cell)
            else:
                out.append(cell)
    for number, cells in tiles.items():
        entry = obs["placed"][number - 1]
        key = f"tile c{entry['cetarium']}.{entry['slot']}"
        out.append(f'<g class="tile" data-piece="{_a(key)}">' + "".join(cells) + "</g>")
    return out


def _bonus_svg(obs: GarumObservationLike, kind: str, r: int, c: int, cx: float, cy: float) -> str:
    """An empty bonus space: a star for a joker, else the species' letter in a ring of its colour."""
    if kind == "*":
        return (
            f'<g class="bonus" data-kind="*" data-cell="{r},{c}" '
            f'data-tip="{_a(_bonus_tip(obs, kind))}">'
            f'<polygon points="{_star(cx, cy, 4, 1.7)}" fill="#8e44ad" stroke="#4a235a" '
            'stroke-width="0.4"/></g>'
        )
    return (
        f'<g class="bonus" data-kind="{_a(kind)}" data-cell="{r},{c}" '
        f'data-tip="{_a(_bonus_tip(obs, kind))}">'
        f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="3.8" fill="#ffffff" '
        f'stroke="{_a(FILL[kind])}" stroke-width="1.2"/>'
        f'<text x="{_n(cx)}" y="{_n(cy + 1.5)}" font-size="4.4" text-anchor="middle" '
        f'fill="{_a(FILL[kind])}" font-weight="bold">{escape(str(kind))}</text></g>'
    )


def _highlight_svg(obs: GarumObservationLike, f: _Frame, highlight: int) -> list[str]:
    """The outline of cetarium ``highlight``."""
    grid = obs["grid"]
    block = f.n // len(grid)
    out = []
    for gr, row in enumerate(grid):
        for gc, number in enumerate(row):
            if number and number == highlight:
                out.append(
                    f'<rect class="highlight" data-cetarium="{_a(number)}" x="{_n(f.x(gc * block) - 1)}" '
                    f'y="{_n(f.y(gr * block) - 1)}" width="{_n(block * _U + 2)}" '
                    f'height="{_n(block * _U + 2)}" fill="none" stroke="#ff7f00" stroke-width="2"/>'
                )
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
                out.append(
                    f'<line class="slot" x1="{_n(x0 + k * _U)}" y1="{_n(y0)}" x2="{_n(x0 + k * _U)}" '
                    f'y2="{_n(y0 + side)}" stroke="#3d3528" stroke-width="0.5" stroke-dasharray="1.5 1.5"/>'
                )
                out.append(
                    f'<line class="slot" x1="{_n(x0)}" y1="{_n(y0 + k * _U)}" x2="{_n(x0 + side)}" '
                    f'y2="{_n(y0 + k * _U)}" stroke="#3d3528" stroke-width="0.5" stroke-dasharray="1.5 1.5"/>'
                )
            # at the cetarium's centre, where the four slots meet: readable (11 px and more on a phone)
            # and clear of every fish's letter
            wide = 9.2 if number > 9 else 5.8
            cx, cy = x0 + side / 2, y0 + side / 2
            here = " (this round's cetarium)" if number == obs.get("cetarium") else ""
            out.append(
                f'<g class="cetarium-number" data-cetarium="{_a(number)}" '
                f'data-tip="{_a(f"Cetarium {number}{here}: slots 1 2 / 3 4")}">'
                f'<rect x="{_n(cx - wide / 2)}" y="{_n(cy - 3.7)}" width="{_n(wide)}" '
                f'height="7.4" rx="1" fill="#3d3528" opacity="0.9"/>'
                f'<text x="{_n(cx)}" y="{_n(cy + 2.1)}" font-size="{_n(LABEL)}" font-weight="bold" '
                f'text-anchor="middle" fill="#ffffff">{escape(str(number))}</text></g>'
            )
    return out


def _coordinates_svg(f: _Frame) -> list[str]:
    """The rows' names (h1 ...) left of the board and the columns' (v1 ...) above it, as the notation
    writes them: the number at ``LABEL`` units (11 px and more on a 390-px phone), the letter smaller
    so that "v16" fits its column."""
    out = []
    for i in range(f.n):
        out.append(
            f'<text class="coordinate" x="{_n(f.left - 1.2)}" y="{_n(f.y(i + 0.5) + 2.1)}" '
            f'font-size="{_n(LABEL)}" text-anchor="end" fill="#3d3528">'
            f'<tspan font-size="{_n(LETTER)}">h</tspan>{i + 1}</text>'
        )
        out.append(
            f'<text class="coordinate" x="{_n(f.x(i + 0.5))}" y="{_n(f.top - 3)}" font-size="{_n(LABEL)}" '
            f'text-anchor="middle" fill="#3d3528"><tspan font-size="{_n(LETTER)}">v</tspan>{i + 1}</text>'
        )
    return out
