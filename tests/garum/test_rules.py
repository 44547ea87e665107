"""Garum: one test per rule of the rulebook, per rulebook example and per ruling (garum-rulings.md)."""

from __future__ import annotations

import pytest

import ludus
from ludus.games.garum.actions import PASS, Choose, Place, Worker
from ludus.games.garum.scoring import score_lines

from .helpers import fill, give_hand, new, play_random, start_round_on

B, G, Y, R = range(4)


def colour_now(state):
    return state.current_colour()


def place_any(state):
    """Place the first legal tile and return the action."""
    action = next(a for a in state.legal_actions() if isinstance(a, Place))
    state.apply_action(action)
    return action


# -- set-up -----------------------------------------------------------------------------------


def test_setup_hand_of_four_on_troia():
    state = new(players=4)
    assert [len(h) for h in state.hands] == [4, 4, 4, 4]
    assert [len(p) for p in state.piles] == [12, 12, 12, 12]


def test_setup_baelo_claudia_hand_of_three_and_tiles_removed():
    state = new(players=4, board="baelo_claudia")
    assert [len(h) for h in state.hands] == [3, 3, 3, 3]
    assert [len(p) for p in state.piles] == [9, 9, 9, 9]
    for c in range(4):
        assert not {1, 2, 3, 4} & set(state.hands[c] + state.piles[c])  # ruling 18


def test_setup_five_vilicus_and_one_dominus_per_colour():
    state = new(players=4)
    assert state.pool == [[5, 1]] * 4


def test_setup_baelo_claudia_removes_aureus_13_to_16():
    state = new(board="baelo_claudia")
    assert sorted(state.aureus) == list(range(1, 13))


# -- the round ------------------------------------------------------------------------------------


def test_round_cetarium_is_the_revealed_aureus():
    state = new(seed=5)
    assert state.cetarium == state.aureus[0] == state.revealed[0]
    assert all(a.cetarium == state.cetarium for a in state.legal_actions())


def test_turns_go_clockwise_from_the_amphora_holder_who_passes_it_each_round():
    state = new(players=4, seed=3)
    first = state.current_player()
    seen = []
    while state.round == 0:
        if state.phase == "place":
            seen.append(state.current_player())
        play_random(state, upto=1)
    assert seen == [(first + i) % 4 for i in range(4)]
    assert state.current_player() == (first + 1) % 4


def test_draw_a_tile_after_the_turn_while_the_pile_lasts():
    state = new(players=4, seed=2)
    colour = colour_now(state)
    place_any(state)
    if state.phase == "worker":
        assert len(state.hands[colour]) == 3  # ruling 6: the draw comes after the worker
        state.apply_action(PASS)
    assert len(state.hands[colour]) == 4 and len(state.piles[colour]) == 11
    play_random(state)
    assert all(not p for p in state.piles) and all(not h for h in state.hands)


def test_ruling_6_a_tile_drawn_this_turn_cannot_be_played_this_turn():
    state = new(players=4, seed=2)
    colour = colour_now(state)
    hand_before = list(state.hands[colour])
    action = place_any(state)
    assert state.placed[-1][1] in hand_before and isinstance(action, Place)


def test_ruling_10_hands_never_run_dry():
    for board in ("troia", "baelo_claudia"):
        state = play_random(new(players=4, board=board, seed=9), seed=9)
        assert len(state.placed) == 4 * state.game.board.rounds


def test_every_cetarium_receives_one_tile_of_each_colour_in_its_round():
    state = play_random(new(players=4, seed=4), seed=4)
    for cet, slots in state.slots.items():
        assert sorted(slots) == [0, 1, 2, 3], cet


# -- placing tiles ---------------------------------------------------------------------------------


def test_tile_goes_into_a_free_area_of_the_round_cetarium():
    state = new(seed=8)
    action = place_any(state)
    assert state.slots[state.cetarium][action.slot - 1] == state.placed[-1][0]
    if state.phase == "worker":
        state.apply_action(PASS)
    assert all(a.slot != action.slot for a in state.legal_actions() if isinstance(a, Place))


