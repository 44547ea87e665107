"""Garum in words: the names of species and colours, and the move log's sentences.

``log_detail`` is the renderer's hook (``ludus.games.garum.render`` offers it); the names serve the
boards in ``ludus.games.garum.render`` and ``ludus.games.garum.svg`` alike.
"""

from __future__ import annotations

from typing import Any

SPECIES_NAMES = {"B": "tuna", "G": "mackerel", "Y": "mollusc", "R": "shellfish"}
COLOUR_NAMES = {"B": "blue", "G": "green", "Y": "yellow", "R": "red"}


def log_detail(state: Any, action: str) -> dict[str, Any]:
    """What the server's move log adds to ``action`` played from ``state``: the acting colour, the round,
    a plain sentence of the step and what it brought (bonus points, the round's end and the next
    cetarium, the final scoring), and ``turn`` on the step that begins a colour's turn (its tile, or
    the Emperor's choice before it; the ghost's tile is a turn of its own), so that no client has to
    guess them from the board. A worker not placed is worded as such, and left out of the turn's
    sentence (``summary``)."""
    colour = state.current_colour()
    letter = state.game.tiles.species[colour].letter if colour is not None else None
    out: dict[str, Any] = {"round": min(state.round + 1, state.game.board.rounds)}
    if letter is not None:
        out["colour"] = letter
    after = state.clone()
    after.apply_action(action)
    words = action.split()
    ghost = state.phase == "ghost"
    if words[0].startswith("c") and len(words) == 2 and "." in words[0]:
        out["text"] = _placed(state, words, letter, ghost)
        history = state.history()
        out["turn"] = ghost or not (history and history[-1].startswith("choose"))
    elif words[0] in ("V", "D") and len(words) == 2:
        out["text"] = _claimed(after, words, colour)
    elif words[0] == "pass":
        out["text"] = "placed no worker"
        out["summary"] = ""
    elif words[0] == "choose" and len(words) == 2:
        out["text"] = f"chose cetarium {words[1].lstrip('c')} for the round"
        out["turn"] = True
    effects = _effects(state, after, colour, ghost)
    if effects:
        out["text"] = out.get("text", action) + ": " + "; ".join(effects)
        if "summary" in out:
            out["summary"] = "; ".join(effects)
    return out


def _placed(state: Any, words: list[str], letter: str | None, ghost: bool) -> str:
    cetarium, slot = words[0][1:].split(".")
    fish = ", ".join(SPECIES_NAMES.get(f, f) for f in words[1])
    colour = COLOUR_NAMES.get(letter or "", letter)
    whose = f"the ghost's {colour} " if ghost else f"the {colour} " if letter else "a "
    corner = (
        ("top-left", "top-right", "bottom-left", "bottom-right")[int(slot) - 1]
        if slot.isdigit() and 1 <= int(slot) <= 4
        else f"slot {slot}"
    )
    return f"placed {whose}tile in cetarium {cetarium}, {corner} ({fish})"


def _claimed(after: Any, words: list[str], colour: int | None) -> str:
    kind, line = words
    where = f"{'row' if line.startswith('h') else 'column'} {line[1:]}"
    text = f"claimed {where} with {'the dominus' if kind == 'D' else 'a vilicus'}"
    if colour is None:
        return text
    board = after.game.board
    index = next((i for i in range(2 * board.size) if board.line_name(i) == line), None)
    if index is None:
        return text
    held = sum(1 for cell in board.line_cells[index] if after.cells[cell] == colour)
    species = after.game.tiles.species[colour].name
    if held == 0:
        return f"{text}, with no {species} in it yet"
    many = species if held == 1 or species in ("tuna", "mackerel", "shellfish") else species + "s"
    return f"{text}, with {held} {many} in it so far"


def _effects(state: Any, after: Any, colour: int | None, ghost: bool) -> list[str]:
    """Bonus points, the round's end and the cetarium revealed for the next one, the final scoring."""
    out = []
    if colour is not None and not ghost:
        gained = after.bonus[colour] - state.bonus[colour]
        if gained:
            out.append(f"scored {gained} bonus point{'s' if gained != 1 else ''}")
    if after.round > state.round and after.phase != "over":
        out.append(f"round {state.round + 1} is over")
        if len(after.revealed) > len(state.revealed):
            out.append(f"the aureus names cetarium {after.revealed[-1]} for round {after.round + 1}")
    if after.phase == "over" and state.phase != "over":
        lines: dict[int, int] = {}
        for _line, owner, _kind, _count, points in after.final:
            lines[owner] = lines.get(owner, 0) + points
        names = after.game.tiles.species
        scored = [
            f"{COLOUR_NAMES.get(names[c].letter, names[c].letter)} {p} point{'' if abs(p) == 1 else 's'}"
            for c, p in sorted(lines.items())
        ]
        out.append("the game is over" + (f"; the lines score {', '.join(scored)}" if scored else ""))
    return out
