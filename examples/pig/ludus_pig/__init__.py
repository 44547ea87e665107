"""Pig, the dice game, as a ludus plugin: a whole game in one small module.

Each turn a player rolls a die as often as they like, adding the pips to a turn total; a 1
loses the turn total and ends the turn; holding banks it. The first to the target wins.
Everything is public, and every roll is chance drawn from the state's own RNG, so the
game shows the engine contract with no more than its required hooks, plus the two extras
it declares in ``PigGame.hooks``: a text board and a heuristic.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ludus.engine import TERMINAL, Action, Game, Hooks, IllegalActionError, Option, State


@dataclass(frozen=True)
class PigAction(Action):
    """``roll`` or ``hold``."""

    verb: str

    def __str__(self) -> str:
        return self.verb


ROLL, HOLD = PigAction("roll"), PigAction("hold")


class PigGame(Game):
    name = "pig"
    options = (
        Option("players", (2, 3, 4), 2, "number of seats"),
        Option("target", (20, 30, 50, 100), 30, "points that win"),
    )
    # what Pig adds for the layers above, by module name (imported only when used); the rest
    # (SVG board, explainer, RL encoder, report sections) falls back to ludus's generic versions
    hooks = Hooks(renderer="ludus_pig.render", heuristic="ludus_pig.heuristic")

    @property
    def num_players(self) -> int:
        return self.config["players"]

    def _new_state(self, seed: int) -> PigState:
        return PigState(self, seed)

    def parse_action(self, text: str) -> Action:
        if text in ("roll", "hold"):
            return ROLL if text == "roll" else HOLD
        raise IllegalActionError(f"{text!r} is not a Pig action: say 'roll' or 'hold'")

    def all_actions(self) -> list[Action]:
        return [ROLL, HOLD]


class PigState(State):
    def __init__(self, game: PigGame, seed: int) -> None:
        super().__init__(game, seed)
        self.banked = [0] * game.num_players
        self.turn = 0
        self.turn_total = 0
        self.last_roll = 0

    def current_player(self) -> int:
        return TERMINAL if max(self.banked) >= self.game.config["target"] else self.turn

    def _legal_actions(self) -> list[Action]:
        return [ROLL, HOLD] if self.turn_total else [ROLL]

    def _apply(self, action: Action) -> None:
        if action == ROLL:
            self.last_roll = self.rng.randint(1, 6)
            if self.last_roll == 1:
                self._pass()
            else:
                self.turn_total += self.last_roll
        else:
            self.banked[self.turn] += self.turn_total
            self._pass()

    def _pass(self) -> None:
        self.turn_total = 0
        if max(self.banked) < self.game.config["target"]:
            self.turn = (self.turn + 1) % self.game.num_players

    def scores(self) -> list[int]:
        return list(self.banked)

    def _observation(self, seat: int | None) -> dict[str, Any]:
        return {
            "scores": list(self.banked),
            "turn": self.turn,
            "turn_total": self.turn_total,
            "last_roll": self.last_roll,
            "target": self.game.config["target"],
        }

    def _resample(self, seat: int, rng: random.Random) -> None:
        return None  # nothing is hidden

    def _copy_into(self, other: State) -> None:
        assert isinstance(other, PigState)
        other.banked = list(self.banked)
        other.turn, other.turn_total, other.last_roll = self.turn, self.turn_total, self.last_roll

    def _dump(self) -> dict[str, Any]:
        return {
            "banked": self.banked,
            "turn": self.turn,
            "turn_total": self.turn_total,
            "last_roll": self.last_roll,
        }

    def _load(self, data: dict[str, Any]) -> None:
        self.banked = [int(x) for x in data["banked"]]
        self.turn, self.turn_total, self.last_roll = (
            int(data["turn"]),
            int(data["turn_total"]),
            int(data["last_roll"]),
        )


PigGame.state_class = PigState  # saved states load into it (Game.state_from_json)
