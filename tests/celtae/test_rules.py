"""A test per rule of the Celtae rulebook and per ruling of celtae-rulings.md."""

from __future__ import annotations

import pytest

import ludus
from ludus.games.celtae import board as G
from ludus.games.celtae.core import BATTLE_DISCARD, FIGHT, LEADER, P_FLIP, P_STACK, P_TRACK, RELEASE, START
from ludus.games.celtae.supply import draw_card

from .helpers import (
    ORANGE,
    PINK,
    card,
    cards,
    druid_tile,
    legal,
    play,
    progress_card,
    put,
    roman_tile,
    row,
    set_hand,
    started,
    workers,
)

# -- set-up --------------------------------------------------------------------------------------


@pytest.mark.parametrize("players,blocked", [(2, 2), (3, 1), (4, 0)])
def test_setup_blocked_citadel_spaces(players, blocked):
    s = ludus.load_game("celtae", players=players).new_initial_state(seed=1)
    assert all(c.count(-2) == blocked and len(c) == 5 for c in s.citadels)


@pytest.mark.parametrize("players,blocked", [(2, 2), (3, 1), (4, 0)])
def test_setup_blocked_garrison_spaces(players, blocked):
    s = ludus.load_game("celtae", players=players).new_initial_state(seed=1)
    assert all(g.count(-2) == blocked and len(g) == 6 for g in s.garrison)


@pytest.mark.parametrize("players,track,dealt", [(2, 8, (3, 2)), (3, 9, (3, 3)), (4, 12, (4, 3))])
def test_ruling_1_track_markers_and_progress_cards_by_player_count(players, track, dealt):
    s = ludus.load_game("celtae", players=players).new_initial_state(seed=1)
    assert s.track == track and s.stack_markers == [1, 1, 1, 1]
    slots = [s.data.progress_cards[c][3] for c in s.prog_cards]
    assert (slots.count(2), slots.count(3)) == dealt


@pytest.mark.parametrize("players,size,druids", [(2, 4, 3), (3, 4, 4), (4, 5, 5)])
def test_ruling_1_stacks_one_point_on_top_and_druids(players, size, druids):
    s = ludus.load_game("celtae", players=players).new_initial_state(seed=3)
    for stacks, tiles in ((s.roman, s.data.roman_tiles), (s.druid, s.data.druid_tiles)):
        for st in stacks:
            pts = [tiles[t].points for t in st]
            assert len(st) == size and pts == sorted(pts, reverse=True)  # top = end holds the 1-point tiles
            assert pts[-2:] == [1, 1]
    assert s.druid_supply == [druids, druids]


@pytest.mark.parametrize("players,per_region", [(1, 3), (2, 3), (3, 4), (4, 5)])
def test_setup_step_6_no_druids_on_the_north_and_south_spaces_with_2_players_nor_south_with_3(
    players, per_region
):
    """Fewer druid workers with fewer players; the rest go back to the box (solo is set up as 2 players)."""
    s = ludus.load_game("celtae", players=players).new_initial_state(seed=1)
    assert s.druid_supply == [per_region, per_region]
    assert s.druid_box == s.data.workers[4] - 2 * per_region


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_workers_given_and_returned_for_absent_players(players):
    s = ludus.load_game("celtae", players=players).new_initial_state(seed=2)
    assert all(s.active[p] == [1, 1, 1, 0] for p in range(players))
    total = [
        s.bag[t]
        + sum(a.count(t) for a in s.areas)
        + s.centre.count(t)
        + sum(s.active[p][t] for p in range(players))
        for t in range(4)
    ]
    assert total == [16 - (4 - players)] * 3 + [8]
    assert all(w >= 0 for a in s.areas for w in a) and all(w >= 0 for w in s.centre)


