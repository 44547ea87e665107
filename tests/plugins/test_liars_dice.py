"""examples/liars_dice, a plugin with hidden information, installed as its own package: each seat
sees only its own dice, bots think in worlds re-dealt from what their seat saw, a call reveals
every cup, and every part of ludus plays it without a change in ludus."""

from __future__ import annotations

import random
from xml.etree import ElementTree

import pytest

import ludus
from ludus.bots import make, parse_spec
from ludus.engine import IllegalActionError
from ludus.engine.conformance import check_game, check_hooks, configurations

pytestmark = pytest.mark.usefixtures("liars_dice")


def _table(players: int = 2, dice: int = 3, seed: int = 1):
    return ludus.load_game("liars_dice", players=players, dice=dice).new_initial_state(seed=seed)


def _with_dice(dice: list[list[int]]):
    """A table whose cups hold ``dice`` (set by hand: the test knows what a call must reveal)."""
    state = _table(players=len(dice), dice=len(dice[0]))
    state.dice = [sorted(d) for d in dice]
    return state


def test_every_configuration_passes_the_conformance_kit():
    found = configurations("liars_dice")
    assert {c["players"] for c in found} == {2, 3, 4} and {c["dice"] for c in found} == {1, 2, 3, 4, 5}
    for config in found:
        assert check_game("liars_dice", config, games=3) > 0


def test_its_declared_hooks_answer_on_real_positions():
    assert check_hooks("liars_dice") == {"renderer": "ok", "heuristic": "ok", "rules": "ok"}


def test_a_seat_sees_its_own_dice_and_nobody_elses():
    state = _with_dice([[1, 2, 3], [4, 5, 6]])
    assert state.observation(0)["your_dice"] == [1, 2, 3]
    assert state.observation(1)["your_dice"] == [4, 5, 6]
    assert state.observation(None)["your_dice"] is None
    assert "game" not in state.observation(0)  # its own fields only: ludus asks for no other key
    other = _with_dice([[1, 2, 3], [6, 6, 6]])
    assert other.observation(0) == state.observation(0)  # seat 1's dice change nothing seat 0 sees


def test_a_world_re_dealt_for_a_seat_keeps_its_dice_and_rolls_the_others():
    state = _with_dice([[1, 2, 3], [4, 5, 6], [6, 6, 6]])
    rng = random.Random(3)
    worlds = [state.resample(0, rng) for _ in range(20)]
    assert all(w.dice[0] == [1, 2, 3] and w.observation(0) == state.observation(0) for w in worlds)
    assert len({tuple(w.dice[1]) for w in worlds}) > 5  # the others' cups are rolled anew
    assert state.dice[1:] == [[4, 5, 6], [6, 6, 6]]  # the true state is untouched


def test_a_call_of_a_true_bid_costs_the_caller_a_die_and_reveals_every_cup():
    state = _with_dice([[5, 5, 2], [5, 1, 1]])
    state.apply_action("bid 3x5")
    state.apply_action("liar")
    assert state.scores() == [3, 2] and state.current_player() == 1  # the loser opens the next round
    call = state.observation(None)["last_call"]
    assert call["dice"] == [[2, 5, 5], [1, 1, 5]] and call["shown"] == 3
    assert (call["bidder"], call["caller"], call["loser"]) == (0, 1, 1)
    assert state.observation(None)["bid"] is None and state.observation(None)["round"] == 2


def test_a_call_of_a_false_bid_costs_the_bidder_a_die():
    state = _with_dice([[5, 5, 2], [5, 1, 1]])
    state.apply_action("bid 4x5")
    state.apply_action("liar")
    assert state.scores() == [2, 3] and state.current_player() == 0


def test_the_last_player_with_dice_wins():
    state = _with_dice([[6], [1]])
    state.apply_action("bid 1x6")
    state.apply_action("liar")
    assert state.is_terminal() and state.winners() == [0] and state.returns() == [1.0, 0.0]


def test_every_bid_and_call_closes_the_undo_barrier():
    """A bid hands the turn on and a call reveals the cups and rolls anew: nothing may be taken back."""
    state = _table(players=3)
    for text in ["bid 1x2", "bid 2x2", "liar", "bid 1x1"]:
        state.apply_action(text)
        assert state.undo_barrier() == len(state.history())


