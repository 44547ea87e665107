"""Learned position values: a small network per game and player count, evaluated with NumPy.

A model predicts a seat's **final score margin in points** -- its final score less the best
rival's, the unit of the hints' ``value`` (solo: the final score, from which the difficulty's
target is then taken) -- from a few facts of the position seen from that seat
(``features``): the game's heuristic value for the seat and for its best rival, the points
so far, how far the game has gone and whose turn it is. The heuristic already rates the
position in the game's own terms; the network learns how far to trust it, and the points
already banked, at each stage of the game, from how greedy self-play games really ended.
One network serves every seat (its rows are seat by seat), so the seats are valued alike.
A model made with ``rich`` rows (its file says so) reads after these facts the game's own
terms for the seat and its best rival, and the game's clock (its ``learned`` hook): the parts the
heuristic adds up by hand, for the network to weigh one by one.
``win_scale`` turns a margin into a win chance, ``1 / (1 + exp(-margin / win_scale))``,
fitted on held-out games: ISMCTS uses that as its leaf value.

A game keeps its weights, ``<game>-<players>.npz``, beside the module it declares as its ``learned``
hook (``model_dir``), made by
``python -m ludus.bots.learned.train`` (scikit-learn, the ``train`` extra) from greedy
self-play; ``<game>-<players>.json`` says how (games, positions, seed, command, held-out
figures). Playing needs only NumPy; without it, or without a model for a configuration,
``load`` returns None and the bots fall back to the heuristic alone.
"""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path
from typing import Any

from ...engine.hooks import hook

FEATURES = (
    "heuristic",
    "best rival's heuristic",
    "points",
    "points over the best rival",
    "actions played",
    "to move",
    "seat",
)
"""A seat's row: these facts, the seat as one-hot (a game of several), then ``to move`` again times the
actions played (so the network can weigh the mover's tempo by the stage of the game)."""


def win_chance(margin: float, scale: float) -> float:
    """A margin in points as a win chance, ``1 / (1 + exp(-margin / scale))``: the curve the model's
    ``win_scale`` and the search's ``scale`` both shape (clamped, so no margin overflows ``exp``)."""
    return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, margin / scale))))


def model_name(game_name: str, players: int) -> str:
    return f"{game_name}-{players}"


def model_dir(game_name: str) -> Path | None:
    """Where a game keeps its models: beside the module it declares as its ``learned`` hook (None:
    it declares none, and has no model)."""
    module = hook(game_name, "learned")
    return None if module is None else Path(module.__file__).parent


@cache
def load(game_name: str, players: int) -> ValueModel | None:
    """The shipped model of a game and player count, or None (no file, or NumPy missing)."""
    folder = model_dir(game_name)
    path = None if folder is None else folder / f"{model_name(game_name, players)}.npz"
    if path is None or not path.exists():
        return None
    try:
        import numpy as np  # noqa: F401
    except ImportError:
        return None
    return ValueModel.from_file(path)


def provenance(game_name: str, players: int) -> dict[str, Any] | None:
    """How the model was made (its JSON beside the weights), or None."""
    folder = model_dir(game_name)
    path = None if folder is None else folder / f"{model_name(game_name, players)}.json"
    return json.loads(path.read_text()) if path is not None and path.exists() else None


def heuristic_values(state: Any) -> list[float]:
    """The game's heuristic value of ``state`` for every seat (``evaluate_all`` where the game has it)."""
    from ..greedy import heuristic, heuristic_all

    every = heuristic_all(state.game.name)
    if every is not None:
        return every(state)
    evaluate = heuristic(state.game.name)
    return [evaluate(state, s) for s in range(state.game.num_players)]


