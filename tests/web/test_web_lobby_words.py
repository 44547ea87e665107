"""The lobby in a player's words: each game a card (its name, its pitch, a drawing of its board; one
click chooses it), options said as what they do with the rulings under a closed "Advanced", the
colour order chosen by clicking (or dragging) the colours, one list of bots by level (the programs
under "Advanced"), and a plugin game without a drawing as a plain card with its options by name."""

from __future__ import annotations

import httpx
from browser_helpers import BODY, poll
from test_web_plugins import plugin_server  # noqa: F401  (the live server with the example plugins)

from ludus.bots.levels import LEVELS


def _lobby(page, server, game):
    page.goto(server + "/")
    poll(page, f"{BODY}.ready === 'true'")
    page.check(f"[data-testid=game-{game}]")


def _created_options(page, server) -> dict:
    page.click("[data-testid=create]")
    page.wait_for_url("**/games/**")
    game_id = page.url.split("/games/")[1].split("#")[0]
    return httpx.get(f"{server}/api/games/{game_id}").json()


def test_each_game_is_a_card_with_its_name_pitch_and_board_chosen_in_one_click(strict_page, server):
    page = strict_page
    page.goto(server + "/")
    poll(page, f"{BODY}.ready === 'true'")
    meta = httpx.get(f"{server}/api/meta").json()
    for g in meta["games"]:
        card = page.locator(f".game-card[data-game={g['name']}]")
        assert g["title"] in card.inner_text() and g["tagline"] in card.inner_text()
        poll(page, f"document.querySelector('.game-card[data-game={g['name']}] img').naturalWidth > 0")
        card.locator(".game-preview").click()  # anywhere on the card: the drawing too
        assert page.is_checked(f"[data-testid=game-{g['name']}]")


def test_options_are_said_as_what_they_do_and_rulings_wait_under_advanced(strict_page, server):
    page = strict_page
    _lobby(page, server, "celtae")
    form = page.inner_text("#new-game")
    assert "ruling" not in form.lower() and "token moves marker" not in form and "none" not in form.split()
    assert not page.is_visible("#opt-token_moves_marker")  # "Advanced" is closed
    page.click("#advanced > summary")
    label = page.inner_text("#advanced-options")
    assert "A token played to act anywhere also moves your marker" in label
    chosen = page.eval_on_selector("#opt-token_moves_marker", "s => s.selectedOptions[0].textContent")
    assert chosen == "No — the token takes the place of the marker's move (default)"
    page.select_option("#opt-token_moves_marker", index=1)
    assert _created_options(page, server)["options"]["token_moves_marker"] is True


def test_the_colour_order_is_chosen_by_clicking_the_colours(strict_page, server):
    page = strict_page
    _lobby(page, server, "garum")
    page.select_option("#opt-players", label="3")
    assert page.locator("#opt-colours option").count() == 0  # no list of 24 orders
    result = page.locator(".order-result")
    assert "Default order" in result.inner_text()
    page.click("[data-item=red]")
    page.click("[data-item=blue]")
    assert result.inner_text() == "Seat 1: red · Seat 2: blue · Seat 3: green · not chosen: yellow"
    page.click("[data-item=blue]")  # a chosen colour clicked again is taken back
    page.click("[data-item=yellow]")
    assert result.inner_text().startswith("Seat 1: red · Seat 2: yellow · Seat 3: blue")
    page.click("[data-testid=order-colours-reset]")
    assert "Default order" in result.inner_text()
    assert page.eval_on_selector("#opt-colours", "p => p.dataset.value") == "null"  # None: the default
    page.click("[data-item=green]")
    page.drag_and_drop("[data-item=yellow]", "[data-item=red]")  # yellow takes red's place, and back
    assert result.inner_text().startswith("Seat 1: green · Seat 2: blue · Seat 3: red")
    assert _created_options(page, server)["options"]["colours"] == "green,blue,red"


def test_two_players_take_two_colours_each_round_the_table(strict_page, server):
    page = strict_page
    _lobby(page, server, "garum")
    page.select_option("#opt-players", label="2")
    for colour in ("yellow", "red", "green", "blue"):
        page.click(f"[data-item={colour}]")
    assert page.inner_text(".order-result") == "Seat 1: yellow and green · Seat 2: red and blue"
    assert _created_options(page, server)["options"]["colours"] == "yellow,red,green,blue"


def test_seats_offer_one_list_of_bots_by_level_and_the_programs_under_advanced(strict_page, server):
    page = strict_page
    _lobby(page, server, "celtae")
    page.select_option("#opt-players", label="2")
    words = page.eval_on_selector_all("#seat-1 option", "os => os.map(o => o.textContent)")
    assert words == ["Person", *(f"Bot — {level}" for level in LEVELS)]
    page.click("#advanced > summary")
    poll(page, "!!document.querySelector('#seat-1 option[value=random]')")
    values = page.eval_on_selector_all("#seat-1 option", "os => os.map(o => o.value)")
    assert {"random", "greedy", "ismcts:seconds=0.3"} <= set(values)
    page.select_option("#seat-1", value="random")
    page.click("#advanced > summary")  # closed again: the program it held gives way to a level
    poll(page, "!document.querySelector('#seat-1 option[value=random]')")  # the toggle event came
    assert page.input_value("#seat-1") in LEVELS
    page.click("#advanced > summary")
    page.select_option("#seat-1", value="random")  # waits for the option to be there
    assert _created_options(page, server)["seats"][1]["bot"] == "random"


def test_a_game_without_a_drawing_is_a_plain_card_with_its_options_by_name(strict_page, plugin_server):  # noqa: F811 (the imported fixture)
    page = strict_page
    _lobby(page, plugin_server, "pig")
    card = page.locator(".game-card[data-game=pig]")
    assert card.locator("img").count() == 0 and card.locator(".game-preview.none").count() == 1
    assert page.inner_text("#opt-target-label") == "target"  # no words of its own: its name, as written
    assert page.eval_on_selector_all("#opt-target option", "os => os.map(o => o.textContent)") == [
        "20",
        "30",
        "50",
        "100",
    ]


def test_games_open_to_join_list_their_options_in_words(strict_page, server):
    created = httpx.post(
        f"{server}/api/games",
        json={
            "game": "garum",
            "options": {"players": 2, "board": "baelo_claudia"},
            "seats": ["human", {"kind": "human", "open": True}],
            "claim": [0],
        },
    ).json()
    page = strict_page
    page.goto(server + "/")
    row = page.locator(f"#open-games tr[data-game='{created['id']}']")
    row.wait_for()
    # the player count and what is not at its default, as the form says them
    assert "Garum" in row.inner_text()
    assert "Players: 2 · Board: Baelo Claudia (12 rounds, hand of 3)" in row.inner_text()
    assert "Variant" not in row.inner_text() and "baelo_claudia" not in row.inner_text()
