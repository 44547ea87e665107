"""Every example of the Celtae rulebook, reproduced from a constructed position."""

from __future__ import annotations

import random

from ludus.games.celtae import board as G
from ludus.games.celtae.core import P_STACK, P_TRACK, START

from .helpers import (
    ORANGE,
    PINK,
    PURPLE,
    TEAL,
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


def test_example_joana_moves_two_corners_for_the_north():
    s = started(3)
    put(s, marker=G.SE, strength=[2, 2, 2], turn=0)
    set_hand(s, 0, "Ow Ow Ow Ow Ow")
    play(s, "move 2")
    assert s.marker == G.NW
    assert s.strength[0] == 2  # 2 steps: no gain, no loss
    assert not s.pending  # SE -> SW -> NW does not cross the river
    assert sorted(legal(s)) == ["build N", "farm N", "recruit N"]


def test_example_joana_refreshes_the_recruit_area_and_swaps_for_the_noble():
    s = started(3)
    areas = [list(a) for a in s.areas]
    areas[G.AREA_RECRUIT] = row("F F S")  # no noble there
    put(s, marker=G.SE, strength=[1, 0, 0], areas=areas, centre=row("N B F"), tokens=[0, 0, 0])
    s.active[0] = workers("F B S")
    workers_out = sum(s.bag)
    play(s, "move 2", "recruit N")
    assert legal(s) == ["refresh", "done"]
    play(s, "refresh")
    assert s.strength[0] == 0  # 1 strength spent
    assert s.areas[G.AREA_RECRUIT] == row("N B F")  # the centre's workers moved in
    assert all(w >= 0 for w in s.centre)  # and the centre was refilled from the bag
    assert sum(s.bag) == workers_out + 3 - 3
    assert "swap S 1" in legal(s)  # her soldier for the noble
    play(s, "swap S 1")
    assert s.active[0] == workers("F B N")
    assert s.areas[G.AREA_RECRUIT][0] == 2  # the soldier took the noble's space


def test_example_ines_farms_with_two_farmers():
    s = started(3)
    areas = [list(a) for a in s.areas]
    areas[G.AREA_FB_NORTH] = row("F B B")
    put(s, marker=G.NW, strength=[0, 0, 0], areas=areas, tokens=[0, 0, 0])
    s.active[0] = workers("F B S")
    s.tribe[0] = [0, 0, 0, 0, 0]
    set_hand(s, 0, "")
    s.market[0] = [card(c) for c in ["Ow", "Pt", "Uf", "Tw", "Pw", "Ot"]]
    deck_top = s.deck[-3:]
    play(s, "move 1", "farm N", "done", "swap S 1")  # NW -> NE, +1 strength; no refresh; soldier for farmer
    assert s.active[0] == workers("F F B")
    assert s.hands[0][card("Ow")] == 1  # the leftmost card is free
    # 2 farmers: two of positions 2-4 (1 farmer each) or one of positions 5-6 (2 farmers each)
    assert sorted(legal(s)) == ["done", "take 2", "take 3", "take 4", "take 5", "take 6"]
    play(s, "take 2")
    assert sorted(legal(s)) == ["done", "take 3", "take 4"]
    play(s, "take 3")  # no farmer left: the action ends
    assert s.hands[0] == cards("Ow Pt Uf")
    # the rest slide left and the market refills from the deck
    assert s.market[0][:3] == [card("Tw"), card("Pw"), card("Ot")]
    assert s.market[0][3:] == list(reversed(deck_top))
    assert s.turn == 1


def test_example_afonso_builds_with_a_discount_of_three():
    s = started(3)
    areas = [list(a) for a in s.areas]
    areas[G.AREA_FB_SOUTH] = row("S B F")
    citadels = [list(c) for c in s.citadels]
    idx = 4 + ORANGE  # the orange citadel of the South
    citadels[idx] = [1, 2, 1, -1, -2]  # one free space left
    bonus_at = list(s.bonus_at)
    bonus_at[idx] = s.data.bonus_kinds.index("token")
    put(
        s,
        marker=G.SE,
        strength=[0, 0, 0],
        areas=areas,
        tokens=[0, 0, 0],
        citadels=citadels,
        bonus_at=bonus_at,
        discs=[6, 2, 1],
    )
    s.active[0] = workers("F B S")
    s.tribe[0] = workers("B", 5)
    set_hand(s, 0, "Ow Pt Pt Tf")
    supply = s.token_supply
    play(s, "move 1", "build S", "done")  # SE -> SW, +1 strength; no refresh
    play(s, "swap F 2")  # his farmer for the builder
    assert s.active[0] == workers("B B S")
    # cost 4 under his 7th disc, -3 for 2 active builders and 1 in the tribe: 1 orange card
    assert sorted(legal(s)) == ["citadel O", "citadel P", "citadel T"]  # 1 card of any colour
    play(s, "citadel O")
    assert s.hands[0] == cards("Pt Pt Tf")
    assert s.citadels[idx][3] == 0 and s.discs[0] == 7
    assert s.tokens[0] == 1 and s.token_supply == supply - 1  # the citadel's bonus: a bonus token
    assert s.bonus_owner[idx] == 0  # he completed it: the bonus tile is his (1 point)
    assert s.score_breakdown(0)["B"] == 1


def test_example_afonso_battles_a_roman_army_of_strength_ten():
    s = started(3)
    areas = [list(a) for a in s.areas]
    areas[G.AREA_BATTLE] = row("F B N")  # no soldier to swap for
    roman = [list(s.roman[0]), list(s.roman[1])]
    ten = roman_tile(s, 10)
    for stack in roman:
        if ten in stack:
            stack.remove(ten)
    roman[0].append(ten)
    garrison = [list(g) for g in s.garrison]
    garrison[0] = [-1, -1, 1, 2, -1, -1]  # both trap spaces taken in the North
    put(s, marker=G.NW, strength=[3, 0, 0], areas=areas, tokens=[0, 0, 0], roman=roman, garrison=garrison)
    s.active[0] = workers("S S F")
    s.tribe[0] = [0, 0, 0, 0, 0]
    set_hand(s, 0, "Ow Pw Tw Uw Of Ut")
    play(s, "move 1", "battle N", "done", "done")  # NW -> NE +1 = 4; no refresh; no swap
    assert s.strength[0] == 4
    for c in ("Ow", "Pw", "Tw"):
        play(s, f"discard {c}")  # 2 soldiers: 2 strength per card
    assert s.strength[0] == 10
    assert "discard Of" not in legal(s)  # all discards share one icon
    play(s, "done")
    assert legal(s) == ["fight", "done"]
    play(s, "fight")
    assert s.strength[0] == 0 and s.roman_won[0] == [ten]
    assert s.score_breakdown(0)["D"] == 2
    # a cube needs a card whose icon matches a free space: warrior or fortress, not trap
    assert sorted(legal(s)) == ["done", "garrison Of", "garrison Uw"]
    play(s, "garrison Of")
    assert s.cubes[0] == 1 and 0 in s.garrison[0][4:6]
    assert s.hands[0] == cards("Uw Ut")


def test_example_ines_recruits_and_trains_a_druid():
    s = started(3)
    areas = [list(a) for a in s.areas]
    areas[G.AREA_RECRUIT] = row("N B B")
    druid = [list(s.druid[0]), list(s.druid[1])]
    fn = druid_tile(s, "F N")
    for stack in druid:
        if fn in stack:
            stack.remove(fn)
    druid[0].append(fn)
    put(s, marker=G.SW, strength=[0, 0, 0], areas=areas, tokens=[0, 0, 0], druid=druid, centre=row("F S F"))
    s.active[0] = workers("F S B")
    s.tribe[0] = workers("B", 5)
    set_hand(s, 0, "Ow Pt")
    supply = s.druid_supply[0]
    play(s, "move 1", "recruit N", "done", "swap S 1")  # SW -> NW +1; no refresh; soldier for the noble
    assert s.active[0] == workers("F B N")
    play(s, "enlist F")  # the free recruit
    assert "done" in legal(s)  # 1 noble: one optional extra recruit
    play(s, "enlist N")
    assert s.tribe[0] == workers("F B N", 5)
    assert legal(s) == ["druid", "done"]
    bag_before = list(s.bag)
    play(s, "druid")  # returns the farmer and the noble to the bag
    assert s.bag[0] == bag_before[0] + 1 and s.bag[3] == bag_before[3] + 1
    assert s.druid_won[0] == [fn] and s.score_breakdown(0)["C"] == 1
    # her first druid costs 1 card
    assert sorted(legal(s)) == ["done", "pay Ow", "pay Pt"]
    play(s, "pay Ow")
    assert s.tribe[0] == workers("B D", 5) and s.druid_supply[0] == supply - 1
    # then the pool refills to 3 from the centre, one worker at a time
    assert sorted(legal(s)) == ["centre 1", "centre 2"]
    play(s, "centre 2")
    assert s.active[0][2] == 1 and s.centre[1] >= 0


def test_example_progress_and_the_teutates_tile():
    s = started(3)
    put(s, marker=G.NE, turn=2, teutates=1, strength=[0, 0, 0])
    track = s.track
    play(s, "move 1")  # Joana (seat 2) crosses the river
    assert s.pending == [[P_TRACK, 1]] and s.current_player() == 1  # Afonso holds the tile
    assert s.track == track - 1
    wm = progress_card(s, "workers_maj")
    put(s, prog_cards=[wm] + s.prog_cards[1:])
    play(s, "progress 1")
    assert s.prog_marks[0] == 1
    assert s.teutates == 2  # passed to Joana, on Afonso's left
    assert s.current_player() == 2


def test_example_joana_defeats_the_last_army_without_cards():
    s = started(3)
    roman = [list(s.roman[0]), [roman_tile(s, 4)]]
    for stack in (roman[0],):
        if roman_tile(s, 4) in stack:
            stack.remove(roman_tile(s, 4))
    put(s, marker=G.NE, turn=0, strength=[6, 0, 0], roman=roman)
    set_hand(s, 0, "")
    track = s.track
    play(s, "anywhere", "battle S")
    while s.phase != 13:  # to the fight
        s.apply_action("done")
    play(s, "fight")
    assert s.roman[1] == [] and s.roman_won[0] == [roman_tile(s, 4)]
    assert s.pending == [[P_STACK, 0]]  # she places the stack's progress marker
    assert s.track == track  # the track is not touched
    play(s, "progress 2")
    assert s.prog_marks[1] == 1
    assert s.turn == 1  # no card for a cube: the turn is over


def test_example_end_of_the_game():
    s = started(3)
    put(s, marker=G.NE, turn=0, teutates=1, track=1, strength=[0, 0, 0])
    play(s, "move 1")  # Afonso crosses; Ines places the last marker
    assert s.current_player() == 1 and s.stage == 1
    play(s, "progress 1")
    order = [s.turn]
    rng = random.Random(1)
    while not s.is_terminal():
        before = s.phase
        s.apply_action(rng.choice(s.legal_actions()))
        if s.phase == START and before != START:
            order.append(s.turn)
    # Afonso finishes; Ines and Joana end the round; then a double turn each
    assert order == [0, 1, 2, 0, 0, 1, 1, 2, 2]


def test_example_afonso_scores_27():
    s = started(3)
    cit = [list(c) for c in s.citadels]
    cit[0 * 4 + ORANGE] = [0, 0, 0, 1, -2]
    cit[0 * 4 + 1] = [0, 0, 1, 2, -2]
    cit[4 + TEAL] = [0, 1, 2, -1, -2]
    cit[4 + PURPLE] = [0, 1, 1, 2, -2]
    for i in (2, 3, 4, 5):
        cit[i] = [-1, -1, -1, -1, -2]
    bonus_owner = [-1] * 8
    for i in (0, 1, 4 + PURPLE):
        bonus_owner[i] = 0
    d1 = next(i for i, t in enumerate(s.data.druid_tiles) if t.points == 1)
    d2 = next(i for i, t in enumerate(s.data.druid_tiles) if t.points == 2)
    r2 = roman_tile(s, 10)
    garrison = [[1, 1, 0, -1, -1, -2], [-1, -1, -1, -1, -1, -2]]
    cards_ = [
        progress_card(s, "bonus_maj"),
        progress_card(s, "workers_maj"),
        progress_card(s, "region_maj", 0),
        progress_card(s, "roman_maj"),
        progress_card(s, "colour_min", ORANGE),
    ]
    boudica = next(i for i, ld in enumerate(s.data.leaders) if ld["name"] == "Boudica")
    put(
        s,
        citadels=cit,
        discs=[7, 5, 3],
        bonus_owner=bonus_owner,
        druid_won=[[d1, d2], [], []],
        roman_won=[[r2], [roman_tile(s, 4), roman_tile(s, 5)], []],
        garrison=garrison,
        cubes=[1, 2, 0],
        tribe=[workers("F B S N", 5), workers("F F S", 5), workers("F B N N", 5)],
        strength=[4, 0, 0],
        prog_cards=cards_,
        prog_marks=[0, 2, 1, 1, 2],
        leaders=[boudica, 0, 1],
        leader_side=[1, 0, 0],
    )
    set_hand(s, 0, "Ow Tt")
    got = s.score_breakdown(0)
    want = {"A": 6, "B": 3, "C": 3, "D": 2, "E": 0, "F": 1, "G": 3, "H": 0, "I": 1, "J": 5, "K": 3}
    assert {k: got[k] for k in want} == want
    assert got["total"] == 27


def _build_north_pink(s, bonus: str, spaces: list[int]) -> None:
    bonus_at = list(s.bonus_at)
    bonus_at[PINK] = s.data.bonus_kinds.index(bonus)
    cit = [list(c) for c in s.citadels]
    cit[PINK] = spaces
    put(s, marker=G.SE, strength=[0, 0, 0], tokens=[0, 0, 0], bonus_at=bonus_at, citadels=cit)
    play(s, "move 2", "build N")
    while s.phase != 8:  # to the citadel choice
        s.apply_action("done")
    play(s, "citadel P")


def test_example_ines_must_spend_five_cards_for_her_last_disc():
    s = started(3)
    put(s, marker=G.SE, strength=[0, 0, 0], tokens=[0, 0, 0], discs=[8, 0, 0], areas=[row("F F F")] * 4)
    s.active[0] = workers("F S N")
    s.tribe[0] = [0, 0, 0, 0, 0]
    set_hand(s, 0, "Pw Pw Pt Pt")
    play(s, "move 2")
    assert "build N" not in legal(s)
    set_hand(s, 0, "Pw Pw Pt Pt Pf")
    assert "build N" in legal(s)


def test_example_ines_pink_citadel_bonus_draws_two_cards():
    s = started(3)
    set_hand(s, 0, "Pw")
    market = list(s.market[0])
    _build_north_pink(s, "draw", [-1, -1, -1, -1, -2])
    assert s.citadels[PINK][0] == 0 and s.bonus_owner[PINK] == -1
    play(s, "take 4", "take 2")
    assert sum(s.hands[0]) == 2 and s.hands[0][market[3]] >= 1 and s.hands[0][market[1]] >= 1


def test_example_joana_completes_the_pink_citadel_and_takes_its_tile():
    s = started(3)
    set_hand(s, 0, "Pw")
    _build_north_pink(s, "strength", [1, 2, 1, -1, -2])
    assert s.strength[0] == 3  # the bonus first
    assert s.bonus_owner[PINK] == 0
    got = s.score_breakdown(0)
    assert got["A"] == 1 and got["B"] == 1  # her disc on a complete citadel, and the tile


def test_example_joana_recruits_two_with_a_noble_in_her_tribe():
    s = started(3)
    put(s, marker=G.SE, strength=[0, 0, 0], tokens=[0, 0, 0], druid=[[], []], areas=[row("B B B")] * 4)
    s.active[0] = workers("F S B")
    s.tribe[0] = workers("N", 5)
    play(s, "move 2", "recruit N", "done")  # no swap
    play(s, "enlist F")
    assert "done" in legal(s)
    play(s, "enlist S")
    assert s.tribe[0] == workers("F S N", 5) and s.phase != 15