def test_setup_market_of_six_per_region_and_tokens():
    s = ludus.load_game("celtae", players=4).new_initial_state(seed=2)
    assert all(len(m) == 6 and -1 not in m for m in s.market)
    assert s.tokens == [1, 1, 1, 1] and s.token_supply == 6 and s.strength == [0, 0, 0, 0]
    assert s.marker == G.SE and s.teutates == 0
    assert sorted(s.bonus_at[:4]) == [0, 1, 2, 3] and sorted(s.bonus_at[4:]) == [0, 1, 2, 3]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ruling_2_leaders_offered_chosen_from_the_last_player_counter_clockwise(players):
    s = ludus.load_game("celtae", players=players).new_initial_state(seed=5)
    assert len(s.offered) == players + 1
    order = []
    discarded = []
    while s.phase != START:
        seat = s.current_player()
        if s.phase == LEADER:
            order.append(seat)
            assert sum(s.hands[seat]) == 5
        action = s.legal_actions()[-1]
        if action.verb == "discard":
            discarded.append(action.a)
        s.apply_action(action)
    assert s.discard == discarded  # face up, in the order chosen
    assert order == list(range(players - 1, -1, -1))
    assert all(sum(s.hands[p]) == 3 for p in range(players))  # kept 3 of 5
    assert len(s.discard) == 2 * players and len(set(s.leaders)) == players
    assert s.current_player() == 0


# -- the turn: moving --------------------------------------------------------------------------------


@pytest.mark.parametrize("steps,gain", [(1, 1), (2, 0), (3, -3)])
def test_move_one_to_three_corners_clockwise_with_strength(steps, gain):
    s = started(2)
    put(s, marker=G.SW, strength=[5, 0])
    play(s, f"move {steps}")
    assert s.marker == (G.SW + steps) % 4 and s.strength[0] == 5 + gain


def test_ruling_4_moving_three_needs_three_strength():
    s = started(2)
    put(s, strength=[2, 0])
    assert "move 3" not in legal(s)
    with pytest.raises(ludus.IllegalActionError, match="costs 3 strength"):
        s.apply_action("move 3")
    assert s.marker == G.SE and s.strength[0] == 2  # unchanged


def test_ruling_4_strength_never_above_the_track():
    s = started(2)
    top = s.data.strength_max
    put(s, strength=[top, 0], marker=G.SW)
    play(s, "move 1")
    assert s.strength[0] == top


@pytest.mark.parametrize(
    "corner,choices",
    [
        ("NE", ["battle N", "build N", "farm N"]),
        ("SE", ["battle S", "build S", "farm S"]),
        ("SW", ["build S", "farm S", "recruit S"]),
        ("NW", ["build N", "farm N", "recruit N"]),
    ],
)
def test_actions_beside_the_marker(corner, choices):
    s = started(2)
    before = {"NE": G.NW, "SE": G.NE, "SW": G.SE, "NW": G.SW}[corner]
    put(s, marker=before, strength=[0, 0], teutates=1)
    set_hand(s, 0, "Ow Ow Pw Pw Tw Tw Uw Uw")
    play(s, "move 1")
    while s.pending:
        s.apply_action(s.legal_actions()[0])
    assert sorted(legal(s)) == choices


def test_ruling_5_progress_resolves_inside_the_move():
    s = started(2)
    put(s, marker=G.NW, teutates=1)
    play(s, "move 2")  # NW -> NE -> SE: crosses once
    assert s.pending == [[P_TRACK, 1]] and s.current_player() == 1
    assert s.phase == 3  # the mover's action choice waits for the placement


def test_ruling_20_teutates_passes_left_and_the_first_player_is_fixed():
    s = started(3)
    put(s, marker=G.NE, teutates=2)
    play(s, "move 1", "progress 1")
    assert s.teutates == 0 and s.turn == 0


def test_ruling_20_no_progress_once_the_track_is_empty():
    s = started(2)
    put(s, marker=G.NE, track=0, stage=1)
    play(s, "move 1")
    assert not s.pending and s.track == 0


# -- refresh, swap --------------------------------------------------------------------------------------


def test_ruling_10_refresh_with_this_turns_strength():
    s = started(2)
    put(s, marker=G.NW, strength=[0, 0], tokens=[0, 0])
    play(s, "move 1", "farm N")  # +1 from the move pays the refresh
    assert "refresh" in legal(s)
    play(s, "refresh")
    assert s.strength[0] == 0 and "refresh" not in legal(s)


def test_ruling_10_no_refresh_without_strength():
    s = started(2)
    put(s, marker=G.SE, strength=[0, 0], tokens=[0, 0])
    play(s, "move 2", "farm N")
    assert s.phase != 4  # REFRESH skipped


