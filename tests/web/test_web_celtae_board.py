"""Celtae played by the board in Chromium: whole 2-player games against a random bot at desktop and
phone widths, every decision clicked on a piece of the board or of the seat's own panel (never
the list of legal moves), the board readable (text at least 12 px, targets at least 44 px on a
phone), the bot's last move marked, and the log in plain sentences with seats counted from 1."""

import functools
import json
import random
import statistics

import httpx
import pytest
from browser_helpers import create_in_lobby, own_panel_share
from browser_helpers import poll as browser_poll
from turn_log import check_turn_log

import ludus

BODY = "document.body.dataset"


# the board's phases take longer than the other pages' waits
poll = functools.partial(browser_poll, timeout=20.0)


def wait_turn(page) -> str:
    poll(page, f"({BODY}.myTurn === 'true' || {BODY}.terminal === 'true') && {BODY}.busy !== 'true'")
    return "over" if page.evaluate(f"{BODY}.terminal") == "true" else "mine"


def version(page) -> int:
    return int(page.evaluate(f"{BODY}.version"))


ON_BOARD = "#board [data-board-action]:not([disabled])"
SELECTS = "#board [data-board-select]:not([disabled])"

# every legal action that the board does not carry as one click, and the first step that leads to it
TWO_STEP = {"swap", "druid", "garrison"}


def unreachable(page) -> list[str]:
    """Legal actions with neither a piece nor a first step on the board."""
    return page.evaluate("""() => {
      const legal = window.ludusGame.view.legal_actions;
      const board = new Set([...document.querySelectorAll('#board [data-board-action]:not([disabled])')]
        .map((b) => b.dataset.boardAction));
      const selects = document.querySelectorAll('#board [data-board-select]:not([disabled])').length;
      return legal.filter((a) => !board.has(a) && !(selects && ['swap', 'druid', 'garrison'].includes(a.split(' ')[0])));
    }""")


def board_decision(page, rng, clicks: list[int] | None = None) -> str:
    """One decision by clicking a piece: a one-click action, or a first step and then its completion.
    ``clicks`` gets the count per main turn (a turn starts with moving the marker or acting anywhere,
    alone or as the first action of a piece's route)."""
    targets = page.locator(f"{ON_BOARD}, {SELECTS}")
    count = targets.count()
    assert count > 0, "it is this page's turn but the board offers nothing to click"
    target = targets.nth(rng.randrange(count))
    action = target.get_attribute("data-board-action")
    sent = json.loads(target.get_attribute("data-board-skip") or "[]")  # a route sends these first
    two_step = action is None
    if rng.random() < 0.2:  # the keyboard plays a piece as well as the mouse
        target.focus()
        page.keyboard.press("Enter")
    else:
        target.click()
    if action is None:  # a first step: the completing pieces now carry the actions
        page.wait_for_selector("[data-testid=cancel]")
        done = page.locator(ON_BOARD)
        assert done.count() > 0, "a first step led nowhere"
        choice = done.nth(rng.randrange(done.count()))
        action = choice.get_attribute("data-board-action")
        sent = json.loads(choice.get_attribute("data-board-skip") or "[]")
        choice.click()
    if clicks is not None:
        if [*sent, action][0].startswith(("move", "anywhere")):
            clicks.append(0)
        if clicks:
            clicks[-1] += 2 if two_step else 1
    return action


def smallest_text_px(page) -> float:
    return page.evaluate("""() => {
      let least = 99;
      for (const n of document.querySelectorAll('#board *')) {
        const own = [...n.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
        const box = n.getBoundingClientRect();
        if (own && box.width > 0) least = Math.min(least, parseFloat(getComputedStyle(n).fontSize));
      }
      return least;
    }""")


def small_targets(page) -> list[str]:
    return page.evaluate("""() => [...document.querySelectorAll('#board button:not([disabled])')]
      .filter((b) => { const r = b.getBoundingClientRect(); return r.width < 44 || r.height < 44; })
      .map((b) => b.dataset.key || b.textContent)""")


