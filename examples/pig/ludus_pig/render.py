"""Pig's text board, for the ``ludus`` command (declared as the game's ``renderer`` hook)."""

from __future__ import annotations

from typing import Any


def render_text(observation: dict[str, Any], color: bool = False) -> str:
    """Each seat's banked points, the turn's running total and the last roll."""
    lines = [f"Pig to {observation['target']}"]
    for seat, points in enumerate(observation["scores"]):
        mark = ">" if seat == observation["turn"] else " "
        running = (
            f"  (+{observation['turn_total']} this turn)" if mark == ">" and observation["turn_total"] else ""
        )
        lines.append(f"{mark} seat {seat}: {points}{running}")
    if observation["last_roll"]:
        lines.append(f"last roll: {observation['last_roll']}")
    return "\n".join(lines)
