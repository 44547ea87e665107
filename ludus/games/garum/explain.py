"""Why a Garum move is good, in the game's terms: bonus spaces, lines, fish and the scoring chart.

``explain`` compares the board before and after the move (and the seat's own follow-up, the
worker after a tile) for the seat: the bonus spaces a tile covers and what they pay, the
lines it feeds where the seat's workers stand, and the line a worker claims, with the fish
of the worker's species it holds and what the chart would pay if the game ended now
(``ludus.games.garum.scoring``). Only public facts and the seat's own tiles are named.
``sentence`` says it in one plain sentence for a player, in the move log's words (``words``).
"""

from __future__ import annotations

from typing import Any

from .actions import SPECIES, Choose, Pass, Place, Worker
from .data import JOKER
from .scoring import score_lines
from .state import EMPTY, placement_bonus
from .words import SPECIES_NAMES

LOOKAHEAD = 1  # a tile is valued with the seat's best worker (or pass) after it


def canonical(state: Any, seat: int) -> Any:
    """A copy with what ``seat`` cannot see laid out in a fixed order (others' hands and piles,
    the own pile's order, the unturned aureus): the same for every position the seat cannot tell apart."""
    world = state.clone()
    mine = world.game.seating.colours_of(seat)
    for c in range(4):
        if c in mine:
            world.piles[c] = sorted(world.piles[c])
            continue
        unseen = sorted(world.hands[c] + world.piles[c])
        size = len(world.hands[c])
        world.hands[c], world.piles[c] = unseen[:size], unseen[size:]
    if world.game.config["variant"] == "standard":
        shown = len(world.revealed)
        world.aureus[shown:] = sorted(world.aureus[shown:])
    return world


def explain(before: Any, action: Any, after: Any, seat: int, follow: list[Any]) -> str:
    """A sentence saying what ``action`` (and the seat's follow-up) gains, in Garum's terms."""
    colour = before.current_colour()
    if isinstance(action, Choose):
        parts = [f"names cetarium {action.cetarium} for this round"]
        tile = next((a for a in follow if isinstance(a, Place)), None)
        if tile is not None:
            mid = before.clone()
            mid.apply_action(action)
            parts.append(f"then {tile}: " + "; ".join(_place(mid, tile, mid.current_colour(), False)))
    elif isinstance(action, Place):
        parts = _place(before, action, colour, before.phase == "ghost")
        worker = next((a for a in follow if isinstance(a, Worker | Pass)), None)
        if worker is not None:
            mid = before.clone()
            mid.apply_action(action)
            parts.append("then " + _worker(mid, worker, colour, seat))
    else:
        parts = [_worker(before, action, colour, seat)]
    text = "; ".join(p for p in parts if p)
    return text[0].upper() + text[1:] + "."


def _species(state: Any, colour: int) -> str:
    return state.game.tiles.species[colour].name


def _kind(kind: str) -> str:
    return "dominus" if kind == "D" else "vilicus"


def _line_word(board: Any, line: int) -> str:
    return f"row {board.line_name(line)}" if line < board.size else f"column {board.line_name(line)}"


def _count(state: Any, line: int, colour: int) -> int:
    cells = state.cells
    return sum(1 for cell in state.game.board.line_cells[line] if cells[cell] == colour)


def _empty(state: Any, line: int) -> int:
    cells = state.cells
    return sum(1 for cell in state.game.board.line_cells[line] if cells[cell] == EMPTY)


def _place(before: Any, action: Place, colour: int, ghost: bool) -> list[str]:
    """The bonus spaces the tile covers, and the fish it adds to lines where the seat's workers stand."""
    game = before.game
    board = game.board
    cells = board.slot_cells[action.cetarium, action.slot]
    owner = game.seating.owner
    parts = []
    who = "the ghost's tile" if ghost else "your tile"
    covered = []
    for cell, letter in zip(cells, action.fish, strict=True):
        kind = board.bonus_cells.get(cell)
        if kind is None:
            continue
        fish = SPECIES.index(letter)
        if kind == JOKER:
            covered.append(f"the joker bonus (+{board.joker_bonus})" if not ghost else "the joker bonus")
        elif fish == kind:
            pays = not ghost and (game.config["species_bonus"] == "any" or kind == colour)
            name = _species(before, kind)
            covered.append(
                f"the {name} bonus (+{board.species_bonus})"
                if pays
                else f"the {name} bonus (no points for you)"
            )
        else:
            covered.append(
                f"the {_species(before, kind)} bonus space with {_species(before, fish)} (no bonus)"
            )
    gained = 0 if ghost else placement_bonus(game, action, colour)
    if covered:
        parts.append(f"{who} covers " + " and ".join(covered))
    elif not ghost:
        own = action.fish.count(SPECIES[colour])
        parts.append(
            f"places your tile ({own} {_species(before, colour)}) in cetarium {action.cetarium}, "
            f"slot {action.slot}"
        )
    else:
        parts.append(f"places {who} in cetarium {action.cetarium}, slot {action.slot}")
    after = before.clone()
    after.apply_action(action)
    mine = game.seating.colours_of(before.current_player())
    touched = sorted({line for line in range(2 * board.size) if set(cells) & set(board.line_cells[line])})
    for line in touched:
        worker = before.workers[line]
        if worker is None:
            continue
        wcolour, kind = worker
        was, now = _count(before, line, wcolour), _count(after, line, wcolour)
        if was == now:
            continue
        name = _species(before, wcolour)
        if owner[wcolour] is not None and wcolour in mine:
            parts.append(
                f"{_line_word(board, line)}, where your {_kind(kind)} stands, goes from {was} to {now} "
                f"{name}: worth {board.points(now, kind == 'D')} if the game ended now "
                f"(was {board.points(was, kind == 'D')})"
            )
        else:
            parts.append(
                f"it also adds {now - was} {name} to {_line_word(board, line)} of "
                f"{game.tiles.species[wcolour].colour}'s {_kind(kind)}"
            )
    if gained and not covered:
        parts.append(f"+{gained} in bonuses")
    return parts