def check_log(page, record, solo):
    # one entry per turn, its steps the record's actions and Solitairix's turns, in sentences
    sentences = check_turn_log(page, record)
    game_turns = page.evaluate("window.ludusGame.view.log.filter((e) => 'after' in e).length")
    assert (game_turns > 5) == solo
    assert (sum(s.startswith("Solitairix") for s in sentences) > 5) == solo
    # the steps played for a seat (its only choice) are steps of their own, marked so (Solitairix's
    # turns, the game's own, list their steps)
    auto = page.evaluate("window.ludusGame.view.log.filter((e) => e.auto && !('after' in e)).length")
    assert page.locator("#log .log-step .log-auto").count() == auto
    text = page.locator("#log").text_content()
    assert "Seat 1" in text and ("Seat 2" in text) != solo and "Seat 0" not in text
    assert " passed" not in " ".join(sentences)  # a declined option is never told as passing
    first = sentences[0]
    assert "chose" in first and "as leader" in first
    assert "Round 2" in text  # the log is cut into rounds


@pytest.mark.parametrize(
    "width,height,tag,players", [(1366, 850, "desktop", 2), (390, 850, "phone", 2), (1366, 850, "solo", 1)]
)
def test_whole_celtae_game_by_board_clicks(browser, server, screenshots, width, height, tag, players):
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors, violations = [], []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on(
        "console", lambda msg: violations.append(msg.text) if "Content Security Policy" in msg.text else None
    )
    try:
        if players == 1:
            create_in_lobby(page, server, "celtae", {"players": "1", "difficulty": "easy"}, ["human"])
        else:
            create_in_lobby(page, server, "celtae", {"players": "2"}, ["human", "random"])
        poll(page, f"{BODY}.version !== undefined")  # Create opened the seat
        game_id = page.url.split("/games/")[1].split("?")[0].split("#")[0]
        page.wait_for_selector("#board .cb")
        wait_turn(page)
        page.screenshot(path=str(screenshots / f"celtae-board-{tag}-leaders.png"), full_page=False)
        rng = random.Random({"desktop": 12, "phone": 13, "solo": 14}[tag])
        shot_at = 25
        decisions = marked = in_view = 0
        clicks: list[int] = []
        audited = set() if tag in ("desktop", "solo") else None
        while wait_turn(page) == "mine":
            d, m, v = play_by_board_steps(page, rng, tag == "phone", shot_at - decisions, clicks, audited)
            decisions += d
            marked += m
            in_view += v
            assert page.evaluate("document.documentElement.scrollWidth") <= width, "the page scrolls sideways"
            if decisions >= shot_at and shot_at:
                page.screenshot(path=str(screenshots / f"celtae-board-{tag}-mid.png"), full_page=True)
                if tag == "phone":  # the seat's own board as a phone shows it, the prompt still in sight
                    page.locator(".cb-seat.mine").scroll_into_view_if_needed()
                    page.screenshot(path=str(screenshots / "celtae-board-phone-own-panel.png"))
                shot_at = 0
        assert decisions > 20
        assert in_view >= 0.9 * decisions, f"your own pieces in view at {in_view} of {decisions} decisions"
        assert audited is None or len(audited) > 5
        print(
            f"\n{tag}: {decisions} decisions, clicks per turn median {statistics.median(clicks)}, "
            f"mean {statistics.mean(clicks):.1f} over {len(clicks)} turns"
        )
        assert marked > 0, "the other seat's last move was never marked on the board"
        page.locator("[data-testid=game-over]").wait_for()
        record = httpx.get(f"{server}/api/games/{game_id}/record").json()
        final = ludus.replay(record)
        for seat, score in enumerate(final.scores()):
            assert page.inner_text(f"[data-testid=total-{seat}]") == str(score)
        check_log(page, record, players == 1)
        # nothing makes the page wider than the screen (a wide table scrolls in its own box)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(screenshots / f"celtae-board-{tag}-end.png"), full_page=True)
        if tag == "desktop":
            # a spectator sees the same board with nothing to click; the replay viewer draws it too
            page.goto(f"{server}/games/{game_id}")
            page.wait_for_selector("#board .cb")
            assert page.locator("#board button:not([disabled])").count() == 0
            page.goto(f"{server}/replay?game={game_id}")
            page.wait_for_selector("#board .cb")
            poll(page, f"{BODY}.step === '0'")
            page.click("#last")
            poll(page, f"{BODY}.step === '{len(record['actions'])}'")
            assert page.locator("#board .cb-seat").count() == 2
        assert errors == [] and violations == []
    finally:
        context.close()


