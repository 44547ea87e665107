"""Celtae (Pythagoras, 2023): 2-4 players, or 1 against Solitairix at a difficulty.

Scope: every rule of the rulebook, read as ``celtae-rulings.md`` says, on component
values from ``data/*.json``. In solo mode seat 0 is the only seat; Solitairix's turns
run automatically from the state's RNG, ``scores()`` is ``[your score]`` and
``winners()`` is ``[0]`` when the difficulty's target (25 / 30 / 35) is reached, else ``[]``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ludus.engine.action import Action
from ludus.engine.errors import DataFileError, OptionError
from ludus.engine.game import Game, Option
from ludus.engine.hooks import Hooks

from . import actions
from .actions import Act
from .data import DATA_DIR, PACKAGE, CeltaeData, get
from .state import CeltaeState


class CeltaeGame(Game):
    name = "celtae"
    title = "Celtae"
    tagline = "Lead a Celtic tribe round the rondel: swap workers, build, battle, recruit; 1 to 4 players."
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "players",
            (1, 2, 3, 4),
            2,
            "number of seats; 1 plays solo against Solitairix",
            label="Players",
            choice_labels=("1 — solo against Solitairix", "2", "3", "4"),
        ),
        Option(
            "difficulty",
            (None, "easy", "normal", "hard"),
            None,
            "solo target: easy 25, normal 30, hard 35 points (solo only)",
            label="Solo target (the points you must reach to win)",
            # no difficulty is the rules' Normal Mode: the game plays it as "normal"
            choice_labels=(
                "Normal — beat 30 points",
                "Easy — beat 25 points",
                "Normal — beat 30 points",
                "Hard — beat 35 points",
            ),
        ),
        Option(
            "token_moves_marker",
            (False, True),
            False,
            "ruling 6: with True a token used to act anywhere does not replace the move",
            label="A token played to act anywhere also moves your marker",
            choice_labels=(
                "No — the token takes the place of the marker's move",
                "Yes — move the marker as well, then act anywhere",
            ),
            advanced=True,
        ),
        Option(
            "solo_adjacent",
            (False, True),
            False,
            "ruling 28: with True Solitairix only takes actions beside the marker",
            label="Solitairix acts only beside the marker",
            choice_labels=(
                "No — it takes the first action its tile allows, anywhere",
                "Yes — only an action beside the marker",
            ),
            advanced=True,
        ),
    )
    state_class = CeltaeState
    data_package = PACKAGE
    hooks = Hooks(
        renderer="ludus.games.celtae.render",
        heuristic="ludus.games.celtae.heuristic",
        explainer="ludus.games.celtae.explain",
        encoder="ludus.games.celtae.encoder:CeltaeEncoder",
        report_facts="ludus.games.celtae.report:celtae_facts",
        report_sections="ludus.games.celtae.report:celtae_sections",
        optional_skip="ludus.games.celtae.observe:optional_skip",
        browser="ludus.games.celtae:web/board.js",
        styles="ludus.games.celtae:web/celtae.css",
        rules="ludus.games.celtae:web/rules.html",
        learned="ludus.games.celtae.learned",
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        printed = get(DATA_DIR)
        self.data: CeltaeData = printed if self.data_tag is None else get(self.data_files)  # type: ignore[arg-type]
        names = [ld["name"] for ld in printed.leaders]
        if [ld["name"] for ld in self.data.leaders] != names:
            where = self.data_files.where("leaders.json")  # type: ignore[union-attr]
            raise DataFileError(
                f"{where}: 'leaders' must keep the names {', '.join(names)} in this order "
                "(the moves name them), each leader's values are free"
            )
        actions.init(names)

    @classmethod
    def check_config(cls, config: dict[str, Any]) -> None:
        if config["players"] == 1 and config["difficulty"] is None:
            config["difficulty"] = "normal"
        if config["players"] != 1 and config["difficulty"] is not None:
            raise OptionError("celtae: difficulty is only valid with players=1 (the Solitairix solo mode)")
        if config["players"] != 1 and config["solo_adjacent"]:
            raise OptionError("celtae: solo_adjacent is only valid with players=1")

    @property
    def num_players(self) -> int:
        return self.config["players"]

    def _new_state(self, seed: int) -> CeltaeState:
        state = CeltaeState(self, seed)
        state.setup()
        return state

    def parse_action(self, text: str) -> Act:
        return actions.parse(text)

    def all_actions(self) -> list[Action]:
        """Every action that can ever be legal, in a fixed order (a Discrete space for RL)."""
        return list(actions.ALL)
