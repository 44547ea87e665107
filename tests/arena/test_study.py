"""Studies stream their games to disk as they end, resume after an interruption, and fail early."""

from __future__ import annotations

import gc
import io
import json
import os
import socket
import sys

import pytest

from ludus.arena import study
from ludus.arena.report import write_report
from ludus.arena.simulate import simulate
from ludus.arena.study import check_jobs, check_ray_address, run_study
from ludus.arena.tournament import tournament
from ludus.engine import load_game

PLAYED: list[int] = []
STOP_AFTER: list[int] = []


def _work(task: dict) -> dict:
    """A stand-in game: records that it was played; may simulate a Ctrl-C or a failure."""
    if STOP_AFTER and len(PLAYED) >= STOP_AFTER[0]:
        raise KeyboardInterrupt
    PLAYED.append(task["index"])
    if task.get("fail"):
        return {"index": task["index"], "seed": task["seed"], "seats": [], "error": "ValueError: boom"}
    return {"index": task["index"], "seed": task["seed"], "value": task["seed"] * 2}


def _collector(task: dict) -> dict:
    """A stand-in game that records the garbage collector's thresholds it was played under."""
    return {"index": task["index"], "seed": task["seed"], "gc": list(gc.get_threshold())}


def _tasks(n: int, **extra) -> list[dict]:
    return [{"index": i, "seed": 100 + i, **extra} for i in range(n)]


@pytest.fixture(autouse=True)
def _fresh() -> None:
    PLAYED.clear()
    STOP_AFTER.clear()


def test_an_interrupted_study_resumes_with_only_the_missing_games(tmp_path) -> None:
    journal = tmp_path / "games.jsonl"
    STOP_AFTER.append(3)
    with pytest.raises(KeyboardInterrupt):
        run_study(_tasks(6), _work, jobs=1, journal=journal, progress=False)
    assert [json.loads(x)["index"] for x in journal.read_text().splitlines()] == [0, 1, 2]
    with open(journal, "a", encoding="utf-8") as fh:
        fh.write('{"index": 3, "seed": 1')  # a line cut short by the interruption
    STOP_AFTER.clear()
    PLAYED.clear()
    records = run_study(_tasks(6), _work, jobs=1, journal=journal, progress=False)
    assert PLAYED == [3, 4, 5]
    assert [r["value"] for r in records] == [2 * (100 + i) for i in range(6)]
    assert [json.loads(x)["index"] for x in journal.read_text().splitlines()] == list(range(6))


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_studys_games_are_played_with_the_batch_collector_settings_and_they_are_set_back(jobs) -> None:
    before = gc.get_threshold()
    assert before != study.BATCH_GC
    records = run_study(_tasks(3), _collector, jobs=jobs, progress=False)
    assert [r["gc"] for r in records] == [list(study.BATCH_GC)] * 3
    assert gc.get_threshold() == before


def test_the_collector_is_set_back_when_a_game_fails() -> None:
    before = gc.get_threshold()
    with pytest.raises(ZeroDivisionError), study.batch_gc():
        assert gc.get_threshold() == study.BATCH_GC
        1 / 0  # noqa: B018
    assert gc.get_threshold() == before


def test_a_journal_of_another_study_is_refused_and_left_as_it_was(tmp_path) -> None:
    journal = tmp_path / "games.jsonl"
    run_study(_tasks(2), _work, jobs=1, journal=journal, progress=False)
    before = journal.read_text()
    other = [{**t, "seed": t["seed"] + 1} for t in _tasks(2)]
    with pytest.raises(ValueError, match="another study"):
        run_study(other, _work, jobs=1, journal=journal, progress=False)
    assert journal.read_text() == before


def test_failed_games_raise_after_the_others_and_are_played_again_on_resume(tmp_path) -> None:
    journal = tmp_path / "games.jsonl"
    tasks = _tasks(3)
    tasks[1]["fail"] = True
    with pytest.raises(study.StudyError, match="game 1 .*boom"):
        run_study(tasks, _work, jobs=1, journal=journal, progress=False)
    assert [json.loads(x)["index"] for x in journal.read_text().splitlines()] == [0, 2]
    PLAYED.clear()
    run_study(_tasks(3), _work, jobs=1, journal=journal, progress=False)
    assert PLAYED == [1]


