"""Paired comparison of two runs on the same deals (ludus.arena.paired)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from ludus.arena.paired import compare, digest, read_run, sign_test, write_run
from ludus.games.celtae.solo_arena import play_solo


def test_sign_test_matches_the_binomial_tails() -> None:
    assert sign_test(10, 0) == pytest.approx(2 / 1024)
    assert sign_test(0, 10) == pytest.approx(2 / 1024)
    assert sign_test(7, 3) == pytest.approx(2 * (1 + 10 + 45 + 120) / 1024)
    assert sign_test(5, 5) == 1.0
    assert sign_test(0, 0) == 1.0


def test_compare_counts_deals_better_and_worse_and_the_same_games() -> None:
    a: dict[int, dict[str, Any]] = {
        1: {"result": 30.0, "digest": "x"},
        2: {"result": 25.0, "digest": "y"},
        3: {"result": 31.0, "digest": "z"},
    }
    b: dict[int, dict[str, Any]] = {
        1: {"result": 30.0, "digest": "x"},
        2: {"result": 28.0, "digest": "w"},
        3: {"result": 29.0, "digest": None},
    }
    b[9] = {"result": 99.0, "digest": "q"}  # a deal only one run played is left out
    c = compare(a, b)
    assert (c["deals"], c["better"], c["worse"], c["same"]) == (3, 1, 1, 1)
    assert c["difference"] == pytest.approx(1 / 3)
    assert c["mean_b"] == pytest.approx(29.0)
    assert math.isfinite(c["half_width"]) and c["half_width"] > 0


def test_runs_with_no_deal_in_common_are_refused() -> None:
    with pytest.raises(ValueError, match="no deal in common"):
        compare({1: {"result": 1.0, "digest": None}}, {2: {"result": 1.0, "digest": None}})


def test_a_solo_game_played_twice_has_one_digest_and_another_bot_another(tmp_path) -> None:
    first = play_solo("greedy", "normal", seed=11)
    again = play_solo("greedy", "normal", seed=11)
    other = play_solo("random", "normal", seed=11)
    assert len(first["moves"]) == first["actions"]
    assert digest(first["moves"]) == digest(again["moves"])
    assert digest(first["moves"]) != digest(other["moves"])
    path = tmp_path / "run.jsonl"
    write_run(path, [{"seed": 11, "result": first["score"], "digest": digest(first["moves"])}])
    assert read_run(path) == {11: {"result": float(first["score"]), "digest": digest(first["moves"])}}


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ('{"seed": 1}', "line 2: not a record with a seed and a result"),
        ("not json", "line 2: not a record"),
        ('{"seed": "1", "result": 3}', "line 2: the seed must be an integer"),
        ('{"seed": 1, "result": "many"}', "line 2: not a record"),
    ],
)
def test_a_malformed_run_file_names_the_line(tmp_path, line: str, reason: str) -> None:
    path = tmp_path / "run.jsonl"
    path.write_text('{"seed": 5, "result": 1, "digest": "a"}\n' + line + "\n")
    with pytest.raises(ValueError, match=reason):
        read_run(path)
