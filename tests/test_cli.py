"""The ``ludus`` command: play (bots and a human at the prompt), replay, render, simulate, bad input."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

import ludus
from ludus.arena import lineup, simulate, summarize
from ludus.cli import main

BOTS_ONLY = ["play", "garum", "--seats", "random,random,random,random", "--seed", "3"]
HUMAN_FIRST = ["play", "garum", "--seats", "human,random,random,random", "--seed", "5"]


def run(args, input=None):
    return CliRunner().invoke(main, args, input=input, prog_name="ludus")


def error_lines(output: str) -> list[str]:
    """Error lines, without any prompt the terminal showed before them."""
    return [line[line.index("error:") :] for line in output.splitlines() if "error:" in line]


@pytest.fixture
def record_file(tmp_path):
    path = tmp_path / "game.json"
    result = run(BOTS_ONLY + ["--save", str(path)])
    assert result.exit_code == 0, result.output
    return path


def seats_of_actions(record):
    """The seat that took each action of a record."""
    state = ludus.load_game(record["game"], **record["config"]).new_initial_state(seed=record["seed"])
    seats = []
    for text in record["actions"]:
        seats.append(state.current_player())
        state.apply_action(text)
    return seats


# -- play ---------------------------------------------------------------------------------


def test_play_bots_only_plays_a_whole_game_and_saves_a_record_that_replays(record_file):
    result = run(BOTS_ONLY)
    assert result.exit_code == 0, result.output
    assert "Winner" in result.output
    record = json.loads(record_file.read_text())
    state = ludus.replay(record)
    assert state.is_terminal()
    scores = ", ".join(f"seat {s + 1} {v}" for s, v in enumerate(state.scores()))
    assert f"Scores: {scores}" in result.output
    assert result.output.count("seat 2 (random):") == seats_of_actions(record).count(1)


def test_play_is_reproducible_from_its_seed(record_file, tmp_path):
    again = tmp_path / "again.json"
    assert run(BOTS_ONLY + ["--save", str(again)]).exit_code == 0
    assert json.loads(again.read_text()) == json.loads(record_file.read_text())


def test_play_generic_options_reach_the_game(tmp_path):
    path = tmp_path / "g.json"
    result = run(
        [
            "play",
            "garum",
            "--players",
            "3",
            "--board",
            "baelo_claudia",
            "--no-rotation",
            "-o",
            "variant=haruspex",
            "--seats",
            "random,random,random",
            "--seed",
            "1",
            "--save",
            str(path),
        ]
    )
    assert result.exit_code == 0, result.output
    config = json.loads(path.read_text())["config"]
    assert (config["players"], config["board"], config["rotation"], config["variant"]) == (
        3,
        "baelo_claudia",
        False,
        "haruspex",
    )


def test_every_option_a_game_declares_is_a_flag_of_every_game_command():
    """The flags come from the games' Option declarations, not from a list in the CLI."""
    from ludus.engine.registry import game_class

    scalar = {
        opt.name
        for name in ludus.game_names()
        for opt in game_class(name).options
        if all(isinstance(c, (bool, int, str)) for c in opt.choices if c is not None)
    }
    for command in ("play", "simulate", "tournament", "report"):
        text = run([command, "--help"]).output
        for name in scalar:
            assert f"--{name.replace('_', '-')}" in text, (command, name)


def test_a_flag_of_another_games_option_reaches_its_game(tmp_path):
    path = tmp_path / "solo.json"
    result = run(
        [
            "play",
            "celtae",
            "--players",
            "1",
            "--difficulty",
            "hard",
            "--token-moves-marker",
            "--seats",
            "random",
            "--seed",
            "1",
            "--save",
            str(path),
        ]
    )
    assert result.exit_code == 0, result.output
    config = json.loads(path.read_text())["config"]
    assert (config["difficulty"], config["token_moves_marker"]) == ("hard", True)


def test_a_flag_the_game_does_not_declare_is_refused_with_the_valid_options():
    result = run(["play", "garum", "--difficulty", "hard"])
    assert result.exit_code == 2
    assert error_lines(result.output) == [
        "error: garum has no option 'difficulty'; valid options: players, board, variant, rotation, "
        "species_bonus, colours, two_player_workers"
    ]


