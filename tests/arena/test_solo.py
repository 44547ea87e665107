"""The Celtae solo challenge: structure, wins counted from the final scores, errors before any game."""

from __future__ import annotations

import statistics

import pytest

from ludus.games.celtae.solo_arena import CATEGORIES, format_challenge, play_solo, solo_challenge


def test_solo_challenge_counts_wins_against_each_target_from_the_final_scores() -> None:
    out = solo_challenge("random", games=6, seed=3, show=False)
    assert out["bot"] == "random" and out["games"] == 6 and not out["one_run"]
    assert set(out["difficulties"]) == {"easy", "normal", "hard"}
    assert len(out["results"]) == 6
    for difficulty, summary in out["difficulties"].items():
        games = [r for r in out["results"] if r["difficulty"] == difficulty]
        scores = [r["score"] for r in games]
        assert summary["games"] == len(games) == 2
        assert summary["target"] == {"easy": 25, "normal": 30, "hard": 35}[difficulty]
        assert summary["wins"] == sum(s >= summary["target"] for s in scores)
        assert summary["win_rate"] == summary["wins"] / 2
        assert summary["mean"] == pytest.approx(statistics.fmean(scores))
        assert summary["stdev"] == pytest.approx(statistics.stdev(scores))
        assert (summary["min"], summary["max"]) == (min(scores), max(scores))
        assert sum(summary["categories"][c] for c in CATEGORIES) == pytest.approx(summary["mean"])
        for r in games:
            assert r["breakdown"]["total"] == r["score"]
            assert r["won"] == (r["score"] >= r["target"])  # the engine's winners() agrees
    # the same seeds for every difficulty, so the deals are shared
    seeds = {d: [r["seed"] for r in out["results"] if r["difficulty"] == d] for d in out["difficulties"]}
    assert seeds["easy"] == seeds["normal"] == seeds["hard"]


@pytest.mark.parametrize("games", [1, 4, 7])
def test_games_counts_every_game_played_whatever_the_difficulties(games: int) -> None:
    one_run = solo_challenge("random", games=games, seed=2, one_run=True, show=False)
    assert len(one_run["results"]) == games
    if games >= 3:
        shared = solo_challenge("random", games=games, seed=2, show=False)
        assert len(shared["results"]) == games
        assert sum(s["games"] for s in shared["difficulties"].values()) == games


def test_a_bot_spec_with_parameters_is_played_with_them() -> None:
    spec = solo_challenge("greedy:noise=3", games=1, seed=4, one_run=True, show=False)
    keyword = solo_challenge("greedy", games=1, seed=4, one_run=True, show=False, noise=3)
    assert spec["bot"] == "greedy" and spec["params"] == {"noise": 3}
    assert spec["results"] == keyword["results"]
    with pytest.raises(ValueError, match="noise"):
        solo_challenge("greedy:noise=loud", games=1, one_run=True, show=False)


def test_fewer_games_than_difficulties_is_refused() -> None:
    with pytest.raises(ValueError, match="3 difficulties need at least 3 games"):
        solo_challenge("random", games=2, show=False)


def test_one_run_scores_the_same_games_against_every_target() -> None:
    out = solo_challenge("random", games=2, seed=3, one_run=True, show=False)
    assert len(out["results"]) == 2
    means = {s["mean"] for s in out["difficulties"].values()}
    assert len(means) == 1
    wins = [out["difficulties"][d]["wins"] for d in ("easy", "normal", "hard")]
    assert wins == sorted(wins, reverse=True)
    # random ignores the target, so the per-difficulty run plays the very same games
    again = solo_challenge("random", difficulties=("hard",), games=2, seed=3, show=False)
    assert [r["score"] for r in again["results"]] == [r["score"] for r in out["results"]]


def test_results_do_not_depend_on_jobs() -> None:
    one = solo_challenge("random", difficulties=("normal",), games=2, seed=5, show=False)
    two = solo_challenge("random", difficulties=("normal",), games=2, seed=5, jobs=2, show=False)
    assert one["results"] == two["results"]


def test_a_greedy_game_is_reproducible_and_table_names_every_difficulty() -> None:
    a = play_solo("greedy", "normal", seed=11)
    assert a == play_solo("greedy", "normal", seed=11)
    out = solo_challenge("random", games=1, seed=1, show=False, one_run=True)
    text = format_challenge(out)
    for d in ("easy", "normal", "hard"):
        assert d in text


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"bot_name": "genius"}, "unknown bot"),
        ({"bot_name": "random", "difficulties": ("brutal",)}, "unknown difficulty"),
        ({"bot_name": "random", "difficulties": ()}, "at least one difficulty"),
        ({"bot_name": "random", "games": 0, "one_run": True}, "at least 1"),
        ({"bot_name": "random", "jobs": 0}, "at least 1"),
        ({"bot_name": "ismcts", "iterations": 0}, "iterations"),
    ],
)
def test_bad_arguments_are_refused_before_any_game(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        solo_challenge(show=False, **kwargs)
