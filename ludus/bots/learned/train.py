"""Make the learned value models: greedy self-play positions, then a small network per configuration.

    python -m ludus.bots.learned.train GAME --players 2 --games 1500 --seed 1 --jobs 2

1. **Data.** ``games`` games of ``greedy`` self-play (rating noise ``noise`` points), or of the
   bot spec ``--bot`` (a small search, so that the positions are those of searched play), with a
   random move with chance ``explore`` so that the positions a search visits are covered,
   each dealt from the master seed, with the options the game's ``learned`` hook draws. A
   share ``rate`` of the positions is kept: each seat's feature row (``ludus.bots.learned.features``:
   the heuristic's values, points, progress, turn, then the game's own terms: ``rich``) and
   its label, the seat's final score margin over the best rival in points (solo: the final score). Games are played in
   worker processes; the data do not depend on ``jobs``.
2. **Model.** scikit-learn's ``MLPRegressor`` (one ReLU layer of ``hidden`` units, seeded
   by ``seed``) on the standardised rows, all seats' rows together. The last ``holdout``
   share of games (whole games, never split) is held out: R² of the margins, how often
   the seat predicted best wins, and the same for the heuristic alone (made linear in
   the margin on the training games); ``--plain`` fits on the rows' plain part alone, as the
   models made before rich rows did; the logistic ``win_scale`` is fitted there too, and
   the log loss of the win chances it gives is measured. ``--compare FILE`` measures another
   model (the one shipped, say) on the same held-out games, so that the two can be weighed.
3. **Output.** ``<game>-<players>.npz`` (weights) and ``.json`` (how it was made) beside
   this module, read at play time with NumPy only (``ludus.bots.learned.load``).

Needs the ``train`` extra (scikit-learn).
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from ...engine import load_game
from ...engine.hooks import hook
from ...engine.registry import game_names
from ..greedy import GreedyBot
from . import ValueModel, feature_names, features, heuristic_values, model_dir, model_name


def options_for(game_name: str, players: int, rng: random.Random) -> dict[str, Any]:
    """A self-play game's options: the game's ``learned`` hook draws them (``training_options``),
    else only the player count."""
    terms = hook(game_name, "learned")
    choose = getattr(terms, "training_options", None)
    return choose(players, rng) if callable(choose) else {"players": players}


def final_margins(state: Any) -> list[float]:
    """Every seat's final score less the best rival's; solo: the final score."""
    return score_margins(state.scores())


def score_margins(scores: list[float]) -> list[float]:
    """``final_margins`` of a finished game's scores (an arena result's ``scores``)."""
    if len(scores) == 1:
        return [float(scores[0])]
    return [float(s - max(x for j, x in enumerate(scores) if j != i)) for i, s in enumerate(scores)]


def play_positions(task: dict[str, Any]) -> dict[str, Any]:
    """One self-play game: the kept positions' feature rows (seat by seat) and final margins."""
    rng = random.Random(task["seed"])
    game = load_game(task["game"], **options_for(task["game"], task["players"], rng))
    state = game.new_initial_state(seed=rng.getrandbits(63))
    seats = [self_play_bot(task, rng.getrandbits(63)) for _ in range(game.num_players)]
    rows = []
    while not state.is_terminal():
        if rng.random() < task["rate"]:
            rows.append(features(state, heuristic_values(state), rich=True))
        legal = state.legal_actions()
        if len(legal) > 1 and rng.random() < task["explore"]:
            action = legal[rng.randrange(len(legal))]
        else:
            action = seats[state.current_player()].step(state)
        state.apply_action(action)
    n, players = len(rows), game.num_players
    x = np.array(rows, dtype=np.float64).reshape(n, players, -1)
    return {"x": x, "y": np.tile(np.array(final_margins(state)), (n, 1))}


def self_play_bot(task: dict[str, Any], seed: int) -> Any:
    """A self-play seat: ``greedy`` with its rating noise, or the bot spec ``task["bot"]``."""
    if task.get("bot"):
        from .. import make, parse_spec

        name, params = parse_spec(task["bot"])
        if "seed" in params:
            raise ValueError(
                f"bot {name!r}: seed cannot be set in the spec; each game's seed gives it (give --seed)"
            )
        return make(name, seed=seed, **params)
    return GreedyBot(seed=seed, noise=task["noise"])


def generate(
    game_name: str,
    players: int,
    games: int,
    seed: int,
    jobs: int,
    rate: float,
    noise: float,
    explore: float,
    bot: str | None = None,
) -> dict[str, Any]:
    """Self-play data of ``games`` games; ``g`` numbers each position's game (for the held-out split)."""
    master = random.Random(seed)
    tasks = [
        {
            "game": game_name,
            "players": players,
            "seed": master.getrandbits(63),
            "rate": rate,
            "noise": noise,
            "explore": explore,
            "bot": bot,
        }
        for _ in range(games)
    ]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        parts = list(pool.map(play_positions, tasks, chunksize=4))
    return gather(parts)


