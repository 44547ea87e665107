"""``ludus balance``: every configuration of a game played between equal bots into one page, resumed from
its results, and a component made obviously strong in a data folder flagged with its file and key."""

from __future__ import annotations

import json
import math
from pathlib import Path

from click.testing import CliRunner
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import ludus
from ludus.arena.balance import Study, config_label, configurations, finished, play, with_facts
from ludus.arena.balance_page import Page, holding, seat_rows, write_page
from ludus.arena.report import flag_figure, flagged, p_value, tallying
from ludus.cli import main


def run(args):
    return CliRunner().invoke(main, [str(a) for a in args], prog_name="ludus")


def test_configurations_are_every_player_count_and_compared_choice_once():
    labels = [config_label(c) for c in configurations("celtae")]
    assert labels == [
        "players=1 difficulty=normal",
        "players=1 difficulty=easy",
        "players=1 difficulty=hard",
        "players=2",
        "players=3",
        "players=4",
    ]
    assert len(configurations("garum")) == 3 * 2 * 3  # players × boards × variants


def test_balance_writes_every_configurations_section_and_a_second_run_plays_nothing(tmp_path):
    args = ["balance", "garum", "--games", "2", "--search-bot", "random", "--search-games", "2"]
    args += ["--jobs", "1", "--out", tmp_path / "docs", "--results", tmp_path / "results"]
    first = run(args)
    assert first.exit_code == 0, first.output
    assert "garum: 42 games played" in first.output  # 18 configurations × 2, and 3 default setups × 2
    page = (tmp_path / "docs" / "balance.md").read_text()
    assert page.splitlines()[6].startswith("ludus balance garum --games 2 --bot greedy")
    for config in configurations("garum"):
        assert f"| `{config_label(config)}` | 2 of 2 |" in page
    assert "### By board, on the same deals (4 players)" in page
    assert "### Checked by the search bot (random)" in page
    for link in [line.split("](")[1].rstrip(")") for line in page.splitlines() if line.startswith("![")]:
        assert (tmp_path / "docs" / link).is_file(), link
    again = run(args)
    assert again.exit_code == 0 and "garum: 0 games played" in again.output
    assert (tmp_path / "docs" / "balance.md").read_text() == page


def test_no_play_writes_the_page_from_the_games_finished_with_their_true_count(tmp_path):
    study = Study(
        "celtae", games=2, search_games=0, results=tmp_path / "results", configs=configurations("celtae")[3:4]
    )
    assert play([study], jobs=1, rounds=(1.0,)) == {"celtae": 2}
    longer = Study("celtae", games=5, search_games=0, results=tmp_path / "results", configs=study.configs)
    text = write_page([longer], tmp_path, "ludus balance celtae --games 5").read_text()
    assert "| `players=2` | 2 of 5 |" in text and "Not reached everywhere yet by greedy" in text
    assert "#### Leaders" in text and "#### Components to check" in text


def test_a_leader_made_obviously_strong_in_a_data_folder_is_flagged_with_its_file_and_key(tmp_path):
    folder = tmp_path / "mine"
    assert run(["data", "export", "celtae", folder]).exit_code == 0
    path = folder / "leaders.json"
    raw = json.loads(path.read_text())
    index = next(i for i, x in enumerate(raw["leaders"]["value"]) if x["name"] == "Vercingetorix")
    for side in ("A", "B"):
        raw["leaders"]["value"][index][side] |= {"need": [0, 0], "points": 25}
    path.write_text(json.dumps(raw, indent=1))
    files = ludus.load_game("celtae", data=folder).data_files
    two = [c for c in configurations("celtae", files) if c["players"] == 2]
    study = Study("celtae", games=40, search_games=0, results=tmp_path / "results", data=files, configs=two)
    play([study], jobs=2, rounds=(1.0,))
    text = write_page([study], Path(tmp_path / "docs"), "ludus balance celtae --data mine").read_text()
    top = text.split("## Celtae")[0]
    line = next(x for x in top.splitlines() if "**Vercingetorix** (leader)" in x)
    assert line.startswith("- ⚑") and f"leaders.json, `leaders[{index}]`" in line
    rate, reference = (float(x.split("%")[0].split()[-1]) for x in line.split("against"))
    assert rate > 90 and reference == 50.0  # strong, against the fair share of two players