def serious_violations(page) -> list[str]:
    """axe-core's serious and critical findings on the board (the page's other parts are checked elsewhere)."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page, context="#board").response["violations"]
    return [
        f"{v['id']}: {[n['target'] for n in v['nodes']][:3]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def play_by_board_steps(page, rng, phone, steps, clicks, audited=None):
    """Up to ``steps`` decisions (all of them when steps <= 0) by board clicks; ``audited``: the
    phases already put to axe-core (each new one is, when a set is given). Returns the decisions, those
    with the other seat's last move marked, and those with the own panel at least half on screen."""
    decisions = marked = in_view = 0
    while wait_turn(page) == "mine" and (steps <= 0 or decisions < steps):
        before = version(page)
        poll(page, f"Number({BODY}.boardVersion) === {before}")
        phase = page.evaluate(f"{BODY}.phase")
        if audited is not None and phase not in audited:
            audited.add(phase)
            assert serious_violations(page) == [], f"accessibility of the board in phase {phase}"
        assert unreachable(page) == [], "a legal move cannot be made on the board"
        if phone:
            assert small_targets(page) == [], "a board target under 44 px on a phone"
        else:
            assert smallest_text_px(page) >= 12, "board text under 12 px"
        if page.locator("#board [data-last-move='1']").count():
            marked += 1
        in_view += own_panel_share(page) >= 0.5
        # a question with one answer is never put to the person: the server played it
        assert len(page.evaluate("window.ludusGame.view.legal_actions")) != 1
        past = page.evaluate("window.ludusGame.view.after_skip")
        if past:
            # the optional steps are side controls; the move's own targets are on the board at once
            assert page.locator("#board [data-optional] [data-board-action]").count() > 0
            move = "[data-board-skip]" if past["skip"] else f"[data-board-action='{past['finish']}']"
            assert page.locator(f"#board {move}:not([disabled]):not([data-optional] *)").count() > 0
        board_decision(page, rng, clicks)
        poll(page, f"Number({BODY}.version) > {before}")
        decisions += 1
        assert decisions < 800, "the game does not end"
    return decisions, marked, in_view


def _played(players: int, plies: int = 80):
    state = ludus.load_game("celtae", players=players).new_initial_state(seed=5)
    rng = random.Random(5)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("players", [1, 2, 4])
def test_server_svg_text_is_readable_and_every_seat_piece_carries_its_number(players):
    """`ludus render` and the API's SVG: text at least 14 of 1000 units (12.6 px at 900 px wide),
    seats named from 1, each seat-coloured disc or cube followed by its seat's number."""
    import xml.etree.ElementTree as ET

    from ludus.games.celtae.render import _SEAT, render_svg

    state = _played(players)
    svg = render_svg(state.observation(0))
    root = ET.fromstring(svg)
    assert root.get("viewBox").split()[2] == "1000"
    elements = list(root.iter())
    texts = [e for e in elements if e.tag.endswith("text")]
    assert min(float(t.get("font-size")) for t in texts) >= 14
    words = " ".join(t.text or "" for t in texts)
    assert "Seat 1" in words and "Seat 0" not in words
    pieces = 0
    for i, e in enumerate(elements):
        if e.tag.endswith("circle") and e.get("fill") in _SEAT[:4]:
            seat = _SEAT.index(e.get("fill"))
            assert elements[i + 1].tag.endswith("text") and elements[i + 1].text == str(seat + 1)
            pieces += 1
    assert pieces >= players  # at least each seat's own disc on its board