def test_a_game_option_named_like_a_command_flag_gets_no_flag(monkeypatch):
    """``--seed`` stays the command's own; ``--option seed=...`` would still reach the game."""
    import click

    from ludus.cli import options

    monkeypatch.setattr(
        options,
        "game_flags",
        lambda: (options._Flag("seed", "int", "clash"), options._Flag("rounds", "int", "rounds")),
    )

    @options.with_game_options
    @click.command()
    @click.option("--seed", type=int)
    def command(flags, extra, seed):
        click.echo(f"{flags} {extra} {seed}")

    result = CliRunner().invoke(command, ["--seed", "3", "--rounds", "2", "-o", "seed=4"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "{'rounds': 2} ('seed=4',) 3"


def _human_session(tmp_path, name, lines):
    path = tmp_path / name
    result = run(HUMAN_FIRST, input="\n".join([*lines, f"save {path}", "quit"]) + "\n")
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result, json.loads(path.read_text())


def test_human_moves_by_number_then_save_and_quit(tmp_path):
    result, record = _human_session(tmp_path, "h.json", ["1", "1"])
    seats = seats_of_actions(record)
    assert seats.count(0) == 2  # the tile, then the first worker choice
    first = seats.index(0)
    before = ludus.replay(record, upto=first)
    assert record["actions"][first] == str(before.legal_actions()[0])
    assert ludus.replay(record).current_player() == 0  # bots played on until the human's next turn
    assert "game left after" in result.output
    replayed = run(["replay", str(tmp_path / "h.json"), "--end"])
    assert replayed.exit_code == 0, replayed.output


def test_human_may_give_notation_instead_of_a_number(tmp_path):
    _, by_number = _human_session(tmp_path, "n.json", ["3", "1"])
    first = seats_of_actions(by_number).index(0)
    text = by_number["actions"][first]
    _, by_text = _human_session(tmp_path, "t.json", [text.lower(), "1"])
    assert by_text == by_number


def test_undo_takes_back_the_own_decision_within_the_turn(tmp_path):
    _, plain = _human_session(tmp_path, "plain.json", ["1", "1"])
    result, undone = _human_session(tmp_path, "undo.json", ["2", "undo", "1", "1"])
    assert undone == plain
    assert "undone:" in result.output


def test_undo_at_the_start_of_a_turn_is_refused_and_changes_nothing(tmp_path):
    _, plain = _human_session(tmp_path, "plain.json", ["1", "1"])
    result, refused = _human_session(tmp_path, "refused.json", ["undo", "1", "1"])
    assert refused == plain
    assert error_lines(result.output) == ["error: nothing to undo in this turn"]


def test_undo_never_crosses_the_end_of_the_turn(tmp_path):
    _, plain = _human_session(tmp_path, "plain.json", ["1", "1"])
    result, after = _human_session(tmp_path, "after.json", ["1", "1", "undo"])
    assert after == plain
    assert len(error_lines(result.output)) == 1


def test_illegal_and_garbage_lines_give_one_line_errors_and_change_nothing(tmp_path):
    _, plain = _human_session(tmp_path, "plain.json", ["1", "1"])
    bad = ["hello there", "999", "0", "pass", "D h99", "c99.1 BBBB", "save"]
    result, noisy = _human_session(tmp_path, "noisy.json", [*bad, "help", "1", "1"])
    assert noisy == plain
    errors = error_lines(result.output)
    assert len(errors) == len(bad)
    assert "undo" in result.output  # the help text


def test_end_of_input_leaves_the_game_quietly():
    result = run(HUMAN_FIRST, input="1\n")
    assert result.exit_code == 0
    assert "game left after" in result.output


@pytest.mark.parametrize(
    "args, says",
    [
        (["play", "garum", "-o", "colour=pink"], "has no option 'colour'"),
        (["play", "garum", "-o", "players=5"], "players=5 is not valid"),
        (["play", "garum", "-o", "players"], "KEY=VALUE"),
        (["play", "garum", "--variant", "tsar"], "variant='tsar' is not valid"),
        (["play", "chess"], "unknown game 'chess'"),
        (["play", "garum", "--seats", "human,robot,random,random"], "unknown seat 'robot'"),
        (
            ["play", "garum", "--players", "4", "--seats", "human,random"],
            "2 seats given but the game has 4 players",
        ),
        (
            ["play", "garum", "--seats", "human,ismcts:iterations=ten"],
            "iterations=ten is not valid; iterations takes",
        ),
        (["play", "garum", "--seats", "human,ismcts:depth=3"], "bot 'ismcts' has no parameter 'depth'"),
        (["play", "garum", "--seats", "human,,greedy"], "--seats has an empty seat"),
        (["play"], "name a game to play"),
        (["play", "--resume", "missing.json"], "cannot read missing.json"),
        (
            ["play", "garum", "--save", "no/such/folder/game.json"],
            "--save no/such/folder/game.json cannot be written",
        ),
        (["play", "garum", "--save", "."], "is a directory"),
        (["play", "garum", "--no-such-flag"], "No such option"),
    ],
)
def test_bad_play_arguments_exit_2_with_one_error_line(args, says):
    result = run(args)
    assert result.exit_code == 2
    assert result.output.startswith("error: ")
    assert says in result.output
    assert len(result.output.strip().splitlines()) == 1


# -- replay and render ----------------------------------------------------------------------


def test_replay_steps_forward_back_and_jumps(record_file):
    result = run(["replay", str(record_file)], input="\n\nb\n7\nwhat\nq\n")
    assert result.exit_code == 0, result.output
    steps = [line.split(";")[0].split("> ")[-1] for line in result.output.splitlines() if "step " in line]
    total = len(json.loads(record_file.read_text())["actions"])
    assert steps == [f"step {n}/{total}" for n in (0, 1, 2, 1, 7)]
    assert len(error_lines(result.output)) == 1


def test_replay_to_a_step_and_to_the_end(record_file):
    record = json.loads(record_file.read_text())
    result = run(["replay", str(record_file), "--to", "3"])
    assert result.exit_code == 0
    assert result.output.startswith(f"step 3/{len(record['actions'])}; last action: {record['actions'][2]}")
    end = run(["replay", str(record_file), "--end", "--seat", "1"])
    assert end.exit_code == 0
    assert "Winner" in end.output


def test_render_writes_svg_and_text(record_file, tmp_path):
    out = tmp_path / "board.svg"
    result = run(["render", str(record_file), "--svg", str(out), "--step", "8", "--text"])
    assert result.exit_code == 0, result.output
    root = ET.fromstring(out.read_text())
    fish = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "fish"]
    placed = ludus.replay(json.loads(record_file.read_text()), upto=8).observation(None)["placed"]
    assert len(fish) == 4 * len(placed)
    assert "cetarium" in result.output


@pytest.mark.parametrize(
    "content, says",
    [
        (None, "cannot read"),
        (b"\xff\xfe\x00garbage", "not a text file"),
        ("{not json", "is not JSON"),
        ("[1, 2]", "must be a JSON object"),
        ('{"game": "garum", "config": {}, "seed": 1}', "lacks actions"),
        ('{"game": "garum", "config": {"players": 9}, "seed": 1, "actions": []}', "cannot be loaded"),
        (
            '{"game": "garum", "config": {}, "seed": 1, "actions": ["pass"]}',
            "action 1 ('pass') cannot be replayed",
        ),
        ('{"game": "garum", "config": {}, "seed": 1, "actions": ["fish"]}', "is not Garum notation"),
    ],
)
@pytest.mark.parametrize("command", [["replay"], ["render", "--text"]])
def test_bad_record_files_exit_2_with_one_error_line(tmp_path, content, says, command):
    path = tmp_path / "bad.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    result = run([command[0], str(path), *command[1:]])
    assert result.exit_code == 2
    assert result.output.startswith("error: ") and says in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_render_refuses_an_unwritable_svg_before_reading_the_record(tmp_path):
    result = run(["render", str(tmp_path / "missing.json"), "--svg", str(tmp_path / "no" / "board.svg")])
    assert result.exit_code == 2
    assert (
        result.output
        == f"error: --svg {tmp_path / 'no' / 'board.svg'} cannot be written: No such file or directory\n"
    )


def test_render_refuses_a_step_beyond_the_record(record_file):
    result = run(["render", str(record_file), "--step", "100000"])
    assert result.exit_code == 2 and result.output.startswith("error: --step must be")


# -- simulate -------------------------------------------------------------------------------


def test_simulate_in_two_processes_writes_json_lines_and_a_table(tmp_path):
    out = tmp_path / "games.jsonl"
    result = run(
        [
            "simulate",
            "garum",
            "--games",
            "4",
            "--bots",
            "random",
            "--jobs",
            "2",
            "--seed",
            "1",
            "--players",
            "2",
            "--json",
            str(out),
            "--no-progress",
        ]
    )
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["index"] for r in rows) == [0, 1, 2, 3]  # appended as each game ends
    assert all(r["game"] == "garum" and len(r["scores"]) == 2 for r in rows)
    assert "Per seat" in result.output and "Per bot" in result.output and "win rate" in result.output


