"""Rules help and panels of both games from the server's data: the leaders' texts have one source
(ludus/celtae/data/leaders.json) shown by the server's drawing, the board and the rules help;
each Celtae seat's categories A–K so far are the engine's; Garum's scoring charts come from the
board files; components carry tooltips."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from browser_helpers import BODY, poll

import ludus
from ludus.games.celtae.render import leader_texts, render_svg

DATA = Path(ludus.__file__).parent / "games" / "celtae" / "data" / "leaders.json"
LEADERS = json.loads(DATA.read_text(encoding="utf-8"))["leaders"]["value"]


def test_leader_texts_come_from_the_data_file():
    assert leader_texts() == {ld["name"]: (ld["A"]["text"], ld["B"]["text"]) for ld in LEADERS}
    assert all(a and b for a, b in leader_texts().values())
    state = ludus.load_game("celtae", players=2).new_initial_state(3)
    while not all(p["leader"] for p in state.observation(None)["players_info"]):
        state.apply_action(state.legal_actions()[0])
    obs = state.observation(None)
    drawn = render_svg(obs)
    for info in obs["players_info"]:
        first_words = leader_texts()[info["leader"]][0].split()[:4]
        assert " ".join(first_words) in drawn


def test_meta_serves_the_rules_help_of_both_games(server):
    games = {g["name"]: g for g in httpx.get(f"{server}/api/meta").json()["games"]}
    celtae = games["celtae"]["help"]
    assert celtae["leaders"] == {ld["name"]: [ld["A"]["text"], ld["B"]["text"]] for ld in LEADERS}
    assert list(celtae["categories"]) == list("ABCDEFGHIJK")
    troia = ludus.load_game("garum").board
    assert games["garum"]["help"]["boards"]["troia"]["chart"] == [list(r) for r in troia.chart]


def test_rules_dialogs_show_leaders_categories_and_charts(page, server, screenshots):
    created = httpx.post(
        f"{server}/api/games",
        json={"game": "celtae", "seats": ["human", "random"], "options": {"players": 2}},
    ).json()
    page.goto(f"{server}/games/{created['id']}")
    page.click("[data-testid=rules-celtae]")
    more = page.locator("dialog[open] [data-testid=rules-more]")
    more.locator(".rules-leaders li").first.wait_for()
    for ld in LEADERS:
        item = more.locator(f"[data-leader={ld['name']}]")
        assert ld["A"]["text"] in item.inner_text() and ld["B"]["text"] in item.inner_text()
    assert more.locator(".rules-categories dt").count() == 11
    assert "warrior" in more.inner_text() and "fortress" in more.inner_text()
    assert more.locator(".rules-bonus li").count() == 4
    page.screenshot(path=str(screenshots / "celtae-rules-help.png"))
    page.keyboard.press("Escape")

    garum = httpx.post(
        f"{server}/api/games", json={"game": "garum", "seats": ["human", "random"], "options": {"players": 2}}
    ).json()
    page.goto(f"{server}/games/{garum['id']}")
    page.click("[data-testid=rules-garum]")
    chart = page.locator("dialog[open] .rules-chart[data-board=baelo_claudia]")
    chart.wait_for()
    board = ludus.load_game("garum", board="baelo_claudia").board
    dominus = chart.locator("tbody tr").nth(1).locator("td").all_inner_texts()
    assert dominus == [str(r[2]) for r in board.chart]
    page.screenshot(path=str(screenshots / "garum-rules-help.png"))
    assert not page.js_errors


def test_celtae_board_shows_categories_and_tooltips(page, server, screenshots):
    created = httpx.post(
        f"{server}/api/games",
        json={"game": "celtae", "seats": ["human", "random"], "options": {"players": 2}},
    ).json()
    token = next(s["token"] for s in created["seats"] if s["seat"] == 0)
    page.goto(f"{server}/games/{created['id']}#token={token}")
    poll(page, f"{BODY}.version !== undefined && document.querySelector('[data-testid=categories-0]')")
    texts = {ld["name"]: ld for ld in LEADERS}
    # the leaders on offer carry both their sides' texts (seat 0 chooses after the bot, which goes first)
    poll(page, "document.querySelectorAll('.cb-leaders [data-tip]').length > 0", timeout=30)
    offered = page.locator(".cb-leaders [data-tip]")
    name = offered.first.locator("strong").inner_text()
    assert texts[name]["A"]["text"] in offered.first.get_attribute("data-tip")
    assert texts[name]["A"]["text"] in offered.first.inner_text()
    for seat in (0, 1):
        shown = page.inner_text(f"[data-testid=categories-{seat}]")
        cats = page.evaluate(f"window.ludusGame.view.panels.categories[{seat}]")
        assert shown.split()[-1] == str(cats["total"])
        assert f"I {cats['I']}" in shown
    card = page.locator("[data-key^=market-][data-tip]").first
    assert "card: pays for" in card.get_attribute("data-tip")
    citadel = page.locator("[data-key^=citadel-][data-tip]").first.get_attribute("data-tip")
    assert "citadel" in citadel and "Its bonus tile (" in citadel
    progress = page.locator("[data-key^=progress-][data-tip]").first
    assert progress.get_attribute("data-tip").startswith("Progress card: ")
    stack = page.locator("[data-key=roman-N]")
    stack.hover(force=True)
    poll(page, "!document.getElementById('ludus-tooltip')?.hidden")
    assert "Roman army" in page.inner_text("#ludus-tooltip")
    page.locator("[data-testid=categories-0]").scroll_into_view_if_needed()
    page.locator("[data-testid=categories-0] [data-category=I]").focus()
    assert page.inner_text("#ludus-tooltip").startswith("I, strength + cards")
    page.screenshot(path=str(screenshots / "celtae-categories-tooltip.png"))
    assert not page.js_errors
