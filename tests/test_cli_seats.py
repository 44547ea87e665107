"""``ludus play`` counts seats from 1, as people do (the browser and the errors too): the prompt,
the moves it echoes, a failing bot's error and the scores; only the API and the notation count from 0."""

from __future__ import annotations

import re

from click.testing import CliRunner

from ludus.cli import main


def _play(seats: str, lines: str):
    return CliRunner().invoke(main, ["play", "celtae", "--seats", seats, "--seed", "4"], input=lines)


def test_the_prompt_names_the_first_seat_seat_1():
    result = _play("human,random", "quit\n")
    assert result.exit_code == 0, result.output
    assert "Seat 1, your move (" in result.output
    assert "seat 1> " in result.output
    assert "Seat 0" not in result.output and "seat 0" not in result.output


def test_a_second_human_seat_is_prompted_as_seat_2():
    result = _play("random,human", "quit\n")
    assert result.exit_code == 0, result.output
    assert "Seat 2, your move (" in result.output
    assert "Seats: 1 random, 2 human" in result.output


def test_a_whole_game_of_bots_reports_scores_from_seat_1():
    result = CliRunner().invoke(main, ["play", "celtae", "--seats", "random,random", "--seed", "4"])
    assert result.exit_code == 0, result.output
    assert re.search(r"^Scores: seat 1 -?\d+, seat 2 -?\d+$", result.output, re.M)
    assert re.search(r"^seat 2 \(random\): ", result.output, re.M)  # a bot's move, echoed by its seat
    assert "seat 0" not in result.output


def test_replay_views_a_seat_counted_from_1(tmp_path):
    record = tmp_path / "game.json"
    played = CliRunner().invoke(
        main, ["play", "celtae", "--seats", "random,random", "--seed", "4", "--save", str(record)]
    )
    assert played.exit_code == 0, played.output
    first = CliRunner().invoke(main, ["replay", str(record), "--to", "2", "--seat", "1", "--no-color"])
    public = CliRunner().invoke(main, ["replay", str(record), "--to", "2", "--no-color"])
    assert first.exit_code == 0, first.output
    assert first.output != public.output  # seat 1's own view: its hand shown
    refused = CliRunner().invoke(main, ["replay", str(record), "--end", "--seat", "0"])
    assert (
        refused.exit_code != 0 and "--seat must be 1..2 (seats are counted from 1), got 0" in refused.output
    )
