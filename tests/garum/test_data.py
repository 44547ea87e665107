"""Garum's data files: every value has provenance; malformed files fail naming file and problem."""

from __future__ import annotations

import json
import random
import shutil

import pytest

import ludus
from ludus.engine.data import PROVENANCES, provenance
from ludus.games.garum import data


@pytest.mark.parametrize("name", ["troia", "baelo_claudia", "tiles"])
def test_every_value_carries_its_provenance(name):
    tags = provenance(data.DATA / f"{name}.json")
    assert tags and set(tags.values()) <= set(PROVENANCES)


def test_reconstructed_values_are_labelled_so():
    assert provenance(data.DATA / "troia.json")["grid"] == "reconstructed"
    assert provenance(data.DATA / "baelo_claudia.json")["chart"] == "reconstructed"
    assert provenance(data.DATA / "troia.json")["chart"] == "rulebook"


def test_every_species_totals_64_fish_on_troia():
    tiles = data.load_tiles()
    counts = [0] * 4
    for colour in range(4):
        for t in range(1, 17):
            for fish in tiles.tile_fish(colour, t):
                counts[fish] += 1
    assert counts == [64] * 4


def test_troia_bonuses_three_per_species_and_a_joker_per_row_and_column():
    board = data.load_board("troia")
    kinds = list(board.bonus_cells.values())
    assert sorted(kinds) == [0] * 3 + [1] * 3 + [2] * 3 + [3] * 3 + [4] * 4
    jokers = [(cell // 64, cell % 16 // 4) for cell, k in board.bonus_cells.items() if k == data.JOKER]
    assert sorted(r for r, _ in jokers) == [0, 1, 2, 3] and sorted(c for _, c in jokers) == [0, 1, 2, 3]


@pytest.mark.parametrize(
    "edit,match",
    [
        (lambda d: d.pop("grid"), "missing value 'grid'"),
        (lambda d: d["grid"].update(provenance="guess"), "provenance 'guess'"),
        (lambda d: d["grid"]["value"][0].__setitem__(0, 14), "numbers its cetaria 1..N|must number"),
        (lambda d: d["chart"]["value"].pop(2), "consecutive specimen counts"),
        (lambda d: d["bonuses"]["value"].append({"cetarium": 99, "row": 0, "col": 0, "kind": "*"}), "bonus"),
        (lambda d: d.__setitem__("hand_size", 4), "'hand_size' must be an object"),
    ],
)
def test_malformed_board_file_fails_naming_file_and_problem(tmp_path, monkeypatch, edit, match):
    for f in data.DATA.glob("*.json"):
        shutil.copy(f, tmp_path / f.name)
    raw = json.loads((tmp_path / "troia.json").read_text())
    edit(raw)
    (tmp_path / "troia.json").write_text(json.dumps(raw))
    monkeypatch.setattr(data, "DATA", tmp_path)
    data.load_board.cache_clear()
    try:
        with pytest.raises(ludus.DataFileError, match=match) as info:
            data.load_board("troia")
        assert "troia.json" in str(info.value)
    finally:
        data.load_board.cache_clear()


def test_not_json_data_file_fails(tmp_path, monkeypatch):
    (tmp_path / "tiles.json").write_text("{oops")
    monkeypatch.setattr(data, "DATA", tmp_path)
    data.load_tiles.cache_clear()
    try:
        with pytest.raises(ludus.DataFileError, match="tiles.json: not valid JSON"):
            data.load_tiles()
    finally:
        data.load_tiles.cache_clear()


@pytest.mark.parametrize("name", data.BOARDS)
def test_board_tables_read_as_the_chart_and_the_lines(name):
    """The tables made once per board (points by count, line readers, line names) say what reading
    the chart and the cells each time says."""
    board = data.load_board(name)
    for specimens in range(-1, board.size + 4):
        for dominus in (False, True):
            row = board.chart[0]
            for entry in board.chart:
                if specimens >= entry.specimens:
                    row = entry
            assert board.points(specimens, dominus) == (row.dominus if dominus else row.vilicus)
    rng = random.Random(1)
    cells = [rng.randrange(-2, 4) for _ in range(board.size * board.size)]
    for line, line_cells in enumerate(board.line_cells):
        assert board.line_values[line](cells) == tuple(cells[c] for c in line_cells)
        assert board.line_name(line) == (f"h{line + 1}" if line < board.size else f"v{line - board.size + 1}")