def features(state: Any, heuristic: list[float], rich: bool = False) -> list[list[float]]:
    """One row a seat (see ``FEATURES``) from the position and the heuristic's values for every seat;
    ``rich``: followed by the game's own terms for the seat and its best rival (the game's ``learned`` hook)."""
    scores = state.scores()
    players = len(scores)
    played = float(state.move_number())
    mover = state.current_player()
    terms = hook(state.game.name, "learned") if rich else None
    extra = None if terms is None else terms.features
    rows = []
    for s in range(players):
        if players == 1:
            row = [heuristic[0], 0.0, float(scores[0]), 0.0, played, 1.0, 1.0, played]
            if extra is not None:
                row += extra(state, 0, 1)  # the solo rival: the game's automaton, owner 1
            rows.append(row)
            continue
        rival = max((r for r in range(players) if r != s), key=heuristic.__getitem__)
        rival_points = max(x for r, x in enumerate(scores) if r != s)
        to_move = 1.0 if mover == s else 0.0
        row = [
            heuristic[s],
            heuristic[rival],
            float(scores[s]),
            float(scores[s] - rival_points),
            played,
            to_move,
            *(1.0 if r == s else 0.0 for r in range(players)),
            to_move * played,
        ]
        if extra is not None:
            row += extra(state, s, rival)
        rows.append(row)
    return rows


def feature_names(game_name: str, players: int, rich: bool = False) -> list[str]:
    """The name of each column of ``features``' rows."""
    base = [*FEATURES[:-1], *(f"seat {s}" for s in range(players)), "to move x actions played"]
    terms = hook(game_name, "learned") if rich else None
    return base + list(getattr(terms, "NAMES", ())) if rich else base


class ValueModel:
    """A one-hidden-layer ReLU network over ``features``, standardised; outputs a seat's final margin.

    ``margins(state)`` gives every seat's expected final margin; ``win_chances(state)`` the
    same through the fitted logistic curve.
    """

    def __init__(self, arrays: dict[str, Any], path: Path | None = None) -> None:
        import numpy as np

        self.np = np
        self.path = path
        inv_std = 1.0 / arrays["std"].astype(np.float64)
        w1 = arrays["w1"].astype(np.float64)
        self.w1 = w1 * inv_std[:, None]  # the standardisation folded into the first layer
        self.b1 = arrays["b1"] - (arrays["mean"] * inv_std) @ w1
        self.w2 = arrays["w2"].astype(np.float64).reshape(-1)
        self.b2 = float(arrays["b2"].reshape(-1)[0])
        self.y_mean = float(arrays["y_mean"])
        self.y_std = float(arrays["y_std"])
        self.win_scale = float(arrays["win_scale"])
        self.players = int(arrays["players"])
        self.rich = bool(arrays["rich"]) if "rich" in arrays else False  # files made before rich rows: False
        self.inputs = self.w1.shape[0]

    @classmethod
    def from_file(cls, path: Path) -> ValueModel:
        import numpy as np

        with np.load(path) as data:
            return cls({k: data[k] for k in data.files}, path)

    def predict(self, rows: Any) -> Any:
        """The predicted final margin (solo: score) of each feature row (of its first ``inputs`` columns:
        a model of plain rows reads the plain part of rich ones)."""
        np = self.np
        x = np.asarray(rows, dtype=np.float64)
        if x.shape[-1] != self.inputs:
            x = x[..., : self.inputs]
        hidden = np.maximum(x @ self.w1 + self.b1, 0.0)
        return (hidden @ self.w2 + self.b2) * self.y_std + self.y_mean

    def margins_of(self, outputs: Any, game: Any) -> list[float]:
        """Final margins from ``predict``'s outputs for one position: solo models predict the score, less the target."""
        values = outputs.tolist()
        if self.players == 1:
            return [values[0] - game.data.targets[game.config["difficulty"]]]
        return values

    def margins(self, state: Any, heuristic: list[float] | None = None) -> list[float]:
        """Every seat's expected final score margin in points (solo: final score less the target).

        ``heuristic``: the heuristic's values for every seat, when the caller has them already."""
        if heuristic is None:
            heuristic = heuristic_values(state)
        return self.margins_of(self.predict(features(state, heuristic, self.rich)), state.game)

    def margins_many(self, states: list[Any], heuristics: list[list[float]]) -> list[list[float]]:
        """``margins`` of several positions of one game, in one product."""
        rich = self.rich
        rows = [row for state, h in zip(states, heuristics, strict=True) for row in features(state, h, rich)]
        out = self.predict(rows)
        n = self.players
        return [self.margins_of(out[i * n : (i + 1) * n], state.game) for i, state in enumerate(states)]

    def squash(self, margins: list[float]) -> list[float]:
        scale = self.win_scale
        return [win_chance(m, scale) for m in margins]

    def win_chances(self, state: Any) -> list[float]:
        """Every seat's chance of winning (solo: of reaching the target), from its margin."""
        return self.squash(self.margins(state))
