"""Garum position value for one seat: what its lines should score, less the best rival's.

The estimate reads only public facts (fish on the board, which colour filled each slot,
workers, worker pools, bonuses, the round), so a bot that uses it cannot leak hidden
information, whatever determinization it evaluates. For every line it expects:

* the fish of a colour already on it;
* in each cetarium of the line the colour has not yet played into, the colour's own tile
  on the line (about two of its fish) if a slot of the line is still free, discounted when
  only one such slot is left;
* a trickle of that species from other colours' tiles on the remaining free cells.

A worker's line is worth the chart's points at that expectation, smoothed over a spread
that shrinks as the line fills (so a dominus on a line that is unlikely to reach the
chart's first scoring row is costed by its -2 risk). Workers still in the pool are worth
a fraction of the best lines they could still take, limited by the rounds left: that is
what makes early placement on a weak line a loss and a pass sometimes the best choice.
Bonuses already scored count in full.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any

EMPTY = -1

# ISMCTS grows its tree by this heuristic in games of 3 and 4: with two or three rivals
# between a seat's turns, random expansion spends 300 iterations on replies nobody plays and
# left the bot level with greedy (35 % of 500 three-player games, 30 % of 140 four-player);
# heuristic expansion won 43.7 % of 200 and 37.3 % of 59 at 300 iterations, at about 15
# times the cost a decision (README, "Measured").
HEURISTIC_EXPANSION_PLAYERS = (3, 4)

OWN_TILE = 1.75  # own fish a colour's tile brings to one line it chooses (2 at most)
OWN_TILE_FIXED = 1.45  # the same without rotation
LAST_SLOT = 0.7  # chance the colour still gets the line's only free slot in a cetarium
STRAY = 0.1  # chance that a free cell ends up holding a given species from another tile
OPTION = 0.45  # share of a free line's value that an unplaced worker can count on
SPREAD = 0.35  # spread of the final count per pending expected fish (square root law)


_GEOMETRY: dict[str, tuple] = {}
_GETTERS: dict[str, tuple] = {}
_CHARTS: dict[str, tuple] = {}


def _geometry(board: Any) -> tuple:
    """Per line: its segments ``(cetarium, ((slot index, (cell, cell)), ...))``."""
    geo = _GEOMETRY.get(board.name)
    if geo is None:
        geo = _GEOMETRY[board.name] = _build_geometry(board)
        _GETTERS[board.name] = tuple(itemgetter(*cells) if len(cells) > 1 else None for cells in board.line_cells)
    return geo


def _build_geometry(board: Any) -> tuple:
    size = board.size
    lines: list[list[tuple]] = [[] for _ in range(2 * size)]
    for cet, line_ids in board.lines.items():
        for i, line in enumerate(line_ids):
            if not board.line_cells[line]:
                continue
            segs = []
            for slot in range(1, 5):
                cells = board.slot_cells[cet, slot]
                on = tuple(c for c in cells if (c // size == line if i < 4 else c % size == line - size))
                if on:
                    segs.append((slot - 1, on))
            lines[line].append((cet, tuple(segs)))
    return tuple(tuple(x) for x in lines)


def _chart_points(board: Any) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Points by specimen count 0..size, vilicus and dominus."""
    charts = _CHARTS.get(board.name)
    if charts is None:
        vil = tuple(float(board.points(n, False)) for n in range(board.size + 2))
        dom = tuple(float(board.points(n, True)) for n in range(board.size + 2))
        charts = _CHARTS[board.name] = (vil, dom)
    return charts


def _interp(table: tuple[float, ...], x: float) -> float:
    if x <= 0:
        return table[0]
    top = len(table) - 1
    if x >= top:
        return table[top]
    i = int(x)
    f = x - i
    return table[i] * (1 - f) + table[i + 1] * f


def _expected_points(table: tuple[float, ...], mean: float, pending: float) -> float:
    """Chart points at ``mean`` specimens, averaged over a spread that grows with ``pending``."""
    if pending <= 0:
        return _interp(table, mean)
    s = SPREAD * pending ** 0.5 + 0.3
    return 0.25 * _interp(table, mean - s) + 0.5 * _interp(table, mean) + 0.25 * _interp(table, mean + s)


def line_prospects(state: Any) -> list[list[tuple[float, float]]]:
    """For every line, for every colour: (expected specimens at the end, expected still to come)."""
    game = state.game
    geo = _geometry(game.board)
    own = OWN_TILE if game.config["rotation"] else OWN_TILE_FIXED
    return [_prospect(segs, state.cells, state.slots, own) if segs else [] for segs in geo]


