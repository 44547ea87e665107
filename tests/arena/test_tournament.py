"""Tournaments: a tiny round robin on two processes writes its results, ratings and plot."""

from __future__ import annotations

import importlib.util
import json

import pytest

from ludus.arena.tournament import schedule, tournament
from ludus.bots import parse_spec


def test_bot_specs_parse_names_and_parameters() -> None:
    assert parse_spec("random") == ("random", {})
    assert parse_spec("ismcts:iterations=50:cutoff=None:exploration=0.2") == (
        "ismcts",
        {"iterations": 50, "cutoff": None, "exploration": 0.2},
    )
    with pytest.raises(ValueError, match="unknown bot"):
        parse_spec("genius")
    with pytest.raises(ValueError, match="key=value"):
        parse_spec("ismcts:fast")


def test_schedule_rotates_seats_and_shares_seeds_across_pairings() -> None:
    tasks = schedule(["a", "b", "c"], players=2, games=4, seed=7)
    assert len(tasks) == 3 * 4
    by_table: dict[int, list[dict]] = {}
    for t in tasks:
        by_table.setdefault(t["table"], []).append(t)
    seed_lists = [[t["seed"] for t in ts] for ts in by_table.values()]
    assert all(s == seed_lists[0] for s in seed_lists)  # the same deals for every pairing
    first = by_table[0]
    assert first[0]["seed"] == first[1]["seed"] and first[0]["seats"] == first[1]["seats"][::-1]


def test_schedule_for_four_seats_plays_every_table_from_every_seat() -> None:
    tasks = schedule(["a", "b", "c", "d", "e"], players=4, games=4, seed=1)
    assert len({t["table"] for t in tasks}) == 5  # C(5, 4)
    seats_of_a = {t["seats"].index("a") for t in tasks if t["table"] == 0}
    assert seats_of_a == {0, 1, 2, 3}


def test_schedule_refuses_a_lone_bot_and_duplicates() -> None:
    with pytest.raises(ValueError):
        schedule(["a"], 2, 2, 0)
    with pytest.raises(ValueError):
        schedule(["a", "a"], 2, 2, 0)


def test_tiny_round_robin_on_two_processes_writes_jsonl_and_png(tmp_path) -> None:
    bots = ["random", "greedy", "greedy:noise=4"]
    out = tournament(
        "garum",
        {"players": 2, "board": "baelo_claudia"},
        bots,
        games=2,
        jobs=2,
        seed=3,
        out_dir=tmp_path,
        bootstrap=20,
        echo=False,
    )
    lines = (tmp_path / "results.jsonl").read_text().splitlines()
    assert len(lines) == 3 * 2
    records = [json.loads(x) for x in lines]
    assert {tuple(sorted(r["seats"])) for r in records} == {
        ("greedy", "random"),
        ("greedy:noise=4", "random"),
        ("greedy", "greedy:noise=4"),
    }
    assert all(r["game"] == "garum" and len(r["scores"]) == 2 for r in records)
    png = (tmp_path / "ratings.png").read_bytes()
    assert png.startswith(b"\x89PNG")
    assert [r.bot for r in out["ratings"]][-1] == "random"
    matrix = json.loads((tmp_path / "head_to_head.json").read_text())["score"]
    assert matrix[0][0] is None and matrix[0][1] + matrix[1][0] == 1.0


def test_same_seed_gives_the_same_tournament_whatever_the_jobs(tmp_path) -> None:
    args = ("garum", {"players": 2, "board": "baelo_claudia"}, ["random", "greedy"])
    one = tournament(*args, games=2, jobs=1, seed=5, bootstrap=0, echo=False)["results"]
    two = tournament(*args, games=2, jobs=2, seed=5, bootstrap=0, echo=False)["results"]
    strip = [{k: v for k, v in r.items() if k != "seconds"} for r in one]
    assert strip == [{k: v for k, v in r.items() if k != "seconds"} for r in two]


def test_bad_bot_parameters_are_refused_before_any_game() -> None:
    with pytest.raises(ValueError, match="ismcts"):
        tournament("garum", {"players": 2}, ["random", "ismcts:speed=3"], games=1, echo=False)


@pytest.mark.slow
@pytest.mark.skipif(
    importlib.util.find_spec("ray") is None, reason="ray is not installed (pip install 'ludus[ray]')"
)
def test_tournament_on_a_local_ray_instance_equals_the_local_processes(tmp_path) -> None:
    import ray

    args = ("garum", {"players": 2, "board": "baelo_claudia"}, ["random", "greedy", "greedy:noise=4"])
    try:
        on_ray = tournament(
            *args, games=2, jobs=2, seed=11, ray_address="local", bootstrap=0, echo=False, out_dir=tmp_path
        )["results"]
        assert not ray.is_initialized()  # the instance it started is shut down
    finally:
        ray.shutdown()
    local = tournament(*args, games=2, jobs=2, seed=11, bootstrap=0, echo=False)["results"]
    assert len(on_ray) == 3 * 2 and [r["index"] for r in on_ray] == list(range(6))
    strip = [{k: v for k, v in r.items() if k != "seconds"} for r in on_ray]
    assert strip == [{k: v for k, v in r.items() if k != "seconds"} for r in local]
    assert len((tmp_path / "results.jsonl").read_text().splitlines()) == 6
