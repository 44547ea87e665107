"""The game page's log told by turns, checked against the server: one entry per turn of the view's
``turns``, each holding exactly its own steps (the actions of the record, and a solo automaton's
turns), so that every action is in the log once and in its turn."""

from __future__ import annotations

# each turn's entry on the page: its sentence (chip left out) and the log steps it shows (data-step)
TURNS_ON_PAGE = """() => [...document.querySelectorAll('#log [data-testid=log-turn]')].map((li) => {
  const line = li.querySelector('.log-line').cloneNode(true);
  for (const n of line.querySelectorAll('.log-chip, .chip, .log-note, .log-notation')) n.remove();
  return {text: line.textContent.trim().replace(/\\s+/g, ' '),
    steps: [...li.querySelectorAll('.log-step[data-step]')].map((s) => Number(s.dataset.step))};
})"""


def check_turn_log(page, record: dict) -> list[str]:
    """Asserts the page's log is the view's turns over the whole record; returns each turn's sentence."""
    view = page.evaluate("(({log, turns}) => ({log, turns}))(window.ludusGame.view)")
    log, turns = view["log"], view["turns"]
    # the log holds every action of the record once, beside the turns the game played by itself
    assert [e["action"] for e in log if "after" not in e] == record["actions"]
    shown = page.evaluate(TURNS_ON_PAGE)
    assert len(shown) == len(turns) > 0, "one log entry per turn"
    covered = 0
    for turn, entry in zip(turns, shown, strict=True):
        first, end = turn["steps"]
        assert first == covered and end > first, f"turns out of order or empty: {turn}"
        covered = end
        assert entry["steps"] == [i for i in range(first, end) if not log[i].get("play")], (turn, entry)
        assert entry["text"].startswith(turn["name"]) and entry["text"].endswith("."), entry
        assert "Seat 0" not in entry["text"]
    assert covered == len(log), "a step of the log belongs to no turn"
    return [entry["text"] for entry in shown]