def test_ruling_3_tiles_rotate_in_four_orientations():
    state = new(seed=1)
    colour = colour_now(state)
    give_hand(state, colour, [13, 1, 2, 3])  # 13 = aXcX: 4 distinct orientations; 1-3 = XXXX
    fish = {a.fish for a in state.legal_actions() if a.slot == 1}
    assert len(fish) == 5


def test_ruling_3_option_rotation_false_forbids_turning():
    state = new(seed=1, rotation=False)
    colour = colour_now(state)
    give_hand(state, colour, [13, 1, 2, 3])
    fish = {a.fish for a in state.legal_actions() if a.slot == 1}
    assert fish == {state.game.fish_text(colour, 13), state.game.fish_text(colour, 1)}


# -- bonuses ------------------------------------------------------------------------------------------


def _cover_bonus(state, cetarium, fish_letter_at_icon, colour_tiles):
    """Place on the slot of ``cetarium`` holding its bonus icon, with a chosen fish on the icon."""
    board = state.game.board
    start_round_on(state, cetarium)
    colour = colour_now(state)
    give_hand(state, colour, colour_tiles)
    cell = next(c for c in board.bonus_cells if any(c in board.slot_cells[cetarium, s] for s in range(1, 5)))
    slot = next(s for s in range(1, 5) if cell in board.slot_cells[cetarium, s])
    pos = board.slot_cells[cetarium, slot].index(cell)
    action = next(a for a in state.legal_actions() if a.slot == slot and a.fish[pos] == fish_letter_at_icon)
    before = state.bonus[colour]
    state.apply_action(action)
    return colour, state.bonus[colour] - before


def test_example_1_joker_in_cetarium_10_scores_one_point():
    state = new(seed=1)
    state.amphora = 0
    _colour, gained = _cover_bonus(state, 10, "B", [1, 2, 3, 4])
    assert gained == 1


def test_species_bonus_scores_two_when_covered_by_that_species():
    state = new(seed=1)  # cetarium 14 holds a G (mackerel) icon
    state.amphora = 1  # green to play first
    _colour, gained = _cover_bonus(state, 14, "G", [1, 2, 3, 4])
    assert gained == 2


def test_ruling_8_species_icon_covered_by_another_species_scores_nothing():
    state = new(seed=1)
    state.amphora = 0  # blue: its XXXX tiles show only tuna
    _colour, gained = _cover_bonus(state, 14, "B", [1, 2, 3, 4])
    assert gained == 0


def test_ruling_7_species_bonus_goes_to_the_placer_even_of_another_colour():
    state = new(seed=1)
    state.amphora = 0  # blue places a mackerel (its tile 5 = G,B,B,B) on the G icon of 14
    colour, gained = _cover_bonus(state, 14, "G", [5, 1, 2, 3])
    assert colour == B and gained == 2


def test_ruling_7_option_species_bonus_own_restricts_it_to_that_species():
    state = new(seed=1, species_bonus="own")
    state.amphora = 0
    _colour, gained = _cover_bonus(state, 14, "G", [5, 1, 2, 3])
    assert gained == 0


def test_ruling_9_ghost_tile_bonus_scores_for_nobody():
    state = new(players=3, seed=2)
    start_round_on(state, 10)  # cetarium 10 holds a joker
    board = state.game.board
    icon = next(c for c in board.bonus_cells if any(c in board.slot_cells[10, s] for s in range(1, 5)))
    icon_slot = next(s for s in range(1, 5) if icon in board.slot_cells[10, s])
    bonus_before = list(state.bonus)
    while state.round == 0:  # the players keep off the icon's slot, leaving it to the ghost
        if state.phase == "ghost":
            state.apply_action(state.legal_actions()[0])
            continue
        legal = [a for a in state.legal_actions() if not isinstance(a, Place) or a.slot != icon_slot]
        state.apply_action(PASS if PASS in legal else legal[0])
    assert state.slots[10][icon_slot - 1] == 3  # the ghost colour covered the joker
    assert state.bonus == bonus_before


