"""Garum's observation vector: what one seat sees, as fixed-size float32 blocks.

What ``state.observation(seat)`` shows, nothing more: ``encode`` reads that dict,
``encode_state`` (what the environments call) reads the same facts straight from the
state. Colours are in rulebook order B (blue, tuna), G (green, mackerel), Y (yellow,
mollusc), R (red, shellfish); seats are absolute (the ``seat`` block says which one is
"me"); cells are fish cells in reading order (``row * 16 + column``); lines are
``h1..h16`` then ``v1..v16``. Counts are divided by a fixed scale so that most values lie
in 0..1; :meth:`GarumEncoder.decode` multiplies back.

================  ===========  ================================================================
block             shape        meaning
================  ===========  ================================================================
cells             (256, 6)     one-hot per fish cell: hole (no cetarium), empty, B, G, Y, R fish
bonus             (256, 5)     bonus space under the cell: B, G, Y, R species bonus, joker
slots             (16, 4, 5)   cetarium 1..16, slot 1..4: empty, or filled by colour B/G/Y/R
workers           (32, 8)      line h1..v16: colour B/G/Y/R x (vilicus, dominus); 0 if free
colours           (4, 8)       per colour: mine, ghost, to move, vilicus/5, dominus/1,
                               hand size/4, pile/16, bonus points/50
hands             (4, 13)      my colours only: count of each tile pattern in hand / 4
                               (patterns: the distinct ``tiles.json`` patterns, sorted)
ghost_tile        (13,)        one-hot pattern of the ghost's tile being placed (3 players)
scores            (4,)         score of seat 0..3 / 100 (0 for absent seats)
seat              (4,)         one-hot: the seat this view belongs to (0 for the spectator)
round             (16,)        one-hot: current round 1..16
cetarium          (17,)        one-hot: no cetarium yet, or cetarium 1..16 of this round
closed            (2,)         this round's row / column areas are closed to workers
aureus_revealed   (16, 16)     round i's aureus coin: one-hot cetarium 1..16
aureus_order      (16, 16)     Haruspex only: the whole public order, as above
amphora           (4,)         one-hot: seat holding the amphora (first player)
phase             (5,)         one-hot: choose, place, worker, ghost, over
current_player    (4,)         one-hot: seat to move (0 once the game is over)
================  ===========  ================================================================
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ludus.rl.encoding import ActionMap, Encoder

from .actions import Place
from .data import load_tiles
from .encoder_state import LINES, MAX_CETARIA, PHASES, SIZE, SPECIES, StateWriter

if TYPE_CHECKING:
    from .game import GarumGame

CELL_KINDS = " .BGYR"  # hole, empty, then species: the observation's fish letters
SCALE = {"vilicus": 5, "dominus": 1, "hand_size": 4, "pile": 16, "bonus": 50, "hand": 4, "score": 100}

_SLOT_CODE: dict[str | None, int] = {None: 0, **{letter: 1 + i for i, letter in enumerate(SPECIES)}}
_CELL_INDEX = np.full(256, -1, dtype=np.int64)
for _i, _ch in enumerate(CELL_KINDS):
    _CELL_INDEX[ord(_ch)] = _i


def _patterns() -> tuple[str, ...]:
    return tuple(sorted(set(load_tiles().patterns)))


def pattern_fish(pattern: str, colour: int) -> str:
    """The fish letters of a tile pattern (X own species, a/b/c the others) for ``colour``."""
    others = [s for s in SPECIES if s != SPECIES[colour]]
    code = {"X": SPECIES[colour], "a": others[0], "b": others[1], "c": others[2]}
    return "".join(code[ch] for ch in pattern)


class GarumEncoder(Encoder):
    game_name = "garum"
    state_writer = StateWriter  # encode_state: straight from the state, only what changed
    game: GarumGame

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.patterns = _patterns()
        n = len(self.patterns)
        self.pattern_of = [{pattern_fish(p, c): i for i, p in enumerate(self.patterns)} for c in range(4)]
        self.fish_of = [[pattern_fish(p, c) for p in self.patterns] for c in range(4)]
        b = self._block
        b("cells", (SIZE * SIZE, 6), "fish cell: hole, empty, B, G, Y, R")
        b("bonus", (SIZE * SIZE, 5), "bonus space: B, G, Y, R, joker")
        b("slots", (MAX_CETARIA, 4, 5), "slot filled by: empty, B, G, Y, R")
        b("workers", (LINES, 8), "worker on line: colour x (V, D)")
        b("colours", (4, 8), "mine, ghost, to move, vilicus/5, dominus, hand/4, pile/16, bonus/50", high=10.0)
        b("hands", (4, n), "own hands: tile pattern counts / 4")
        b("ghost_tile", (n,), "ghost tile pattern")
        b("scores", (4,), "seat scores / 100 (line points can be negative)", high=10.0, low=-10.0)
        b("seat", (4,), "my seat")
        b("round", (16,), "round 1..16")
        b("cetarium", (MAX_CETARIA + 1,), "round's cetarium: none, 1..16")
        b("closed", (2,), "row / column area closed")
        b("aureus_revealed", (16, MAX_CETARIA), "round -> revealed cetarium")
        b("aureus_order", (16, MAX_CETARIA), "Haruspex: public aureus order")
        b("amphora", (4,), "amphora seat")
        b("phase", (len(PHASES),), "phase: " + ", ".join(PHASES))
        b("current_player", (4,), "seat to move")
        self._static: dict[str, np.ndarray] = {}
        self._grid: _PlaceGrid | None = None  # where _grid_of, the last action map, numbers placements
        self._grid_of: ActionMap | None = None

    def max_game_length(self) -> int:
        """Each round: a choice, two decisions per turn colour, the ghost's placement."""
        rounds = self.game.board.rounds
        return rounds * (2 + 2 * len(self.game.seating.turn_colours))

    # -- encode --------------------------------------------------------------------------
    def _template(self, obs: dict[str, Any]) -> np.ndarray:
        """A vector holding the board's fixed facts (its bonus spaces), made once per board."""
        template = self._static.get(obs["board"])
        if template is None:
            template = self.zeros()
            bonus = self.view(template, "bonus")
            for entry in obs["bonuses"]:
                r, c = entry["cell"]
                kind = entry["kind"]
                bonus[r * SIZE + c, 4 if kind == "*" else SPECIES.index(kind)] = 1.0
            self._static[obs["board"]] = template
        return template

    def encode(self, obs: dict[str, Any]) -> np.ndarray:
        v = self._template(obs).copy()
        view = self.view
        idx = _CELL_INDEX[np.frombuffer("".join(obs["fish"]).encode("ascii"), dtype=np.uint8)]
        view(v, "cells")[np.arange(SIZE * SIZE), idx] = 1.0
        rows, kinds = [], []
        for cet, filled in obs["slots"].items():
            base = (int(cet) - 1) * 4
            for s, colour in enumerate(filled):
                rows.append(base + s)
                kinds.append(_SLOT_CODE[colour])
        view(v, "slots").reshape(MAX_CETARIA * 4, 5)[rows, kinds] = 1.0
        workers = view(v, "workers")
        for w in obs["workers"]:
            workers[_line_id(w["line"]), 2 * SPECIES.index(w["colour"]) + (w["kind"] == "D")] = 1.0
        colours = view(v, "colours")
        hands = view(v, "hands")
        current = obs["current_colour"]
        for c, col in enumerate(obs["colours"]):
            colours[c] = (
                col["hand"] is not None,
                col["ghost"],
                current == col["colour"],
                col["vilicus"] / SCALE["vilicus"],
                col["dominus"] / SCALE["dominus"],
                col["hand_size"] / SCALE["hand_size"],
                col["pile"] / SCALE["pile"],
                col["bonus"] / SCALE["bonus"],
            )
            if col["hand"] is not None:
                for fish in col["hand"]:
                    hands[c, self.pattern_of[c][fish]] += 1.0
        hands /= SCALE["hand"]
        if obs["ghost_tile"] is not None:
            ghost = next(c for c, col in enumerate(obs["colours"]) if col["ghost"])
            view(v, "ghost_tile")[self.pattern_of[ghost][obs["ghost_tile"]]] = 1.0
        scores = obs["scores"]
        view(v, "scores")[: len(scores)] = np.asarray(scores, dtype=np.float32) / SCALE["score"]
        if obs["seat"] is not None:
            view(v, "seat")[obs["seat"]] = 1.0
        view(v, "round")[obs["round"] - 1] = 1.0
        view(v, "cetarium")[obs["cetarium"] or 0] = 1.0
        if obs["closed"] is not None:
            view(v, "closed")[:] = (obs["closed"]["h"], obs["closed"]["v"])
        aureus = obs["aureus"]
        revealed = view(v, "aureus_revealed")
        for i, cet in enumerate(aureus["revealed"]):
            revealed[i, cet - 1] = 1.0
        if aureus["order"] is not None:
            order = view(v, "aureus_order")
            for i, cet in enumerate(aureus["order"]):
                order[i, cet - 1] = 1.0
        view(v, "amphora")[obs["amphora"]] = 1.0
        view(v, "phase")[PHASES.index(obs["phase"])] = 1.0
        if obs["current_player"] >= 0:
            view(v, "current_player")[obs["current_player"]] = 1.0
        return v

    # -- the mask -------------------------------------------------------------------------
    def mark_legal(self, state: Any, actions: ActionMap, mask: np.ndarray) -> None:
        """Placements are set a free slot at a time: the row of that slot's placements (one per
        layout, in ``all_actions()`` order) takes the row of the layouts the tiles can show."""
        if self._grid_of is not actions:
            self._grid, self._grid_of = _PlaceGrid.of(actions), actions
        grid = self._grid
        layouts = None if grid is None else state.placement_layouts()
        if grid is None or layouts is None:
            actions.mark_legal(state, mask.data)
            return
        row = grid.rows.get(layouts)
        if row is None:
            row = grid.rows[layouts] = np.zeros(grid.width, dtype=np.int8)
            row[[grid.rank[f] for f in layouts]] = 1
        width = grid.width
        start = grid.first_row[state.cetarium] * width
        slots = state.slots[state.cetarium]
        for s in range(4):
            if slots[s] < 0:
                at = start + s * width
                mask[at : at + width] = row

    # -- decode --------------------------------------------------------------------------
    def decode(self, vector: np.ndarray) -> dict[str, Any]:
        """The facts a vector holds, in the observation's own terms (letters, line names)."""
        view = self.view
        players = self.game.num_players
        cells = view(vector, "cells").argmax(axis=1)
        fish = ["".join(CELL_KINDS[k] for k in cells[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)]
        workers = []
        for line, row in enumerate(view(vector, "workers")):
            if row.any():
                k = int(row.argmax())
                workers.append({"line": _line_name(line), "colour": SPECIES[k // 2], "kind": "VD"[k % 2]})
        colours = view(vector, "colours")
        hands_v = view(vector, "hands")
        hands = {}
        pools = []
        for c in range(4):
            row = colours[c]
            if row[0] > 0.5:
                counts = np.rint(hands_v[c] * SCALE["hand"]).astype(int)
                hands[SPECIES[c]] = sorted(
                    f for f, n in zip(self.fish_of[c], counts, strict=True) for _ in range(n)
                )
            pools.append(
                {
                    "colour": SPECIES[c],
                    "ghost": bool(row[1] > 0.5),
                    "vilicus": _back(row[3], "vilicus"),
                    "dominus": _back(row[4], "dominus"),
                    "hand_size": _back(row[5], "hand_size"),
                    "pile": _back(row[6], "pile"),
                    "bonus": _back(row[7], "bonus"),
                }
            )
        current = [SPECIES[c] for c in range(4) if colours[c, 2] > 0.5]
        slots = {}
        for cet in self.game.board.cetaria:
            slots[str(cet)] = [
                None if k == 0 else SPECIES[k - 1] for k in view(vector, "slots")[cet - 1].argmax(axis=1)
            ]
        ghost = view(vector, "ghost_tile")
        ghost_colour = self.game.seating.ghost
        order = view(vector, "aureus_order")
        phase = PHASES[int(view(vector, "phase").argmax())]
        return {
            "fish": fish,
            "slots": slots,
            "workers": workers,
            "hands": hands,
            "colours": pools,
            "ghost_tile": self.fish_of[ghost_colour][int(ghost.argmax())]
            if ghost_colour is not None and ghost.any()
            else None,
            "scores": [_back(x, "score") for x in view(vector, "scores")[:players]],
            "seat": _one(view(vector, "seat")),
            "round": int(view(vector, "round").argmax()) + 1,
            "cetarium": int(view(vector, "cetarium").argmax()) or None,
            "closed": (
                {"h": bool(view(vector, "closed")[0]), "v": bool(view(vector, "closed")[1])}
                if view(vector, "cetarium")[0] < 0.5
                else None
            ),
            "revealed": [int(row.argmax()) + 1 for row in view(vector, "aureus_revealed") if row.any()],
            "order": [int(row.argmax()) + 1 for row in order] if order.any() else None,
            "amphora": _one(view(vector, "amphora")),
            "phase": phase,
            "current_player": _one(view(vector, "current_player")),
            "current_colour": current[0] if current else None,
        }


class _PlaceGrid:
    """Where an action map numbers the placements, when they form a grid: cetarium by cetarium,
    slot 1..4, one row each, every row the same layouts in the same order (``all_actions()``
    lists them so)."""

    def __init__(self, width: int, rank: dict[str, int], first_row: dict[int, int]) -> None:
        self.width = width  # layouts in a row
        self.rank = rank  # layout -> its place in a row
        self.first_row = first_row  # cetarium -> the row of its slot 1
        self.stop = width * 4 * len(first_row)
        self.rows: dict[tuple[str, ...], np.ndarray] = {}  # layouts -> their row (made on first use)

    @classmethod
    def of(cls, actions: ActionMap) -> _PlaceGrid | None:
        """The grid of ``actions``' placements, or None if they do not lie as one from index 0."""
        places: dict[tuple[int, int], list[tuple[int, str]]] = {}
        for i, action in enumerate(actions.actions):
            if type(action) is Place:
                places.setdefault((action.cetarium, action.slot), []).append((i, action.fish))
        if not places:
            return None
        layouts = [f for _i, f in next(iter(places.values()))]
        width = len(layouts)
        first_row = {}
        for (cetarium, slot), row in places.items():
            start = row[0][0]
            if [f for _i, f in row] != layouts or [i for i, _f in row] != list(range(start, start + width)):
                return None
            if start % width or (slot == 1) != (cetarium not in first_row):
                return None
            if slot == 1:
                first_row[cetarium] = start // width
            elif start // width != first_row[cetarium] + slot - 1:
                return None
        if len(places) != 4 * len(first_row) or sorted(first_row.values()) != list(range(0, len(places), 4)):
            return None
        return cls(width, {f: r for r, f in enumerate(layouts)}, first_row)


def _back(x: float, what: str) -> int:
    return int(np.rint(float(x) * SCALE[what]))


def _one(row: np.ndarray) -> int | None:
    return int(row.argmax()) if row.any() else None


def _line_id(name: str) -> int:
    return int(name[1:]) - 1 + (SIZE if name[0] == "v" else 0)


def _line_name(line: int) -> str:
    return f"h{line + 1}" if line < SIZE else f"v{line - SIZE + 1}"
