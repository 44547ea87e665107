"""Live play in a real browser: two browser contexts playing each other, a spectator, a reload
and a dropped connection in the middle of a game, and refused moves showing their reason."""

import random

import httpx
from browser_helpers import (
    BODY,
    click_random_legal,
    create_in_lobby,
    garum_decision_by_board,
    open_my_seat,
    version,
    wait_board_turn,
    wait_seat_live,
    wait_turn,
    wait_version_after,
)


def test_two_browser_contexts_play_each_other_live(browser, server, screenshots):
    first = browser.new_context(viewport={"width": 1100, "height": 900}, bypass_csp=True)
    second = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)  # a phone's width
    third = browser.new_context(bypass_csp=True)  # wait_for_function needs eval()
    try:
        a = first.new_page()
        create_in_lobby(a, server, "garum", {"players": "2"}, ["human", "human"])
        game_id = open_my_seat(a)
        a.wait_for_function(f"{BODY}.waiting === 'true'")  # the second seat is for anyone with the link
        invite = a.input_value("[data-testid=join-link]")
        b = second.new_page()
        b.goto(invite)  # opening the link takes the seat; the table starts, on both pages
        b.wait_for_function(f"{BODY}.seat === '1' && {BODY}.waiting === 'false'")
        a.wait_for_function(f"{BODY}.waiting === 'false'")
        watcher = third.new_page()
        watcher.goto(f"{server}/games/{game_id}")
        watcher.wait_for_function(f"{BODY}.seat === 'spectator'")
        pages = {"0": a, "1": b}
        rng = random.Random(5)
        for _ in range(12):
            mover = next(p for p in pages.values() if p.evaluate(f"{BODY}.myTurn") == "true")
            other = next(p for p in pages.values() if p is not mover)
            before = version(mover)
            if rng.random() < 0.5:
                click_random_legal(mover, rng)
            else:
                garum_decision_by_board(mover, rng)
            wait_version_after(mover, before)
            now = version(mover)
            # the other seat and the spectator see the move without reloading
            other.wait_for_function(f"Number({BODY}.version) >= {now}")
            watcher.wait_for_function(f"Number({BODY}.version) >= {now}")
            assert other.locator("#log li").count() == mover.locator("#log li").count()
            if other.evaluate(f"{BODY}.myTurn") != "true":
                assert other.locator("#legal [data-action]").count() == 0
        assert watcher.locator("#legal [data-action]").count() == 0
        assert watcher.locator("[data-tile]").count() == 0
        b.screenshot(path=str(screenshots / "garum-live-phone.png"), full_page=True)
    finally:
        for ctx in (first, second, third):
            ctx.close()


def test_reload_and_dropped_connection_in_the_middle_of_a_game(page, server):
    create_in_lobby(page, server, "garum", {"players": "2", "board": "baelo claudia"}, ["human", "random"])
    open_my_seat(page)
    wait_seat_live(page)  # its redraw would drop the focus the keys give
    rng = random.Random(3)
    # by keyboard: key 1 picks the first tile, R turns it, the first quarter has the focus, Enter plays it
    # (the quarters are laid on the board's drawing, which comes apart from the view: wait for both)
    assert wait_board_turn(page) == "mine"
    before = version(page)
    page.keyboard.press("1")
    page.keyboard.press("r")
    page.wait_for_function("(document.activeElement.getAttribute('data-board-action') || '').startsWith('c')")
    focused = page.evaluate("document.activeElement.getAttribute('data-board-action')")
    page.keyboard.press("Enter")
    wait_version_after(page, before)
    assert any(
        focused in entry for entry in page.locator("#log li .log-notation").all_text_contents()
    )  # on request
    for _ in range(4):
        assert wait_turn(page) == "mine"
        before = version(page)
        garum_decision_by_board(page, rng)
        wait_version_after(page, before)
    wait_turn(page)
    seen = version(page)
    # text content, not rendered text: the comparison must not hang on when the page's stylesheet applies
    log = page.locator("#log li").all_text_contents()
    hands = page.text_content("#hands")
    page.reload()
    page.wait_for_function(f"{BODY}.version === '{seen}' && {BODY}.live === 'true'")
    assert page.locator("#log li").all_text_contents() == log
    assert page.text_content("#hands") == hands
    # the connection drops: the page reconnects and goes on receiving the bot's moves
    connections = int(page.evaluate(f"{BODY}.connections"))
    page.evaluate("window.ludusGame.socket.close()")
    page.wait_for_function(f"Number({BODY}.connections) > {connections} && {BODY}.live === 'true'")
    assert wait_turn(page) == "mine"
    before = version(page)
    garum_decision_by_board(page, rng)
    wait_version_after(page, before)
    assert wait_turn(page) in ("mine", "over")
    assert not page.js_errors


