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

import weakref
from operator import itemgetter
from typing import Any

EMPTY = -1

# ISMCTS grows its tree by this heuristic in games of 3 and 4: with two or three rivals
# between a seat's turns, random expansion spends 300 iterations on replies nobody plays and
# left the bot level with greedy (35 % of 500 three-player games, 30 % of 140 four-player);
# heuristic expansion won 43.7 % of 200 and 37.3 % of 59 at 300 iterations, at about 15
# times the cost a decision (docs/strength.md, "Earlier measurements").
HEURISTIC_EXPANSION_PLAYERS = (3, 4)

# ISMCTS plays its rollout preset by default at every player count, player count -> its
# ``ludus.bots.rollout.Plan``: greedy playouts of the three best moves ten decisions on in 16 worlds
# (13 with 3 or 4 players, ~0.2 s) won far more against greedy than the tree search at equal time.
# With 2 players the same 48 playouts weigh six candidates by sequential halving (``halving``): the
# best move by playouts is often below greedy's third, and six won more against the classic search
# (66.7 % of 120 against 58.3 %) and as much against greedy (83.1 % of 160 against 85.9 %, the same
# margin); four won no more than three (docs/strength.md, "Greedy playouts").
ROLLOUT = {
    2: {"worlds": 16, "horizon": 10, "width": 6, "halving": True},
    3: {"worlds": 13, "horizon": 10},
    4: {"worlds": 13, "horizon": 10},
}

OWN_TILE = 1.75  # own fish a colour's tile brings to one line it chooses (2 at most)
OWN_TILE_FIXED = 1.45  # the same without rotation
LAST_SLOT = 0.7  # chance the colour still gets the line's only free slot in a cetarium
STRAY = 0.1  # chance that a free cell ends up holding a given species from another tile
OPTION = 0.45  # share of a free line's value that an unplaced worker can count on
SPREAD = 0.35  # spread of the final count per pending expected fish (square root law)


_GEOMETRY: dict[str, tuple] = {}
_GETTERS: dict[str, tuple] = {}
_CHARTS: dict[str, tuple] = {}
_LINE_CETS: dict[str, tuple] = {}  # per line, the cetaria it crosses


def _geometry(board: Any) -> tuple:
    """Per line: its segments ``(cetarium, ((slot index, (cell, cell)), ...))``."""
    geo = _GEOMETRY.get(board.name)
    if geo is None:
        geo = _GEOMETRY[board.name] = _build_geometry(board)
        _GETTERS[board.name] = tuple(
            itemgetter(*cells) if len(cells) > 1 else None for cells in board.line_cells
        )
        _LINE_CETS[board.name] = tuple(tuple(cet for cet, _ in segs) for segs in geo)
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
    s = SPREAD * pending**0.5 + 0.3
    return 0.25 * _interp(table, mean - s) + 0.5 * _interp(table, mean) + 0.25 * _interp(table, mean + s)


def line_prospects(state: Any) -> list[list[tuple[float, float]]]:
    """For every line, for every colour: (expected specimens at the end, expected still to come)."""
    game = state.game
    geo = _geometry(game.board)
    own = OWN_TILE if game.config["rotation"] else OWN_TILE_FIXED
    return [_prospect(segs, state.cells, state.slots, own) if segs else [] for segs in geo]


def _prospect(
    segs: tuple, cells: list[int], slots: dict[int, list[int]], own: float
) -> list[tuple[float, float]]:
    count, pending = _sums(segs, cells, slots, own)
    return [(count[c] + pending[c], pending[c]) for c in range(4)]


def _sums(
    segs: tuple, cells: list[int], slots: dict[int, list[int]], own: float
) -> tuple[list[int], list[float]]:
    """Per colour: the fish of its species already on a line's cells, and those still expected on its
    free quarters (a tile of its own, or a stray fish of another colour's tile)."""
    count = [0, 0, 0, 0]
    p0 = p1 = p2 = p3 = 0.0  # each colour's pending, added up cetarium by cetarium
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
        p0 += stray if 0 in filled_by else mine
        p1 += stray if 1 in filled_by else mine
        p2 += stray if 2 in filled_by else mine
        p3 += stray if 3 in filled_by else mine
    return count, [p0, p1, p2, p3]