def test_swap_one_active_worker_with_one_of_the_area():
    s = started(2)
    areas = [list(a) for a in s.areas]
    areas[G.AREA_FB_NORTH] = row("N N F")
    put(s, marker=G.SE, strength=[0, 0], tokens=[0, 0], areas=areas)
    play(s, "move 2", "farm N")
    assert sorted(legal(s)) == [
        "done",
        "swap B 1",
        "swap B 2",
        "swap B 3",
        "swap F 1",
        "swap F 2",
        "swap S 1",
        "swap S 2",
        "swap S 3",
    ]
    play(s, "swap S 3")
    assert s.active[0] == workers("F F B") and s.areas[G.AREA_FB_NORTH] == row("N N S")


# -- ruling 8: an action must be performable --------------------------------------------------------------


def test_ruling_8_build_needs_a_payable_disc():
    s = started(2)
    put(s, marker=G.SE, strength=[0, 0], tokens=[0, 0], discs=[8, 0])  # the 9th disc costs 5
    s.tribe[0] = [0, 0, 0, 0, 0]
    areas = [list(a) for a in s.areas]
    areas[G.AREA_FB_NORTH] = row("F F F")
    put(s, areas=areas)
    set_hand(s, 0, "Ow Ow Ow")
    play(s, "move 2")
    assert "build N" not in legal(s)  # 1 builder: 4 orange cards needed
    set_hand(s, 0, "Ow Ow Ow Ow")
    assert "build N" in legal(s)
    with pytest.raises(ludus.IllegalActionError):
        s.apply_action("recruit S")


def test_ruling_8_build_counts_a_possible_swap_and_tokens():
    s = started(2)
    areas = [list(a) for a in s.areas]
    areas[G.AREA_FB_NORTH] = row("B F F")
    put(s, marker=G.SE, strength=[0, 0], tokens=[1, 0], discs=[8, 0], areas=areas)
    s.tribe[0] = [0, 0, 0, 0, 0]
    set_hand(s, 0, "Ow Ow")  # cost 5 - (1 active + 1 swapped + 1 token) = 2
    play(s, "move 2", "build N")
    assert legal(s) == ["swap F 1", "swap S 1"]  # only swaps that keep the build payable
    play(s, "swap F 1")
    assert legal(s) == ["extra"]  # and the token must be spent
    play(s, "extra", "citadel O")
    assert s.discs[0] == 9 and s.hands[0] == [0] * 12


def test_ruling_8_recruit_needs_an_active_worker():
    s = started(2)
    put(s, marker=G.SE, active=[[0, 0, 0, 0], [1, 1, 1, 0]])
    play(s, "move 2")
    assert "recruit N" not in legal(s)


def test_ruling_8_battle_always_possible_and_may_be_empty():
    s = started(2)
    put(s, marker=G.NW, strength=[0, 0], tokens=[0, 0])
    set_hand(s, 0, "")
    play(s, "move 1", "battle N", "done")
    while s.turn == 0 and s.phase != START:
        s.apply_action("done")
    assert s.turn == 1 and s.roman_won[0] == []


# -- Farm ---------------------------------------------------------------------------------------------


def test_ruling_12_farm_picks_any_set_of_positions_within_the_farmers():
    s = started(2)
    put(s, marker=G.SE, strength=[0, 0], tokens=[0, 0])
    s.active[0] = workers("F F F")
    s.tribe[0] = workers("D", 5)  # a druid counts as a farmer: 4
    play(s, "move 2", "farm N", "done")
    play(s, "take 5", "take 6")
    assert s.turn == 1 and sum(s.hands[0]) == 3 + 3


def test_ruling_12_empty_deck_rebuilt_from_the_discard_pile_except_its_top():
    s = started(2)
    put(s, deck=[], discard=[card("Ow"), card("Pt"), card("Uf")])
    k = draw_card(s)
    assert k in (card("Ow"), card("Pt")) and s.discard == [card("Uf")]
    put(s, deck=[], discard=[card("Uf")])
    assert draw_card(s) == -1


# -- Build -----------------------------------------------------------------------------------------------