def test_simulate_results_do_not_depend_on_the_number_of_jobs():
    one = simulate("garum", {"players": 3}, ["random"], games=3, jobs=1, seed=9, progress=False)
    two = simulate("garum", {"players": 3}, ["random"], games=3, jobs=2, seed=9, progress=False)
    assert one == two
    assert len({r["seed"] for r in one}) == 3


def test_every_bot_plays_every_seat_over_rotated_games():
    bots = ["random", "greedy"]
    for players in (2, 3, 4):
        seen = {(seat, name) for i in range(len(bots)) for seat, name in enumerate(lineup(bots, players, i))}
        assert seen == {(seat, name) for seat in range(players) for name in bots}


def test_summary_counts_shared_wins_as_fractions():
    results = [
        {"seats": ["a", "b"], "scores": [3, 3], "returns": [0.5, 0.5]},
        {"seats": ["b", "a"], "scores": [5, 1], "returns": [1.0, 0.0]},
    ]
    summary = summarize(results)
    by_bot = {row["bot"]: row for row in summary["bots"]}
    assert by_bot["a"]["win_rate"] == 0.25 and by_bot["b"]["win_rate"] == 0.75
    assert (by_bot["b"]["min"], by_bot["b"]["max"], by_bot["b"]["mean"]) == (3, 5, 4)
    assert summary["seats"][0]["mean"] == 4 and summary["seats"][1]["stdev"] == pytest.approx(
        1.4142, abs=1e-3
    )


