"""Solitairix solo mode: set-up, its automatic turn, progress and the solo scoring (rulings 3, 27-31)."""

from __future__ import annotations

import json

import pytest

import ludus
from ludus.games.celtae import board as G
from ludus.games.celtae.core import FIGHT, P_STACK, P_TRACK, START
from ludus.games.celtae.solo import SX, solitairix_turn

from .helpers import (
    ORANGE,
    TEAL,
    card,
    play,
    play_random,
    progress_card,
    put,
    roman_tile,
    row,
    started,
    workers,
)


def solo(seed: int = 0, **options):
    return started(1, seed, difficulty="normal", **options)


def test_ruling_3_solo_set_up():
    s = ludus.load_game("celtae", players=1, difficulty="easy").new_initial_state(seed=4)
    assert s.current_player() == 0
    assert len(s.offered) == 3  # draw 3 leaders, keep 1
    assert s.citadels[0].count(-2) == 2  # set up as 2 players
    assert s.sx_worker in (0, 1, 2) and s.strength[SX] == 0 and s.tokens[SX] == 0
    assert sum(s.hands[SX]) == 0
    assert s.sx_quarter == 0 and s.sx_side in (0, 1)
    # 16 of each kind, less 2 returned for the absent seats (2-player set-up); Solitairix's other two in the bag
    in_play = [
        s.bag[t] + sum(a.count(t) for a in s.areas) + s.centre.count(t) + s.active[0][t] + (s.sx_worker == t)
        for t in range(3)
    ]
    assert in_play == [14, 14, 14]


def test_example_solitairix_turn_build_falls_through_to_farm():
    s = solo()
    cit = [list(c) for c in s.citadels]
    cit[0 * 4 + TEAL] = [1, 0, 1, -2, -2]  # the teal citadel of the North is complete
    market = [[card(c) for c in ["Ow", "Pt", "Uf", "Tw", "Pw", "Ot"]], list(s.market[1])]
    areas = [list(a) for a in s.areas]
    areas[G.AREA_FB_NORTH] = row("N B F")
    put(
        s,
        marker=G.NW,
        citadels=cit,
        market=market,
        areas=areas,
        sx_side=0,
        sx_quarter=2,
        sx_worker=2,
        discard=[card("Uw")],
    )
    s.deck.append(card("Tw"))  # Solitairix draws a teal warrior; the discard pile shows a purple warrior
    deck_before = len(s.deck)
    solitairix_turn(s)
    assert s.marker == G.NE  # different colour: 1 corner
    assert s.sx_quarter == 0  # same icon: rotated twice, to "build, then farm"
    assert s.discs[SX] == 0  # the teal citadel is complete: no build
    assert s.areas[G.AREA_FB_NORTH] == row("S B F") and s.sx_worker == 3  # swapped with the leftmost worker
    # Farm discards the 1st, 2nd, 5th and 6th cards, then the market slides and refills
    assert s.discard[-5:] == [card("Ow"), card("Pt"), card("Pw"), card("Ot"), card("Tw")]
    assert s.market[0][:2] == [card("Uf"), card("Tw")] and -1 not in s.market[0]
    assert len(s.deck) == deck_before - 1 - 4


def test_ruling_27_empty_discard_pile_compares_as_different():
    s = solo()
    put(s, marker=G.SE, discard=[], sx_quarter=0)
    s.deck.append(card("Ow"))
    solitairix_turn(s)
    assert s.marker == G.SW and s.sx_quarter == 1


def test_solitairix_same_colour_moves_two():
    s = solo()
    put(s, marker=G.SE, discard=[card("Ot")], sx_quarter=0)
    s.deck.append(card("Ow"))
    solitairix_turn(s)
    assert s.marker == G.NW and s.sx_quarter == 1
    assert s.discard[-1] == card("Ow")  # its card ends on the discard pile


def test_ruling_30_a_crossing_on_solitairix_move_is_placed_by_the_human():
    s = solo()
    put(s, marker=G.NE, discard=[card("Ot")])
    s.deck.append(card("Pw"))
    track = s.track
    solitairix_turn(s)
    assert s.track == track - 1 and s.pending == [[P_TRACK, 0]]


def test_solitairix_battle_always_wins_and_places_a_cube_by_icon():
    s = solo()
    put(s, marker=G.NW, sx_side=0, sx_quarter=0, discard=[card("Pt")])  # +1 -> quarter 2: battle first
    s.deck.append(card("Of"))
    top = s.roman[0][-1]
    solitairix_turn(s)
    assert s.roman_won[SX] == [top] and s.strength[SX] == 0
    assert SX in s.garrison[0][4:6]  # a fortress space