def test_build_cost_minus_builders_minimum_one_druids_count():
    s = started(2)
    put(s, marker=G.SE, strength=[0, 0], tokens=[0, 0], discs=[0, 0])
    s.active[0] = workers("B B S")
    s.tribe[0] = workers("D", 5)
    set_hand(s, 0, "Pw Pt")
    play(s, "move 2", "build N")
    while s.phase not in (8,):
        s.apply_action("done")
    play(s, "citadel P")
    assert s.phase == 9  # the 1st disc costs 1 - 3 builders: still 1 card; which one is asked
    play(s, "pay Pt")
    assert s.hands[0] == cards("Pw") and s.discs[0] == 1


def test_ruling_13_several_discs_on_one_citadel_and_bonus_each_time():
    s = started(2)
    idx = ORANGE
    bonus_at = list(s.bonus_at)
    bonus_at[idx] = s.data.bonus_kinds.index("strength")
    cit = [list(c) for c in s.citadels]
    cit[idx] = [0, -1, -1, -2, -2]
    put(s, marker=G.SE, strength=[0, 0], tokens=[0, 0], discs=[1, 0], bonus_at=bonus_at, citadels=cit)
    set_hand(s, 0, "Ow")
    play(s, "move 2", "build N")
    while s.phase != 8:
        s.apply_action("done")
    play(s, "citadel O")
    assert s.citadels[idx][:2] == [0, 0] and s.strength[0] == 3
    assert s.bonus_owner[idx] == -1  # not complete: nobody takes the tile


def test_bonus_draw_two_cards_free():
    s = started(2)
    bonus_at = list(s.bonus_at)
    bonus_at[PINK] = s.data.bonus_kinds.index("draw")
    put(s, marker=G.SE, strength=[0, 0], tokens=[0, 0], bonus_at=bonus_at)
    set_hand(s, 0, "Pw")
    play(s, "move 2", "build N")
    while s.phase != 8:
        s.apply_action("done")
    m = list(s.market[0])
    play(s, "citadel P", "take 6", "take 1")
    assert s.hands[0][m[5]] >= 1 and s.hands[0][m[0]] >= 1 and sum(s.hands[0]) == 2
    assert -1 not in s.market[0] and s.turn == 1


def test_ruling_14_bonus_recruit_one_worker_then_refill():
    s = started(2)
    bonus_at = list(s.bonus_at)
    bonus_at[PINK] = s.data.bonus_kinds.index("recruit")
    put(s, marker=G.SE, strength=[0, 0], tokens=[0, 0], bonus_at=bonus_at, centre=row("N N N"))
    s.active[0] = workers("N B S")
    set_hand(s, 0, "Pw")
    play(s, "move 2", "build N")
    while s.phase != 8:
        s.apply_action("done")
    play(s, "citadel P")
    assert sorted(legal(s)) == ["done", "enlist B", "enlist N", "enlist S"]
    play(s, "enlist N")  # no noble extras: exactly one
    assert s.tribe[0][3] == 1 and s.active[0] == workers("N B S") and s.turn == 1


# -- Battle ------------------------------------------------------------------------------------------


def test_ruling_15_strength_per_card_capped_at_four():
    s = started(2)
    put(s, marker=G.NW, strength=[0, 0], tokens=[0, 0])
    s.active[0] = workers("S S S")
    s.tribe[0] = workers("S D", 5)  # 5 soldiers with the druid
    set_hand(s, 0, "Ow Ot")
    play(s, "move 1", "battle N", "done")
    while s.phase != BATTLE_DISCARD:
        s.apply_action("done")
    play(s, "discard Ow")
    assert s.strength[0] == 1 + 4
    assert "discard Ot" not in legal(s)


def test_ruling_15_no_soldier_no_discard():
    s = started(2)
    put(s, marker=G.NW, strength=[0, 0], tokens=[0, 0], areas=[row("F F F")] * 4)
    s.active[0] = workers("F B N")
    s.tribe[0] = [0, 0, 0, 0, 0]
    set_hand(s, 0, "Ow")
    play(s, "move 1", "battle N", "done")
    while s.turn == 0:
        assert s.phase != BATTLE_DISCARD
        s.apply_action("done")