def test_every_kind_of_decision_has_its_piece(page, server):
    """Legal notation to the piece that plays it, and the two-step choices to their first step."""
    state = _played(2, plies=40)
    obs = state.observation(state.current_player())
    obs.update(marker="NE", action="battle N")
    legal = [
        "move 1",
        "move 3",
        "anywhere",
        "farm S",
        "recruit N",
        "take 2",
        "citadel U",
        "pay Ow",
        "discard Tf",
        "fight",
        "garrison Pw",
        "enlist F",
        "druid",
        "centre 3",
        "release D",
        "progress 4",
        "flip",
        "keep",
        "leader boudica",
        "swap B 2",
        "refresh",
        "done",
    ]
    page.goto(server + "/")
    got = page.evaluate(
        """async ([obs, legal]) => {
      const m = await import('/plugins/celtae/board.js');
      const t = m.targets(obs, legal);
      return {act: Object.fromEntries(t.act), select: Object.fromEntries(t.select), loose: t.loose};
    }""",
        [obs, legal],
    )
    act = {a: k for k, a in got["act"].items()}
    assert act["move 1"] == "corner-SE" and act["move 3"] == "corner-NW"  # clockwise from NE
    assert act["farm S"] == "act-farm-S" and act["recruit N"] == "act-recruit-N"
    assert act["take 2"] == "market-N-1" and act["citadel U"] == "citadel-N-U" and act["fight"] == "roman-N"
    assert (
        act["pay Ow"] == "hand-Ow"
        and act["discard Tf"] == "hand-Tf"
        and got["act"]["hand-Pw"] == "garrison Pw"
    )
    assert act["enlist F"] == "active-F" and act["release D"] == "tribe-D" and act["druid"] == "druid-N"
    assert act["centre 3"] == "centre-2" and act["progress 4"] == "progress-3"
    assert (
        act["flip"] == "leader-flip"
        and act["keep"] == "leader-keep"
        and act["leader boudica"] == "leader-boudica"
    )
    assert act["anywhere"] == "token"
    assert got["select"]["active-B"] == "swap-B" and sorted(got["loose"]) == ["done", "refresh"]


def test_two_step_choices_complete_on_their_targets(page, server):
    state = _played(2, plies=40)
    obs = state.observation(state.current_player())
    obs.update(action="build S")
    page.goto(server + "/")
    got = page.evaluate(
        """async (obs) => {
      const m = await import('/plugins/celtae/board.js');
      const flat = (t) => ({act: Object.fromEntries(t.act), select: Object.fromEntries(t.select)});
      const swap = flat(m.targets(obs, ['swap F 1', 'swap F 3', 'swap S 2', 'done'], {key: 'swap-F'}));
      const wild = flat(m.targets({...obs, action: 'recruit N'}, ['druid F', 'druid N', 'done']));
      const wildDone = flat(m.targets({...obs, action: 'recruit N'}, ['druid F', 'druid N', 'done'], {key: 'druid'}));
      return {swap, wild, wildDone};
    }""",
        obs,
    )
    # Build S is performed in the Farm/Build South area (the rondel's third), slots counted from 1
    assert got["swap"]["act"] == {"area-2-0": "swap F 1", "area-2-2": "swap F 3"}
    assert got["wild"]["select"] == {"druid-N": "druid"} and "druid-N" not in got["wild"]["act"]
    assert got["wildDone"]["act"] == {"tribe-F": "druid F", "tribe-N": "druid N"}


def test_log_sentences_and_each_other_seats_last_turn(page, server):
    page.goto(server + "/")
    got = page.evaluate("""async () => {
      const m = await import('/plugins/celtae/board.js');
      const log = [{seat: 0, action: 'move 2'}, {seat: 0, action: 'farm N'}, {seat: 1, action: 'progress 2'},
        {seat: 0, action: 'take 3'}, {seat: 1, action: 'move 1'}, {seat: 1, action: 'battle S'},
        {seat: 1, action: 'fight'}];
      const rows = m.moveLog({solo: false}, {}, {log});
      return {texts: rows.map((r) => r.text), turns: rows.map((r) => r.turn), rounds: rows.map((r) => r.round),
        roundTwo: m.moveLog({}, {}, {log: [...log, {seat: 0, action: 'move 1'}]}).at(-1).round,
        last: Object.fromEntries(m.lastTurns(log, 0)), lastForSpectator: Object.fromEntries(m.lastTurns(log, null))};
    }""")
    assert got["texts"] == [
        "moved the marker 2 steps",
        "chose to farm in the north",
        "placed a progress marker on the second progress card",
        "took the third market card in the north",
        "moved the marker 1 step",
        "chose to battle in the south",
        "fought the Roman army in the south",
    ]
    assert got["turns"] == [
        True,
        False,
        False,
        False,
        True,
        False,
        False,
    ]  # a progress decision starts no turn
    assert got["rounds"] == [
        1,
        None,
        None,
        None,
        None,
        None,
        None,
    ]  # seat 0 opened round 1; seat 2's turn opens none
    assert got["last"] == {"1": ["move 1", "battle S", "fight"]}
    assert got["roundTwo"] == 2
    assert got["lastForSpectator"]["0"] == ["move 2", "farm N", "take 3"]
