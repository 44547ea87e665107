"""What-if on the same deals: ``ludus compare`` plays each deal under data A and data B and reports each
difference with its paired interval; it finds a change with a known effect, and none where there is none."""

from __future__ import annotations

import json
import math
import statistics

import pytest
from click.testing import CliRunner

from ludus.arena.compare import compare_data
from ludus.arena.compare_stats import NOT_DETECTED, Row, compare_tables, paired_ratio, t975
from ludus.arena.simulate import simulate
from ludus.cli import main
from ludus.engine.data import DataFiles, export
from ludus.engine.registry import game_class


def exported(game, folder):
    export(DataFiles.of_package(game_class(game).data_package), folder)
    return folder


def edit(folder, name, key, change):
    path = folder / name
    raw = json.loads(path.read_text())
    raw[key]["value"] = change(raw[key]["value"])
    path.write_text(json.dumps(raw, indent=1))


def rows_of(result):
    return {
        (table.key, row.label): row for table in [*result["tables"], *result["options"]] for row in table.rows
    }


@pytest.fixture
def garum_folders(tmp_path):
    """Two folders that differ in one value with a known effect (a species bonus worth 20 points, not 2),
    and a third identical to the first."""
    a = exported("garum", tmp_path / "a")
    b = exported("garum", tmp_path / "b")
    edit(b, "troia.json", "bonus_points", lambda v: {**v, "species": 20})
    same = exported("garum", tmp_path / "same")
    return a, b, same


def test_the_study_finds_a_change_with_a_known_effect(tmp_path, garum_folders):
    a, b, _ = garum_folders
    result = compare_data(
        "garum",
        {"players": 2},
        a,
        b,
        ["random"],
        games=6,
        jobs=1,
        seed=1,
        out_dir=tmp_path / "out",
        compare=False,
    )
    rows = rows_of(result)
    mean = rows["score", "all seats"]
    assert mean.detected and mean.difference > 10 and mean.verdict().startswith("B raises the mean score by ")
    assert rows["length", "decisions"].difference == 0  # random bots make the same moves: only points change
    assert result["changes"] == [("troia.json", "bonus_points.species", 2, 20)]


def test_the_study_finds_no_difference_between_identical_folders(tmp_path, garum_folders):
    a, _, same = garum_folders
    result = compare_data(
        "garum",
        {"players": 2},
        a,
        same,
        ["greedy", "random"],
        games=4,
        jobs=1,
        seed=2,
        out_dir=tmp_path / "out",
    )
    rows = rows_of(result)
    assert rows and all(row.verdict() == NOT_DETECTED for row in rows.values())
    assert all(row.difference == 0 for row in rows.values())
    assert {key for key, _ in rows} >= {"seat", "score", "length", "by_board", "by_variant"}
    assert result["changes"] == [] and result["b"].startswith("the printed components")


def test_side_a_is_the_simulation_of_the_same_seed_and_b_the_same_deals(tmp_path, garum_folders):
    _, b, _ = garum_folders
    out = tmp_path / "out"
    result = compare_data(
        "garum", {"players": 2}, None, b, ["random"], games=3, jobs=1, seed=7, out_dir=out, compare=False
    )
    simulated = simulate("garum", {"players": 2}, ["random"], 3, jobs=1, seed=7, progress=False)
    games = [json.loads(line) for line in next(out.glob("games_*.jsonl")).read_text().splitlines()]
    under_a = [g for g in games if g["side"] == "A"]
    under_b = [g for g in games if g["side"] == "B"]
    assert [g["scores"] for g in under_a] == [g["scores"] for g in simulated]
    assert [(g["seed"], g["seats"]) for g in under_b] == [(g["seed"], g["seats"]) for g in under_a]
    assert {g.get("data") for g in under_a} == {None} and len({g["data"] for g in under_b}) == 1
    assert result["a"] == "the printed components"


def test_an_interrupted_study_resumes_from_its_games(tmp_path, garum_folders):
    a, b, _ = garum_folders
    out = tmp_path / "out"
    first = compare_data(
        "garum", {"players": 2}, a, b, ["random"], games=2, jobs=1, seed=3, out_dir=out, compare=False
    )
    journal = next(out.glob("games_*.jsonl"))
    kept = journal.read_text().splitlines()
    journal.write_text("\n".join(kept[:3]) + "\n")  # the last game was lost
    again = compare_data(
        "garum", {"players": 2}, a, b, ["random"], games=4, jobs=1, seed=3, out_dir=out, compare=False
    )
    lines = journal.read_text().splitlines()
    assert lines[:3] == kept[:3] and len(lines) == 8
    assert rows_of(first)["score", "seat 1"].b == statistics.fmean(
        json.loads(line)["scores"][0] for line in kept if json.loads(line)["side"] == "B"
    )
    assert rows_of(again)["score", "all seats"].detected


