"""Hidden information: a full state consistent with what one seat knows (for search bots).

Hidden from a seat: the deck's order, the part of other hands not taken in view of everyone,
the tiles under the top of each Roman and Druid stack, and leader flips chosen but not yet
revealed. What a seat sees is ``observe.observe``.
"""

from __future__ import annotations

import random

from ludus.engine.rand import below, shuffle

from . import board as G
from .build import builders, can_pay
from .core import BUILD_COLOUR, BUILD_PAY, EXTRA, P_FLIP, REFRESH, SWAP, CeltaeBase
from .turn import build_possible, swap_actions

RESAMPLE_TRIES = 200  # re-deals tried for a hand that must still pay for a Build under way


def resample(s: CeltaeBase, seat: int, rng: random.Random) -> None:
    """Re-deal everything ``seat`` cannot see, in place."""
    deal_hidden_cards(s, seat, rng)
    # the tiles under the top of each Roman and Druid stack
    for stacks, won_lists, tiles in (
        (s.roman, s.roman_won, s.data.roman_tiles),
        (s.druid, s.druid_won, s.data.druid_tiles),
    ):
        seen = {x[-1] for x in stacks if x}
        seen.update(t for won in won_lists for t in won)
        for pts in (1, 2):
            free = [i for i in range(len(tiles)) if tiles[i][0] == pts and i not in seen]
            shuffle(rng, free)
            for x in stacks:
                for j in range(len(x) - 1):
                    if tiles[x[j]][0] == pts:
                        x[j] = free.pop()
    # leader flips chosen but not yet revealed
    if s.pending and s.pending[0][0] == P_FLIP:
        for q in range(s.n):
            if q != seat and s.flip_choice[q] >= 0:
                s.flip_choice[q] = below(rng, 2)


def deal_hidden_cards(s: CeltaeBase, seat: int, rng: random.Random) -> None:
    """Re-deal the deck and the unknown part of other hands (a Build under way stays payable)."""
    pool = list(s.deck)
    unknown_counts = []
    for q in range(s.n):
        if q == seat:
            unknown_counts.append(0)
            continue
        hidden = [s.hands[q][k] - s.known[q][k] for k in range(12)]
        for k in range(12):
            pool += [k] * hidden[k]
        unknown_counts.append(sum(hidden))
    true_hands, true_deck = s.hands, s.deck
    for _ in range(RESAMPLE_TRIES):
        shuffle(rng, pool)
        rest = list(pool)
        hands = [h if q == seat else list(s.known[q]) for q, h in enumerate(true_hands)]
        for q in range(s.n):
            if q != seat:
                for _ in range(unknown_counts[q]):
                    hands[q][rest.pop()] += 1
        s.hands, s.deck = hands, rest
        if build_still_payable(s):
            return
    # a Build begun by another seat that almost no deal can pay for: keep the true cards
    s.hands, s.deck = true_hands, true_deck


def build_still_payable(s: CeltaeBase) -> bool:
    """Whether the mover can still pay for the Build they have chosen (a re-dealt hand must)."""
    p, ctx, ph = s.turn, s.ctx, s.phase
    if p >= s.n or ctx.kind != G.BUILD:
        return True
    region = ctx.region
    if ph == BUILD_PAY:
        c = ctx.colour
        return sum(s.hands[p][3 * c : 3 * c + 3]) >= ctx.pay
    if ph == BUILD_COLOUR:
        return can_pay(s, p, region, builders(s, p))
    if ph == EXTRA:
        return can_pay(s, p, region, builders(s, p) + s.tokens[p])
    if ph == SWAP:
        return bool(swap_actions(s))
    if ph == REFRESH:
        return build_possible(s, p, region, s.strength[p])
    return True