_LINES: dict[tuple, dict[tuple, tuple]] = {}


def line_values(state: Any) -> list[tuple | None]:
    """Per line (None off the board), per colour: (vilicus points, dominus points, still reachable).

    Expected points of a worker of that colour on the line; "reachable" says the colour
    still has a tile to play into one of the line's cetaria. Memoised on the line's fish
    and the fill of its cetaria, which sibling positions mostly share.
    """
    slots = state.slots
    owners = {cet: tuple(sl) for cet, sl in slots.items()}
    return _lines(state.game, state.cells, slots, owners, range(len(_geometry(state.game.board))), None)


def _lines(game: Any, cells: list[int], slots: dict, owners: dict, which: Any, base: list | None) -> list:
    """``line_values`` for the lines in ``which``; the others are taken from ``base``."""
    board = game.board
    geo = _geometry(board)
    getters = _GETTERS[board.name]
    rotation = game.config["rotation"]
    memo = _LINES.setdefault((board.name, rotation), {})
    if len(memo) > 300_000:
        memo.clear()
    line_cets = _LINE_CETS[board.name]
    out: list[tuple | None] = [None] * len(geo) if base is None else base[:]
    for line in which:
        cets = line_cets[line]
        if not cets:
            continue
        key: tuple
        if len(cets) == 4:  # a line across four cetaria (Troia's)
            a, b, c, d = cets
            key = (line, getters[line](cells), owners[a], owners[b], owners[c], owners[d])
        elif len(cets) == 3:  # Baelo Claudia's
            a, b, c = cets
            key = (line, getters[line](cells), owners[a], owners[b], owners[c])
        else:
            key = (line, getters[line](cells), *[owners[cet] for cet in cets])
        value = memo.get(key)
        if value is None:
            value = memo[key] = _line_value(board, geo[line], cells, slots, rotation)
        out[line] = value
    return out


_POINTS: dict[tuple, tuple[float, float]] = {}


def _line_value(
    board: Any, segs: tuple, cells: list[int], slots: dict[int, list[int]], rotation: bool
) -> tuple:
    own = OWN_TILE if rotation else OWN_TILE_FIXED
    count, pending = _sums(segs, cells, slots, own)
    # the colours that filled a slot of every cetarium the line crosses: no tile of theirs can reach it
    fills = iter([slots[cet] for cet, _ in segs])
    shut = set(next(fills)).intersection(*fills)
    name = board.name
    out = []
    for c in range(4):
        p = pending[c]
        mean = count[c] + p
        points = _POINTS.get((name, mean, p))
        if points is None:  # few (mean, pending) pairs occur: memoised across lines and positions
            vil, dom = _chart_points(board)
            if len(_POINTS) > 100_000:
                _POINTS.clear()
            points = _POINTS[name, mean, p] = (_expected_points(vil, mean, p), _expected_points(dom, mean, p))
        out.append((points[0], points[1], c not in shut, mean))
    return tuple(out)


def colour_values(state: Any) -> list[float]:
    """Expected final points of each colour (lines, pool options, bonuses)."""
    if state.phase == "over":
        values = [float(b) for b in state.bonus]
        for _line, colour, _kind, _n, points in state.final:
            values[colour] += points
        return values
    return _colour_values(state.game, line_values(state), state.workers, state.pool, state.bonus, state.round)


def _colour_values(
    game: Any, lines: list, workers: list, pools: list, bonus: list, round_: int
) -> list[float]:
    board = game.board
    values = [float(b) for b in bonus]
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
    rounds_left = board.rounds - round_
    floor = board.chart[0].specimens  # counts up to the chart's first row are penalised
    for owner, colours in _sharing(game):
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


_SHARING: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # games come and go (server, studies)