# -- workers -------------------------------------------------------------------------------------------


def test_ruling_1_worker_on_any_of_the_eight_lines_through_the_cetarium_just_played():
    state = new(seed=3)
    start_round_on(state, 14)
    place_any(state)
    lines = {a.name for a in state.legal_actions() if isinstance(a, Worker)}
    assert lines == {"h1", "h2", "h3", "h4", "v5", "v6", "v7", "v8"}


def test_example_2_cetarium_14_areas_are_13_to_16_and_14_3_2_9():
    board = ludus.load_game("garum").board
    assert set(board.area_of[14, "h"]) == {13, 14, 15, 16}
    assert set(board.area_of[14, "v"]) == {14, 3, 2, 9}


def test_example_3_no_worker_on_the_area_whose_other_cetaria_are_full():
    state = new(seed=3)
    for cet in (14, 3, 9):
        fill(state, cet)
    start_round_on(state, 2)
    place_any(state)
    names = {a.name for a in state.legal_actions() if isinstance(a, Worker)}
    board = state.game.board
    assert set(board.area_of[2, "h"]) == {11, 1, 2, 6}
    assert names and all(n.startswith("h") for n in names)  # vertical lines closed, horizontal open


def test_example_3_horizontal_stays_open_while_one_of_11_1_6_is_not_full():
    state = new(seed=3)
    for cet in (14, 3, 9, 11, 1):
        fill(state, cet)
    start_round_on(state, 2)
    place_any(state)
    assert any(isinstance(a, Worker) for a in state.legal_actions())
    state = new(seed=3)
    for cet in (14, 3, 9, 11, 1, 6):
        fill(state, cet)
    start_round_on(state, 2)
    place_any(state)
    assert state.phase == "place"  # no worker possible: the turn ended at once


def test_ruling_4_closed_area_holds_for_every_seat_of_the_round():
    state = new(seed=3)
    for cet in (14, 3, 9):
        fill(state, cet)
    start_round_on(state, 2)
    for _ in range(4):
        place_any(state)
        if state.phase == "worker":
            assert all(a.name.startswith("h") for a in state.legal_actions() if isinstance(a, Worker))
            state.apply_action(PASS)


def test_ruling_4_the_last_round_allows_no_workers():
    state = new(seed=6)
    while state.round < state.game.board.rounds - 1:
        play_random(state, seed=len(state.history()), upto=1)
    while not state.is_terminal():
        assert not any(isinstance(a, Worker) for a in state.legal_actions())
        play_random(state, upto=1)


def test_at_most_one_worker_per_line_of_any_colour():
    state = new(seed=3)
    start_round_on(state, 14)
    place_any(state)
    state.apply_action("V h1")
    place_any(state)
    names = {a.name for a in state.legal_actions() if isinstance(a, Worker)}
    assert "h1" not in names and "h2" in names
    with pytest.raises(ludus.IllegalActionError, match="already holds a worker"):
        state.apply_action("D h1")


def test_worker_is_optional():
    state = new(seed=3)
    start_round_on(state, 14)
    colour = colour_now(state)
    place_any(state)
    state.apply_action("pass")
    assert state.pool[colour] == [5, 1] and colour_now(state) != colour


def test_ruling_5_a_colour_without_that_worker_type_cannot_place_it():
    state = new(seed=3)
    start_round_on(state, 14)
    colour = colour_now(state)
    state.pool[colour] = [0, 1]
    place_any(state)
    kinds = {a.kind for a in state.legal_actions() if isinstance(a, Worker)}
    assert kinds == {"D"}
    with pytest.raises(ludus.IllegalActionError, match="no vilicus left"):
        state.apply_action("V h1")


def test_workers_never_move():
    state = new(seed=3)
    start_round_on(state, 14)
    place_any(state)
    state.apply_action("D v5")
    before = list(state.workers)
    play_random(state, seed=1)
    assert state.workers[state.game.board.size + 4] == before[state.game.board.size + 4]


