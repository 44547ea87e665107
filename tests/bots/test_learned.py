"""Learned value models: the shipped weights load, fit their encoders, give sane values, and train reproducibly."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

import ludus
from ludus.bots import learned
from ludus.bots.ismcts import ISMCTSBot
from ludus.bots.learned import ValueModel
from ludus.games.celtae import learned as celtae_learned

from .helpers import random_position

np = pytest.importorskip("numpy")

SHIPPED = sorted(p for name in ludus.game_names() if (d := learned.model_dir(name)) for p in d.glob("*.npz"))
CONFIGS = [tuple(p.stem.rsplit("-", 1)) for p in SHIPPED]


def random_arrays(inputs: int, players: int, rng: Any, **more: object) -> dict:
    """A model file's arrays with random weights over rows of ``inputs`` columns."""
    return {
        "mean": rng.normal(size=inputs),
        "std": rng.uniform(0.5, 2.0, size=inputs),
        "w1": rng.normal(size=(inputs, 6)),
        "b1": rng.normal(size=6),
        "w2": rng.normal(size=6),
        "b2": rng.normal(size=1),
        "y_mean": np.array(0.5),
        "y_std": np.array(3.0),
        "players": np.array(players),
        "win_scale": np.array(2.0),
        **more,
    }


def _options(game: str, players: int) -> dict:
    return {"players": players, **({"difficulty": "normal"} if game == "celtae" and players == 1 else {})}


def test_models_are_shipped_for_two_player_garum_and_one_to_three_player_celtae() -> None:
    assert {("garum", "2"), ("celtae", "1"), ("celtae", "2"), ("celtae", "3")} <= set(CONFIGS)


def test_shipped_weights_stay_under_five_megabytes() -> None:
    assert sum(p.stat().st_size for p in SHIPPED) < 5_000_000


@pytest.mark.parametrize(("game", "players"), CONFIGS, ids=["-".join(c) for c in CONFIGS])
def test_a_model_says_how_it_was_made(game: str, players: str) -> None:
    info = learned.provenance(game, int(players))
    assert info is not None and info["players"] == int(players) and info["game"] == game
    assert isinstance(info["seed"], int) and info["command"].startswith("python -m ludus.bots.learned.train")
    assert info["figures"]["test_positions"] > 0 and -1.0 <= info["figures"]["test_r2"] <= 1.0
    assert json.loads(json.dumps(info)) == info


@pytest.mark.parametrize(("game", "players"), CONFIGS, ids=["-".join(c) for c in CONFIGS])
@pytest.mark.parametrize("steps", [0, 20, 60])
def test_a_model_gives_every_seat_a_finite_margin_and_a_win_chance(
    game: str, players: str, steps: int
) -> None:
    n = int(players)
    model = learned.load(game, n)
    assert model is not None
    state = random_position(game, _options(game, n), seed=steps, steps=steps)
    margins = model.margins(state)
    chances = model.win_chances(state)
    assert len(margins) == len(chances) == n
    assert all(math.isfinite(m) and abs(m) < 200 for m in margins)
    assert all(0.0 <= c <= 1.0 for c in chances)
    assert model.margins(state) == margins  # a pure function of the position


def test_batched_and_single_values_agree() -> None:
    model = learned.load("garum", 2)
    states = [random_position("garum", {"players": 2}, seed=s, steps=10 * s) for s in range(4)]
    batch = model.margins_many(states, [learned.heuristic_values(s) for s in states])
    for row, state in zip(batch, states, strict=True):
        assert row == pytest.approx(model.margins(state), abs=1e-6)


def test_a_seats_row_holds_its_heuristic_its_best_rivals_and_its_points() -> None:
    state = random_position("garum", {"players": 3}, seed=2, steps=40)
    values = [1.5, -2.0, 4.0]
    rows = learned.features(state, values)
    scores = state.scores()
    assert [r[0] for r in rows] == values and [r[1] for r in rows] == [4.0, 4.0, 1.5]
    assert [r[2] for r in rows] == scores
    assert [r[5] for r in rows] == [1.0 if s == state.current_player() else 0.0 for s in range(3)]


