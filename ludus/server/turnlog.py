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
    fold = TurnFold(names)
    fold.feed(entries)
    return [fold.turn(i) for i in range(fold.count)]


class TurnFold:
    """``group_turns`` that goes on as the log grows: ``feed`` it the entries after those it has, read
    ``turn(i)``. Only the last turn can still change (a later entry joins it, or a game's own turn
    puts its clause first); every earlier one is final, so a server that keeps the fold words each
    finished turn once instead of the whole log at every move."""

    def __init__(self, names: Mapping[int, str | None]) -> None:
        self.names = names
        self.entries = 0  # the entries fed so far
        self._turns: list[dict[str, Any]] = []  # with the working keys _asked, _clauses and _first
        self._opener: int | None = None  # the seat that opened the first marked turn: its turns open rounds
        self._rounds = 0
        self._last_round: Any = None

    @property
    def count(self) -> int:
        """The turns so far (the last may still grow)."""
        return len(self._turns)

    def feed(self, entries: list[dict[str, Any]]) -> None:
        """Go on with ``entries``, the log's entries after those already fed."""
        for i, entry in enumerate(entries, self.entries):
            self._add(i, entry)
        self.entries += len(entries)

    def _add(self, i: int, entry: dict[str, Any]) -> None:
        seat = entry.get("owner", entry["seat"])
        current = self._turns[-1] if self._turns else None
        automaton = "after" in entry
        if automaton:
            joins = current is not None and current["seat"] == seat and current["_asked"]
        else:
            joins = current is not None and current["seat"] == seat and not entry.get("turn")
        if current is None or not joins:
            current = {
                "seat": seat,
                "name": entry.get("name") if automaton else entry.get("owner_name"),
                "steps": [i, i],
                "_asked": not automaton and not entry.get("turn") and entry["seat"] != seat,
                "_clauses": [],
                "_first": entry.get("text") or _played(entry["action"]),
            }
            self._turns.append(current)
            if "round" in entry:
                if entry["round"] != self._last_round:
                    current["round"] = self._last_round = entry["round"]
            elif entry.get("turn"):
                self._opener = seat if self._opener is None else self._opener
                if seat == self._opener:
                    self._rounds += 1
                    current["round"] = self._rounds
        current["steps"][1] = i + 1
        if automaton:
            current["name"] = current["name"] or entry.get("name")
            current["_asked"] = False
        if entry.get("timed_out"):
            current["timed_out"] = True
        clause = entry.get("summary", entry.get("text") or _played(entry["action"]))
        if clause and entry["seat"] != seat and not automaton:
            clause = f"{seat_title(entry['seat'], self.names)} {clause}"
        # a game's own turn first, then the decisions it asked for (placed before it in the log)
        current["_clauses"].insert(0 if automaton else len(current["_clauses"]), clause)

    def turn(self, i: int) -> dict[str, Any]:
        """Turn ``i`` as the view shows it: a new dictionary, worded."""
        work = self._turns[i]
        turn = {k: v for k, v in work.items() if not k.startswith("_")}
        turn["steps"] = list(work["steps"])
        turn["name"] = turn["name"] or seat_title(turn["seat"], self.names)
        said = _merge_played([c for c in work["_clauses"] if c]) or [work["_first"]]
        turn["text"] = name_seats("; ".join(said), self.names)
        return turn


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
