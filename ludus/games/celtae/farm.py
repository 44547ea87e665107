"""Farm: the market's first card free, then cards bought with the farmers' budget.

The budget is one per farmer (active farmers, farmers and druids in the tribe, extra
workers); each market position costs what the data says. The market is refilled after.
"""

from __future__ import annotations

from .actions import ACT, Act
from .board import D, F
from .core import FARM_PICK, CeltaeBase
from .order import end_turn
from .supply import refill_market, take_from_market


def start_farm(s: CeltaeBase, p: int) -> None:
    ctx = s.ctx
    region = ctx.region
    row = s.market[region]
    if row[0] >= 0:
        k = row[0]
        row[0] = -1
        s.hands[p][k] += 1
        s.known[p][k] += 1
    ctx.taken = 1
    tr = s.tribe[p]
    ctx.budget = s.active[p][F] + tr[F] + tr[D] + ctx.boost
    s.phase = FARM_PICK
    if len(pick_actions(s)) == 1:
        refill_market(s, region)
        end_turn(s)


def pick_actions(s: CeltaeBase) -> list[Act]:
    ctx = s.ctx
    row = s.market[ctx.region]
    costs = s.data.market_costs
    taken = ctx.taken
    budget = ctx.budget
    out = [
        ACT[("take", i, -1)]
        for i in range(1, len(row))
        if row[i] >= 0 and not taken >> i & 1 and costs[i] <= budget
    ]
    out.append(ACT[("done", -1, -1)])
    return out


def pick(s: CeltaeBase, a: Act) -> None:
    ctx = s.ctx
    if a.verb == "take":
        take_from_market(s, s.turn, a.a)
        ctx.budget -= s.data.market_costs[a.a]
        if len(pick_actions(s)) > 1:
            return
    refill_market(s, ctx.region)
    end_turn(s)
