"""Named strength levels: each a bot spec, accepted wherever a bot spec is."""

from __future__ import annotations

import pytest

import ludus
from ludus import bots
from ludus.arena.simulate import make_bot
from ludus.bots.levels import LEVELS
from ludus.server.seatbots import canonical_kind, make_seat_bot


def test_every_level_names_a_valid_bot_spec_that_is_not_a_level():
    for level in LEVELS.values():
        name, _ = bots.parse_spec(level.spec)
        assert name in bots.names(), level


def test_a_level_name_parses_as_a_bot_spec():
    for name in bots.levels():
        assert bots.parse_spec(f" {name} ") == (name, {})


def test_a_level_plays_its_specs_bot_with_its_parameters():
    for level in LEVELS.values():
        bot = bots.make(level.name, seed=3)
        name, params = bots.parse_spec(level.spec)
        assert type(bot.bot) is type(bots.make(name, seed=3, **params))
        for key, value in params.items():
            assert getattr(bot.bot, key) == value


def test_seconds_caps_a_searching_levels_budget_and_never_raises_it():
    searching = [lv for lv in LEVELS.values() if "seconds" in bots.parse_spec(lv.spec)[1]]
    assert searching
    for level in searching:
        own = bots.parse_spec(level.spec)[1]["seconds"]
        assert bots.make(level.name, seconds=own / 2).bot.seconds == own / 2
        assert bots.make(level.name, seconds=own * 10).bot.seconds == own


def test_a_level_refuses_parameters_it_does_not_take():
    with pytest.raises(ValueError, match="no parameter 'iterations'"):
        bots.parse_spec("expert:iterations=5")


def test_an_unknown_name_lists_the_bots_and_the_levels():
    with pytest.raises(ValueError) as caught:
        bots.parse_spec("wizard")
    for name in [*bots.names(), *bots.levels()]:
        assert name in str(caught.value)


def test_server_seat_kinds_keep_a_levels_name_and_cap_its_time():
    assert canonical_kind(" casual ") == "casual"
    assert canonical_kind("club:seconds=0.1") == "club:seconds=0.1"
    assert make_seat_bot("expert", 0.15).bot.seconds == 0.15


@pytest.mark.parametrize(
    "game, options", [("garum", {"players": 2}), ("celtae", {"players": 2}), ("celtae", {"players": 1})]
)
def test_a_quick_level_plays_legal_moves_from_its_arena_spec(game, options):
    state = ludus.load_game(game, **options).new_initial_state(seed=5)
    bot = make_bot("beginner", 7)
    for _ in range(30):
        if state.is_terminal():
            break
        action = bot.step(state) if state.current_player() == 0 else state.legal_actions()[0]
        assert action in state.legal_actions()
        state.apply_action(action)