def test_benjamini_hochberg_keeps_every_flag_up_to_the_last_p_value_under_its_step():
    # steps k * 0.05 / 10: 0.005, 0.01, 0.015 ... only the two smallest lie under theirs
    assert holding([0.039, 0.001, 0.041, 0.008, 0.042], 10) == [False, True, False, True, False]
    # step-up: the smallest (0.02) lies above its own step (0.0167), but the third (0.03) lies under its
    # step (0.05), so all three are kept; among six figures the steps are 0.0083, 0.0167, 0.025: none is
    assert holding([0.03, 0.021, 0.02], 3) == [True, True, True]
    assert holding([0.03, 0.021, 0.02], 6) == [False, False, False]
    assert holding([], 0) == []


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 400), st.data(), st.floats(0.01, 0.99))
def test_a_figure_is_flagged_when_its_wilson_interval_leaves_out_the_reference(n, data, reference):
    rate = data.draw(st.integers(0, n)) / n
    assume(
        abs(p_value(rate, n, reference) - 0.05) > 1e-6
    )  # the interval's edge: rounding may fall either side
    z2 = 1.959964**2  # Wilson's 95 % interval, as the textbooks write it
    centre = (rate + z2 / (2 * n)) / (1 + z2 / n)
    half = math.sqrt(rate * (1 - rate) / n + z2 / (4 * n * n)) * 1.959964 / (1 + z2 / n)
    assert flagged(rate, n, reference) == (abs(centre - reference) > half)
    assert flagged(rate, n, reference) == (p_value(rate, n, reference) < 0.05)


def test_the_flags_at_the_top_hold_when_every_figure_tested_is_counted_furthest_from_fair_first(tmp_path):
    def page_of(unflagged):
        with tallying() as tally:
            page = Page(tmp_path, tally)
            lines = [
                flag_figure("close call", 0.57, 200, 0.5),  # p = 0.048
                flag_figure("strong", 0.9, 200, 0.5),
                flag_figure("stronger", 0.99, 200, 0.5),
                *(flag_figure(f"fair {i}", 0.5, 200, 0.5) for i in range(unflagged)),
            ]
            page.add([x for x in lines if x is not None] + ["- ⚑ a line written by hand"], "here")
        return tally, page.top()

    tally, (held, rest) = page_of(0)
    assert tally.tested == 3
    assert held == ["- ⚑ stronger (here)", "- ⚑ strong (here)", "- ⚑ close call (here)"]
    assert rest == ["- ⚑ a line written by hand (here)"]
    tally, (held, rest) = page_of(97)  # the same three flags among 100 figures: the close call may be chance
    assert tally.tested == 100
    assert held == ["- ⚑ stronger (here)", "- ⚑ strong (here)"]
    assert rest == ["- ⚑ close call (here)", "- ⚑ a line written by hand (here)"]


def test_a_journal_record_without_facts_gets_them_by_replay(tmp_path):
    config = dict(ludus.load_game("garum", players=3).config)
    study = Study(
        "garum", bot="random", games=2, search_games=0, results=tmp_path / "results", configs=[config]
    )
    play([study], jobs=1, rounds=(1.0,))
    journal = study.journal("random", config)
    played = sorted(map(json.loads, journal.read_text().splitlines()), key=lambda r: r["index"])
    assert all(r["facts"]["seats"] for r in played)
    journal.write_text(
        "".join(json.dumps({k: v for k, v in r.items() if k != "facts"}) + "\n" for r in played)
    )
    before = finished(study, "random", 2, config)
    assert len(before) == 2 and not any("facts" in r for r in before)
    assert [r["facts"] for r in with_facts("garum", before, None)] == [r["facts"] for r in played]
    text = write_page([study], tmp_path / "docs", "ludus balance garum --no-play").read_text()
    assert "#### Bonus spaces" in text


def test_a_data_folder_needs_one_game_named(tmp_path):
    refused = run(["balance", "--data", tmp_path, "--out", tmp_path / "docs"])
    assert refused.exit_code == 2 and "--data belongs to one game" in refused.output
    assert not (tmp_path / "docs").exists()


def test_two_players_seat_advantage_is_one_figure_flagged_once_and_marked_on_both_places(tmp_path):
    first_wins = [{"returns": [0.0, 1.0] if i % 2 else [1.0, 0.0], "first": i % 2} for i in range(100)]
    three = [{"returns": [1.0, 0.0, 0.0], "first": 0} for _ in range(100)]
    with tallying() as tally:
        rows, flags, most = seat_rows({"players=2": first_wins, "players=3": three})
    assert tally.tested == 1 + 3
    assert [x.split(",")[0] for x in flags] == [
        "- ⚑ place 1 in turn order",
        "- ⚑ place 1 in turn order",
        "- ⚑ place 2 in turn order",
        "- ⚑ place 3 in turn order",
    ]
    one, two, none = rows[0][2:]
    assert one.startswith("100.0% ±") and two.startswith("0.0% ±") and none == "" and most == 3
    assert one.endswith("⚑") and two.endswith("⚑")