def test_simulate_takes_bot_specs_with_parameters():
    rows = simulate(
        "garum", {"players": 2}, ["ismcts:iterations=5", "random"], games=2, seed=3, progress=False
    )
    assert [r["seats"] for r in rows] == [
        ["ismcts:iterations=5", "random"],
        ["random", "ismcts:iterations=5"],
    ]
    result = run(["simulate", "garum", "--games", "1", "--bots", "greedy:noise=0.5,random", "--no-progress"])
    assert result.exit_code == 0 and "greedy:noise=0.5" in result.output


def test_simulate_refuses_unknown_bots_bad_parameters_and_options():
    result = run(["simulate", "garum", "--bots", "random,oracle"])
    assert result.exit_code == 2 and "unknown bot 'oracle'" in result.output
    result = run(["simulate", "garum", "--bots", "ismcts:depth=3"])
    assert (
        result.exit_code == 2
        and "bot 'ismcts' has no parameter 'depth'; its parameters: seed" in result.output
    )
    result = run(["simulate", "garum", "-o", "board=atlantis"])
    assert result.exit_code == 2 and "board=atlantis is not valid" in result.output


TOURNAMENT = ["tournament", "garum", "--players", "2", "--bots", "random,greedy", "--games", "2"]


def test_tournament_command_writes_results_ratings_and_plot(tmp_path):
    out = tmp_path / "tour"
    result = run([*TOURNAMENT, "--out", str(out), "--bootstrap", "10", "--anchor", "random"])
    assert result.exit_code == 0, result.output
    assert {p.name for p in out.iterdir()} >= {"results.jsonl", "ratings.json", "ratings.png"}
    games = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert sorted(g["seats"] for g in games) == [["greedy", "random"], ["random", "greedy"]]
    assert games[0]["seed"] == games[1]["seed"]  # one deal, played from both seats
    assert "greedy" in result.output and "random" in result.output
    table = {r["bot"]: r for r in json.loads((out / "ratings.json").read_text())}  # --anchor: random rates 0
    assert (table["random"]["rating"], table["random"]["low"], table["random"]["high"]) == (0, 0, 0)
    assert table["greedy"]["rating"] > 0 and "relative to random" in result.output


def test_tournament_refuses_an_anchor_that_is_not_playing(tmp_path):
    result = run([*TOURNAMENT, "--out", str(tmp_path / "none"), "--anchor", "greedy:noise=5"])
    assert result.exit_code == 2
    assert "--anchor 'greedy:noise=5' is not one of --bots: random, greedy" in result.output
    assert not (tmp_path / "none").exists()


def test_report_command_writes_markdown_and_plots(tmp_path):
    out = tmp_path / "rep"
    result = run(["report", "garum", "--players", "2", "--games", "2", "--no-compare", "--out", str(out)])
    assert result.exit_code == 0, result.output
    text = (out / "report.md").read_text()
    assert text.startswith("# garum balance report") and (out / "win_rate_by_seat.png").exists()


