"""The components every action moves, for players and Solitairix alike: the deck and the markets,
the bag of workers and the action areas, discs on citadels, garrison cubes and strength.

Draws come from the state's RNG and mark the step as one that shows something new
(``state.closing``: undo never reaches back across it).
"""

from __future__ import annotations

from ludus.engine.rand import below, shuffle

from .core import CeltaeBase


def draw_worker(s: CeltaeBase) -> int:
    """A worker type drawn from the bag, or -1 when it is empty."""
    bag = s.bag
    total = bag[0] + bag[1] + bag[2] + bag[3]
    if total == 0:
        return -1
    s.closing = True  # a worker comes out of the bag
    x = below(s.rng, total)
    for t in range(4):
        if x < bag[t]:
            bag[t] -= 1
            return t
        x -= bag[t]
    raise AssertionError("bag counts")  # pragma: no cover


def draw_card(s: CeltaeBase) -> int:
    """The deck's top card, or -1 when the deck and the discard pile (but its top) are empty.

    An empty deck is rebuilt from the discard pile shuffled, all but its top card (ruling 12).
    """
    s.closing = True  # a card comes off the deck
    if not s.deck:
        if len(s.discard) <= 1:
            return -1
        top = s.discard[-1]
        rest = s.discard[:-1]
        shuffle(s.rng, rest)
        s.deck = rest
        s.discard = [top]
    return s.deck.pop()


def take_from_market(s: CeltaeBase, p: int, pos: int) -> None:
    """Card ``pos`` of the action's market into ``p``'s hand, in view of everyone."""
    ctx = s.ctx
    row = s.market[ctx.region]
    k = row[pos]
    row[pos] = -1
    s.hands[p][k] += 1
    s.known[p][k] += 1
    ctx.taken |= 1 << pos


def refill_market(s: CeltaeBase, r: int) -> None:
    """Close the gaps of region ``r``'s market and fill it from the deck."""
    size = s.data.market_size
    row = [k for k in s.market[r] if k >= 0]
    while len(row) < size:
        k = draw_card(s)
        if k < 0:
            break
        row.append(k)
    row += [-1] * (size - len(row))
    s.market[r] = row


def discard_card(s: CeltaeBase, p: int, k: int) -> None:
    """A card of kind ``k`` from ``p``'s hand onto the discard pile."""
    s.hands[p][k] -= 1
    if s.known[p][k] > 0:
        s.known[p][k] -= 1
    s.discard.append(k)


def gain_strength(s: CeltaeBase, p: int, x: int) -> None:
    s.strength[p] = max(0, min(s.data.strength_max, s.strength[p] + x))


def refresh_area(s: CeltaeBase, area_idx: int) -> None:
    """The area's workers go to the bag, the centre's take their place, three drawn refill the centre."""
    for t in s.areas[area_idx]:
        if t >= 0:
            s.bag[t] += 1
    s.areas[area_idx] = s.centre
    s.centre = [draw_worker(s) for _ in range(3)]


def put_disc(s: CeltaeBase, owner: int, idx: int) -> None:
    """A disc of ``owner`` on citadel ``idx`` (region * 4 + colour); the last space wins its bonus tile."""
    cit = s.citadels[idx]
    cit[cit.index(-1)] = owner
    s.discs[owner] += 1
    if -1 not in cit:
        s.bonus_owner[idx] = owner


def free_icons(s: CeltaeBase, region: int) -> list[bool]:
    """For each icon, whether the region's garrison has a free space showing it."""
    per = s.data.garrison_per_icon
    row = s.garrison[region]
    return [any(row[i] == -1 for i in range(icon * per, icon * per + per)) for icon in range(3)]


def place_cube(s: CeltaeBase, owner: int, region: int, icon: int) -> bool:
    """A cube of ``owner`` on a free garrison space showing ``icon``; False if none is free."""
    per = s.data.garrison_per_icon
    row = s.garrison[region]
    for i in range(icon * per, icon * per + per):
        if row[i] == -1:
            row[i] = owner
            s.cubes[owner] += 1
            return True
    return False
