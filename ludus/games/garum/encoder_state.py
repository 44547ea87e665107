"""Garum's observation vector written straight from the state: what the environments call.

:class:`StateWriter` keeps the last vector it wrote. The tiles placed are added as the list of
placements grows (any other list is written from the start); every other part (workers,
colours, the ghost's tile, scores, the turn's one-hots, the aureus coins) is kept with a
copy of the state's numbers it was written from and rewritten only when they differ. What
depends on the seat looking (its colours, its seat, its hands) is written into the copy handed
out, never into the kept vector, so that seats taking turns do not undo each other's. The
values are those of ``encode(state.observation(seat))`` bit for bit
(tests/rl/test_fast_encoding.py holds them equal on many positions).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ludus.rl.encoding import LiveVector

if TYPE_CHECKING:
    from .encoder import GarumEncoder

SIZE = 16
LINES = 2 * SIZE
MAX_CETARIA = 16
PHASES = ("choose", "place", "worker", "ghost", "over")
SPECIES = "BGYR"
# the parts of the live vector, each with what it was written from (kept[...]); FINAL and ROWS only
# keep numbers (no entries are written under them)
WORKERS, GHOST, SCORES, TURN, MOVER, REVEALED, ORDER, FINAL, ROWS = range(9)
PARTS = ROWS + 1


class StateWriter(LiveVector):
    """The live vector of one Garum encoder and what each part was written from."""

    def __init__(self, encoder: GarumEncoder) -> None:
        super().__init__(encoder.size, PARTS)
        game = encoder.game
        self.game = game
        self.off = off = {name: b.start for name, b in encoder.blocks.items()}
        self.cells_stop = encoder.blocks["slots"].stop  # cells, bonus spaces and slots: the board's blocks
        seating = game.seating
        self.rounds = game.board.rounds
        self.pools = [game.pool_owner(c) for c in range(4)]
        self.colours_of = [seating.colours_of(s) for s in range(game.num_players)]
        self.patterns = len(encoder.patterns)
        self.tile_pattern = [
            {t: encoder.pattern_of[c][game.fish_text(c, t)] for t in game.tile_ids} for c in range(4)
        ]
        ghost = seating.ghost
        self.ghost_pattern = (
            {t: encoder.pattern_of[ghost][game.fish_text(ghost, t)] for t in game.tile_ids}
            if ghost is not None
            else {}
        )
        self.amphora_seat = [seating.owner[c] for c in seating.turn_colours]
        self.phase_index = {p: i for i, p in enumerate(PHASES)}
        self.haruspex = game.config["variant"] == "haruspex"
        self.movers: dict[tuple, list[int]] = {}  # (phase, turn, amphora) -> its one-hots (_mover)
        base = encoder.zeros()
        base[:] = encoder._template(game.new_initial_state(seed=0).observation(None))
        cells = encoder.view(base, "cells")
        cells[:, 0] = 1.0  # a hole until a cetarium's slot says otherwise
        for slot_cells in game.board.slot_cells.values():
            for cell in slot_cells:
                cells[cell] = (0, 1, 0, 0, 0, 0)
        slots = encoder.view(base, "slots")
        for cet in game.board.cetaria:
            slots[cet - 1, :, 0] = 1.0
        self.board_base = base[: self.cells_stop].copy()
        colours = encoder.view(base, "colours")
        colours[:, 1] = [c == seating.ghost for c in range(4)]  # which colour is the ghost: fixed
        self.live[:] = base
        # a placement (colour, cetarium, slot, fish): the entries it clears and sets
        self.place_entries: dict[tuple, tuple[list[int], list[int]]] = {}
        self.placed: Any = None  # the placements list written, its length and last row
        self.placed_count = 0
        self.placed_last: Any = None
        self.slot_cells = game.board.slot_cells
        # each colour's last hand written and its entries (see _hand)
        self.hand_values: list[tuple[list[int], list[tuple[int, float]]] | None] = [None] * 4
        off = self.off
        # what depends on who looks, besides its hands: its colours ("mine") and its seat
        self.view_values = [
            [(off["colours"] + 8 * c, 1.0) for c in self.colours_of[seat]] + [(off["seat"] + seat, 1.0)]
            for seat in range(game.num_players)
        ]
        self.cells_at, self.slots_at = off["cells"], off["slots"]

    def write(self, state: Any, seat: int | None, out: np.ndarray | None = None) -> np.ndarray:
        """The vector of ``state`` seen by ``seat``, copied into ``out`` (a new array if None)."""
        placed = state.placed
        if (
            placed is not self.placed
            or len(placed) != self.placed_count
            or (placed and placed[-1] is not self.placed_last)
        ):
            self._placements(state)  # a tile placed since the last call, or another game
        kept = self.kept
        if state.workers != kept[WORKERS]:
            self._workers(state)
        hands, piles, pools, bonus = state.hands, state.piles, state.pool, state.bonus
        p0, p1, p2, p3 = self.pools
        rows = [  # each colour's vilicus, dominus, hand size, pile size and bonus points
            (pools[p0][0], pools[p0][1], len(hands[0]), len(piles[0]), bonus[0]),
            (pools[p1][0], pools[p1][1], len(hands[1]), len(piles[1]), bonus[1]),
            (pools[p2][0], pools[p2][1], len(hands[2]), len(piles[2]), bonus[2]),
            (pools[p3][0], pools[p3][1], len(hands[3]), len(piles[3]), bonus[3]),
        ]
        if rows != kept[ROWS]:
            self._rows(rows)
        if state.ghost_tile != kept[GHOST]:
            self._ghost(state.ghost_tile)
        if len(state.final) != kept[FINAL] or state.bonus != kept[SCORES]:
            self._scores(state)
        mover = (state.phase, state.turn, state.amphora)
        if mover != kept[MOVER]:
            ones = self._mover(state, mover)
            view = self.view
            for i in self.touched[MOVER]:
                view[i] = 0.0
            for i in ones:
                view[i] = 1.0
            self.touched[MOVER] = list(ones)  # ones is the memo's own list: never cleared in place
            kept[MOVER] = mover
        closed = state.closed
        turn = (state.round, state.cetarium, closed[0], closed[1], state.amphora)
        if turn != kept[TURN]:
            self._turn(state, turn)
        if self.haruspex or state.revealed != kept[REVEALED]:
            self._aureus(state)
        if out is None:
            out = self.live.copy()
        else:
            out[:] = self.live
        if seat is not None:
            self._seen_by(seat, hands, out.data)
        return out

    def _seen_by(self, seat: int, hands: list[list[int]], view: Any) -> None:
        """What only ``seat`` sees (its colours, its seat, its hands), written into the copy handed
        out (``view``, a memoryview of it): the live vector never holds any of it."""
        for i, x in self.view_values[seat]:
            view[i] = x
        for c in self.colours_of[seat]:
            for i, x in self._hand(c, hands[c]):
                view[i] = x

    # -- the board --------------------------------------------------------------------------
    def _placements(self, state: Any) -> None:
        """Add the tiles placed since the last call, or write them all if this is another list.

        Placements are appended to ``state.placed`` and never changed, so while the same list
        grows (with the same row last seen where it was) only the new ones are written.
        """
        placed = state.placed
        count = self.placed_count
        if (
            placed is not self.placed
            or count > len(placed)
            or (count and placed[count - 1] is not self.placed_last)
        ):
            # another list, or one cut short or changed: written from the start
            self.live[: self.cells_stop] = self.board_base
            count = 0
        if count < len(placed):
            view = self.view
            entries = self.place_entries
            for row in placed[count:]:
                key = (row[0], row[2], row[3], row[4])
                found = entries.get(key)
                if found is None:
                    found = entries[key] = self._placement(*key)
                for i in found[0]:
                    view[i] = 0.0
                for i in found[1]:
                    view[i] = 1.0
        self.placed, self.placed_count = placed, len(placed)
        self.placed_last = placed[-1] if placed else None

    def _placement(self, colour: int, cetarium: int, slot: int, fish: str) -> tuple[list[int], list[int]]:
        clear, put = [], []
        for cell, letter in zip(self.slot_cells[cetarium, slot], fish, strict=True):
            clear.append(self.cells_at + cell * 6 + 1)
            put.append(self.cells_at + cell * 6 + 2 + SPECIES.index(letter))
        row = self.slots_at + ((cetarium - 1) * 4 + slot - 1) * 5
        return [*clear, row], [*put, row + 1 + colour]

    def _workers(self, state: Any) -> None:
        """The workers on the lines: only the lines whose worker differs from the last call's are written."""
        at = self.off["workers"]
        view = self.view
        workers = state.workers
        old = self.kept[WORKERS] or [None] * len(workers)
        for line, w in enumerate(workers):
            then = old[line]
            if w != then:
                if then is not None:
                    view[at + line * 8 + 2 * then[0] + (then[1] == "D")] = 0.0
                if w is not None:
                    view[at + line * 8 + 2 * w[0] + (w[1] == "D")] = 1.0
        self.kept[WORKERS] = workers[:]  # its entries are never changed, only replaced

    # -- the colours ----------------------------------------------------------------------------
    def _rows(self, rows: list[tuple[int, int, int, int, int]]) -> None:
        """Each colour's vilicus, dominus, hand size, pile and bonus points (always at the same places);
        only the colours whose numbers changed are written."""
        view = self.view
        at = self.off["colours"] + 3
        old = self.kept[ROWS] or [None] * 4
        for c, row in enumerate(rows):
            if row != old[c]:
                vilicus, dominus, hand, pile, bonus = row
                i = at + 8 * c
                view[i], view[i + 1], view[i + 2], view[i + 3], view[i + 4] = (
                    vilicus / 5,
                    dominus / 1,
                    hand / 4,
                    pile / 16,
                    bonus / 50,
                )
        self.kept[ROWS] = rows

    def _hand(self, colour: int, hand: list[int]) -> list[tuple[int, float]]:
        """The entries of a colour's hand seen by its owner, as counts of each pattern, in quarters
        (exact in float32); each colour's last hand is kept with its entries."""
        known = self.hand_values[colour]
        if known is not None and known[0] == hand:
            return known[1]
        at = self.off["hands"] + colour * self.patterns
        patterns = self.tile_pattern[colour]
        counts: dict[int, float] = {}
        for t in hand:
            i = at + patterns[t]
            counts[i] = counts.get(i, 0.0) + 0.25
        values = list(counts.items())
        self.hand_values[colour] = (hand[:], values)
        return values

    def _aureus(self, state: Any) -> None:
        """The aureus coins revealed, and in the Haruspex variant the order of them all."""
        kept = self.kept
        if state.revealed != kept[REVEALED]:
            at = self.off["aureus_revealed"]
            self._write(
                REVEALED, [(at + i * MAX_CETARIA + cet - 1, 1.0) for i, cet in enumerate(state.revealed)]
            )
            kept[REVEALED] = state.revealed[:]
        if self.haruspex and state.aureus != kept[ORDER]:
            at = self.off["aureus_order"]
            self._write(ORDER, [(at + i * MAX_CETARIA + cet - 1, 1.0) for i, cet in enumerate(state.aureus)])
            kept[ORDER] = state.aureus[:]

    def _ghost(self, tile: int) -> None:
        """The ghost's tile (3 players), shown to all; 0 when it has none."""
        at = self.off["ghost_tile"]
        self._write(GHOST, [(at + self.ghost_pattern[tile], 1.0)] if tile else [])
        self.kept[GHOST] = tile

    def _scores(self, state: Any) -> None:
        """Each seat's bonuses, plus its lines once scored (the engine's ``scores()``), / 100."""
        points = list(state.bonus)
        for _line, colour, _kind, _count, line_points in state.final:
            points[colour] += line_points
        scores = np.array([sum(points[c] for c in colours) for colours in self.colours_of], dtype=np.float32)
        scores /= 100  # float32 division, as the observation path divides
        at = self.off["scores"]
        self._write(SCORES, [(at + s, float(x)) for s, x in enumerate(scores)])
        self.kept[SCORES] = state.bonus[:]
        self.kept[FINAL] = len(state.final)

    def _turn(self, state: Any, turn: tuple) -> None:
        """Round, cetarium, closed areas, amphora (they change once a round)."""
        round_, cetarium, closed_h, closed_v, amphora = turn
        off = self.off
        values = [
            (off["round"] + min(round_ + 1, self.rounds) - 1, 1.0),
            (off["cetarium"] + (cetarium or 0), 1.0),
            (off["amphora"] + self.amphora_seat[amphora], 1.0),
        ]
        if cetarium:
            values += [(off["closed"], float(closed_h)), (off["closed"] + 1, float(closed_v))]
        self._write(TURN, values)
        self.kept[TURN] = turn

    def _mover(self, state: Any, key: tuple) -> list[int]:
        """The phase, the colour to move and the seat to move as one-hots: a function of the phase,
        the turn and the amphora (``key``), worked out once for each."""
        ones = self.movers.get(key)
        if ones is None:
            off = self.off
            current = state.current_colour()
            player = state.current_player()
            ones = [off["phase"] + self.phase_index[key[0]]]
            if current is not None:
                ones.append(off["colours"] + 8 * current + 2)
            if player >= 0:
                ones.append(off["current_player"] + player)
            self.movers[key] = ones
        return ones