@pytest.mark.parametrize("players", [1, 2, 3])
@pytest.mark.parametrize("steps", [0, 70, 400])
def test_a_rich_celtae_row_holds_each_seats_terms_and_the_clock(players: int, steps: int) -> None:
    options = _options("celtae", players)
    state = random_position("celtae", options, seed=steps + players, steps=steps)
    values = learned.heuristic_values(state)
    plain, rich = learned.features(state, values), learned.features(state, values, rich=True)
    names = learned.feature_names("celtae", players, rich=True)
    assert len(learned.feature_names("celtae", players)) == len(plain[0])
    assert all(len(row) == len(names) for row in rich)
    assert [row[: len(plain[0])] for row in rich] == plain  # the plain row first, unchanged
    col = {name: i for i, name in enumerate(names)}
    for s, row in enumerate(rich):
        rival = 1 if players == 1 else max((r for r in range(players) if r != s), key=values.__getitem__)
        assert row[1] == (0.0 if players == 1 else values[rival])
        for o, who in ((s, "seat"), (rival, "best rival")):
            cut = state.score_breakdown(o) if o < players else None
            if cut is not None:  # the points so far less strength and cards (I) and the leader (K)
                assert row[col[f"points but strength and cards, and leader ({who})"]] == (
                    cut["total"] - cut["I"] - cut["K"]
                )
            assert row[col[f"hand size ({who})"]] == sum(state.hands[o])
            assert row[col[f"strength ({who})"]] == state.strength[o]
            assert row[col[f"discs built ({who})"]] == state.discs[o]
            assert row[col[f"tokens ({who})"]] == state.tokens[o]
        assert row[col["stage"]] == state.stage and row[col["track"]] == state.track
        assert 0.0 <= row[col["turns left share"]] <= 1.0
    if players == 2:  # each seat's terms are the other's rival terms
        half = len(celtae_learned.CELTAE_SEAT)
        first = len(plain[0])
        assert rich[0][first : first + half] == rich[1][first + half : first + 2 * half]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("steps", [0, 25, 60])
def test_a_rich_garum_row_splits_each_seats_heuristic_into_its_parts(players: int, steps: int) -> None:
    state = random_position("garum", {"players": players}, seed=steps + players, steps=steps)
    values = learned.heuristic_values(state)
    plain, rich = learned.features(state, values), learned.features(state, values, rich=True)
    names = learned.feature_names("garum", players, rich=True)
    assert [row[: len(plain[0])] for row in rich] == plain and all(len(r) == len(names) for r in rich)
    col = {name: i for i, name in enumerate(names)}
    seating = state.game.seating
    for s, row in enumerate(rich):
        totals = {}
        for who in ("seat", "best rival"):
            parts = ("bonuses scored", "placed workers' lines", "unplaced workers' options")
            totals[who] = sum(row[col[f"{part} ({who})"]] for part in parts)
        # the heuristic is the seat's parts less its best rival's
        assert row[0] == pytest.approx(totals["seat"] - totals["best rival"], abs=1e-9)
        colours = seating.colours_of(s)
        assert row[col["bonuses scored (seat)"]] == sum(state.bonus[c] for c in colours)
        on_board = [w for w in state.workers if w is not None and w[0] in colours]
        assert row[col["vilici placed (seat)"]] == sum(w[1] == "V" for w in on_board)
        assert row[col["domini placed (seat)"]] == sum(w[1] == "D" for w in on_board)
        assert row[col["round"]] + row[col["rounds left"]] == state.game.board.rounds
        assert 0.0 <= row[col["free slots share"]] <= 1.0


def test_a_model_file_says_whether_it_reads_rich_rows(tmp_path: Path) -> None:
    """Files made before rich rows (no ``rich`` entry) load as plain models; a plain model reads
    the plain part of a rich row, so it can be measured on the same data as a rich one."""
    rng = np.random.default_rng(0)
    state = random_position("celtae", {"players": 2}, seed=1, steps=50)
    values = learned.heuristic_values(state)
    plain, rich = learned.features(state, values), learned.features(state, values, rich=True)

    np.savez_compressed(tmp_path / "old.npz", **random_arrays(len(plain[0]), 2, rng))
    old = ValueModel.from_file(tmp_path / "old.npz")
    assert not old.rich and old.inputs == len(plain[0])
    assert old.predict(rich) == pytest.approx(old.predict(plain), abs=1e-12)
    assert old.margins(state, values) == pytest.approx(old.predict(plain).tolist())
    np.savez_compressed(tmp_path / "new.npz", **random_arrays(len(rich[0]), 2, rng, rich=np.array(1)))
    new = ValueModel.from_file(tmp_path / "new.npz")
    assert new.rich and new.inputs == len(rich[0])
    assert new.margins(state, values) == pytest.approx(new.predict(rich).tolist())
    for row in new.margins_many([state, state], [values, values]):
        assert row == pytest.approx(new.margins(state))