def test_a_refused_move_shows_its_reason_and_changes_nothing(page, server):
    create_in_lobby(page, server, "garum", {"players": "2"}, ["human", "random"])
    open_my_seat(page)
    assert wait_turn(page) == "mine"
    before = version(page)
    cetarium = page.evaluate("window.ludusGame.view.observation.cetarium")
    wrong = 1 if cetarium != 1 else 2
    page.fill("#typed-move", f"c{wrong}.1 BBBB")
    page.press("#typed-move", "Enter")
    page.wait_for_function(f"{BODY}.refused === '1'")
    text = page.inner_text("#message")
    assert "refused" in text and f"cetarium {cetarium}" in text
    assert version(page) == before
    page.fill("#typed-move", "hello")
    page.click("#typed button[type=submit]")
    page.wait_for_function(f"{BODY}.refused === '2'")
    assert "not Garum notation" in page.inner_text("#message")
    assert version(page) == before
    assert page.locator("#legal [data-action]").count() > 0
    # the rules summary is one click away, and Escape closes it
    page.click("[data-testid=rules-garum]")
    dialog = page.locator("dialog[open]")
    dialog.get_by_text("Garum in short").wait_for()  # the summary is fetched when the dialog opens
    page.keyboard.press("Escape")
    dialog.wait_for(state="detached")


def test_join_an_open_game_from_the_lobby_list(page, server):
    created = httpx.post(
        f"{server}/api/games",
        json={"game": "garum", "options": {"players": 2}, "seats": ["human", "human"], "claim": [0]},
    ).json()
    page.goto(server + "/")
    page.click(f"[data-testid=join-{created['id']}]")
    page.wait_for_function(f"{BODY}.seat === '1'")
    assert page.url == f"{server}/games/{created['id']}"  # the token left the address bar
    page.goto(server + "/")
    page.wait_for_selector("#open-games")
    assert page.locator(f"[data-testid=join-{created['id']}]").count() == 0  # no free seat left


def test_emperor_choice_and_ghost_tile_by_board_clicks(page, server):
    create_in_lobby(
        page,
        server,
        "garum",
        {"players": "3", "variant": "emperor", "board": "baelo claudia"},
        ["human", "random", "random"],
    )
    open_my_seat(page)
    rng = random.Random(8)
    done = set()
    for _ in range(60):
        if wait_board_turn(page) == "over" or {"choose", "ghost"} <= done:
            break
        phase = page.evaluate(f"{BODY}.phase")
        before = version(page)
        action = garum_decision_by_board(page, rng)
        wait_version_after(page, before)
        done.add(phase)
        if phase == "choose":
            assert action.startswith("choose c")
    assert {"choose", "ghost", "place"} <= done
    assert not page.js_errors


def test_leaving_hands_the_seat_to_a_bot(page, server):
    create_in_lobby(page, server, "garum", {"players": "2", "board": "baelo claudia"}, ["human", "random"])
    open_my_seat(page)
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#leave")
    page.wait_for_selector("#message.info")
    assert "plays seat 1 now" in page.inner_text("#message")
    page.wait_for_function("document.querySelector('#seats').innerText.includes('you left')")
    assert page.is_disabled("#leave")
    assert page.locator("#legal [data-action]").count() == 0


def test_a_seat_bot_and_its_strength_are_chosen_in_the_lobby(page, server):
    page.goto(server + "/")
    page.check("[data-testid=game-garum]")
    page.click("#advanced > summary")  # the bots by program wait under "Advanced"
    page.wait_for_selector("#seat-1 option[value=random]", state="attached")
    values = page.eval_on_selector_all("#seat-1 option", "options => options.map(o => o.value)")
    assert values[0] == "human" and {
        "random",
        "greedy",
        "ismcts",
        "ismcts:seconds=0.3",
        "ismcts:seconds=3",
    } <= set(values)
    create_in_lobby(page, server, "garum", {}, ["human", "ismcts:seconds=0.3", "human", "human"])
    game_id = open_my_seat(page)
    seats = httpx.get(f"{server}/api/games/{game_id}").json()["seats"]
    assert seats[1]["bot"] == "ismcts:seconds=0.3"
