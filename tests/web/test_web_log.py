"""The move log of log.js: the seat's name (display name or "Seat N" from 1) after a numbered colour
chip, round separators, steps played for a seat marked, a timed-out turn said, notation on request."""


def test_log_lines_name_mark_and_hide_notation(page, server):
    page.goto(server + "/")
    got = page.evaluate("""async () => {
      const m = await import('/static/js/log.js');
      const list = document.createElement('ol');
      list.id = 'log';
      document.body.append(list);
      m.notationToggle(list);
      m.notationToggle(list);  // added once
      const add = (entry) => { const li = document.createElement('li'); li.append(...m.logLine(entry).filter(Boolean)); list.append(li); return li; };
      const auto = add({seat: 0, text: 'chose the orange citadel', action: 'citadel O', auto: true, mine: true, round: 2});
      const other = add({seat: 1, text: 'paid a card', action: 'pay Ow', auto: true, name: 'Ana'});
      const late = add({seat: 2, text: 'moved the marker 1 corner', action: 'move 1', timedOut: true, bot: 'greedy'});
      const hidden = [...list.querySelectorAll('.log-notation')].every((n) => n.hidden);
      document.querySelector('[data-testid=log-notation]').click();
      const shown = [...list.querySelectorAll('.log-notation')].every((n) => !n.hidden);
      return {auto: auto.innerText, other: other.innerText, late: late.innerText, hidden, shown,
        toggles: document.querySelectorAll('.log-toggle').length, chip: auto.querySelector('.log-chip').textContent,
        round: auto.querySelector('[role=separator]').textContent,
        names: [m.seatTitle(0, [{seat: 0, name: 'Bo'}]), m.seatTitle(1, [{seat: 1}]), m.seatTitle(1, [], true)]};
    }""")
    assert "Seat 1 chose the orange citadel (played for you: only choice)" in got["auto"]
    assert "Ana paid a card (only choice)" in got["other"]
    assert (
        "Seat 3 moved the marker 1 corner (Seat 3's time ran out; a move was played for it (greedy))"
        in got["late"]
    )
    assert got["hidden"] and got["shown"] and got["toggles"] == 1
    assert got["chip"] == "1" and got["round"] == "Round 2"
    assert got["names"] == ["Bo", "Seat 2", "Solitairix"]
