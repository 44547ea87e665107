"""Garum: tile laying in Roman brine tanks, for 2 to 4 players.

Scope: the whole rulebook (Troia and Baelo Claudia boards; 2, 3 with the ghost, and 4
players; the Emperor and Haruspex variants) plus the options our rulings name. Not the
"Privileges" mini-expansion, whose rules are not in the rulebook. Perfect recall,
imperfect information: hands and pile orders are hidden, and so is the aureus order in
the standard game. Chance is drawn from the state's seeded RNG.
"""

from __future__ import annotations

import itertools
from functools import cache
from typing import Any

from ludus.engine.action import Action
from ludus.engine.errors import OptionError
from ludus.engine.game import Game, Option
from ludus.engine.hooks import Hooks

from .actions import PASS, SPECIES, Worker, choose, parse, place
from .data import BOARDS, PACKAGE, load_board, load_tiles
from .seats import colour_seats, seating
from .state import GarumState

_COLOURS = tuple(sp.colour for sp in load_tiles().species)
# every way to choose the colour seats' colours, clockwise: 3 colours with 3 players, 4 otherwise
COLOUR_CHOICES = (None, *(",".join(p) for n in (3, 4) for p in itertools.permutations(_COLOURS, n)))


def _rotate(fish: str) -> str:
    """The fish of a tile turned a quarter clockwise (reading order tl, tr, bl, br)."""
    return fish[2] + fish[0] + fish[3] + fish[1]


@cache
def orientations(fish: str, rotation: bool) -> tuple[str, ...]:
    """Distinct ways a tile can lie: itself, and its turns when rotation is allowed."""
    out = [fish]
    if rotation:
        for _ in range(3):
            fish = _rotate(fish)
            if fish not in out:
                out.append(fish)
    return tuple(out)


