"""Set-up: the board, the components by player count, the leaders offered and the first hands.

Then the set-up decisions: in reverse seat order each seat chooses a leader among those
offered and discards set-up cards; the first turn follows.
"""

from __future__ import annotations

from typing import cast

from . import order
from .actions import ACT, Act
from .board import SE, B, D, F, S
from .core import LEADER, SETUP_DISCARD, CeltaeBase, CeltaeRules, TurnContext
from .data import CeltaeData
from .supply import discard_card, draw_card, draw_worker, refill_market


def setup(s: CeltaeBase) -> None:
    """A new game from the game's options (chance from the state's RNG)."""
    game = cast(CeltaeRules, s.game)
    d = s.data = game.data
    n = s.n = game.config["players"]
    s.solo = 1 if n == 1 else 0
    s.np = n + s.solo
    s.phase = LEADER
    s.turn = 0
    s.turns_left = 1
    s.stage = 0
    s.marker = SE
    s.ctx = TurnContext()
    _cards(s, d)
    _player_boards(s, d)
    _workers(s, d, _worker_counts(s, d))
    _citadels(s, d)
    _stacks_and_garrisons(s, d)
    _progress(s, d)
    _leaders_and_hands(s, d)
    s.pending = []
    s.sx_side = s.rng.randrange(len(d.solo_sides)) if s.solo else 0
    s.sx_quarter = 0
    s.sx_discarded_markers = 0
    s.last_sx = []


def _cards(s: CeltaeBase, d: CeltaeData) -> None:
    deck = [k for k in range(12) for _ in range(d.copies)]
    s.rng.shuffle(deck)
    s.deck = deck
    s.discard = []
    s.market = [[-1] * d.market_size for _ in range(2)]
    for r in (0, 1):
        refill_market(s, r)
    s.hands = [[0] * 12 for _ in range(s.np)]
    s.known = [[0] * 12 for _ in range(s.np)]


def _player_boards(s: CeltaeBase, d: CeltaeData) -> None:
    """Strength, tokens, discs and cubes."""
    n, np_ = s.n, s.np
    s.strength = [0] * np_
    s.tokens = [d.tokens_start] * n + [0] * s.solo
    s.token_supply = d.tokens_total - d.tokens_start * n
    s.discs = [0] * np_
    s.cubes = [0] * np_


def _worker_counts(s: CeltaeBase, d: CeltaeData) -> list[int]:
    """Each player's three starting workers, Solitairix's, and the counts left for the board."""
    n = s.n
    setup_n = 2 if s.solo else n
    counts = list(d.workers[:4])
    for t in (F, B, S):
        counts[t] -= 4 - setup_n  # returned to the box for absent players
    s.active = [[0, 0, 0, 0] for _ in range(s.np)]
    s.tribe = [[0, 0, 0, 0, 0] for _ in range(s.np)]
    for p in range(n):
        s.active[p] = [1, 1, 1, 0]
        for t in (F, B, S):
            counts[t] -= 1
    s.sx_worker = -1
    if s.solo:
        for t in (F, B, S):
            counts[t] -= 1
        s.sx_worker = s.rng.choice((F, B, S))
        for t in (F, B, S):
            if t != s.sx_worker:
                counts[t] += 1  # the other two go to the bag
    return counts


def _workers(s: CeltaeBase, d: CeltaeData, counts: list[int]) -> None:
    """The action areas and the centre: the printed workers, the rest drawn from the bag."""
    slots = []
    for spaces in d.area_setup:
        row = []
        for t in spaces:
            if t >= 0 and counts[t] > 0:
                counts[t] -= 1
                row.append(t)
            else:
                row.append(-1)
        slots.append(row)
    s.bag = counts
    for row in slots:
        for i, t in enumerate(row):
            if t < 0:
                row[i] = draw_worker(s)
    s.areas = slots[:4]
    s.centre = slots[4]


def _citadels(s: CeltaeBase, d: CeltaeData) -> None:
    """Citadel spaces blocked by player count, and the bonus tiles shuffled on each region's four."""
    blocked = d.citadel_blocked[s.n]
    s.citadels = [[-1] * (d.citadel_spaces - blocked) + [-2] * blocked for _ in range(8)]
    s.bonus_at = []
    for _r in (0, 1):
        kinds = list(range(4))
        s.rng.shuffle(kinds)
        s.bonus_at += kinds
    s.bonus_owner = [-1] * 8


