"""Invariants of Celtae over many random games in every configuration (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import ludus
from ludus.games.celtae.core import ENLIST_PHASES

from .helpers import CONFIGS, play_random

configs = st.sampled_from(CONFIGS)
seeds = st.integers(0, 2**32)


def check(s) -> None:
    """Components conserved, values within bounds."""
    d = s.data
    counts = [0] * 12
    # Solitairix's drawn card is off the deck while its turn waits for the human's progress decisions
    waiting = [s.ctx.sx_card] if s.solo and s.turn == 1 and s.ctx.sx_moved and s.ctx.sx_card >= 0 else []
    for k in s.deck + s.discard + waiting + [k for row in s.market for k in row if k >= 0]:
        counts[k] += 1
    for h in s.hands:
        assert min(h) >= 0
        for k in range(12):
            counts[k] += h[k]
    assert counts == [d.copies] * 12
    for o in range(s.np):
        assert all(0 <= x <= y for x, y in zip(s.known[o], s.hands[o], strict=True))
    setup_n = 2 if s.solo else s.n
    workers = [
        s.bag[t]
        + sum(a.count(t) for a in s.areas)
        + s.centre.count(t)
        + sum(s.active[o][t] + s.tribe[o][t] for o in range(s.np))
        + (s.sx_worker == t)
        for t in range(4)
    ]
    assert workers == [16 - (4 - setup_n)] * 3 + [8]
    assert s.druid_supply[0] + s.druid_supply[1] + s.druid_box + sum(s.tribe[o][4] for o in range(s.np)) == 10
    for o in range(s.np):
        assert sum(c.count(o) for c in s.citadels) == s.discs[o] <= len(d.disc_costs)
        assert sum(g.count(o) for g in s.garrison) == s.cubes[o] <= d.cubes
        assert 0 <= s.strength[o] <= d.strength_max
        assert sum(s.active[o]) <= 3
        assert sum(s.tribe[o]) <= d.tribe_size or (o == s.turn and s.phase in ENLIST_PHASES)
    assert sum(s.tokens) + s.token_supply == d.tokens_total and min(s.tokens) >= 0 <= s.token_supply
    for stacks, won in ((s.roman, s.roman_won), (s.druid, s.druid_won)):
        tiles = [t for x in stacks for t in x] + [t for x in won for t in x]
        assert len(tiles) == len(set(tiles)) == len(stacks[0]) + len(stacks[1]) + sum(len(w) for w in won)
    for i, c in enumerate(s.prog_cards):
        assert 0 <= s.prog_marks[i] <= d.progress_cards[c][3]
    placed = sum(s.prog_marks) + len([p for p in s.pending if p[0] != 2])
    assert placed + s.track + sum(s.stack_markers) + s.sx_discarded_markers <= d.track[s.n] + 4
    assert s.track >= 0


def recount(s, seat: int) -> dict[str, int]:
    """Categories A-I from the raw state, independently of the scoring module."""
    d = s.data
    out = {
        "A": sum(c.count(seat) for c in s.citadels if -1 not in c),
        "B": s.bonus_owner.count(seat),
        "C": sum(d.druid_tiles[t][0] for t in s.druid_won[seat]),
        "D": sum(d.roman_tiles[t][0] for t in s.roman_won[seat]),
        "F": len([x for x in d.tribe_point_spaces if sum(s.tribe[seat]) >= x]),
        "G": len([x for x in d.disc_point_holes if s.discs[seat] >= x]),
        "H": int(s.cubes[seat] == 4),
        "I": (s.strength[seat] + sum(s.hands[seat])) // 5,
    }
    return out


@settings(max_examples=40)
@given(configs, seeds)
def test_whole_game_invariants_and_scores(config, seed):
    game = ludus.load_game("celtae", **config)
    state = play_random(game.new_initial_state(seed=seed), seed=seed, check=check)
    assert state.is_terminal() and state.legal_actions() == []
    assert state.track == 0 and state.stage == 2 and not state.pending
    scores = state.scores()
    assert len(scores) == game.num_players
    for seat in range(game.num_players):
        bd = state.score_breakdown(seat)
        assert bd["total"] == scores[seat] == sum(bd[c] for c in "ABCDEFGHIJK")
        assert {k: bd[k] for k in "ABCDFGHI"} == recount(state, seat)
    if config["players"] > 1:
        assert state.winners()
    assert state.winners() == state.game.state_from_json(state.to_json()).winners()


@given(configs, seeds)
def test_determinism_from_the_seed(config, seed):
    game = ludus.load_game("celtae", **config)
    a = play_random(game.new_initial_state(seed=seed), seed=seed)
    b = play_random(game.new_initial_state(seed=seed), seed=seed)
    assert a.to_json() == b.to_json() and a.history() == b.history()


@given(configs, seeds, st.integers(0, 200))
def test_save_load_and_record_replay_round_trips(config, seed, upto):
    game = ludus.load_game("celtae", **config)
    state = play_random(game.new_initial_state(seed=seed), seed=seed, upto=upto)
    loaded = game.state_from_json(state.to_json())
    assert loaded.to_json() == state.to_json()
    assert ludus.replay(state.record()).to_json() == state.to_json()
    # the loaded copy plays on exactly like the original
    a = play_random(loaded, seed=seed + 1)
    b = play_random(state.clone(), seed=seed + 1)
    assert a.to_json() == b.to_json()


@given(configs, seeds, st.integers(0, 200), st.integers(0, 3))
def test_resample_leaks_nothing(config, seed, upto, seat):
    game = ludus.load_game("celtae", **config)
    state = play_random(game.new_initial_state(seed=seed), seed=seed, upto=upto)
    seat %= game.num_players
    before = state.to_json()
    other = state.resample(seat, random.Random(seed))
    assert state.to_json() == before
    assert other.observation(seat) == state.observation(seat)
    assert other.observation(None) == state.observation(None)
    check(other)
    # the resampled world is a playable game
    play_random(other, seed=seed)


@given(configs, seeds, st.integers(0, 200))
def test_clone_is_independent(config, seed, upto):
    game = ludus.load_game("celtae", **config)
    state = play_random(game.new_initial_state(seed=seed), seed=seed, upto=upto)
    before = state.to_json()
    play_random(state.clone(), seed=seed + 7)
    assert state.to_json() == before


def test_resample_keeps_a_build_under_way_payable():
    """Another seat has chosen Build: every re-dealt hand can still pay for it (no dead end)."""
    from ludus.games.celtae import board as G

    from .helpers import play, put, set_hand, started

    s = started(3)
    put(
        s,
        marker=G.SE,
        strength=[0, 0, 0],
        tokens=[0, 0, 0],
        discs=[6, 0, 0],  # the 7th disc costs 4
        areas=[[0, 0, 0]] * 4,
        centre=[0, 0, 0],
    )
    s.active[0] = [1, 1, 1, 0]
    s.tribe[0] = [0, 0, 0, 0, 0]
    set_hand(s, 0, "Ow Ow Ot")
    play(s, "move 2", "build N")  # SE -> NW: 1 builder, no builder to swap for: 3 cards of one colour
    dealt = set()
    for seed in range(30):
        other = s.resample(1, seed)
        assert other.observation(1) == s.observation(1)
        hand = other.hands[0]
        dealt.add(tuple(hand))
        assert sum(hand) == 3 and max(sum(hand[3 * c : 3 * c + 3]) for c in range(4)) == 3
        assert other.legal_actions()
        play_random(other, seed=seed, upto=12)
    assert len(dealt) > 1  # the hand is really re-dealt, not kept


def test_resample_redeals_the_tiles_under_the_stack_tops_and_unrevealed_flips():
    from ludus.games.celtae import board as G

    from .helpers import play, put, started

    s = started(4)
    stacks, flips = set(), set()
    for seed in range(20):
        other = s.resample(2, seed)
        for mine, theirs, tiles in (
            (s.roman, other.roman, s.data.roman_tiles),
            (s.druid, other.druid, s.data.druid_tiles),
        ):
            for a, b in zip(mine, theirs, strict=True):
                assert b[-1] == a[-1] and [tiles[t][0] for t in b] == [tiles[t][0] for t in a]
        stacks.add(repr((other.roman, other.druid)))
    assert len(stacks) > 1  # hidden tiles are re-dealt; the tops and the 1-on-2 layout are kept
    put(s, marker=G.NE, track=s.data.flip_at + 1)
    play(s, "move 1", "progress 1", "flip")  # seat 0 decides; seat 1 is to decide
    for seed in range(20):
        other = s.resample(1, seed)
        assert other.flip_choice[1:] == [-1, -1, -1] and other.observation(1) == s.observation(1)
        flips.add(other.flip_choice[0])
    assert flips == {0, 1}  # seat 1 cannot know seat 0's choice
    assert all(s.resample(0, seed).flip_choice[0] == 1 for seed in range(5))  # seat 0 knows its own