def test_ruling_30_markers_of_stacks_solitairix_empties_are_discarded():
    s = solo()
    put(
        s, marker=G.NW, sx_side=0, sx_quarter=0, discard=[card("Pt")], roman=[[roman_tile(s, 13)], s.roman[1]]
    )
    s.deck.append(card("Of"))
    solitairix_turn(s)
    assert s.roman[0] == [] and s.sx_discarded_markers == 1 and not s.pending


def test_solitairix_recruit_takes_a_druid_tile_and_a_druid():
    s = solo()
    put(s, marker=G.NW, sx_side=0, sx_quarter=1, discard=[card("Pt")])  # +1 -> quarter 3: recruit first
    s.deck.append(card("Of"))
    top = s.druid[0][-1]
    supply = s.druid_supply[0]
    solitairix_turn(s)
    assert s.druid_won[SX] == [top] and s.druid_supply[0] == supply - 1 and s.tribe[SX][4] == 1


def test_ruling_28_solitairix_acts_away_from_the_marker_unless_solo_adjacent():
    for adjacent, expected in ((False, "recruit"), (True, "build")):
        s = solo(solo_adjacent=adjacent)
        # at SE Recruit is not beside the marker; quarter 3 of side 1 tries recruit, build, farm
        put(s, marker=G.NE, sx_side=0, sx_quarter=1, discard=[card("Pt")], turn=SX)
        s.deck.append(card("Of"))
        assert not solitairix_turn(s)  # NE -> SE crosses the river: the human places the marker first
        play(s, "progress 1")
        assert s.marker == G.SE and s.turn == 0
        if expected == "recruit":
            assert s.druid_won[SX]
        else:
            assert not s.druid_won[SX] and s.discs[SX] == 1 and SX in s.citadels[4 + ORANGE]


def test_ruling_29_refresh_is_free_and_swaps_nothing():
    s = solo()
    areas = [list(a) for a in s.areas]
    areas[G.AREA_FB_SOUTH] = row("F F F")
    put(
        s,
        marker=G.SE,
        sx_side=0,
        sx_quarter=2,
        discard=[card("Pt")],
        areas=areas,
        centre=row("N N N"),
        sx_worker=1,
    )
    s.deck.append(card("Of"))  # +1 -> quarter 4 (farm; refresh)
    solitairix_turn(s)
    assert s.areas[G.AREA_FB_SOUTH] == row("N N N") and s.sx_worker == 1


def test_ruling_29_swap_with_an_empty_space_does_nothing():
    s = solo()
    areas = [list(a) for a in s.areas]
    areas[G.AREA_FB_NORTH] = row(". B F")
    put(s, marker=G.NW, sx_side=0, sx_quarter=2, discard=[card("Uw")], areas=areas, sx_worker=2)
    s.deck.append(card("Tw"))
    solitairix_turn(s)  # quarter 1: build teal (a free citadel) with a swap of the leftmost worker
    assert s.sx_worker == 2 and s.areas[G.AREA_FB_NORTH][0] == -1
    assert s.discs[SX] == 1 and SX in s.citadels[TEAL]


def test_solo_turns_alternate_and_the_human_is_always_to_move():
    s = solo(3)
    for _ in range(60):
        if s.is_terminal():
            break
        assert s.current_player() == 0
        play_random(s, seed=1, upto=1)
    assert s.current_player() in (0, ludus.TERMINAL)


def test_ruling_31_solo_scoring_joana_example():
    s = solo()
    cards_ = [
        progress_card(s, "workers_maj"),
        progress_card(s, "worker_maj", 0),
        progress_card(s, "bonus_min"),
        progress_card(s, "colour_min", TEAL),
        progress_card(s, "roman_min", -1, 3),
    ]
    cit = [list(c) for c in s.citadels]
    cit[TEAL] = [0, 0, -1, -2, -2]
    cit[4 + TEAL] = [0, -1, -1, -2, -2]
    r = [roman_tile(s, x) for x in (4, 5, 8)]
    put(
        s,
        prog_cards=cards_,
        prog_marks=[1, 2, 0, 2, 3],
        citadels=cit,
        discs=[3, 0],
        tribe=[workers("F F B S N N", 5), [0, 0, 0, 0, 0]],
        roman_won=[r, []],
    )
    got = s.score_breakdown(0)
    assert got["J"] == 1 - 2 + 0 + 2 + 3