def test_celtae_tables_by_leader_bonus_tile_and_category_come_from_its_report_facts(tmp_path):
    b = exported("celtae", tmp_path / "b")
    edit(b, "bonus.json", "tile_points", lambda v: 9)
    result = compare_data(
        "celtae", {"players": 2}, None, b, ["greedy"], games=2, jobs=1, seed=1, out_dir=tmp_path / "out"
    )
    keys = {table.key for table in result["tables"]}
    assert {"seat", "score", "category", "length", "by_leader", "by_bonus_tiles", "by_side"} <= keys
    categories = {row.label for table in result["tables"] if table.key == "category" for row in table.rows}
    assert categories == set("ABCDEFGHIJK")
    text = (tmp_path / "out" / "compare.md").read_text()
    assert "## Win rate by leader" in text and "| bonus.json | `tile_points` | `1` | `9` |" in text
    for table in result["tables"]:
        assert (tmp_path / "out" / f"compare_{table.key}.png").read_bytes().startswith(b"\x89PNG")


def test_the_command_writes_the_report_and_a_plot_per_table(tmp_path, garum_folders):
    _, b, _ = garum_folders
    out = tmp_path / "out"
    args = [
        "compare",
        "garum",
        "--players",
        "2",
        "--data",
        str(b),
        "--games",
        "6",
        "--seed",
        "1",
        "--bots",
        "random",
    ]
    result = CliRunner().invoke(
        main, [*args, "--jobs", "1", "--no-compare", "--out", str(out)], prog_name="ludus"
    )
    assert result.exit_code == 0, result.output
    assert "B raises the mean score by" in result.output and f"wrote {out / 'compare.md'}" in result.output
    text = (out / "compare.md").read_text()
    for key in ("seat", "score", "length"):
        assert f"(compare_{key}.png)" in text and (out / f"compare_{key}.png").read_bytes().startswith(
            b"\x89PNG"
        )
    assert " ± " in text and NOT_DETECTED in text


def test_for_one_value_a_deal_the_interval_is_the_paired_t_interval():
    a = [3.0, 5.0, 4.0, 6.0, 2.0]
    b = [4.0, 7.0, 4.5, 9.0, 2.5]
    ones = [1] * len(a)
    ra, rb, diff, half = paired_ratio(a, ones, b, ones)
    diffs = [y - x for x, y in zip(a, b, strict=True)]
    assert (
        ra == statistics.fmean(a)
        and rb == statistics.fmean(b)
        and diff == pytest.approx(statistics.fmean(diffs))
    )
    assert half == pytest.approx(2.776 * statistics.stdev(diffs) / math.sqrt(5))


def test_the_t_quantile_joins_its_table_to_its_expansion():
    assert t975(1) == 12.706 and t975(30) == 2.042
    assert t975(31) == pytest.approx(2.040, abs=0.001) and t975(120) == pytest.approx(1.980, abs=0.001)
    assert t975(0) == math.inf


def test_verdicts_say_who_b_favours_or_what_it_raises_with_the_interval():
    win = Row("seat 1", "seat 1", "win", "points", 0.25, 0.291, 0.041, 0.019, 100, 100)
    assert win.verdict() == "B favours seat 1 by 4.1 ± 1.9 points"
    lose = Row("seat 1", "seat 1", "win", "points", 0.29, 0.25, -0.041, 0.019, 100, 100)
    assert lose.verdict() == "A favours seat 1 by 4.1 ± 1.9 points"
    score = Row("all seats", "the mean score", "amount", "points", 40, 37.5, -2.5, 0.8, 100, 100)
    assert score.verdict() == "B lowers the mean score by 2.50 ± 0.80 points"
    unsure = Row("seat 0", "seat 0", "win", "points", 0.5, 0.52, 0.02, 0.05, 100, 100)
    assert unsure.verdict() == NOT_DETECTED and unsure.interval() == "+2.0 ± 5.0"


def test_groups_seen_under_one_side_only_are_left_out_and_said():
    def game(leader, returns):
        return {
            "scores": [1, 0],
            "returns": returns,
            "actions": 10,
            "facts": {"seats": [{"leader": leader}, {"leader": "Boudica"}]},
        }

    pairs = [(game("Viriato", [1.0, 0.0]), game("Avarus", [0.0, 1.0]))] * 3
    (leaders,) = [t for t in compare_tables(pairs) if t.key == "by_leader"]
    assert [row.label for row in leaders.rows] == ["Boudica"] and leaders.left_out == ("Avarus", "Viriato")
    assert leaders.rows[0].verdict() == "B favours Boudica (leader) by 100.0 ± 0.0 points"


def test_groups_are_listed_with_their_numbers_in_order():
    """Garum's bonus spaces are named by cetarium: 2 comes before 10, as on the board."""

    def game(spaces):
        return {
            "scores": [1, 0],
            "returns": [1.0, 0.0],
            "actions": 10,
            "facts": {"seats": [{"bonus_spaces_scored": spaces}, {"bonus_spaces_scored": ["1 *"]}]},
        }

    pairs = [(game(["10 *", "2 R", "9 G"]), game(["2 R", "10 *", "9 G"]))] * 3
    (spaces,) = [t for t in compare_tables(pairs) if t.key == "by_bonus_spaces_scored"]
    assert [row.label for row in spaces.rows] == ["1 *", "2 R", "9 G", "10 *"]
