"""``--data DIR`` on every command that plays, ``ludus data export`` / ``ludus data diff``: a folder of one's
own used, listed, and refused in one line naming file and key when a value is wrong."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import ludus
from ludus.cli import main


def run(args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input, prog_name="ludus")


def exported(tmp_path, game="garum", name="mine"):
    folder = tmp_path / name
    result = run(["data", "export", game, folder])
    assert result.exit_code == 0, result.output
    return folder


def edit(folder, name, key, change):
    path = folder / name
    raw = json.loads(path.read_text())
    raw[key]["value"] = change(raw[key]["value"])
    path.write_text(json.dumps(raw, indent=1))


def test_export_writes_the_packages_files_flat_and_keeps_existing_ones(tmp_path):
    folder = exported(tmp_path)
    assert sorted(p.name for p in folder.iterdir()) == ["baelo_claudia.json", "tiles.json", "troia.json"]
    edit(folder, "troia.json", "hand_size", lambda v: 3)
    again = run(["data", "export", "garum", folder])
    assert (
        again.exit_code == 2
        and "baelo_claudia.json exists: export into a new or empty folder" in again.output
    )
    assert json.loads((folder / "troia.json").read_text())["hand_size"]["value"] == 3
    assert run(["data", "export", "garum", folder, "--force"]).exit_code == 0
    assert json.loads((folder / "troia.json").read_text())["hand_size"]["value"] == 4


def test_diff_of_an_unchanged_export_lists_nothing(tmp_path):
    folder = exported(tmp_path, "celtae")
    result = run(["data", "diff", "celtae", folder])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [f"no value differs: {folder} holds the printed components"]


def test_diff_lists_each_changed_value_by_file_and_key(tmp_path):
    folder = exported(tmp_path)
    edit(folder, "troia.json", "bonus_points", lambda v: {**v, "species": 6})
    edit(folder, "tiles.json", "dominus", lambda v: 2)
    (folder / "tile.json").write_text("{}")
    result = run(["data", "diff", "garum", folder])
    assert result.exit_code == 0, result.output
    digest = ludus.load_game("garum", data=folder).data_tag
    assert result.output.splitlines() == [
        "tiles.json dominus: 1 -> 2",
        "troia.json bonus_points.species: 2 -> 6",
        "tile.json: ignored, not a data file of garum",
        f"2 values differ: data {digest}",
    ]


def test_diff_ends_with_the_error_of_a_wrong_value(tmp_path):
    folder = exported(tmp_path)
    edit(folder, "troia.json", "hand_size", lambda v: 0)
    result = run(["data", "diff", "garum", folder])
    assert result.exit_code == 2
    assert (
        result.output.splitlines()[-1]
        == f"error: {folder}/troia.json: 'hand_size' must be from 1 to 16, got 0"
    )


@pytest.mark.parametrize(
    "command",
    [
        ["play", "garum", "--seats", "random,random"],
        ["simulate", "garum", "--games", "1", "--jobs", "1"],
        ["report", "garum", "--games", "1", "--jobs", "1", "--no-compare", "--out", "{out}"],
        ["tournament", "garum", "--bots", "random,greedy", "--games", "1", "--jobs", "1", "--out", "{out}"],
        ["compare", "garum", "--games", "1", "--jobs", "1", "--no-compare", "--out", "{out}"],
        ["solo-challenge", "--games", "1", "--jobs", "1"],
        ["serve", "--port", "1"],
    ],
)
def test_a_wrong_value_ends_every_command_that_plays_in_one_line_naming_file_and_key(tmp_path, command):
    if command[0] == "solo-challenge":
        folder, name, key = exported(tmp_path, "celtae"), "bonus.json", "strength_gain"
        edit(folder, name, key, lambda v: -3)
    else:
        folder, name, key = exported(tmp_path), "troia.json", "hand_size"
        edit(folder, name, key, lambda v: "four")
    out = tmp_path / "out"
    result = run([str(out) if arg == "{out}" else arg for arg in command] + ["--data", folder])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and name in lines[0] and f"'{key}'" in lines[0]
    assert not out.exists()  # refused before any game or file


def test_play_with_a_folder_saves_a_record_naming_its_data_that_replays_only_with_it(tmp_path):
    folder = exported(tmp_path)
    edit(folder, "troia.json", "bonus_points", lambda v: {**v, "species": 9})
    saved = tmp_path / "game.json"
    played = run(
        ["play", "garum", "--seats", "random,random", "--seed", "2", "--data", folder, "--save", saved]
    )
    assert played.exit_code == 0, played.output
    record = json.loads(saved.read_text())
    assert record["data"] == ludus.load_game("garum", data=folder).data_tag
    refused = run(["replay", saved, "--end"])
    assert (
        refused.exit_code == 2
        and f"needs its data: it was played with data {record['data']}" in refused.output
    )
    shown = run(["replay", saved, "--end", "--data", folder])
    assert shown.exit_code == 0, shown.output
    scores = ", ".join(f"seat {s + 1} {v}" for s, v in enumerate(ludus.replay(record, data=folder).scores()))
    assert f"Scores: {scores}" in shown.output and f"Scores: {scores}" in played.output


def test_simulate_with_a_folder_plays_with_it_and_its_games_name_the_data(tmp_path):
    folder = exported(tmp_path)
    edit(folder, "troia.json", "bonus_points", lambda v: {**v, "species": 40})
    out = tmp_path / "games.jsonl"
    args = [
        "simulate",
        "garum",
        "--players",
        "2",
        "--games",
        "2",
        "--bots",
        "random",
        "--jobs",
        "1",
        "--seed",
        "1",
    ]
    mine = run([*args, "--data", folder, "--json", out])
    assert mine.exit_code == 0, mine.output
    tag = ludus.load_game("garum", data=folder).data_tag
    assert f"data {tag}" in " ".join(mine.output.split())
    games = [json.loads(line) for line in out.read_text().splitlines()]
    assert {g["data"] for g in games} == {tag}
    printed = [ludus.replay({**g, "actions": g["actions"]}, data=folder).scores() for g in games]
    assert printed == [g["scores"] for g in games]
    # the same file with the printed components is another study: refused, not mixed in
    other = run([*args, "--json", out])
    assert other.exit_code == 2 and "differs in data" in other.output


def test_compare_wants_one_or_two_data_folders(tmp_path):
    result = run(["compare", "garum", "--games", "1"])
    assert result.exit_code == 2 and "give --data DIR once" in result.output