def _prospect(segs: tuple, cells: list[int], slots: dict[int, list[int]], own: float) -> list[tuple[float, float]]:
    count = [0, 0, 0, 0]
    pending = [0.0, 0.0, 0.0, 0.0]
    for cet, parts in segs:
        filled_by = slots[cet]
        free = 0
        for si, on in parts:
            if filled_by[si] == EMPTY:
                free += len(on)
            else:
                for cell in on:
                    count[cells[cell]] += 1
        if not free:
            continue
        stray = free * STRAY
        mine = own + (free - 2) * STRAY if free > 2 else own * LAST_SLOT
        for c in range(4):
            pending[c] += stray if c in filled_by else mine
    return [(count[c] + pending[c], pending[c]) for c in range(4)]


_LINES: dict[tuple, dict[tuple, tuple]] = {}


def line_values(state: Any) -> list[tuple | None]:
    """Per line (None off the board), per colour: (vilicus points, dominus points, still reachable).

    Expected points of a worker of that colour on the line; "reachable" says the colour
    still has a tile to play into one of the line's cetaria. Memoised on the line's fish
    and the fill of its cetaria, which sibling positions mostly share.
    """
    game = state.game
    board = game.board
    geo = _geometry(board)
    getters = _GETTERS[board.name]
    rotation = game.config["rotation"]
    memo = _LINES.setdefault((board.name, rotation), {})
    if len(memo) > 300_000:
        memo.clear()
    cells = state.cells
    slots = state.slots
    owners = {cet: tuple(sl) for cet, sl in slots.items()}
    out: list[tuple | None] = []
    for line, segs in enumerate(geo):
        if not segs:
            out.append(None)
            continue
        key = (line, getters[line](cells), *[owners[cet] for cet, _ in segs])
        value = memo.get(key)
        if value is None:
            value = memo[key] = _line_value(board, segs, cells, slots, rotation)
        out.append(value)
    return out


def _line_value(board: Any, segs: tuple, cells: list[int], slots: dict[int, list[int]], rotation: bool) -> tuple:
    vil, dom = _chart_points(board)
    prospects = _prospect(segs, cells, slots, OWN_TILE if rotation else OWN_TILE_FIXED)
    out = []
    for c, (mean, pending) in enumerate(prospects):
        reachable = any(c not in slots[cet] for cet, _ in segs)
        out.append((_expected_points(vil, mean, pending), _expected_points(dom, mean, pending), reachable,
                     mean))
    return tuple(out)


def colour_values(state: Any) -> list[float]:
    """Expected final points of each colour (lines, pool options, bonuses)."""
    game = state.game
    board = game.board
    values = [float(b) for b in state.bonus]
    if state.phase == "over":
        for _line, colour, _kind, _n, points in state.final:
            values[colour] += points
        return values
    lines = line_values(state)
    workers = state.workers
    free = []
    for line, w in enumerate(workers):
        entry = lines[line]
        if entry is None:
            continue
        if w is None:
            free.append(entry)
        else:
            c = w[0]
            values[c] += entry[c][1] if w[1] == "D" else entry[c][0]
    # Unplaced workers: a share of the best free lines the colour can still reach.
    rounds_left = board.rounds - state.round
    floor = board.chart[0][0]  # counts up to the chart's first row are penalised
    pools = state.pool
    pool_owner = game.pool_owner
    sharing: dict[int, list[int]] = {}  # worker pool -> colours drawing from it
    for c in game.seating.turn_colours:
        sharing.setdefault(pool_owner(c), []).append(c)
    for owner, colours in sharing.items():
        pool = pools[owner]
        n = min(pool[0] + pool[1], rounds_left * len(colours))
        if n <= 0:
            continue
        if len(colours) == 1:
            c = colours[0]
            gains = [e[c][0] for e in free if e[c][2] and e[c][3] > floor and e[c][0] > 0]
        else:
            gains = [max(e[c][0] if e[c][2] and e[c][3] > floor else 0.0 for c in colours) for e in free]
            gains = [g for g in gains if g > 0]
        if not gains:
            continue
        gains.sort(reverse=True)
        best = gains[:n]
        if pool[1] > 0:
            best[0] *= 2  # the dominus takes the best line
        values[colours[0]] += OPTION * sum(best)
    return values


def evaluate(state: Any, seat: int) -> float:
    """Seat's expected points less the strongest rival's (exact score difference at the end)."""
    per_colour = colour_values(state)
    seating = state.game.seating
    totals = [sum(per_colour[c] for c in seating.colours_of(s)) for s in range(seating.players)]
    mine = totals[seat]
    rivals = [t for s, t in enumerate(totals) if s != seat]
    return mine - max(rivals)


def evaluate_all(state: Any) -> list[float]:
    """``evaluate`` for every seat at once (one pass over the board)."""
    per_colour = colour_values(state)
    seating = state.game.seating
    totals = [sum(per_colour[c] for c in seating.colours_of(s)) for s in range(seating.players)]
    out = []
    for seat, mine in enumerate(totals):
        out.append(mine - max(t for s, t in enumerate(totals) if s != seat))
    return out
