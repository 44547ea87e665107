"""Garum in words: the names of species and colours, and the move log's sentences.

``log_detail`` is the renderer's hook (``ludus.games.garum.render`` offers it); the names serve the
boards in ``ludus.games.garum.render`` and ``ludus.games.garum.svg`` alike.
"""

from __future__ import annotations

from typing import Any

SPECIES_NAMES = {"B": "tuna", "G": "mackerel", "Y": "mollusc", "R": "shellfish"}
COLOUR_NAMES = {"B": "blue", "G": "green", "Y": "yellow", "R": "red"}


def log_detail(state: Any, action: str) -> dict[str, Any]:
    """What the server's move log adds to ``action`` played from ``state``: the acting colour, the round
    and a plain sentence ("placed a tile in cetarium 14 (mackerel, tuna, ...)"), so that no client
    has to guess them from the board."""
    colour = state.current_colour()
    letter = state.game.tiles.species[colour].letter if colour is not None else None
    out: dict[str, Any] = {"round": min(state.round + 1, state.game.board.rounds)}
    if letter is not None:
        out["colour"] = letter
    words = action.split()
    if words[0].startswith("c") and len(words) == 2 and "." in words[0]:
        cetarium, slot = words[0][1:].split(".")
        fish = ", ".join(SPECIES_NAMES.get(f, f) for f in words[1])
        whose = f"the {COLOUR_NAMES.get(letter, letter)} " if letter else "a "
        corner = (
            ("top-left", "top-right", "bottom-left", "bottom-right")[int(slot) - 1]
            if slot.isdigit() and 1 <= int(slot) <= 4
            else f"slot {slot}"
        )
        out["text"] = f"placed {whose}tile in cetarium {cetarium}, {corner} ({fish})"
    elif words[0] in ("V", "D") and len(words) == 2:
        line = words[1]
        where = f"{'row' if line.startswith('h') else 'column'} {line[1:]}"
        out["text"] = f"claimed {where} with {'the dominus' if words[0] == 'D' else 'a vilicus'}"
    elif words[0] == "pass":
        out["text"] = "placed no worker"
    elif words[0] == "choose" and len(words) == 2:
        out["text"] = f"chose cetarium {words[1].lstrip('c')} for the round"
    return out