def test_ruling_15_fight_optional_and_pays_exactly():
    s = started(2)
    roman = [[roman_tile(s, 5)], list(s.roman[1])]
    put(s, marker=G.NW, strength=[8, 0], tokens=[0, 0], roman=roman)
    set_hand(s, 0, "")
    play(s, "move 1", "battle N")
    while s.phase != FIGHT:
        s.apply_action("done")
    play(s, "done")
    assert s.strength[0] == 9 and s.roman[0] == [roman_tile(s, 5)] and s.turn == 1


def test_ruling_16_stack_marker_by_the_active_player_not_counted_on_the_track():
    s = started(2)
    roman = [[roman_tile(s, 5)], list(s.roman[1])]
    put(s, marker=G.NW, strength=[8, 0], tokens=[0, 0], roman=roman, track=4)
    set_hand(s, 0, "")
    play(s, "move 1", "battle N")
    while s.phase != FIGHT:
        s.apply_action("done")
    play(s, "fight")
    assert s.pending == [[P_STACK, 0]] and s.track == 4 and s.stage == 0
    play(s, "progress 1")
    assert s.prog_marks[0] == 1 and s.stack_markers[0] == 0


def test_ruling_19_a_marker_with_no_free_slot_is_discarded():
    s = started(2)
    full = [s.data.progress_cards[c][3] for c in s.prog_cards]
    put(s, marker=G.NE, prog_marks=full)
    play(s, "move 1")
    assert not s.pending and s.track == 7 and s.current_player() == 0


# -- Recruit -----------------------------------------------------------------------------------------------


def test_ruling_17_recruit_one_plus_nobles_at_most_three():
    s = started(2)
    put(s, marker=G.SE, strength=[0, 0], tokens=[0, 0], druid=[[], []])
    s.active[0] = workers("N N F")
    s.tribe[0] = workers("N", 5)
    play(s, "move 3") if s.strength[0] >= 3 else None
    put(s, marker=G.NW, phase=3)
    play(s, "recruit N")
    while s.phase not in (15,):
        s.apply_action("done")
    assert "done" not in legal(s)  # the first recruit is mandatory
    play(s, "enlist N", "enlist N")  # recruiting nobles does not reduce the count
    assert "done" in legal(s)
    play(s, "enlist F")
    assert s.tribe[0] == workers("N N N F", 5) and s.phase != 15


def test_ruling_18_druid_tile_paid_by_exact_tribe_workers_druids_cannot_pay():
    s = started(2)
    fn = druid_tile(s, "F N")
    put(s, marker=G.NW, phase=3, strength=[0, 0], tokens=[0, 0], druid=[[fn], list(s.druid[1])])
    s.active[0] = workers("B B B")
    s.tribe[0] = workers("F D", 5)
    play(s, "recruit N")
    while s.phase != 15:
        s.apply_action("done")
    play(s, "enlist B")
    assert s.phase != 16  # no noble in the tribe: no druid tile (the druid cannot pay)


def test_ruling_18_second_druid_costs_two_cards_and_stack_marker():
    s = started(2)
    fn = druid_tile(s, "F N")
    put(s, marker=G.NW, phase=3, strength=[0, 0], tokens=[0, 0], druid=[[fn], list(s.druid[1])])
    s.active[0] = workers("F N B")
    s.tribe[0] = workers("D", 5)
    set_hand(s, 0, "Ow Ow Pt")
    play(s, "recruit N")
    while s.phase != 15:
        s.apply_action("done")
    play(s, "enlist F", "enlist N", "druid")
    assert s.pending == [[P_STACK, 0]]  # the last tile of the stack
    play(s, "progress 1")
    play(s, "pay Ow")
    assert "done" not in legal(s)  # once paying, pay in full
    play(s, "pay Pt")
    assert s.tribe[0][4] == 2 and s.hands[0] == cards("Ow")


def test_ruling_18_discard_down_to_eight():
    s = started(2)
    put(s, marker=G.NW, phase=3, strength=[0, 0], tokens=[0, 0], druid=[[], []])
    s.active[0] = workers("F B S")
    s.tribe[0] = [2, 2, 2, 1, 1]
    play(s, "recruit N")
    while s.phase != 15:
        s.apply_action("done")
    play(s, "enlist F", "done")  # 1 noble: a second recruit declined
    while s.phase != RELEASE:
        s.apply_action(s.legal_actions()[0])
    druids = s.druid_box
    play(s, "release D")
    assert sum(s.tribe[0]) == 8 and s.druid_box == druids + 1 and s.turn == 1