def _sharing(game: Any) -> tuple:
    """(worker pool, colours drawing from it) pairs, in the order of the first colour's turn."""
    out = _SHARING.get(game)
    if out is None:
        sharing: dict[int, list[int]] = {}
        for c in game.seating.turn_colours:
            sharing.setdefault(game.pool_owner(c), []).append(c)
        out = _SHARING[game] = tuple((o, tuple(cs)) for o, cs in sharing.items())
    return out


def _seat_colours(seating: Any) -> tuple:
    return tuple(seating.colours_of(s) for s in range(seating.players))


_SEATS: dict[Any, tuple] = {}


def _margins(per_colour: list[float], seating: Any) -> list[float]:
    """Every seat's total less its strongest rival's."""
    seats = _SEATS.get(seating)
    if seats is None:
        seats = _SEATS[seating] = _seat_colours(seating)
    if len(seats) == 4:  # one colour a seat: the best rival is the top colour, or the second for the top one
        top = max(per_colour)
        lead = per_colour.index(top)
        second = max(per_colour[:lead] + per_colour[lead + 1 :])
        return [v - (second if c == lead else top) for c, v in enumerate(per_colour)]
    totals = [sum(per_colour[c] for c in cs) for cs in seats]
    out = []
    for seat, mine in enumerate(totals):
        out.append(mine - max(t for s, t in enumerate(totals) if s != seat))
    return out


def action_colour_values(state: Any, actions: list) -> list[list[float] | None]:
    """``colour_values`` of the position after each of ``actions`` (legal here), without playing them.

    A tile placement followed by the colour's worker choice changes only the slot's four
    cells, its owner and the colour's bonus, so only the lines crossing that cetarium are
    valued again; every worker choice (and the pass) leads to the same next turn but for the
    worker itself and the pool, so that turn is played once. ``None`` where this shortcut
    does not hold (the choice ends the game or is not a colour's placement or worker): the
    caller plays the action on a clone and calls ``colour_values``. The figures are those of
    ``colour_values`` on the played position, to the last bit (the same sums in the same order).
    """
    from .actions import Worker

    game = state.game
    phase = state.phase
    out: list[list[float] | None] = [None] * len(actions)
    if phase == "place":
        colour = state.current_colour()
        board = game.board
        round_ = state.round
        if not state._worker_actions(colour) and state.turn + 1 == len(game.seating.turn_colours):
            # the placement ends the colour's turn and the round
            if game.seating.ghost is not None or round_ + 1 == board.rounds:
                return out  # the ghost's placement or the final scoring follow: played out by the caller
            round_ += 1
        return _place_values(state, actions, colour, round_, out)
    if phase == "worker":
        from .actions import PASS

        colour = state.current_colour()
        after = state.clone()
        after.apply_action(PASS)
        if after.phase == "over":
            return out
        lines = line_values(after)
        owner = game.pool_owner(colour)
        for i, action in enumerate(actions):
            if action is PASS:
                out[i] = _colour_values(game, lines, after.workers, after.pool, after.bonus, after.round)
            elif type(action) is Worker:
                workers = after.workers[:]
                workers[action.line] = [colour, action.kind]
                pools = [p[:] for p in after.pool]
                pools[owner][action.dominus] -= 1
                out[i] = _colour_values(game, lines, workers, pools, after.bonus, after.round)
    return out