@pytest.mark.parametrize(
    "args,message",
    [
        (["report", "garum", "--bots", "oracle"], "unknown bot 'oracle'"),
        (["tournament", "garum", "--bots", "random,oracle", "--games", "1"], "oracle"),
        (["tournament", "garum", "--players", "9", "--bots", "random"], "players=9 is not valid"),
    ],
)
def test_arena_commands_refuse_bad_input_in_one_line(args, message, tmp_path):
    result = run(args + ["--out", str(tmp_path / "x")])
    assert result.exit_code == 2 and len(error_lines(result.output)) == 1
    assert message in result.output


def test_solo_challenge_command_prints_each_target_and_writes_json(tmp_path):
    out = tmp_path / "solo.json"
    result = run(
        [
            "solo-challenge",
            "--bot",
            "random",
            "--games",
            "2",
            "--difficulty",
            "easy",
            "--difficulty",
            "hard",
            "--json",
            str(out),
        ]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert set(data["difficulties"]) == {"easy", "hard"} and len(data["results"]) == 2  # --games in all
    easy = data["difficulties"]["easy"]
    scores = [r["score"] for r in data["results"] if r["difficulty"] == "easy"]
    assert easy["wins"] == sum(s >= easy["target"] for s in scores) and "easy" in result.output


def test_solo_challenge_refuses_a_bad_bot_in_one_line():
    result = run(["solo-challenge", "--bot", "oracle", "--games", "1"])
    assert result.exit_code == 2 and error_lines(result.output) == [
        "error: unknown bot 'oracle' in 'oracle'; known bots: random, greedy, ismcts; "
        "levels: beginner, casual, club, expert"
    ]


# -- nothing played is lost ------------------------------------------------------------------


def test_ludus_alone_prints_the_usage_and_succeeds():
    result = run([])
    assert result.exit_code == 0
    assert result.output.startswith("Usage: ludus") and "error" not in result.output
    assert all(name in result.output for name in ("play", "simulate", "serve"))


def test_quit_keeps_the_record_without_a_save_command(tmp_path):
    path = tmp_path / "kept.json"
    result = run(HUMAN_FIRST + ["--save", str(path)], input="1\n1\nquit\n")
    assert result.exit_code == 0, result.output
    record = json.loads(path.read_text())
    assert seats_of_actions(record).count(0) == 2
    assert f"the record is in {path}" in result.output and "--resume" in result.output


def test_end_of_input_keeps_the_record(tmp_path):
    path = tmp_path / "eof.json"
    result = run(HUMAN_FIRST + ["--save", str(path)], input="1\n")
    assert result.exit_code == 0
    assert seats_of_actions(json.loads(path.read_text())).count(0) == 1


def test_the_record_is_written_after_every_decision(tmp_path, monkeypatch):
    """Each decision is on disk before the next one is asked for."""
    path = tmp_path / "live.json"
    seen = []
    real = ludus.cli.HumanTurns.decide

    def decide(self, seat):
        seen.append(len(json.loads(path.read_text())["actions"]))
        assert seen[-1] == len(self.state.history())
        return real(self, seat)

    monkeypatch.setattr(ludus.cli.HumanTurns, "decide", decide)
    result = run(HUMAN_FIRST + ["--save", str(path)], input="1\n1\n1\nquit\n")
    assert result.exit_code == 0, result.output
    assert len(seen) == 4 and seen == sorted(seen) and seen[0] > 0


def test_ctrl_c_while_a_bot_thinks_keeps_the_record(tmp_path, monkeypatch):
    from ludus.bots.random_bot import RandomBot

    path = tmp_path / "interrupted.json"
    calls = []
    real = RandomBot.step

    def step(self, state):
        calls.append(1)
        if len(calls) == 5:
            raise KeyboardInterrupt
        return real(self, state)

    monkeypatch.setattr(RandomBot, "step", step)
    result = run(BOTS_ONLY + ["--save", str(path)])
    assert result.exit_code == 130
    assert len(json.loads(path.read_text())["actions"]) >= 4
    assert "interrupted after" in result.output and "Traceback" not in result.output


def test_a_failing_bot_ends_in_one_error_line_and_keeps_the_record(tmp_path, monkeypatch):
    from ludus.bots.random_bot import RandomBot

    path = tmp_path / "failed.json"
    calls = []
    real = RandomBot.step

    def step(self, state):
        calls.append(1)
        return "c99.9 RRRR" if len(calls) == 3 else real(self, state)

    monkeypatch.setattr(RandomBot, "step", step)
    result = run(["play", "garum", "--seats", "random,random", "--seed", "2", "--save", str(path)])
    assert result.exit_code == 2
    assert error_lines(result.output)[-1].startswith("error: bot random in seat 1 chose an illegal action")
    assert f"the record is in {path}" in result.output
    assert len(json.loads(path.read_text())["actions"]) == 2


def test_a_save_that_fails_mid_game_ends_in_one_error_line(tmp_path, monkeypatch):
    path = tmp_path / "full.json"
    real = ludus.cli.files.write_record_now
    writes = []

    def write(state, target):
        writes.append(1)
        if len(writes) > 3:
            raise OSError(28, "No space left on device")
        real(state, target)

    monkeypatch.setattr(ludus.cli.files, "write_record_now", write)
    result = run(BOTS_ONLY + ["--save", str(path)])
    assert result.exit_code == 2
    assert error_lines(result.output) == [f"error: cannot write {path}: No space left on device"]
    assert len(json.loads(path.read_text())["actions"]) == 2  # the last write that succeeded


def test_an_unwritable_save_is_refused_before_the_first_move(tmp_path):
    result = run(HUMAN_FIRST + ["--save", str(tmp_path / "missing" / "game.json")], input="1\n")
    assert (
        result.exit_code == 2 and result.output.startswith("error: --save") and "Seats:" not in result.output
    )
    assert not (tmp_path / "missing").exists()


def test_resume_goes_on_from_the_saved_record(tmp_path):
    path = tmp_path / "resume.json"
    assert run(HUMAN_FIRST + ["--save", str(path)], input="1\nquit\n").exit_code == 0
    first = json.loads(path.read_text())
    result = run(["play", "--resume", str(path), "--seats", "human,random,random,random"], input="1\nquit\n")
    assert result.exit_code == 0, result.output
    again = json.loads(path.read_text())
    assert again["actions"][: len(first["actions"])] == first["actions"]
    assert seats_of_actions(again).count(0) == 2


def test_resume_refuses_a_finished_game_and_extra_options(record_file):
    result = run(["play", "--resume", str(record_file)])
    assert result.exit_code == 2 and "is already over" in result.output
    result = run(["play", "garum", "--resume", str(record_file)])
    assert result.exit_code == 2 and "--resume takes the game" in result.output


def test_undo_uses_the_engines_undo_barrier(tmp_path, monkeypatch):
    """With the barrier at the current history, the terminal refuses the undo it would allow."""
    from ludus.games.garum.state import GarumState

    monkeypatch.setattr(GarumState, "undo_barrier", lambda self: len(self.history()))
    result, _ = _human_session(tmp_path, "barrier.json", ["1", "undo", "1"])
    assert "error: nothing to undo in this turn" in error_lines(result.output)


def test_undo_of_a_celtae_refresh_is_refused_at_the_terminal(tmp_path):
    """Issue 11: a refresh draws workers from the bag; the terminal must not take it back."""
    import random

    state = ludus.load_game("celtae", players=2).new_initial_state(seed=3)
    rng = random.Random(3)
    while not (state.current_player() == 0 and "refresh" in [str(a) for a in state.legal_actions()]):
        state.apply_action(rng.choice(state.legal_actions()))
    path = tmp_path / "refresh.json"
    path.write_text(json.dumps(state.record()))
    result = run(["play", "--resume", str(path), "--seats", "human,random"], input="refresh\nundo\nquit\n")
    assert "error: nothing to undo in this turn" in error_lines(result.output), result.output
    assert json.loads(path.read_text())["actions"][len(state.history())] == "refresh"


# -- one syntax, sensible defaults -----------------------------------------------------------


def test_seats_set_the_number_of_players(tmp_path):
    path = tmp_path / "two.json"
    result = run(["play", "garum", "--seats", "random,greedy:noise=0.1", "--seed", "1", "--save", str(path)])
    assert result.exit_code == 0, result.output
    assert json.loads(path.read_text())["config"]["players"] == 2


def test_a_single_human_seat_plays_celtae_solo():
    result = run(["play", "celtae", "--seats", "human"], input="quit\n")
    assert result.exit_code == 0, result.output
    assert "players=1" in result.output.splitlines()[0]


def test_every_arena_command_takes_bot_specs_with_parameters(tmp_path):
    report = run(
        [
            "report",
            "garum",
            "--players",
            "2",
            "--games",
            "1",
            "--no-compare",
            "--bots",
            "greedy:noise=0.2",
            "--out",
            str(tmp_path / "rep"),
        ]
    )
    assert report.exit_code == 0, report.output
    assert "greedy:noise=0.2" in (tmp_path / "rep" / "report.md").read_text()
    celtae = run(
        [
            "report",
            "celtae",
            "--players",
            "2",
            "--games",
            "1",
            "--no-compare",
            "--bots",
            "greedy:noise=0.2",
            "--out",
            str(tmp_path / "rep-celtae"),
        ]
    )
    assert celtae.exit_code == 0, celtae.output
    tour = run(
        [
            "tournament",
            "garum",
            "--players",
            "2",
            "--bots",
            "random,greedy:noise=0.5",
            "--games",
            "1",
            "--bootstrap",
            "2",
            "--out",
            str(tmp_path / "tour"),
        ]
    )
    assert tour.exit_code == 0, tour.output


def test_simulate_json_lines_are_records_that_replay(tmp_path):
    out = tmp_path / "games.jsonl"
    result = run(
        [
            "simulate",
            "garum",
            "--players",
            "2",
            "--games",
            "2",
            "--bots",
            "random",
            "--seed",
            "4",
            "--json",
            str(out),
        ]
    )
    assert result.exit_code == 0, result.output
    for line in out.read_text().splitlines():
        row = json.loads(line)
        state = ludus.replay(row)
        assert (
            state.is_terminal() and state.scores() == row["scores"] and row["seats"] == ["random", "random"]
        )


def test_no_progress_bar_unless_stderr_is_a_terminal():
    result = run(["simulate", "garum", "--players", "2", "--games", "1"])
    assert result.exit_code == 0 and result.stderr == ""


@pytest.mark.parametrize(
    "args, says",
    [
        (
            ["simulate", "garum", "--json", "{tmp}/no/dir/games.jsonl"],
            "--json {tmp}/no/dir/games.jsonl cannot be written",
        ),
        (
            ["solo-challenge", "--json", "{tmp}/no/dir/solo.json"],
            "--json {tmp}/no/dir/solo.json cannot be written",
        ),
        (["tournament", "garum", "--bots", "random,greedy", "--out", "{tmp}/file"], "{tmp}/file' is a file"),
        (
            ["report", "garum", "--out", "{tmp}/file/sub"],
            "--out {tmp}/file/sub cannot be made or written into",
        ),
        (
            ["report", "garum", "--bots", "ismcts:prior=maybe"],
            "prior=maybe is not valid; prior takes true or false",
        ),
        (["simulate", "garum", "--bots", ","], "--bots names no bot"),
        (["solo-challenge", "--bot", "ismcts:iterations=ten"], "iterations=ten is not valid"),
        (["simulate", "garum", "--bots", "random:seed=3"], "seed cannot be set in a bot spec"),
        (["play", "garum", "--seats", "human,greedy:seed=1"], "seed cannot be set in a bot spec"),
    ],
)
def test_outputs_and_bots_are_checked_before_a_run_starts(tmp_path, args, says):
    (tmp_path / "file").write_text("")
    result = run([a.replace("{tmp}", str(tmp_path)) for a in args])
    assert result.exit_code == 2, result.output
    assert error_lines(result.output) == [line for line in result.output.splitlines() if line]
    assert says.replace("{tmp}", str(tmp_path)) in result.output


# -- serve: refused before the address is printed ------------------------------------------------


@pytest.fixture
def no_server(monkeypatch):
    """``ludus serve`` with the server run replaced: the arguments it would have run with."""
    import ludus.server

    calls = []
    monkeypatch.setattr(ludus.server, "serve", lambda *args: calls.append(args))
    return calls


def test_serve_prints_the_address_then_runs(tmp_path, no_server):
    url = f"sqlite:///{tmp_path / 'ok.db'}"
    result = run(["serve", "--port", "8123", "--database", url])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("ludus: open http://localhost:8123/")
    assert [(host, port, settings.database_url) for host, port, settings in no_server] == [
        ("127.0.0.1", 8123, url)
    ]


@pytest.mark.parametrize(
    "url, says",
    [
        ("foo", "--database: Could not parse SQLAlchemy URL"),
        ("mysql://db/x", "unsupported database 'mysql'"),
        ("sqlite://", "must be a file"),
        ("sqlite:///{tmp}/new/dir/x.db", "the folder {tmp}/new/dir does not exist"),
        ("postgresql://ludus:secret@127.0.0.1:1/ludus", "cannot use the database at 127.0.0.1:1"),
    ],
)
def test_serve_refuses_a_bad_database_in_one_line(tmp_path, no_server, url, says):
    result = run(["serve", "--port", "8124", "--database", url.replace("{tmp}", str(tmp_path))])
    assert result.exit_code == 2
    assert result.output.startswith("error: ") and len(result.output.strip().splitlines()) == 1
    assert says.replace("{tmp}", str(tmp_path)) in result.output
    assert "secret" not in result.output and not no_server
    assert not (tmp_path / "new").exists()


def test_serve_refuses_a_port_in_use_before_printing_the_address(tmp_path, no_server):
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = run(["serve", "--port", str(port), "--database", f"sqlite:///{tmp_path / 'x.db'}"])
    assert result.exit_code == 2 and not no_server
    assert result.output == f"error: cannot listen on 127.0.0.1:{port}: Address already in use\n"


@pytest.mark.parametrize(
    "command", [["tournament", "garum", "--bots", "random,greedy"], ["simulate", "garum"]]
)
def test_a_ray_address_that_does_not_answer_is_one_error_line(tmp_path, command):
    result = run(
        [*command, "--ray", "nowhere.invalid:1234", "--games", "1"]
        + (["--out", str(tmp_path / "t")] if command[0] == "tournament" else [])
    )
    assert result.exit_code == 2
    assert error_lines(result.output) == [result.output.strip()]
    assert "no Ray cluster answers at nowhere.invalid:1234" in result.output


# -- scripts/play -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, runs",
    [
        ([], "play garum --seats human,greedy,greedy,greedy"),
        (["celtae", "--players", "1"], "play celtae --players 1"),
        (["play", "celtae", "--players", "1"], "play celtae --players 1"),
        (["--resume", "game.json"], "play --resume game.json"),
    ],
)
def test_scripts_play_takes_the_game_directly(tmp_path, args, runs):
    """scripts/play with its set-up stubbed: the ludus command line it ends in."""
    import shutil
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    (tmp_path / "scripts").mkdir()
    shutil.copy(root / "scripts" / "play", tmp_path / "scripts" / "play")
    (tmp_path / "scripts" / "setup").write_text("#!/usr/bin/env bash\n")
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / ".venv" / "bin" / "ludus").write_text('#!/usr/bin/env bash\necho "$@"\n')
    for name in ("scripts/setup", ".venv/bin/ludus"):
        (tmp_path / name).chmod(0o755)
    done = subprocess.run(["bash", str(tmp_path / "scripts" / "play"), *args], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == runs


@pytest.mark.parametrize(
    "args, says",
    [
        (["nope"], "No such command 'nope'"),
        (["replay"], "Missing argument 'FILE'"),
        (["simulate", "garum", "--games", "0"], "0 is not in the range x>=1"),
        (
            ["simulate", "garum", "--bots", "ismcts:iterations=0"],
            "bad parameters for bot 'ismcts': iterations must be at least 1",
        ),
        (
            ["tournament", "garum", "--bots", "random", "--out", "{tmp}/t"],
            "a tournament needs at least two bots",
        ),
        (["tournament", "garum", "--bots", "random,random", "--out", "{tmp}/t"], "each bot may enter once"),
        (["solo-challenge", "--difficulty", "extreme"], "'extreme' is not one of"),
        (["solo-challenge", "--games", "2"], "3 difficulties need at least 3 games"),
        (["serve", "--port", "70000"], "70000 is not in the range"),
        (["play", "garum", "--seed", "abc"], "'abc' is not a valid integer"),
        (
            ["play", "celtae", "--players", "2", "-o", "difficulty=hard"],
            "difficulty is only valid with players=1",
        ),
        (
            ["play", "celtae", "--players", "1", "--seats", "human,greedy"],
            "2 seats given but the game has 1 player",
        ),
    ],
)
def test_every_mistake_is_one_error_line_and_exit_2(tmp_path, args, says):
    result = run([a.replace("{tmp}", str(tmp_path)) for a in args])
    assert result.exit_code == 2
    assert result.output.startswith("error: ") and len(result.output.strip().splitlines()) == 1
    assert says in result.output and "Traceback" not in result.output