def test_ruling_11_druids_never_count_as_nobles():
    s = started(2)
    put(s, marker=G.NW, phase=3, strength=[0, 0], tokens=[0, 0], druid=[[], []])
    s.active[0] = workers("F B S")
    s.tribe[0] = workers("D D", 5)
    play(s, "recruit N")
    while s.phase != 15:
        s.apply_action("done")
    play(s, "enlist F")
    assert s.phase != 15  # 1 + 0 nobles: a single recruit


def test_example_joana_refills_her_pool_one_worker_at_a_time():
    s = started(2)
    put(s, marker=G.NW, phase=3, strength=[0, 0], tokens=[0, 0], druid=[[], []], centre=row("F S S"))
    s.active[0] = workers("N F F")
    s.bag = [0, 0, 0, 5]
    play(s, "recruit N")
    while s.phase != 15:
        s.apply_action("done")
    play(s, "enlist N", "enlist F")
    assert sorted(legal(s)) == ["centre 1", "centre 2"]
    play(s, "centre 1")
    assert s.centre == row("N S S")  # refilled before the next pick
    assert sorted(legal(s)) == ["centre 1", "centre 2"]


# -- tokens ---------------------------------------------------------------------------------------------


def test_ruling_6_token_to_act_anywhere_replaces_the_move():
    s = started(2)
    put(s, marker=G.SE, strength=[0, 0], tokens=[1, 0])
    play(s, "anywhere")
    assert len(legal(s)) >= 6 and "recruit N" in legal(s)
    play(s, "recruit N")
    assert s.marker == G.SE and s.strength[0] == 0 and s.tokens[0] == 0


def test_ruling_6_option_token_moves_marker():
    s = started(2, token_moves_marker=True)
    put(s, marker=G.SE, strength=[0, 0], tokens=[1, 0])
    play(s, "anywhere")
    assert sorted(legal(s)) == ["move 1", "move 2"]
    play(s, "move 1")
    assert s.marker == G.SW and "recruit N" in legal(s) and "battle N" in legal(s)


def test_ruling_7_tokens_as_extra_workers():
    s = started(2)
    put(s, marker=G.SE, strength=[0, 0], tokens=[2, 0])
    s.active[0] = workers("B B S")
    s.tribe[0] = [0, 0, 0, 0, 0]
    play(s, "move 2", "farm N")
    while s.phase != 6:
        s.apply_action("done")
    play(s, "extra", "extra")  # two virtual farmers
    assert s.tokens[0] == 0 and s.ctx.boost == 2
    assert "take 6" in legal(s) and "take 5" in legal(s)
    play(s, "take 5")
    assert s.turn == 1 and s.tribe[0] == [0] * 5  # virtual workers never stay


# -- leaders, end ------------------------------------------------------------------------------------------


def test_ruling_21_leader_flip_blind_and_simultaneous():
    s = started(3)
    put(s, marker=G.NE, track=s.data.flip_at + 1)
    play(s, "move 1", "progress 1")
    assert s.pending[0][0] == P_FLIP and s.current_player() == 0
    play(s, "flip")
    assert s.current_player() == 1
    obs1 = s.observation(1)
    assert obs1["players_info"][0]["flip"] == "decided"  # hidden from the others
    assert s.observation(0)["players_info"][0]["flip"] == "flip"
    assert s.leader_side[0] == 0  # not revealed yet
    assert s.log(1)[-1] == {"seat": 0, "action": "decided"} and s.log(0)[-1]["action"] == "flip"
    assert s.log(None)[-1]["action"] == "decided"
    play(s, "keep", "flip")
    assert s.leader_side == [1, 0, 1] and s.flip_revealed
    assert s.observation(1)["players_info"][0]["flip"] == "flip"
    assert [e["action"] for e in s.log(None)[-3:]] == ["flip", "keep", "flip"]