class GarumGame(Game):
    name = "garum"
    title = "Garum"
    tagline = "Tile laying in Roman brine tanks: place fish, claim the lines, 2 to 4 players."
    state_class = GarumState
    data_package = PACKAGE
    hooks = Hooks(
        renderer="ludus.games.garum.render",
        heuristic="ludus.games.garum.heuristic",
        explainer="ludus.games.garum.explain",
        encoder="ludus.games.garum.encoder:GarumEncoder",
        report_facts="ludus.games.garum.report:garum_facts",
        report_sections="ludus.games.garum.report:garum_sections",
        browser="ludus.games.garum:web/board.js",
        styles="ludus.games.garum:web/garum.css",
        rules="ludus.games.garum:web/rules.html",
        learned="ludus.games.garum.learned",
    )
    options = (
        Option(
            "players",
            (2, 3, 4),
            4,
            "2 players play two colours each; 3 players add the ghost colour",
            label="Players",
        ),
        Option(
            "board",
            BOARDS,
            "troia",
            "Troia (16 rounds) or Baelo Claudia (12 rounds, hand of 3)",
            label="Board",
            choice_labels=("Troia (16 rounds)", "Baelo Claudia (12 rounds, hand of 3)"),
        ),
        Option(
            "variant",
            ("standard", "emperor", "haruspex"),
            "standard",
            "Emperor: the first player chooses each round's cetarium; Haruspex: the aureus order is public",
            label="Variant",
            choice_labels=(
                "Standard",
                "Emperor — the first player chooses each round's cetarium",
                "Haruspex — the order the cetaria fill is known from the start",
            ),
        ),
        Option(
            "rotation",
            (True, False),
            True,
            "tiles may be turned before placing (ruling 3)",
            label="Tiles may be turned before they are placed",
            choice_labels=("Yes, turn a tile any way", "No, place a tile as it is drawn"),
            advanced=True,
        ),
        Option(
            "species_bonus",
            ("any", "own"),
            "any",
            "who gains a species bonus: any placer covering it with its species, or only that species' colour",
            label="Who gains a species bonus",
            choice_labels=("Whoever covers it with that species", "Only the player of that species' colour"),
            advanced=True,
        ),
        Option(
            "colours",
            COLOUR_CHOICES,
            None,
            "the colours chosen, clockwise from seat 1 (2 players: A1, B1, A2, B2, player A playing the first "
            "and third); with 3 players the colour nobody chose is the ghost. None: seat order "
            + ", ".join(_COLOURS),
            label="Colour order (clockwise from seat 1; with 3 players the colour left over is the ghost's)",
            choice_labels=tuple(
                f"Default order: {', '.join(_COLOURS)}" if c is None else c.replace(",", ", ")
                for c in COLOUR_CHOICES
            ),
        ),
        Option(
            "two_player_workers",
            ("per_colour", "shared"),
            "per_colour",
            "2 players: a worker set per colour, or one set per player for both colours (ruling 15)",
            label="Workers with 2 players",
            choice_labels=(
                "A set of workers for each colour",
                "One set of workers per player for both colours",
            ),
            advanced=True,
        ),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        files = self.data_files if self.data_tag is not None else None  # None: the package's, cached
        if files is not None:
            for name in BOARDS:
                load_board(name, files)  # a wrong value in any file is refused, not only in the board played
        self.board = load_board(self.config["board"], files)
        self.tiles = load_tiles(files)
        self.seating = seating(self.config["players"], self.colour_order(self.config))
        self.tile_ids = tuple(t for t in range(1, 17) if t not in self.board.removed_tiles)
        self._fish = {
            (c, t): "".join(SPECIES[f] for f in self.tiles.tile_fish(c, t))
            for c in range(4)
            for t in range(1, 17)
        }
        rotation = self.config["rotation"]
        self._orientations = {key: orientations(fish, rotation) for key, fish in self._fish.items()}
        self._layouts: dict[tuple, tuple[str, ...]] = {}
        # by colour, each tile's orientations; and the tiles of a colour that can show a layout
        self._orientations_of = [{t: self._orientations[c, t] for t in range(1, 17)} for c in range(4)]
        showing: dict[tuple[int, str], set[int]] = {}
        for (c, t), layouts in self._orientations.items():
            for f in layouts:
                showing.setdefault((c, f), set()).add(t)
        self._showing = {key: frozenset(tiles) for key, tiles in showing.items()}
        self._workers = {}
        for line in range(2 * self.board.size):
            name = self.board.line_name(line)
            for kind in "VD":
                self._workers[kind, line] = Worker(kind, line, name)

    @classmethod
    def check_config(cls, config: dict[str, Any]) -> None:
        if config["two_player_workers"] == "shared" and config["players"] != 2:
            raise OptionError("garum: two_player_workers='shared' applies to 2-player games only")
        chosen = config.get("colours")
        if chosen is not None and len(chosen.split(",")) != colour_seats(config["players"]):
            raise OptionError(
                f"garum: colours={chosen!r} names {len(chosen.split(','))} colours, but "
                f"{config['players']} players choose {colour_seats(config['players'])}"
            )

    @staticmethod
    def colour_order(config: dict[str, Any]) -> tuple[int, ...] | None:
        """The colours of the colour seats, clockwise, as colour indices (None: seat order)."""
        chosen = config.get("colours")
        return None if chosen is None else tuple(_COLOURS.index(c) for c in chosen.split(","))

    @property
    def num_players(self) -> int:
        return self.config["players"]

    def _new_state(self, seed: int) -> GarumState:
        return GarumState(self, seed)

    def parse_action(self, text: str) -> Action:
        action = parse(text, self.board.size)
        if isinstance(action, Worker):
            return self._workers[action.kind, action.line]
        return action

    # -- helpers the state uses ------------------------------------------------------------
    def fish_text(self, colour: int, tile: int) -> str:
        """A tile's fish as letters, unrotated."""
        return self._fish[colour, tile]

    def orientations(self, colour: int, tile: int) -> tuple[str, ...]:
        return self._orientations[colour, tile]

    def tile_showing(self, colour: int, fish: str, hand: list[int]) -> int:
        """The first tile of ``hand`` (a colour's tiles) that shows ``fish`` in one of its orientations."""
        return next(filter(self._showing.get((colour, fish), frozenset()).__contains__, hand))

    def can_show(self, colour: int, fish: str, tiles: list[int]) -> bool:
        """Whether one of ``tiles`` (a colour's) shows ``fish`` in one of its orientations: whether
        ``fish`` is among ``layouts(colour, tiles)``, without making them."""
        return not self._showing.get((colour, fish), frozenset()).isdisjoint(tiles)

    def pool_owner(self, colour: int) -> int:
        """Index of the worker pool a colour draws from (its own, or its player's if shared)."""
        if self.config["two_player_workers"] == "shared":
            return self.seating.owner[colour]  # type: ignore[return-value]
        return colour

    def worker_action(self, kind: str, line: int) -> Worker:
        return self._workers[kind, line]

    def layouts(self, colour: int, tiles: list[int]) -> tuple[str, ...]:
        """Every distinct way one of ``tiles`` (a colour's) can lie, in a fixed order: each tile's
        orientations in turn, each layout once. The same tuple object for the same tiles."""
        hand = (colour, *sorted(tiles))
        layouts = self._layouts.get(hand)
        if layouts is None:
            orientations = map(self._orientations_of[colour].__getitem__, hand[1:])
            layouts = self._layouts[hand] = tuple(dict.fromkeys(itertools.chain.from_iterable(orientations)))
        return layouts

    def all_actions(self) -> list[Action]:
        """Every action that can ever be legal in this configuration, in a stable order."""
        rotation = self.config["rotation"]
        layouts = sorted(
            {f for c in range(4) for t in self.tile_ids for f in orientations(self._fish[c, t], rotation)}
        )
        out: list[Action] = [place(c, s, f) for c in self.board.cetaria for s in range(1, 5) for f in layouts]
        out += [
            self._workers[k, line]
            for line in range(2 * self.board.size)
            if self.board.line_cells[line]
            for k in "VD"
        ]
        out.append(PASS)
        if self.config["variant"] == "emperor":
            out += [choose(c) for c in self.board.cetaria]
        return out
