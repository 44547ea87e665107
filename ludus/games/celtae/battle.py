"""Battle: discard cards of one icon for strength, fight the Roman Army, place a garrison cube.

Each card discarded gives one strength per soldier (active soldiers, soldiers and druids in the
tribe, extra workers; at most the data's cap). Beating the region's top Roman tile costs its
strength and wins it; a winner may then discard a card to place a cube on a free garrison space
showing the card's icon.
"""

from __future__ import annotations

from .actions import ACT, Act
from .board import D, S
from .core import BATTLE_DISCARD, FIGHT, GARRISON, CeltaeBase
from .order import end_turn
from .progress import stack_emptied
from .supply import discard_card, free_icons, gain_strength, place_cube


def start_battle(s: CeltaeBase, p: int) -> None:
    ctx = s.ctx
    tr = s.tribe[p]
    soldiers = s.active[p][S] + tr[S] + tr[D] + ctx.boost
    ctx.budget = min(soldiers, s.data.soldier_cap)
    if ctx.budget > 0 and sum(s.hands[p]) > 0:
        s.phase = BATTLE_DISCARD
    else:
        enter_fight(s, p)


def discard_actions(s: CeltaeBase) -> list[Act]:
    """Cards to discard: any at first, then only of the first one's icon."""
    hand = s.hands[s.turn]
    icon = s.ctx.icon
    out = [ACT[("discard", k, -1)] for k in range(12) if hand[k] and (icon < 0 or k % 3 == icon)]
    out.append(ACT[("done", -1, -1)])
    return out


def discard(s: CeltaeBase, a: Act) -> None:
    p = s.turn
    ctx = s.ctx
    if a.verb == "discard":
        discard_card(s, p, a.a)
        ctx.icon = a.a % 3
        gain_strength(s, p, ctx.budget)
        if any(s.hands[p][k] for k in range(ctx.icon, 12, 3)):
            return
    enter_fight(s, p)


def enter_fight(s: CeltaeBase, p: int) -> None:
    stack = s.roman[s.ctx.region]
    if stack and s.strength[p] >= s.data.roman_tiles[stack[-1]].strength:
        s.phase = FIGHT
    else:
        end_turn(s)


def fight_actions(s: CeltaeBase) -> list[Act]:
    return [ACT[("fight", -1, -1)], ACT[("done", -1, -1)]]


def fight(s: CeltaeBase, a: Act) -> None:
    """The top Roman tile won for its strength; its stack's marker if it was the last."""
    if a.verb == "done":
        end_turn(s)
        return
    p = s.turn
    region = s.ctx.region
    tile = s.roman[region].pop()
    s.closing |= bool(s.roman[region])  # the next tile turns up
    s.strength[p] -= s.data.roman_tiles[tile].strength
    s.roman_won[p].append(tile)
    if not s.roman[region]:
        stack_emptied(s, p, region)
    enter_garrison(s, p)


def enter_garrison(s: CeltaeBase, p: int) -> None:
    if s.cubes[p] < s.data.cubes:
        free = free_icons(s, s.ctx.region)
        hand = s.hands[p]
        if any(hand[k] and free[k % 3] for k in range(12)):
            s.phase = GARRISON
            return
    end_turn(s)


def garrison_actions(s: CeltaeBase) -> list[Act]:
    hand = s.hands[s.turn]
    free = free_icons(s, s.ctx.region)
    out = [ACT[("garrison", k, -1)] for k in range(12) if hand[k] and free[k % 3]]
    out.append(ACT[("done", -1, -1)])
    return out


def garrison(s: CeltaeBase, a: Act) -> None:
    if a.verb == "garrison":
        discard_card(s, s.turn, a.a)
        place_cube(s, s.turn, s.ctx.region, a.a % 3)
    end_turn(s)
