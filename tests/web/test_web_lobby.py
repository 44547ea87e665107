"""The lobby: options a configuration allows, in words, Create straight into the seat, display names,
strength levels in the seat chooser, the hints option, joining by name; screenshots at desktop and phone
widths. The game cards, the colour order and the "Advanced" part: test_web_lobby_words.py."""

from __future__ import annotations

import httpx
import pytest
from browser_helpers import BODY, poll

from ludus.bots.levels import LEVELS


def serious_violations(page) -> list[str]:
    """axe-core's serious and critical findings on the whole page."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']}: {[n['target'] for n in v['nodes']][:3]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def _lobby(page, server, game="garum"):
    page.goto(server + "/")
    poll(page, f"{BODY}.ready === 'true'")
    page.check(f"[data-testid=game-{game}]")


def _form(page, server, game, players, seat1, name=None):
    """The lobby filled in: game, player count, the second seat (a bot by program through
    "Advanced") and your name."""
    _lobby(page, server, game)
    if name is not None:
        page.fill("[data-testid=my-name]", name)
    page.select_option("#opt-players", label=str(players))
    if seat1 not in ("human", *LEVELS):
        page.click("#advanced > summary")
    page.select_option("#seat-1", value=seat1)


def _options(page):
    """The options offered, the "Advanced" ones included."""
    return page.eval_on_selector_all(
        "#new-game [id^=opt-][name], .order-picker", "ss => ss.map(s => s.name || s.id.slice(4))"
    )


def test_celtae_offers_solo_options_only_with_one_player(strict_page, server):
    page = strict_page
    _lobby(page, server, "celtae")
    page.select_option("#opt-players", label="2")
    assert "difficulty" not in _options(page) and "solo_adjacent" not in _options(page)
    page.select_option("#opt-players", label="1 — solo against Solitairix")
    assert {"difficulty", "solo_adjacent"} <= set(_options(page))
    labels = page.eval_on_selector_all("#opt-difficulty option", "os => os.map(o => o.textContent)")
    # the target each sets, once each (no difficulty is the Normal one, and stands for it)
    assert labels == ["Easy — beat 25 points", "Normal — beat 30 points", "Hard — beat 35 points"]
    assert page.eval_on_selector("#opt-difficulty", "s => s.selectedOptions[0].textContent").startswith(
        "Normal"
    )
    page.select_option("#opt-difficulty", label="Hard — beat 35 points")
    page.select_option("#opt-players", label="3")
    assert "difficulty" not in _options(page)
    assert page.locator("#seats select").count() == 3


def test_garum_offers_shared_workers_only_to_two_players(strict_page, server):
    page = strict_page
    _lobby(page, server, "garum")
    page.select_option("#opt-players", label="3")
    assert "two_player_workers" not in _options(page)
    page.select_option("#opt-players", label="2")
    assert "two_player_workers" in _options(page)


def test_create_takes_you_into_your_seat_with_names_and_invites(strict_page, server):
    page = strict_page
    _form(page, server, "garum", 2, "human", name="Ann")
    assert page.is_hidden("#seat-name-0") and page.is_visible(
        "#seat-name-1"
    )  # the first person's seat is yours
    page.fill("#seat-name-1", "Bo")
    page.click("[data-testid=create]")
    page.wait_for_url("**/games/**")
    poll(page, f"{BODY}.seat === '0'")
    assert "token" not in page.url
    game_id = page.url.split("/games/")[1]
    seats = httpx.get(f"{server}/api/games/{game_id}").json()["seats"]
    assert [s["name"] for s in seats] == ["Ann", "Bo"]
    assert "Ann, Seat 1 (you)" in page.inner_text("#seats")
    # "Anyone with the link": the table waits for its second seat, offered by the waiting room's link
    poll(page, f"{BODY}.waiting === 'true'")
    invite = page.input_value("[data-testid=join-link]")
    assert invite.endswith(f"/games/{game_id}#join") and page.is_visible("[data-testid=join-link-copy]")
    # the creator's own seat has its link too (to go on from another device), with its token
    own = page.input_value("[data-testid=own-link]")
    assert f"/games/{game_id}#token=" in own
    assert page.evaluate("window.ludusGame.view.seat") == 0
    mine = httpx.get(
        f"{server}/api/games/{game_id}", headers={"Authorization": f"Bearer {own.split('#token=')[1]}"}
    )
    assert mine.json()["seat"] == 0


def test_a_level_chosen_for_a_seat_is_the_seats_bot(strict_page, server):
    page = strict_page
    _lobby(page, server, "garum")
    page.select_option("#opt-players", label="2")
    values = page.eval_on_selector_all("#seat-1 option", "os => os.map(o => o.value)")
    assert values == ["human", *LEVELS]  # a person, or a bot by level, weakest first: nothing else
    words = page.eval_on_selector_all("#seat-1 option", "os => os.map(o => o.textContent)")
    assert words == ["Person", *(f"Bot — {level}" for level in LEVELS)]
    page.select_option("#seat-1", value="club")
    assert "club: looks ahead" in page.inner_text("#level-help")
    page.click("[data-testid=create]")
    page.wait_for_url("**/games/**")
    poll(page, f"{BODY}.version !== undefined")
    game_id = page.url.split("/games/")[1]
    assert httpx.get(f"{server}/api/games/{game_id}").json()["seats"][1]["bot"] == "club"


def test_unticking_hints_creates_a_game_without_hints(strict_page, server):
    page = strict_page
    _form(page, server, "garum", 2, "random")
    page.uncheck("[data-testid=allow-hints]")
    page.click("[data-testid=create]")
    page.wait_for_url("**/games/**")
    poll(page, f"{BODY}.myTurn === 'true'")
    assert page.evaluate("window.ludusGame.view.options.hints") is False
    assert page.is_hidden("[data-testid=hint]")


@pytest.mark.parametrize("bad", ["Ann\u202eevil", "x" * 33])
def test_a_bad_name_is_refused_in_the_lobby_and_nothing_is_created(strict_page, server, bad):
    page = strict_page
    _lobby(page, server, "garum")
    page.evaluate("(v) => { document.getElementById('my-name').value = v; }", bad)  # past maxlength too
    page.click("[data-testid=create]")
    poll(page, "document.getElementById('message').textContent.includes('name')")
    assert page.url.rstrip("/") == server


def test_join_from_the_lobby_with_a_name(strict_page, server):
    created = httpx.post(
        f"{server}/api/games",
        json={"game": "garum", "options": {"players": 2}, "seats": ["human", "human"], "claim": [0]},
    ).json()
    page = strict_page
    _lobby(page, server, "garum")
    page.fill("[data-testid=my-name]", "Cleo")
    page.click(f"[data-testid=join-{created['id']}]")
    page.wait_for_url(f"**/games/{created['id']}")
    poll(page, f"{BODY}.seat === '1'")
    assert [s["name"] for s in httpx.get(f"{server}/api/games/{created['id']}").json()["seats"]] == [
        None,
        "Cleo",
    ]


@pytest.mark.parametrize("width,height,tag", [(1400, 900, "desktop"), (390, 844, "phone")])
def test_lobby_screenshots(browser, server, screenshots, width, height, tag):
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        page.goto(server + "/")
        poll(page, f"{BODY}.ready === 'true'")
        page.check("[data-testid=game-celtae]")
        page.select_option("#opt-players", label="2")
        page.select_option("#seat-1", value="expert")
        poll(
            page,
            "[...document.querySelectorAll('.game-preview')].every((i) => i.complete && i.naturalWidth > 0)",
        )
        width_used = page.evaluate("document.documentElement.scrollWidth")
        assert width_used <= width  # nothing wider than the screen
        assert serious_violations(page) == []
        page.screenshot(path=str(screenshots / f"lobby-{tag}.png"), full_page=True)
        page.select_option("#opt-players", label="1 — solo against Solitairix")
        page.screenshot(path=str(screenshots / f"lobby-solo-{tag}.png"), full_page=True)
        page.check("[data-testid=game-garum]")
        page.select_option("#opt-players", label="3")
        page.click("[data-item=red]")
        page.click("[data-item=blue]")
        page.click("#advanced > summary")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert serious_violations(page) == []
        page.screenshot(path=str(screenshots / f"lobby-garum-{tag}.png"), full_page=True)
        page.locator("[data-testid=order-colours]").screenshot(
            path=str(screenshots / f"lobby-colours-{tag}.png")
        )
    finally:
        context.close()


def test_your_name_is_shown_in_the_seats_and_the_log(strict_page, server):
    page = strict_page
    _form(page, server, "celtae", 2, "random", name="Ann")
    page.click("[data-testid=create]")
    page.wait_for_url("**/games/**")
    poll(page, f"{BODY}.myTurn === 'true'", timeout=30)
    assert "Ann, Seat 1 (you)" in page.inner_text("#seats")
    before = int(page.evaluate(f"{BODY}.version"))
    page.locator("#legal [data-action]").first.click()
    poll(page, f"Number({BODY}.version) > {before}")
    poll(page, "document.getElementById('log').textContent.includes('Ann')")


def test_switching_games_starts_from_the_new_games_defaults(strict_page, server):
    page = strict_page
    _lobby(page, server, "garum")
    page.select_option("#opt-players", label="2")
    page.check("[data-testid=game-celtae]")
    assert (
        page.eval_on_selector("#opt-players", "s => s.selectedOptions[0].textContent") == "2"
    )  # Celtae's default
    page.select_option("#opt-players", label="1 — solo against Solitairix")
    page.check("[data-testid=game-garum]")
    assert (
        page.eval_on_selector("#opt-players", "s => s.selectedOptions[0].textContent") == "4"
    )  # Garum's default


def test_an_invited_person_names_their_seat_on_the_game_page(browser, strict_page, server):
    page = strict_page
    _form(page, server, "garum", 2, "human", name="Ann")
    page.click("[data-testid=create]")
    page.wait_for_url("**/games/**")
    invite = page.input_value("[data-testid=join-link]")  # the waiting room's link takes the seat
    context = browser.new_context()
    try:
        guest = context.new_page()
        guest.goto(invite)
        poll(guest, f"{BODY}.seat === '1'")
        assert guest.input_value("[data-testid=seat-name]") == ""
        guest.fill("[data-testid=seat-name]", "Dana")
        guest.click("[data-testid=seat-name-save]")
        poll(guest, "document.querySelector('.seat-name-form [role=status]').textContent.includes('Dana')")
        poll(
            page, "document.getElementById('seats').textContent.includes('Dana, Seat 2')"
        )  # the creator sees it live
    finally:
        context.close()
