"""The projected score: what each worker's line and each seat would score if the game ended now."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ludus.games.garum.actions import SPECIES, Worker, line_id
from ludus.games.garum.render import panels
from ludus.games.garum.scoring import projection

from .helpers import CONFIGS, fill, new, play_random


@settings(max_examples=12, deadline=None)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 10_000))
def test_projection_of_a_finished_game_is_its_final_score(config, seed):
    state = play_random(new(seed, **config), seed)
    assert projection(state)["seats"] == state.scores()


@settings(max_examples=12, deadline=None)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 10_000), upto=st.integers(0, 120))
def test_projection_mid_game_adds_every_line_to_the_bonuses(config, seed, upto):
    state = play_random(new(seed, **config), seed, upto=upto)
    shown = projection(state)
    board = state.game.board
    per_colour = list(state.bonus)
    for line in shown["lines"]:
        assert line["points"] == board.points(line["specimens"], line["kind"] == "D")
        assert line["best"] >= line["points"]
        per_colour[SPECIES.index(line["colour"])] += line["points"]
    seating = state.game.seating
    assert shown["seats"] == [
        sum(per_colour[c] for c in seating.colours_of(s)) for s in range(seating.players)
    ]
    assert len(shown["lines"]) == sum(w is not None for w in state.workers)


def test_a_worker_line_counts_the_fish_placed_so_far_and_its_open_cells():
    state = new(1, players=2)
    board = state.game.board
    fill(state, 1, "B")  # cetarium 1: its 4 x 4 fish all tuna
    top = board.slot_cells[1, 1][0]
    row_no, col_no = top // board.size + 1, top % board.size + 1
    state.workers[line_id("h", row_no)] = [0, "V"]  # blue (tuna) vilicus on the cetarium's first row
    state.workers[line_id("v", col_no)] = [1, "D"]  # green (mackerel) dominus on its first column
    shown = {line["line"]: line for line in projection(state)["lines"]}
    row = shown[f"h{row_no}"]
    cells = len(board.line_cells[line_id("h", row_no)])
    assert row["specimens"] == 4 and row["colour"] == "B" and row["kind"] == "V"
    assert row["open"] == cells - 4
    assert row["points"] == board.points(4, False)
    assert row["best"] == board.points(cells, False)
    column = shown[f"v{col_no}"]
    assert column["specimens"] == 0 and column["points"] == board.points(0, True)
    blue = projection(state)["colours"]["B"]
    assert blue["total"] == state.bonus[0] + row["points"]


def test_the_live_score_hides_line_points_that_the_projection_shows():
    state = new(2, players=2)
    board = state.game.board
    top = board.slot_cells[1, 1][0]
    state.workers[line_id("h", top // board.size + 1)] = [0, "D"]
    first = [
        1,
        *(
            c
            for c in board.cetaria
            if c != 1 and board.slot_cells[c, 1][0] // board.size == top // board.size
        ),
    ]
    for cetarium in first[:2]:
        fill(state, cetarium, "B")  # that row now holds 8 tuna
    assert state.scores() == [0, 0]
    assert projection(state)["seats"][0] == board.points(8, True) > 0


def test_the_view_panels_are_the_projection_for_every_seat_and_spectator():
    state = play_random(new(5, players=3), 5, upto=30)
    expected = projection(state)
    assert panels(state, 0) == panels(state, 2) == panels(state, None) == expected
    assert set(expected["colours"]) == {SPECIES[c] for c in range(4) if c != state.game.seating.ghost}


def test_a_placed_worker_appears_in_the_projection_after_its_action():
    state = new(3, players=4)
    while state.phase != "worker":
        state.apply_action(state.legal_actions()[0])
    worker = next(a for a in state.legal_actions() if isinstance(a, Worker))
    assert projection(state)["lines"] == []
    state.apply_action(worker)
    (line,) = projection(state)["lines"]
    assert line["line"] == worker.name and line["kind"] == worker.kind