def test_simulate_streams_replayable_records_and_resumes_to_the_same_results(tmp_path) -> None:
    out = tmp_path / "sim.jsonl"
    args = ("garum", {"players": 2, "board": "baelo_claudia"}, ["random", "greedy"])
    fresh = simulate(*args, games=4, jobs=2, seed=9, progress=False)
    simulate(*args, games=2, jobs=1, seed=9, progress=False, out=out)  # the first two games of the same seeds
    assert len(out.read_text().splitlines()) == 2
    resumed = simulate(*args, games=4, jobs=2, seed=9, progress=False, out=out)
    assert resumed == fresh
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert sorted(r["index"] for r in lines) == [0, 1, 2, 3]
    for record in lines:
        state = load_game(record["game"], **record["config"]).new_initial_state(seed=record["seed"])
        for text in record["actions"]:
            state.apply_action(text)
        assert state.is_terminal() and state.scores() == record["scores"]
        assert state.winners() == record["winners"]


@pytest.mark.parametrize("run", ["simulate", "tournament", "report"])
def test_an_unwritable_output_is_refused_before_any_game(tmp_path, run) -> None:
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    target = blocker / "inside"
    options = {"players": 2, "board": "baelo_claudia"}
    with pytest.raises(ValueError, match="cannot write"):
        if run == "simulate":
            simulate(
                "garum", options, ["ismcts:iterations=100000"], 2, progress=False, out=target / "x.jsonl"
            )
        elif run == "tournament":
            tournament(
                "garum", options, ["random", "ismcts:iterations=100000"], games=2, out_dir=target, echo=False
            )
        else:
            write_report("garum", options, 2, target, bots=["ismcts:iterations=100000"])
    assert blocker.read_text() == ""


def test_progress_is_drawn_only_on_a_terminal(capfd) -> None:
    simulate("garum", {"players": 2, "board": "baelo_claudia"}, ["random"], 2, jobs=1, progress=True)
    assert capfd.readouterr().err == ""


def test_jobs_default_to_every_core_and_bad_counts_are_refused() -> None:
    assert check_jobs(None) == (os.cpu_count() or 1)
    assert check_jobs(3) == 3
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="jobs"):
            check_jobs(bad)


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_ray_address_nobody_answers_is_refused_with_a_message() -> None:
    with pytest.raises(ValueError, match="no Ray cluster answers at 127.0.0.1"):
        check_ray_address(f"127.0.0.1:{_closed_port()}", timeout=2)
    with pytest.raises(ValueError, match="not 'local', 'auto', host:port"):
        check_ray_address("nowhere")
    check_ray_address("local")


def test_a_tournament_on_an_unreachable_ray_cluster_fails_without_starting_ray(tmp_path) -> None:
    with pytest.raises(ValueError, match="no Ray cluster answers"):
        tournament(
            "garum",
            {"players": 2},
            ["random", "greedy"],
            games=1,
            out_dir=tmp_path,
            ray_address=f"ray://127.0.0.1:{_closed_port()}",
            echo=False,
        )
    assert not (tmp_path / "results.jsonl").exists() or not (tmp_path / "results.jsonl").read_text()


def _slow_after_first(task: dict) -> dict:
    """Game 0 ends at once; the others take a minute, then leave a mark."""
    if task["index"]:
        import time
        from pathlib import Path

        time.sleep(60)
        Path(task["mark"]).write_text("finished")
    return {"index": task["index"], "seed": task["seed"]}


def test_stopping_a_study_stops_its_workers_without_finishing_their_games(tmp_path) -> None:
    mark = tmp_path / "mark"
    tasks = [{"index": i, "seed": i, "mark": str(mark)} for i in range(4)]
    results = study._pool_results(tasks, _slow_after_first, jobs=2)
    assert next(results)["index"] == 0
    results.close()  # what Ctrl-C in the caller does to the generator: returns without waiting a minute
    assert not mark.exists()


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_progress_shows_the_games_done_and_the_time_left(monkeypatch) -> None:
    screen = _Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    run_study(_tasks(3), _work, jobs=1, progress=True, description="demo")
    text = screen.getvalue()
    assert "demo" in text and "3/3" in text and "ETA" in text


def test_a_shorter_run_of_the_same_study_reads_its_first_games_and_keeps_the_rest(tmp_path) -> None:
    journal = tmp_path / "games.jsonl"
    run_study(_tasks(5), _work, jobs=1, journal=journal, progress=False)
    PLAYED.clear()
    records = run_study(_tasks(3), _work, jobs=1, journal=journal, progress=False)
    assert PLAYED == [] and [r["index"] for r in records] == [0, 1, 2]
    assert len(journal.read_text().splitlines()) == 5