def _stacks_and_garrisons(s: CeltaeBase, d: CeltaeData) -> None:
    """Roman and Druid stacks (top = last), druid workers on the tracks, neutral garrison cubes."""
    n = s.n
    s.roman = _stacks(s, [t.points for t in d.roman_tiles], d.roman_stack[n])
    s.druid = _stacks(s, [t.points for t in d.druid_tiles], d.druid_stack[n])
    s.roman_won = [[] for _ in range(s.np)]
    s.druid_won = [[] for _ in range(s.np)]
    s.druid_supply = [d.druid_workers[n]] * 2
    s.druid_box = d.workers[D] - 2 * d.druid_workers[n]
    per = d.garrison_per_icon
    s.garrison = []
    for _r in (0, 1):
        row = [-1] * (3 * per)
        for icon in d.garrison_blocked[n]:
            for i in range(icon * per, icon * per + per):
                if row[i] == -1:
                    row[i] = -2
                    break
        s.garrison.append(row)


def _stacks(s: CeltaeBase, points: list[int], layout: tuple[int, int]) -> list[list[int]]:
    """Two stacks, each of its 2-point tiles under its 1-point tiles (ruling 1)."""
    ones = [i for i, p in enumerate(points) if p == 1]
    twos = [i for i, p in enumerate(points) if p == 2]
    s.rng.shuffle(ones)
    s.rng.shuffle(twos)
    n1, n2 = layout
    return [twos[r * n2 : (r + 1) * n2] + ones[r * n1 : (r + 1) * n1] for r in (0, 1)]


def _progress(s: CeltaeBase, d: CeltaeData) -> None:
    """The track's markers, the stack markers and the progress cards dealt by player count."""
    n = s.n
    s.track = d.track[n]
    s.stack_markers = [1, 1, 1, 1]  # Roman N, Roman S, Druid N, Druid S
    two = [i for i, c in enumerate(d.progress_cards) if c[3] == 2]
    three = [i for i, c in enumerate(d.progress_cards) if c[3] == 3]
    s.rng.shuffle(two)
    s.rng.shuffle(three)
    n2, n3 = d.dealt[n]
    s.prog_cards = two[:n2] + three[:n3]
    s.prog_marks = [0] * len(s.prog_cards)
    s.teutates = 0


def _leaders_and_hands(s: CeltaeBase, d: CeltaeData) -> None:
    """Leaders offered (one more than the players; solo: the data's number) and the first hands."""
    n = s.n
    ids = list(range(len(d.leaders)))
    s.rng.shuffle(ids)
    s.offered = ids[: (d.solo_offered if s.solo else n + 1)]
    s.leaders = [-1] * s.np
    s.leader_side = [0] * s.np
    s.flip_choice = [-1] * s.np
    s.flip_revealed = 0
    s.pick_order = list(range(n - 1, -1, -1))
    for p in range(n):
        for _ in range(d.hand_deal):
            k = draw_card(s)
            if k >= 0:
                s.hands[p][k] += 1


# -- the set-up decisions -------------------------------------------------------------------------
def leader_actions(s: CeltaeBase) -> list[Act]:
    return [ACT[("leader", i, -1)] for i in s.offered]


def discard_actions(s: CeltaeBase) -> list[Act]:
    h = s.hands[s.pick_order[0]]
    return [ACT[("discard", k, -1)] for k in range(12) if h[k]]


def choose_leader(s: CeltaeBase, a: Act) -> None:
    seat = s.pick_order[0]
    s.leaders[seat] = a.a
    s.offered.remove(a.a)
    s.ctx.pay = s.data.setup_discard
    s.phase = SETUP_DISCARD


def discard_setup_card(s: CeltaeBase, a: Act) -> None:
    """One set-up card discarded; the next seat chooses, or the first turn starts."""
    seat = s.pick_order[0]
    discard_card(s, seat, a.a)
    s.ctx.pay -= 1
    if s.ctx.pay <= 0 or not sum(s.hands[seat]):
        s.pick_order.pop(0)
        s.ctx = TurnContext()
        if s.pick_order:
            s.phase = LEADER
        else:
            s.turn = 0
            order.start_turn(s)