# -- end scoring -----------------------------------------------------------------------------------------


def test_example_4_scoring_a_horizontal_area():
    """David (green) dominus 9 specimens = 22, David vilicus 6 = 2, Peter (red) vilicus 4 = -1."""
    board = ludus.load_game("garum").board
    cells = [-1] * 256
    row = lambda n: board.line_cells[n - 1]  # noqa: E731
    for i, cell in enumerate(row(5)):
        cells[cell] = G if i < 9 else Y
    for i, cell in enumerate(row(6)):
        cells[cell] = G if i < 6 else Y
    for i, cell in enumerate(row(7)):
        cells[cell] = R if i < 4 else B
    workers = [None] * 32
    workers[4] = [G, "D"]
    workers[5] = [G, "V"]
    workers[6] = [R, "V"]
    lines = {line: (count, points) for line, _c, _k, count, points in score_lines(board, cells, workers)}
    assert lines == {4: (9, 22), 5: (6, 2), 6: (4, -1)}


@pytest.mark.parametrize(
    "specimens,vilicus,dominus",
    [(0, -1, -2), (4, -1, -2), (5, 1, 2), (6, 2, 4), (7, 4, 8), (8, 7, 14), (9, 11, 22), (16, 11, 22)],
)
def test_troia_scoring_chart(specimens, vilicus, dominus):
    board = ludus.load_game("garum").board
    assert (board.points(specimens, False), board.points(specimens, True)) == (vilicus, dominus)


@pytest.mark.parametrize(
    "specimens,vilicus,dominus",
    [(3, -1, -2), (4, 1, 2), (5, 2, 4), (6, 4, 8), (7, 7, 14), (8, 11, 22), (12, 11, 22)],
)
def test_ruling_19_baelo_claudia_has_its_own_chart(specimens, vilicus, dominus):
    board = ludus.load_game("garum", board="baelo_claudia").board
    assert (board.points(specimens, False), board.points(specimens, True)) == (vilicus, dominus)


def test_ruling_2_a_line_counts_the_owner_species_whoever_placed_it():
    board = ludus.load_game("garum").board
    cells = [-1] * 256
    for cell in board.line_cells[0]:
        cells[cell] = B  # e.g. tuna fish on other colours' tiles and the ghost's
    workers = [None] * 32
    workers[0] = [B, "V"]
    assert score_lines(board, cells, workers)[0][3:] == [16, 11]


def test_ruling_5_unplaced_workers_score_nothing():
    state = new(players=4, seed=11)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(PASS if PASS in legal else legal[0])
    assert state.final == [] and state.scores() == [state.bonus[c] for c in range(4)]


def test_ruling_12_scores_may_be_negative():
    state = play_random(new(players=4, seed=12), seed=12)
    board = state.game.board
    weak = next(line for line in range(32) if sum(state.cells[c] == B for c in board.line_cells[line]) <= 4)
    state.workers = [None] * 32
    state.workers[weak] = [B, "D"]
    state.bonus = [0, 0, 0, 0]
    state.final = score_lines(board, state.cells, state.workers)
    assert state.scores()[0] == -2 and state.winners() == [1, 2, 3]


def test_ruling_13_tie_broken_by_fewer_vilicus_then_shared():
    state = play_random(new(players=4, seed=2), seed=2)
    state.final = []
    state.bonus = [5, 5, 5, 1]
    state.workers = [None] * 32
    state.workers[0] = [0, "V"]
    state.workers[1] = [1, "D"]
    state.workers[2] = [2, "D"]  # the dominus does not count in the tie-break
    assert state.winners() == [1, 2]
    state.workers[1] = [1, "V"]
    state.workers[2] = [2, "V"]
    assert state.winners() == [0, 1, 2]
    assert state.returns() == [pytest.approx(1 / 3)] * 3 + [0.0]