def test_notation_round_trips_and_refusals_say_why():
    game = ludus.load_game("liars_dice", players=2, dice=3)
    assert str(game.parse_action(" BID 3 x 5 ")) == "bid 3x5" and str(game.parse_action("liar")) == "liar"
    for text, reason in [
        ("bid 0x5", "1 to 6 dice"),
        ("bid 3x7", "face 1 to 6"),
        ("bid 9999x1", "not Liar's Dice notation"),
        ("raise", "not Liar's Dice notation"),
    ]:
        with pytest.raises(IllegalActionError, match=reason):
            game.parse_action(text)
    state = game.new_initial_state(seed=1)
    with pytest.raises(IllegalActionError, match="no bid to call"):
        state.apply_action("liar")
    state.apply_action("bid 2x4")
    with pytest.raises(IllegalActionError, match="does not raise bid 2x4"):
        state.apply_action("bid 2x3")
    assert state.history() == ["bid 2x4"]


def test_the_boards_show_a_seat_its_own_dice_and_the_others_cups_closed():
    from ludus_liars_dice.render import render_svg, render_text

    state = _with_dice([[1, 2, 3], [4, 5, 6]])
    state.apply_action("bid 2x6")
    text = render_text(state.observation(0))
    assert "seat 0: 3 dice  [1 2 3]" in text and "seat 1: 3 dice  [? ? ?]" in text and "seat 0 2 x 6" in text
    assert "4 5 6" not in render_text(state.observation(None))
    svg = ElementTree.fromstring(render_svg(state.observation(0)))
    words = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text")]
    assert "Seat 1 (you)" in words and words.count("?") == 3  # seat 2's cups, closed


def test_greedy_ismcts_and_random_play_it_to_the_end():
    for spec in ["random", "greedy", "ismcts:iterations=40"]:
        name, params = parse_spec(spec)
        bots = [make(name, seed=s, **params) for s in range(3)]
        state = _table(players=3, dice=2, seed=4)
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        assert sorted(state.scores())[:2] == [0, 0] and len(state.winners()) == 1, spec


def test_greedy_beats_random_by_weighing_the_chance_of_a_bid():
    """The heuristic is worth something: greedy wins most two-seat games against random play."""
    wins = 0
    for game in range(30):
        bots = [make("greedy", seed=game), make("random", seed=game)]
        order = [0, 1] if game % 2 == 0 else [1, 0]  # greedy opens half the games
        state = _table(players=2, dice=3, seed=game)
        while not state.is_terminal():
            state.apply_action(bots[order[state.current_player()]].step(state))
        wins += state.winners() == [order.index(0)]
    assert wins >= 20, wins


def test_the_heuristic_reads_only_what_the_seat_sees():
    from ludus_liars_dice.heuristic import chance_at_least, evaluate

    state = _with_dice([[5, 5, 2], [1, 1, 1]])
    state.apply_action("bid 3x5")
    worlds = [state.resample(0, random.Random(seed)) for seed in range(10)]
    assert len({evaluate(w, 0) for w in worlds}) == 1  # the re-dealt cups do not sway it
    assert chance_at_least(state, 0, 3, 5) == pytest.approx(1 - (5 / 6) ** 3)
    assert evaluate(state, 0) == pytest.approx(-((5 / 6) ** 3))  # even dice, less the risk of its bid


def test_hints_name_legal_moves_of_the_seat_to_move():
    from ludus.bots.hint import hint

    state = _table(players=2)
    state.apply_action("bid 2x3")
    hints = hint(state, n=3, seed=1)
    assert hints and {h["action"] for h in hints} <= {str(a) for a in state.legal_actions()}


def test_the_cli_plays_it_with_its_own_text_board():
    from click.testing import CliRunner

    from ludus.cli import main

    result = CliRunner().invoke(main, ["play", "liars_dice", "--seats", "greedy,random", "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "Liar's Dice, round" in result.output and "last call: round" in result.output
    assert "Winner" in result.output