def test_a_model_values_a_big_lead_above_a_big_deficit() -> None:
    """Late in a greedy game the seat with the higher score so far is rated the likelier winner, mostly."""
    from ludus import bots

    agree = 0
    for seed in range(6):
        state = ludus.load_game("garum", players=2).new_initial_state(seed=seed)
        seats = [bots.make("greedy", seed=seed + s) for s in range(2)]
        while not state.is_terminal():
            last = state.clone()
            state.apply_action(seats[state.current_player()].step(state))
        scores = state.scores()
        if scores[0] == scores[1]:
            continue
        margins = learned.load("garum", 2).margins(last)
        agree += (margins[0] > margins[1]) == (scores[0] > scores[1])
    assert agree >= 4


def test_no_model_for_an_unknown_configuration() -> None:
    assert learned.load("garum", 9) is None and learned.provenance("garum", 9) is None


@pytest.mark.filterwarnings(
    "ignore"
)  # a tiny data set: scikit-learn warns of clipped batches and no convergence
def test_training_is_reproducible_from_its_seed(tmp_path: Path) -> None:
    pytest.importorskip("sklearn")
    from ludus.bots.learned import train

    data = train.gather(
        [
            train.play_positions(
                {"game": "garum", "players": 2, "seed": s, "rate": 0.5, "noise": 1.0, "explore": 0.1}
            )
            for s in range(5)
        ]
    )
    first, figures = train.train(data, 2, seed=3, hidden=8, holdout=0.2, target=None)
    saved = tmp_path / "first.npz"
    np.savez_compressed(saved, **first)
    second, again = train.train(data, 2, seed=3, hidden=8, holdout=0.2, target=None, compare=saved)
    assert first.keys() == second.keys()
    assert all(np.array_equal(first[k], second[k]) for k in first)
    assert figures["test_positions"] > 0 and figures["test_log_loss"] > 0.0
    # the same model read back from its file, measured on the same held-out games, has its figures
    compared = again["compared"]
    assert compared["model"] == "first.npz"
    for key in ("test_r2", "test_winner_accuracy", "test_mae_points", "test_log_loss"):
        assert compared[key] == pytest.approx(figures[key], abs=2e-3)
    other, _ = train.train(data, 2, seed=4, hidden=8, holdout=0.2, target=None)
    assert not np.array_equal(first["w1"], other["w1"])
    assert ValueModel(first).predict(data["x"][0]).shape == (2,)
    assert first["rich"] == 1 and first["w1"].shape[0] == data["x"].shape[2]
    plain = len(learned.feature_names("garum", 2))
    old_style, _ = train.train(data, 2, seed=3, hidden=8, holdout=0.2, target=None, plain=plain)
    assert old_style["rich"] == 0 and old_style["w1"].shape[0] == plain


def test_self_play_data_is_the_same_for_the_same_seed() -> None:
    from ludus.bots.learned import train

    task = {"game": "garum", "players": 2, "seed": 7, "rate": 0.3, "noise": 1.0, "explore": 0.1}
    first, second = train.play_positions(task), train.play_positions(task)
    assert np.array_equal(first["x"], second["x"]) and np.array_equal(first["y"], second["y"])
    assert first["x"].shape[1:] == (2, len(learned.feature_names("garum", 2, rich=True)))
    assert np.allclose(first["y"].sum(axis=1), 0.0)  # 2 players: one seat's margin is the other's loss


def test_self_play_by_a_bot_spec_plays_that_bot() -> None:
    """``--bot``: the positions of searched play, not greedy's, and as reproducible."""
    from ludus.bots.learned import train

    task = {"game": "celtae", "players": 2, "seed": 5, "rate": 0.3, "noise": 1.0, "explore": 0.0}
    searched = {**task, "bot": "ismcts:iterations=3"}
    first, again, greedy = (train.play_positions(t) for t in (searched, searched, task))
    assert np.array_equal(first["x"], again["x"]) and np.array_equal(first["y"], again["y"])
    assert first["x"].shape != greedy["x"].shape or not np.array_equal(first["x"], greedy["x"])
    assert isinstance(train.self_play_bot(searched, 1), ISMCTSBot)
    with pytest.raises(ValueError, match="unknown bot"):
        train.self_play_bot({**task, "bot": "no-such-bot"}, 1)


@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        ("no-such-bot", "unknown bot 'no-such-bot'"),
        ("ismcts:iterationz=3", "no parameter 'iterationz'"),
        ("ismcts:seed=3", "seed cannot be set"),
    ],
)
def test_training_refuses_a_wrong_bot_spec_before_any_game(
    spec: str, reason: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A misspelt ``--bot`` stops the command at once, with what is wrong, and writes nothing."""
    from ludus.bots.learned import train

    with pytest.raises(SystemExit) as stopped:
        train.main(["garum", "--players", "2", "--games", "2", "--bot", spec, "--out", str(tmp_path)])
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    assert "--bot:" in error and reason in error
    assert not any(tmp_path.iterdir())
