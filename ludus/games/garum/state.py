"""The rules of Garum: rounds, turns, placements, workers, bonuses and the end.

A colour's turn is two decisions: place a tile (``Place``), then a worker or ``pass``
(skipped when no worker can go). The draw that ends the turn is automatic. The round's
cetarium comes from the aureus (pre-shuffled, hidden until flipped), from the public
Haruspex order, or from the first player's ``Choose`` in the Emperor variant. Decisions
with a single possible action (the ghost's orientation when it cannot change, the last
Emperor choice) are taken automatically.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from ludus.engine.action import Action
from ludus.engine.rand import shuffle
from ludus.engine.state import TERMINAL, State

from .actions import PASS, SPECIES, Choose, Pass, Place, Worker, cetarium_places, choose
from .data import JOKER
from .observe import observation
from .scoring import score_lines

if TYPE_CHECKING:
    from .game import GarumGame

EMPTY = -1
HOLE = -2
PHASES = ("choose", "place", "worker", "ghost", "over")
_SPECIES_CODE = {letter: i for i, letter in enumerate(SPECIES)}


def placement_bonus(game: GarumGame, action: Place, colour: int) -> int:
    """Bonus points ``colour`` gains by ``action`` (jokers, and species on their own bonus cells)."""
    board = game.board
    gained = 0
    for i, kind in _slot_bonus_cells(game, action.cetarium, action.slot):
        if kind == JOKER:
            gained += board.joker_bonus
        elif SPECIES.index(action.fish[i]) == kind and (
            game.config["species_bonus"] == "any" or kind == colour
        ):
            gained += board.species_bonus
    return gained


@lru_cache(maxsize=1_024)
def _slot_bonus_cells(game: GarumGame, cetarium: int, slot: int) -> tuple[tuple[int, int], ...]:
    """The bonus cells a tile in this slot covers: (the cell's place in the tile's reading order, its
    kind), listed once for each game and slot."""
    bonus_cells = game.board.bonus_cells
    return tuple(
        (i, bonus_cells[cell])
        for i, cell in enumerate(game.board.slot_cells[cetarium, slot])
        if cell in bonus_cells
    )


@lru_cache(maxsize=256)
def _line_choices(game: GarumGame, cetarium: int) -> tuple[tuple[int, int, Action, Action], ...]:
    """The lines crossing ``cetarium``: (line, its area (0 rows, 1 columns), its vilicus and its dominus
    actions), listed once for each game (the game's own Worker objects)."""
    return tuple(
        (line, int(i >= 4), game.worker_action("V", line), game.worker_action("D", line))
        for i, line in enumerate(game.board.lines[cetarium])
    )


class GarumState(State):
    game: GarumGame
    # the worker phase's legal actions, worked out by the placement that starts it (it must know
    # whether any exists) and handed to the first legal_actions() after it; never copied or saved
    _workers_ready: list[Action] | None = None

    def __init__(self, game: GarumGame, seed: int, *, _blank: bool = False) -> None:
        super().__init__(game, seed, _blank=_blank)
        if _blank:  # compiled (benchmarks/mypyc_build.py), made by clone: it sets the rest
            return
        g = game
        board = g.board
        size = board.size
        self.cells = [HOLE] * (size * size)
        for cells in board.slot_cells.values():
            for cell in cells:
                self.cells[cell] = EMPTY
        self.slots = {cet: [EMPTY] * 4 for cet in board.cetaria}  # colour that filled each slot
        self.placed: list[list[Any]] = []  # [colour, tile, cetarium, slot, fish]
        self.hands: list[list[int]] = []
        self.piles: list[list[int]] = []
        for colour in range(4):
            pile = list(g.tile_ids)
            self.rng.shuffle(pile)
            hand_size = 0 if colour == g.seating.ghost else board.hand_size
            self.hands.append([pile.pop() for _ in range(hand_size)])
            self.piles.append(pile)
        owners = g.seating.players if g.config["two_player_workers"] == "shared" else 4
        self.pool = [[g.tiles.vilicus, g.tiles.dominus] for _ in range(owners)]
        self.workers: list[list[Any] | None] = [None] * (2 * size)  # line -> [colour, "V"|"D"]
        self.bonus = [0] * 4
        self.aureus = list(board.aureus)
        if g.config["variant"] != "emperor":
            self.rng.shuffle(self.aureus)
        self.revealed: list[int] = []
        self.amphora = self.rng.randrange(len(g.seating.turn_colours))
        self.round = 0
        self.turn = 0
        self.cetarium = 0
        self.closed = [False, False]
        self.ghost_tile = 0
        self.phase = "place"
        self.final: list[list[Any]] = []
        self._turn_over = False  # set by the action being applied when it ends a turn (see _settles)
        self._start_round()

    # -- whose turn --------------------------------------------------------------------
    def current_colour(self) -> int | None:
        if self.phase == "ghost":
            return self.game.seating.ghost
        if self.phase in ("place", "worker"):
            return self._turn_colour()
        return None

    def _turn_colour(self) -> int:
        """The colour whose turn it is (in the place and worker phases)."""
        order = self.game.seating.turn_colours
        return order[(self.amphora + self.turn) % len(order)]

    def _ghost(self) -> int:
        """The ghost colour (3 players: the ghost phase and its tile exist only then)."""
        ghost = self.game.seating.ghost
        assert ghost is not None, "no ghost colour with this number of players"
        return ghost

    def current_player(self) -> int:
        phase = self.phase
        if phase == "over":
            return TERMINAL
        seating = self.game.seating
        order = seating.turn_colours
        if (
            phase == "place" or phase == "worker"
        ):  # the turn colour's owner (_turn_colour, inlined: asked often)
            return seating.owner[order[(self.amphora + self.turn) % len(order)]]  # type: ignore[return-value]
        return seating.owner[order[self.amphora]]  # type: ignore[return-value]

    # -- legal actions -------------------------------------------------------------------
    def placement_layouts(self) -> tuple[str, ...] | None:
        """In the place and ghost phases, every layout the placing colour's tiles can show
        (``game.layouts``): the placements are these layouts in each free slot of the round's
        cetarium. None in the other phases. The legal actions and the learning code's mask read it
        (the legality check reads ``game.can_show``, the same orientations)."""
        phase = self.phase
        if phase == "place":
            colour = self._turn_colour()
            return self.game.layouts(colour, self.hands[colour])
        if phase == "ghost":
            return self.game.layouts(self._ghost(), [self.ghost_tile])
        return None

    def _legal_actions(self) -> list[Action]:
        layouts = self.placement_layouts()
        if layouts is not None:
            places = cetarium_places(self.cetarium)
            slots = self.slots[self.cetarium]
            out: list[Action] = []
            for s in range(4):
                if slots[s] < 0:
                    out += map(places[s].__getitem__, layouts)
            return out
        phase = self.phase
        if phase == "worker":
            ready = self._workers_ready
            if ready is not None:  # listed by the placement that led here (see _place)
                self._workers_ready = None
                return ready
            return self._worker_actions(self._turn_colour())
        if phase == "choose":
            return [choose(c) for c in self.game.board.cetaria if EMPTY in self.slots[c]]
        return []

    def _offers(self, action: Action) -> bool:
        """A placement is checked without listing the others (a tile has ~40 placements; the
        learning environments never ask for the list): the layouts a colour can show are those
        of its tiles' orientations (``game.can_show``)."""
        if type(action) is not Place or self._legal is not None:
            return super()._offers(action)
        phase = self.phase
        if phase == "place":
            colour = self._turn_colour()
            tiles = self.hands[colour]
        elif phase == "ghost":
            colour = self._ghost()
            tiles = [self.ghost_tile]
        else:
            return False
        slot = action.slot
        return (
            action.cetarium == self.cetarium
            and 1 <= slot <= 4
            and self.slots[self.cetarium][slot - 1] < 0
            and self.game.can_show(colour, action.fish, tiles)
        )

    def _worker_actions(self, colour: int) -> list[Action]:
        pool = self.pool[self.game.pool_owner(colour)]
        vilicus, dominus = pool[0] > 0, pool[1] > 0
        out: list[Action] = []
        if not (vilicus or dominus):
            return out
        workers, closed = self.workers, self.closed
        for line, area, v, d in _line_choices(self.game, self.cetarium):
            if workers[line] is None and not closed[area]:
                if vilicus:
                    out.append(v)
                if dominus:
                    out.append(d)
        if out:
            out.append(PASS)
        return out

    def _why_illegal(self, action: Action) -> str:
        phase = self.phase
        if phase == "choose" and not isinstance(action, Choose):
            return f"{action} is not legal: the first player must first choose the round's cetarium"
        if isinstance(action, Place):
            if phase not in ("place", "ghost"):
                return f"{action} is not legal: this colour has placed its tile; place a worker or pass"
            if action.cetarium != self.cetarium:
                return f"{action} is not legal: this round's tiles go into cetarium {self.cetarium}"
            if not 1 <= action.slot <= 4 or self.slots[self.cetarium][action.slot - 1] != EMPTY:
                return f"{action} is not legal: slot {action.slot} of cetarium {self.cetarium} is taken"
            if not self.game.config["rotation"]:
                return f"{action} is not legal: no tile in hand shows those fish unrotated (rotation is off)"
            return f"{action} is not legal: no tile in hand shows those fish in any orientation"
        if isinstance(action, Worker | Pass):
            if phase != "worker":
                return f"{action} is not legal: a worker may only follow this colour's tile placement"
            if isinstance(action, Worker):
                board = self.game.board
                lines = board.lines[self.cetarium]
                if action.line not in lines:
                    return (
                        f"{action} is not legal: line {action.name} does not cross cetarium {self.cetarium}"
                    )
                if self.workers[action.line] is not None:
                    return f"{action} is not legal: line {action.name} already holds a worker"
                if self.closed[lines.index(action.line) >= 4]:
                    return (
                        f"{action} is not legal: the other cetaria of that area were all full before "
                        "this round, so no worker may go on its lines"
                    )
                who = "dominus" if action.dominus else "vilicus"
                return f"{action} is not legal: no {who} left"
        if isinstance(action, Choose):
            if phase != "choose":
                return f"{action} is not legal: the cetarium is chosen only by the first player in the Emperor variant"
            return f"{action} is not legal: cetarium {action.cetarium} is full or not on this board"
        return super()._why_illegal(action)

    # -- applying actions ----------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        self._turn_over = False
        self._workers_ready = None
        if isinstance(action, Place):
            self._place(action)
        elif isinstance(action, Worker):
            colour = self._turn_colour()
            self.workers[action.line] = [colour, action.kind]
            self.pool[self.game.pool_owner(colour)][action.dominus] -= 1
            self._end_turn()
        elif isinstance(action, Pass):
            self._end_turn()
        elif isinstance(action, Choose):
            self._set_cetarium(action.cetarium)
        self._settle()

    def _settles(self, actor: int) -> bool:
        """Undo stays within a turn: the action that ends one (with the draw that refills the hand,
        or the round it closes) closes the door; a tile before its worker, or the Emperor's choice
        before the tile, may be taken back."""
        return self._turn_over

    def _place(self, action: Place) -> None:
        game = self.game
        colour = self._ghost() if self.phase == "ghost" else self._turn_colour()
        if self.phase == "ghost":
            tile = self.ghost_tile
            self.ghost_tile = 0
        else:
            hand = self.hands[colour]
            tile = game.tile_showing(colour, action.fish, hand)
            hand.remove(tile)
        cells = game.board.slot_cells[action.cetarium, action.slot]
        board_cells = self.cells
        for cell, letter in zip(cells, action.fish, strict=True):
            board_cells[cell] = _SPECIES_CODE[letter]
        gained = placement_bonus(game, action, colour)
        if self.phase != "ghost":
            self.bonus[colour] += gained  # the ghost scores nothing (ruling 9)
        self.slots[action.cetarium][action.slot - 1] = colour
        self.placed.append([colour, tile, action.cetarium, action.slot, action.fish])
        if self.phase == "ghost":
            self._end_round()
            return
        workers = self._worker_actions(colour)
        if workers:
            self.phase = "worker"
            self._workers_ready = workers  # the next legal_actions(), unless something else comes first
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        colour = self._turn_colour()
        pile = self.piles[colour]
        if pile:
            self.hands[colour].append(pile.pop())
        self.turn += 1
        self._turn_over = True
        if self.turn < len(self.game.seating.turn_colours):
            self.phase = "place"
        elif self.game.seating.ghost is not None:
            self.phase = "ghost"
            self.ghost_tile = self.piles[self.game.seating.ghost].pop()
        else:
            self._end_round()

    def _end_round(self) -> None:
        self.round += 1
        self.amphora = (self.amphora + 1) % len(self.game.seating.turn_colours)
        self.turn = 0
        self._turn_over = True
        self._start_round()

    def _start_round(self) -> None:
        if self.round == self.game.board.rounds:
            self.phase = "over"
            self.cetarium = 0
            self.final = score_lines(self.game.board, self.cells, self.workers)
            return
        if self.game.config["variant"] == "emperor":
            self.phase = "choose"
            self.cetarium = 0
        else:
            self.revealed.append(self.aureus[self.round])
            self._set_cetarium(self.aureus[self.round])

    def _set_cetarium(self, cetarium: int) -> None:
        board = self.game.board
        self.cetarium = cetarium
        if self.phase == "choose":
            self.revealed.append(cetarium)
        self.phase = "place"
        for i, axis in enumerate("hv"):
            others = [c for c in board.area_of[cetarium, axis] if c != cetarium]
            self.closed[i] = all(EMPTY not in self.slots[c] for c in others)
        for colour in self.game.seating.turn_colours:  # ruling 10: hands never run dry
            assert self.hands[colour], f"colour {colour} has no tile in round {self.round + 1}"

    def _settle(self) -> None:
        """Take decisions that offer a single choice (ghost orientation, last Emperor choice)."""
        while self.phase in ("ghost", "choose"):
            legal = self._legal_actions()
            if len(legal) != 1:
                return
            if self.phase == "ghost":
                self._place(legal[0])  # type: ignore[arg-type]
            else:
                self._set_cetarium(legal[0].cetarium)  # type: ignore[attr-defined]

    # -- results -------------------------------------------------------------------------
    def colour_scores(self) -> list[int]:
        """Points of each colour: bonuses so far, plus its lines once the game is over."""
        out = list(self.bonus)
        for _line, colour, _kind, _count, points in self.final:
            out[colour] += points
        return out

    def scores(self) -> list[int]:
        per_colour = self.colour_scores()
        seating = self.game.seating
        return [sum(per_colour[c] for c in seating.colours_of(s)) for s in range(seating.players)]

    def vilicus_on_board(self, seat: int) -> int:
        mine = self.game.seating.colours_of(seat)
        return sum(1 for w in self.workers if w is not None and w[1] == "V" and w[0] in mine)

    def _tiebreak(self, seat: int) -> tuple:
        return (-self.vilicus_on_board(seat),)  # ruling 13: fewer vilicus wins a tie

    # -- information ---------------------------------------------------------------------
    def _observation(self, seat: int | None) -> dict[str, Any]:
        return observation(self, seat)

    def _resample(self, seat: int, rng: random.Random) -> None:
        mine = self.game.seating.colours_of(seat)
        for c in range(4):
            pile = self.piles[c]
            if c in mine:
                shuffle(rng, pile)  # own pile: order unknown, contents known
                continue
            hand = self.hands[c]
            unseen = hand + pile
            shuffle(rng, unseen)
            self.hands[c] = unseen[: len(hand)]
            self.piles[c] = unseen[len(hand) :]
        if self.game.config["variant"] == "standard":
            rest = self.aureus[len(self.revealed) :]
            shuffle(rng, rest)
            self.aureus[len(self.revealed) :] = rest

    # -- copies --------------------------------------------------------------------------
    _FIELDS = (
        "cells",
        "slots",
        "placed",
        "hands",
        "piles",
        "pool",
        "workers",
        "bonus",
        "aureus",
        "revealed",
        "amphora",
        "round",
        "turn",
        "cetarium",
        "closed",
        "ghost_tile",
        "phase",
        "final",
    )

    def _copy_into(self, other: State) -> None:
        o = cast(GarumState, other)  # typed, so that compiled (benchmarks/mypyc_build.py) it sets slots
        o.cells = self.cells[:]
        o.slots = {c: s[:] for c, s in self.slots.items()}
        o.placed = self.placed[:]  # rows are never mutated
        o.hands = [h[:] for h in self.hands]
        o.piles = [p[:] for p in self.piles]
        o.pool = [p[:] for p in self.pool]
        o.workers = self.workers[:]  # entries are never mutated
        o.bonus = self.bonus[:]
        o.aureus = self.aureus[:]
        o.revealed = self.revealed[:]
        o.closed = self.closed[:]
        o.final = self.final[:]
        o.amphora = self.amphora
        o.round = self.round
        o.turn = self.turn
        o.cetarium = self.cetarium
        o.ghost_tile = self.ghost_tile
        o.phase = self.phase
        o._turn_over = self._turn_over

    def _dump(self) -> dict[str, Any]:
        data = {name: getattr(self, name) for name in self._FIELDS}
        data["slots"] = {str(c): s for c, s in self.slots.items()}
        return data

    def _load(self, data: dict[str, Any]) -> None:
        for name in self._FIELDS:
            setattr(self, name, data[name])
        self.slots = {int(c): s for c, s in data["slots"].items()}
        self._turn_over = False  # between actions, as __init__ leaves it (the copy reads it)
        if self.phase not in PHASES:
            raise ValueError(f"unknown phase {self.phase!r}")
        if "turn_start" in data:  # saved before Garum's undo was the engine's: its own barrier, the true one
            if not 0 <= data["turn_start"] <= len(self._history):
                raise ValueError("turn_start outside the history")
            self._barrier = int(data["turn_start"])

    def _text(self) -> str:
        from .render import render_text

        return render_text(self.observation(None), color=False)

    def _repr_svg_(self) -> str:
        """The public board as SVG, for notebooks."""
        from .render import render_svg

        return render_svg(self.observation(None))