def _worker(state: Any, action: Any, colour: int, seat: int) -> str:
    """The line a worker claims: its fish of the colour's species and the chart's points now."""
    board = state.game.board
    name = _species(state, colour)
    your = "your"
    if len(state.game.seating.colours_of(seat)) > 1:  # two colours a player: say which
        your = f"your {state.game.tiles.species[colour].colour}"
    if isinstance(action, Worker):
        count = _count(state, action.line, colour)
        points = score_lines(board, state.cells, [None] * action.line + [[colour, action.kind]])[0][4]
        free = _empty(state, action.line)
        more = f", with {free} cells still empty" if free else ", with no cell left empty"
        return (
            f"{your} {_kind(action.kind)} claims {_line_word(board, action.line)}, which holds {count} {name}"
            f"{more}: worth {points} if the game ended now"
        )
    if isinstance(action, Pass):
        pool = state.pool[state.game.pool_owner(colour)]
        lines = [line for line in board.lines[state.cetarium] if state.workers[line] is None]
        best = max((_count(state, line, colour) for line in lines), default=0)
        keeps = f"{your} dominus" if pool[1] and not pool[0] else f"{your} workers"
        return (
            f"pass: keep {keeps} for a better line (the best line open here holds {best} {name}, "
            f"worth {board.points(best, False)} to a vilicus now)"
        )
    return str(action)


# -- one plain sentence ------------------------------------------------------------------------------
CORNERS = ("top-left", "top-right", "bottom-left", "bottom-right")


def sentence(before: Any, action: Any, after: Any, seat: int, follow: list[Any]) -> str:
    """What the move (and the worker or tile it opens) does and why, in one sentence."""
    colour = before.current_colour()
    state = before
    parts = []
    if isinstance(action, Choose):
        parts.append(f"name cetarium {action.cetarium} for this round")
        state = before.clone()
        state.apply_action(action)
        tile = next((a for a in follow if isinstance(a, Place)), None)
        if tile is not None:
            parts.append(_placing(state, tile, state.current_colour(), False))
    elif isinstance(action, Place):
        parts.append(_placing(before, action, colour, before.phase == "ghost"))
        worker = next((a for a in follow if isinstance(a, Worker | Pass)), None)
        if worker is not None:
            state = before.clone()
            state.apply_action(action)
            parts.append(_claiming(state, worker, colour))
    else:
        parts.append(_claiming(before, action, colour))
    text = ", then ".join(parts)
    return text[0].upper() + text[1:] + "."


def _placing(state: Any, action: Place, colour: int, ghost: bool) -> str:
    """The tile placed, where, and the bonus it earns."""
    board = state.game.board
    names = [SPECIES_NAMES.get(f, f) for f in action.fish]
    fish = f"{len(names)} {names[0]}" if len(set(names)) == 1 else ", ".join(names)
    corner = CORNERS[action.slot - 1] if 1 <= action.slot <= 4 else f"slot {action.slot}"
    whose = "the ghost's tile" if ghost else "your tile"
    text = f"place {whose} ({fish}) in cetarium {action.cetarium}, {corner}"
    gained = 0 if ghost else placement_bonus(state.game, action, colour)
    if gained:
        text += f", earning {gained} bonus point{'s' if gained != 1 else ''}"
    mine = state.game.seating.colours_of(state.current_player())
    cells = set(board.slot_cells[action.cetarium, action.slot])
    fed = [
        line
        for line in range(2 * board.size)
        if state.workers[line] is not None
        and state.workers[line][0] in mine
        and cells & set(board.line_cells[line])
        and SPECIES[state.workers[line][0]] in action.fish
    ]
    if fed:
        text += f", adding fish to {_line(board, fed[0])} where your worker stands"
    return text


def _claiming(state: Any, action: Any, colour: int) -> str:
    """The worker placed (or kept) and what its line is worth."""
    board = state.game.board
    name = _species(state, colour)
    if isinstance(action, Pass):
        return f"keep your workers for a better line later (no open line here holds much {name} yet)"
    if not isinstance(action, Worker):
        return str(action)
    count = _count(state, action.line, colour)
    points = board.points(count, action.kind == "D")
    worth = (
        f"worth {points} point{'s' if points != 1 else ''} if the game ended now"
        if points >= 0
        else f"costing {-points} point{'s' if points != -1 else ''} if the game ended now, "
        f"with {_empty(state, action.line)} cells left to fill"
    )
    return f"put your {_kind(action.kind)} on {_line(board, action.line)}, which holds {count} {name} so far: {worth}"


def _line(board: Any, line: int) -> str:
    name = board.line_name(line)
    return f"{'row' if line < board.size else 'column'} {name[1:] if name[:1] in 'hv' else name}"
