"""Every route a plugin game gets answers, none with a 5xx, for Pig (no SVG renderer, no browser
files) and Liar's Dice (hidden dice, an SVG board, a rules file), installed as packages of their
own: the route kit (``ludus.web.conformance.check_routes``) plays each through a server."""

from __future__ import annotations

import pytest

import ludus
from ludus.engine.conformance import ConformanceError
from ludus.engine.hooks import hook
from ludus.server.botpool import BotPool, call_job
from ludus.web.conformance import check_routes

from .site import EXAMPLES

pytestmark = pytest.mark.usefixtures("pig", "liars_dice")
GAMES = list(dict.fromkeys([*ludus.game_names(), *EXAMPLES]))  # ludus's own, and the examples


def test_a_bot_worker_process_finds_the_installed_plugins():
    """Bots, hints and replay steps run in spawned worker processes: the plugins are found there too."""
    pool = BotPool(1)
    try:
        job = call_job("test", "test", "ludus.engine.registry:game_names", (), 30.0)
        names = pool.submit(job).result(timeout=90)
    finally:
        pool.close()
    assert {"pig", "liars_dice"} <= set(names)


@pytest.mark.parametrize("name", GAMES)
def test_every_installed_game_answers_on_every_route_in_its_default_options(name):
    answered = check_routes(name)
    assert answered["GET /api/games/{id}/record"] == 200 and answered["POST /api/replay"] == 200
    assert all(status < 500 for status in answered.values()), answered


def test_every_route_answers_for_pig_whose_board_is_not_svg():
    answered = check_routes("pig", {"players": 2, "target": 20})
    assert answered["GET /api/games/{id}/svg"] == 404  # with its reason: Pig has no SVG renderer
    assert answered["GET /api/games/{id}/replay?step=0"] == 200
    assert answered["POST /api/replay"] == 200 and answered["GET /api/games/{id}/hint"] == 200
    assert not any(route.startswith("GET /plugins/") for route in answered)  # it declares no browser file


@pytest.mark.parametrize("players", [2, 4])
def test_every_route_answers_for_liars_dice_whose_dice_are_hidden(players):
    answered = check_routes("liars_dice", {"players": players, "dice": 2})
    assert answered["GET /api/games/{id}/svg (a seat's)"] == 200
    assert answered["GET /plugins/liars_dice/rules.html (rules)"] == 200
    assert (
        answered["GET /api/games (the lobby)"] == 200 and answered["GET /games/{id} (the game page)"] == 200
    )


def test_the_route_kit_names_each_route_that_fails(monkeypatch):
    """A board that cannot be drawn fails the board route; the kit says which route and why."""

    def broken(observation, **options):
        raise RuntimeError("no table to draw on")

    monkeypatch.setattr(hook("pig", "renderer"), "render_svg", broken, raising=False)
    with pytest.raises(ConformanceError) as failed:
        check_routes("pig", {"players": 2, "target": 20})
    assert "GET /api/games/{id}/svg" in str(failed.value)


def test_the_route_kit_plays_another_game_when_chance_ended_one_before_a_human_seat_decided(monkeypatch):
    """In Pig a human seat decides nothing until a roll of its own comes up other than 1, and the bot may
    win first: the kit then plays another game, so that the seat routes (a hint, a refused move) are
    asked; if no game gives a human seat a decision, it says so."""
    from ludus.web import conformance

    first_turns = []
    real = conformance._first_turn

    def first_turn(routes, *args):  # the first game's first turn skipped, as if no human seat had one
        first_turns.append(len(first_turns))
        if len(first_turns) > 1:
            real(routes, *args)

    monkeypatch.setattr(conformance, "_first_turn", first_turn)
    answered = check_routes("pig", {"players": 2, "target": 20})
    assert len(first_turns) == 2 and answered[conformance.HINT] == 200

    monkeypatch.setattr(conformance, "_first_turn", lambda *args: None)
    with pytest.raises(ConformanceError, match="no human seat had a decision to make in 5 games of pig"):
        check_routes("pig", {"players": 2, "target": 20})