def _place_values(state: Any, actions: list, colour: int, round_: int, out: list) -> list:
    """Colour values after each placement of ``actions`` whose turn goes on (or ends the round) as it is.

    Only the cetarium's lines change: its four lines that miss the slot get a new owner of
    the slot (the same for every placement there), and the four that cross it also two new
    fish, so their values are looked up by those two fish. The rest is computed once for
    the position: each colour's workers on unchanged lines, and the gains of the unchanged
    free lines for each worker pool; the sums are then taken as ``_colour_values`` takes them.
    """
    from .actions import Place
    from .state import placement_bonus

    game = state.game
    board = game.board
    cells, slots, workers = state.cells, state.slots, state.workers
    owners = {cet: tuple(sl) for cet, sl in slots.items()}
    base = _lines(game, cells, slots, owners, range(2 * board.size), None)
    # workers on the board, by colour in line order: (line, 1 for a dominus else 0)
    occupied: list[list[tuple[int, int]]] = [[], [], [], []]
    free_lines = []
    for line, w in enumerate(workers):
        if base[line] is None:
            continue
        if w is None:
            free_lines.append(line)
        else:
            occupied[w[0]].append((line, 1 if w[1] == "D" else 0))
    # A line's value depends on how many fish of each species it holds, not where they lie, and
    # on which colours have played into each cetarium it crosses: so a line that misses the slot
    # is worth the same whichever such slot is filled, and one that crosses it the same for any
    # slot on it bringing the same two fish in either order (shared here by all of this turn's slots).
    context: tuple = (game, state, colour, round_, owners, base, occupied, free_lines, {}, {})
    memo = _LINES[board.name, game.config["rotation"]]
    rotation = game.config["rotation"]
    bonus = state.bonus
    slot_cells = board.slot_cells
    by_slot: dict[tuple[int, int], tuple] = {}
    for i, action in enumerate(actions):
        if type(action) is not Place:
            continue
        cet, slot, fish = action.cetarium, action.slot, action.fish
        filled = by_slot.get((cet, slot))
        if filled is None:
            filled = by_slot[cet, slot] = _fill_slot(context, cet, slot)
        lines_after, touched, recount, fixed_values, pool_parts = filled
        hits = []
        child = None
        for crossing in touched:
            cache = crossing[3]
            pair = _PAIRS[fish[crossing[1]] + fish[crossing[2]]]
            hit = cache.get(pair)
            if hit is None:
                if child is None:
                    child = _placed_cells(cells, slot_cells[cet, slot], fish)
                hit = cache[pair] = _crossing_hit(board, memo, rotation, child, crossing)
            hits.append(hit)
        values = fixed_values[:]
        now = None  # the crossing lines' values after this placement, by line
        for c in recount:
            v = float(bonus[c] + placement_bonus(game, action, colour)) if c == colour else float(bonus[c])
            if occupied[c]:
                if now is None:
                    now = {line: value for line, value, _g in hits}
                for line, k in occupied[c]:
                    entry = now.get(line)
                    v += (lines_after[line] if entry is None else entry)[c][k]
            values[c] = v
        if pool_parts:
            _add_options(values, pool_parts, hits)
        out[i] = values
    return out


def _add_options(values: list[float], pool_parts: list, hits: list) -> None:
    """Add each worker pool's options (as ``_colour_values`` counts them) to its first colour's value."""
    for p, (first, n, dominus, gains) in enumerate(pool_parts):
        more = [g[p] for _l, _v, g in hits if g is not None and g[p] > 0]
        if not more:
            if not gains:
                continue
            best = gains[:n]
        else:
            best = gains[:n] + more
            best.sort(reverse=True)
            best = best[:n]
        if dominus:
            best[0] *= 2
        values[first] += OPTION * sum(best)


_SPECIES_INDEX = {letter: i for i, letter in enumerate("BGYR")}


def _placed_cells(cells: list[int], slot_cells: tuple[int, ...], fish: str) -> list[int]:
    """The board's cells once a tile with ``fish`` lies on ``slot_cells``."""
    child = cells[:]
    for cell, letter in zip(slot_cells, fish, strict=True):
        child[cell] = _SPECIES_INDEX[letter]
    return child


def _crossing_hit(board: Any, memo: dict, rotation: bool, child: list[int], entry: tuple) -> tuple:
    """(line, its value, its gains) for a line crossing the slot, the tile placed (``child``)."""
    line, _ia, _ib, _cache, getter, own, segs, child_slots, gain_of = entry
    key = (line, getter(child), *own)
    value = memo.get(key)
    if value is None:
        value = memo[key] = _line_value(board, segs, child, child_slots, rotation)
    return line, value, gain_of(value)


