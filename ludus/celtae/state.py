"""The Celtae state: set-up, the turn as small decisions, progress, leaders and the end.

State is plain lists and ints (fast to clone). Cards are kinds 0..11 (colour * 3 + icon);
hands are counts per kind; workers are types F B S N D; the bag is counts per type
(its draws come from the state's RNG). Owners index players; in solo mode owner 1 is
Solitairix, whose turns run automatically (see ``solo.py``).
"""

from __future__ import annotations

import random
from typing import Any

from ..engine.errors import IllegalActionError
from ..engine.state import TERMINAL, State
from . import actions as A
from . import board as G
from . import scoring
from .actions import Act
from .board import B, D, F, N, S
from .data import CeltaeData

# phases of the main sequence
LEADER, SETUP_DISCARD, START, AREA, REFRESH, SWAP, EXTRA, FARM_PICK, BUILD_COLOUR, BUILD_PAY, \
    BONUS_RECRUIT, BONUS_DRAW, BATTLE_DISCARD, FIGHT, GARRISON, RECRUIT_PICK, DRUID, DRUID_PAY, \
    REFILL, RELEASE, OVER = range(21)
PHASE_TEXT = (
    "choose a leader", "discard a set-up card", "move the action marker (or use a token to act anywhere)",
    "choose an action beside the marker", "refresh the action area or not", "swap a worker or not",
    "spend a bonus token as an extra worker or not", "take market cards", "choose a citadel colour",
    "pay cards of the citadel's colour", "recruit a worker with the citadel bonus or not",
    "draw market cards with the citadel bonus", "discard cards of one icon for strength",
    "fight the Roman Army or not", "place a garrison cube or not", "recruit workers into the tribe",
    "send tribe workers to the Druid Order or not", "pay cards for a druid worker", "take a worker from the centre",
    "release tribe workers down to 8", "the game is over",
)
# phases inside a Recruit (or the recruit bonus) where the tribe may exceed 8 until RELEASE
ENLIST_PHASES = (BONUS_RECRUIT, RECRUIT_PICK, DRUID, DRUID_PAY, REFILL, RELEASE)
# pending interrupts: [kind, seat]
P_TRACK, P_STACK, P_FLIP = 0, 1, 2

_FIELDS = (
    "n", "np", "solo", "phase", "turn", "turns_left", "stage", "marker", "areas", "centre", "bag",
    "deck", "discard", "market", "hands", "known", "strength", "tokens", "token_supply", "active",
    "tribe", "discs", "citadels", "bonus_at", "bonus_owner", "roman", "roman_won", "druid", "druid_won",
    "druid_supply", "druid_box", "garrison", "cubes", "track", "stack_markers", "prog_cards", "prog_marks",
    "teutates", "leaders", "leader_side", "flip_choice", "flip_revealed", "offered", "pick_order",
    "pending", "sx_side", "sx_quarter", "sx_worker", "sx_discarded_markers", "ctx", "last_sx",
)
_NESTED2 = {"areas", "market", "hands", "known", "active", "tribe", "citadels", "roman", "roman_won",
            "druid", "druid_won", "garrison", "pending"}
# turn context: [anywhere, kind, region, area, refreshed, boost, budget, colour, pay_left, battle_icon,
#                recruited, recruit_max, druid_paid, draws, moved]
C_ANY, C_KIND, C_REGION, C_AREA, C_REFRESHED, C_BOOST, C_BUDGET, C_COLOUR, C_PAY, C_ICON, C_RECRUITED, \
    C_RMAX, C_DPAID, C_DRAWS, C_TAKEN = range(15)
_CTX0 = [0, -1, -1, -1, 0, 0, 0, -1, 0, -1, 0, 0, 0, 0, 0]
# Solitairix's turn reuses the context: its drawn card, its steps, and whether it has moved yet (its
# turn pauses after the move while the human places markers or decides the flip: rulings 5, 16, 30)
C_SX_CARD, C_SX_STEPS, C_SX_MOVED = C_COLOUR, C_BUDGET, C_TAKEN

_K = A.ACT
RESAMPLE_TRIES = 200  # re-deals tried for a hand that must still pay for a Build under way


