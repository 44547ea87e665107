"""Celtae's observation vector written straight from the state: what the environments call.

:class:`StateWriter` keeps the last vector it wrote and, for each part of it (the action
areas, the markets, the citadels, the stacks, the garrisons, the common counts, each seat,
the turn), a copy of the state's numbers that part was written from. A step changes one or
two of them, so a call compares the copies with the state (list equality, at C speed) and
rewrites only the parts that differ, item by item through a memoryview. The scores are asked
of the engine only when a number they depend on moved; when only strength or cards did, only
category I ((strength + cards) // 5, see ``scoring.totals``) can have changed, and it is added
to the rest of the last scores.

Every value is the float32 the observation path gives (the same divisions of the same
counts; sums accumulated in float32 are taken from tables made by the same float32 sums), so
``encode_state(state, seat)`` equals ``encode(state.observation(seat))`` bit for bit
(tests/rl/test_fast_encoding.py holds them equal on many positions).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ludus.rl.encoding import LiveVector

from .core import P_FLIP, Phase
from .observe import flip_view

if TYPE_CHECKING:
    from .encoder import CeltaeEncoder

SEATS = 4
MAX_ACTIVE = 4
FLIPS = (None, "undecided", "decided", "flip", "keep")
PENDING_KINDS = 3  # none, progress, leader flip
(
    AREAS,
    MARKET,
    CITADELS,
    STACKS,
    GARRISON,
    COUNTS,
    PROGRESS,
    OFFERED,
    DISCARD,
    TURN,
    VIEW,
    SOLO,
    FLIP,
    SEAT,
) = range(14)
# what everyone sees of a seat, in groups: one part per group and seat, after the others
KNOWN, BOARD, ACTIVE, TRIBE, ROMAN, DRUID, LEADER = range(7)
GROUP = {
    "known": KNOWN,
    "strength": BOARD,
    "tokens": BOARD,
    "discs": BOARD,
    "cubes": BOARD,
    "bonus_owner": BOARD,
    "active": ACTIVE,
    "tribe": TRIBE,
    "roman_won": ROMAN,
    "druid_won": DRUID,
    "leaders": LEADER,
    "leader_side": LEADER,
}  # the state's lists each group is written from (bonus_owner: by citadel)
PARTS = SEAT + len(set(GROUP.values())) * SEATS
UNSCORED = ("known", "tokens", "active")  # lists the scores do not read (scoring.totals)
CARD_SCORED = ("strength",)  # lists that move only category I of the scores (strength and cards, // 5)
# each of GROUP's lists, in order: its group, what a change of it moves in the scores (0 nothing, 1
# category I alone, 2 more), and whether every seat's group is then rewritten (bonus_owner: by citadel)
FIELDS = tuple(
    (group, 0 if name in UNSCORED else 1 if name in CARD_SCORED else 2, name == "bonus_owner")
    for name, group in GROUP.items()
)


def _float32_sums(step: float, count: int) -> list[float]:
    """``0, step, step + step, ...`` added in float32, as the observation path accumulates them."""
    out = [0.0]
    total = np.float32(0.0)
    for _ in range(count):
        total = total + np.float32(step)
        out.append(float(total))
    return out


def _float32_quotients(divisor: int, count: int) -> list[float]:
    """``k / divisor`` for k = 0..count, divided in float32 (a float32 vector divided in place)."""
    return [float(x) for x in np.arange(count + 1, dtype=np.float32) / np.float32(divisor)]


class StateWriter(LiveVector):
    """The live vector of one encoder and the copies of the numbers each part came from."""

    def __init__(self, encoder: CeltaeEncoder) -> None:
        super().__init__(encoder.size, PARTS)
        d = encoder.data
        self.data = d
        self.off = {name: b.start for name, b in encoder.blocks.items()}
        self.own = {-1: 0, -2: 5, **{o: 1 + o for o in range(SEATS)}}
        self.roman_index = [encoder.roman.index(list(t)) for t in d.roman_tiles]
        self.druid_index = [encoder.druid.index(encoder.druid[t]) for t in range(len(d.druid_tiles))]
        self.progress_index = [
            encoder.progress.index(encoder.progress[c]) for c in range(len(d.progress_cards))
        ]
        self.leader_index = [encoder.leaders.index(ld["name"]) for ld in d.leaders]
        self.bonus_index = [encoder.bonus_kinds.index(k) for k in d.bonus_kinds]
        self.phases = len(Phase) + 2  # the phases, "decide", "over"
        self.flip_index = {f: i for i, f in enumerate(FLIPS)}
        difficulty = encoder.game.config.get("difficulty")
        target = d.targets.get(difficulty) if isinstance(difficulty, str) else None
        targets = list(encoder.targets.values())
        self.target = targets.index(target) if target in targets else -1
        self.discs = len(d.disc_costs)
        self.druid_sums = _float32_sums(1.0 / 5, 40)
        self.fifths = _float32_quotients(5, 120)
        self.seat_lists: list[Any] = [None] * len(GROUP)  # the seats' lists (GROUP's order) at the last call
        self.hands: list[list[int]] | None = None
        self.group_values = self._groups()
        self.scores: list[int] | None = None
        self.base: list[int] = []  # the scores less category I
        off = self.off
        # the one-hots of the turn, in _turn's order
        self.turn_at = tuple(
            off[name]
            for name in ("turn", "final", "marker", "action", "phase", "seat", "current_player", "pending")
        )
        self.citadel_at = (off["citadels"], off["citadel_bonus"], off["citadel_bonus_owner"])
        # each seat's last hand seen and its entries (see _view)
        self.hand_values: list[tuple[list[int], list[tuple[int, float]]] | None] = [None] * SEATS
        self.fiftieths: dict[int, float] = {}  # a score -> its entry

    def _groups(self) -> tuple[Any, ...]:
        """The writers of a seat's groups (KNOWN, BOARD, ...), in that order."""
        return (
            self._known,
            self._player_board,
            self._active,
            self._tribe,
            self._roman,
            self._druid,
            self._leader,
        )

    # -- the call --------------------------------------------------------------------------
    def write(self, state: Any, seat: int | None, out: np.ndarray | None = None) -> np.ndarray:
        """The vector of ``state`` seen by ``seat``, copied into ``out`` (a new array if None)."""
        moved = self._board(state)  # whether a number the scores read has changed
        kept = self.kept
        if kept[COUNTS] != (state.bag, len(state.deck), state.track, None if state.solo else state.teutates):
            self._counts(state)
        if kept[PROGRESS] != (state.prog_cards, state.prog_marks):
            self._progress(state)
            moved = True
        if kept[OFFERED] != (state.phase <= 1 and state.offered):
            self._offered(state)
        if kept[DISCARD] != state.discard:
            self._discard(state)
        scored = self._seats(state)
        moved = moved or scored == 2
        if self.hands != state.hands:
            self.hands = [hand[:] for hand in state.hands]
            scored = 1
        self._view(state, seat)
        self._turn(state, seat)
        if moved or self.scores is None:
            self._scores(state.scores(), state)
        elif scored:  # only strength or cards moved: only category I, (strength + cards) // 5, changes
            self._scores(
                [b + (state.strength[s] + sum(state.hands[s])) // 5 for s, b in enumerate(self.base)], None
            )
        if out is None:
            return self.live.copy()
        out[:] = self.live
        return out

    def _scores(self, scores: list[int], state: Any | None) -> None:
        """Write the scores (/ 50 in float32, as the observation path divides); keep them less category I
        (worked out from ``state``; None: they are the last ones kept plus category I)."""
        if state is not None:
            self.base = [x - (state.strength[s] + sum(state.hands[s])) // 5 for s, x in enumerate(scores)]
        if scores != self.scores:
            at = self.off["scores"]
            view, fiftieths = self.view, self.fiftieths
            for s, x in enumerate(scores):
                value = fiftieths.get(x)
                if value is None:  # divided in float32, as the observation path divides
                    value = fiftieths[x] = float(np.float32(x) / np.float32(50))
                view[at + s] = value
            self.scores = scores

    def _board(self, state: Any) -> bool:
        """Rewrite the board's parts that changed; whether the citadels or garrisons did."""
        kept = self.kept
        moved = False
        if kept[AREAS] != (state.areas, state.centre):
            self._areas(state)
        if kept[MARKET] != state.market:
            self._market(state)
        if kept[CITADELS] != (state.citadels, state.bonus_at, state.bonus_owner):
            self._citadels(state)
            moved = True
        if kept[STACKS] != (state.roman, state.druid, state.druid_supply):
            self._stacks(state)
        if kept[GARRISON] != state.garrison:
            self._garrison(state)
            moved = True
        return moved

    # -- the board --------------------------------------------------------------------------
    def _areas(self, state: Any) -> None:
        """The workers on the action areas' spaces and the centre: only the spaces that changed."""
        then = self.kept[AREAS] or ([None] * len(state.areas), None)
        at = self.off["areas"]
        for a, row in enumerate(state.areas):
            if row != then[0][a]:
                self._one_hots(at + a * 18, 6, row, then[0][a])
        self._one_hots(self.off["centre"], 6, state.centre, then[1])
        self.kept[AREAS] = ([row[:] for row in state.areas], state.centre[:])

    def _market(self, state: Any) -> None:
        """The cards on the markets: only the places that changed."""
        then = self.kept[MARKET] or [None] * len(state.market)
        at = self.off["markets"]
        for r, row in enumerate(state.market):
            if row != then[r]:
                self._one_hots(at + r * 78, 13, row, then[r])
        self.kept[MARKET] = [row[:] for row in state.market]

    def _citadels(self, state: Any) -> None:
        """The owners of the citadels' spaces, each citadel's bonus and who took it: only the
        spaces, bonuses and takers that changed (each has a one-hot of its own)."""
        own, view, bonus_index = self.own, self.view, self.bonus_index
        at, bonus_at, owner_at = self.citadel_at
        kinds = len(bonus_index)
        citadels, bonuses, owners = state.citadels, state.bonus_at, state.bonus_owner
        then = self.kept[CITADELS] or (
            [[None] * len(cit) for cit in citadels],
            [None] * len(bonuses),
            [None] * len(owners),
        )
        for i, cit in enumerate(citadels):
            old = then[0][i]
            if cit != old:
                row = at + i * 30
                for s, o in enumerate(cit):
                    was = old[s]
                    if o != was:
                        if was is not None:
                            view[row + s * 6 + own[was]] = 0.0
                        view[row + s * 6 + own[o]] = 1.0
        for i, b in enumerate(bonuses):
            was = then[1][i]
            if b != was:
                if was is not None:
                    view[bonus_at + i * kinds + bonus_index[was]] = 0.0
                view[bonus_at + i * kinds + bonus_index[b]] = 1.0
        for i, o in enumerate(owners):
            was = then[2][i]
            if o != was:
                if was is not None:
                    view[owner_at + i * 5 + (0 if was < 0 else 1 + was)] = 0.0
                view[owner_at + i * 5 + (0 if o < 0 else 1 + o)] = 1.0
        self.kept[CITADELS] = ([cit[:] for cit in citadels], bonuses[:], owners[:])

    def _stacks(self, state: Any) -> None:
        """The stacks' top tiles and sizes, and the druid supply."""
        off = self.off
        at, width = off["roman_top"], len(self.roman_index) + 1
        values = [
            (at + i * width + (1 + self.roman_index[stack[-1]] if stack else 0), 1.0)
            for i, stack in enumerate(state.roman)
        ]
        at, width = off["druid_top"], len(self.druid_index) + 1
        values += [
            (at + i * width + (1 + self.druid_index[stack[-1]] if stack else 0), 1.0)
            for i, stack in enumerate(state.druid)
        ]
        sizes = (
            [len(s) / 5 for s in state.roman]
            + [len(s) / 5 for s in state.druid]
            + [n / 5 for n in state.druid_supply]
        )
        values += [(off["stacks"] + i, x) for i, x in enumerate(sizes)]
        self._write(STACKS, values)
        self.kept[STACKS] = ([s[:] for s in state.roman], [s[:] for s in state.druid], state.druid_supply[:])

    def _garrison(self, state: Any) -> None:
        own = self.own
        at = self.off["garrison"]
        self._write(
            GARRISON,
            [
                (at + (r * 6 + i) * 6 + own[o], 1.0)
                for r, row in enumerate(state.garrison)
                for i, o in enumerate(row)
            ],
        )
        self.kept[GARRISON] = [row[:] for row in state.garrison]

    def _counts(self, state: Any) -> None:
        """Bag, deck, track, Teutates."""
        off = self.off
        bag = state.bag
        at = off["bag"]
        values = [
            (at, bag[0] / 16),
            (at + 1, bag[1] / 16),
            (at + 2, bag[2] / 16),
            (at + 3, bag[3] / 16),
            (off["deck_size"], len(state.deck) / 60),
            (off["track"], state.track / 12),
        ]
        if not state.solo:
            values += [(off["teutates"], 1.0), (off["teutates"] + 1, state.teutates / 3)]
        self._write(COUNTS, values)
        self.kept[COUNTS] = (bag[:], len(state.deck), state.track, None if state.solo else state.teutates)

    def _progress(self, state: Any) -> None:
        off = self.off
        at, marks_at = off["progress_card"], off["progress_marks"]
        width = len(self.progress_index) + 1
        cards = self.data.progress_cards
        values = []
        for i, c in enumerate(state.prog_cards):
            values += [
                (at + i * width + 1 + self.progress_index[c], 1.0),
                (marks_at + 2 * i, state.prog_marks[i] / 3),
                (marks_at + 2 * i + 1, cards[c][3] / 3),
            ]
        values += [(at + i * width, 1.0) for i in range(len(state.prog_cards), 8)]
        self._write(PROGRESS, values)
        self.kept[PROGRESS] = (state.prog_cards[:], state.prog_marks[:])

    def _offered(self, state: Any) -> None:
        """The leaders on offer (shown while leaders are chosen)."""
        at = self.off["offered_leaders"]
        offered = state.phase <= 1 and state.offered
        self._write(OFFERED, [(at + self.leader_index[i], 1.0) for i in offered or ()])
        self.kept[OFFERED] = offered and offered[:]

    def _discard(self, state: Any) -> None:
        counts = [0] * 12
        for card in state.discard:
            counts[card] += 1
        at = self.off["discard"]
        self._write(DISCARD, [(at + k, self.fifths[c]) for k, c in enumerate(counts) if c])
        self.kept[DISCARD] = state.discard[:]

    # -- the seats ----------------------------------------------------------------------------
    def _seats(self, state: Any) -> int:
        """Rewrite the groups of each seat whose lists changed; 2 if a list the scores read changed, 1 if
        only strength did (it moves category I alone), else 0."""
        lists = [
            state.known,
            state.strength,
            state.tokens,
            state.discs,
            state.cubes,
            state.bonus_owner,
            state.active,
            state.tribe,
            state.roman_won,
            state.druid_won,
            state.leaders,
            state.leader_side,
        ]
        kept = self.seat_lists
        if lists == kept:
            return 0
        scored = 0
        n = state.n
        writers = self.group_values
        for f, now in enumerate(lists):
            then = kept[f]
            if now == then:
                continue
            group, score, every_seat = FIELDS[f]
            if score > scored:
                scored = score
            kept[f] = [row[:] for row in now] if isinstance(now[0], list) else now[:]
            for s in range(n):
                if then is None or every_seat or now[s] != then[s]:
                    self._write(SEAT + group * SEATS + s, writers[group](state, s))
        return scored

    def _known(self, state: Any, s: int) -> list[tuple[int, float]]:
        at = self.off["known_cards"] + s * 12
        return [(at + k, c / 5) for k, c in enumerate(state.known[s]) if c]

    def _player_board(self, state: Any, s: int) -> list[tuple[int, float]]:
        discs = state.discs[s]
        costs = self.data.disc_costs
        cost = costs[discs] if discs < len(costs) else None
        at = self.off["player"] + s * 9
        return [
            (at + i, x)
            for i, x in enumerate(
                (
                    state.strength[s] / 20,
                    state.tokens[s] / 10,
                    discs / 9,
                    (self.discs - discs) / 9,
                    float(cost is not None),
                    (cost or 0) / 5,
                    state.cubes[s] / 4,
                    state.bonus_owner.count(s) / 4,
                    1.0,
                )
            )
        ]

    def _active(self, state: Any, s: int) -> list[tuple[int, float]]:
        active = [w for w in range(4) for _ in range(state.active[s][w])]
        if len(active) > MAX_ACTIVE:
            raise ValueError(f"seat {s} has {len(active)} active workers; the encoding holds {MAX_ACTIVE}")
        at = self.off["active"] + s * MAX_ACTIVE * 6
        return [(at + i * 6 + (1 + active[i] if i < len(active) else 0), 1.0) for i in range(MAX_ACTIVE)]

    def _tribe(self, state: Any, s: int) -> list[tuple[int, float]]:
        at = self.off["tribe"] + s * 5
        return [(at + w, c / 8) for w, c in enumerate(state.tribe[s]) if c]

    def _roman(self, state: Any, s: int) -> list[tuple[int, float]]:
        at = self.off["roman_won"] + s * len(self.roman_index)
        won = [self.roman_index[tile] for tile in state.roman_won[s]]
        return [(at + k, float(won.count(k))) for k in sorted(set(won))]

    def _druid(self, state: Any, s: int) -> list[tuple[int, float]]:
        at = self.off["druid_won"] + s * 2
        points = [self.data.druid_tiles[tile][0] for tile in state.druid_won[s]]
        return [(at + p - 1, self.druid_sums[points.count(p)]) for p in (1, 2) if p in points]

    def _leader(self, state: Any, s: int) -> list[tuple[int, float]]:
        off = self.off
        lid = state.leaders[s]
        values = [
            (
                off["leader"]
                + s * (len(self.leader_index) + 1)
                + (0 if lid < 0 else 1 + self.leader_index[lid]),
                1.0,
            )
        ]
        if state.leader_side[s] == 1:
            values.append((off["leader_flip"] + s * 6, 1.0))
        return values

    def _view(self, state: Any, seat: int | None) -> None:
        """What depends on who looks: the own hand (each seat's last hand and its entries kept, as
        seats take turns looking), and each seat's leader flip as that seat sees it (a part of its
        own, the same for every seat but while a flip is decided)."""
        hand = None if seat is None else state.hands[seat]
        kept = self.kept[VIEW]
        if kept is None or kept[0] != seat or kept[1] != hand:
            copy: list[int] | None = None
            values: list[tuple[int, float]] = []
            if seat is not None:
                known = self.hand_values[seat]
                if known is not None and known[0] == hand:
                    copy, values = known
                else:
                    off = self.off
                    at = off["hand"] + seat * 12
                    values.append((off["hand_seen"] + seat, 1.0))
                    own = state.hands[seat]
                    values += [(at + k, c / 5) for k, c in enumerate(own) if c]
                    copy = own[:]
                    self.hand_values[seat] = (copy, values)
            self._write(VIEW, values)
            self.kept[VIEW] = (seat, copy)  # never changed in place (a new copy for each new hand)
        revealed = state.flip_revealed
        flipping = bool(revealed) or bool(state.pending) and any(p[0] == P_FLIP for p in state.pending)
        key = flipping and (seat, revealed, state.flip_choice)
        if self.kept[FLIP] == key:
            return
        at = self.off["leader_flip"]
        values = []
        for s in range(state.n):
            flip = flip_view(state, state.flip_choice[s], seat == s or bool(revealed)) if flipping else None
            values.append((at + s * 6 + 1 + self.flip_index[flip], 1.0))
        self._write(FLIP, values)
        self.kept[FLIP] = flipping and (seat, revealed, state.flip_choice[:])

    # -- the turn --------------------------------------------------------------------------
    def _turn(self, state: Any, seat: int | None) -> None:
        """Seat, seat to move, phase, pending decision, stage, marker, action, tokens; Solitairix's part."""
        ctx = state.ctx
        kind, region, sx_card, sx_moved = ctx.kind, ctx.region, ctx.sx_card, ctx.sx_moved
        cur = state.current_player()
        pending = state.pending
        turn_at, final_at, marker_at, action_at, phase_at, seat_at, current_at, at = self.turn_at
        ones = [
            turn_at + state.turn,
            final_at + state.stage,
            marker_at + state.marker,
            action_at + (0 if kind < 0 else 1 + 2 * kind + region),
            phase_at + (self.phases - 1 if cur < 0 else self.phases - 2 if pending else int(state.phase)),
        ]
        if seat is not None:
            ones.append(seat_at + seat)
        if cur >= 0:
            ones.append(current_at + cur)
        if not pending:
            ones.append(at)
        else:
            what, who = pending[0]
            k = PENDING_KINDS + (cur if what == P_FLIP else who)
            ones += [at + (2 if what == P_FLIP else 1), at + (k if k >= 0 else k + PENDING_KINDS + SEATS)]
        old = self.kept[TURN]
        if ones != old:
            view = self.view
            if old is not None and len(old) == len(ones):
                for i, j in zip(old, ones, strict=True):  # the one-hots that moved are cleared ...
                    if i != j:
                        view[i] = 0.0
            else:
                for i in old or ():
                    view[i] = 0.0
            for i in ones:  # ... and all set again (two of them may share an entry)
                view[i] = 1.0
            self.kept[TURN] = ones
        self.view[self.off["token_supply"]] = state.token_supply / 10
        if state.solo:
            self._write(SOLO, self._solo_values(state, sx_card, sx_moved))

    def _solo_values(self, state: Any, sx_card: int, sx_moved: int) -> list[tuple[int, float]]:
        """Solitairix's numbers, its worker, its last turn and the card it drew."""
        off = self.off
        card, steps, _quarter, kind, region, _swap = (state.last_sx + [-1] * 6)[:6]
        last = not (card is None or kind < 0)
        target = self.target
        at = off["solo"]
        values = [
            (at + i, float(x))
            for i, x in enumerate(
                (
                    1.0,
                    (state.sx_side + 1) / 2,
                    (state.sx_quarter + 1) / 4,
                    state.discs[1] / 9,
                    state.cubes[1] / 4,
                    len(state.roman_won[1]) / 5,
                    len(state.druid_won[1]) / 5,
                    state.tribe[1][4] / 10,
                    state.bonus_owner.count(1) / 4,
                    state.sx_discarded_markers / 4,
                    target == 0,
                    target == 1,
                    target == 2,
                    (steps if last else 0) / 3,
                    last,
                )
            )
        ]
        values.append((off["solo_worker"] + (0 if state.sx_worker < 0 else 1 + state.sx_worker), 1.0))
        if last:
            values.append((off["solo_last"] + (0 if card < 0 else 1 + card), 1.0))
            values.append((off["solo_last"] + 14 + 2 * kind + region, 1.0))
        drawn = sx_card if state.turn == 1 and sx_moved and sx_card >= 0 else -1
        values.append((off["solo_drawn"] + 1 + drawn, 1.0))
        return values