def test_ruling_31_majorities_compare_with_solitairix():
    s = solo()
    card_ = progress_card(s, "roman_maj")
    put(s, prog_cards=[card_], prog_marks=[2])
    put(s, roman_won=[[], []])
    assert s.score_breakdown(0)["J"] == -2  # 0 against 0 fails
    put(s, roman_won=[[roman_tile(s, 4)], [roman_tile(s, 5)]])
    assert s.score_breakdown(0)["J"] == 2  # a tie counts for you
    put(s, roman_won=[[roman_tile(s, 4)], [roman_tile(s, 5), roman_tile(s, 6)]])
    assert s.score_breakdown(0)["J"] == -2
    # garrison majority (E) against Solitairix
    put(s, garrison=[[0, 0, 1, -1, -2, -2], [-1] * 4 + [-2] * 2], cubes=[2, 1])
    assert s.score_breakdown(0)["E"] == 2
    put(s, garrison=[[0, 1, 1, -1, -2, -2], [-1] * 4 + [-2] * 2], cubes=[1, 2])
    assert s.score_breakdown(0)["E"] == 0


def test_solo_worker_majorities_need_the_printed_minimum():
    s = solo()
    put(s, prog_cards=[progress_card(s, "worker_maj", 0)], prog_marks=[1], tribe=[workers("F F", 5), [0] * 5])
    assert s.score_breakdown(0)["J"] == -1
    s.tribe[0] = workers("F F F", 5)
    assert s.score_breakdown(0)["J"] == 1


@pytest.mark.parametrize("difficulty,target", [("easy", 25), ("normal", 30), ("hard", 35)])
def test_solo_win_against_the_difficulty_target(difficulty, target, monkeypatch):
    s = started(1, 2, difficulty=difficulty)
    play_random(s, seed=2)
    assert s.is_terminal() and s.scores() == [s.score_breakdown(0)["total"]]
    assert s.winners() == ([0] if s.scores()[0] >= target else [])
    score = s.scores()[0]
    monkeypatch.setitem(s.data.targets, difficulty, score)  # a target just met ...
    assert s.winners() == [0] and s.returns() == [1.0]
    monkeypatch.setitem(s.data.targets, difficulty, score + 1)  # ... and one just missed
    assert s.winners() == [] and s.returns() == [0.0]


def test_solo_end_human_double_turn_then_solitairix(monkeypatch):
    from ludus.games.celtae import solo as solo_module

    order = []
    real = solo_module.solitairix_turn

    def recorded(state):
        done = real(state)
        if done:
            order.append("X")
        return done

    monkeypatch.setattr(solo_module, "solitairix_turn", recorded)
    s = solo(5)
    put(s, marker=G.NE, track=1)
    play(s, "move 1")  # the human triggers the end
    assert s.stage == 1
    play(s, "progress 1")
    import random

    rng = random.Random(0)
    while not s.is_terminal():
        before = (s.phase, s.turn, len(order))
        s.apply_action(rng.choice(s.legal_actions()))
        if s.phase == START and s.turn == 0 and (before[0] != START or len(order) != before[2]):
            order.append("H")
    # the human finishes the turn; Solitairix's turn ends the round; then the human's double turn, then its
    assert order == ["X", "H", "H", "X", "X"]
    assert s.stage == 2


def test_solo_leader_flip_is_the_human_decision():
    s = solo()
    put(s, marker=G.NE, track=s.data.flip_at + 1)
    play(s, "move 1", "progress 1")
    assert s.current_player() == 0 and sorted(x for x in ["flip", "keep"]) == sorted(
        str(a) for a in s.legal_actions()
    )
    play(s, "flip")
    assert s.leader_side[0] == 1


def _end_human_turn(s) -> None:
    """Decline every optional choice until the human's turn is over (or a decision is pending)."""
    while s.turn == 0 and not s.pending:
        s.apply_action("done")


