"""The move log told by turns: one entry per turn of a seat, in a sentence, with its steps.

The view's ``log`` has one entry per action (and one per turn a game plays by itself, a solo
automaton's); a game's renderer words each (``log_detail``) and may mark the action that begins a turn
(``turn``), the turn an action belongs to when it is another seat's (``owner``: a decision asked of
every seat in someone's turn; ``owner_name`` when that owner is no seat of people, as a solo
automaton) and what the turn's sentence keeps of a step (``summary``: "" for a
declined option that changed nothing). ``group_turns`` puts them together: a turn begins with a
marked action, or with an action of another turn's owner; the turns a game plays by itself join the
decisions its seat was asked for just before them. A game that marks nothing gets a turn per run of
one seat's actions; an action with no words of its game is said as "played <action>".

A sentence may name another seat as ``{seat:N}`` (N from 0); ``name_seats`` writes the seat's name
there (the name a person gave, else "Seat N+1": seats count from 1 wherever a person reads them).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

SEAT_REF = re.compile(r"\{seat:(\d{1,2})\}")


def seat_title(seat: int, names: Mapping[int, str | None]) -> str:
    """A seat as people read it: its name, else "Seat N" counted from 1."""
    return names.get(seat) or f"Seat {seat + 1}"


def name_seats(text: str, names: Mapping[int, str | None]) -> str:
    """``text`` with each ``{seat:N}`` replaced by that seat's name."""
    if "{seat:" not in text:
        return text
    return SEAT_REF.sub(lambda m: seat_title(int(m.group(1)), names), text)


def group_turns(entries: list[dict[str, Any]], names: Mapping[int, str | None]) -> list[dict[str, Any]]:
    """The turns of ``entries`` (the view's log, in order): each ``{"seat", "name", "text", "steps":
    [first, end)}`` (indexes into ``entries``), with ``round`` on the first turn of each round (the
    game's own ``round`` where its entries carry one, else each time the seat that opened the first
    turn opens one) and ``timed_out`` when a stand-in played a step of it."""
    turns: list[dict[str, Any]] = []
    opener: int | None = None  # the seat that opened the first marked turn: its turns open rounds
    rounds = 0
    last_round = None
    for i, entry in enumerate(entries):
        seat = entry.get("owner", entry["seat"])
        current = turns[-1] if turns else None
        automaton = "after" in entry
        if automaton:
            joins = current is not None and current["seat"] == seat and current["_asked"]
        else:
            joins = current is not None and current["seat"] == seat and not entry.get("turn")
        if not joins:
            current = {
                "seat": seat,
                "name": entry.get("name") if automaton else entry.get("owner_name"),
                "steps": [i, i],
                "_asked": not automaton and not entry.get("turn") and entry["seat"] != seat,
                "_clauses": [],
            }
            turns.append(current)
            if "round" in entry:
                if entry["round"] != last_round:
                    current["round"] = last_round = entry["round"]
            elif entry.get("turn"):
                opener = seat if opener is None else opener
                if seat == opener:
                    rounds += 1
                    current["round"] = rounds
        assert current is not None
        current["steps"][1] = i + 1
        if automaton:
            current["name"] = current["name"] or entry.get("name")
            current["_asked"] = False
        if entry.get("timed_out"):
            current["timed_out"] = True
        clause = entry.get("summary", entry.get("text") or _played(entry["action"]))
        if clause and entry["seat"] != seat and not automaton:
            clause = f"{seat_title(entry['seat'], names)} {clause}"
        # a game's own turn first, then the decisions it asked for (placed before it in the log)
        current["_clauses"].insert(0 if automaton else len(current["_clauses"]), clause)
    for turn in turns:
        clauses = turn.pop("_clauses")
        del turn["_asked"]
        turn["name"] = turn["name"] or seat_title(turn["seat"], names)
        kept = _merge_played([c for c in clauses if c])
        said = kept or [entries[turn["steps"][0]].get("text") or _played(entries[turn["steps"][0]]["action"])]
        turn["text"] = name_seats("; ".join(said), names)
    return turns


PLAYED = "played "


def _played(action: str) -> str:
    """An action a game has no words for, as a clause: "played <notation>"."""
    return f"{PLAYED}{action}"


def _merge_played(clauses: list[str]) -> list[str]:
    """Runs of "played X" clauses said once: "played roll, roll and hold"."""
    out: list[str] = []
    run: list[str] = []
    for clause in [*clauses, ""]:
        if clause.startswith(PLAYED):
            run.append(clause[len(PLAYED) :])
            continue
        if run:
            out.append(PLAYED + (run[0] if len(run) == 1 else f"{', '.join(run[:-1])} and {run[-1]}"))
            run = []
        if clause:
            out.append(clause)
    return out


def with_game_turns(entries: list[dict[str, Any]], inserted: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The log ``entries`` with the turns a game played by itself (``inserted``), each after its ``after``
    actions: the log the view shows and the replay tells."""
    out: list[dict[str, Any]] = []
    turns = iter(inserted)
    nxt = next(turns, None)
    for ply, entry in enumerate(entries):
        out.append(entry)
        while nxt is not None and nxt["after"] <= ply + 1:
            out.append(nxt)
            nxt = next(turns, None)
    return out
