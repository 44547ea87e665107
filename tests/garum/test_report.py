"""Garum's balance facts add up to the state's own scores and cells, and its sections name each bonus space
with its data file and key, flagging one made obviously strong in a data folder."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import ludus
from ludus.arena.balance import Study, configurations, play
from ludus.arena.balance_page import write_page
from ludus.arena.simulate import simulate
from ludus.cli import main
from ludus.games.garum.data import DATA
from ludus.games.garum.report import garum_facts, garum_sections, space_name, space_of

from .helpers import play_random


@pytest.mark.parametrize(
    "config",
    [
        dict(players=4, board="troia"),
        dict(players=3, board="baelo_claudia"),
        dict(players=2, board="troia", species_bonus="own"),
        dict(players=2, board="baelo_claudia"),
    ],
)
def test_the_facts_of_random_finished_games_add_up_to_the_states_scores_and_cells(config):
    for seed in range(2):
        state = play_random(ludus.load_game("garum", **config).new_initial_state(seed=seed), seed=seed)
        facts = garum_facts(state)
        assert json.loads(json.dumps(facts)) == facts
        board, seating = state.game.board, state.game.seating
        filled = {
            cell: (colour, fish)
            for colour, _tile, cetarium, slot, layout in state.placed
            for cell, fish in zip(board.slot_cells[cetarium, slot], layout, strict=True)
        }
        spaces = facts["bonus_spaces"]
        assert sorted((x["cetarium"], x["row"], x["col"]) for x in spaces) == sorted(
            space_of(board, cell) for cell in board.bonus_cells
        )  # every bonus space listed once
        for x, cell in zip(spaces, board.bonus_cells, strict=True):
            colour, fish = filled[cell]
            assert x["colour"] == "BGYR"[colour] and x["seat"] == seating.owner[colour]
            assert x["scored"] == (x["points"] > 0) and (x["kind"] in ("*", fish) or not x["scored"])
        scores = state.scores()
        for s, seat in enumerate(facts["seats"]):
            mine = seating.colours_of(s)
            assert seat["colours"] == "".join("BGYR"[c] for c in mine)
            parts = seat["breakdown"]
            assert parts["total"] == parts["bonus"] + parts["vilicus"] + parts["dominus"] == scores[s]
            assert parts["bonus"] == sum(x["points"] for x in spaces if x["seat"] == s)
            assert seat["bonus_spaces"] == [
                {k: x[k] for k in ("cetarium", "kind", "scored")} for x in spaces if x["seat"] == s
            ]
            assert seat["lines"] == seat["vilicus_placed"] + seat["dominus_placed"] >= seat["negative_lines"]


def test_the_sections_name_each_bonus_space_with_its_data_file_and_key(tmp_path):
    config = dict(ludus.load_game("garum", players=3, board="baelo_claudia").config)
    results = simulate("garum", config, ["random"], 3, jobs=1, seed=2, facts=garum_facts)
    lines = garum_sections(config, results, tmp_path, ["random"], 3, 1, 2)
    text = "\n".join(lines)
    raw = json.loads((DATA / "baelo_claudia.json").read_text())
    for i, space in enumerate(raw["bonuses"]["value"]):
        row = next(x for x in lines if f"baelo_claudia.json, `bonuses[{i}]`" in x)
        name = space_name(space["cetarium"], space["kind"])
        assert row.startswith(f"| {name} | row {space['row']}, col {space['col']} | 3 |")
    assert "## Bonus spaces" in text and "## Colours" in text and "## Where points come from" in text
    assert "| B (blue, tuna) | 3 |" in text  # seat 1 plays blue by default: 3 games
    for link in [x.split("](")[1].rstrip(")") for x in text.splitlines() if x.startswith("![")]:
        assert (tmp_path / link).is_file(), link


def test_a_bonus_space_made_obviously_strong_in_a_data_folder_is_flagged_with_its_file_and_key(tmp_path):
    folder = tmp_path / "mine"
    assert CliRunner().invoke(main, ["data", "export", "garum", str(folder)]).exit_code == 0
    path = folder / "troia.json"
    raw = json.loads(path.read_text())
    jokers = [i for i, x in enumerate(raw["bonuses"]["value"]) if x["kind"] == "*"]
    for i in jokers[1:]:
        raw["bonuses"]["value"][i]["kind"] = "B"  # one joker left, worth far more than any line
    raw["bonus_points"]["value"]["joker"] = 60
    path.write_text(json.dumps(raw, indent=1))
    files = ludus.load_game("garum", data=folder).data_files
    four = [c for c in configurations("garum", files) if c["players"] == 4 and c["board"] == "troia"][:1]
    study = Study(
        "garum",
        bot="random",
        games=16,
        search_games=0,
        results=tmp_path / "results",
        data=files,
        configs=four,
    )
    play([study], jobs=1, rounds=(1.0,))
    text = write_page([study], tmp_path / "docs", "ludus balance garum --data mine").read_text()
    top = text.split("## Garum")[0]
    cetarium = raw["bonuses"]["value"][jokers[0]]["cetarium"]
    line = next(x for x in top.splitlines() if f"**cetarium {cetarium} joker** (bonus space)" in x)
    assert line.startswith("- ⚑") and f"troia.json, `bonuses[{jokers[0]}]`" in line
    rate, reference = (float(x.split("%")[0].split()[-1]) for x in line.split("against"))
    assert rate > 80 and reference == 25.0  # strong, against the fair share of four players
