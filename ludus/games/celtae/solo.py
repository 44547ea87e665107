"""Solitairix, the solo opponent: its turn runs automatically from the state's RNG.

The turn pauses after the move when it leaves progress decisions to the human (rulings 5, 30).

It draws the top card: same colour as the discard pile's top card moves the marker 2
corners (else 1); same icon rotates the solo tile twice (else once). The active quarter
lists actions in priority (ending in Farm), the worker swap and the market positions a
Farm discards. Build, Battle and Recruit give it no bonus; markers beside stacks it
empties are discarded. A summary of the turn is kept in ``state.last_sx`` for display: its
first six fields are the last turn, the seventh every turn so far (``turns``), a tuple shared
by copies of the state (a clone copies one reference, not the game's whole solo history).
"""

from __future__ import annotations

from . import board as G
from .core import CeltaeBase
from .progress import move, stack_emptied
from .supply import draw_card, place_cube, put_disc, refill_market, refresh_area

SX = 1  # Solitairix's owner index in solo games
# one entry of ``turns``: the last-turn fields, then the history length when the turn ended (it is
# shown after that many actions), the marker's corner, the workers given and taken by its swap (-1:
# none) and the cards a Farm discarded (padded with -1), then what its action won: the Roman or
# druid tile (-1: none) and the icon of the garrison space its cube went to (-1: none); a turn saved
# before these two were kept has none (``won`` reads them)
TURN_FIELDS = ("card", "steps", "quarter", "kind", "region", "swap", "ply", "marker", "gave", "took")
MAX_DISCARDS = 4
WON_FIELDS = ("tile", "cube")


def solitairix_turn(state: CeltaeBase) -> bool:
    """Play Solitairix's turn, or resume it after its move.

    Returns False when its move left progress decisions to the human (a crossing, the flip):
    they are taken at once, inside the move (ruling 5), so the turn stops there and the
    state resumes it once they are done.
    """
    d = state.data
    ctx = state.ctx
    if not ctx.sx_moved:
        card = draw_card(state)
        top = state.discard[-1] if state.discard else -1
        same_colour = card >= 0 and top >= 0 and card // 3 == top // 3
        same_icon = card >= 0 and top >= 0 and card % 3 == top % 3
        steps = 2 if same_colour else 1
        ctx.sx_card, ctx.sx_steps, ctx.sx_moved = card, steps, 1
        move(state, SX, steps)
        state.sx_quarter = (state.sx_quarter + (2 if same_icon else 1)) % 4
        if state.pending:
            return False
    card, steps = ctx.sx_card, ctx.sx_steps
    actions, swap, discards = d.solo_sides[state.sx_side][state.sx_quarter]
    region = G.CORNER_REGION[state.marker]
    adjacent = {k for k, r in G.ADJACENT[state.marker]}
    chosen = G.FARM
    for kind in actions:
        if state.game.config["solo_adjacent"] and kind not in adjacent:
            continue
        if possible(state, kind, region, card):
            chosen = kind
            break
    area = G.area_of(chosen, region)
    gave, took = do_swap(state, area, swap)
    dropped, won = perform(state, chosen, region, card, discards)
    if card >= 0:
        state.discard.append(card)
    last = (card, steps, state.sx_quarter, chosen, region, swap)
    entry = (
        *last,
        state.move_number() + 1,
        state.marker,
        gave,
        took,
        *(dropped + [-1] * MAX_DISCARDS)[:MAX_DISCARDS],
        *won,
    )
    state.last_sx = [*last, (*turns(state), entry)]
    return True


def turns(state: CeltaeBase) -> tuple[tuple[int, ...], ...]:
    """Every turn Solitairix finished, in order (``TURN_FIELDS`` then the discarded cards)."""
    if len(state.last_sx) < 7:
        return ()
    return tuple(tuple(t) for t in state.last_sx[6])  # lists once read back from JSON


def won(entry: tuple[int, ...]) -> dict[str, int]:
    """``WON_FIELDS`` of a turn entry (-1 each for a turn saved before they were kept)."""
    extra = entry[len(TURN_FIELDS) + MAX_DISCARDS :]
    return {name: int(extra[i]) if i < len(extra) else -1 for i, name in enumerate(WON_FIELDS)}


def possible(state: CeltaeBase, kind: int, region: int, card: int) -> bool:
    """Whether Solitairix can take ``kind`` (it skips only for the rulebook's reasons)."""
    if kind == G.FARM:
        return True
    if kind == G.BUILD:
        return (
            card >= 0
            and state.discs[SX] < len(state.data.disc_costs)
            and -1 in state.citadels[region * 4 + card // 3]
        )
    if kind == G.BATTLE:
        return bool(state.roman[region])
    return bool(state.druid[region])


def do_swap(state: CeltaeBase, area: int, swap: int) -> tuple[int, int]:
    """Refresh (free, no swap) or swap its worker with the left, middle or right one; returns the
    worker types it gave and took (-1, -1 when none changed hands)."""
    if swap == 0:
        refresh_area(state, area)
        return -1, -1
    slot = swap - 1
    row = state.areas[area]
    if row[slot] < 0 or state.sx_worker < 0:
        return -1, -1
    gave, took = state.sx_worker, row[slot]
    row[slot], state.sx_worker = state.sx_worker, row[slot]
    return gave, took


def perform(
    state: CeltaeBase, kind: int, region: int, card: int, discards: tuple[int, ...]
) -> tuple[list[int], tuple[int, int]]:
    """Take the action; returns the market cards a Farm discarded, and the tile won and the icon of
    the garrison space taken (``WON_FIELDS``, -1 when none)."""
    dropped: list[int] = []
    tile = cube = -1
    if kind == G.FARM:
        row = state.market[region]
        for i in discards:
            if row[i] >= 0:
                dropped.append(row[i])
                state.discard.append(row[i])
                row[i] = -1
        refill_market(state, region)
    elif kind == G.BUILD:
        put_disc(state, SX, region * 4 + card // 3)
    elif kind == G.BATTLE:
        tile = state.roman[region].pop()
        state.roman_won[SX].append(tile)
        if not state.roman[region]:
            stack_emptied(state, SX, region)
        if card >= 0 and state.cubes[SX] < state.data.cubes and place_cube(state, SX, region, card % 3):
            cube = card % 3
    else:
        tile = state.druid[region].pop()
        state.druid_won[SX].append(tile)
        if not state.druid[region]:
            stack_emptied(state, SX, region, druid=True)
        if state.druid_supply[region] > 0:
            state.druid_supply[region] -= 1
            state.tribe[SX][G.D] += 1
    return dropped, (tile, cube)
