"""Components from a folder of one's own: ``load_game(name, data=FOLDER)`` plays with the folder's files in
place of the package's of the same name, checked when loaded; records name their data by a hash of its
values and replay only with those values."""

from __future__ import annotations

import hashlib
import json
import pickle
import shutil
from pathlib import Path

import pytest

import ludus
from ludus.engine.data import DATA_ENV, DataFiles, differences, export, game_data
from ludus.engine.registry import game_class


def package_files(game: str) -> DataFiles:
    return DataFiles.of_package(game_class(game).data_package)


def exported(game: str, folder: Path) -> Path:
    export(package_files(game), folder)
    return folder


def edit(folder: Path, name: str, key: str, change) -> None:
    """Change the value of ``key`` in ``folder/name`` with ``change(value) -> new value``."""
    path = folder / name
    raw = json.loads(path.read_text())
    raw[key]["value"] = change(raw[key]["value"])
    path.write_text(json.dumps(raw, indent=1))


def bonus_raised(tmp_path: Path, points: int = 20, name: str = "mine") -> Path:
    folder = exported("garum", tmp_path / name)
    edit(folder, "troia.json", "bonus_points", lambda v: {**v, "species": points})
    return folder


def play_first(state):
    """Play the first legal action to the end: the same moves whatever the data's points."""
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    return state


def package_digest(game: str) -> str:
    folder = package_files(game).where("x").parent
    return hashlib.sha256(b"".join(p.read_bytes() for p in sorted(folder.glob("*.json")))).hexdigest()


def test_a_folder_with_a_changed_value_is_played_and_the_package_is_untouched(tmp_path):
    before = package_digest("garum")
    folder = bonus_raised(tmp_path)
    mine = ludus.load_game("garum", players=2, data=folder)
    printed = ludus.load_game("garum", players=2)
    assert mine.board.species_bonus == 20 and printed.board.species_bonus == 2
    ours, theirs = play_first(mine.new_initial_state(seed=3)), play_first(printed.new_initial_state(seed=3))
    assert ours.history() == theirs.history()
    assert sum(ours.scores()) > sum(theirs.scores())  # the same moves score more bonus points
    assert package_digest("garum") == before
    assert ludus.load_game("garum", players=2).board.species_bonus == 2  # nothing leaked into the package's


def test_a_folder_that_changes_no_value_is_the_printed_components(tmp_path):
    folder = exported("celtae", tmp_path / "same")
    raw = json.loads((folder / "bonus.json").read_text())
    raw["tile_points"]["note"] = "checked against my copy of the game"
    raw["tile_points"]["provenance"] = "review"
    (folder / "bonus.json").write_text(json.dumps(raw))
    game = ludus.load_game("celtae", data=folder)
    assert game.data_tag is None and game.data_files.printed
    assert "data" not in game.new_initial_state(seed=1).record()


def test_the_record_and_the_saved_state_name_the_data_hash(tmp_path):
    game = ludus.load_game("garum", players=2, data=bonus_raised(tmp_path))
    state = play_first(game.new_initial_state(seed=5))
    record = state.record()
    assert record["data"] == game.data_files.digest == game.data_tag
    assert len(record["data"]) == 16 and int(record["data"], 16) >= 0
    assert json.loads(state.to_json())["data"] == record["data"]
    assert list(ludus.load_game("garum").new_initial_state(seed=5).record()) == [
        "game",
        "config",
        "seed",
        "actions",
    ]


def test_the_hash_is_of_the_values_whatever_the_folder(tmp_path):
    a = DataFiles.from_folder(game_class("garum").data_package, bonus_raised(tmp_path, 9, "a"), "garum")
    b = DataFiles.from_folder(game_class("garum").data_package, bonus_raised(tmp_path, 9, "b"), "garum")
    c = DataFiles.from_folder(game_class("garum").data_package, bonus_raised(tmp_path, 10, "c"), "garum")
    assert a == b and a.digest == b.digest and hash(a) == hash(b)
    assert c.digest != a.digest != package_files("garum").digest


def test_replay_without_its_data_refuses_saying_which_data_it_needs(tmp_path):
    folder = bonus_raised(tmp_path)
    record = play_first(ludus.load_game("garum", players=2, data=folder).new_initial_state(seed=5)).record()
    with pytest.raises(ludus.RecordError, match=f"needs its data.*data {record['data']}"):
        ludus.replay(record)


def test_replay_with_its_data_replays_exactly(tmp_path):
    folder = bonus_raised(tmp_path)
    state = play_first(ludus.load_game("garum", players=2, data=folder).new_initial_state(seed=5))
    again = ludus.replay(state.record(), data=folder)
    assert again.history() == state.history() and again.scores() == state.scores()
    assert again.to_json() == state.to_json()


def test_replay_with_other_data_refuses_naming_both(tmp_path):
    record = play_first(
        ludus.load_game("garum", players=2, data=bonus_raised(tmp_path)).new_initial_state(seed=5)
    ).record()
    other = bonus_raised(tmp_path, 7, "other")
    with pytest.raises(ludus.RecordError, match=f"data {record['data']}, but .*other holds data"):
        ludus.replay(record, data=other)
    printed = play_first(ludus.load_game("garum", players=2).new_initial_state(seed=5)).record()
    with pytest.raises(ludus.RecordError, match="printed components, but"):
        ludus.replay(printed, data=other)


def test_records_without_data_replay_as_before():
    record = play_first(ludus.load_game("celtae", players=2).new_initial_state(seed=2)).record()
    assert "data" not in record
    assert ludus.replay(json.loads(json.dumps(record))).history() == record["actions"]