def test_ruling_22_end_trigger_by_the_last_player_then_double_turns():
    s = started(3)
    put(s, marker=G.NE, turn=2, track=1)
    play(s, "move 1", "progress 1")
    assert s.stage == 1
    starts = []
    import random

    rng = random.Random(3)
    while not s.is_terminal():
        before = s.phase
        s.apply_action(rng.choice(s.legal_actions()))
        if s.phase == START and before != START:
            starts.append(s.turn)
    assert starts == [0, 0, 1, 1, 2, 2]


# -- scoring ---------------------------------------------------------------------------------------------


def test_ruling_23_majority_needs_one_and_ties_share():
    s = started(3)
    put(s, prog_cards=[progress_card(s, "roman_maj")], prog_marks=[3], roman_won=[[], [], []])
    assert [s.score_breakdown(p)["J"] for p in range(3)] == [0, 0, 0]
    put(s, roman_won=[[roman_tile(s, 4)], [roman_tile(s, 5)], []])
    assert [s.score_breakdown(p)["J"] for p in range(3)] == [3, 3, 0]


def test_ruling_24_scoring_details():
    s = started(2)
    put(s, strength=[7, 0], cubes=[4, 3], garrison=[[0, 0, 1, 1, -2, -2], [0, 0, 1, -1, -2, -2]])
    set_hand(s, 0, "Ow Ow Ow")
    s.tribe[0] = [1, 1, 1, 0, 3]  # 6 with druids: spaces 4 and 6
    got = s.score_breakdown(0)
    assert got["I"] == 2 and got["H"] == 1 and got["F"] == 2
    assert got["E"] == 2 + 2  # tied in the North, most in the South


def test_ruling_25_tie_breaks():
    s = started(2)
    put(
        s, discs=[3, 2], tribe=[[1, 0, 0, 0, 1], [1, 1, 1, 0, 0]], roman_won=[[0], []], druid_won=[[], [0, 1]]
    )
    assert s._tiebreak(0) == (5, 1) and s._tiebreak(1) == (5, 2)


def test_leader_scores_side_a_or_b_only_when_met():
    s = started(2)
    boudica = next(i for i, ld in enumerate(s.data.leaders) if ld["name"] == "Boudica")
    put(s, leaders=[boudica, boudica], leader_side=[0, 1], discs=[3, 6])
    assert s.score_breakdown(0)["K"] == 1 and s.score_breakdown(1)["K"] == 0
    put(s, discs=[3, 7])
    assert s.score_breakdown(1)["K"] == 3


def test_completed_citadel_scores_each_disc():
    s = started(2)
    cit = [list(c) for c in s.citadels]
    cit[0] = [0, 0, 1, -2, -2]
    cit[1] = [0, -1, -1, -2, -2]
    put(s, citadels=cit)
    assert s.score_breakdown(0)["A"] == 2 and s.score_breakdown(1)["A"] == 1


def test_garbage_and_illegal_change_nothing():
    s = started(2)
    before = s.to_json()
    for text in ("fly away", "move 9", "take 0", ""):
        with pytest.raises(ludus.IllegalActionError):
            s.apply_action(text)
    with pytest.raises(ludus.IllegalActionError, match="must move the action marker"):
        s.apply_action("fight")
    assert s.to_json() == before
    assert card("Tf") == 11


def test_ruling_7_an_empty_token_supply_gives_no_token():
    s = started(2)
    bonus_at = list(s.bonus_at)
    bonus_at[ORANGE] = s.data.bonus_kinds.index("token")
    put(s, marker=G.SE, strength=[0, 0], tokens=[0, 0], bonus_at=bonus_at, token_supply=0)
    set_hand(s, 0, "Ow")
    play(s, "move 2", "build N")
    while s.phase != 8:
        s.apply_action("done")
    play(s, "citadel O")
    assert s.tokens[0] == 0 and s.token_supply == 0 and s.discs[0] == 1


def test_ruling_9_farm_or_build_is_announced_before_the_swap():
    s = started(2)
    areas = [list(a) for a in s.areas]
    areas[G.AREA_FB_NORTH] = row("B F F")
    put(s, marker=G.SE, strength=[0, 0], tokens=[0, 0], areas=areas)
    set_hand(s, 0, "Ow")
    play(s, "move 2", "farm N")
    assert s.ctx.kind == G.FARM and all(a.startswith(("swap", "done")) for a in legal(s))
    play(s, "swap F 1")  # no farmer left: only the free card
    assert s.discs[0] == 0 and sum(s.hands[0]) == 2 and s.turn == 1  # it stayed a Farm


