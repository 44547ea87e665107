"""Recruit: active workers into the tribe, the Druid Order, refilling the active workers and release.

A Recruit enlists up to 1 + nobles (active and in the tribe, and extra workers) active workers,
at most the data's maximum. Then the tribe may send the workers a Druid tile of the region asks
for to the Druid Order (taking the tile), and pay cards for a druid worker; the player takes
workers from the centre back up to three active ones, and releases tribe workers down to 8.
"""

from __future__ import annotations

from .actions import ACT, Act
from .board import D, N
from .core import BONUS_RECRUIT, DRUID, DRUID_PAY, RECRUIT_PICK, REFILL, RELEASE, CeltaeBase
from .order import end_turn
from .progress import stack_emptied
from .supply import discard_card, draw_worker


def start_recruit(s: CeltaeBase, p: int) -> None:
    ctx = s.ctx
    ctx.recruit_max = min(s.data.recruit_max, 1 + s.active[p][N] + s.tribe[p][N] + ctx.boost)
    ctx.recruited = 0
    s.phase = RECRUIT_PICK


def enlist_actions(s: CeltaeBase) -> list[Act]:
    """Active workers to enlist; ``done`` once one is (the recruit bonus: at any time)."""
    act = s.active[s.turn]
    out = [ACT[("enlist", t, -1)] for t in range(4) if act[t]]
    if s.phase == BONUS_RECRUIT or s.ctx.recruited:
        out.append(ACT[("done", -1, -1)])
    return out


def enlist(s: CeltaeBase, a: Act) -> None:
    p = s.turn
    ctx = s.ctx
    if a.verb == "enlist":
        s.active[p][a.a] -= 1
        s.tribe[p][a.a] += 1
        ctx.recruited += 1
        if ctx.recruited < ctx.recruit_max and sum(s.active[p]) > 0:
            return
    enter_druid(s, p)


# -- the Druid Order ------------------------------------------------------------------------------
def druid_tile_actions(s: CeltaeBase, p: int) -> list[Act]:
    """Taking the region's top Druid tile, if the tribe has the workers it asks for (which type
    goes for each wildcard is the player's choice)."""
    stack = s.druid[s.ctx.region]
    if not stack:
        return []
    _pts, needs, wild = s.data.druid_tiles[stack[-1]]
    tr = s.tribe[p]
    if any(tr[t] < needs[t] for t in range(4)):
        return []
    if not wild:
        return [ACT[("druid", -1, -1)]]
    return [ACT[("druid", t, -1)] for t in range(4) if tr[t] - needs[t] >= wild]


def druid_actions(s: CeltaeBase) -> list[Act]:
    return druid_tile_actions(s, s.turn) + [ACT[("done", -1, -1)]]


def enter_druid(s: CeltaeBase, p: int) -> None:
    if druid_tile_actions(s, p):
        s.phase = DRUID
    else:
        enter_refill(s, p)


def druid(s: CeltaeBase, a: Act) -> None:
    if a.verb == "done":
        enter_refill(s, s.turn)
        return
    take_druid_tile(s, s.turn, a.a)


def take_druid_tile(s: CeltaeBase, p: int, wild_type: int) -> None:
    """The tile's workers go back to the bag; a druid worker may be bought next."""
    region = s.ctx.region
    tile = s.druid[region].pop()
    s.closing |= bool(s.druid[region])  # the next tile turns up
    _pts, needs, wild = s.data.druid_tiles[tile]
    tr = s.tribe[p]
    for t in range(4):
        tr[t] -= needs[t]
        s.bag[t] += needs[t]
    if wild:
        tr[wild_type] -= wild
        s.bag[wild_type] += wild
    s.druid_won[p].append(tile)
    if not s.druid[region]:
        stack_emptied(s, p, region, druid=True)
    if s.druid_supply[region] > 0 and sum(s.hands[p]) >= tr[D] + 1:
        s.ctx.druid_paid = 0
        s.phase = DRUID_PAY
    else:
        enter_refill(s, p)


def druid_pay_actions(s: CeltaeBase) -> list[Act]:
    hand = s.hands[s.turn]
    out = [ACT[("pay", k, -1)] for k in range(12) if hand[k]]
    if not s.ctx.druid_paid:
        out.append(ACT[("done", -1, -1)])
    return out


def druid_pay(s: CeltaeBase, a: Act) -> None:
    """A druid worker costs one card more than the druids already in the tribe."""
    p = s.turn
    ctx = s.ctx
    if a.verb == "done":
        enter_refill(s, p)
        return
    discard_card(s, p, a.a)
    ctx.druid_paid += 1
    if ctx.druid_paid >= s.tribe[p][D] + 1:
        s.tribe[p][D] += 1
        s.druid_supply[ctx.region] -= 1
        enter_refill(s, p)


# -- refill and release ---------------------------------------------------------------------------
def enter_refill(s: CeltaeBase, p: int) -> None:
    s.phase = REFILL
    continue_refill(s, p)


def continue_refill(s: CeltaeBase, p: int) -> None:
    """Workers from the centre up to three active ones, asking only when the types differ."""
    act = s.active[p]
    while sum(act) < 3:
        kinds = {t for t in s.centre if t >= 0}
        if not kinds:
            break
        if len(kinds) > 1:
            return  # the player chooses
        take_from_centre(s, p, next(i for i, t in enumerate(s.centre) if t >= 0))
    if sum(s.tribe[p]) > s.data.tribe_size:
        s.phase = RELEASE
    else:
        end_turn(s)


def take_from_centre(s: CeltaeBase, p: int, i: int) -> None:
    t = s.centre[i]
    s.active[p][t] += 1
    s.centre[i] = draw_worker(s)


def refill_actions(s: CeltaeBase) -> list[Act]:
    seen: set[int] = set()
    out: list[Act] = []
    for i, t in enumerate(s.centre):
        if t >= 0 and t not in seen:
            seen.add(t)
            out.append(ACT[("centre", i, -1)])
    return out


def refill(s: CeltaeBase, a: Act) -> None:
    take_from_centre(s, s.turn, a.a)
    continue_refill(s, s.turn)


def release_actions(s: CeltaeBase) -> list[Act]:
    tribe = s.tribe[s.turn]
    return [ACT[("release", t, -1)] for t in range(5) if tribe[t]]


def release(s: CeltaeBase, a: Act) -> None:
    """A tribe worker back to the bag (a druid to the box)."""
    p = s.turn
    s.tribe[p][a.a] -= 1
    if a.a == D:
        s.druid_box += 1
    else:
        s.bag[a.a] += 1
    if sum(s.tribe[p]) <= s.data.tribe_size:
        end_turn(s)