def gather(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """Games' data as one set: ``x`` (position, seat, feature), ``y`` (position, seat), ``g`` (game)."""
    parts = [p for p in parts if len(p["x"])]
    return {
        "x": np.concatenate([p["x"] for p in parts]),
        "y": np.concatenate([p["y"] for p in parts]),
        "g": np.concatenate([np.full(len(p["x"]), i) for i, p in enumerate(parts)]),
    }


def _r2(truth: np.ndarray, guess: np.ndarray) -> float:
    return float(1.0 - ((truth - guess) ** 2).sum() / ((truth - truth.mean()) ** 2).sum())


def _winner_accuracy(truth: np.ndarray, guess: np.ndarray, target: float | None) -> float:
    """How often the seat predicted best is a winner (solo: whether reaching the target is foreseen)."""
    if target is not None:
        return float(((guess[:, 0] >= target) == (truth[:, 0] >= target)).mean())
    won = truth >= 0  # margin over the best rival: >= 0 for every winner, ties shared
    return float(won[np.arange(len(guess)), guess.argmax(axis=1)].mean())


def held_out_figures(
    model: ValueModel, x: np.ndarray, truth: np.ndarray, target: float | None
) -> dict[str, float]:
    """A model's figures on held-out rows ``x`` (position, seat, feature) whose final margins are ``truth``:
    R², how often the seat it predicts best wins, mean error in points, and the log loss of its win chances."""
    guess = model.predict(x.reshape(-1, x.shape[2])).reshape(truth.shape)
    won = truth >= (0.0 if target is None else target)
    chance = np.array(model.squash((guess - (target or 0.0)).ravel().tolist())).reshape(guess.shape)
    chance = np.clip(chance, 1e-9, 1.0 - 1e-9)
    return {
        "test_r2": round(_r2(truth, guess), 4),
        "test_winner_accuracy": round(_winner_accuracy(truth, guess, target), 4),
        "test_mae_points": round(float(np.abs(truth - guess).mean()), 3),
        "test_log_loss": round(float(-np.where(won, np.log(chance), np.log(1.0 - chance)).mean()), 4),
    }


def train(
    data: dict[str, Any],
    players: int,
    seed: int,
    hidden: int,
    holdout: float,
    target: float | None,
    compare: Path | None = None,
    plain: int | None = None,
    alpha: float = 1e-3,
) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Fit the network on the first games and measure it, and the heuristic, on the held-out last ones
    (and the model in the file ``compare``, such as the one shipped, on the same games).
    ``plain``: fit on the first ``plain`` columns only (the rows without the game's terms)."""
    from sklearn.linear_model import LinearRegression, LogisticRegression  # type: ignore[import-untyped]
    from sklearn.neural_network import MLPRegressor  # type: ignore[import-untyped]

    x, y, g = data["x"], data["y"], data["g"]
    if plain is not None:
        x = x[:, :, :plain]
    test = g >= int(round(g.max() * (1.0 - holdout)))
    train_rows = ~test
    k = x.shape[2]
    fx, fy = x[train_rows].reshape(-1, k), y[train_rows].reshape(-1)
    mean, std = fx.mean(axis=0), fx.std(axis=0)
    std[std == 0] = 1.0
    y_mean, y_std = fy.mean(), fy.std() + 1e-9
    net = MLPRegressor(
        hidden_layer_sizes=(hidden,),
        alpha=alpha,
        early_stopping=True,
        random_state=seed,
        max_iter=500,
        batch_size=256,
        learning_rate_init=1e-3,
        n_iter_no_change=20,
    )
    net.fit((fx - mean) / std, (fy - y_mean) / y_std)
    arrays = {
        "mean": mean,
        "std": std,
        "w1": net.coefs_[0],
        "b1": net.intercepts_[0],
        "w2": net.coefs_[1].reshape(-1),
        "b2": net.intercepts_[1].reshape(-1),
        "y_mean": np.array(y_mean),
        "y_std": np.array(y_std),
        "players": np.array(players),
        "rich": np.array(int(plain is None)),
        "win_scale": np.array(8.0),
    }
    model = ValueModel(arrays)
    truth = y[test]
    guess = model.predict(x[test].reshape(-1, k)).reshape(truth.shape)
    # The yardstick: the heuristic's own value (feature 0), made linear in the final margin on the training games.
    shift = 0.0 if target is None else target  # solo heuristics measure from the target
    line = LinearRegression().fit(fx[:, :1], fy - shift)
    h_guess = line.predict(x[test].reshape(-1, k)[:, :1]).reshape(truth.shape) + shift
    margin = guess - shift
    won = truth >= target if target is not None else truth >= 0
    logistic = LogisticRegression(C=1e4).fit(margin.reshape(-1, 1), won.reshape(-1))
    win_scale = float(1.0 / max(1e-3, logistic.coef_[0, 0]))
    arrays["win_scale"] = np.array(win_scale)
    mine = held_out_figures(ValueModel(arrays), x[test], truth, target)
    figures: dict[str, Any] = {
        "positions": int(len(x)),
        "train_positions": int(train_rows.sum()),
        "test_positions": int(test.sum()),
        "hidden": hidden,
        "alpha": alpha,
        "inputs": k,
        "epochs": int(net.n_iter_),
        "test_r2": mine["test_r2"],
        "heuristic_test_r2": round(_r2(truth, h_guess), 4),
        "test_winner_accuracy": mine["test_winner_accuracy"],
        "heuristic_test_winner_accuracy": round(_winner_accuracy(truth, h_guess, target), 4),
        "test_mae_points": mine["test_mae_points"],
        "heuristic_test_mae_points": round(float(np.abs(truth - h_guess).mean()), 3),
        "test_log_loss": mine["test_log_loss"],
        "win_scale": round(win_scale, 3),
    }
    if compare is not None:
        figures["compared"] = {
            "model": compare.name,
            **held_out_figures(ValueModel.from_file(compare), x[test], truth, target),
        }
    return {k: np.asarray(v, dtype=np.float32) for k, v in arrays.items()}, figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m ludus.bots.learned.train", description=__doc__.split("\n")[0]
    )
    parser.add_argument("game", choices=game_names())
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rate", type=float, default=0.2, help="share of positions kept")
    parser.add_argument("--noise", type=float, default=1.0, help="greedy rating noise, points")
    parser.add_argument("--explore", type=float, default=0.05, help="chance of a random move")
    parser.add_argument(
        "--bot", help="self-play by this bot spec (ismcts:iterations=100, say) instead of greedy"
    )
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--alpha", type=float, default=1e-3, help="the network's L2 penalty")
    parser.add_argument("--plain", action="store_true", help="rows without the game's own terms")
    parser.add_argument("--holdout", type=float, default=0.2, help="share of games held out")
    parser.add_argument("--data", type=Path, help="cache of the self-play data (.npz): reused when present")
    parser.add_argument(
        "--out",
        type=Path,
        help="folder for the weights and their JSON (default: the game's own models' folder)",
    )
    parser.add_argument(
        "--compare",
        type=Path,
        help="a model file (.npz) measured on the same held-out games, such as the one shipped",
    )
    args = parser.parse_args(argv)
    if args.bot:
        try:  # a wrong spec is refused here, before any game, not by the first worker to start one
            self_play_bot({"bot": args.bot}, 0)
        except ValueError as error:
            parser.error(f"--bot: {error}")
    started = time.time()
    if args.data and args.data.exists():
        with np.load(args.data) as cached:
            data = {k: cached[k] for k in cached.files}
    else:
        data = generate(
            args.game,
            args.players,
            args.games,
            args.seed,
            args.jobs,
            args.rate,
            args.noise,
            args.explore,
            args.bot,
        )
        if args.data:
            np.savez_compressed(args.data, **data)
    target = None
    if args.players == 1:
        solo: Any = load_game(
            args.game, **options_for(args.game, 1, random.Random(0))
        )  # its data: the targets
        target = float(solo.data.targets["normal"])
    plain = len(feature_names(args.game, args.players)) if args.plain else None
    arrays, figures = train(
        data, args.players, args.seed, args.hidden, args.holdout, target, args.compare, plain, args.alpha
    )
    name = model_name(args.game, args.players)
    if args.out is None:
        args.out = model_dir(args.game) or Path.cwd()
    args.out.mkdir(parents=True, exist_ok=True)
    saved: dict[str, Any] = arrays  # numpy's stubs read ** as its keyword options
    np.savez_compressed(args.out / f"{name}.npz", **saved)
    import sklearn  # type: ignore[import-untyped]

    info = {
        "model": f"{name}.npz",
        "game": args.game,
        "players": args.players,
        "label": "final score margin over the best rival, points"
        if args.players > 1
        else "final score, points",
        "data": {
            "games": args.games,
            "self_play": f"{args.bot or f'greedy (noise {args.noise})'}, random move with chance {args.explore}",
            "position_rate": args.rate,
            "holdout_games": args.holdout,
        },
        "seed": args.seed,
        "command": "python -m ludus.bots.learned.train " + " ".join(argv or sys.argv[1:]),
        "features": feature_names(args.game, args.players, rich=not args.plain),
        "library": f"scikit-learn {sklearn.__version__} MLPRegressor",
        "figures": figures,
        "date": datetime.date.today().isoformat(),
        "seconds": round(time.time() - started),
    }
    (args.out / f"{name}.json").write_text(json.dumps(info, indent=2) + "\n")
    print(json.dumps(info, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