class CeltaeState(State):
    """A game of Celtae in progress (2-4 players, or 1 against Solitairix)."""

    data: CeltaeData

    # -- set-up ---------------------------------------------------------------------
    def setup(self) -> None:
        d = self.data = self.game.data
        cfg = self.game.config
        n = self.n = cfg["players"]
        self.solo = 1 if n == 1 else 0
        np_ = self.np = n + self.solo
        rng = self.rng
        self.phase = LEADER
        self.turn = 0
        self.turns_left = 1
        self.stage = 0
        self.marker = G.SE
        self.ctx = list(_CTX0)
        # cards
        deck = [k for k in range(12) for _ in range(d.copies)]
        rng.shuffle(deck)
        self.deck = deck
        self.discard: list[int] = []
        self.market = [[-1] * d.market_size for _ in range(2)]
        for r in (0, 1):
            self._refill_market(r)
        self.hands = [[0] * 12 for _ in range(np_)]
        self.known = [[0] * 12 for _ in range(np_)]
        # strength, tokens, discs, cubes
        self.strength = [0] * np_
        self.tokens = [d.tokens_start] * n + [0] * self.solo
        self.token_supply = d.tokens_total - d.tokens_start * n
        self.discs = [0] * np_
        self.cubes = [0] * np_
        # workers
        setup_n = 2 if self.solo else n
        counts = list(d.workers[:4])
        for t in (F, B, S):
            counts[t] -= 4 - setup_n  # returned to the box for absent players
        self.active = [[0, 0, 0, 0] for _ in range(np_)]
        self.tribe = [[0, 0, 0, 0, 0] for _ in range(np_)]
        for p in range(n):
            self.active[p] = [1, 1, 1, 0]
            for t in (F, B, S):
                counts[t] -= 1
        self.sx_worker = -1
        if self.solo:
            for t in (F, B, S):
                counts[t] -= 1
            self.sx_worker = rng.choice((F, B, S))
            for t in (F, B, S):
                if t != self.sx_worker:
                    counts[t] += 1  # the other two go to the bag
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
        self.bag = counts
        for row in slots:
            for i, t in enumerate(row):
                if t < 0:
                    row[i] = self._draw_worker()
        self.areas = slots[:4]
        self.centre = slots[4]
        # citadels and bonus tiles
        blocked = d.citadel_blocked[n]
        self.citadels = [[-1] * (d.citadel_spaces - blocked) + [-2] * blocked for _ in range(8)]
        self.bonus_at = []
        for _r in (0, 1):
            kinds = list(range(4))
            rng.shuffle(kinds)
            self.bonus_at += kinds
        self.bonus_owner = [-1] * 8
        # Roman and Druid stacks (top = last)
        self.roman = self._stacks([t[0] for t in d.roman_tiles], d.roman_stack[n])
        self.druid = self._stacks([t[0] for t in d.druid_tiles], d.druid_stack[n])
        self.roman_won = [[] for _ in range(np_)]
        self.druid_won = [[] for _ in range(np_)]
        self.druid_supply = [d.druid_workers[n]] * 2
        self.druid_box = d.workers[D] - 2 * d.druid_workers[n]
        # garrisons: space i shows icon i // per_icon; -1 free, -2 neutral
        per = d.garrison_per_icon
        self.garrison = []
        for _r in (0, 1):
            row = [-1] * (3 * per)
            for icon in d.garrison_blocked[n]:
                for i in range(icon * per, icon * per + per):
                    if row[i] == -1:
                        row[i] = -2
                        break
            self.garrison.append(row)
        # progress
        self.track = d.track[n]
        self.stack_markers = [1, 1, 1, 1]  # Roman N, Roman S, Druid N, Druid S
        two = [i for i, c in enumerate(d.progress_cards) if c[3] == 2]
        three = [i for i, c in enumerate(d.progress_cards) if c[3] == 3]
        rng.shuffle(two)
        rng.shuffle(three)
        n2, n3 = d.dealt[n]
        self.prog_cards = two[:n2] + three[:n3]
        self.prog_marks = [0] * len(self.prog_cards)
        self.teutates = 0
        # leaders
        ids = list(range(len(d.leaders)))
        rng.shuffle(ids)
        self.offered = ids[: (d.solo_offered if self.solo else n + 1)]
        self.leaders = [-1] * np_
        self.leader_side = [0] * np_
        self.flip_choice = [-1] * np_
        self.flip_revealed = 0
        self.pick_order = list(range(n - 1, -1, -1))
        for p in range(n):
            for _ in range(d.hand_deal):
                k = self._draw_card()
                if k >= 0:
                    self.hands[p][k] += 1
        self.pending: list[list[int]] = []
        # solo
        self.sx_side = rng.randrange(len(d.solo_sides)) if self.solo else 0
        self.sx_quarter = 0
        self.sx_discarded_markers = 0
        self.last_sx: list[Any] = []

    def _stacks(self, points: list[int], layout: tuple[int, int]) -> list[list[int]]:
        ones = [i for i, p in enumerate(points) if p == 1]
        twos = [i for i, p in enumerate(points) if p == 2]
        self.rng.shuffle(ones)
        self.rng.shuffle(twos)
        n1, n2 = layout
        return [twos[r * n2:(r + 1) * n2] + ones[r * n1:(r + 1) * n1] for r in (0, 1)]

    # -- chance helpers ------------------------------------------------------------------
    def _draw_worker(self) -> int:
        bag = self.bag
        total = bag[0] + bag[1] + bag[2] + bag[3]
        if total == 0:
            return -1
        self._closing = True  # a worker comes out of the bag
        x = self.rng.randrange(total)
        for t in range(4):
            if x < bag[t]:
                bag[t] -= 1
                return t
            x -= bag[t]
        raise AssertionError("bag counts")  # pragma: no cover

    def _draw_card(self) -> int:
        self._closing = True  # a card comes off the deck
        if not self.deck:
            if len(self.discard) <= 1:
                return -1
            top = self.discard[-1]
            rest = self.discard[:-1]
            self.rng.shuffle(rest)
            self.deck = rest
            self.discard = [top]
        return self.deck.pop()

    def _take_from_market(self, p: int, pos: int) -> None:
        """Card ``pos`` of the action's market into ``p``'s hand, in view of everyone."""
        row = self.market[self.ctx[C_REGION]]
        k = row[pos]
        row[pos] = -1
        self.hands[p][k] += 1
        self.known[p][k] += 1
        self.ctx[C_TAKEN] |= 1 << pos

    def _refill_market(self, r: int) -> None:
        row = [k for k in self.market[r] if k >= 0]
        while len(row) < self.data.market_size:
            k = self._draw_card()
            if k < 0:
                break
            row.append(k)
        row += [-1] * (self.data.market_size - len(row))
        self.market[r] = row

    def _discard_card(self, p: int, k: int) -> None:
        self.hands[p][k] -= 1
        if self.known[p][k] > 0:
            self.known[p][k] -= 1
        self.discard.append(k)

    def _gain_strength(self, p: int, x: int) -> None:
        self.strength[p] = max(0, min(self.data.strength_max, self.strength[p] + x))

    # -- whose turn ------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.pending:
            kind, seat = self.pending[0]
            if kind == P_FLIP:
                return self.flip_choice.index(-1)
            return seat
        if self.phase == LEADER or self.phase == SETUP_DISCARD:
            return self.pick_order[0]
        if self.phase == OVER:
            return TERMINAL
        return self.turn

    # -- counts used by the actions ---------------------------------------------------------
    def _builders(self, p: int) -> int:
        return self.active[p][B] + self.tribe[p][B] + self.tribe[p][D] + self.ctx[C_BOOST]

    def _can_pay(self, p: int, region: int, builders: int, colour: int = -1) -> bool:
        d = self.data
        if self.discs[p] >= len(d.disc_costs):
            return False
        need = max(1, d.disc_costs[self.discs[p]] - builders)
        hand = self.hands[p]
        for c in range(4) if colour < 0 else (colour,):
            if -1 in self.citadels[region * 4 + c] and hand[3 * c] + hand[3 * c + 1] + hand[3 * c + 2] >= need:
                return True
        return False

    def _swap_gain(self, p: int, workers: list[int]) -> int:
        """1 if a swap could bring a builder from ``workers`` for a non-builder."""
        act = self.active[p]
        return 1 if (act[F] + act[S] + act[N]) and B in workers else 0

    def _build_possible(self, p: int, region: int, strength: int) -> bool:
        area = self.areas[G.area_of(G.BUILD, region)]
        gain = self._swap_gain(p, area)
        if strength >= self.data.refresh_cost:
            gain = max(gain, self._swap_gain(p, self.centre))
        return self._can_pay(p, region, self._builders(p) + self.tokens[p] + gain)

    # -- legal actions ----------------------------------------------------------------------------
    def _legal_actions(self) -> list[Act]:
        if self.pending:
            return self._legal_pending()
        p = self.turn
        ph = self.phase
        ctx = self.ctx
        hand = self.hands[p] if ph > SETUP_DISCARD else None
        if ph == START:
            out = [_K[("move", 1, -1)], _K[("move", 2, -1)]]
            if self.strength[p] >= -self.data.move_strength[2]:
                out.append(_K[("move", 3, -1)])
            if self.tokens[p] > 0 and not ctx[C_ANY]:
                out.append(_K[("anywhere", -1, -1)])
            return out
        if ph == AREA:
            out = []
            for kind, region in (G.ANYWHERE if ctx[C_ANY] else G.ADJACENT[self.marker]):
                if kind == G.BUILD and not self._build_possible(p, region, self.strength[p]):
                    continue
                if kind == G.RECRUIT and not sum(self.active[p]):
                    continue
                out.append(_K[("act", kind, region)])
            return out
        if ph == REFRESH:
            out = []
            if ctx[C_KIND] != G.BUILD:
                return [_K[("refresh", -1, -1)], _K[("done", -1, -1)]]
            base = self._builders(p) + self.tokens[p]
            region = ctx[C_REGION]
            if self._can_pay(p, region, base + self._swap_gain(p, self.centre)):
                out.append(_K[("refresh", -1, -1)])
            if self._can_pay(p, region, base + self._swap_gain(p, self.areas[ctx[C_AREA]])):
                out.append(_K[("done", -1, -1)])
            return out
        if ph == SWAP:
            return self._legal_swaps(p)
        if ph == EXTRA:
            out = [_K[("extra", -1, -1)]]
            if ctx[C_KIND] != G.BUILD or self._can_pay(p, ctx[C_REGION], self._builders(p)):
                out.append(_K[("done", -1, -1)])
            return out
        if ph == FARM_PICK:
            row = self.market[ctx[C_REGION]]
            costs = self.data.market_costs
            taken = ctx[C_TAKEN]
            out = [_K[("take", i, -1)] for i in range(1, len(row))
                   if row[i] >= 0 and not taken >> i & 1 and costs[i] <= ctx[C_BUDGET]]
            out.append(_K[("done", -1, -1)])
            return out
        if ph == BUILD_COLOUR:
            region = ctx[C_REGION]
            b = self._builders(p)
            return [_K[("citadel", c, -1)] for c in range(4) if self._can_pay(p, region, b, c)]
        if ph == BUILD_PAY:
            c = ctx[C_COLOUR]
            return [_K[("pay", k, -1)] for k in range(3 * c, 3 * c + 3) if hand[k]]
        if ph in (BONUS_RECRUIT, RECRUIT_PICK):
            act = self.active[p]
            out = [_K[("enlist", t, -1)] for t in range(4) if act[t]]
            if ph == BONUS_RECRUIT or ctx[C_RECRUITED]:
                out.append(_K[("done", -1, -1)])
            return out
        if ph == BONUS_DRAW:
            row = self.market[ctx[C_REGION]]
            out = [_K[("take", i, -1)] for i in range(len(row)) if row[i] >= 0 and not ctx[C_TAKEN] >> i & 1]
            out.append(_K[("done", -1, -1)])
            return out
        if ph == BATTLE_DISCARD:
            icon = ctx[C_ICON]
            out = [_K[("discard", k, -1)] for k in range(12) if hand[k] and (icon < 0 or k % 3 == icon)]
            out.append(_K[("done", -1, -1)])
            return out
        if ph == FIGHT:
            return [_K[("fight", -1, -1)], _K[("done", -1, -1)]]
        if ph == GARRISON:
            free = self._free_icons(ctx[C_REGION])
            out = [_K[("garrison", k, -1)] for k in range(12) if hand[k] and free[k % 3]]
            out.append(_K[("done", -1, -1)])
            return out
        if ph == DRUID:
            return self._legal_druid(p) + [_K[("done", -1, -1)]]
        if ph == DRUID_PAY:
            out = [_K[("pay", k, -1)] for k in range(12) if hand[k]]
            if not ctx[C_DPAID]:
                out.append(_K[("done", -1, -1)])
            return out
        if ph == REFILL:
            seen = set()
            out = []
            for i, t in enumerate(self.centre):
                if t >= 0 and t not in seen:
                    seen.add(t)
                    out.append(_K[("centre", i, -1)])
            return out
        if ph == RELEASE:
            return [_K[("release", t, -1)] for t in range(5) if self.tribe[p][t]]
        if ph == LEADER:
            return [_K[("leader", i, -1)] for i in self.offered]
        if ph == SETUP_DISCARD:
            h = self.hands[self.pick_order[0]]
            return [_K[("discard", k, -1)] for k in range(12) if h[k]]
        return []

    def _legal_pending(self) -> list[Act]:
        kind = self.pending[0][0]
        if kind == P_FLIP:
            return [_K[("keep", -1, -1)], _K[("flip", -1, -1)]]
        d = self.data
        return [_K[("progress", i, -1)] for i, c in enumerate(self.prog_cards)
                if self.prog_marks[i] < d.progress_cards[c][3]]

    def _legal_swaps(self, p: int) -> list[Act]:
        act = self.active[p]
        area = self.areas[self.ctx[C_AREA]]
        build = self.ctx[C_KIND] == G.BUILD
        out = []
        if build:
            region = self.ctx[C_REGION]
            base = self._builders(p) + self.tokens[p]
        for t in range(4):
            if not act[t]:
                continue
            for i in range(3):
                w = area[i]
                if w < 0 or w == t:
                    continue
                if build and not self._can_pay(p, region, base + (w == B) - (t == B)):
                    continue
                out.append(_K[("swap", t, i)])
        if not build or self._can_pay(p, region, base):
            out.append(_K[("done", -1, -1)])
        return out

    def _free_icons(self, region: int) -> list[bool]:
        per = self.data.garrison_per_icon
        row = self.garrison[region]
        return [any(row[i] == -1 for i in range(icon * per, icon * per + per)) for icon in range(3)]

    def _legal_druid(self, p: int) -> list[Act]:
        stack = self.druid[self.ctx[C_REGION]]
        if not stack:
            return []
        _pts, needs, wild = self.data.druid_tiles[stack[-1]]
        tr = self.tribe[p]
        if any(tr[t] < needs[t] for t in range(4)):
            return []
        if not wild:
            return [_K[("druid", -1, -1)]]
        return [_K[("druid", t, -1)] for t in range(4) if tr[t] - needs[t] >= wild]

    # -- applying actions ---------------------------------------------------------------------------
    def _apply(self, action: Act) -> None:
        self._closing = False  # set by every step that shows anyone something new or ends a turn
        if self.pending:
            self._apply_pending(action)
        else:
            self._apply_main(action)
        self._settle()

    def _settles(self, actor: int) -> bool:
        """Undo stays within a seat's run of decisions and stops at anything shown."""
        return self._closing or self.current_player() != actor

    def _apply_pending(self, a: Act) -> None:
        entry = self.pending[0]
        if entry[0] == P_FLIP:
            seat = self.flip_choice.index(-1)
            self.flip_choice[seat] = 1 if a.verb == "flip" else 0
            if -1 not in self.flip_choice[: self.n]:
                for s in range(self.n):
                    self.leader_side[s] = self.flip_choice[s]
                self.flip_revealed = 1
                self._closing = True  # every seat's secret choice is shown
                self.pending.pop(0)
            return
        self.prog_marks[a.a] += 1
        self.pending.pop(0)

    def _settle(self) -> None:
        """Drop placements with no free progress slot (the marker is discarded); resume Solitairix."""
        d = self.data
        while self.pending and self.pending[0][0] != P_FLIP:
            if any(self.prog_marks[i] < d.progress_cards[c][3] for i, c in enumerate(self.prog_cards)):
                return
            self.pending.pop(0)
        if not self.pending and self.solo and self.turn == 1 and self.phase == START and self._solitairix_step():
            self._end_turn()  # Solitairix's turn waited for the human's decisions: it resumes now

    def _apply_main(self, a: Act) -> None:
        ph = self.phase
        p = self.turn
        ctx = self.ctx
        v = a.verb
        if ph == LEADER:
            seat = self.pick_order[0]
            self.leaders[seat] = a.a
            self.offered.remove(a.a)
            ctx[C_PAY] = self.data.setup_discard
            self.phase = SETUP_DISCARD
            return
        if ph == SETUP_DISCARD:
            seat = self.pick_order[0]
            self._discard_card(seat, a.a)
            ctx[C_PAY] -= 1
            if ctx[C_PAY] <= 0 or not sum(self.hands[seat]):
                self.pick_order.pop(0)
                self.ctx = list(_CTX0)
                if self.pick_order:
                    self.phase = LEADER
                else:
                    self.turn = 0
                    self._start_turn()
            return
        if ph == START:
            if v == "anywhere":
                self.tokens[p] -= 1
                self.token_supply += 1
                ctx[C_ANY] = 1
                if not self.game.config["token_moves_marker"]:
                    self.phase = AREA
                return
            self._move(p, a.a)
            self._gain_strength(p, self.data.move_strength[a.a - 1])
            self.phase = AREA
            return
        if ph == AREA:
            ctx[C_KIND], ctx[C_REGION] = a.a, a.b
            ctx[C_AREA] = G.area_of(a.a, a.b)
            self._enter_refresh(p)
            return
        if ph == REFRESH:
            if v == "refresh":
                self.strength[p] -= self.data.refresh_cost
                self._refresh(ctx[C_AREA])
            self._enter_swap(p)
            return
        if ph == SWAP:
            if v == "swap":
                area = self.areas[ctx[C_AREA]]
                w = area[a.b]
                area[a.b] = a.a
                self.active[p][a.a] -= 1
                self.active[p][w] += 1
            self._enter_extra(p)
            return
        if ph == EXTRA:
            if v == "extra":
                self.tokens[p] -= 1
                self.token_supply += 1
                ctx[C_BOOST] += 1
                if self.tokens[p] > 0:
                    return
            self._perform(p)
            return
        if ph == FARM_PICK:
            if v == "take":
                self._take_from_market(p, a.a)
                ctx[C_BUDGET] -= self.data.market_costs[a.a]
                if any(a2.verb == "take" for a2 in self._legal_actions()):
                    return
            self._refill_market(ctx[C_REGION])
            self._end_action()
            return
        if ph == BUILD_COLOUR:
            c = a.a
            ctx[C_COLOUR] = c
            ctx[C_PAY] = max(1, self.data.disc_costs[self.discs[p]] - self._builders(p))
            self.phase = BUILD_PAY
            self._auto_pay(p)
            return
        if ph == BUILD_PAY:
            self._discard_card(p, a.a)
            ctx[C_PAY] -= 1
            self._auto_pay(p)
            return
        if ph == BONUS_RECRUIT:
            if v == "done":
                self._end_action()
                return
            self.active[p][a.a] -= 1
            self.tribe[p][a.a] += 1
            self._enter_refill(p)
            return
        if ph == BONUS_DRAW:
            if v == "take":
                self._take_from_market(p, a.a)
                ctx[C_DRAWS] -= 1
                if ctx[C_DRAWS] > 0 and any(k2 >= 0 for k2 in self.market[ctx[C_REGION]]):
                    return
            self._refill_market(ctx[C_REGION])
            self._end_action()
            return
        if ph == BATTLE_DISCARD:
            if v == "discard":
                self._discard_card(p, a.a)
                ctx[C_ICON] = a.a % 3
                self._gain_strength(p, ctx[C_BUDGET])
                if any(self.hands[p][k] for k in range(ctx[C_ICON], 12, 3)):
                    return
            self._enter_fight(p)
            return
        if ph == FIGHT:
            if v == "done":
                self._end_action()
                return
            region = ctx[C_REGION]
            tile = self.roman[region].pop()
            self._closing |= bool(self.roman[region])  # the next tile turns up
            self.strength[p] -= self.data.roman_tiles[tile][1]
            self.roman_won[p].append(tile)
            if not self.roman[region]:
                self._stack_emptied(p, region)
            self._enter_garrison(p)
            return
        if ph == GARRISON:
            if v == "garrison":
                self._discard_card(p, a.a)
                self._place_cube(p, ctx[C_REGION], a.a % 3)
            self._end_action()
            return
        if ph == RECRUIT_PICK:
            if v == "enlist":
                self.active[p][a.a] -= 1
                self.tribe[p][a.a] += 1
                ctx[C_RECRUITED] += 1
                if ctx[C_RECRUITED] < ctx[C_RMAX] and sum(self.active[p]):
                    return
            self._enter_druid(p)
            return
        if ph == DRUID:
            if v == "done":
                self._enter_refill(p)
                return
            self._take_druid_tile(p, a.a)
            return
        if ph == DRUID_PAY:
            if v == "done":
                self._enter_refill(p)
                return
            self._discard_card(p, a.a)
            ctx[C_DPAID] += 1
            if ctx[C_DPAID] >= self.tribe[p][D] + 1:
                self.tribe[p][D] += 1
                self.druid_supply[ctx[C_REGION]] -= 1
                self._enter_refill(p)
            return
        if ph == REFILL:
            self._take_from_centre(p, a.a)
            self._continue_refill(p)
            return
        if ph == RELEASE:
            self.tribe[p][a.a] -= 1
            if a.a == D:
                self.druid_box += 1
            else:
                self.bag[a.a] += 1
            if sum(self.tribe[p]) <= self.data.tribe_size:
                self._end_action()
            return
        raise IllegalActionError(f"{a} cannot be applied now")  # pragma: no cover

    # -- steps --------------------------------------------------------------------------------------
    def _move(self, mover: int, steps: int) -> None:
        for _ in range(steps):
            if self.marker == G.CROSSING_FROM:
                self._crossing()
            self.marker = (self.marker + 1) % 4

    def _crossing(self) -> None:
        """Progress: the Teutates holder places the top track marker, then passes the tile left."""
        if self.track <= 0:
            return
        self.track -= 1
        holder = 0 if self.solo else self.teutates
        self.pending.append([P_TRACK, holder])
        if not self.solo:
            self.teutates = (self.teutates + 1) % self.n
        if self.track == self.data.flip_at:
            self.flip_choice = [-1] * self.n + [0] * self.solo
            self.pending.append([P_FLIP, -1])
        if self.track == 0 and self.stage == 0:
            self.stage = 1

    def _stack_emptied(self, p: int, region: int, druid: bool = False) -> None:
        idx = region + (2 if druid else 0)
        if not self.stack_markers[idx]:
            return
        self.stack_markers[idx] = 0
        if self.solo and p == 1:
            self.sx_discarded_markers += 1
        else:
            self.pending.append([P_STACK, p])

    def _refresh(self, area_idx: int) -> None:
        area = self.areas[area_idx]
        for t in area:
            if t >= 0:
                self.bag[t] += 1
        self.areas[area_idx] = self.centre
        self.centre = [self._draw_worker() for _ in range(3)]

    def _enter_refresh(self, p: int) -> None:
        if self.strength[p] >= self.data.refresh_cost and not self.ctx[C_REFRESHED]:
            self.phase = REFRESH
            acts = self._legal_actions()
            if len(acts) == 1 and acts[0].verb == "done":
                self._enter_swap(p)
            return
        self._enter_swap(p)

    def _enter_swap(self, p: int) -> None:
        self.phase = SWAP
        acts = self._legal_swaps(p)
        if len(acts) == 1 and acts[0].verb == "done":
            self._enter_extra(p)

    def _enter_extra(self, p: int) -> None:
        if self.tokens[p] > 0:
            self.phase = EXTRA
        else:
            self._perform(p)

    def _perform(self, p: int) -> None:
        ctx = self.ctx
        kind, region = ctx[C_KIND], ctx[C_REGION]
        act, tr = self.active[p], self.tribe[p]
        if kind == G.FARM:
            row = self.market[region]
            if row[0] >= 0:
                k = row[0]
                row[0] = -1
                self.hands[p][k] += 1
                self.known[p][k] += 1
            ctx[C_TAKEN] = 1
            ctx[C_BUDGET] = act[F] + tr[F] + tr[D] + ctx[C_BOOST]
            self.phase = FARM_PICK
            if len(self._legal_actions()) == 1:
                self._refill_market(region)
                self._end_action()
        elif kind == G.BUILD:
            self.phase = BUILD_COLOUR
        elif kind == G.BATTLE:
            soldiers = act[S] + tr[S] + tr[D] + ctx[C_BOOST]
            ctx[C_BUDGET] = min(soldiers, self.data.soldier_cap)
            if ctx[C_BUDGET] > 0 and sum(self.hands[p]):
                self.phase = BATTLE_DISCARD
            else:
                self._enter_fight(p)
        else:
            ctx[C_RMAX] = min(self.data.recruit_max, 1 + act[N] + tr[N] + ctx[C_BOOST])
            ctx[C_RECRUITED] = 0
            self.phase = RECRUIT_PICK

    def _auto_pay(self, p: int) -> None:
        """Pay without asking when only one way is left; place the disc once paid."""
        ctx = self.ctx
        c = ctx[C_COLOUR]
        hand = self.hands[p]
        while ctx[C_PAY] > 0:
            kinds = [k for k in range(3 * c, 3 * c + 3) if hand[k]]
            if len(kinds) > 1 and sum(hand[k] for k in kinds) > ctx[C_PAY]:
                return
            self._discard_card(p, kinds[0])
            ctx[C_PAY] -= 1
        self._place_disc(p, ctx[C_REGION], c)

    def _place_disc(self, p: int, region: int, colour: int) -> None:
        idx = region * 4 + colour
        cit = self.citadels[idx]
        cit[cit.index(-1)] = p
        self.discs[p] += 1
        if -1 not in cit:
            self.bonus_owner[idx] = p
        bonus = self.bonus_at[idx]
        kind = self.data.bonus_kinds[bonus]
        if kind == "token":
            if self.token_supply > 0:
                self.token_supply -= 1
                self.tokens[p] += 1
        elif kind == "strength":
            self._gain_strength(p, self.data.strength_gain)
        elif kind == "recruit":
            if sum(self.active[p]):
                self.phase = BONUS_RECRUIT
                return
        elif kind == "draw" and any(k >= 0 for k in self.market[region]):
            self.ctx[C_DRAWS] = self.data.draw_count
            self.ctx[C_TAKEN] = 0
            self.phase = BONUS_DRAW
            return
        self._end_action()

    def _enter_fight(self, p: int) -> None:
        stack = self.roman[self.ctx[C_REGION]]
        if stack and self.strength[p] >= self.data.roman_tiles[stack[-1]][1]:
            self.phase = FIGHT
        else:
            self._end_action()

    def _enter_garrison(self, p: int) -> None:
        if self.cubes[p] < self.data.cubes:
            free = self._free_icons(self.ctx[C_REGION])
            hand = self.hands[p]
            if any(hand[k] and free[k % 3] for k in range(12)):
                self.phase = GARRISON
                return
        self._end_action()

    def _place_cube(self, owner: int, region: int, icon: int) -> bool:
        per = self.data.garrison_per_icon
        row = self.garrison[region]
        for i in range(icon * per, icon * per + per):
            if row[i] == -1:
                row[i] = owner
                self.cubes[owner] += 1
                return True
        return False

    def _enter_druid(self, p: int) -> None:
        if self._legal_druid(p):
            self.phase = DRUID
        else:
            self._enter_refill(p)

    def _take_druid_tile(self, p: int, wild_type: int) -> None:
        region = self.ctx[C_REGION]
        tile = self.druid[region].pop()
        self._closing |= bool(self.druid[region])  # the next tile turns up
        _pts, needs, wild = self.data.druid_tiles[tile]
        tr = self.tribe[p]
        for t in range(4):
            tr[t] -= needs[t]
            self.bag[t] += needs[t]
        if wild:
            tr[wild_type] -= wild
            self.bag[wild_type] += wild
        self.druid_won[p].append(tile)
        if not self.druid[region]:
            self._stack_emptied(p, region, druid=True)
        if self.druid_supply[region] > 0 and sum(self.hands[p]) >= tr[D] + 1:
            self.ctx[C_DPAID] = 0
            self.phase = DRUID_PAY
        else:
            self._enter_refill(p)

    def _enter_refill(self, p: int) -> None:
        self.phase = REFILL
        self._continue_refill(p)

    def _continue_refill(self, p: int) -> None:
        act = self.active[p]
        while sum(act) < 3:
            kinds = {t for t in self.centre if t >= 0}
            if not kinds:
                break
            if len(kinds) > 1:
                return  # the player chooses
            self._take_from_centre(p, next(i for i, t in enumerate(self.centre) if t >= 0))
        if sum(self.tribe[p]) > self.data.tribe_size:
            self.phase = RELEASE
        else:
            self._end_action()

    def _take_from_centre(self, p: int, i: int) -> None:
        t = self.centre[i]
        self.active[p][t] += 1
        self.centre[i] = self._draw_worker()

    # -- turn order -----------------------------------------------------------------------------------
    def _start_turn(self) -> None:
        self._closing = True  # the set-up is over: undo never reaches back into it
        self.ctx = list(_CTX0)
        self.phase = START
        if self.solo and self.turn == 1 and self._solitairix_step():
            self._end_turn()

    def _solitairix_step(self) -> bool:
        """Run or resume Solitairix's turn; False while the human has progress decisions to take first.

        Decisions pending from the human's own turn (a stack marker) are taken before Solitairix
        starts, and those its move triggers (a crossing, the flip) before its swap and action.
        """
        from .solo import solitairix_turn

        if self.pending:
            return False
        self._closing = True  # Solitairix's play is shown
        return solitairix_turn(self)

    def _end_action(self) -> None:
        self._end_turn()

    def _end_turn(self) -> None:
        self._closing = True  # undo never reaches back into a finished turn
        while True:
            if self.stage == 2:
                self.turns_left -= 1
                if self.turns_left <= 0:
                    self.turn += 1
                    self.turns_left = 2
                    if self.turn >= self.np:
                        self.phase = OVER
                        return
            else:
                self.turn += 1
                if self.turn >= self.np:
                    self.turn = 0
                    if self.stage == 1:
                        self.stage = 2
                        self.turns_left = 2
            self.ctx = list(_CTX0)
            self.phase = START
            if self.solo and self.turn == 1 and self._solitairix_step():
                continue
            return

    # -- results -------------------------------------------------------------------------------------
    def scores(self) -> list[int]:
        return scoring.totals(self)

    def score_breakdown(self, seat: int) -> dict[str, int]:
        """Points of ``seat`` in each final-scoring category A..K, and the total."""
        from .scoring import score_breakdown

        self._check_seat(seat)
        return score_breakdown(self, seat)

    def _tiebreak(self, seat: int) -> tuple:
        return (self.discs[seat] + sum(self.tribe[seat]), len(self.roman_won[seat]) + len(self.druid_won[seat]))

    def winners(self) -> list[int]:
        """Solo: [0] once the game is over if the difficulty's target is reached, else []."""
        if self.solo:
            if not self.is_terminal():
                return []
            return [0] if self.scores()[0] >= self.data.targets[self.game.config["difficulty"]] else []
        return super().winners()

    # -- information -----------------------------------------------------------------------------------
    def _observation(self, seat: int | None) -> dict[str, Any]:
        from .observe import observe

        return observe(self, seat)

    def _resample(self, seat: int, rng: random.Random) -> None:
        self._deal_hidden_cards(seat, rng)
        # the tiles under the top of each Roman and Druid stack
        for stacks, tiles in ((self.roman, self.data.roman_tiles), (self.druid, self.data.druid_tiles)):
            seen = {s[-1] for s in stacks if s}
            seen.update(t for won in (self.roman_won if stacks is self.roman else self.druid_won) for t in won)
            for pts in (1, 2):
                free = [i for i in range(len(tiles)) if tiles[i][0] == pts and i not in seen]
                rng.shuffle(free)
                for s in stacks:
                    for j in range(len(s) - 1):
                        if tiles[s[j]][0] == pts:
                            s[j] = free.pop()
        # leader flips chosen but not yet revealed
        if self.pending and self.pending[0][0] == P_FLIP:
            for q in range(self.n):
                if q != seat and self.flip_choice[q] >= 0:
                    self.flip_choice[q] = rng.randrange(2)

    def _deal_hidden_cards(self, seat: int, rng: random.Random) -> None:
        """Re-deal the deck and the unknown part of other hands (a Build under way stays payable)."""
        pool = list(self.deck)
        unknown_counts = []
        for q in range(self.n):
            if q == seat:
                unknown_counts.append(0)
                continue
            hidden = [self.hands[q][k] - self.known[q][k] for k in range(12)]
            for k in range(12):
                pool += [k] * hidden[k]
            unknown_counts.append(sum(hidden))
        true_hands, true_deck = self.hands, self.deck
        for _ in range(RESAMPLE_TRIES):
            rng.shuffle(pool)
            rest = list(pool)
            hands = [h if q == seat else list(self.known[q]) for q, h in enumerate(true_hands)]
            for q in range(self.n):
                if q != seat:
                    for _ in range(unknown_counts[q]):
                        hands[q][rest.pop()] += 1
            self.hands, self.deck = hands, rest
            if self._build_still_payable():
                return
        # a Build begun by another seat that almost no deal can pay for: keep the true cards
        self.hands, self.deck = true_hands, true_deck

    def _build_still_payable(self) -> bool:
        """Whether the mover can still pay for the Build they have chosen (a re-dealt hand must)."""
        p, ctx, ph = self.turn, self.ctx, self.phase
        if p >= self.n or ctx[C_KIND] != G.BUILD:
            return True
        region = ctx[C_REGION]
        if ph == BUILD_PAY:
            c = ctx[C_COLOUR]
            return sum(self.hands[p][3 * c:3 * c + 3]) >= ctx[C_PAY]
        if ph == BUILD_COLOUR:
            return self._can_pay(p, region, self._builders(p))
        if ph == EXTRA:
            return self._can_pay(p, region, self._builders(p) + self.tokens[p])
        if ph == SWAP:
            return bool(self._legal_swaps(p))
        if ph == REFRESH:
            return self._build_possible(p, region, self.strength[p])
        return True

    # -- copies and saving -------------------------------------------------------------------------------
    def _copy_into(self, other: CeltaeState) -> None:
        # list(map(list.copy, rows)) copies a list of rows about twice as fast as a comprehension;
        # bonus_at and prog_cards never change after the set-up, so clones share them
        rows = list.copy
        other.data = self.data
        other.n, other.np, other.solo = self.n, self.np, self.solo
        other.phase, other.turn, other.turns_left, other.stage = self.phase, self.turn, self.turns_left, self.stage
        other.marker = self.marker
        other.areas = list(map(rows, self.areas))
        other.centre = self.centre[:]
        other.bag = self.bag[:]
        other.deck = self.deck[:]
        other.discard = self.discard[:]
        other.market = list(map(rows, self.market))
        other.hands = list(map(rows, self.hands))
        other.known = list(map(rows, self.known))
        other.strength = self.strength[:]
        other.tokens = self.tokens[:]
        other.token_supply = self.token_supply
        other.active = list(map(rows, self.active))
        other.tribe = list(map(rows, self.tribe))
        other.discs = self.discs[:]
        other.citadels = list(map(rows, self.citadels))
        other.bonus_at = self.bonus_at
        other.bonus_owner = self.bonus_owner[:]
        other.roman = list(map(rows, self.roman))
        other.roman_won = list(map(rows, self.roman_won))
        other.druid = list(map(rows, self.druid))
        other.druid_won = list(map(rows, self.druid_won))
        other.druid_supply = self.druid_supply[:]
        other.druid_box = self.druid_box
        other.garrison = list(map(rows, self.garrison))
        other.cubes = self.cubes[:]
        other.track = self.track
        other.stack_markers = self.stack_markers[:]
        other.prog_cards = self.prog_cards
        other.prog_marks = self.prog_marks[:]
        other.teutates = self.teutates
        other.leaders = self.leaders[:]
        other.leader_side = self.leader_side[:]
        other.flip_choice = self.flip_choice[:]
        other.flip_revealed = self.flip_revealed
        other.offered = self.offered[:]
        other.pick_order = self.pick_order[:]
        other.pending = list(map(rows, self.pending))
        other.sx_side, other.sx_quarter, other.sx_worker = self.sx_side, self.sx_quarter, self.sx_worker
        other.sx_discarded_markers = self.sx_discarded_markers
        other.ctx = self.ctx[:]
        other.last_sx = list(self.last_sx)

    def _dump(self) -> dict[str, Any]:
        out = {}
        for f in _FIELDS:
            v = getattr(self, f)
            if f in _NESTED2:
                v = [list(x) for x in v]
            elif isinstance(v, list):
                v = list(v)
            out[f] = v
        return out

    def _load(self, data: dict[str, Any]) -> None:
        self.data = self.game.data
        for f in _FIELDS:
            v = data[f]
            if f in _NESTED2:
                v = [list(x) for x in v]
            elif isinstance(v, list):
                v = list(v)
            setattr(self, f, v)

    def _repr_svg_(self) -> str:
        """The public view as SVG (notebooks)."""
        from .render import render_svg

        return render_svg(self.observation(None))

    # -- error messages ---------------------------------------------------------------------------------
    def _public_action(self, text: str, actor: int, seat: int | None) -> str:
        """Another seat's leader decision stays secret until every seat has chosen (ruling 21)."""
        if text in ("flip", "keep") and actor != seat and not self.flip_revealed:
            return "decided"
        return text

    def _why_illegal(self, action: Act) -> str:
        from .observe import why_illegal

        return why_illegal(self, action)