# -- progress: exactly the NE -> SE crossing (the marker returns to, or passes, its start) ---------------


@pytest.mark.parametrize(
    "corner,steps,crosses",
    [
        ("NE", 1, True),
        ("NE", 2, True),
        ("NE", 3, True),  # a 3-step move from NE passes SE too
        ("SE", 1, False),
        ("SE", 2, False),
        ("SE", 3, False),  # SE -> ... -> NE stops short of the river
        ("SW", 1, False),
        ("SW", 2, False),
        ("SW", 3, True),
        ("NW", 1, False),
        ("NW", 2, True),
        ("NW", 3, True),
    ],
)
def test_progress_triggers_exactly_when_the_marker_crosses_from_ne_to_se(corner, steps, crosses):
    s = started(3)
    put(s, marker={"NE": G.NE, "SE": G.SE, "SW": G.SW, "NW": G.NW}[corner], strength=[3, 0, 0], teutates=2)
    track = s.track
    play(s, f"move {steps}")
    assert s.pending == ([[P_TRACK, 2]] if crosses else [])
    assert s.track == track - crosses and s.teutates == (0 if crosses else 2)


def test_tie_break_discs_and_tribe_then_tiles_decides_the_winner():
    s = started(2)
    put(
        s,
        discs=[3, 2],
        tribe=[[1, 0, 0, 0, 1], [1, 1, 1, 0, 0]],
        roman_won=[[0], []],
        druid_won=[[], [0, 1]],
        phase=20,
        leaders=[-1, -1],
        strength=[0, 0],
        cubes=[0, 0],
    )
    set_hand(s, 0, "")
    set_hand(s, 1, "")
    assert s.is_terminal() and s.scores()[0] == s.scores()[1]
    assert s.winners() == [1]  # 5 = 5 discs and workers; 1 < 2 tiles
    put(s, discs=[2, 2], tribe=[[1, 1, 0, 0, 0]] * 2, roman_won=[[0], [1]], druid_won=[[], []])
    assert (
        s.scores()[0] == s.scores()[1] and s.winners() == [0, 1] and s.returns() == [0.5, 0.5]
    )  # still tied: a shared victory


def test_ruling_24_h_needs_all_four_cubes():
    s = started(2)
    put(s, cubes=[4, 3])
    assert s.score_breakdown(0)["H"] == 1 and s.score_breakdown(1)["H"] == 0


def test_ruling_7_a_token_as_an_extra_noble_recruits_one_more():
    s = started(2)
    put(s, marker=G.SE, strength=[0, 0], tokens=[1, 0], druid=[[], []], areas=[row("F F F")] * 4)
    s.active[0] = workers("F B S")
    s.tribe[0] = [0, 0, 0, 0, 0]
    play(s, "move 2", "recruit N")  # SE -> NW
    while s.phase != 6:  # to the token decision
        s.apply_action("done")
    play(s, "extra", "enlist F")
    assert "done" in legal(s)  # 1 + 1 virtual noble: a second recruit is allowed
    play(s, "enlist B")
    assert s.phase != 15 and s.tribe[0] == workers("F B", 5)  # and no third


@pytest.mark.parametrize("players,trigger", [(2, 0), (2, 1), (4, 1), (4, 3)])
def test_ruling_22_the_round_ends_then_double_turns_from_the_first_player(players, trigger):
    import random

    s = started(players)
    put(s, marker=G.NE, turn=trigger, track=1, teutates=(trigger + 1) % players)
    play(s, "move 1", "progress 1")  # the last track marker: the end is triggered
    assert s.stage == 1 and s.track == 0
    starts = []
    rng = random.Random(players * 10 + trigger)
    while not s.is_terminal():
        before = s.phase
        s.apply_action(rng.choice(s.legal_actions()))
        if s.phase == START and before != START:
            starts.append(s.turn)
    finish = list(range(trigger + 1, players))  # single turns up to the one before the first player
    assert starts == finish + [seat for seat in range(players) for _ in (1, 2)]