def _fill_slot(context: tuple, cet: int, slot: int) -> tuple:
    """What every placement into one slot shares (see ``_place_values``)."""
    game, state, colour, round_, owners, base, occupied, free_lines, missing, crossing_caches = context
    board = game.board
    size = board.size
    floor = board.chart[0].specimens
    rounds_left = board.rounds - round_
    first = board.slot_cells[cet, slot][0]  # the slot's top-left cell
    r, c = first // size, first % size
    crossing = {
        r: (0, 1),
        r + 1: (2, 3),
        size + c: (0, 2),
        size + c + 1: (1, 3),
    }  # line -> fish of the slot on it
    filled = state.slots[cet][:]
    filled[slot - 1] = colour
    child_slots = dict(state.slots)
    child_slots[cet] = filled
    child_owners = dict(owners)
    child_owners[cet] = tuple(filled)
    cet_lines = board.lines[cet]
    rest = [x for x in cet_lines if x not in crossing]
    lines_after = base[:]
    todo = []
    for line in rest:
        value = missing.get((cet, line))
        if value is None:
            todo.append(line)
        else:
            lines_after[line] = value
    if todo:
        lines_after = _lines(game, state.cells, child_slots, child_owners, todo, lines_after)
        for line in todo:
            missing[cet, line] = lines_after[line]
    changed = set(cet_lines)
    recount = [x for x in range(4) if x == colour or any(line in changed for line, _ in occupied[x])]
    fixed_values = [float(b) for b in state.bonus]
    for x in range(4):
        for line, k in occupied[x]:
            fixed_values[x] += lines_after[line][x][k]
    pool_parts = []
    sharing = []
    for owner, colours in _sharing(game):
        pool = state.pool[owner]
        n = min(pool[0] + pool[1], rounds_left * len(colours))
        if n <= 0:
            continue
        gains = [
            g
            for g in (_gain(lines_after[line], colours, floor) for line in free_lines if line not in crossing)
            if g > 0
        ]
        gains.sort(reverse=True)
        pool_parts.append((colours[0], n, pool[1] > 0, gains))
        sharing.append(colours)

    def gains_of(value: tuple) -> tuple:
        return tuple(_gain(value, colours, floor) for colours in sharing)

    geo = _geometry(board)
    getters = _GETTERS[board.name]
    free = set(free_lines)
    touched = [
        (
            line,
            *crossing[line],
            crossing_caches.setdefault((cet, line), {}),
            getters[line],
            tuple(child_owners[x] for x in _LINE_CETS[board.name][line]),
            geo[line],
            child_slots,
            gains_of if line in free else _no_gains,
        )
        for line in cet_lines
        if line in crossing and geo[line]
    ]
    return lines_after, touched, recount, fixed_values, pool_parts


_PAIRS = {a + b: min(a + b, b + a) for a in "BGYR" for b in "BGYR"}  # two fish, in either order


def _no_gains(_value: tuple) -> None:
    return None


def _gain(entry: tuple, colours: tuple, floor: int) -> float:
    """What a free line promises a worker pool drawing for ``colours`` (0 if nothing)."""
    if len(colours) == 1:
        c = colours[0]
        e = entry[c]
        return e[0] if e[2] and e[3] > floor else 0.0
    return max(entry[c][0] if entry[c][2] and entry[c][3] > floor else 0.0 for c in colours)


def evaluate(state: Any, seat: int) -> float:
    """Seat's expected points less the strongest rival's (exact score difference at the end)."""
    return _margins(colour_values(state), state.game.seating)[seat]


def evaluate_all(state: Any) -> list[float]:
    """``evaluate`` for every seat at once (one pass over the board)."""
    return _margins(colour_values(state), state.game.seating)


def evaluate_actions(state: Any, actions: list) -> list[list[float] | None]:
    """``evaluate_all`` of the position after each action, where it can be had without playing it.

    ``None`` for an action the caller must play on a clone (see ``action_colour_values``).
    """
    seating = state.game.seating
    return [None if v is None else _margins(v, seating) for v in action_colour_values(state, actions)]