def test_a_saved_state_resumes_only_with_its_data(tmp_path):
    folder = bonus_raised(tmp_path)
    state = ludus.load_game("garum", players=2, data=folder).new_initial_state(seed=1)
    state.apply_action(state.legal_actions()[0])
    with pytest.raises(ValueError, match="played with data"):
        ludus.load_game("garum", players=2).state_from_json(state.to_json())
    resumed = ludus.load_game("garum", players=2, data=folder).state_from_json(state.to_json())
    assert resumed.history() == state.history()


def test_a_changed_folder_is_read_again_and_two_folders_never_mix(tmp_path):
    """Games cache what they build from data by the values' hash: a folder edited between two games,
    and two folders in one process, each give their own values."""
    a, b = bonus_raised(tmp_path, 11, "a"), bonus_raised(tmp_path, 12, "b")
    for _ in range(2):
        assert ludus.load_game("garum", data=a).board.species_bonus == 11
        assert ludus.load_game("garum", data=b).board.species_bonus == 12
        assert ludus.load_game("garum").board.species_bonus == 2
    edit(a, "troia.json", "bonus_points", lambda v: {**v, "species": 13})
    assert ludus.load_game("garum", data=a).board.species_bonus == 13


def test_the_data_travels_to_other_processes_by_value_not_by_path(tmp_path):
    folder = exported("celtae", tmp_path / "mine")
    edit(folder, "bonus.json", "tile_points", lambda v: 5)
    files = ludus.load_game("celtae", data=folder).data_files
    shutil.rmtree(folder)  # a worker on another machine has no such folder
    copy = pickle.loads(pickle.dumps(files))
    assert copy == files and ludus.load_game("celtae", data=copy).data.bonus_tile_points == 5


@pytest.mark.parametrize(
    "game,name,key,change,says",
    [
        ("garum", "troia.json", "hand_size", lambda v: "four", "'hand_size' must be int"),
        ("garum", "troia.json", "bonus_points", lambda v: {"species": "lots"}, "'bonus_points' must give"),
        ("garum", "baelo_claudia.json", "removed_tiles", lambda v: [1, 1], "'removed_tiles' must list"),
        ("garum", "tiles.json", "vilicus", lambda v: -1, "'vilicus' must be from 0"),
        ("celtae", "bonus.json", "tile_points", lambda v: -2, "'tile_points' must be >= 0"),
        ("celtae", "board.json", "workers", lambda v: {**v, "farmer": "many"}, "workers"),
        (
            "celtae",
            "leaders.json",
            "leaders",
            lambda v: [{**v[0], "name": "Bob"}, *v[1:]],
            "'leaders' must keep",
        ),
    ],
)
def test_a_wrong_value_is_refused_naming_the_file_and_the_key(tmp_path, game, name, key, change, says):
    folder = exported(game, tmp_path / "mine")
    edit(folder, name, key, change)
    with pytest.raises(ludus.DataFileError) as error:
        ludus.load_game(game, data=folder)
    assert str(error.value).startswith(str(folder / name)) and says in str(error.value)


def test_a_file_without_provenance_is_refused(tmp_path):
    folder = exported("garum", tmp_path / "mine")
    raw = json.loads((folder / "tiles.json").read_text())
    del raw["dominus"]["provenance"]
    (folder / "tiles.json").write_text(json.dumps(raw))
    with pytest.raises(ludus.DataFileError, match=r"tiles.json: 'dominus' has provenance None"):
        ludus.load_game("garum", data=folder)


def test_a_folder_holding_none_of_the_games_files_is_refused(tmp_path):
    folder = exported("garum", tmp_path / "garum-only")
    with pytest.raises(ludus.DataFileError, match="holds none of celtae's data files"):
        ludus.load_game("celtae", data=folder)
    with pytest.raises(ludus.DataFileError, match="no such data folder"):
        ludus.load_game("garum", data=tmp_path / "missing")


def test_a_game_without_data_files_refuses_a_folder(tmp_path):
    assert game_data("pig", None) is None
    with pytest.raises(ludus.OptionError, match="pig has no data files"):
        game_data("pig", None, tmp_path)


def test_differences_name_file_and_key_path(tmp_path):
    folder = bonus_raised(tmp_path)
    edit(folder, "tiles.json", "patterns", lambda v: ["XXXa", *v[1:]])
    mine = DataFiles.from_folder(game_class("garum").data_package, folder, "garum")
    assert differences(package_files("garum"), mine) == [
        ("tiles.json", "patterns[0]", "XXXX", "XXXa"),
        ("troia.json", "bonus_points.species", 2, 20),
    ]
    assert differences(package_files("garum"), package_files("garum")) == []


def test_the_folder_ludus_data_names_is_the_default(tmp_path, monkeypatch):
    folder = bonus_raised(tmp_path, 30)
    monkeypatch.setenv(DATA_ENV, str(folder))
    game = ludus.load_game("garum")
    assert game.board.species_bonus == 30 and game.data_tag is not None
    record = play_first(game.new_initial_state(seed=4)).record()
    assert ludus.replay(record).scores() == ludus.replay(record, data=folder).scores()
    assert ludus.load_game("celtae").data_tag is None  # a game whose files the folder lacks: its own
    monkeypatch.delenv(DATA_ENV)
    assert ludus.load_game("garum").board.species_bonus == 2
    with pytest.raises(ludus.RecordError, match="needs its data"):
        ludus.replay(record)
