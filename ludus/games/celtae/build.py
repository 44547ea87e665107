"""Build: a disc on a citadel of the action's region, paid with cards of the citadel's colour.

The next disc costs what its hole on the player board shows, less one per builder (active
builders, builders and druids in the tribe, bonus tokens spent as extra workers), at least one
card. The disc filling a citadel's last space wins its bonus tile; the bonus of the space's
tile (a token, strength, a recruit or market draws) is taken at once.
"""

from __future__ import annotations

from .actions import ACT, Act
from .board import B, D
from .core import BONUS_DRAW, BONUS_RECRUIT, BUILD_PAY, CeltaeBase
from .order import end_turn
from .recruit import enter_refill
from .supply import discard_card, gain_strength, put_disc, refill_market, take_from_market


def builders(s: CeltaeBase, p: int) -> int:
    """Builders ``p`` brings to a Build now."""
    return s.active[p][B] + s.tribe[p][B] + s.tribe[p][D] + s.ctx.boost


def can_pay(s: CeltaeBase, p: int, region: int, builders: int, colour: int = -1) -> bool:
    """Whether ``p`` with ``builders`` can pay for a disc on a citadel (of ``colour``, or any) of ``region``."""
    d = s.data
    if s.discs[p] >= len(d.disc_costs):
        return False
    need = max(1, d.disc_costs[s.discs[p]] - builders)
    hand = s.hands[p]
    for c in range(4) if colour < 0 else (colour,):
        if -1 in s.citadels[region * 4 + c] and hand[3 * c] + hand[3 * c + 1] + hand[3 * c + 2] >= need:
            return True
    return False


def colour_actions(s: CeltaeBase) -> list[Act]:
    p = s.turn
    region = s.ctx.region
    b = builders(s, p)
    return [ACT[("citadel", c, -1)] for c in range(4) if can_pay(s, p, region, b, c)]


def pay_actions(s: CeltaeBase) -> list[Act]:
    hand = s.hands[s.turn]
    c = s.ctx.colour
    return [ACT[("pay", k, -1)] for k in range(3 * c, 3 * c + 3) if hand[k]]


def choose_colour(s: CeltaeBase, a: Act) -> None:
    p = s.turn
    ctx = s.ctx
    ctx.colour = a.a
    ctx.pay = max(1, s.data.disc_costs[s.discs[p]] - builders(s, p))
    s.phase = BUILD_PAY
    auto_pay(s, p)


def pay(s: CeltaeBase, a: Act) -> None:
    p = s.turn
    discard_card(s, p, a.a)
    s.ctx.pay -= 1
    auto_pay(s, p)


def auto_pay(s: CeltaeBase, p: int) -> None:
    """Pay without asking when only one way is left; place the disc once paid."""
    ctx = s.ctx
    c = ctx.colour
    hand = s.hands[p]
    while ctx.pay > 0:
        kinds = [k for k in range(3 * c, 3 * c + 3) if hand[k]]
        if len(kinds) > 1 and sum(hand[k] for k in kinds) > ctx.pay:
            return
        discard_card(s, p, kinds[0])
        ctx.pay -= 1
    place_disc(s, p, ctx.region, c)


def place_disc(s: CeltaeBase, p: int, region: int, colour: int) -> None:
    """The paid disc on the citadel, and the bonus of its space's tile."""
    idx = region * 4 + colour
    put_disc(s, p, idx)
    d = s.data
    kind = d.bonus_kinds[s.bonus_at[idx]]
    if kind == "token":
        if s.token_supply > 0:
            s.token_supply -= 1
            s.tokens[p] += 1
    elif kind == "strength":
        gain_strength(s, p, d.strength_gain)
    elif kind == "recruit":
        if sum(s.active[p]):
            s.phase = BONUS_RECRUIT
            return
    elif kind == "draw" and any(k >= 0 for k in s.market[region]):
        s.ctx.draws = d.draw_count
        s.ctx.taken = 0
        s.phase = BONUS_DRAW
        return
    end_turn(s)


# -- the bonus tiles that ask for a decision ------------------------------------------------------
def bonus_recruit(s: CeltaeBase, a: Act) -> None:
    """The recruit bonus: one active worker into the tribe (then refill and release), or not."""
    if a.verb == "done":
        end_turn(s)
        return
    p = s.turn
    s.active[p][a.a] -= 1
    s.tribe[p][a.a] += 1
    enter_refill(s, p)


def draw_actions(s: CeltaeBase) -> list[Act]:
    row = s.market[s.ctx.region]
    taken = s.ctx.taken
    out = [ACT[("take", i, -1)] for i in range(len(row)) if row[i] >= 0 and not taken >> i & 1]
    out.append(ACT[("done", -1, -1)])
    return out


def bonus_draw(s: CeltaeBase, a: Act) -> None:
    """The draw bonus: market cards of the region, free, up to the bonus's count."""
    ctx = s.ctx
    if a.verb == "take":
        take_from_market(s, s.turn, a.a)
        ctx.draws -= 1
        if ctx.draws > 0 and any(k2 >= 0 for k2 in s.market[ctx.region]):
            return
    refill_market(s, ctx.region)
    end_turn(s)
