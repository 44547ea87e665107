"""The turn on the rondel: move the action marker, choose an action beside it, then refresh,
swap and extra workers before the action itself (Farm, Build, Battle or Recruit).

Moving 1 corner gains strength, 2 nothing, 3 costs strength (``move_strength``); a bonus token
lets the player act anywhere instead (ruling 6). Refreshing the action's area costs strength; one
active worker may be swapped with one of the area's; bonus tokens may be spent as extra workers of
any type. A Build is only offered while the player can still pay for it, and every step before it
keeps that true.
"""

from __future__ import annotations

from . import battle, farm, recruit
from . import board as G
from .actions import ACT, Act
from .board import B, F, N, S
from .build import builders, can_pay
from .core import AREA, BUILD_COLOUR, EXTRA, REFRESH, SWAP, CeltaeBase
from .progress import move
from .supply import gain_strength, refresh_area

_MOVE_1, _MOVE_2, _MOVE_3 = ("move", 1, -1), ("move", 2, -1), ("move", 3, -1)


def swap_gain(s: CeltaeBase, p: int, workers: list[int]) -> int:
    """1 if a swap could bring a builder from ``workers`` for a non-builder."""
    act = s.active[p]
    return 1 if (act[F] + act[S] + act[N]) and B in workers else 0


def build_possible(s: CeltaeBase, p: int, region: int, strength: int) -> bool:
    """Whether ``p`` can still pay for a Build in ``region``, counting a swap, a refresh and tokens."""
    area = s.areas[G.area_of(G.BUILD, region)]
    gain = swap_gain(s, p, area)
    if strength >= s.data.refresh_cost:
        gain = max(gain, swap_gain(s, p, s.centre))
    return can_pay(s, p, region, builders(s, p) + s.tokens[p] + gain)


# -- move ---------------------------------------------------------------------------------------------
def start_actions(s: CeltaeBase) -> list[Act]:
    p = s.turn
    out = [ACT[_MOVE_1], ACT[_MOVE_2]]
    if s.strength[p] >= -s.data.move_strength[2]:
        out.append(ACT[_MOVE_3])
    if s.tokens[p] > 0 and not s.ctx.anywhere:
        out.append(ACT[("anywhere", -1, -1)])
    return out


def start(s: CeltaeBase, a: Act) -> None:
    """Move the marker (strength for the steps), or spend a token to act anywhere."""
    p = s.turn
    if a.verb == "anywhere":
        s.tokens[p] -= 1
        s.token_supply += 1
        s.ctx.anywhere = 1
        if not s.game.config["token_moves_marker"]:
            s.phase = AREA
        return
    move(s, p, a.a)
    gain_strength(s, p, s.data.move_strength[a.a - 1])
    s.phase = AREA


# -- choose the action -------------------------------------------------------------------------------
def area_actions(s: CeltaeBase) -> list[Act]:
    p = s.turn
    out = []
    for kind, region in G.ANYWHERE if s.ctx.anywhere else G.ADJACENT[s.marker]:
        if kind == G.BUILD and not build_possible(s, p, region, s.strength[p]):
            continue
        if kind == G.RECRUIT and not sum(s.active[p]):
            continue
        out.append(ACT[("act", kind, region)])
    return out


def choose_area(s: CeltaeBase, a: Act) -> None:
    ctx = s.ctx
    ctx.kind, ctx.region = a.a, a.b
    ctx.area = G.area_of(a.a, a.b)
    enter_refresh(s, s.turn)


# -- refresh ------------------------------------------------------------------------------------------
def enter_refresh(s: CeltaeBase, p: int) -> None:
    if s.strength[p] >= s.data.refresh_cost:
        s.phase = REFRESH
        acts = refresh_actions(s)
        if len(acts) == 1 and acts[0].verb == "done":
            enter_swap(s, p)
        return
    enter_swap(s, p)


def refresh_actions(s: CeltaeBase) -> list[Act]:
    ctx = s.ctx
    if ctx.kind != G.BUILD:
        return [ACT[("refresh", -1, -1)], ACT[("done", -1, -1)]]
    p = s.turn
    out = []
    base = builders(s, p) + s.tokens[p]
    region = ctx.region
    if can_pay(s, p, region, base + swap_gain(s, p, s.centre)):
        out.append(ACT[("refresh", -1, -1)])
    if can_pay(s, p, region, base + swap_gain(s, p, s.areas[ctx.area])):
        out.append(ACT[("done", -1, -1)])
    return out


def refresh(s: CeltaeBase, a: Act) -> None:
    p = s.turn
    if a.verb == "refresh":
        s.strength[p] -= s.data.refresh_cost
        refresh_area(s, s.ctx.area)
    enter_swap(s, p)


# -- swap ---------------------------------------------------------------------------------------------
def enter_swap(s: CeltaeBase, p: int) -> None:
    s.phase = SWAP
    acts = swap_actions(s)
    if len(acts) == 1 and acts[0].verb == "done":
        enter_extra(s, p)


def swap_actions(s: CeltaeBase) -> list[Act]:
    """Swaps of an active worker with a different one of the area (a Build stays payable)."""
    p = s.turn
    ctx = s.ctx
    act = s.active[p]
    area = s.areas[ctx.area]
    build = ctx.kind == G.BUILD
    region = ctx.region
    base = builders(s, p) + s.tokens[p] if build else 0
    out = []
    for t in range(4):
        if not act[t]:
            continue
        for i in range(3):
            w = area[i]
            if w < 0 or w == t:
                continue
            if build and not can_pay(s, p, region, base + (w == B) - (t == B)):
                continue
            out.append(ACT[("swap", t, i)])
    if not build or can_pay(s, p, region, base):
        out.append(ACT[("done", -1, -1)])
    return out


def swap(s: CeltaeBase, a: Act) -> None:
    p = s.turn
    if a.verb == "swap":
        area = s.areas[s.ctx.area]
        w = area[a.b]
        area[a.b] = a.a
        s.active[p][a.a] -= 1
        s.active[p][w] += 1
    enter_extra(s, p)


# -- extra workers ------------------------------------------------------------------------------------
def enter_extra(s: CeltaeBase, p: int) -> None:
    if s.tokens[p] > 0:
        s.phase = EXTRA
    else:
        perform(s, p)


def extra_actions(s: CeltaeBase) -> list[Act]:
    p = s.turn
    ctx = s.ctx
    out = [ACT[("extra", -1, -1)]]
    if ctx.kind != G.BUILD or can_pay(s, p, ctx.region, builders(s, p)):
        out.append(ACT[("done", -1, -1)])
    return out


def extra(s: CeltaeBase, a: Act) -> None:
    p = s.turn
    if a.verb == "extra":
        s.tokens[p] -= 1
        s.token_supply += 1
        s.ctx.boost += 1
        if s.tokens[p] > 0:
            return
    perform(s, p)


def perform(s: CeltaeBase, p: int) -> None:
    """The action itself."""
    kind = s.ctx.kind
    if kind == G.FARM:
        farm.start_farm(s, p)
    elif kind == G.BUILD:
        s.phase = BUILD_COLOUR
    elif kind == G.BATTLE:
        battle.start_battle(s, p)
    else:
        recruit.start_recruit(s, p)