# -- player counts ---------------------------------------------------------------------------------------


def test_two_players_play_two_colours_alternately():
    state = new(players=2, seed=4)
    order = []
    while state.round == 0:
        if state.phase == "place":
            order.append((colour_now(state), state.current_player()))
        play_random(state, upto=1)
    colours = [c for c, _ in order]
    assert sorted(colours) == [0, 1, 2, 3]
    assert [p for _, p in order] == [c % 2 for c in colours]
    assert [p for _, p in order] in ([0, 1, 0, 1], [1, 0, 1, 0])


def test_ruling_15_two_player_amphora_moves_one_colour_seat_a_round():
    state = new(players=2, seed=4)
    firsts = []
    for _ in range(3):
        firsts.append(colour_now(state))
        rnd = state.round
        while state.round == rnd:
            play_random(state, upto=1)
    assert firsts[1] == (firsts[0] + 1) % 4 and firsts[2] == (firsts[0] + 2) % 4


def test_ruling_16_two_player_score_is_the_sum_of_its_colours():
    state = play_random(new(players=2, seed=7), seed=7)
    per = state.colour_scores()
    assert state.scores() == [per[0] + per[2], per[1] + per[3]]


def test_ruling_15_option_shared_worker_set_for_both_colours():
    state = new(players=2, seed=4, two_player_workers="shared")
    assert state.pool == [[5, 1], [5, 1]]
    start_round_on(state, 14)
    colour = colour_now(state)
    place_any(state)
    state.apply_action("D h1")
    assert state.pool[colour % 2] == [5, 0]
    with pytest.raises(ludus.OptionError, match="2-player"):
        ludus.load_game("garum", players=4, two_player_workers="shared")


def test_three_players_ghost_placed_by_the_first_player_after_everyone():
    state = new(players=3, seed=5, rotation=True)
    first = state.current_player()
    while state.phase != "ghost" and state.round == 0:
        play_random(state, upto=1)
    if state.round == 0:  # the ghost's tile had more than one orientation: the first player picks
        assert state.current_player() == first
        assert state.observation(None)["ghost_tile"]
        assert all(isinstance(a, Place) for a in state.legal_actions())
        play_random(state, upto=1)
    assert state.round == 1
    assert state.placed[3][0] == 3 and len([p for p in state.placed if p[0] == 3]) == 1


def test_ruling_14_ghost_places_no_workers_and_only_chooses_orientation():
    state = new(players=3, seed=5)
    play_random(state, seed=5)
    assert all(w is None or w[0] != 3 for w in state.workers)
    assert state.bonus[3] == 0


def test_three_player_ghost_orientation_is_a_decision_only_with_rotation():
    state = new(players=3, seed=5, rotation=False)
    while state.round == 0:
        assert state.phase != "ghost"  # a single way to lie: placed at once
        play_random(state, upto=1)
    assert state.placed[3][0] == 3


# -- boards and variants ------------------------------------------------------------------------------


def test_baelo_claudia_lasts_twelve_rounds_with_areas_of_three():
    game = ludus.load_game("garum", board="baelo_claudia")
    assert game.board.rounds == 12
    assert all(len(game.board.area_of[c, a]) == 3 for c in game.board.cetaria for a in "hv")
    assert len(game.board.line_cells[0]) == 12


def test_ruling_17_baelo_claudia_workers_only_after_first_and_second_cetarium_of_an_area():
    state = new(board="baelo_claudia", seed=2)
    board = state.game.board
    area = board.area_of[1, "h"]  # (1, 2, 3)
    fill(state, area[1])
    start_round_on(state, area[0])  # second of its area to fill: open
    place_any(state)
    assert any(isinstance(a, Worker) and a.name.startswith("h") for a in state.legal_actions())
    state = new(board="baelo_claudia", seed=2)
    fill(state, area[1])
    fill(state, area[2])
    start_round_on(state, area[0])  # third: closed
    place_any(state)
    assert not any(isinstance(a, Worker) and a.name.startswith("h") for a in state.legal_actions())