def test_ruling_5_a_crossing_on_solitairix_move_is_placed_before_its_action():
    s = solo()
    put(s, marker=G.NW, strength=[0, 0], tokens=[0, 0], discard=[card("Pt")], sx_side=0, sx_quarter=2)
    s.hands[0] = [0] * 12
    s.known[0] = [0] * 12
    s.deck.append(card("Of"))  # Solitairix will draw it: a different colour, 1 corner, NE -> SE
    last, deck = list(s.last_sx), len(s.deck)
    play(s, "move 1", "battle N")  # NW -> NE: no crossing for the human
    _end_human_turn(s)
    # Solitairix has drawn and moved; its swap and action wait for the human's placement
    assert s.pending == [[P_TRACK, 0]] and s.current_player() == 0 and s.turn == SX
    assert s.marker == G.SE and len(s.deck) == deck - 1 and card("Of") not in s.discard[-1:]
    assert s.last_sx == last and s.sx_quarter == 3
    json.dumps(s.observation(0))
    assert s.observation(None)["solitairix"]["drawn"] == "Of"  # the waiting card is public
    assert s.resample(0, 1).observation(0) == s.observation(0)
    play(s, "progress 1")
    assert s.turn == 0 and s.phase == START and not s.pending
    assert s.observation(None)["solitairix"]["drawn"] is None
    assert s.discard[-1] == card("Of") and s.last_sx[0] == card("Of") and s.last_sx[4] == G.SOUTH


def test_ruling_16_a_stack_marker_is_placed_before_solitairix_turn():
    s = solo()
    put(
        s,
        marker=G.SE,
        strength=[8, 0],
        tokens=[1, 0],
        roman=[[roman_tile(s, 5)], list(s.roman[1])],
        discard=[card("Pt")],
    )
    s.hands[0] = [0] * 12
    s.known[0] = [0] * 12
    s.deck.append(card("Of"))  # Solitairix's card: 1 corner, SE -> SW, no crossing
    deck = len(s.deck)
    play(s, "anywhere", "battle N")
    while s.phase != FIGHT:
        s.apply_action("done")
    play(s, "fight")  # the last tile of the North: no card for a cube, so the turn ends
    assert s.pending == [[P_STACK, 0]] and s.turn == SX
    assert len(s.deck) == deck and s.marker == G.SE and not s.last_sx  # Solitairix has not drawn yet
    play(s, "progress 1")
    assert s.turn == 0 and s.phase == START and not s.pending
    assert s.marker == G.SW and s.discard[-1] == card("Of") and s.last_sx[0] == card("Of")


def test_ruling_30_end_triggered_on_solitairix_move_then_double_turns(monkeypatch):
    from ludus.games.celtae import solo as solo_module

    order = []
    real = solo_module.solitairix_turn

    def recorded(state):
        done = real(state)
        order.append("X" if done else "x")  # x: paused after its move
        return done

    monkeypatch.setattr(solo_module, "solitairix_turn", recorded)
    s = solo(4)
    put(s, marker=G.NW, track=1, strength=[0, 0], tokens=[0, 0])
    s.hands[0] = [0] * 12
    s.known[0] = [0] * 12
    play(s, "move 1", "battle N")  # NW -> NE: the human does not cross
    _end_human_turn(s)
    assert order == ["x"] and s.stage == 1 and s.pending == [[P_TRACK, 0]]  # Solitairix crossed: the end
    play(s, "progress 1")
    assert order == ["x", "X"] and s.turn == 0 and s.stage == 2  # its turn ended the round
    order.append("H")  # the human's double turn begins
    import random

    rng = random.Random(0)
    while not s.is_terminal():
        before = (s.phase, len(order))
        s.apply_action(rng.choice(s.legal_actions()))
        if s.phase == START and s.turn == 0 and (before[0] != START or len(order) != before[1]):
            order.append("H")
    assert order == ["x", "X", "H", "H", "X", "X"]  # the human's double turn, then Solitairix's


def test_joanas_solo_example_can_be_dealt():
    """Her scored cards (majority of workers, majority of farmers with 2 markers, 2+ teal discs,
    3+ Roman Army tiles with 3 markers) come together in a solo deal of 3 two-slot and 2
    three-slot cards."""
    s = solo()
    hers = {
        progress_card(s, "workers_maj"),
        progress_card(s, "worker_maj", 0),
        progress_card(s, "colour_min", TEAL),
        progress_card(s, "roman_min", -1, 3),
    }
    game = ludus.load_game("celtae", players=1)
    for seed in range(40_000):
        dealt = game.new_initial_state(seed=seed).prog_cards
        if hers <= set(dealt):
            break
    else:
        pytest.fail("no solo deal holds Joana's cards")
    slots = [s.data.progress_cards[c][3] for c in dealt]
    assert sorted(slots) == [2, 2, 2, 3, 3]