def test_ruling_20_emperor_first_player_chooses_among_unfilled_cetaria():
    state = new(variant="emperor", seed=3)
    assert state.phase == "choose" and state.revealed == []
    first = state.current_player()
    assert {a.cetarium for a in state.legal_actions()} == set(range(1, 17))
    state.apply_action("choose c7")
    assert state.cetarium == 7 and state.current_player() == first
    while state.round == 0:
        play_random(state, upto=1)
    assert Choose(7) not in state.legal_actions()
    with pytest.raises(ludus.IllegalActionError, match="full"):
        state.apply_action("choose c7")


def test_ruling_21_haruspex_order_is_public_from_the_start():
    state = new(variant="haruspex", seed=3)
    obs = state.observation(None)
    assert obs["aureus"]["order"] == state.aureus
    play_random(state, seed=3)
    assert state.revealed == obs["aureus"]["order"]


def test_standard_aureus_order_is_hidden():
    state = new(seed=3)
    obs = state.observation(0)
    assert obs["aureus"]["order"] is None and obs["aureus"]["revealed"] == [state.cetarium]


def test_ruling_22_variants_do_not_combine_and_privileges_is_out_of_scope():
    with pytest.raises(ludus.OptionError, match="choose one of"):
        ludus.load_game("garum", variant="emperor+haruspex")
    with pytest.raises(ludus.OptionError, match="no option 'privileges'"):
        ludus.load_game("garum", privileges=True)


def test_setup_each_player_chooses_a_colour_and_the_ghost_is_the_colour_nobody_chose():
    """'Each player chooses a colour'; ruling 14: with 3 players the ghost is the colour left."""
    state = ludus.load_game("garum", players=3, colours="red,blue,green").new_initial_state(seed=2)
    colours = {c["name"]: c for c in state.observation(0)["colours"]}
    assert [colours[name]["player"] for name in ("red", "blue", "green")] == [0, 1, 2]
    assert colours["yellow"]["ghost"] and colours["yellow"]["player"] is None
    assert not any(colours[name]["ghost"] for name in ("red", "blue", "green"))
    assert colours["red"]["hand"] and colours["blue"]["hand"] is None  # seat 0 holds red's hand
    play_random(state, seed=2)
    assert state.is_terminal() and len(state.scores()) == 3


def test_setup_two_players_choose_two_colours_each_in_seat_order_a1_b1_a2_b2():
    state = ludus.load_game("garum", players=2, colours="yellow,red,green,blue").new_initial_state(seed=1)
    owner = {c["name"]: c["player"] for c in state.observation(None)["colours"]}
    assert owner == {"yellow": 0, "red": 1, "green": 0, "blue": 1}


def test_setup_colour_choice_must_name_one_colour_per_colour_seat():
    with pytest.raises(ludus.OptionError, match="names 3 colours, but 4 players choose 4"):
        ludus.load_game("garum", players=4, colours="red,blue,green")
    with pytest.raises(ludus.OptionError, match="not valid"):
        ludus.load_game("garum", players=3, colours="red,red,green")


def test_ruling_15_option_shared_worker_set_is_shown_once():
    """With one worker set for both colours, the view says which colours share it, and the text
    board counts it once, not once a colour."""
    from ludus.games.garum.render import render_text

    state = ludus.load_game("garum", players=2, two_player_workers="shared").new_initial_state(seed=1)
    colours = {c["name"]: c for c in state.observation(0)["colours"]}
    assert (
        colours["blue"]["shares_workers_with"] == "yellow"
        and colours["yellow"]["shares_workers_with"] == "blue"
    )
    text = render_text(state.observation(0), color=False)
    yellow_row = next(line for line in text.splitlines() if "yellow mollusc" in line)
    assert "= B" in yellow_row
    per_colour = ludus.load_game("garum", players=2).new_initial_state(seed=1).observation(0)["colours"]
    assert all(c["shares_workers_with"] is None for c in per_colour)
